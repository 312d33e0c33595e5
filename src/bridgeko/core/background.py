"""Work that must not run inside a request: double-dummy analysis of a set, sending mail.

:func:`after_commit` schedules ``fn(*args)`` to run once the current transaction commits (at
once when there is none), so a rolled-back action starts nothing. How it runs is the setting
``BRIDGEKO_BACKGROUND``:

* ``"thread"`` (the default): in a daemon thread of the process that committed. The request
  returns at once; the thread opens its own database connection and closes it at the end. Work
  left unfinished by a stopped process is picked up by its owner (the work is stored, its
  progress too: e.g. ``bridgeko analyse-pending``, ``bridgeko send-mail``).
* ``"inline"``: in the committing thread, right after the commit (tests, the demo, commands).

Either way an exception is logged (logger ``bridgeko.background``) and never reaches the
request or command that caused the work.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.db import close_old_connections, connection, transaction

log = logging.getLogger("bridgeko.background")

_threads: list[threading.Thread] = []


def mode() -> str:
    """``"thread"`` or ``"inline"`` (the ``BRIDGEKO_BACKGROUND`` setting)."""
    return str(getattr(settings, "BRIDGEKO_BACKGROUND", "thread"))


def _run(fn: Callable[..., Any], args: tuple[Any, ...], own_connection: bool) -> None:
    try:
        fn(*args)
    except Exception:
        log.exception("background work %s failed", getattr(fn, "__qualname__", fn))
    finally:
        if own_connection:
            connection.close()


def start(fn: Callable[..., Any], *args: Any) -> None:
    """Runs ``fn(*args)`` now, in the background or inline according to :func:`mode`."""
    if mode() == "inline":
        _run(fn, args, own_connection=False)
        return

    def target() -> None:
        close_old_connections()
        _run(fn, args, own_connection=True)

    thread = threading.Thread(target=target, name=f"bridgeko-{fn.__name__}", daemon=True)
    _threads[:] = [t for t in _threads if t.is_alive()]
    _threads.append(thread)
    thread.start()


def after_commit(fn: Callable[..., Any], *args: Any) -> None:
    """Runs ``fn(*args)`` (see :func:`start`) once the current transaction has committed."""
    transaction.on_commit(lambda: start(fn, *args))


def wait(timeout: float = 30.0) -> None:
    """Waits for the background threads started so far (tests, the end of a command)."""
    for thread in list(_threads):
        thread.join(timeout)
