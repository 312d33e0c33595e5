"""The regulations file of the 1999 edition, its checks and its round trips (R1..R16)."""

from __future__ import annotations

import dataclasses
import json
from datetime import date, time, timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridgeko.competition import regulations as regs
from bridgeko.competition.regulations import Regulations, RegulationsError, Stage
from tests.sizes import examples

EDITION_1999 = Path(__file__).resolve().parents[2] / "editions" / "bridge-open-ko-1999.toml"


@pytest.fixture(scope="module")
def reg1999() -> Regulations:
    return regs.load(EDITION_1999)


# Every value of the 1999 edition, copied by hand from propozice-1999-cs.txt.
EXPECTED_1999: dict[str, Any] = {
    "edition.name": "Bridge Open K.O. 1999",
    "edition.year": 1999,
    "edition.organiser": "Klub pro podporu reprezentace ve sportovním bridži",  # R1.1
    "edition.venue": "Bridžový klub Nové Město nad Metují",  # R14.1
    "edition.language": "cs",
    "edition.currency": "CZK",
    "edition.timezone": "Europe/Prague",
    "entry.deadline": date(1999, 3, 5),  # R3.2
    "entry.min_players": 4,  # R7.1
    "entry.max_players": 6,  # R7.1
    "entry.min_teams": 8,  # R8.1
    "fees.returning": 300,  # R4.1
    "fees.members_only": 600,
    "fees.other": 1200,
    "fees.returning_same_players": 4,
    "fees.returning_same_players_with_captain": 3,
    "prizes": (60000, 20000, 15000, 5000),  # R5.1
    "rating.reference_date": date(1998, 6, 30),  # R10.1
    "rating.default_team_elo": 500,  # R10.2
    "draw.scheme_sizes": (8, 16, 32),  # R9.2
    "draw.seeded_divisor": 4,  # R11.1
    "match.boards": 32,  # R1.3, R12.1
    "match.final_boards": 48,
    "match.segment_boards": 16,
    "match.extra_segment_boards": 4,  # R12.5
    "match.screens_stages": (  # R12.7
        Stage.QUARTERFINAL,
        Stage.SEMIFINAL,
        Stage.THIRD_PLACE,
        Stage.FINAL,
    ),
    "match.segment_minutes": 120,  # R12.8
    "match.segment_minutes_screens": 130,
    "match.extra_segment_minutes": 35,
    "match.extra_segment_minutes_screens": 40,
    "penalties.slow_play_imps_per_board": 3,  # R12.8
    "penalties.lateness_minutes_per_board": 7,  # R12.9
    "penalties.lateness_imps_per_board": 3,
    "schedule.finals_start": date(1999, 6, 4),  # R14.3
    "schedule.finals_end": date(1999, 6, 6),
    "schedule.preliminary_weekday": 4,  # R14.1 Friday
    "schedule.preliminary_start": time(19, 0),
    "schedule.dates_published_within_days": 14,
    "schedule.reschedule_notice_days": 1,  # R14.2a
    "schedule.result_record_deadline": time(13, 0),  # R14.2b
    "schedule.record_confirm_hours": 24,  # not in the regulations (issue 21)
    "schedule.record_auto_approve": False,
    "fees.per_player": False,  # 1999: per team (issue 22: 2001 per player)
    "match.stage_boards": (),  # 1999: no stage of its own (issue 22)
    "match.stage_segment_boards": (),
    "format.template": "single",  # 1999: the standard knockout (I1)
    "format.prizes_per_player": False,  # R5.1: prizes to the team
    "appeals.deadline_minutes": 30,  # R16.3
    "appeals.deposit": 200,  # R16.2
    "appeals.committee_size": 3,  # R16.1
    "appeals.early_match_form_deadline": time(13, 0),  # R16.4
    "systems.one_level_minimum": 12,  # R6.1
    "systems.nt_relay_threshold": 16,  # R6.5
    "systems.nt_range_limit": 5,  # R6.5, I9: less than five points (max - min <= 3)
}


def _get(reg: Regulations, dotted: str) -> Any:
    obj: Any = reg
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


