"""Building many small objects at once without the cyclic garbage collector in the way.

The draw and the bracket of a big field build hundreds of thousands of small immutable values
(entries, slots, match states) that form no reference cycles: reference counting frees them.
While they are built, Python's cyclic collector would still run every 700 new objects and scan
the young ones again and again, about doubling the time. :func:`paused` switches the automatic
collection off for the duration of such a build and restores the previous setting afterwards
(nothing is leaked: objects in cycles made meanwhile are collected by the next run).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused"]


@contextmanager
def paused() -> Iterator[None]:
    """Automatic garbage collection off inside the ``with`` block (restored after it)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
