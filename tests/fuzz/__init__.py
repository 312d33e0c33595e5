"""Fuzz tests: every reader of outside input meets text (or bytes) of any shape and lets only its
documented error type escape.

How many: the ``bridgeko-fuzz`` profile of ``tests/conftest.py`` gives each test 500 examples; a
test over generated inputs checks a batch of four inputs an example (2,000 inputs), about 20
seconds of one core for all of them. ``BRIDGEKO_FUZZ=long`` selects ``bridgeko-fuzz-long``
(25,000 examples a test, 100,000 inputs: about an hour).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TypeVar

from hypothesis import note, settings

from tests.conftest import FUZZ_PROFILE


def fuzz(share: float = 1.0) -> settings:
    """The settings of one fuzz test: the selected profile, ``share`` of its examples (a test
    whose examples cost more takes a smaller share of the time budget)."""
    profile = settings.get_profile(FUZZ_PROFILE)
    return settings(profile, max_examples=max(1, round(profile.max_examples * share)))


T = TypeVar("T")


def check_each(inputs: Iterable[T], check: Callable[[T], object]) -> None:
    """``check`` every input of a batch; a failure says which input failed."""
    for k, value in enumerate(inputs):
        try:
            check(value)
        except BaseException:
            note(f"the failing input is #{k} of the batch: {value!r}"[:5000])
            raise