@pytest.mark.parametrize("key", sorted(EXPECTED_1999))
def test_1999_edition_value(reg1999: Regulations, key: str) -> None:
    assert _get(reg1999, key) == EXPECTED_1999[key]


def test_1999_edition_covers_every_field(reg1999: Regulations) -> None:
    fields: set[str] = set()
    for f in dataclasses.fields(Regulations):
        value = getattr(reg1999, f.name)
        if dataclasses.is_dataclass(value):
            fields |= {f"{f.name}.{g.name}" for g in dataclasses.fields(value)}
        else:
            fields.add(f.name)
    assert fields == set(EXPECTED_1999)


def test_1999_edition_file_cites_clauses() -> None:
    text = EDITION_1999.read_text(encoding="utf-8")
    for clause in ("R3.2", "R10.1", "R4.1", "R5.1", "R8.1", "R7.1", "R1.3", "R12.1", "R12.5",
                   "R12.7", "R12.8", "R12.9", "R14.1", "R14.2a", "R14.2b", "R14.3", "R16.1",
                   "R16.2", "R16.3", "R16.4", "R6.1", "R6.5", "I9"):  # fmt: skip
        assert clause in text, clause


def test_dumps_loads_round_trip(reg1999: Regulations) -> None:
    assert regs.loads(regs.dumps(reg1999)) == reg1999


def test_to_dict_is_json_and_round_trips(reg1999: Regulations) -> None:
    data = json.loads(json.dumps(regs.to_dict(reg1999)))
    assert data["entry"]["deadline"] == "1999-03-05"
    assert data["schedule"]["preliminary_start"] == "19:00"
    assert data["match"]["screens_stages"][0] == "quarterfinal"
    assert regs.from_dict(data) == reg1999


def test_round_trip_of_an_edited_edition(reg1999: Regulations) -> None:
    edited = dataclasses.replace(
        reg1999,
        edition=dataclasses.replace(
            reg1999.edition, name='Bridge "Open" K.O.\\2000\n', year=2000, language="en"
        ),
        prizes=(1000, 0),
        match=dataclasses.replace(reg1999.match, screens_stages=(), boards=48),
        schedule=dataclasses.replace(reg1999.schedule, preliminary_start=time(18, 30, 15)),
    )
    # the loader strips text, so compare with a name that has no surrounding blanks
    edited = dataclasses.replace(
        edited, edition=dataclasses.replace(edited.edition, name='Bridge "Open" K.O.\\2000')
    )
    assert regs.loads(regs.dumps(edited)) == edited
    assert regs.from_dict(regs.to_dict(edited)) == edited


def _broken(edit: str, replacement: str) -> str:
    text = EDITION_1999.read_text(encoding="utf-8")
    assert edit in text, edit
    return text.replace(edit, replacement, 1)


def _problems(text: str) -> list[str]:
    with pytest.raises(RegulationsError) as info:
        regs.loads(text)
    assert isinstance(info.value, ValueError)
    return [str(p) for p in info.value.problems]


