"""The three decoders of deal numbers (tables, numpy batch, direct) deal the same deals."""

from __future__ import annotations

import hashlib
import random
from itertools import product

import numpy as np

from bridgeko.bridge import dealing

SEED = hashlib.sha256(b"bridgeko dealing paths test").digest()


def test_R12_7_the_direct_decoder_gives_the_deals_of_the_tables() -> None:
    rng = random.Random(7)
    numbers = [
        0,
        1,
        dealing.DEAL_COUNT - 1,
        *(rng.randrange(dealing.DEAL_COUNT) for _ in range(500)),
    ]
    for n in numbers:
        assert dealing._decode_direct(n) == dealing.deal_number_indices(n), n


def test_R12_7_a_small_set_is_the_set_dealt_in_batches() -> None:
    boards = (*range(1, 200), 4096, 70_000)
    small = dealing.deal_set_small(SEED, "Open", "SF-2", boards)
    assert small == list(dealing.deal_set_indices(SEED, "Open", "SF-2", boards))


def test_the_batches_joined_are_the_array() -> None:
    boards = range(1, 9000)  # three batches
    batches = list(dealing.deal_set_batches(SEED, "Open", "F", boards))
    assert [len(b) for b in batches] == [4096, 4096, 807]
    assert np.array_equal(
        np.concatenate(batches), dealing.deal_set_array(SEED, "Open", "F", boards)
    )


def test_the_composition_groups_are_in_the_order_of_itertools_product() -> None:
    for m in (1, 2, 3, 4):
        expected = [js for js in product(range(14), repeat=m) if sum(js) == 13]
        assert list(dealing._sums(m, 13)) == expected
