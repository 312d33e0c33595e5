"""``GET /healthz``: whether this server can do its work, for a load balancer, a monitor or
systemd (issue 23, item 4): the database answers, the background work runs (its mode), the data
directory has room. JSON; 200 when all is well, 503 otherwise; no cookie, never cached, no
secret (no path, no setting, no version). One query: a flood of probes costs the database
little."""

from __future__ import annotations

import shutil
import time
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection
from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_safe

from bridgeko.core import background

__all__ = ["MIN_FREE_BYTES", "healthz"]

MIN_FREE_BYTES = 200 * 1024 * 1024
"""Less free space than this in the data directory (``BRIDGEKO_HEALTH_MIN_FREE_MB``) is a
failure: uploads, backups and the SQLite database live there."""


def _database() -> dict[str, Any]:
    start = time.perf_counter()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return {"ok": False}
    return {"ok": True, "ms": round((time.perf_counter() - start) * 1000, 1)}


def _disk() -> dict[str, Any]:
    minimum = int(getattr(settings, "BRIDGEKO_HEALTH_MIN_FREE_BYTES", MIN_FREE_BYTES))
    try:
        usage = shutil.disk_usage(settings.DATA_DIR)
    except OSError:
        return {"ok": False}
    return {
        "ok": usage.free >= minimum,
        "free_mb": usage.free // (1024 * 1024),
        "free_ratio": round(usage.free / usage.total, 3) if usage.total else 0.0,
    }


@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    checks = {
        "database": _database(),
        "background": {"ok": True, "mode": background.mode()},
        "disk": _disk(),
    }
    ok = all(check["ok"] for check in checks.values())
    response = JsonResponse({"ok": ok, "checks": checks}, status=200 if ok else 503)
    response["Cache-Control"] = "no-store"
    return response