@pytest.mark.parametrize(
    ("edit", "replacement", "expected"),
    [
        ("boards = 32 ", 'boards = "x" ', "match.boards: must be a positive whole number, not 'x'"),
        ("boards = 32 ", "boards = 0 ", "match.boards: must be a positive whole number, not 0"),
        ("boards = 32 ", "boards = 32.0 ", "match.boards: must be a positive whole number"),
        ("boards = 32 ", "boards = true ", "match.boards: must be a positive whole number"),
        ("deadline = 1999-03-05", 'deadline = "5. 3. 1999"', "entry.deadline: not a date"),
        ("deadline = 1999-03-05", "deadline = 1999-03-05T12:00:00", "entry.deadline: not a date"),
        ("other = 1200", "", "fees.other: missing"),
        ("boards = 32 ", "bords = 32 ", "unknown key 'match.bords'"),
        ("boards = 32 ", "boards = 32\nbords = 32 ", "unknown key 'match.bords'"),
        ("[appeals]", "[appeal]", "unknown key 'appeal'"),
        ("[appeals]", "[appeal]", "appeals: missing"),
        ("prizes = [", "prices = [", "prizes: missing"),
        ("= [60000, 20000,", "= [60000, -20000,", "prizes: the prize for place 2 must be"),
        ('timezone = "Europe/Prague"', 'timezone = "Europe/Praha"', "edition.timezone: unknown"),
        ('currency = "CZK"', 'currency = "Kč"', "edition.currency: must be a three-letter"),
        ('language = "cs"', 'language = "de"', "edition.language: must be one of cs, en"),
        ('organiser = "Klub', 'organiser = "  " # "Klub', "edition.organiser: must be a non-empty"),
        (
            "preliminary_start = 19:00:00",
            'preliminary_start = "7 pm"',
            "schedule.preliminary_start: not a time",
        ),
        (
            "preliminary_weekday = 4",
            "preliminary_weekday = 7",
            "schedule.preliminary_weekday: must be 0",
        ),
        (
            '"third_place", "final"]',
            '"third_place", "finale"]',
            "match.screens_stages: unknown stage 'finale'",
        ),
        (
            '"third_place", "final"]',
            '"final", "final"]',
            "match.screens_stages: stage 'final' is listed twice",
        ),
        (
            "[8, 16, 32]",
            "[8, 12, 32]",
            "draw.scheme_sizes: every scheme size must be a power of two",
        ),
        ("[8, 16, 32]", "[8, 32, 16]", "draw.scheme_sizes: the scheme sizes must be in ascending"),
        ("[8, 16, 32]", "[]", "draw.scheme_sizes: must list at least one"),
        ("[8, 16, 32]", "8", "draw.scheme_sizes: must be a list"),
        ("seeded_divisor = 4", "seeded_divisor = 0", "draw.seeded_divisor: must be a positive"),
        # consistency between keys
        (
            "boards = 32 ",
            "boards = 30 ",
            "match.boards: must be a whole number of segments of match.segment_boards (16), not 30",
        ),
        (
            "final_boards = 48",
            "final_boards = 40",
            "match.final_boards: must be a whole number of segments",
        ),
        (
            "min_players = 4",
            "min_players = 7",
            "entry.min_players: must not be more than entry.max_players (6), not 7",
        ),
        (
            "finals_end = 1999-06-06",
            "finals_end = 1999-06-03",
            "schedule.finals_start: must not be after schedule.finals_end (1999-06-03)",
        ),
        (
            "deadline = 1999-03-05",
            "deadline = 1999-06-05",
            "entry.deadline: must be before schedule.finals_start",
        ),
        (
            "seeded_divisor = 4",
            "seeded_divisor = 3",
            "draw.seeded_divisor: must divide every scheme size (8, 16, 32), not 3",
        ),
        (
            "seeded_divisor = 4",
            "seeded_divisor = 16",
            "draw.seeded_divisor: must divide every scheme size",
        ),
        (
            "returning_same_players = 4",
            "returning_same_players = 7",
            "fees.returning_same_players: must not be more than entry.max_players",
        ),
        ("min_teams = 8", "min_teams = 1", "entry.min_teams: must be at least 2, not 1"),
        # R6, I9
        (
            "one_level_minimum = 12",
            "one_level_minimum = 0",
            "systems.one_level_minimum: must be a number of high-card points from 1 to 37, not 0",
        ),
        (
            "one_level_minimum = 12",
            "one_level_minimum = 38",
            "systems.one_level_minimum: must be a number of high-card points from 1 to 37",
        ),
        (
            "one_level_minimum = 12",
            'one_level_minimum = "12"',
            "systems.one_level_minimum: must be a number of high-card points from 1 to 37, "
            "not '12'",
        ),
        (
            "nt_relay_threshold = 16",
            "nt_relay_threshold = 15.5",
            "systems.nt_relay_threshold: must be a number of high-card points",
        ),
        (
            "nt_relay_threshold = 16",
            "nt_relay_threshold = true",
            "systems.nt_relay_threshold: must be a number of high-card points",
        ),
        (
            "nt_range_limit = 5",
            "nt_range_limit = 1",
            "systems.nt_range_limit: must be a whole number of points from 2 to 38, not 1",
        ),
        (
            "nt_range_limit = 5",
            "nt_range_limit = 39",
            "systems.nt_range_limit: must be a whole number of points from 2 to 38, not 39",
        ),
        ("nt_range_limit = 5", "", "systems.nt_range_limit: missing"),
        (
            "nt_range_limit = 5",
            "nt_range_limit = 5\nnt_range = 4",
            "unknown key 'systems.nt_range'",
        ),
        ("[systems]", "[system]", "unknown key 'system'"),
    ],
)
def test_broken_file_names_the_key(edit: str, replacement: str, expected: str) -> None:
    problems = _problems(_broken(edit, replacement))
    assert any(p.startswith(expected) for p in problems), problems


