"""The public site as static files (``bridgeko export-site DIR``, issue 12 item 4).

Every public URL of an edition in every language (:func:`site_urls`) is requested through the
application itself (the whole middleware, the same views, the same secrecy rules), so each file
holds exactly the bytes the server sends. A URL that does not answer 200 (a hand record before
the end of its segment: 404) is skipped with a warning and never written.

The files mirror the URL paths — ``/cs/e/<ed>/public/`` is ``DIR/cs/e/<ed>/public/index.html``
— and the links in the HTML are rewritten to relative ones (``../draw/index.html``), so the same
tree works from a file system (``file://``) and at the root or in a folder of any web host:

* a link to an exported URL: the relative path to its file;
* ``/static/…``: the asset is copied into ``DIR/static/…`` (read through the staticfiles
  storage or finders) and linked relatively;
* anything else (log in, staff pages): an absolute URL on ``BRIDGEKO_SITE_URL`` when that is
  configured (not the development default), else the link is dropped (its text stays).

Incremental: ``DIR/.bridgeko-export.json`` (the manifest) keeps the SHA-256 of every file it
wrote; a file is written only when its bytes changed (a temporary file, then ``os.replace``), and
the files of URLs no longer listed are removed (only files the manifest lists). The pages of a
match (its hand records and their PDFs, its board pages, its match page) are not rendered again
while the match's token (:func:`_match_tokens`: its version, segment ends, analysed boards, team
names) stays; only the pages' "updated" stamp is brought to the edition's version (a PDF is
dated by its match, so it stays as it is).

With ``BRIDGEKO_PUBLIC_DIR`` set, :func:`schedule_export` runs after every committed change of an
edition (an audit entry; the double-dummy analysis's progress) — see
:mod:`bridgeko.public.apps`.
"""

from __future__ import annotations

import hashlib
import html
import json
import logging
import os
import posixpath
import re
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from django.conf import settings
from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.handlers.base import BaseHandler
from django.db.models import Count, Q
from django.test import RequestFactory
from django.urls import NoReverseMatch, reverse
from django.utils import translation

from bridgeko.audit.models import AuditEntry
from bridgeko.boards.models import BoardDeal, DealSet
from bridgeko.boards.secrecy import revealed
from bridgeko.editions.models import Edition
from bridgeko.entries.models import Team
from bridgeko.matches.models import Match, Segment
from bridgeko.public.freshness import BUILD, edition_version

__all__ = [
    "MANIFEST",
    "ExportError",
    "Summary",
    "export_site",
    "schedule_export",
    "site_urls",
]

log = logging.getLogger("bridgeko.export")

MANIFEST = ".bridgeko-export.json"
"""The manifest's name in the target directory."""

DEVELOPMENT_SITE_URL = "http://localhost:8000"
"""``BRIDGEKO_SITE_URL``'s default: not an address to link to from a published site."""


class ExportError(Exception):
    """The export cannot be made (the directory cannot be written, no such edition)."""


@dataclass
class Summary:
    """What an export did."""

    written: int = 0
    unchanged: int = 0
    removed: int = 0
    skipped: list[str] = field(default_factory=list)
    """URLs not exported: ``"<url> (404)"``."""
    reused: int = 0
    """Pages of unchanged matches not rendered again."""
    seconds: float = 0.0
    written_files: list[str] = field(default_factory=list)

    def line(self) -> str:
        return (
            f"{self.written} written, {self.unchanged} unchanged, {self.removed} removed, "
            f"{len(self.skipped)} skipped ({self.seconds:.1f} s)"
        )


# ---------------------------------------------------------------------------------------------
# The inventory


@dataclass(frozen=True)
class _Url:
    url: str
    match: str | None = None
    """The match whose pages these are (reused while the match's token stays)."""


def _try(name: str, **kwargs: Any) -> str | None:
    try:
        return reverse(name, kwargs=kwargs)
    except NoReverseMatch:  # a page this release has not (yet)
        return None


def _languages() -> list[str]:
    return [code for code, _name in settings.LANGUAGES]


