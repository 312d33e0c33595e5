"""Scoring commands: ``bridgeko score``, ``bridgeko imps`` and ``bridgeko board-imps``.

Each is a thin shell over :mod:`bridgeko.bridge.scoring`; ``--json`` prints one JSON object.
"""

from __future__ import annotations

import argparse

from bridgeko.cli import CommandError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

    from bridgeko.bridge.cards import Vulnerability

# The bridge core is imported by the handlers, not here: building the parser stays light.


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Adds ``score``, ``imps`` and ``board-imps`` to the ``bridgeko`` parser."""
    p = sub.add_parser(
        "score",
        help="the duplicate score of a contract (Law 77)",
        description=(
            "Print the declaring side's duplicate score (Law 77 of the 1997 Laws) of a contract "
            "and the tricks the declarer took. Example: bridgeko score 4SX 8 --vulnerable"
        ),
    )
    p.add_argument("contract", help="the contract, e.g. 4S, 3NTX, 6HXX or Pass")
    p.add_argument(
        "tricks",
        nargs="?",
        type=_tricks,
        help="tricks taken by the declarer, 0-13 (not needed for Pass)",
    )
    p.add_argument(
        "-v", "--vulnerable", action="store_true", help="the declaring side is vulnerable"
    )
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(handler=cmd_score)

    p = sub.add_parser(
        "imps",
        help="convert a score difference to IMPs (Law 78B)",
        description=(
            "Print the IMPs for a difference in points on the WBF scale (Law 78B). With two "
            "numbers, the difference is the first minus the second. Example: bridgeko imps 620"
        ),
    )
    p.add_argument("difference", type=_points, help="the difference in points, e.g. 620 or -170")
    p.add_argument(
        "minus",
        nargs="?",
        type=_points,
        help="optional: a second score, subtracted from the first",
    )
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(handler=cmd_imps)

    p = sub.add_parser(
        "board-imps",
        help="IMPs of one board played in two rooms (home team's point of view)",
        description=(
            "Score one board played in the open and the closed room and print the IMPs to the "
            "home team, which sits North-South in the open room (R12.2). Results are written "
            "like '4S N =', '4SX S -2', '3NT E +1', '6HXX W 12' or 'Pass'. "
            'Example: bridgeko board-imps "4S N =" "4S N -1" --board 3'
        ),
    )
    p.add_argument("open_room", help="the result in the open room, e.g. '4S N ='")
    p.add_argument("closed_room", help="the result in the closed room, e.g. '4S N -1'")
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--board", type=_board, help="the board number (gives the vulnerability)")
    which.add_argument(
        "--vulnerability",
        type=_vulnerability,
        help="the vulnerability: None, NS, EW or All",
    )
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(handler=cmd_board_imps)


def _whole_number(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{what} must be a whole number, not {text!r}") from None


def _tricks(text: str) -> int:
    value = _whole_number(text, "tricks")
    if not 0 <= value <= 13:
        raise argparse.ArgumentTypeError(f"tricks taken must be 0 to 13, not {value}")
    return value


def _points(text: str) -> int:
    return _whole_number(text, "a score")


def _board(text: str) -> int:
    value = _whole_number(text, "a board number")
    if value < 1:
        raise argparse.ArgumentTypeError(f"a board number is 1 or more, not {value}")
    return value


def _vulnerability(text: str) -> Vulnerability:
    from bridgeko.bridge.cards import Vulnerability

    try:
        return Vulnerability.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _emit(args: argparse.Namespace, payload: dict[str, object], text: str) -> int:
    if args.json:
        import json

        text = json.dumps(payload, ensure_ascii=False)
    print(text)
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    from bridgeko.bridge.contract import Contract
    from bridgeko.bridge.scoring import score

    contract = Contract.parse(args.contract)
    tricks: int | None = args.tricks
    if tricks is None:
        if not contract.is_passed_out:
            raise CommandError(f"give the tricks the declarer took in {contract} (0 to 13)")
        tricks = 0
    points = score(contract, tricks, args.vulnerable)
    payload: dict[str, object] = {
        "contract": str(contract),
        "tricks": None if contract.is_passed_out else tricks,
        "vulnerable": bool(args.vulnerable),
        "score": points,
    }
    return _emit(args, payload, str(points))


def cmd_imps(args: argparse.Namespace) -> int:
    from bridgeko.bridge.scoring import imps

    difference: int = args.difference if args.minus is None else args.difference - args.minus
    result = imps(difference)
    payload: dict[str, object] = {"difference": difference, "imps": result}
    return _emit(args, payload, str(result))


def cmd_board_imps(args: argparse.Namespace) -> int:
    from bridgeko.bridge.board import dealer, vulnerability
    from bridgeko.bridge.scoring import parse_result, score_board

    try:
        open_room = parse_result(args.open_room)
    except ValueError as exc:
        raise CommandError(f"open room: {exc}") from None
    try:
        closed_room = parse_result(args.closed_room)
    except ValueError as exc:
        raise CommandError(f"closed room: {exc}") from None
    board: int | None = args.board
    vul: Vulnerability = vulnerability(board) if board is not None else args.vulnerability
    bs = score_board(open_room, closed_room, vul)
    payload: dict[str, object] = {
        "board": board,
        "dealer": None if board is None else dealer(board).value,
        "vulnerability": vul.value,
        "open_room": str(open_room),
        "closed_room": str(closed_room),
        "open_ns": bs.open_ns,
        "closed_ns": bs.closed_ns,
        "difference": bs.difference,
        "imps": bs.imps,
        "home_imps": bs.home_imps,
        "away_imps": bs.away_imps,
    }
    title = f"board {board}, " if board is not None else ""
    side = "home" if bs.imps >= 0 else "visiting"
    lines = [
        f"{title}vulnerable: {vul.value}",
        f"open room   (home NS):    {open_room!s:<10} NS {bs.open_ns:+d}",
        f"closed room (home EW):    {closed_room!s:<10} NS {bs.closed_ns:+d}",
        f"difference to home team:  {bs.difference:+d}",
        f"IMPs: {abs(bs.imps)} to the {side} team" if bs.imps else "IMPs: 0",
    ]
    return _emit(args, payload, "\n".join(lines))