def test_a_file_without_the_systems_section_names_it() -> None:
    # R6, I9: every number is required in a file; stored editions from before the section
    # existed are completed by the editions app's migration (tests/web/test_editions.py)
    text = EDITION_1999.read_text(encoding="utf-8")
    text = text[: text.index("[systems]")]
    assert _problems(text) == ["systems: missing"]


def test_R14_2b_a_text_stored_before_the_record_keys_takes_their_defaults() -> None:
    # issue 21: the opponents' hours and the automatic approval are the edition's own rules,
    # added after editions were stored: a text without them loads with 24 hours and no
    # automatic approval; a wrong value is named
    text = _broken("record_confirm_hours = 24", "")
    text = text.replace("record_auto_approve = false", "")
    loaded = regs.loads(text).schedule
    assert (loaded.record_confirm_hours, loaded.record_auto_approve) == (24, False)
    assert "record_auto_approve = false" in regs.dumps(regs.loads(text))
    assert _problems(_broken("record_auto_approve = false", 'record_auto_approve = "yes"')) == [
        "schedule.record_auto_approve: must be true or false, not 'yes'"
    ]
    assert _problems(_broken("record_confirm_hours = 24", "record_confirm_hours = 0")) == [
        "schedule.record_confirm_hours: must be a positive whole number, not 0"
    ]


def test_R1_3_a_stage_may_have_its_own_boards_and_segment_length() -> None:
    # issue 22, the 2001 edition: the final of 64 boards in sets of 8, the rest 32 in 16
    text = _broken(
        "segment_boards = 16", "segment_boards = 16\nstage_segment_boards = { final = 8 }"
    )
    text = text.replace("final_boards = 48", "final_boards = 64")
    match = regs.loads(text).match
    assert (match.boards_of(regs.Stage.FINAL), match.segment_boards_of(regs.Stage.FINAL)) == (64, 8)
    assert match.segment_boards_of(regs.Stage.SEMIFINAL) == 16
    assert "stage_segment_boards = { final = 8 }" in regs.dumps(regs.loads(text))
    text = text.replace(
        "segment_boards = 16\n", "segment_boards = 16\nstage_boards = { semifinal = 48 }\n", 1
    )
    assert regs.loads(text).match.boards_of(regs.Stage.SEMIFINAL) == 48


@pytest.mark.parametrize(
    ("replacement", "expected"),
    [
        (
            "stage_segment_boards = { final = 10 }",
            "match.stage_segment_boards: the final: 48 boards are not whole segments of 10 boards",
        ),
        (
            "stage_boards = { semifinal = 40 }",
            "match.stage_boards: the semifinals: 40 boards are not whole segments of 16 boards",
        ),
        ("stage_boards = { semis = 40 }", "match.stage_boards: unknown stage 'semis'"),
        ("stage_boards = { final = 0 }", "match.stage_boards: must be a positive whole number"),
        ("stage_boards = [64]", "match.stage_boards: must be a table of stages"),
    ],
)
def test_R1_3_a_stage_table_that_cannot_be_played_is_named(replacement: str, expected: str) -> None:
    problems = _problems(_broken("segment_boards = 16", f"segment_boards = 16\n{replacement}"))
    assert any(p.startswith(expected) for p in problems), problems


