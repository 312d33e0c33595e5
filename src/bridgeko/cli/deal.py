"""``bridgeko deal``: computer-dealt boards from a secret seed (R12.7), or a new seed.

A thin shell over :mod:`bridgeko.bridge.dealing` and :mod:`bridgeko.bridge.dealt_pbn` (PBN),
:mod:`bridgeko.bridge.formats` (DUP, DLM). A few boards are dealt one at a time without numpy
(:func:`~bridgeko.bridge.dealing.deal_set_small`), a long set in batches and written as it is
dealt (:func:`~bridgeko.bridge.dealing.deal_set_batches`, :func:`~bridgeko.bridge.dealt_pbn.
deal_values`): no Card, Deal or PBN game objects on the way (``benchmarks/bench_deal.py``).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator

from bridgeko.cli import CommandError
from bridgeko.cli.common import output, seed_of, set_options, write

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (start-up time)
if TYPE_CHECKING:
    from typing import Any

    from bridgeko.bridge.cards import Deal
    from bridgeko.bridge.dealing import CardArray, CardIndices

    Hands = tuple[CardIndices, CardIndices, CardIndices, CardIndices]

FORMATS = ("pbn", "dup", "dlm")
PROGRESS_FROM = 2000
"""Boards from which a progress bar is shown (on a terminal): fewer are dealt at once."""
SMALL = 2000
"""Sets of fewer boards are dealt without numpy (numpy's start-up costs more than they do)."""
_CHUNK = 4096  # boards dealt at a time as Deal values: a long set is checked in little memory
_FORMAT_LIMITS = {"dup": 999, "dlm": 99}  # formats.DUP_MAX_BOARD, DLM_MAX_BOARD (a test checks)


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Adds ``deal`` to the ``bridgeko`` parser."""
    p = sub.add_parser(
        "deal",
        help="deal boards for a championship (R12.7) or make a seed and its commitment",
        description=(
            "Deal computer boards reproducibly from a secret seed (R12.7). Before play, make a "
            "seed with 'bridgeko deal --commit', keep the seed secret and publish the "
            "commitment; deal with the seed; after play reveal the seed so that anyone can "
            "check the boards with 'bridgeko verify-deal'. PBN files are written in UTF-8 "
            "(PBN 2.1 says ISO 8859-1, which has no č, ř, ě; plain ASCII text is the same in "
            "both). Example: bridgeko deal --seed HEX --event 'Bridge Open K.O.' --session QF-1 "
            "--site Praha --date 1999.06.04 --boards 1-16 --format pbn -o qf1.pbn"
        ),
    )
    p.add_argument(
        "--commit",
        action="store_true",
        help=(
            "make a new secret seed and print it with its commitment (publish the commitment); "
            "with -o FILE the seed goes to FILE (readable by you only) instead of the screen"
        ),
    )
    set_options(p, required=False)
    p.add_argument("--site", default="", metavar="PLACE", help="the PBN Site tag (default: ?)")
    p.add_argument(
        "--date",
        default="",
        metavar="YYYY.MM.DD",
        help="the PBN Date tag, e.g. 1999.06.04 (1999-06-04 is read too; default: ?)",
    )
    p.add_argument(
        "--format",
        choices=FORMATS,
        default="pbn",
        help=(
            "pbn (default); dup (Duplimate binary, boards up to 999, needs -o); "
            "dlm (Duplimate text, boards 1 to 99)"
        ),
    )
    p.add_argument(
        "-o", "--output", metavar="FILE", help="write to FILE (replaced if it exists), not stdout"
    )
    p.add_argument(
        "--json", action="store_true", help="print a JSON object: the commitment and the deals"
    )
    p.set_defaults(handler=cmd_deal)


def _check_set(args: argparse.Namespace) -> None:
    missing = [f"--{name}" for name in ("event", "boards") if getattr(args, name) is None]
    if args.seed is None and args.seed_file is None:
        missing.insert(0, "--seed (or --seed-file)")
    if missing:
        raise CommandError(f"missing {', '.join(missing)} (or use --commit to make a new seed)")


def _boards(args: argparse.Namespace, limit: int | None = None) -> tuple[int, ...]:
    from bridgeko.bridge import dealing

    boards = dealing.parse_board_range(args.boards)
    if limit is not None and boards[-1] > limit:
        raise CommandError(
            f"the {args.format.upper()} format holds boards 1 to {limit}, not {args.boards!r}"
        )
    return boards


def pbn_date(text: str) -> str:
    """The PBN Date value (``"1999.06.04"``; ``"?"`` parts allowed) of a --date argument."""
    t = text.strip()
    if not t:
        return ""
    import datetime as dt
    import re

    m = re.fullmatch(r"(\d{4}|\?{4})[.-](\d{2}|\?\?)[.-](\d{2}|\?\?)", t, re.ASCII)
    if m is None:
        raise CommandError(f"--date: not a date: {text!r} (expected YYYY.MM.DD, e.g. 1999.06.04)")
    year, month, day = m.groups()
    try:
        if "?" not in year + month + day:
            dt.date(int(year), int(month), int(day))
        elif "?" not in month and not 1 <= int(month) <= 12:
            raise ValueError
    except ValueError:
        raise CommandError(f"--date: there is no such day as {text!r}") from None
    return f"{year}.{month}.{day}"


def dealt_hands(
    seed: bytes,
    event: str,
    session: str,
    boards: tuple[int, ...],
    *,
    progress: bool = True,
) -> Iterator[tuple[tuple[int, ...], list[Hands] | CardArray]]:
    """The deals of ``boards`` a part at a time: (boards of the part, their hands).

    The hands are a list of card-index tuples (N, E, S, W) for a small set, a numpy card array
    (``(n, 4, 13)``) for a long one; a progress bar shows on a terminal for a long set.
    """
    from bridgeko.bridge import dealing
    from bridgeko.cli.common import progress as bar

    if len(boards) < SMALL:
        yield boards, dealing.deal_set_small(seed, event, session, boards)
        return
    with bar(len(boards), "dealing", progress and len(boards) >= PROGRESS_FROM) as update:
        start = 0
        for cards in dealing.deal_set_batches(seed, event, session, boards):
            part = boards[start : start + len(cards)]
            start += len(cards)
            yield part, cards
            update(len(part))


def dealt_deals(
    seed: bytes, event: str, session: str, boards: tuple[int, ...], *, progress: bool = True
) -> Iterator[tuple[int, Deal]]:
    """The deals of ``boards`` as :class:`Deal` values, in board order."""
    from bridgeko.bridge import dealing
    from bridgeko.cli.common import progress as bar

    if len(boards) < SMALL:
        hands = dealing.deal_set_small(seed, event, session, boards)
        yield from zip(boards, map(dealing.deal_from_indices, hands), strict=True)
        return
    with bar(len(boards), "dealing", progress and len(boards) >= PROGRESS_FROM) as update:
        for start in range(0, len(boards), _CHUNK):
            part = boards[start : start + _CHUNK]
            deals = dealing.deal_set(seed, event, session, part)
            yield from ((b, deals[b]) for b in part)
            update(len(part))


def cmd_deal(args: argparse.Namespace) -> int:
    from bridgeko.bridge import dealing

    if args.commit:
        names = ("seed", "seed_file", "event", "boards")
        if any(getattr(args, n) is not None for n in names):
            raise CommandError(
                "--commit makes a new seed and deals nothing: give it alone "
                "(with -o FILE for the seed, --json)"
            )
        return _commit(args)
    _check_set(args)
    seed = seed_of(args)
    boards = _boards(args, None if args.json else _FORMAT_LIMITS.get(args.format))
    date = pbn_date(args.date)
    if args.format == "dup" and args.output is None and not args.json:
        raise CommandError("this format is binary: give a file with -o FILE")
    published = dealing.commitment(seed)
    # PBN is written as it is dealt: no progress bar when it goes to the same terminal.
    streamed = args.format == "pbn" and not args.json and args.output is None
    progress = not (streamed and sys.stdout.isatty())
    if args.json:
        import json

        from bridgeko.bridge.dealt_pbn import hand_text

        payload = dealing.DealSetProtocol(args.event, args.session, boards, published).to_dict()
        del payload["seed"]
        payload.update({"site": args.site or None, "date": date or None})
        deals: dict[str, str] = {}
        for part, hands in dealt_hands(seed, args.event, args.session, boards):
            rows = hands if isinstance(hands, list) else hands.tolist()
            for b, h in zip(part, rows, strict=True):
                deals[str(b)] = "N:" + " ".join(map(hand_text, h))
        payload["deals"] = deals
        write(args.output, json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
    elif args.format == "pbn":
        _write_pbn(args, seed, boards, date, published, progress)
    elif args.format == "dup":
        from bridgeko.bridge import formats

        dealt = dealt_deals(seed, args.event, args.session, boards)
        write(args.output, formats.to_dup(dict(dealt)))
    else:
        from bridgeko.bridge import formats

        hands = dealing.deal_set_small(seed, args.event, args.session, boards)  # 99 at most
        title = f"{args.event} {args.session}".strip()
        write(args.output, formats.to_dlm(dict(zip(boards, hands, strict=True)), title=title))
    # The data is written and flushed: the summary on stderr cannot interleave with it.
    where = f" to {args.output}" if args.output is not None else ""
    print(
        f"dealt {len(boards)} boards ({args.boards}) of {args.event!r} "
        f"session {args.session or '(none)'}{where}; commitment {published}",
        file=sys.stderr,
    )
    return 0


def _write_pbn(
    args: argparse.Namespace,
    seed: bytes,
    boards: tuple[int, ...],
    date: str,
    published: str,
    progress: bool,
) -> None:
    """Writes the set as PBN while it is dealt, a batch at a time."""
    from bridgeko.bridge import dealing
    from bridgeko.bridge.dealt_pbn import DealtPbn, deal_value, deal_values

    note = (
        f"Dealt by bridgeko ({dealing.METHOD}): event {args.event!r}, session "
        f"{args.session!r}, boards {args.boards}; seed commitment {published}"
    )
    writer = DealtPbn(event=args.event, site=args.site, date=date, note=note)
    with output(args.output) as sink:
        sink(writer.header())
        for part, hands in dealt_hands(seed, args.event, args.session, boards, progress=progress):
            if isinstance(hands, list):
                values = [deal_value(h, b) for b, h in zip(part, hands, strict=True)]
            else:
                values = deal_values(hands, part)
            sink(writer.games(part, values))


def _commit(args: argparse.Namespace) -> int:
    import os

    from bridgeko.bridge import dealing

    seed = dealing.new_seed()
    published = dealing.commitment(seed)
    path: str | None = args.output
    if path is not None:
        try:
            # The seed is a secret until play is over: a new file, readable by the owner only.
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "w", encoding="ascii") as f:
                f.write(seed.hex() + "\n")
        except FileExistsError:
            raise CommandError(f"{path} exists already: a seed file is never overwritten") from None
        except OSError as exc:
            raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None
    if args.json:
        import json

        payload: dict[str, object] = {"commitment": published, "method": dealing.METHOD}
        payload.update({"seed_file": path} if path is not None else {"seed": seed.hex()})
        print(json.dumps(payload))
        return 0
    if path is not None:
        print(f"seed written to {path} (keep it secret until play is over)")
    else:
        print(f"seed (keep secret until play is over): {seed.hex()}")
    print(f"commitment (publish before play):      {published}")
    return 0
