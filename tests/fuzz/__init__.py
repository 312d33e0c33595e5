"""Fuzz tests: every reader of outside input meets text (or bytes) of any shape and lets only its
documented error type escape.

How many examples: the ``bridgeko-fuzz`` profile of ``tests/conftest.py`` (a few thousand a test,
about 20 seconds for all of them); ``BRIDGEKO_FUZZ=long`` selects ``bridgeko-fuzz-long``.
"""

from __future__ import annotations

from hypothesis import settings

from tests.conftest import FUZZ_PROFILE


def fuzz(share: float = 1.0) -> settings:
    """The settings of one fuzz test: the selected profile, ``share`` of its examples (a test
    whose examples cost more takes a smaller share of the time budget)."""
    profile = settings.get_profile(FUZZ_PROFILE)
    return settings(profile, max_examples=max(1, round(profile.max_examples * share)))
