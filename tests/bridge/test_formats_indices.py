"""A DLM file written from card indices is the file written from the same deals."""

from __future__ import annotations

import hashlib

import pytest

from bridgeko.bridge import dealing, formats

SEED = hashlib.sha256(b"bridgeko formats indices test").digest()


@pytest.mark.parametrize("boards", [range(1, 100), range(7, 24), range(99, 100)])
def test_dlm_of_card_indices_is_the_dlm_of_the_deals(boards: range) -> None:
    hands = dealing.deal_set_small(SEED, "Open", "F", boards)
    by_indices = formats.to_dlm(dict(zip(boards, hands, strict=True)), title="Open F")
    deals = {b: dealing.deal_from_indices(h) for b, h in zip(boards, hands, strict=True)}
    assert by_indices == formats.to_dlm(deals, title="Open F")
    assert formats.from_dlm(by_indices) == deals


def test_incomplete_card_indices_are_refused() -> None:
    north, east, south, west = dealing.deal_set_small(SEED, "Open", "F", [1])[0]
    for bad in ((north, east, south), (north, east, south, west[:-1]), (north, north, south, west)):
        with pytest.raises(formats.FormatError, match="not a complete deal"):
            formats.to_dlm({1: bad}, title="x")