def test_the_format_section_is_optional_and_its_template_checked() -> None:
    # issue 22: a text stored before the section existed is the 1999 format
    reg = regs.loads(EDITION_1999.read_text(encoding="utf-8"))
    assert reg.format == regs.FormatRules("single", False) and not reg.fees.per_player
    text = EDITION_1999.read_text(encoding="utf-8") + '\n[format]\ntemplate = "swiss"\n'
    assert _problems(text) == [
        "format.template: must be one of single, double, double-reset, single-plate, "
        "single-placement, not 'swiss'"
    ]


def test_systems_section_values_are_read(reg1999: Regulations) -> None:
    text = _broken("one_level_minimum = 12", "one_level_minimum = 11")
    text = text.replace("nt_relay_threshold = 16", "nt_relay_threshold = 15")
    text = text.replace("nt_range_limit = 5", "nt_range_limit = 4")
    assert regs.loads(text).systems == regs.SystemRules(11, 15, 4)
    assert regs.loads(text).match == reg1999.match  # the other sections are untouched


def test_the_1999_systems_numbers_are_the_defaults(reg1999: Regulations) -> None:
    assert reg1999.systems == regs.SystemRules()


def test_dumps_section_writes_the_clauses() -> None:
    text = regs.dumps_section("systems", regs.SystemRules(11, 15, 4))
    assert text.splitlines() == [
        "[systems]",
        "one_level_minimum = 11  # R6.1: HCP normally worth a one-level opening",
        "nt_relay_threshold = 15  # R6.5: applies to a 1NT below this many HCP",
        "nt_range_limit = 4  # R6.5, I9: range (inclusive) less than this",
    ]
    with pytest.raises(TypeError):
        regs.dumps_section("systems", regs.MatchRules())


def test_every_problem_is_listed_at_once() -> None:
    text = _broken("boards = 32 ", 'boards = "x" ')
    text = text.replace("other = 1200", "")
    text = text.replace("deadline = 1999-03-05", 'deadline = "soon"')
    text = text.replace("[draw]", "[draw]\nseeds = 4")
    with pytest.raises(RegulationsError) as info:
        regs.loads(text)
    assert set(info.value.keys) == {
        "match.boards",
        "fees.other",
        "entry.deadline",
        "draw.seeds",
    }
    message = str(info.value)
    assert "4 problems" in message
    for expected in (
        "match.boards: must be a positive whole number, not 'x'",
        "fees.other: missing",
        "entry.deadline: not a date",
        "unknown key 'draw.seeds'",
    ):
        assert expected in message


def test_a_consistency_check_is_skipped_when_its_keys_are_wrong() -> None:
    problems = _problems(_broken("segment_boards = 16", 'segment_boards = "16"'))
    assert problems == ["match.segment_boards: must be a positive whole number, not '16'"]


def test_not_toml() -> None:
    problems = _problems("prizes = [1, 2\n")
    assert len(problems) == 1 and problems[0].startswith("not valid TOML")


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(RegulationsError, match="cannot read"):
        regs.load(tmp_path / "nope.toml")


def test_from_dict_rejects_a_section_that_is_not_a_table(reg1999: Regulations) -> None:
    data = regs.to_dict(reg1999)
    data["match"] = 32
    with pytest.raises(RegulationsError, match="match: must be a table"):
        regs.from_dict(data)


def test_from_dict_accepts_weekday_names(reg1999: Regulations) -> None:
    data = regs.to_dict(reg1999)
    data["schedule"]["preliminary_weekday"] = "Friday"
    assert regs.from_dict(data).schedule.preliminary_weekday == 4


_texts = st.text(
    alphabet=st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=30
).filter(lambda s: s.strip() == s and s != "")
_dates = st.dates(min_value=date(1990, 1, 1), max_value=date(2090, 12, 31))
_times = st.times().map(lambda t: t.replace(microsecond=0))
_pos = st.integers(min_value=1, max_value=10**6)
_nonneg = st.integers(min_value=0, max_value=10**6)


