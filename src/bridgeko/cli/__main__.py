"""``python -m bridgeko.cli``: the ``bridgeko`` command."""

import sys

from bridgeko.cli import main

if __name__ == "__main__":  # not when imported (e.g. collected for doctests)
    sys.exit(main())
