"""Commands of this module are added by ``register``."""

from __future__ import annotations

import argparse
from typing import Any


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Adds this module's commands to the ``bridgeko`` parser."""
