"""``bridgeko verify-deal``: check a revealed seed and the boards played against it (R12.7).

A thin shell over :mod:`bridgeko.bridge.dealing` (the commitment, the boards dealt again) and
:mod:`bridgeko.bridge.pbn` / :mod:`bridgeko.bridge.formats` (the file of the boards played).
"""

from __future__ import annotations

import argparse
import sys

from bridgeko.cli import CommandError
from bridgeko.cli.common import encoding_option, read_bytes, read_text, seed_of, set_options

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

    from bridgeko.bridge.cards import Deal


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Adds ``verify-deal`` to the ``bridgeko`` parser."""
    p = sub.add_parser(
        "verify-deal",
        help="check a revealed seed against its commitment and regenerate the boards",
        description=(
            "Check that the revealed seed matches the published commitment, deal the set again "
            "and, given a file of the boards played (PBN, DUP or DLM), compare every board. "
            "Exit code 0 when everything matches, 1 on a mismatch (the board is named), 2 on "
            "bad input."
        ),
    )
    set_options(p, required=True)
    p.add_argument(
        "--commitment", required=True, metavar="HEX", help="the commitment published before play"
    )
    p.add_argument("file", nargs="?", metavar="FILE", help="the boards played (.pbn/.dup/.dlm)")
    encoding_option(p)
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(handler=cmd_verify_deal)


def _file_deals(path: str, encoding: str) -> dict[int, list[Deal]]:
    """Board number -> the deals the file gives for it (a PBN file may have two rooms)."""
    import os

    from bridgeko.bridge import formats, pbn

    suffix = os.path.splitext(path)[1].lower()
    if suffix == ".dup":
        return {b: [d] for b, d in formats.from_dup(read_bytes(path)).items()}
    text = read_text(path, encoding)
    if suffix == ".dlm":
        return {b: [d] for b, d in formats.from_dlm(text).items()}
    out: dict[int, list[Deal]] = {}
    for game in pbn.parse(text).games:
        try:  # an end position (PBN 2.1 §3.10) is no deal dealt: refused, naming its line
            number, deal = game.board, game.complete_deal
        except pbn.PbnError as exc:
            raise CommandError(f"{path}: {exc}") from None
        if number is not None and deal is not None:
            out.setdefault(number, []).append(deal)
    return out


def cmd_verify_deal(args: argparse.Namespace) -> int:
    from bridgeko.bridge import dealing
    from bridgeko.cli.deal import dealt_deals, dealt_hands

    seed = seed_of(args)
    commitment_hex = args.commitment.strip().lower()
    if len(commitment_hex) != 64 or any(c not in "0123456789abcdef" for c in commitment_hex):
        raise CommandError(
            f"not a commitment: {args.commitment!r} (expected 64 hex digits of SHA-256)"
        )
    boards = dealing.parse_board_range(args.boards)
    played = _file_deals(args.file, args.encoding) if args.file is not None else None
    problems: list[tuple[int | None, str]] = []
    commitment_ok = dealing.verify_commitment(seed, commitment_hex)
    if not commitment_ok:
        problems.append((None, "the seed does not match the commitment"))
    extra: list[int] = []
    if played is None:  # the set is dealt, as card indices: nothing to compare
        for _part in dealt_hands(seed, args.event, args.session, boards):
            pass
    else:
        for b, expected in dealt_deals(seed, args.event, args.session, boards):
            if b not in played:
                problems.append((b, "not in the file"))
            elif any(d != expected for d in played[b]):
                problems.append((b, "the deal differs from the one dealt by the seed"))
        extra = sorted(set(played) - set(boards))
    if args.json:
        import json

        payload = {
            "commitment_ok": commitment_ok,
            "event": args.event,
            "session": args.session,
            "boards": list(boards),
            "file": args.file,
            "ok": not problems,
            "mismatches": [{"board": b, "problem": why} for b, why in problems],
            "boards_not_in_set": extra,
        }
        print(json.dumps(payload, ensure_ascii=False))
    else:
        for which, why in problems:
            print(f"MISMATCH: board {which}: {why}" if which is not None else f"MISMATCH: {why}")
        if extra:
            print(f"note: the file also has boards not in the set: {extra}")
        if not problems:
            checked = f"{len(boards)} boards of the file match" if args.file else "set dealt"
            print(f"OK: the seed matches the commitment; {checked}")
    sys.stdout.flush()
    return 1 if problems else 0
