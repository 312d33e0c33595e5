"""The ``bridgeko`` command line: thin commands over the core and the services.

Each module in :data:`COMMAND_MODULES` has ``register(subparsers)``, which adds its commands;
a command's handler takes the parsed arguments and returns the process exit code.
Bad input ends with a one-line message on stderr and exit code 2, never a traceback.

Start-up is kept light: building the parser imports only the command modules, which import
nothing heavy at module level (no Django, numpy, endplay or tqdm, not even the bridge core); each
handler imports what it needs when it runs. ``tests/test_cli_startup.py`` guards this and
``benchmarks/bench_startup.py`` measures it.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from bridgeko import __version__

COMMANDS: dict[str, tuple[str, str]] = {
    "score": ("bridgeko.cli.scoring_cmds", "the duplicate score of a contract (Law 77)"),
    "imps": ("bridgeko.cli.scoring_cmds", "convert a score difference to IMPs (Law 78B)"),
    "board-imps": (
        "bridgeko.cli.scoring_cmds",
        "IMPs of one board played in two rooms (home team's point of view)",
    ),
    "deal": (
        "bridgeko.cli.deal",
        "deal boards for a championship (R12.7) or make a seed and its commitment",
    ),
    "verify-deal": (
        "bridgeko.cli.verify_deal",
        "check a revealed seed against its commitment and regenerate the boards",
    ),
    "analyse": ("bridgeko.cli.analyse", "double-dummy tables and par of every deal of a PBN file"),
    "showcase": ("bridgeko.cli.showcase", "a short demonstration: deal, commit, analyse, score"),
    "verify-draw": ("bridgeko.cli.competition_cmds", "check a published draw protocol (I8)"),
    "bracket": ("bridgeko.cli.competition_cmds", "print the playing scheme for SIZE teams (I1)"),
    "serve": ("bridgeko.cli.web_cmds", "migrate the database and run the web application"),
    "manage": (
        "bridgeko.cli.web_cmds",
        "run a Django management command (bridgeko manage createsuperuser ...)",
    ),
    "import-elo": (
        "bridgeko.cli.web_cmds",
        "import the federation's Elo list (CSV) for an edition",
    ),
    "import-results": (
        "bridgeko.cli.import_results",
        "import a match's results from a PBN or LIN file (the whole match or one segment)",
    ),
    "import-bws": (
        "bridgeko.cli.bridgemate_cmds",
        "import a match's results from a Bridgemate (BCS .bws) file, or follow it live",
    ),
    "follow": (
        "bridgeko.cli.bridgemate_cmds",
        "follow the Bridgemate files switched on in the TD's pages (results live)",
    ),
    "analyse-pending": (
        "bridgeko.cli.analyse_pending",
        "analyse (double dummy) every set of boards not fully analysed",
    ),
    "send-mail": (
        "bridgeko.cli.mail_cmds",
        "send the queued mail to captains (--retry-failed: also the mail that failed)",
    ),
    "export-site": (
        "bridgeko.cli.export_cmds",
        "write the public results site as static files into DIR (for any web host)",
    ),
    "export-cbs": (
        "bridgeko.cli.export_cmds",
        "write the files Matrika ČBS imports for a finished edition into DIR",
    ),
    "export-usebio": (
        "bridgeko.cli.export_cmds",
        "write an edition's matches board by board as USEBIO XML into FILE",
    ),
    "backup": (
        "bridgeko.cli.backup_cmds",
        "write a snapshot of the whole database to a file (while the server runs)",
    ),
    "restore": (
        "bridgeko.cli.backup_cmds",
        "load a backup into an empty database (--force replaces a database's data)",
    ),
}
"""Every command: its module and its line in ``bridgeko --help`` (the same as the module's, which
a test checks), in the order of that help."""

ALIASES = {"analyze": "analyse"}
"""Other names of commands."""

COMMAND_MODULES = tuple(dict.fromkeys(module for module, _help in COMMANDS.values()))
"""The modules with commands; each has ``register(subparsers)``."""


class CommandError(Exception):
    """A user error in a command: printed as ``bridgeko: <message>``, exit code 2."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``bridgeko`` parser with every command; for a ``command`` run, only that command
    (and its module's other commands), so that no other command module is imported nor parser
    built (start-up time). For a name that is no command (``""`` for ``bridgeko --help``), every
    command gets a name and a help line only."""
    parser = argparse.ArgumentParser(
        prog="bridgeko",
        description="Run a contract-bridge teams knockout competition.",
    )
    parser.add_argument("--version", action="version", version=f"bridgeko {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = None
    if command is not None:
        found = COMMANDS.get(ALIASES.get(command, command))
        wanted = found[0] if found is not None else ""
    done: set[str] = set()
    for name, (module, text) in COMMANDS.items():
        if module in done:
            continue
        if wanted is None or module == wanted:
            importlib.import_module(module).register(sub)
            done.add(module)
        elif not wanted:
            aliases = [a for a, target in ALIASES.items() if target == name]
            sub.add_parser(name, help=text, aliases=aliases, add_help=False)
    return parser


def _command(argv: Sequence[str]) -> str:
    """The command named in ``argv``: its first word that is not an option (the top level has
    no option taking a value), or ``""``."""
    return next((a for a in argv if not a.startswith("-")), "")


def main(argv: Sequence[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(_command(argv))
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
