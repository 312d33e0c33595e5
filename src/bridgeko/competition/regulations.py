"""Every number of an edition, as data (never a constant in code).

The values of the 1999 edition live in ``editions/bridge-open-ko-1999.toml``; a TD edits a copy
for the next edition. :func:`load` reads such a file and names the key and the problem of every
mistake in it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime, time
from itertools import pairwise
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bridgeko.competition.messages import N_, Message
from bridgeko.competition.stage import Stage as Stage  # moved there; still importable here


@dataclass(frozen=True, slots=True)
class EditionInfo:
    name: str
    """Display name, e.g. "Bridge Open K.O. 1999"."""
    year: int
    organiser: str
    venue: str
    """Where preliminary rounds are played (R14.1)."""
    language: str = "cs"
    """Default interface language of the edition ("cs" or "en")."""
    currency: str = "CZK"
    timezone: str = "Europe/Prague"
    """The organiser's local time zone; deadlines are in it (I12)."""


@dataclass(frozen=True, slots=True)
class EntryRules:
    """R3, R7, R8."""

    deadline: date
    """Conditions of entry met by the end of this day (R3.2, I12)."""
    min_players: int = 4
    max_players: int = 6
    min_teams: int = 8
    """Fewer teams meeting the conditions cancel the edition (R8.1)."""


@dataclass(frozen=True, slots=True)
class FeeRules:
    """R4.1 and I4."""

    returning: int = 300
    """A team that took part in the previous edition."""
    members_only: int = 600
    """A new team made up only of federation members."""
    other: int = 1200
    returning_same_players: int = 4
    """Players on both rosters that make a returning team ..."""
    returning_same_players_with_captain: int = 3
    """... or this many including the previous captain."""
    per_player: bool = False
    """The amounts are per player of the roster, not per team (the 2001 edition: 350 or 400 Kč
    a player; optional key, issue 22)."""


@dataclass(frozen=True, slots=True)
class RatingRules:
    """R10."""

    reference_date: date
    """The federation's Elo list of this date is used (R10.1)."""
    default_team_elo: int = 500
    """A team none of whose players has a known Elo (R10.2)."""


@dataclass(frozen=True, slots=True)
class DrawRules:
    """R9, R11."""

    scheme_sizes: tuple[int, ...] = (8, 16, 32)
    """Schemes in the annex; larger fields use the next power of two (R9.2, I11)."""
    seeded_divisor: int = 4
    """N/seeded_divisor teams are seeded (R11.1)."""


StageTable = tuple[tuple[Stage, int], ...]
"""A whole number for some stages, in the order of :class:`Stage` (a TOML inline table
``{ final = 8 }``)."""


@dataclass(frozen=True, slots=True)
class MatchRules:
    """R1.3, R12."""

    boards: int = 32
    final_boards: int = 48
    segment_boards: int = 16
    extra_segment_boards: int = 4
    screens_stages: tuple[Stage, ...] = (
        Stage.QUARTERFINAL,
        Stage.SEMIFINAL,
        Stage.THIRD_PLACE,
        Stage.FINAL,
    )
    """Stages played with screens and computer-dealt boards (R12.7)."""
    segment_minutes: int = 120
    segment_minutes_screens: int = 130
    extra_segment_minutes: int = 35
    extra_segment_minutes_screens: int = 40
    stage_boards: StageTable = ()
    """Boards of a match of a stage where it is not ``boards`` (``final_boards`` for the final):
    ``((Stage.SEMIFINAL, 48),)`` (issue 22; optional, none in 1999)."""
    stage_segment_boards: StageTable = ()
    """Boards of a segment in a stage where it is not ``segment_boards``: the 2001 final was
    played in sets of 8 (issue 22; optional)."""

    def boards_of(self, stage: Stage) -> int:
        """The prescribed boards of a match of ``stage`` (R1.3, R12.1)."""
        for table_stage, boards in self.stage_boards:
            if table_stage is stage:
                return boards
        return self.final_boards if stage is Stage.FINAL else self.boards

    def segment_boards_of(self, stage: Stage) -> int:
        """The boards of a segment of a match of ``stage`` (R1.3, R12.1)."""
        for table_stage, boards in self.stage_segment_boards:
            if table_stage is stage:
                return boards
        return self.segment_boards


@dataclass(frozen=True, slots=True)
class PenaltyRules:
    """R12.8, R12.9."""

    slow_play_imps_per_board: int = 3
    lateness_minutes_per_board: int = 7
    lateness_imps_per_board: int = 3


