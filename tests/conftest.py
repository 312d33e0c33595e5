"""Shared pytest configuration."""

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

# The fuzz tests (tests/fuzz) take their number of examples from a profile: 500 each in
# `make test` (2,000 inputs: a batch of four an example), 50 times as many with
# BRIDGEKO_FUZZ=long (e.g. overnight, or after changing a reader).
# Only the fuzz tests use these profiles (tests/fuzz/__init__.py picks one); every other property
# test keeps its own settings.
FUZZ_ENV = "BRIDGEKO_FUZZ"
settings.register_profile(
    "bridgeko-fuzz",
    max_examples=500,
    deadline=None,  # a shared, loaded machine must not turn a slow example into a failure
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "bridgeko-fuzz-long", settings.get_profile("bridgeko-fuzz"), max_examples=25_000
)
FUZZ_PROFILE = "bridgeko-fuzz-long" if os.environ.get(FUZZ_ENV) == "long" else "bridgeko-fuzz"


@pytest.fixture(autouse=True)
def _fresh_public_pages() -> Iterator[None]:
    """Each test's database counts its audit entries from the same numbers, so the public pages
    kept in memory by version (bridgeko.public.render) would outlive their test."""
    from django.apps import apps

    if not apps.ready:
        yield
        return
    from bridgeko.public import render

    render.forget()
    yield
    render.forget()