def _inventory(edition: Edition) -> list[_Url]:
    slug = edition.slug
    urls: list[_Url] = []
    matches = list(Match.objects.filter(edition=edition).order_by("position"))
    team_ids = sorted(
        {t for m in matches for t in (m.home_id, m.visitors_id) if t is not None}
        | set(Team.objects.filter(edition=edition).values_list("pk", flat=True))
    )
    segments = list(
        Segment.objects.filter(match__edition=edition)
        .filter(pk__in=DealSet.objects.values("segment_id"))
        .select_related("match")
        .order_by("match__position", "number")
    )
    shown = [s for s in segments if revealed(s)]
    boards: dict[int, list[int]] = {}
    for seg_id, board in BoardDeal.objects.filter(
        deal_set__segment__in=[s.pk for s in shown]
    ).values_list("deal_set__segment_id", "board"):
        boards.setdefault(seg_id, []).append(board)
    for language in _languages():
        with translation.override(language):
            for name in (
                "public:home",
                "public:teams",
                "public:draw",
                "public:protocol",
                "public:schedule",
                "public:schedule_ics",
                "public:standings",
                "public:boards",
                "public:hand_records_index",
                "public:embed_bracket",
            ):
                url = _try(name, edition=slug)
                if url is not None:
                    urls.append(_Url(url))
            for team in team_ids:
                url = _try("public:team", edition=slug, team=team)
                if url is not None:
                    urls.append(_Url(url))
            for m in matches:
                url = _try("public:match", edition=slug, code=m.code)
                if url is not None:
                    urls.append(_Url(url, m.code))
            for s in shown:
                code = s.match.code
                url = _try("public:hand_records", edition=slug, code=code, segment=s.number)
                if url is not None:
                    urls.append(_Url(url, code))
                if boards.get(s.pk):  # the set's PDF (issue 20): only with deals stored
                    url = _try("public:hand_records_pdf", edition=slug, code=code, segment=s.number)
                    if url is not None:
                        urls.append(_Url(url, code))
                for board in sorted(boards.get(s.pk, ())):
                    for name in ("public:hand_record", "public:board"):
                        url = _try(name, edition=slug, code=code, board=board)
                        if url is not None:
                            urls.append(_Url(url, code))
    # results for other programs (issue 20): a match's PBN once a segment with deals has
    # ended, the edition's USEBIO once it has matches
    for code in dict.fromkeys(s.match.code for s in shown if boards.get(s.pk)):
        url = _try("site:match_pbn", edition=slug, code=code)
        if url is not None:
            urls.append(_Url(url, code))
    if matches:
        url = _try("site:usebio", edition=slug)
        if url is not None:
            urls.append(_Url(url))
    url = _try("site:live", edition=slug)
    if url is not None:
        urls.append(_Url(url))
    return list(dict.fromkeys(urls))


def site_urls(edition: Edition) -> list[str]:
    """Every public URL of ``edition`` in every language, as the export requests them."""
    return [u.url for u in _inventory(edition)]


def _match_tokens(edition: Edition) -> dict[str, str]:
    """Per match: what its own pages show, as one string (a change of it renders them again)."""
    global_change = (
        AuditEntry.objects.filter(edition__isnull=True).order_by("-pk").values_list("pk", flat=True)
    ).first()
    matches = (
        Match.objects.filter(edition=edition)
        .select_related("home", "visitors")
        .annotate(
            analysed=Count(
                "segments__deal_set__boards",
                filter=Q(segments__deal_set__boards__dd__isnull=False),
            )
        )
    )
    ends: dict[int, list[str]] = {}
    for match_id, number, o, c in Segment.objects.filter(match__edition=edition).values_list(
        "match_id", "number", "open_ended_at", "closed_ended_at"
    ):
        ends.setdefault(match_id, []).append(f"{number}:{o}:{c}")
    out = {}
    for m in matches:
        parts = [
            BUILD,
            edition.name,
            str(global_change),
            str(m.version),
            str(m.updated_at),
            str(m.status),
            str(m.analysed),
            m.home.name if m.home else "",
            m.visitors.name if m.visitors else "",
            *sorted(ends.get(m.pk, [])),
        ]
        out[m.code] = hashlib.sha256("|".join(parts).encode()).hexdigest()[:20]
    return out


# ---------------------------------------------------------------------------------------------
# Files and links


def file_of(url: str) -> str:
    """The file (relative to the target directory, ``/``-separated) of a URL path."""
    path = unquote(urlsplit(url).path).lstrip("/")
    if path == "" or path.endswith("/"):
        path += "index.html"
    return path


def _relative(target: str, current: str) -> str:
    rel = posixpath.relpath(target, posixpath.dirname(current) or ".")
    return quote(rel)


_ATTR = re.compile(r"""(\s)(href|src|action|data-[\w-]+)=("([^"]*)"|'([^']*)')""")


def _site_url() -> str:
    site = str(getattr(settings, "BRIDGEKO_SITE_URL", "") or "").rstrip("/")
    return "" if site in ("", DEVELOPMENT_SITE_URL) else site


