"""Parsing the federation's Elo list (CSV, semicolon-separated): a pure function, no Django.

:func:`parse` takes the file's bytes and the chosen columns and returns every row it could read
and every problem, each with its line number; the caller imports nothing unless ``problems`` is
empty. Problem messages are English templates marked for translation (the web layer translates
``problem.template`` and fills in ``problem.params``).

>>> result = parse("id;jméno;elo\\n123;Šťastný Jan;1510\\n".encode("cp1250"),
...                Columns(federation_id="id", name="jméno", elo="elo"))
>>> result.encoding, result.rows[0].name, result.rows[0].elo
('cp1250', 'Šťastný Jan', 1510)
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

ENCODINGS = ("utf-8", "cp1250")
"""What :func:`decode` tries, in this order (UTF-8 with or without BOM, then Windows-1250)."""

TRUE_WORDS = frozenset({"1", "a", "ano", "y", "yes", "true", "x", "č", "clen", "člen"})
FALSE_WORDS = frozenset({"", "0", "n", "ne", "no", "false", "-"})


def _(message: str) -> str:
    """Marks a message for translation (extracted by makemessages); returns it unchanged."""
    return message


@dataclass(frozen=True, slots=True)
class Columns:
    """Which column holds what: a 1-based number ("3") or a header name ("Elo").

    ``federation_id`` and ``name`` are required; the others may be None (not in the file).
    """

    federation_id: str
    name: str
    elo: str | None = None
    club: str | None = None
    member: str | None = None

    @classmethod
    def parse(cls, spec: str) -> Columns:
        """From ``"id=1,name=2,elo=5,club=3,member=4"`` (the command-line form).

        >>> Columns.parse("id=1, name=Jméno, elo=3")
        Columns(federation_id='1', name='Jméno', elo='3', club=None, member=None)
        """
        aliases = {"id": "federation_id", "federation_id": "federation_id"}
        known = {"name", "elo", "club", "member"}
        values: dict[str, str] = {}
        for part in spec.split(","):
            if not part.strip():
                continue
            key, sep, value = part.partition("=")
            key = key.strip().lower()
            key = aliases.get(key, key)
            if not sep or not value.strip() or (key not in known and key != "federation_id"):
                raise ValueError(
                    f"bad column spec {part.strip()!r}: use id=N,name=N[,elo=N,club=N,member=N]"
                )
            values[key] = value.strip()
        if "federation_id" not in values or "name" not in values:
            raise ValueError("the column spec needs at least id=... and name=...")
        return cls(**values)


@dataclass(frozen=True, slots=True)
class EloRow:
    """One player of the list."""

    line: int
    federation_id: str
    name: str
    elo: int | None = None
    club: str = ""
    member: bool | None = None
    """None when the file has no membership column."""


@dataclass(frozen=True, slots=True)
class Problem:
    line: int
    """1-based line of the file (0: the whole file)."""
    template: str
    params: Mapping[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        return self.template % dict(self.params)

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}" if self.line else self.message


@dataclass(frozen=True, slots=True)
class ParseResult:
    encoding: str
    header: tuple[str, ...]
    """The first line's cells (empty when the file has no header)."""
    rows: tuple[EloRow, ...]
    problems: tuple[Problem, ...]

    @property
    def ok(self) -> bool:
        return not self.problems and bool(self.rows)


