"""The regulations loader meets input of any size (issue 8): time zone names of any length and
content, numbers of any length, arrays nested a thousand deep, long texts. Each is a
RegulationsError naming the key, with a message of sensible length, never an OSError, a
ValueError or a RecursionError."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bridgeko.competition import regulations as regs
from bridgeko.competition.regulations import RegulationsError

TOML_1999 = (
    Path(__file__).resolve().parents[2] / "editions" / "bridge-open-ko-1999.toml"
).read_text(encoding="utf-8")


def _with(key: str, value: str) -> str:
    """The 1999 file with the first ``key = ...`` line set to ``value`` (TOML text)."""
    text, n = re.subn(rf"(?m)^{key} = .*$", lambda _m: f"{key} = {value}", TOML_1999, count=1)
    assert n == 1
    return text


def _problems(text: str) -> dict[str, str]:
    with pytest.raises(RegulationsError) as exc:
        regs.loads(text)
    return {p.key: p.message for p in exc.value.problems}


@pytest.mark.parametrize(
    "zone",
    [
        "x" * 300,  # OSError (file name too long) from zoneinfo: an uncaught error before
        "Europe/" + "a" * 300,
        "Europe",  # IsADirectoryError
        "zone.tab",  # a file of the time zone database that is not a zone
        "Europe/Prague\x00",  # ValueError: embedded null byte
        "..",
        "../../etc/passwd",
        "/etc/localtime",
        "Europe/Prague/",
        "a" * 100_000,
    ],
)
def test_time_zone_of_any_length_and_content_is_a_problem_of_its_key(zone: str) -> None:
    escaped = zone.replace("\\", "\\\\").replace("\x00", "\\u0000")
    problems = _problems(_with("timezone", f'"{escaped}"'))
    assert list(problems) == ["edition.timezone"]
    assert problems["edition.timezone"].startswith("unknown time zone '")
    assert len(problems["edition.timezone"]) < 100  # the value is cut, not repeated


def test_time_zone_in_a_form_is_checked_the_same_way() -> None:
    data = regs.to_dict(regs.loads(TOML_1999))
    data["edition"]["timezone"] = "x" * 300
    with pytest.raises(RegulationsError) as exc:
        regs.from_dict(data)
    assert exc.value.keys == ("edition.timezone",)


def test_real_time_zones_still_load() -> None:
    for zone in ("Europe/Prague", "UTC", "America/Argentina/ComodRivadavia"):
        assert regs.loads(_with("timezone", f'"{zone}"')).edition.timezone == zone
        assert regs.is_timezone(zone)


@pytest.mark.parametrize(
    "number", ["9" * 5000, "-" + "9" * 4301, "0x" + "f" * 5000, "1" + "_0" * 4400]
)
def test_number_of_any_length_is_a_problem_not_a_value_error(number: str) -> None:
    problems = _problems(_with("boards", number))
    message = problems.get("match.boards") or problems[""]
    assert len(message) < 400


def test_number_too_large_for_any_clause_names_its_key() -> None:
    problems = _problems(_with("other", str(2**31)))
    assert problems == {"fees.other": "must be at most 2147483647, not 2147483648"}
    problems = _problems(_with("prizes", f"[1, {16**3000:#x}]"))
    assert problems["prizes"].startswith("must be at most 2147483647, not 2290593203500326")
    assert len(problems["prizes"]) < 120
    problems = _problems(_with("prizes", f"[1, {16**5000:#x}]"))  # no decimal repr: in hex
    assert problems["prizes"].startswith("must be at most 2147483647, not 0x1000")
    assert len(problems["prizes"]) < 120
    problems = _problems(_with("scheme_sizes", f"[8, {2**40}]"))
    assert problems["draw.scheme_sizes"] == "must be at most 2147483647, not 1099511627776"


def test_largest_number_still_loads() -> None:
    assert regs.loads(_with("other", str(regs.MAX_NUMBER))).fees.other == regs.MAX_NUMBER


@pytest.mark.parametrize("nested", ["[" * 5000 + "]" * 5000, "{a = " * 5000 + "1" + "}" * 5000])
def test_deeply_nested_toml_is_a_problem_not_a_recursion_error(nested: str) -> None:
    problems = _problems(_with("boards", nested))
    assert problems == {"": "not valid TOML: nested too deeply"}


def test_long_values_are_cut_in_every_message() -> None:
    problems = _problems(_with("currency", '"' + "C" * 10_000 + '"'))
    assert len(problems["edition.currency"]) < 150


def test_time_with_a_fraction_of_a_second_is_a_problem_not_lost_in_a_form() -> None:
    # found by the fuzz test: to_dict wrote "10:00", so from_dict(to_dict(reg)) != reg
    problems = _problems(_with("result_record_deadline", "10:00:00.999999"))
    assert problems == {
        "schedule.result_record_deadline": (
            "not a time of day (write it as HH:MM): datetime.time(10, 0, 0, 999999)"
        )
    }
    reg = regs.loads(_with("result_record_deadline", "10:00:30"))
    assert regs.from_dict(regs.to_dict(reg)) == reg
