"""Shared pytest configuration."""

import os
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from tests.sizes import LONG

pytest_plugins = ["tests.timing"]  # BRIDGEKO_TEST_TIMING=DIR: where the time goes

# BRIDGEKO_FUZZ=long is the long run (e.g. overnight, or after changing a reader): the fuzz tests
# (tests/fuzz) take their number of examples from a profile, 500 each in `make test` (2,000
# inputs: a batch of four an example) and 50 times as many in the long run; the property tests
# take theirs from `examples()`, and the tests that size their data (the Elo list longer than a
# statement takes) use the long size too.
settings.register_profile(
    "bridgeko-fuzz",
    max_examples=500,
    deadline=None,  # a shared, loaded machine must not turn a slow example into a failure
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "bridgeko-fuzz-long", settings.get_profile("bridgeko-fuzz"), max_examples=25_000
)
FUZZ_PROFILE = "bridgeko-fuzz-long" if LONG else "bridgeko-fuzz"
DATABASE_FIXTURES = frozenset(
    {"db", "transactional_db", "django_db_reset_sequences", "live_server"}
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Marks ``database`` every test that uses the database (a Django database fixture or the
    ``django_db`` mark): ``make test-db`` runs these again on PostgreSQL (``.ci/run``).

    Orders the tests for pytest-xdist's ``worksteal`` (the Makefile's ``--dist``), which gives
    each worker one contiguous part of this list and lets an idle worker take the second half of
    another's queue: the tests that take seconds (``e2e``, ``slow``) come first in every part,
    shared out in turn, so that the run ends with short tests on all workers, not with one
    worker waiting for another's browser test (docs/testing.md)."""
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        if names & DATABASE_FIXTURES or item.get_closest_marker("django_db") is not None:
            item.add_marker(pytest.mark.database)
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    items[:] = spread(items, workers)


def _heavy(item: pytest.Item) -> bool:
    return any(item.get_closest_marker(mark) for mark in ("e2e", "slow"))


def spread(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    """``items`` in ``workers`` parts of the sizes worksteal makes (the first gets n // workers,
    each next its share of the rest), each part its share of the heavy tests first, then light
    tests in their collected order."""
    heavy = [item for item in items if _heavy(item)]
    light = [item for item in items if not _heavy(item)]
    if workers <= 1:
        return heavy + light
    out: list[pytest.Item] = []
    remaining, used = len(items), 0
    for k in range(workers):
        size = remaining // (workers - k)
        remaining -= size
        mine = heavy[k::workers]
        take = max(0, size - len(mine))
        out += mine + light[used : used + take]
        used += take
    return out + light[used:]


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
def _worlds_shared_by_the_workers(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Under pytest-xdist the workers share what they record of the expensive worlds
    (tests/worlds.py): a world is built by one worker of the run, replayed by the others."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        from tests import worlds

        worlds.shared = tmp_path_factory.getbasetemp().parent / "worlds"
        worlds.shared.mkdir(exist_ok=True)


@pytest.fixture(autouse=True, scope="session")
def _double_dummy_once() -> Iterator[None]:
    """A deal's double-dummy table is solved once per worker: DDS is deterministic, and the
    tests deal the same sets (from the same seeds) again and again — a 16-board set costs
    seconds. ``bridgeko.bridge.analysis`` runs as always around DDS (its input, its output,
    its progress); only a deal it has solved before is not handed to DDS again."""
    from bridgeko.bridge import analysis

    original = analysis.calc_all_tables
    solved: dict[str, Any] = {}

    def calc_all_tables(deals: Any) -> list[Any]:
        keys = [deal.to_pbn() for deal in deals]
        new = {key: deal for key, deal in zip(keys, deals, strict=True) if key not in solved}
        if new:
            solved.update(zip(new, original(list(new.values())), strict=True))
        return [solved[key] for key in keys]

    analysis.calc_all_tables = calc_all_tables
    yield
    analysis.calc_all_tables = original


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