@dataclass(frozen=True, slots=True)
class ScheduleRules:
    """R14."""

    finals_start: date
    finals_end: date
    preliminary_weekday: int = 4
    """0 = Monday ... 4 = Friday (R14.1)."""
    preliminary_start: time = time(19, 0)
    dates_published_within_days: int = 14
    """Match dates are published within this many days after the draw (R14.1)."""
    reschedule_notice_days: int = 1
    """A rescheduling must be notified this many days before the normal date (R14.2a)."""
    result_record_deadline: time = time(13, 0)
    """On the scheduled day of the round's last match (R14.2b)."""
    record_confirm_hours: int = 24
    """The opponents confirm or dispute a captain's match record within this many hours (the
    regulations are silent: the edition's own rule, issue 21); later, the TD is told."""
    record_auto_approve: bool = False
    """A record the opponents confirm is approved without the TD (else the TD approves it)."""


@dataclass(frozen=True, slots=True)
class AppealRules:
    """R16."""

    deadline_minutes: int = 30
    deposit: int = 200
    committee_size: int = 3
    early_match_form_deadline: time = time(13, 0)
    """R16.4: for matches played early, on the scheduled day of the round."""


HCP_MAX = 37
"""The most high-card points a hand can hold (A=4, K=3, Q=2, J=1): a fact, not a rule."""


@dataclass(frozen=True, slots=True)
class SystemRules:
    """The numbers of R6 (restrictions on bidding systems) and I9, used by
    :func:`bridgeko.competition.systems.check_system`."""

    one_level_minimum: int = 12
    """HCP of a hand "normally considered worth a one-level opening" (R6.1): a pass in opening
    position that can hold this many HCP is flagged."""
    nt_relay_threshold: int = 16
    """R6.5 applies to a 1NT opening whose lower limit is below this many HCP."""
    nt_range_limit: int = 5
    """R6.5, I9: the range of such a 1NT, counted inclusively (12-15 is four points), must be
    less than this many points, i.e. ``max - min <= nt_range_limit - 2`` (3 in 1999)."""


@dataclass(frozen=True, slots=True)
class FormatRules:
    """The format of the edition (issue 22): the scheme's template and how prizes are paid.
    The section is optional: without it, the 1999 format (single knockout, prizes per team)."""

    template: str = "single"
    """``single`` (the standard scheme, I1), ``double`` (double elimination up to and including
    the semifinal, 2001), ``single-plate`` (a plate for the first-round losers),
    ``single-placement`` (matches for 5th-8th); :mod:`bridgeko.competition.formats`."""
    prizes_per_player: bool = False
    """The prizes are paid to each player of the team (2001: 10,000 / 5,000 / 2,000 Kč a
    player), not to the team (R5.1, 1999)."""


@dataclass(frozen=True, slots=True)
class Regulations:
    """Every number of one edition of the competition."""

    edition: EditionInfo
    entry: EntryRules
    rating: RatingRules
    schedule: ScheduleRules
    fees: FeeRules = field(default_factory=FeeRules)
    prizes: tuple[int, ...] = (60000, 20000, 15000, 5000)
    """Prize money for 1st, 2nd, 3rd, 4th ... place (R5.1)."""
    draw: DrawRules = field(default_factory=DrawRules)
    match: MatchRules = field(default_factory=MatchRules)
    penalties: PenaltyRules = field(default_factory=PenaltyRules)
    appeals: AppealRules = field(default_factory=AppealRules)
    systems: SystemRules = field(default_factory=SystemRules)
    """R6, I9 (a stored edition without this section is completed by the editions app's
    migration 0002 with these 1999 values)."""
    format: FormatRules = field(default_factory=FormatRules)
    """Issue 22 (optional section)."""


# --------------------------------------------------------------------------------------------
# Reading, checking and writing an edition (TOML, or plain dicts for forms and JSON)
# --------------------------------------------------------------------------------------------


