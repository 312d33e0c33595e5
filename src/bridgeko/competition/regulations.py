"""Every number of an edition, as data (never a constant in code).

The values of the 1999 edition live in ``editions/bridge-open-ko-1999.toml``; a TD edits a copy
for the next edition. :func:`load` reads such a file and names the key and the problem of every
mistake in it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, time
from enum import StrEnum


class Stage(StrEnum):
    """The kind of a round in the knockout."""

    PRELIMINARY = "preliminary"
    """Any round before the quarterfinals (R11.6)."""
    QUARTERFINAL = "quarterfinal"
    SEMIFINAL = "semifinal"
    THIRD_PLACE = "third_place"
    """The match for 3rd/4th place between the semifinal losers (R1.2)."""
    FINAL = "final"


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


@dataclass(frozen=True, slots=True)
class AppealRules:
    """R16."""

    deadline_minutes: int = 30
    deposit: int = 200
    committee_size: int = 3
    early_match_form_deadline: time = time(13, 0)
    """R16.4: for matches played early, on the scheduled day of the round."""


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