def decode(data: bytes, encoding: str | None = None) -> tuple[str, str]:
    """The text and the encoding used: ``encoding`` if given, else UTF-8 (a BOM is dropped),
    else Windows-1250. Raises UnicodeDecodeError when a given encoding does not fit."""
    if encoding:
        name = "utf-8-sig" if encoding.lower().replace("_", "-") in {"utf-8", "utf8"} else encoding
        return data.decode(name), encoding
    try:
        return data.decode("utf-8-sig"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("cp1250"), "cp1250"


MAX_ENCODING_NAME = 40
"""An encoding name is cut to this length in a message."""


def _read(text: str, delimiter: str) -> tuple[list[list[str]], int | None]:
    """The rows of ``text`` and, when a field is longer than the ``csv`` module takes
    (``csv.field_size_limit()``, 131,072 characters unless changed: no field the register
    stores comes near it), the line at which reading stopped (the rows read until then)."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    rows: list[list[str]] = []
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return rows, None
        except csv.Error:
            return rows, reader.line_num or 1
        rows.append(row)


def _too_long(
    text: str,
    line: int,
    wanted: Mapping[str, str | None],
    header: tuple[str, ...],
    delimiter: str,
) -> Problem:
    """The problem "the field of line ``line`` is too long", naming the column (and what it
    holds, when it is one of the chosen columns)."""
    physical = text.splitlines()[line - 1 : line] or [""]
    cells = physical[0].split(delimiter)
    column = max(range(len(cells)), key=lambda i: len(cells[i])) if cells else 0
    what = ""
    for name, spec in wanted.items():
        if spec is None:
            continue
        found = _index(spec, header, name)
        if found == column:
            what = name
            break
    if what:
        return Problem(
            line,
            _("The field of column %(column)d (%(what)s) is longer than %(max)d characters."),
            {"column": column + 1, "what": what, "max": csv.field_size_limit()},
        )
    return Problem(
        line,
        _("The field of column %(column)d is longer than %(max)d characters."),
        {"column": column + 1, "max": csv.field_size_limit()},
    )


@dataclass(frozen=True, slots=True)
class Limits:
    """The longest texts and the largest Elo the register stores (the caller passes its
    database's; the defaults are those of ``players.models``)."""

    federation_id: int = 20
    name: int = 120
    club: int = 120
    elo: int = 2_147_483_647


def _index(spec: str, header: tuple[str, ...], what: str) -> int | Problem:
    spec = spec.strip()
    if spec.isdecimal():  # not isdigit(): int() does not read "²"
        number = int(spec) if len(spec) <= 9 else 10**9  # no int() of thousands of digits
        if number < 1:
            return Problem(
                0,
                _("Column %(spec)s for %(what)s: numbers start at 1."),
                {"spec": spec, "what": what},
            )
        return number - 1
    lowered = [h.strip().lower() for h in header]
    if spec.lower() in lowered:
        return lowered.index(spec.lower())
    return Problem(
        0, _("Column %(spec)s for %(what)s is not in the header."), {"spec": spec, "what": what}
    )


def parse(
    data: bytes,
    columns: Columns,
    *,
    encoding: str | None = None,
    has_header: bool = True,
    delimiter: str = ";",
    limits: Limits | None = None,
) -> ParseResult:
    """Reads the Elo list; see the module docstring. ``limits``: the longest texts and the
    largest Elo the register can store (a longer value is a problem of its line)."""
    limits = limits or Limits()
    if b"\x00" in data:  # a text file never holds NUL bytes (a spreadsheet or an image does)
        return ParseResult(
            encoding or "", (), (), (Problem(0, _("This is not a text (CSV) file.")),)
        )
    try:
        text, used = decode(data, encoding)
    except LookupError:  # no such codec, or not a text codec (rot13, base64 ...)
        name = (encoding or "")[:MAX_ENCODING_NAME]
        problem = Problem(0, _("Unknown encoding %(encoding)s."), {"encoding": name})
        return ParseResult(name, (), (), (problem,))
    except ValueError as exc:  # UnicodeError of any kind, or a name with a NUL character
        name = (encoding or "UTF-8/cp1250")[:MAX_ENCODING_NAME]
        problem = Problem(
            0,
            _("The file cannot be read as %(encoding)s: %(error)s"),
            {"encoding": name, "error": str(exc)[:200]},
        )
        return ParseResult(name, (), (), (problem,))
    lines, too_long = _read(text, delimiter)
    header: tuple[str, ...] = tuple(c.strip() for c in lines[0]) if has_header and lines else ()
    wanted = {
        "federation_id": columns.federation_id,
        "name": columns.name,
        "elo": columns.elo,
        "club": columns.club,
        "member": columns.member,
    }
    index: dict[str, int] = {}
    problems: list[Problem] = []
    if too_long is not None:
        return ParseResult(
            used, header, (), (_too_long(text, too_long, wanted, header, delimiter),)
        )
    for what, spec in wanted.items():
        if spec is None or not spec.strip():
            continue
        found = _index(spec, header, what)
        if isinstance(found, Problem):
            problems.append(found)
        else:
            index[what] = found
    if problems:
        return ParseResult(used, header, (), tuple(problems))

    rows: list[EloRow] = []
    first_line: dict[str, int] = {}
    start = 2 if has_header else 1
    needed = max(index.values()) + 1
    cells: list[str] = []

    def cell(what: str) -> str:
        i = index.get(what)
        return cells[i].strip() if i is not None and i < len(cells) else ""

    for line_no, cells in enumerate(lines[start - 1 :], start=start):  # cell() reads cells
        if not any(c.strip() for c in cells):
            continue
        if len(cells) < needed:
            problems.append(
                Problem(
                    line_no,
                    _("Too few columns: %(found)d, %(needed)d expected."),
                    {"found": len(cells), "needed": needed},
                )
            )
            continue
        line_problems: list[Problem] = []
        fed_id = cell("federation_id")
        if not fed_id:
            line_problems.append(Problem(line_no, _("The federation id is missing.")))
        elif fed_id in first_line:
            line_problems.append(
                Problem(
                    line_no,
                    _("Federation id %(id)s is already on line %(first)d."),
                    {"id": fed_id, "first": first_line[fed_id]},
                )
            )
        else:
            first_line[fed_id] = line_no
        if len(fed_id) > limits.federation_id:
            line_problems.append(
                Problem(
                    line_no,
                    _("The federation id is longer than %(max)d characters."),
                    {"max": limits.federation_id},
                )
            )
        name = cell("name")
        if not name:
            line_problems.append(Problem(line_no, _("The name is missing.")))
        elif len(name) > limits.name:
            line_problems.append(
                Problem(
                    line_no, _("The name is longer than %(max)d characters."), {"max": limits.name}
                )
            )
        if len(cell("club")) > limits.club:
            line_problems.append(
                Problem(
                    line_no, _("The club is longer than %(max)d characters."), {"max": limits.club}
                )
            )
        elo: int | None = None
        raw_elo = cell("elo")
        if raw_elo:
            try:
                elo = int(raw_elo.replace(" ", "").replace("\u00a0", ""))
            except ValueError:
                line_problems.append(
                    Problem(line_no, _("Elo %(value)s is not a whole number."), {"value": raw_elo})
                )
            else:
                if elo < 0:
                    line_problems.append(
                        Problem(line_no, _("Elo %(value)s is negative."), {"value": raw_elo})
                    )
                elif elo > limits.elo:
                    line_problems.append(
                        Problem(line_no, _("Elo %(value)s is too large."), {"value": raw_elo})
                    )
        member: bool | None = None
        if "member" in index:
            raw_member = cell("member").lower()
            if raw_member in TRUE_WORDS:
                member = True
            elif raw_member in FALSE_WORDS:
                member = False
            else:
                line_problems.append(
                    Problem(
                        line_no,
                        _("Membership %(value)s is not yes/no (1/0, A/N)."),
                        {"value": cell("member")},
                    )
                )
        if line_problems:
            problems.extend(line_problems)
            continue
        rows.append(EloRow(line_no, fed_id, name, elo, cell("club"), member))
    if not rows and not problems:
        problems.append(Problem(0, _("The file has no players.")))
    return ParseResult(used, header, tuple(rows), tuple(problems))