# The messages of the problems, as templates for translation (bridgeko.competition.messages):
# ``RegulationsProblem.message`` keeps the English text, ``.detail``/``.text`` the template.
PROBLEM_AT_KEY = N_("%(key)s: %(message)s")
UNKNOWN_KEY = N_("unknown key %(key)s")
MISSING = N_("missing")
NOT_POSITIVE_INT = N_("must be a positive whole number, not %(value)s")
NOT_NONNEGATIVE_INT = N_("must be a whole number, 0 or more, not %(value)s")
NOT_TEXT = N_("must be a non-empty text, not %(value)s")
NOT_BOOL = N_("must be true or false, not %(value)s")
NOT_LANGUAGE = N_("must be one of %(allowed)s, not %(value)s")
NOT_CURRENCY = N_("must be a three-letter ISO 4217 code such as 'CZK', not %(value)s")
NOT_TIMEZONE = N_("must be a time zone name such as 'Europe/Prague', not %(value)s")
UNKNOWN_TIMEZONE = N_("unknown time zone %(value)s")
TOO_LARGE = N_("must be at most %(max)s, not %(value)s")
TOML_TOO_DEEP = N_("nested too deeply")
DATE_WITH_TIME = N_("not a date (a date has no time of day): %(value)s")
NOT_DATE = N_("not a date (write it as YYYY-MM-DD): %(value)s")
NOT_TIME = N_("not a time of day (write it as HH:MM): %(value)s")
NOT_WEEKDAY = N_("must be 0 (Monday) to 6 (Sunday) or a day's name, not %(value)s")
NOT_LIST = N_("must be a list, not %(value)s")
NO_SCHEME_SIZE = N_("must list at least one scheme size")
SCHEME_SIZE_NOT_POWER = N_("every scheme size must be a power of two, 2 or more, not %(value)s")
SCHEME_SIZES_ORDER = N_("the scheme sizes must be in ascending order, not %(sizes)s")
BAD_PRIZE = N_("the prize for place %(place)s must be a whole amount, 0 or more, not %(value)s")
UNKNOWN_STAGE = N_("unknown stage %(value)s (allowed: %(allowed)s)")
STAGE_TWICE = N_("stage %(stage)s is listed twice")
NOT_TEMPLATE = N_("must be one of %(allowed)s, not %(value)s")
STAGE_WORDS = {
    Stage.PRELIMINARY: N_("the preliminary rounds"),
    Stage.QUARTERFINAL: N_("the quarterfinals"),
    Stage.SEMIFINAL: N_("the semifinals"),
    Stage.THIRD_PLACE: N_("the match for 3rd place"),
    Stage.FINAL: N_("the final"),
}
"""A stage in words, for messages (the web layer translates them)."""
STAGE_NOT_WHOLE_SEGMENTS = N_(
    "%(stage)s: %(boards)s boards are not whole segments of %(segment)s boards"
)
NOT_STAGE_TABLE = N_(
    "must be a table of stages and whole numbers such as { final = 8 }, not %(value)s"
)
NOT_TABLE = N_("must be a table, not %(value)s")
NOT_TABLE_OF_KEYS = N_("must be a table of keys, not %(value)s")
NOT_WHOLE_SEGMENTS = N_(
    "must be a whole number of segments of match.segment_boards (%(segment)s), not %(boards)s"
)
MORE_THAN_MAX_PLAYERS = N_("must not be more than entry.max_players (%(max)s), not %(value)s")
FINALS_START_AFTER_END = N_("must not be after schedule.finals_end (%(end)s), not %(start)s")
DEADLINE_NOT_BEFORE_FINALS = N_(
    "must be before schedule.finals_start (%(start)s), not %(deadline)s"
)
DIVISOR_NOT_DIVIDING = N_("must divide every scheme size (%(sizes)s), not %(divisor)s")
TOO_FEW_MIN_TEAMS = N_("must be at least 2, not %(teams)s")
NOT_HCP = N_("must be a number of high-card points from 1 to %(max)s, not %(value)s")
NOT_RANGE_LIMIT = N_("must be a whole number of points from 2 to %(max)s, not %(value)s")
NOT_TOML = N_("not valid TOML: %(error)s")
CANNOT_READ = N_("cannot read %(path)s: %(error)s")


@dataclass(frozen=True, slots=True)
class RegulationsProblem:
    """One mistake in a regulations file, tied to the key it is about."""

    key: str
    """The dotted key, e.g. ``"match.boards"`` or ``"prizes[2]"``; ``""`` for the whole file."""
    message: str
    """What is wrong, e.g. ``"must be a positive whole number, not 'x'"``."""
    detail: Message | None = field(default=None, compare=False)
    """:attr:`message` as a translatable template + params (None: only the English text)."""

    @property
    def text(self) -> Message:
        """:meth:`__str__` as a translatable :class:`Message` (``bridgeko.core.i18n.tr``)."""
        if self.message == _UNKNOWN:
            return Message(UNKNOWN_KEY, {"key": repr(self.key)})
        what = self.detail if self.detail is not None else Message(self.message)
        return Message(PROBLEM_AT_KEY, {"key": self.key, "message": what}) if self.key else what

    def __str__(self) -> str:
        if self.message == _UNKNOWN:
            return f"unknown key {self.key!r}"
        return f"{self.key}: {self.message}" if self.key else self.message


def _problem(key: str, detail: Message) -> RegulationsProblem:
    return RegulationsProblem(key, str(detail), detail)


class RegulationsError(ValueError):
    """A regulations file or form with mistakes; :attr:`problems` lists every one of them."""

    def __init__(self, problems: Sequence[RegulationsProblem]) -> None:
        self.problems: tuple[RegulationsProblem, ...] = tuple(problems)
        lines = "\n".join(f"  - {p}" for p in self.problems)
        n = len(self.problems)
        super().__init__(f"the regulations have {n} problem{'s' if n != 1 else ''}:\n{lines}")

    @property
    def keys(self) -> tuple[str, ...]:
        """The keys named by the problems, in order (for showing errors next to form fields)."""
        return tuple(p.key for p in self.problems)


_UNKNOWN = "unknown key"


