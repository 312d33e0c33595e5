"""Competition commands: ``bridgeko verify-draw`` and ``bridgeko bracket``.

Thin shells over :mod:`bridgeko.competition.draw_protocol` (reading and verifying a draw
protocol, the seed rule of :mod:`bridgeko.bridge.commit_reveal` included),
:mod:`bridgeko.competition.scheme` (building and loading schemes) and
:mod:`bridgeko.competition.bracket` (resolving them).
"""

from __future__ import annotations

import argparse
import sys

from bridgeko.cli import CommandError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

# The competition core (and json) is imported by the handlers, not here: building the parser
# stays light, and ``bracket`` does not load what only ``verify-draw`` needs.


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Adds ``verify-draw`` and ``bracket`` to the ``bridgeko`` parser."""
    p = sub.add_parser(
        "verify-draw",
        help="check a published draw protocol (I8)",
        description=(
            "Recompute a draw from its published protocol (JSON): the revealed seed against the "
            "commitment, the lot, the seeding by Elo (R11) and the byes. Prints 'OK: ...' and "
            "exits 0 when everything matches; otherwise lists each mismatch and exits 1. A file "
            "that is not a readable protocol exits 2. Example: bridgeko verify-draw draw-1999.json"
        ),
    )
    p.add_argument("file", metavar="FILE", help="the draw protocol (JSON), or - for standard input")
    p.set_defaults(handler=cmd_verify_draw)

    p = sub.add_parser(
        "bracket",
        help="print the playing scheme for SIZE teams (I1)",
        description=(
            "Print the standard seeded scheme for SIZE (a power of two, at least 4) round by "
            "round: first-round pairs i v SIZE+1-i (I1), the winner of the earlier match at home "
            "(I2), the 3rd-place match (R1.2). With --teams N the numbers above N are missing and "
            "their opponents advance without a match (R11.4). "
            "Example: bridgeko bracket 16 --teams 12"
        ),
    )
    p.add_argument(
        "size", metavar="SIZE", type=_whole, help="the scheme size: 4, 8, 16, 32, 64 ..."
    )
    p.add_argument(
        "--teams", metavar="N", type=_whole, help="the number of teams entered (default: SIZE)"
    )
    p.add_argument(
        "--scheme",
        metavar="FILE",
        help="check and print the organiser's own scheme (JSON or TOML) instead of the standard",
    )
    p.set_defaults(handler=cmd_bracket)


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None


def _read(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        with open(name, encoding="utf-8") as f:
            return f.read()
    except OSError as exc:
        raise CommandError(f"cannot read {name}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise CommandError(f"{name} is not a UTF-8 text file") from None


def cmd_verify_draw(args: argparse.Namespace) -> int:
    import json

    from bridgeko.competition.draw import ProtocolError
    from bridgeko.competition.draw_protocol import verify_protocol

    text = _read(args.file)
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CommandError(
            f"{args.file} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    try:
        report = verify_protocol(doc)
    except ProtocolError as exc:
        raise CommandError(f"{args.file}: {exc}") from None
    if report.ok:
        print(f"OK: {report.summary}")
        return 0
    print(f"MISMATCH: {report.summary}")
    for problem in report.problems:
        print(f"  - {problem}")
    return 1


def cmd_bracket(args: argparse.Namespace) -> int:
    from bridgeko.competition.bracket import describe
    from bridgeko.competition.scheme import load_scheme, standard_scheme

    scheme = load_scheme(args.scheme) if args.scheme else standard_scheme(args.size)
    if scheme.size != args.size:
        raise CommandError(f"the scheme in {args.scheme} is for {scheme.size}, not {args.size}")
    teams = args.size if args.teams is None else args.teams
    if not 0 < teams <= scheme.size:
        raise CommandError(f"--teams must be 1..{scheme.size}, not {teams}")
    title = scheme.name or f"scheme for {scheme.size}"
    missing = ""
    if teams == scheme.size - 1:
        missing = f", number {scheme.size} missing"
    elif teams < scheme.size:
        missing = f", numbers {teams + 1}-{scheme.size} missing"
    print(f"{title}: {teams} teams{missing}")
    print()
    for line in describe(scheme, teams):
        print(line)
    return 0
