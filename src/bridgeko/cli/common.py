"""What the dealing and analysis commands share: options, files, seeds, output and progress.

Files are written in UTF-8 (PBN 2.1 says ISO 8859-1, which cannot hold Czech names) and read in
UTF-8, Windows-1250 or ISO 8859-1 (:func:`bridgeko.bridge.pbn.decode`, ``--encoding``). Data
goes to stdout or ``-o FILE`` and is flushed before a command prints its one-line summary on
stderr. Long work shows a progress bar on stderr, on a terminal only.

Nothing heavy is imported at module level (see :mod:`bridgeko.cli`): the bridge core is
imported inside the functions that use it.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from bridgeko.cli import CommandError

ENCODING = "utf-8"
"""The encoding files are written in: :data:`bridgeko.bridge.pbn.ENCODING` (checked by a test)."""

DECODINGS = ("auto", "utf-8", "cp1250", "latin-1")
"""The ``--encoding`` choices: :data:`bridgeko.bridge.pbn.DECODINGS` (checked by a test)."""

MAX_RANGE_BOARDS = 1_000_000
"""The most boards of a range: :data:`bridgeko.bridge.dealing.MAX_RANGE_BOARDS` (a test checks)."""


def encoding_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--encoding",
        choices=DECODINGS,
        default="auto",
        help=(
            "the encoding of FILE (default auto: UTF-8 with or without a byte order mark, "
            "else Windows-1250 when it has Czech letters, else ISO 8859-1)"
        ),
    )


def set_options(p: argparse.ArgumentParser, *, required: bool) -> None:
    """The options naming a set of computer-dealt boards: seed, event, session, boards."""
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
        help=f"the boards, e.g. 1-32 or 1-16,33-48 (at most {MAX_RANGE_BOARDS:,})",
    )


@contextmanager
def progress(total: int, desc: str, enabled: bool = True) -> Iterator[Callable[[int], None]]:
    """A tqdm progress bar on stderr (shown on a terminal only); yields ``update(n)``.

    tqdm is imported only when the bar can be shown.
    """
    if not enabled or not sys.stderr.isatty():

        def nothing(n: int) -> None:
            pass

        yield nothing
        return
    from tqdm import tqdm  # type: ignore[import-untyped]

    bar = tqdm(total=total, desc=desc, unit="board", file=sys.stderr, disable=None)
    try:
        yield bar.update
    finally:
        bar.close()


def seed_of(args: argparse.Namespace) -> bytes:
    """The seed given by ``--seed`` or ``--seed-file``."""
    if args.seed_file is not None:
        text = read_text(args.seed_file, "auto")
        return parse_seed(text, f"{args.seed_file}: ")
    return parse_seed(args.seed, "")


def parse_seed(text: str, where: str) -> bytes:
    import string

    from bridgeko.bridge import dealing

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


Sink = Callable[[str | bytes], None]


@contextmanager
def output(path: str | None, *, binary: bool = False) -> Iterator[Sink]:
    """Where a command's data goes: FILE (created or replaced) or stdout.

    Yields ``write(data)``; text is written in UTF-8 (:data:`ENCODING`), line ends as given.
    Everything written is flushed before the block ends, so that a message printed on stderr
    afterwards never lands in the middle of the data.
    """
    if path is None:
        if binary:
            raise CommandError("this format is binary: give a file with -o FILE")
        out = sys.stdout
        raw = getattr(out, "buffer", None)
        out.flush()

        def to_stdout(data: str | bytes) -> None:
            if raw is None:
                out.write(data.decode(ENCODING) if isinstance(data, bytes) else data)
            else:
                raw.write(data.encode(ENCODING) if isinstance(data, str) else data)

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
                f.write(data.encode(ENCODING) if isinstance(data, str) else data)

            yield to_file
    except OSError as exc:
        raise CommandError(f"cannot write {path}: {exc.strerror or exc}") from None


def write(path: str | None, data: str | bytes) -> None:
    """Writes ``data`` to FILE or stdout (see :func:`output`)."""
    with output(path, binary=isinstance(data, bytes)) as sink:
        sink(data)


def check_writable(path: str) -> None:
    """Refuse early an -o path that cannot be written (before long work)."""
    from pathlib import Path

    target = Path(path)
    if target.is_dir():
        raise CommandError(f"cannot write {path}: it is a directory")
    parent = target.parent if str(target.parent) else Path(".")
    if not parent.is_dir():
        raise CommandError(f"cannot write {path}: no directory {str(parent)!r}")
    if not os.access(target if target.exists() else parent, os.W_OK):
        raise CommandError(f"cannot write {path}: permission denied")


def read_bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as exc:
        raise CommandError(f"cannot read {path}: {exc.strerror or exc}") from None


def read_text(path: str, encoding: str) -> str:
    """A text file: UTF-8, Windows-1250 or ISO 8859-1, byte order mark dropped (pbn.decode)."""
    data = read_bytes(path)
    if encoding == "auto" and data.isascii():
        return data.decode("ascii")  # what pbn.decode gives, without importing the PBN model
    from bridgeko.bridge import pbn

    try:
        return pbn.decode(data, encoding)
    except ValueError as exc:
        raise CommandError(f"{path}: {exc} (try another --encoding, or auto)") from None