class _Invalid(Exception):
    """Raised by a value parser; the message does not name the key (the caller adds it)."""

    def __init__(self, template: str, **params: str | int) -> None:
        self.detail = Message(template, params)
        super().__init__(str(self.detail))


MAX_NUMBER = 2_147_483_647
"""The largest number in regulations (the largest amount a database column stores); a file's
number may be far larger (TOML has no limit for ``0x...``), which no clause ever needs."""
MAX_TIMEZONE = 64
"""The longest time zone name looked up (the longest IANA name has 32 characters; a longer one
is unknown without asking the file system, which refuses names over 255 bytes with OSError)."""
_SHOWN = 60


def _shown(value: object) -> str:
    """``repr(value)`` for a message, cut to about 60 characters (a value may be any length).

    >>> _shown("Europe/Prague"), _shown("x" * 100)[-5:], _shown(16 ** 5000)[:3]
    ("'Europe/Prague'", 'xxxx…', '0x1')
    """
    try:
        text = repr(value)
    except ValueError:  # an int of over 4,300 digits has no decimal repr
        text = hex(value) if isinstance(value, int) else f"<{type(value).__name__}>"
    return text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"


def _whole(value: object, template: str, lowest: int, highest: int = MAX_NUMBER) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < lowest:
        raise _Invalid(template, value=_shown(value))
    if value > highest:
        raise _Invalid(TOO_LARGE, max=highest, value=_shown(value))
    return value


def _positive_int(value: object) -> int:
    return _whole(value, NOT_POSITIVE_INT, 1)


def _nonnegative_int(value: object) -> int:
    return _whole(value, NOT_NONNEGATIVE_INT, 0)


def _bool(value: object) -> bool:
    if not isinstance(value, bool):
        raise _Invalid(NOT_BOOL, value=_shown(value))
    return value


def _text(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise _Invalid(NOT_TEXT, value=_shown(value))
    return value.strip()


_LANGUAGES = ("cs", "en")


def _language(value: object) -> str:
    if value not in _LANGUAGES:
        raise _Invalid(NOT_LANGUAGE, allowed=", ".join(_LANGUAGES), value=_shown(value))
    assert isinstance(value, str)
    return value


def _currency(value: object) -> str:
    if not (isinstance(value, str) and len(value) == 3 and value.isascii() and value.isupper()):
        raise _Invalid(NOT_CURRENCY, value=_shown(value))
    return value


def is_timezone(name: str) -> bool:
    """Whether ``name`` is a time zone of the IANA database (``"Europe/Prague"``).

    Any text is safe: a name of any length, with NUL, ``..`` or ``/``, or naming a directory or
    a file of the database that is no zone, is simply not one.

    >>> is_timezone("Europe/Prague"), is_timezone("x" * 300), is_timezone("../../etc/passwd")
    (True, False, False)
    >>> is_timezone("Europe"), is_timezone("Europe/Prague\\x00"), is_timezone("zone.tab")
    (False, False, False)
    """
    if not name or len(name) > MAX_TIMEZONE or "\x00" in name:
        return False
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):  # OSError: a directory, a long name
        return False
    return True


def _timezone(value: object) -> str:
    if not isinstance(value, str) or not value:
        raise _Invalid(NOT_TIMEZONE, value=_shown(value))
    if not is_timezone(value):
        raise _Invalid(UNKNOWN_TIMEZONE, value=_shown(value))
    return value


def _date(value: object) -> date:
    if isinstance(value, datetime):
        raise _Invalid(DATE_WITH_TIME, value=_shown(value))
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        try:
            return date.fromisoformat(value.strip())
        except ValueError:
            pass
    raise _Invalid(NOT_DATE, value=_shown(value))


def _time(value: object) -> time:
    parsed: time | None = None
    if isinstance(value, time):
        parsed = value
    elif isinstance(value, str):
        try:
            parsed = time.fromisoformat(value.strip())
        except ValueError:
            parsed = None
    # a time of a clause is to the minute (or second); a fraction of a second would be lost
    # on the way through a form or JSON (to_dict writes HH:MM[:SS])
    if parsed is None or parsed.tzinfo is not None or parsed.microsecond:
        raise _Invalid(NOT_TIME, value=_shown(value))
    return parsed


_WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


def _weekday(value: object) -> int:
    if isinstance(value, str) and value.strip().lower() in _WEEKDAYS:
        return _WEEKDAYS.index(value.strip().lower())
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 6:
        raise _Invalid(NOT_WEEKDAY, value=_shown(value))
    return value


