"""The ``bridgeko`` command line: thin commands over the core and the services.

Each module in :data:`COMMAND_MODULES` has ``register(subparsers)``, which adds its commands;
a command's handler takes the parsed arguments and returns the process exit code.
Bad input ends with a one-line message on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from bridgeko import __version__

COMMAND_MODULES = (
    "bridgeko.cli.scoring_cmds",
    "bridgeko.cli.dealing_cmds",
    "bridgeko.cli.competition_cmds",
    "bridgeko.cli.web_cmds",
    "bridgeko.cli.backup_cmds",
)


class CommandError(Exception):
    """A user error in a command: printed as ``bridgeko: <message>``, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bridgeko",
        description="Run a contract-bridge teams knockout competition.",
    )
    parser.add_argument("--version", action="version", version=f"bridgeko {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    # A pass-through command (``bridgeko manage --help``) takes options meant for another program,
    # which argparse would otherwise reject before they reach its REMAINDER argument.
    args, extra = parser.parse_known_args(argv)
    if extra:
        if not getattr(args, "passthrough", False):
            parser.error(f"unrecognized arguments: {' '.join(extra)}")
        args.args = [*extra, *args.args]
    handler = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        return int(handler(args) or 0)
    except (CommandError, ValueError) as exc:
        print(f"bridgeko: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
