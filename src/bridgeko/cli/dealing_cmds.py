"""Dealing commands: ``bridgeko deal``, ``verify-deal``, ``analyse`` and ``showcase``.

Thin shells over :mod:`bridgeko.bridge.dealing` (computer-dealt boards, R12.7),
:mod:`bridgeko.bridge.analysis` (double dummy and par), :mod:`bridgeko.bridge.pbn` and
:mod:`bridgeko.bridge.formats`. Long work shows a progress bar on stderr (only on a terminal,
and not while PBN is streamed to that terminal). Data goes to stdout or ``-o FILE`` and is
flushed before the one-line summary is printed on stderr. Files are written in UTF-8 (PBN 2.1
says ISO 8859-1, which cannot hold Czech names) and read in UTF-8, Windows-1250 or ISO 8859-1
(:func:`bridgeko.bridge.pbn.decode`, ``--encoding``). Bad input ends with one line
``bridgeko: ...`` and exit code 2.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import re
import string
import sys
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from bridgeko.bridge import dealing, formats, pbn
from bridgeko.bridge.board import dealer, vulnerability
from bridgeko.bridge.cards import Deal, Seat, Strain
from bridgeko.bridge.contract import Contract
from bridgeko.bridge.ddtable import DDTable, Par
from bridgeko.bridge.result import BoardResult
from bridgeko.bridge.scoring import score_board
from bridgeko.cli import CommandError

FORMATS = ("pbn", "dup", "dlm")
_SEATS = (Seat.NORTH, Seat.EAST, Seat.SOUTH, Seat.WEST)
_STRAINS = (Strain.NOTRUMP, Strain.SPADES, Strain.HEARTS, Strain.DIAMONDS, Strain.CLUBS)
_PROGRESS_FROM = 2000  # boards; dealing fewer is instant
_CHUNK = 500  # boards dealt and written at a time: a long set streams in little memory
_FORMAT_LIMITS = {"dup": formats.DUP_MAX_BOARD, "dlm": formats.DLM_MAX_BOARD}


def register(sub: argparse._SubParsersAction[Any]) -> None:
    """Adds ``deal``, ``verify-deal``, ``analyse`` and ``showcase`` to the ``bridgeko`` parser."""
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
    _set_options(p, required=False)
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
    _set_options(p, required=True)
    p.add_argument(
        "--commitment", required=True, metavar="HEX", help="the commitment published before play"
    )
    p.add_argument("file", nargs="?", metavar="FILE", help="the boards played (.pbn/.dup/.dlm)")
    _encoding_option(p)
    p.add_argument("--json", action="store_true", help="print a JSON object")
    p.set_defaults(handler=cmd_verify_deal)

    p = sub.add_parser(
        "analyse",
        aliases=["analyze"],
        help="double-dummy tables and par of every deal of a PBN file",
        description=(
            "Compute the double-dummy table (tricks for each declarer and strain) and the par "
            "of every deal of a PBN file, and write the file again with OptimumResultTable, "
            "OptimumScore and ParContract tags (in UTF-8). A game that cannot be read is "
            "skipped with a warning naming its line, unless --strict. "
            "Example: bridgeko analyse qf1.pbn -o qf1-dd.pbn"
        ),
    )
    p.add_argument("file", metavar="FILE.pbn", help="the PBN file to analyse")
    p.add_argument(
        "-o",
        "--output",
        metavar="OUT.pbn",
        help="write to OUT.pbn instead of stdout (the input file itself only with --force)",
    )
    p.add_argument("--force", action="store_true", help="let -o replace the input file")
    p.add_argument(
        "--strict", action="store_true", help="stop at the first game that cannot be read"
    )
    _encoding_option(p)
    p.add_argument(
        "--json", action="store_true", help="print the tables and pars as JSON instead of PBN"
    )
    p.set_defaults(handler=cmd_analyse)

    p = sub.add_parser(
        "showcase",
        help="a short demonstration: deal, commit, analyse, score",
        description=(
            "A short tour for a newcomer: deals a 16-board set from a fresh seed, prints the "
            "commitment, analyses the boards double dummy (tables and par) and scores a few "
            "results in two rooms with their IMPs."
        ),
    )
    p.add_argument(
        "--event",
        default="bridgeko showcase",
        metavar="NAME",
        help="the event name to deal for (default: %(default)s)",
    )
    p.set_defaults(handler=cmd_showcase)


def _encoding_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--encoding",
        choices=pbn.DECODINGS,
        default="auto",
        help=(
            "the encoding of FILE (default auto: UTF-8 with or without a byte order mark, "
            "else Windows-1250 when it has Czech letters, else ISO 8859-1)"
        ),
    )


def _set_options(p: argparse.ArgumentParser, *, required: bool) -> None:
    which = p.add_mutually_exclusive_group(required=required)
    which.add_argument(
        "--seed",
        metavar="HEX",
        help="the secret seed in hex (at least 32 digits), as made by 'deal --commit'",
    )
    which.add_argument(
        "--seed-file",
        metavar="FILE",
        help="read the seed (hex) from FILE, e.g. one written by 'deal --commit -o FILE'",
    )
    p.add_argument(
        "--event",
        metavar="NAME",
        required=required,
        help="the event name (it is part of what is hashed: another name deals other boards)",
    )
    p.add_argument(
        "--session",
        default="",
        metavar="S",
        help="the session or segment, e.g. QF-1 (default: none)",
    )
    p.add_argument(
        "--boards",
        metavar="RANGE",
        required=required,
        help=f"the boards, e.g. 1-32 or 1-16,33-48 (at most {dealing.MAX_RANGE_BOARDS:,})",
    )


# --- helpers ---------------------------------------------------------------------------------


@contextmanager
def _progress(total: int, desc: str, enabled: bool = True) -> Iterator[Callable[[int], None]]:
    """A tqdm progress bar on stderr (shown on a terminal only); yields ``update(n)``."""
    from tqdm import tqdm  # type: ignore[import-untyped]

    bar = tqdm(
        total=total, desc=desc, unit="board", file=sys.stderr, disable=None if enabled else True
    )
    try:
        yield bar.update
    finally:
        bar.close()


def _seed(args: argparse.Namespace) -> bytes:
    if args.seed_file is not None:
        text = _read_text(args.seed_file, "auto")
        return _parse_seed(text, f"{args.seed_file}: ")
    return _parse_seed(args.seed, "")


def _parse_seed(text: str, where: str) -> bytes:
    digits = "".join(text.split())
    if digits and all(c in string.hexdigits for c in digits) and len(digits) % 2:
        raise CommandError(
            f"{where}not a seed: {len(digits)} hex digits, an odd number (two digits make a "
            "byte; as printed by 'bridgeko deal --commit')"
        )
    try:
        return dealing.parse_seed(text)
    except ValueError as exc:
        raise CommandError(f"{where}{exc}") from None


def _boards(args: argparse.Namespace, limit: int | None = None) -> tuple[int, ...]:
    boards = dealing.parse_board_range(args.boards)
    if limit is not None and boards[-1] > limit:
        raise CommandError(
            f"the {args.format.upper()} format holds boards 1 to {limit}, not {args.boards!r}"
        )
    return boards


def _dealt(
    seed: bytes, args: argparse.Namespace, boards: tuple[int, ...], *, progress: bool = True
) -> Iterator[tuple[int, Deal]]:
    """The deals of ``boards`` in board order, dealt a chunk at a time (progress bar on stderr)."""
    enabled = progress and len(boards) >= _PROGRESS_FROM
    with _progress(len(boards), "dealing", enabled) as update:
        for start in range(0, len(boards), _CHUNK):
            part = boards[start : start + _CHUNK]
            deals = dealing.deal_set(seed, args.event, args.session, part)
            yield from ((b, deals[b]) for b in part)
            update(len(part))


def _check_set(args: argparse.Namespace) -> None:
    missing = [f"--{name}" for name in ("event", "boards") if getattr(args, name) is None]
    if args.seed is None and args.seed_file is None:
        missing.insert(0, "--seed (or --seed-file)")
    if missing:
        raise CommandError(f"missing {', '.join(missing)} (or use --commit to make a new seed)")


def _pbn_date(text: str) -> str:
    """The PBN Date value (``"1999.06.04"``; ``"?"`` parts allowed) of a --date argument."""
    t = text.strip()
    if not t:
        return ""
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


Sink = Callable[[str | bytes], None]


@contextmanager
def _output(path: str | None, *, binary: bool = False) -> Iterator[Sink]:
    """Where a command's data goes: FILE (created or replaced) or stdout.

    Yields ``write(data)``; text is written in UTF-8 (:data:`pbn.ENCODING`), line ends as
    given. Everything written is flushed before the block ends, so that a message printed on
    stderr afterwards never lands in the middle of the data.
    """
    if path is None:
        if binary:
            raise CommandError("this format is binary: give a file with -o FILE")
        out = sys.stdout
        raw = getattr(out, "buffer", None)
        out.flush()

        def to_stdout(data: str | bytes) -> None:
            if raw is None:
                out.write(data.decode(pbn.ENCODING) if isinstance(data, bytes) else data)
            else:
                raw.write(data.encode(pbn.ENCODING) if isinstance(data, str) else data)

        try:
            yield to_stdout
            (raw or out).flush()
        except BrokenPipeError:
            # The reader stopped early (``| head``): end quietly, as a killed pipe would.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, out.fileno())
            raise SystemExit(141) from None
        return
    try:
        f = open(path, "wb")  # noqa: SIM115 - closed below, write errors reported
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with f:

            def to_file(data: str | bytes) -> None:
                f.write(data.encode(pbn.ENCODING) if isinstance(data, str) else data)

            yield to_file
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None


def _write(path: str | None, data: str | bytes) -> None:
    with _output(path, binary=isinstance(data, bytes)) as write:
        write(data)


def _check_writable(path: str) -> None:
    """Refuse early an -o path that cannot be written (before long work)."""
    target = Path(path)
    if target.is_dir():
        raise CommandError(f"cannot write {path}: it is a directory")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise CommandError(f"cannot write {path}: no directory {str(parent)!r}")
    if not os.access(target if target.exists() else parent, os.W_OK):
        raise CommandError(f"cannot write {path}: permission denied")


def _read_bytes(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None


def _read_text(path: str, encoding: str) -> str:
    """A text file: UTF-8, Windows-1250 or ISO 8859-1, byte order mark dropped (pbn.decode)."""
    try:
        return pbn.decode(_read_bytes(path), encoding)
    except ValueError as exc:
        raise CommandError(f"{path}: {exc} (try another --encoding, or auto)") from None


def _pbn_games(
    deals: Iterable[tuple[int, Deal]],
    *,
    event: str,
    site: str = "",
    date: str = "",
    note: str | None = None,
) -> Iterator[pbn.PbnGame]:
    for k, (board, deal) in enumerate(deals):
        game = pbn.game_for_board(board, deal, event=event, site=site, date=date)
        if k == 0 and note is not None:
            # PBN commentary before the first game: how the set was dealt (no secret in it).
            text = note.replace("{", "(").replace("}", ")")
            game = replace(game, comments=("{" + text + "}",))
        yield game


def _dd_json(table: DDTable) -> dict[str, dict[str, int]]:
    return {s.value: {t.value: table[s, t] for t in _STRAINS} for s in _SEATS}


def _par_json(par: Par) -> dict[str, object]:
    return {"score_ns": par.score, "contracts": _par_items(par)}


def _par_items(par: Par) -> list[str]:
    """Par contracts spelt as in the ParContract tag: ``"NS 4S"``, ``"EW 5DX-2"``."""
    items = []
    for pc in par.contracts:
        seats = "".join(s.value for s in pc.declarers)
        over = f"{pc.over_under:+d}" if pc.over_under else ""
        items.append(f"{seats} {pc.contract}{over}".strip())
    return items


def _par_text(par: Par) -> str:
    return "; ".join(_par_items(par))


# --- deal ------------------------------------------------------------------------------------


def cmd_deal(args: argparse.Namespace) -> int:
    if args.commit:
        names = ("seed", "seed_file", "event", "boards")
        if any(getattr(args, n) is not None for n in names):
            raise CommandError(
                "--commit makes a new seed and deals nothing: give it alone "
                "(with -o FILE for the seed, --json)"
            )
        return _commit(args)
    _check_set(args)
    seed = _seed(args)
    boards = _boards(args, None if args.json else _FORMAT_LIMITS.get(args.format))
    date = _pbn_date(args.date)
    if args.format == "dup" and args.output is None and not args.json:
        raise CommandError("this format is binary: give a file with -o FILE")
    published = dealing.commitment(seed)
    # PBN is written as it is dealt: no progress bar when it goes to the same terminal.
    streamed = args.format == "pbn" and not args.json and args.output is None
    dealt = _dealt(seed, args, boards, progress=not (streamed and sys.stdout.isatty()))
    if args.json:
        payload = dealing.DealSetProtocol(args.event, args.session, boards, published).to_dict()
        del payload["seed"]
        payload.update({"site": args.site or None, "date": date or None})
        payload["deals"] = {str(b): d.to_pbn() for b, d in dealt}
        _write(args.output, json.dumps(payload, ensure_ascii=False, indent=2) + "\n")
    elif args.format == "pbn":
        note = (
            f"Dealt by bridgeko ({dealing.METHOD}): event {args.event!r}, session "
            f"{args.session!r}, boards {args.boards}; seed commitment {published}"
        )
        games = _pbn_games(dealt, event=args.event, site=args.site, date=date, note=note)
        with _output(args.output) as write:  # streamed: a long set is written as it is dealt
            for piece in pbn.iter_dumps(games):
                write(piece)
    elif args.format == "dup":
        _write(args.output, formats.to_dup(dict(dealt)))
    else:
        title = f"{args.event} {args.session}".strip()
        _write(args.output, formats.to_dlm(dict(dealt), title=title))
    # The data is written and flushed: the summary on stderr cannot interleave with it.
    where = f" to {args.output}" if args.output is not None else ""
    print(
        f"dealt {len(boards)} boards ({args.boards}) of {args.event!r} "
        f"session {args.session or '(none)'}{where}; commitment {published}",
        file=sys.stderr,
    )
    return 0


def _commit(args: argparse.Namespace) -> int:
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


# --- verify-deal -----------------------------------------------------------------------------


def _file_deals(path: str, encoding: str) -> dict[int, list[Deal]]:
    """Board number -> the deals the file gives for it (a PBN file may have two rooms)."""
    suffix = Path(path).suffix.lower()
    if suffix == ".dup":
        return {b: [d] for b, d in formats.from_dup(_read_bytes(path)).items()}
    text = _read_text(path, encoding)
    if suffix == ".dlm":
        return {b: [d] for b, d in formats.from_dlm(text).items()}
    out: dict[int, list[Deal]] = {}
    for game in pbn.parse(text).games:
        number, deal = game.board, game.deal
        if number is not None and deal is not None:
            out.setdefault(number, []).append(deal)
    return out


def cmd_verify_deal(args: argparse.Namespace) -> int:
    seed = _seed(args)
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
    for b, expected in _dealt(seed, args, boards):
        if played is None:
            continue
        if b not in played:
            problems.append((b, "not in the file"))
        elif any(d != expected for d in played[b]):
            problems.append((b, "the deal differs from the one dealt by the seed"))
    if played is not None:
        extra = sorted(set(played) - set(boards))
    if args.json:
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
    return 1 if problems else 0


# --- analyse ---------------------------------------------------------------------------------


def _same_file(a: str, b: str) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve() or (
            Path(b).exists() and os.path.samefile(a, b)
        )
    except OSError:
        return False


def cmd_analyse(args: argparse.Namespace) -> int:
    from bridgeko.bridge import analysis  # endplay: loaded only by the commands that use it

    text = _read_text(args.file, args.encoding)
    if args.output is not None:  # checked before the long work, not after it
        if _same_file(args.file, args.output) and not args.force:
            raise CommandError(
                f"-o {args.output} is the input file: give another file, or --force to replace it"
            )
        _check_writable(args.output)
    try:
        read = pbn.parse(text, lenient=not args.strict)
    except pbn.PbnError as exc:
        raise CommandError(f"{args.file}: {exc} (without --strict the game is skipped)") from None
    for problem in read.problems:
        print(f"bridgeko: warning: {args.file}: {problem}", file=sys.stderr)
    games = list(read.games)
    skipped = sum(1 for p in read.problems if p.message.startswith("skipped"))
    if not games:
        why = f"no game could be read ({skipped} skipped)" if skipped else "no PBN game in it"
        raise CommandError(f"{args.file}: nothing to analyse: {why}")
    todo = [i for i, g in enumerate(games) if g.deal is not None and g.deal.is_complete]
    if not todo:
        raise CommandError(
            f"{args.file}: no complete deal to analyse (none of its {len(games)} game(s) has a "
            "Deal tag with 13 cards in each hand)"
        )
    # One table per distinct deal (a teams file has each deal twice).
    distinct: dict[Deal, int] = {}
    for i in todo:
        deal = games[i].deal
        assert deal is not None
        distinct.setdefault(deal, len(distinct))
    unique = list(distinct)
    with _progress(len(unique), "double dummy") as update:
        tables = analysis.dd_tables(unique, progress=update)
    records: list[dict[str, object]] = []
    for i in todo:
        game = games[i]
        deal = game.deal
        assert deal is not None
        table = tables[distinct[deal]]
        number = game.board
        seat = game.dealer or (dealer(number) if number is not None else None)
        vul = game.vulnerability or (vulnerability(number) if number is not None else None)
        par = analysis.par(table, seat, vul) if seat is not None and vul is not None else None
        model = pbn.game_for_board(number or 1, deal, dd=table, par=par)
        for name in ("OptimumScore", "ParContract", "OptimumResultTable"):
            tag = model.tag(name)
            if tag is not None:
                game = game.with_tag(tag.name, tag.value, tag.rows)
        games[i] = game
        records.append(
            {
                "board": number,
                "room": game.room,
                "deal": deal.to_pbn(),
                "dd": _dd_json(table),
                "par": _par_json(par) if par is not None else None,
            }
        )
    with _output(args.output) as write:
        if args.json:
            write(json.dumps(records, ensure_ascii=False, indent=2) + "\n")
        else:
            for piece in pbn.iter_dumps(games):
                write(piece)
    left = len(games) - len(todo)
    notes = []
    if left:
        notes.append(f"{left} game(s) without a complete deal left as they were")
    if skipped:
        notes.append(f"{skipped} game(s) skipped (see the warnings above)")
    where = f" to {args.output}" if args.output is not None else ""
    print(
        f"analysed {len(unique)} deal(s) in {len(todo)} game(s){where}"
        + (f"; {'; '.join(notes)}" if notes else ""),
        file=sys.stderr,
    )
    return 0


# --- showcase --------------------------------------------------------------------------------


def cmd_showcase(args: argparse.Namespace) -> int:
    from bridgeko.bridge import analysis  # endplay: loaded only by the commands that use it

    event, session = args.event, "demo"
    boards = tuple(range(1, 17))
    print("1. A secret seed is made and its commitment published before play (R12.7):")
    seed = dealing.new_seed()
    published = dealing.commitment(seed)
    print(f"   commitment {published}")
    print(f"2. 16 boards are dealt from the seed for {event!r}, session {session!r}:")
    deals = dealing.deal_set(seed, event, session, boards)
    for b in boards[:2]:
        print(f"   board {b:>2}: {deals[b].to_pbn(first=dealer(b))}")
    print("   ...")
    print("3. Double-dummy analysis: tricks for each declarer and strain, and par:")
    with _progress(len(boards), "double dummy") as update:
        tables = analysis.dd_tables([deals[b] for b in boards], progress=update)
    pars = [
        analysis.par(t, dealer(b), vulnerability(b)) for b, t in zip(boards, tables, strict=True)
    ]
    print(
        "   board  vul   North declaring: "
        + " ".join(f"{s.value:>2}" for s in _STRAINS)
        + "   par (NS)"
    )
    for b, t, p in zip(boards, tables, pars, strict=True):
        north = " ".join(f"{t[Seat.NORTH, s]:>2}" for s in _STRAINS)
        pad = " " * 17
        print(
            f"   {b:>5}  {vulnerability(b).value:<4} {pad} {north}   {p.score:+5d} {_par_text(p)}"
        )
    print("4. Scoring two rooms: the open room bids the par contract, the closed room 3NT by")
    print("   South; both take the double-dummy tricks (home team NS in the open room, R12.2):")
    total = 0
    for b, t, p in list(zip(boards, tables, pars, strict=True))[:4]:
        open_room = _par_result(p, t)
        closed_room = BoardResult(Contract.parse("3NT"), Seat.SOUTH, t[Seat.SOUTH, Strain.NOTRUMP])
        bs = score_board(open_room, closed_room, vulnerability(b))
        total += bs.imps
        print(
            f"   board {b:>2}: open {open_room!s:<12} NS {bs.open_ns:+5d}   "
            f"closed {closed_room!s:<12} NS {bs.closed_ns:+5d}   IMPs {bs.imps:+d}"
        )
    print(f"   home team, 4 boards: {total:+d} IMPs")
    print("5. After play the seed is revealed; anyone can check every board with:")
    print(
        f"   bridgeko verify-deal --seed {seed.hex()} --commitment {published} "
        f"--event {event!r} --session {session} --boards 1-16 [FILE.pbn]"
    )
    return 0


def _par_result(par: Par, table: DDTable) -> BoardResult:
    """The first par contract played by its first declarer, taking the double-dummy tricks."""
    pc = par.contracts[0]
    if pc.contract.is_passed_out or not pc.declarers or pc.contract.strain is None:
        return BoardResult.passed_out()
    seat = pc.declarers[0]
    return BoardResult(pc.contract, seat, table[seat, pc.contract.strain])
