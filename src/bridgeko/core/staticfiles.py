"""The storage of the static files: WhiteNoise's compressed files with hashed names, and the plain
names while nothing has been collected yet.

After ``collectstatic`` (into ``STATIC_ROOT``, the data directory's ``static/``) every file has a
content-hashed name, a gzip (and, with brotli installed, a brotli) copy, and WhiteNoise serves it
with a ten-year ``Cache-Control: immutable``. Before that (a fresh checkout, the tests,
``bridgeko serve`` without ``collectstatic``) ``{% static %}`` gives the plain name, which
WhiteNoise serves from the apps' ``static/`` directories (``WHITENOISE_USE_FINDERS``) with a short
cache time; no page fails for want of a manifest.
"""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    manifest_strict = False

    def stored_name(self, name: str) -> str:
        try:
            return str(super().stored_name(name))
        except ValueError:  # not collected (no manifest entry, no file in STATIC_ROOT)
            return name
