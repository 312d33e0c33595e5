"""Data migrations keep the data: ``RoleAssignment.team_id`` (an integer) → the foreign key
``team`` (accounts 0002)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("accounts", "0001_initial")]
AFTER = [("accounts", "0002_roleassignment_team_foreign_key")]


def _migrate(targets: list[tuple[str, str]]) -> Any:
    """Migrates the accounts app to ``targets``; the models as they are then (the other apps
    stay migrated to their latest state)."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    latest = [key for key in executor.loader.graph.leaf_nodes() if key[0] != "accounts"]
    return executor.loader.project_state([*targets, *latest]).apps


@pytest.mark.django_db(transaction=True)
def test_the_captains_team_is_kept_as_a_foreign_key() -> None:
    old = _migrate(BEFORE)
    user = old.get_model("auth", "User").objects.create(username="kapitan")
    edition = old.get_model("editions", "Edition").objects.create(
        slug="e1", name="E", year=1999, regulations_toml="x"
    )
    team = old.get_model("entries", "Team").objects.create(
        edition=edition, name="Sokol", created_at="1999-02-01T10:00Z"
    )
    roles = old.get_model("accounts", "RoleAssignment").objects
    roles.create(user=user, edition=edition, role="captain", team_id=team.pk)
    roles.create(user=user, edition=edition, role="td", team_id=None)
    roles.create(user=user, edition=edition, role="captain", team_id=team.pk + 1000)  # no team

    new = _migrate(AFTER)
    kept = new.get_model("accounts", "RoleAssignment").objects.order_by("role")
    assert [(r.role, r.team_id) for r in kept] == [("captain", team.pk), ("td", None)]
    assert kept.get(role="captain").team.name == "Sokol"

    back = _migrate(BEFORE)  # and the way back keeps the team too
    rows = back.get_model("accounts", "RoleAssignment").objects.values_list("role", "team_id")
    assert sorted(rows, key=str) == [("captain", team.pk), ("td", None)]
    _migrate_latest()  # every later test (the transactional ones run last) needs the schema


def _migrate_latest() -> None:
    """Back to the latest migrations of every app: stopping at ``AFTER`` left accounts without
    0003 (the site-wide registrar), and the transactional tests after this one (pytest-django
    runs them last, e.g. the browser tests loading the demo) failed to give the registrar."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
