import sys

from bridgeko.cli import main

sys.exit(main())
