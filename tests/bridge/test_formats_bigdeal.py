"""DUP and DLM byte for byte as Big Deal writes them (tests/data/bigdeal/README.md says how the
files were made): the same deals, read from Big Deal's own PBN file, written by
:mod:`bridgeko.bridge.formats` with Big Deal's options give the same bytes."""

from __future__ import annotations

from pathlib import Path

import pytest

from bridgeko.bridge import formats, pbn
from bridgeko.bridge.cards import Deal

DATA = Path(__file__).resolve().parent.parent / "data" / "bigdeal"
SETS = ("n1", "n16", "n32", "n99", "n17-32")
BLIND_DUP = ("n1", "n16")
BLIND_DLM = ("n1", "n16", "n99")


def deals_of(name: str) -> dict[int, Deal]:
    """The deals of Big Deal's PBN file ``name``.pbn, by board."""
    out: dict[int, Deal] = {}
    for game in pbn.parse((DATA / f"{name}.pbn").read_text("ascii")).games:
        assert game.board is not None and game.deal is not None
        out[game.board] = game.deal
    return out


def test_the_fixtures_are_all_there_and_hold_the_boards_asked_for() -> None:
    assert [sorted(deals_of(n)) for n in SETS] == [
        [1],
        list(range(1, 17)),
        list(range(1, 33)),
        list(range(1, 100)),
        list(range(17, 33)),
    ]


@pytest.mark.parametrize("name", [n for n in SETS if (DATA / f"{n}.dup").exists()])
def test_dup_is_big_deals_dup_byte_for_byte(name: str) -> None:
    ours = formats.to_dup(deals_of(name), copies=0, style="bigdeal")
    assert ours == (DATA / f"{name}.dup").read_bytes()


@pytest.mark.parametrize("name", BLIND_DUP)
def test_sealed_dup_is_big_deals_dupblind_byte_for_byte(name: str) -> None:
    ours = formats.to_dup(deals_of(name), copies=0, style="bigdeal", sealed=True)
    assert ours == (DATA / f"{name}-blind.dup").read_bytes()


@pytest.mark.parametrize("name", [n for n in SETS if (DATA / f"{n}.dlm").exists()])
def test_shown_dlm_is_big_deals_dlm_byte_for_byte(name: str) -> None:
    ours = formats.to_dlm(deals_of(name), title=formats.BIGDEAL_HEADLINE, show=True, newline="\n")
    assert ours.encode("ascii") == (DATA / f"{name}.dlm").read_bytes()


@pytest.mark.parametrize("name", BLIND_DLM)
def test_sealed_dlm_is_big_deals_dlmblind_byte_for_byte(name: str) -> None:
    ours = formats.to_dlm(deals_of(name), title=formats.BIGDEAL_HEADLINE, newline="\n")
    assert ours.encode("ascii") == (DATA / f"{name}-blind.dlm").read_bytes()


def test_big_deals_dlm_read_back_gives_its_deals() -> None:
    for name in ("n1", "n16", "n32", "n17-32"):
        assert formats.from_dlm((DATA / f"{name}.dlm").read_text("ascii")) == deals_of(name)


def test_big_deals_dup_read_back_gives_its_deals_numbered_from_its_lowest_board_field() -> None:
    for name in ("n1", "n16", "n32", "n99"):
        assert formats.from_dup((DATA / f"{name}.dup").read_bytes()) == deals_of(name)
    # Big Deal writes lowest board 1 for boards 17-32 too: the file numbers them 1-16.
    boards = deals_of("n17-32")
    read = formats.from_dup((DATA / "n17-32.dup").read_bytes())
    assert read == {n - 16: d for n, d in boards.items()}


def test_the_differences_from_the_default_options_are_the_documented_ones() -> None:
    deals = deals_of("n17-32")
    big = (DATA / "n17-32.dup").read_bytes()
    ours = formats.to_dup(deals)  # default: the Convert layout, copies 1
    assert big[146:156] == b"YN1  0 16 "
    assert ours[146:156] == b"YN17 1 32 "
    assert [ours[k : k + 146] for k in range(0, len(ours), 156)] == [
        big[k : k + 146] for k in range(0, len(big), 156)
    ]
    text = formats.to_dlm(deals, title=formats.BIGDEAL_HEADLINE, show=True)  # CRLF by default
    assert text.encode("ascii") == (DATA / "n17-32.dlm").read_bytes().replace(b"\n", b"\r\n")
    # One board: Big Deal's highest board field is two digits.
    assert (DATA / "n1.dup").read_bytes()[146:] == b"YN1  0 01 "
    assert formats.to_dup(deals_of("n1"), copies=0)[146:] == b"YN1  0 1  "
