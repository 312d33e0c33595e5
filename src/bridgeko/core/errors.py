"""The user error of a service (no Django needed)."""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["ServiceError"]


class ServiceError(ValueError):
    """A user error raised by a service: the message is translated and shown to the user.

    ``field`` names the form field it belongs to (None: the whole form); ``errors`` may carry
    several messages (e.g. one per line of an imported file).

    >>> error = ServiceError("The name must not be empty.", field="name")
    >>> (str(error), error.field, error.errors)
    ('The name must not be empty.', 'name', ())
    """

    def __init__(
        self, message: str, *, field: str | None = None, errors: Iterable[str] = ()
    ) -> None:
        super().__init__(message)
        self.message = message
        self.field = field
        self.errors = tuple(errors)