@st.composite
def _regulations(draw: st.DrawFn) -> Regulations:
    deadline = draw(_dates)
    finals_start = deadline + timedelta(days=draw(st.integers(1, 400)))
    finals_end = finals_start + timedelta(days=draw(st.integers(0, 10)))
    seg = draw(st.integers(1, 20))
    min_players = draw(st.integers(1, 8))
    max_players = min_players + draw(st.integers(0, 4))
    sizes = sorted(set(draw(st.lists(st.integers(1, 8), min_size=1, max_size=4))))
    schemes = tuple(2**k for k in sizes)
    divisor = 2 ** draw(st.integers(0, sizes[0]))
    stages = draw(st.lists(st.sampled_from(list(Stage)), unique=True))
    return Regulations(
        edition=regs.EditionInfo(
            name=draw(_texts),
            year=draw(_pos),
            organiser=draw(_texts),
            venue=draw(_texts),
            language=draw(st.sampled_from(["cs", "en"])),
            currency=draw(st.sampled_from(["CZK", "EUR", "USD"])),
            timezone=draw(st.sampled_from(["Europe/Prague", "UTC", "America/New_York"])),
        ),
        entry=regs.EntryRules(deadline, min_players, max_players, draw(st.integers(2, 100))),
        rating=regs.RatingRules(draw(_dates), draw(_nonneg)),
        schedule=regs.ScheduleRules(
            finals_start,
            finals_end,
            draw(st.integers(0, 6)),
            draw(_times),
            draw(_nonneg),
            draw(_nonneg),
            draw(_times),
            draw(st.integers(1, 240)),
            draw(st.booleans()),
        ),
        fees=regs.FeeRules(
            draw(_nonneg),
            draw(_nonneg),
            draw(_nonneg),
            draw(st.integers(1, max_players)),
            draw(st.integers(1, max_players)),
            draw(st.booleans()),
        ),
        prizes=tuple(draw(st.lists(_nonneg, max_size=10))),
        format=regs.FormatRules(draw(st.sampled_from(regs.TEMPLATES)), draw(st.booleans())),
        draw=regs.DrawRules(schemes, divisor),
        match=regs.MatchRules(
            seg * draw(st.integers(1, 6)),
            seg * draw(st.integers(1, 6)),
            seg,
            draw(_pos),
            tuple(stages),
            draw(_pos),
            draw(_pos),
            draw(_pos),
            draw(_pos),
            tuple(
                (stage, seg * draw(st.integers(1, 8)))
                for stage in regs.Stage
                if draw(st.booleans())
            ),
            tuple(
                (stage, seg)  # the stage's own segment: whole segments of every stage's boards
                for stage in regs.Stage
                if draw(st.booleans())
            ),
        ),
        penalties=regs.PenaltyRules(draw(_nonneg), draw(_pos), draw(_nonneg)),
        appeals=regs.AppealRules(draw(_pos), draw(_nonneg), draw(_pos), draw(_times)),
        systems=regs.SystemRules(
            draw(st.integers(1, 37)), draw(st.integers(1, 37)), draw(st.integers(2, 38))
        ),
    )


@settings(max_examples=examples(60), deadline=None)
@given(_regulations())
def test_every_valid_edition_round_trips(reg: Regulations) -> None:
    assert regs.loads(regs.dumps(reg)) == reg
    assert regs.from_dict(json.loads(json.dumps(regs.to_dict(reg)))) == reg


def test_line_separators_inside_a_text_round_trip(reg1999: Regulations) -> None:
    # found by hypothesis: U+0085 and U+2028 are line breaks for str.splitlines(), not for TOML
    for venue in ("0\x850", "a\u2028b", "a\u2029b", "a\x1cb"):
        edited = dataclasses.replace(
            reg1999, edition=dataclasses.replace(reg1999.edition, venue=venue)
        )
        assert regs.loads(regs.dumps(edited)) == edited


def test_a_byte_order_mark_is_ignored(tmp_path: Path, reg1999: Regulations) -> None:
    path = tmp_path / "bom.toml"
    path.write_text("\ufeff" + EDITION_1999.read_text(encoding="utf-8"), encoding="utf-8")
    assert regs.load(path) == reg1999