def _hcp(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= HCP_MAX:
        raise _Invalid(NOT_HCP, max=HCP_MAX, value=_shown(value))
    return value


def _range_limit(value: object) -> int:
    # I9: a limit of 1 would forbid even a one-point range (12-12); 38 allows every range
    if isinstance(value, bool) or not isinstance(value, int) or not 2 <= value <= HCP_MAX + 1:
        raise _Invalid(NOT_RANGE_LIMIT, max=HCP_MAX + 1, value=_shown(value))
    return value


def _list(value: object) -> list[object]:
    if isinstance(value, str | bytes) or not isinstance(value, list | tuple):
        raise _Invalid(NOT_LIST, value=_shown(value))
    return list(value)


def _scheme_sizes(value: object) -> tuple[int, ...]:
    items = _list(value)
    if not items:
        raise _Invalid(NO_SCHEME_SIZE)
    sizes: list[int] = []
    for item in items:
        if isinstance(item, bool) or not isinstance(item, int) or item < 2 or item & (item - 1):
            raise _Invalid(SCHEME_SIZE_NOT_POWER, value=_shown(item))
        sizes.append(_whole(item, SCHEME_SIZE_NOT_POWER, 2))
    if any(a >= b for a, b in pairwise(sizes)):
        raise _Invalid(SCHEME_SIZES_ORDER, sizes=_shown(sizes))
    return tuple(sizes)


def _prize_list(value: object) -> tuple[int, ...]:
    items = _list(value)
    prizes: list[int] = []
    for place, item in enumerate(items, start=1):
        if isinstance(item, bool) or not isinstance(item, int) or item < 0:
            raise _Invalid(BAD_PRIZE, place=place, value=_shown(item))
        prizes.append(_whole(item, BAD_PRIZE, 0))
    return tuple(prizes)


TEMPLATES = ("single", "double", "double-reset", "single-plate", "single-placement")
"""The templates of :attr:`FormatRules.template` (:func:`bridgeko.competition.formats.build`)."""


def _template(value: object) -> str:
    if not isinstance(value, str) or value not in TEMPLATES:
        raise _Invalid(NOT_TEMPLATE, value=_shown(value), allowed=", ".join(TEMPLATES))
    return value


def _stage_table(value: object) -> StageTable:
    if not isinstance(value, Mapping):
        raise _Invalid(NOT_STAGE_TABLE, value=_shown(value))
    allowed = ", ".join(s.value for s in Stage)
    found: dict[Stage, int] = {}
    for name, item in value.items():
        try:
            stage = Stage(str(name))
        except ValueError:
            raise _Invalid(UNKNOWN_STAGE, value=_shown(name), allowed=allowed) from None
        if isinstance(item, bool) or not isinstance(item, int) or item < 1:
            raise _Invalid(NOT_POSITIVE_INT, value=_shown(item))
        found[stage] = _whole(item, NOT_POSITIVE_INT, 1)
    return tuple((stage, found[stage]) for stage in Stage if stage in found)


def _stages(value: object) -> tuple[Stage, ...]:
    items = _list(value)
    stages: list[Stage] = []
    allowed = ", ".join(s.value for s in Stage)
    for item in items:
        try:
            stage = Stage(str(item))
        except ValueError:
            raise _Invalid(UNKNOWN_STAGE, value=_shown(item), allowed=allowed) from None
        if stage in stages:
            raise _Invalid(STAGE_TWICE, stage=repr(stage.value))
        stages.append(stage)
    return tuple(stages)


@dataclass(frozen=True, slots=True)
class _Key:
    name: str
    parse: Callable[[object], Any]
    clause: str
    """The clause the value comes from, written as a comment by :func:`dumps`."""
    optional: bool = False
    """A key added after editions were stored (a rule of the edition's own, not a number of
    the regulations): a text without it takes the dataclass's default; :func:`dumps` writes
    it out like any other key, so an edited edition states it."""


_SECTIONS: dict[str, tuple[type[Any], tuple[_Key, ...]]] = {
    "edition": (
        EditionInfo,
        (
            _Key("name", _text, "display name"),
            _Key("year", _positive_int, "year of the edition"),
            _Key("organiser", _text, "R1.1"),
            _Key("venue", _text, "R14.1"),
            _Key("language", _language, "interface language: cs or en"),
            _Key("currency", _currency, "R4.1, R5.1"),
            _Key("timezone", _timezone, "deadlines are in local time of the organiser, I12"),
        ),
    ),
    "entry": (
        EntryRules,
        (
            _Key("deadline", _date, "R3.2, I12: by the end of this day"),
            _Key("min_players", _positive_int, "R7.1"),
            _Key("max_players", _positive_int, "R7.1"),
            _Key("min_teams", _positive_int, "R8.1: fewer teams cancel the edition"),
        ),
    ),
    "fees": (
        FeeRules,
        (
            _Key("returning", _nonnegative_int, "R4.1: team of the previous edition"),
            _Key("members_only", _nonnegative_int, "R4.1: new team of federation members only"),
            _Key("other", _nonnegative_int, "R4.1: any other team"),
            _Key("returning_same_players", _positive_int, "R4.1, I4"),
            _Key("returning_same_players_with_captain", _positive_int, "R4.1, I4"),
            _Key("per_player", _bool, "R4.1: the amounts are per player (2001)", True),
        ),
    ),
    "rating": (
        RatingRules,
        (
            _Key("reference_date", _date, "R10.1: date of the Elo list"),
            _Key("default_team_elo", _nonnegative_int, "R10.2: no player's Elo known"),
        ),
    ),
    "draw": (
        DrawRules,
        (
            _Key("scheme_sizes", _scheme_sizes, "R9.2, I11"),
            _Key("seeded_divisor", _positive_int, "R11.1: N/divisor teams are seeded"),
        ),
    ),
    "match": (
        MatchRules,
        (
            _Key("boards", _positive_int, "R1.3, R12.1"),
            _Key("final_boards", _positive_int, "R1.3, R12.1"),
            _Key("segment_boards", _positive_int, "R1.3, R12.1"),
            _Key("extra_segment_boards", _positive_int, "R12.5"),
            _Key("screens_stages", _stages, "R12.7"),
            _Key("segment_minutes", _positive_int, "R12.8"),
            _Key("segment_minutes_screens", _positive_int, "R12.8"),
            _Key("extra_segment_minutes", _positive_int, "R12.8"),
            _Key("extra_segment_minutes_screens", _positive_int, "R12.8"),
            _Key("stage_boards", _stage_table, "R1.3: boards of a stage, if not the above", True),
            _Key(
                "stage_segment_boards",
                _stage_table,
                "R1.3: segment of a stage, if not the above",
                True,
            ),
        ),
    ),
    "penalties": (
        PenaltyRules,
        (
            _Key("slow_play_imps_per_board", _nonnegative_int, "R12.8, I13"),
            _Key("lateness_minutes_per_board", _positive_int, "R12.9, I6"),
            _Key("lateness_imps_per_board", _nonnegative_int, "R12.9, I13"),
        ),
    ),
    "schedule": (
        ScheduleRules,
        (
            _Key("finals_start", _date, "R14.3"),
            _Key("finals_end", _date, "R14.3"),
            _Key("preliminary_weekday", _weekday, "R14.1: 0 = Monday ... 4 = Friday"),
            _Key("preliminary_start", _time, "R14.1"),
            _Key("dates_published_within_days", _nonnegative_int, "R14.1"),
            _Key("reschedule_notice_days", _nonnegative_int, "R14.2a, I12"),
            _Key("result_record_deadline", _time, "R14.2b"),
            _Key(
                "record_confirm_hours",
                _positive_int,
                "R14.2b: hours to confirm a record",
                optional=True,
            ),
            _Key(
                "record_auto_approve",
                _bool,
                "R14.2b: confirmed records approved by themselves",
                optional=True,
            ),
        ),
    ),
    "appeals": (
        AppealRules,
        (
            _Key("deadline_minutes", _positive_int, "R16.3"),
            _Key("deposit", _nonnegative_int, "R16.2"),
            _Key("committee_size", _positive_int, "R16.1"),
            _Key("early_match_form_deadline", _time, "R16.4"),
        ),
    ),
    "systems": (
        SystemRules,
        (
            _Key("one_level_minimum", _hcp, "R6.1: HCP normally worth a one-level opening"),
            _Key("nt_relay_threshold", _hcp, "R6.5: applies to a 1NT below this many HCP"),
            _Key("nt_range_limit", _range_limit, "R6.5, I9: range (inclusive) less than this"),
        ),
    ),
    "format": (
        FormatRules,
        (
            _Key("template", _template, "issue 22: the scheme's template", True),
            _Key("prizes_per_player", _bool, "R5.1: prizes per player (2001)", True),
        ),
    ),
}
_PRIZES = _Key("prizes", _prize_list, "R5.1: 1st, 2nd, 3rd, 4th ... place")
_TOP_LEVEL = ("prizes", *_SECTIONS)
"""The keys of a regulations file, in the order :func:`dumps` writes them."""


def all_keys() -> tuple[str, ...]:
    """Every key of a regulations file, dotted, in the order :func:`dumps` writes them
    (``"prizes"``, ``"edition.name"``, ... ``"systems.nt_range_limit"``): what a form or a
    label table must cover.

    >>> all_keys()[:2], "match.screens_stages" in all_keys()
    (('prizes', 'edition.name'), True)
    """
    return (_PRIZES.name, *(f"{s}.{k.name}" for s, (_cls, ks) in _SECTIONS.items() for k in ks))


def value_of(reg: Regulations, key: str) -> Any:
    """The typed value of a dotted key (``value_of(reg, "entry.deadline")`` is a date)."""
    section, _dot, name = key.partition(".")
    obj = getattr(reg, section)
    return getattr(obj, name) if name else obj


def from_dict(data: Mapping[str, Any]) -> Regulations:
    """Builds :class:`Regulations` from plain data (parsed TOML, JSON or a form).

    Every key is required. Dates may be :class:`~datetime.date` values or ``"YYYY-MM-DD"``
    texts, times :class:`~datetime.time` values or ``"HH:MM"`` texts. Raises
    :class:`RegulationsError` listing every problem, each naming its key.
    """
    problems: list[RegulationsProblem] = []

    def bad(key: str, detail: Message) -> None:
        problems.append(_problem(key, detail))

    if not isinstance(data, Mapping):
        raise RegulationsError([_problem("", Message(NOT_TABLE, {"value": _shown(data)}))])
    for name in data:
        if name not in _TOP_LEVEL:
            problems.append(RegulationsProblem(str(name), _UNKNOWN))

    prizes: tuple[int, ...] | None = None
    if "prizes" not in data:
        bad("prizes", Message(MISSING))
    else:
        try:
            prizes = _prize_list(data["prizes"])
        except _Invalid as exc:
            bad("prizes", exc.detail)

    values: dict[str, dict[str, Any]] = {}
    for section, (_cls, keys) in _SECTIONS.items():
        raw = data.get(section)
        if raw is None and all(k.optional for k in keys):
            values[section] = {}  # a section added later: its defaults
            continue
        if raw is None:
            bad(section, Message(MISSING))
            continue
        if not isinstance(raw, Mapping):
            bad(section, Message(NOT_TABLE_OF_KEYS, {"value": _shown(raw)}))
            continue
        known = {k.name for k in keys}
        for name in raw:
            if name not in known:
                problems.append(RegulationsProblem(f"{section}.{name}", _UNKNOWN))
        parsed: dict[str, Any] = {}
        for key in keys:
            if key.name not in raw:
                if not key.optional:
                    bad(f"{section}.{key.name}", Message(MISSING))
                continue
            try:
                parsed[key.name] = key.parse(raw[key.name])
            except _Invalid as exc:
                bad(f"{section}.{key.name}", exc.detail)
        values[section] = parsed

    problems.extend(_consistency(values))
    if problems:
        raise RegulationsError(problems)
    assert prizes is not None
    built = {section: cls(**values[section]) for section, (cls, _keys) in _SECTIONS.items()}
    return Regulations(prizes=prizes, **built)


def _consistency(values: Mapping[str, Mapping[str, Any]]) -> list[RegulationsProblem]:
    """Checks between keys; a pair is checked only when both of its keys are valid."""
    out: list[RegulationsProblem] = []

    def get(section: str, key: str) -> Any:
        return values.get(section, {}).get(key)

    seg, boards = get("match", "segment_boards"), get("match", "boards")
    final = get("match", "final_boards")
    stage_boards = dict(get("match", "stage_boards") or ())
    stage_segments = dict(get("match", "stage_segment_boards") or ())
    if seg is not None and boards is not None and final is not None:
        named: set[str] = set()
        for stage in Stage:  # R1.3: every stage's match is whole segments of its own length
            own_boards = stage_boards.get(stage, final if stage is Stage.FINAL else boards)
            own_segment = stage_segments.get(stage, seg)
            if own_boards % own_segment == 0:
                continue
            if stage in stage_boards:
                key = "match.stage_boards"
            elif stage in stage_segments:
                key = "match.stage_segment_boards"
            else:
                key = "match.final_boards" if stage is Stage.FINAL else "match.boards"
            if key in named:
                continue
            named.add(key)
            detail = {"segment": own_segment, "boards": own_boards}
            if key.startswith("match.stage_"):
                out.append(
                    _problem(
                        key,
                        Message(
                            STAGE_NOT_WHOLE_SEGMENTS,
                            detail | {"stage": Message(STAGE_WORDS[stage])},
                        ),
                    )
                )
            else:
                out.append(_problem(key, Message(NOT_WHOLE_SEGMENTS, detail)))
    lo, hi = get("entry", "min_players"), get("entry", "max_players")
    if lo is not None and hi is not None and lo > hi:  # R7.1
        out.append(
            _problem("entry.min_players", Message(MORE_THAN_MAX_PLAYERS, {"max": hi, "value": lo}))
        )
    if hi is not None:  # I4: the players in common must fit on one roster
        for key in ("returning_same_players", "returning_same_players_with_captain"):
            n = get("fees", key)
            if n is not None and n > hi:
                out.append(
                    _problem(f"fees.{key}", Message(MORE_THAN_MAX_PLAYERS, {"max": hi, "value": n}))
                )
    start, end = get("schedule", "finals_start"), get("schedule", "finals_end")
    if start is not None and end is not None and start > end:  # R14.3
        out.append(
            _problem(
                "schedule.finals_start",
                Message(
                    FINALS_START_AFTER_END, {"end": end.isoformat(), "start": start.isoformat()}
                ),
            )
        )
    deadline = get("entry", "deadline")
    if deadline is not None and start is not None and deadline >= start:  # R3.2, R14.3
        out.append(
            _problem(
                "entry.deadline",
                Message(
                    DEADLINE_NOT_BEFORE_FINALS,
                    {"start": start.isoformat(), "deadline": deadline.isoformat()},
                ),
            )
        )
    sizes, divisor = get("draw", "scheme_sizes"), get("draw", "seeded_divisor")
    if sizes is not None and divisor is not None and any(n % divisor for n in sizes):  # R11.1
        out.append(
            _problem(
                "draw.seeded_divisor",
                Message(
                    DIVISOR_NOT_DIVIDING,
                    {"sizes": ", ".join(map(str, sizes)), "divisor": divisor},
                ),
            )
        )
    teams = get("entry", "min_teams")
    if teams is not None and teams < 2:  # R1.2: a knockout needs two teams
        out.append(_problem("entry.min_teams", Message(TOO_FEW_MIN_TEAMS, {"teams": teams})))
    return out


def to_dict(reg: Regulations) -> dict[str, Any]:
    """Plain, JSON-ready data: dates as ``"YYYY-MM-DD"``, times as ``"HH:MM"``, lists.

    :func:`from_dict` reads it back to an equal :class:`Regulations`.
    """
    out: dict[str, Any] = {"prizes": list(reg.prizes)}
    for section, (_cls, keys) in _SECTIONS.items():
        obj = getattr(reg, section)
        out[section] = {k.name: _plain_value(k, getattr(obj, k.name)) for k in keys}
    return out


def _plain_value(key: _Key, value: object) -> Any:
    if key.parse is _stage_table:
        return {stage.value: number for stage, number in value}  # type: ignore[attr-defined]
    return _plain(value)


def _plain(value: object) -> Any:
    if isinstance(value, Stage):
        return value.value
    if isinstance(value, date):
        return value.isoformat()
    if isinstance(value, time):
        return value.isoformat(timespec="seconds" if value.second else "minutes")
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def loads(text: str) -> Regulations:
    """Reads regulations from TOML text; raises :class:`RegulationsError` naming every problem
    (and nothing else, for text of any shape: ``tests/fuzz`` checks it)."""
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))  # a BOM some editors write
    except ValueError as exc:  # TOMLDecodeError; ValueError: a number of over 4,300 digits
        raise RegulationsError([_problem("", Message(NOT_TOML, {"error": str(exc)}))]) from exc
    except RecursionError as exc:  # arrays or inline tables nested a thousand deep
        error = Message(NOT_TOML, {"error": Message(TOML_TOO_DEEP)})
        raise RegulationsError([_problem("", error)]) from exc
    return from_dict(data)