class _Rewriter:
    def __init__(self, exported: dict[str, str], static: Callable[[str], str | None]) -> None:
        self.exported = exported  # url path -> file
        self.static = static  # static name -> its file, copied (None: not found)
        self.site = _site_url()
        self.static_url = str(settings.STATIC_URL or "/static/")

    def rewrite(self, body: bytes, current: str) -> bytes:
        text = body.decode("utf-8")

        def replace(m: re.Match[str]) -> str:
            space, attr = m.group(1), m.group(2)
            raw = m.group(4) if m.group(4) is not None else m.group(5)
            value = html.unescape(raw)
            if not value.startswith("/") or value.startswith("//"):
                return m.group(0)
            parts = urlsplit(value)
            fragment = f"#{parts.fragment}" if parts.fragment else ""
            target = self.exported.get(parts.path)
            if target is None and parts.path.startswith(self.static_url):
                target = self.static(unquote(parts.path[len(self.static_url) :]))
            if target is not None:
                new = _relative(target, current) + fragment
            elif self.site:
                new = self.site + value
            else:
                return ""  # dropped: the element (and a link's text) stays
            return f'{space}{attr}="{html.escape(new)}"'

        return _ATTR.sub(replace, text).encode("utf-8")


# ---------------------------------------------------------------------------------------------
# Writing


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class _Target:
    """The target directory, its manifest and the atomic writes."""

    def __init__(self, root: Path) -> None:
        self.root = root
        if root.exists() and not root.is_dir():
            raise ExportError(f"{root} is not a directory")
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ExportError(f"cannot create {root}: {exc.strerror or exc}") from exc
        if not root.is_dir():
            raise ExportError(f"{root} is not a directory")
        if not os.access(root, os.W_OK | os.X_OK):
            raise ExportError(f"{root} is not writable")
        self.manifest: dict[str, Any] = {"editions": {}, "files": {}}
        path = root / MANIFEST
        if path.exists():
            try:
                data = json.loads(path.read_text("utf-8"))
                if isinstance(data, dict) and isinstance(data.get("files"), dict):
                    self.manifest = data
                    self.manifest.setdefault("editions", {})
            except (OSError, ValueError):
                log.warning("export manifest %s unreadable: starting afresh", path)

    @property
    def files(self) -> dict[str, str]:
        files: dict[str, str] = self.manifest["files"]
        return files

    def write(self, name: str, data: bytes, summary: Summary) -> None:
        digest = _sha(data)
        path = self.root / name
        if self.files.get(name) == digest and path.is_file():
            summary.unchanged += 1
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=path.suffix)
            try:
                with os.fdopen(fd, "wb") as f:
                    f.write(data)
                os.chmod(tmp, 0o644)
                os.replace(tmp, path)
            except BaseException:
                Path(tmp).unlink(missing_ok=True)
                raise
        except OSError as exc:
            raise ExportError(f"cannot write {path}: {exc.strerror or exc}") from exc
        self.files[name] = digest
        summary.written += 1
        summary.written_files.append(name)

    def read(self, name: str) -> bytes | None:
        try:
            return (self.root / name).read_bytes()
        except OSError:
            return None

    def remove(self, name: str, summary: Summary) -> None:
        if name not in self.files:
            return
        del self.files[name]
        path = self.root / name
        try:
            path.unlink(missing_ok=True)
        except OSError as exc:
            log.warning("cannot remove %s: %s", path, exc)
            return
        summary.removed += 1
        parent = path.parent
        while parent != self.root:  # empty folders left behind
            try:
                parent.rmdir()
            except OSError:
                break
            parent = parent.parent

    def save(self) -> None:
        data = json.dumps(self.manifest, indent=1, sort_keys=True).encode()
        path = self.root / MANIFEST
        if self.read(MANIFEST) == data:
            return
        fd, tmp = tempfile.mkstemp(dir=self.root, prefix=".tmp-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)


def _static_source(name: str) -> bytes | None:
    """An asset's bytes: from the storage (collected, hashed names), else from the finders."""
    if ".." in name.split("/"):
        return None
    try:
        if staticfiles_storage.exists(name):
            with staticfiles_storage.open(name) as f:
                data: bytes = f.read()
                return data
    except (OSError, ValueError, NotImplementedError):
        pass
    found = finders.find(name)
    if isinstance(found, list):
        found = found[0] if found else None
    if not found:
        return None
    return Path(found).read_bytes()


_CSS_URL = re.compile(r"""url\(\s*['"]?([^'")]+)['"]?\s*\)""")


def _host() -> str:
    for host in settings.ALLOWED_HOSTS:
        host = host.lstrip(".")
        if host and host != "*":
            return host
    return "localhost"


_LIVE_STATUS = re.compile(rb'<p class="live-status"[^>]*>.*?</p>', re.S)
_DATA_VERSION = re.compile(rb'data-version="[^"]*"')


def _restamp(body: bytes, stamp: tuple[bytes, bytes] | None, name: str = ".html") -> bytes:
    """A reused page with the edition's current version and "updated" line (``stamp``: those of
    a page of the same language just rendered); any other file (``name``: a PDF) as it is."""
    if stamp is None or not name.endswith(".html"):
        return body
    version, status = stamp
    body = _DATA_VERSION.sub(lambda _m: version, body, count=1)
    return _LIVE_STATUS.sub(lambda _m: status, body, count=1)


def _stamp_of(body: bytes) -> tuple[bytes, bytes] | None:
    version = _DATA_VERSION.search(body)
    status = _LIVE_STATUS.search(body)
    if version is None or status is None:
        return None
    return version.group(0), status.group(0)


def _fetcher() -> Callable[[str], Any]:
    """``get(url)``: the application's response to an anonymous GET of ``url`` — the whole
    middleware and the view, as for a reader, without the request signals (which would close
    the database connection of a background export after every page)."""
    handler = BaseHandler()
    handler.load_middleware()
    factory = RequestFactory(HTTP_HOST=_host())
    secure = bool(getattr(settings, "SECURE_SSL_REDIRECT", False))

    def get(url: str) -> Any:
        return handler.get_response(factory.get(url, secure=secure))

    return get


def _root_index(editions: list[Edition], files: dict[str, str]) -> bytes:
    """``DIR/index.html``: a link to every exported edition's home in each language; with one
    edition, a redirect to its home in the edition's language."""
    homes: list[tuple[Edition, str, str]] = []
    for e in editions:
        for language in _languages():
            with translation.override(language):
                url = _try("public:home", edition=e.slug)
            if url is not None and url in files:
                homes.append((e, language, files[url]))
    refresh = ""
    if len(editions) == 1 and homes:
        e = editions[0]
        wanted = next((h for h in homes if h[1] == e.language), homes[0])
        refresh = f'<meta http-equiv="refresh" content="0; url={html.escape(quote(wanted[2]))}">'
    items = "\n".join(
        f'<li><a href="{html.escape(quote(path))}" hreflang="{language}" lang="{language}">'
        f"{html.escape(e.name)} ({language})</a></li>"
        for e, language, path in homes
    )
    return (
        '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"{refresh}\n<title>Bridge Open K.O.</title>\n</head>\n<body>\n<ul>\n{items}\n</ul>\n"
        "</body>\n</html>\n"
    ).encode()


def export_site(
    directory: Path | str,
    editions: Iterable[Edition],
    *,
    warn: Callable[[str], None] | None = None,
) -> Summary:
    """Exports the public pages of ``editions`` into ``directory``; returns what it did."""
    started = time.monotonic()
    summary = Summary()
    target = _Target(Path(directory))
    get = _fetcher()
    editions = list(editions)
    inventories = {e.slug: _inventory(e) for e in editions}
    exported: dict[str, str] = {}  # every URL of the exported editions -> its file
    for slug, data in target.manifest["editions"].items():
        if slug not in inventories:
            exported.update(data.get("urls", {}))
    for inventory in inventories.values():
        exported.update({u.url: file_of(u.url) for u in inventory})

    def static(name: str) -> str | None:
        out = posixpath.join("static", name)
        if out in done_static:
            return out
        data = _static_source(name)
        if data is None:
            return None
        done_static.add(out)
        if name.endswith(".css"):
            for ref in _CSS_URL.findall(data.decode("utf-8", "replace")):
                if not re.match(r"^(data:|[a-z]+:|/|#)", ref):
                    static(posixpath.normpath(posixpath.join(posixpath.dirname(name), ref)))
        target.write(out, data, summary)
        return out

    done_static: set[str] = set()
    rewriter = _Rewriter(exported, static)
    for edition in editions:
        inventory = inventories[edition.slug]
        before = target.manifest["editions"].get(edition.slug, {})
        old_tokens: dict[str, str] = before.get("matches", {})
        tokens = _match_tokens(edition)
        stamps: dict[str, tuple[bytes, bytes] | None] = {}
        ok: dict[str, str] = {}

        def priority(
            item: _Url, tokens: dict[str, str] = tokens, old_tokens: dict[str, str] = old_tokens
        ) -> int:
            """The order of writing, so that an open page shows a change soon (live.js polls
            ``live.json`` each second, then fetches its page again; a page not yet written is
            fetched again at the next poll): the home and the bracket, then the pages of the
            matches that changed, then ``live.json``, then the rest. Every edition-wide page
            comes before a reused match page, which takes its stamp from them."""
            if item.url.endswith("live.json"):
                return 2
            if item.match is None:
                return 0 if item.url.endswith(("/public/", "/public/draw/")) else 3
            return 1 if tokens.get(item.match) != old_tokens.get(item.match) else 4

        for item in sorted(inventory, key=priority):
            name = file_of(item.url)
            language = item.url.strip("/").split("/", 1)[0]
            if (
                item.match is not None
                and tokens.get(item.match) is not None
                and old_tokens.get(item.match) == tokens[item.match]
                and before.get("urls", {}).get(item.url) == name
                and language in stamps
            ):
                old = target.read(name)
                if old is not None and _sha(old) == target.files.get(name):
                    summary.reused += 1
                    target.write(name, _restamp(old, stamps[language], name), summary)
                    ok[item.url] = name
                    continue
            response = get(item.url)
            if response.status_code != 200:
                summary.skipped.append(f"{item.url} ({response.status_code})")
                if warn is not None:
                    warn(f"skipped {item.url}: {response.status_code}")
                continue
            body = (
                b"".join(response.streaming_content)
                if getattr(response, "streaming", False)
                else response.content
            )
            if str(response.get("Content-Type", "")).startswith("text/html"):
                body = rewriter.rewrite(body, name)
                if language not in stamps and item.match is None:
                    stamps[language] = _stamp_of(body)
            target.write(name, body, summary)
            ok[item.url] = name
        for url, name in before.get("urls", {}).items():
            if url not in ok and name not in ok.values():
                target.remove(name, summary)
        target.manifest["editions"][edition.slug] = {
            "urls": ok,
            "matches": {code: tokens[code] for code in tokens},
        }
    # editions deleted since: their files go
    existing = set(Edition.objects.values_list("slug", flat=True))
    for slug in [s for s in target.manifest["editions"] if s not in existing]:
        for name in target.manifest["editions"].pop(slug).get("urls", {}).values():
            target.remove(name, summary)
    all_urls: dict[str, str] = {}
    for data in target.manifest["editions"].values():
        all_urls.update(data.get("urls", {}))
    shown = list(Edition.objects.filter(slug__in=target.manifest["editions"]).order_by("-year"))
    target.write("index.html", _root_index(shown, all_urls), summary)
    target.save()
    summary.seconds = time.monotonic() - started
    return summary


# ---------------------------------------------------------------------------------------------
# After every change (BRIDGEKO_PUBLIC_DIR)

_lock = threading.Lock()
_running: set[int] = set()
_dirty: set[int] = set()
_exported_token: dict[tuple[str, int], str] = {}


def public_dir() -> str:
    return str(getattr(settings, "BRIDGEKO_PUBLIC_DIR", "") or "")


def schedule_export(edition_id: int | None) -> None:
    """After the current transaction commits, re-exports the edition (``None``: every edition)
    into ``BRIDGEKO_PUBLIC_DIR`` — nothing when that is not set."""
    if not public_dir():
        return
    from bridgeko.core.background import after_commit

    after_commit(_export_job, edition_id)


def _export_job(edition_id: int | None) -> None:
    """One export of an edition at a time: a change while it runs marks the edition dirty and
    the export runs once more after it; a change already exported is not exported again."""
    ids = (
        [edition_id]
        if edition_id is not None
        else list(Edition.objects.values_list("pk", flat=True))
    )
    for pk in ids:
        with _lock:
            if pk in _running:
                _dirty.add(pk)
                continue
            _running.add(pk)
        try:
            while True:
                edition = Edition.objects.filter(pk=pk).first()
                if edition is None:
                    break
                where = public_dir()
                token = edition_version(edition).token + "|" + BUILD
                if _exported_token.get((where, pk)) != token:
                    summary = export_site(where, [edition], warn=log.info)
                    _exported_token[(where, pk)] = token
                    log.info("export of %s: %s", edition.slug, summary.line())
                with _lock:
                    if pk not in _dirty:
                        break
                    _dirty.discard(pk)
        finally:
            with _lock:
                _running.discard(pk)
