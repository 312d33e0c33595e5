"""Form helpers shared by every app."""

from __future__ import annotations

from django import forms

from bridgeko.core.errors import ServiceError


def apply_service_error(form: forms.BaseForm, exc: ServiceError) -> None:
    """Shows a service's user error next to its field (or above the form) and each of its
    detailed ``errors`` (e.g. one per line of a file) below it."""
    field = exc.field if exc.field in form.fields else None
    form.add_error(field, exc.message)
    for detail in exc.errors:
        form.add_error(field, detail)