def load(path: str | Path) -> Regulations:
    """Reads a regulations file such as ``editions/bridge-open-ko-1999.toml``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problem = _problem("", Message(CANNOT_READ, {"path": str(path), "error": str(exc)}))
        raise RegulationsError([problem]) from exc
    return loads(text)


def dumps(reg: Regulations) -> str:
    """The regulations as TOML text, a comment citing the clause of every key.

    ``loads(dumps(reg)) == reg`` for every valid ``reg``.
    """
    lines = [
        "# Regulations of one edition: every number of it, each with the clause it comes from.",
        "",
        f"prizes = {_toml(reg.prizes)}  # {_PRIZES.clause}",
    ]
    for section in _SECTIONS:
        # "\n" only: str.splitlines() would also split at U+0085 or U+2028 inside a value
        lines += ["", *dumps_section(section, getattr(reg, section)).rstrip("\n").split("\n")]
    return "\n".join(lines) + "\n"


def dumps_section(section: str, value: object) -> str:
    """One section (``"systems"``, ``"match"`` ...) as a TOML table, a comment citing the clause
    of every key; ``value`` is the section's dataclass (e.g. ``SystemRules()``)."""
    cls, keys = _SECTIONS[section]
    if not isinstance(value, cls):
        raise TypeError(f"[{section}] is a {cls.__name__}, not {value!r}")
    lines = [f"[{section}]"]
    for key in keys:
        item = getattr(value, key.name)
        text = _toml_stage_table(item) if key.parse is _stage_table else _toml(item)
        lines.append(f"{key.name} = {text}  # {key.clause}")
    return "\n".join(lines) + "\n"


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Stage):
        return _toml(value.value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return '"' + "".join(_toml_char(c) for c in value) + '"'
    if isinstance(value, datetime):
        raise TypeError(f"no datetime in regulations: {value!r}")
    if isinstance(value, date | time):
        return value.isoformat()
    if isinstance(value, tuple | list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def _toml_stage_table(table: StageTable) -> str:
    if not table:
        return "{}"
    return "{ " + ", ".join(f"{stage.value} = {number}" for stage, number in table) + " }"


def _toml_char(c: str) -> str:
    if c == '"':
        return '\\"'
    if c == "\\":
        return "\\\\"
    if c < " " or c == "\x7f":
        return f"\\u{ord(c):04x}"
    return c
