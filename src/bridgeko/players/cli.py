"""The command-line side of the players app: the arguments of ``bridgeko import-elo`` and
``manage.py import_elo`` turned into the plain values the service takes."""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model

from bridgeko.editions.models import Edition
from bridgeko.players import elo_csv, services

MISSING_HELP = (
    "what happens to the players of the date's current list who are not in the file: keep "
    "their ratings, or drop them (needed when the file lacks any)"
)


def run_import_command(
    *,
    path: str,
    edition_slug: str,
    columns: str,
    encoding: str | None = None,
    has_header: bool = True,
    username: str | None = None,
    missing: str | None = None,
) -> str:
    """What ``manage.py import_elo`` and ``bridgeko import-elo`` do with their arguments: finds
    the edition and the account, parses the column spec, reads the file, then calls the service
    :func:`bridgeko.players.services.import_elo` with plain values; returns the summary line.

    ``missing``: ``"keep"`` or ``"drop"`` the ratings of the list's players not in the file
    (needed when there are any).

    Raises :class:`~bridgeko.core.errors.ServiceError` (or ValueError for a bad argument)."""
    edition = Edition.objects.filter(slug=edition_slug).first()
    if edition is None:
        raise ValueError(f"no edition {edition_slug!r}")
    user = None
    if username:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise ValueError(f"no account {username!r}")
    spec = elo_csv.Columns.parse(columns)
    named = [
        value
        for value in (spec.federation_id, spec.name, spec.elo, spec.club, spec.member)
        if value is not None and not value.strip().isdigit()
    ]
    if named and not has_header:
        raise ValueError(
            "columns given by name ("
            + ", ".join(repr(n) for n in named)
            + ") need a header row; without one (--no-header) give column numbers from 1"
        )
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ValueError(f"cannot read {path}: {exc.strerror}") from None
    summary = services.import_elo(
        edition=edition,
        data=data,
        columns=spec,
        encoding=encoding,
        has_header=has_header,
        source_name=Path(path).name,
        user=user,
        missing=missing,
    )
    kept = ""
    if summary.missing:
        kept = " (ratings kept)" if summary.kept_missing else " (ratings removed)"
    return (
        f"Elo list of {summary.reference_date.isoformat()}: {summary.rows} players "
        f"({summary.created} new, {summary.updated} updated, {summary.with_elo} with Elo); "
        f"ratings: {summary.new} new, {summary.changed} changed, {summary.unchanged} unchanged, "
        f"{summary.missing} missing from the file{kept}; undo: the list's page on the web"
    )
