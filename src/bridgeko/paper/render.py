"""The one place that typesets: a Typst template of ``typst/`` and plain data -> PDF bytes.

The data goes to the template as JSON in ``sys.inputs["data"]`` (every text, labels included,
already in the reader's language): the templates only lay out, and a team called ``#set`` or
``*bold*`` prints as written (JSON strings are never read as Typst markup). The fonts are the
ones the ``typst`` wheel embeds (Libertinus Serif, New Computer Modern, DejaVu Sans Mono — Czech
letters and the suit symbols included); system fonts are ignored, so a PDF looks the same on
every machine and nothing is fetched (no Typst packages are used).

One compiler is kept for the process (its fonts are read once) and used under a lock: a
compile takes milliseconds (``benchmarks/bench_paper.py``)."""

from __future__ import annotations

import json
import threading
from collections.abc import Mapping
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any, Literal

import typst

__all__ = ["TEMPLATES", "RenderError", "render"]

TEMPLATES = Path(__file__).resolve().parent / "typst"
"""The templates (``<name>.typ``) and their shared helpers (``common.typ``)."""

_LOCK = threading.Lock()


class RenderError(RuntimeError):
    """A template could not be typeset (a bug of a template, never the reader's input)."""


@cache
def _compiler() -> typst.Compiler:
    fonts = typst.Fonts(include_system_fonts=False, include_embedded_fonts=True)
    return typst.Compiler(root=str(TEMPLATES), font_paths=fonts, ignore_system_fonts=True)


def render(
    template: str,
    data: Mapping[str, Any],
    *,
    at: datetime | None = None,
    output: Literal["pdf", "png"] = "pdf",
    page: int = 1,
) -> bytes:
    """Typeset ``typst/<template>.typ`` with ``data``; ``at`` is the document's creation time
    (PDF metadata). ``output="png"`` gives page ``page`` (default the first; the last when
    there are fewer) as a PNG, for looking at a form."""
    path = TEMPLATES / f"{template}.typ"
    if not path.is_file() or path.parent != TEMPLATES:
        raise RenderError(f"no template {template!r}")
    inputs = {"data": json.dumps(data, ensure_ascii=False, default=str)}
    with _LOCK:
        try:
            result = _compiler().compile(
                input=str(path),
                format=output,
                ppi=110 if output == "png" else None,
                sys_inputs=inputs,
                timestamp=at.replace(microsecond=0) if at is not None else None,
            )
        except typst.TypstError as exc:
            raise RenderError(f"{template}: {exc.message}") from exc
    if isinstance(result, list):  # PNG: one image per page
        result = result[min(max(page, 1), len(result)) - 1]
    if not isinstance(result, bytes):
        raise RenderError(f"{template}: no output")
    return result
