"""Shared pytest configuration."""

import os
from collections.abc import Iterator
from typing import Any

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


@pytest.fixture(autouse=True, scope="session")
def _static_files_listed_once() -> Iterator[None]:
    """WhiteNoise lists and stats every static file found by the finders whenever a middleware
    chain is built — once per test ``Client``, a large part of a page test's time. The files
    of the source tree do not change during a run, so the list is made once per static set-up
    (prefix, root) and copied into each new middleware. Tests only: a server builds its chain
    once."""
    from django.conf import settings as django_settings
    from whitenoise.middleware import WhiteNoiseMiddleware

    original = WhiteNoiseMiddleware.add_files_from_finders
    listed: dict[tuple[str, str], dict[str, Any]] = {}

    def add_files_from_finders(self: WhiteNoiseMiddleware) -> None:
        key = (str(self.static_prefix), str(django_settings.STATIC_ROOT))
        if key not in listed:
            before = dict(self.files)
            original(self)
            listed[key] = {u: f for u, f in self.files.items() if before.get(u) is not f}
        for url, static_file in listed[key].items():
            self.files[url] = static_file

    WhiteNoiseMiddleware.add_files_from_finders = add_files_from_finders  # type: ignore[method-assign]
    yield
    WhiteNoiseMiddleware.add_files_from_finders = original  # type: ignore[method-assign]
