"""How big the randomised tests are: short in ``make test``, long with ``BRIDGEKO_FUZZ=long``
(e.g. overnight, or after changing a reader or a rule)."""

from __future__ import annotations

import os

FUZZ_ENV = "BRIDGEKO_FUZZ"
LONG = os.environ.get(FUZZ_ENV) == "long"
"""The long run."""
LONG_FACTOR = 50


def examples(default: int) -> int:
    """A property test's number of examples: ``default``, 50 times as many in the long run."""
    return default * LONG_FACTOR if LONG else default
