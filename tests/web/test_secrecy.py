"""Secrecy of a computer-dealt set until its segment has ended in both rooms (issue 11, item 2;
I15, R12.7): no page, API, feed, export, audit-log entry, admin page or error page shows a deal,
a hand or the seed to anyone but the organiser and the chief TD.

The test walks the URLconf — every URL pattern the application has, including those added
later — fills each pattern's kwargs by their names from the world (:data:`FILL`, or the example
kwargs of the permission registry for names that identify other objects, e.g. ``pk``), and
requests it (GET) as every role. A pattern whose kwargs it cannot fill fails the test with its
name; :data:`SKIP` lists the few that truly cannot be requested, each with its reason.

The needles (:func:`tests.web.handrecord_world.secret_strings`) are the seed (hex, both cases),
each 52-card deal as PBN (starting from any seat; with and without spaces), each hand as PBN
and as the pages and PDFs show it (``♠AKQ10…♥…``, ``♠AKQT…``) and each holding of three cards
or more with its suit symbol; a body is searched as it is, with tags and white space removed,
and JSON-decoded (``\\u2660``). A PDF is read as text when a PDF reader is installed.

Then the TD records the end in both rooms and the public hand record must show the deal (so
the detector finds what it looks for), and the audit log's entries of the whole run (before,
after, summary) must hold neither the seed nor a deal."""

from __future__ import annotations

import importlib
import io
import itertools
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.contrib import admin
from django.contrib.auth.tokens import default_token_generator
from django.urls import NoReverseMatch, URLPattern, URLResolver, get_resolver, reverse
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from bridgeko.audit.models import AuditEntry
from tests.web import handrecord_world as hw_
from tests.web.conftest import World

pytestmark = pytest.mark.django_db

ROLES = (
    "anonymous",
    "public",
    "captain",  # the home team's captain
    "captain2",  # the visitors' captain
    "td",
    "appeals",
    "organiser",
    "chief_td",
    "registrar",
    "superuser",  # Django's superuser, organising nothing
)
SEE_BEFORE = frozenset({"organiser", "chief_td"})
"""Who may see the deals before the end (``boards.secrecy.may_see``)."""

SKIP: dict[str, str] = {
    "admin:view_on_site": "redirects to the object's own page (get_absolute_url), requested itself",
}
"""Named URL patterns that cannot be requested as such, and why."""
SKIP_UNNAMED: tuple[tuple[str, str], ...] = (
    (
        "<path:object_id>/",
        "the admin's old change URL: a redirect to the change page, which is requested itself",
    ),
    ("(?P<url>.*)$", "the admin's catch-all: a redirect or a 404 for any other path"),
)
"""Unnamed patterns (they cannot be reversed) by how their route ends, and why."""


ERROR_URLS = (
    "/no-such-page/",
    "/e/ko-1999/matches/NO-SUCH/",
    "/e/ko-1999/public/matches/QF1/hand-records/99/",
    "/api/e/ko-1999/matches/QF1/segments/9/hand-records/",
    "/api/e/ko-1999/no-such/",
    "/e/no-such-edition/public/",
)
"""Error pages (404s) besides the 403s and login redirects every denied role gets."""


@dataclass(frozen=True)
class Route:
    name: str
    """``namespace:name``, or ``(unnamed) <route>`` for a pattern without a name."""
    route: str
    kwargs: tuple[str, ...]


def _routes() -> Iterator[Route]:
    def walk(patterns: list[Any], prefix: str, namespace: str) -> Iterator[Route]:
        for p in patterns:
            if isinstance(p, URLResolver):
                ns = f"{namespace}{p.namespace}:" if p.namespace else namespace
                yield from walk(p.url_patterns, prefix + str(p.pattern), ns)
            elif isinstance(p, URLPattern):
                names = tuple(p.pattern.regex.groupindex)
                route = prefix + str(p.pattern)
                if p.name:
                    yield Route(f"{namespace}{p.name}", route, names)
                else:
                    yield Route(f"(unnamed) {route}", route, names)

    yield from walk(get_resolver().url_patterns, "", "")


def _registry_kwargs(world: World) -> dict[str, dict[str, Any]]:
    """The permission registry's example kwargs by URL name (objects it names exist then)."""
    from tests.web.test_permissions import REGISTRY

    out: dict[str, dict[str, Any]] = {}
    for entry in REGISTRY:
        if entry.name not in out:
            out[entry.name] = entry.kwargs(world)
    return out


def _admin_models() -> dict[str, Any]:
    """``app_model`` of every model in the admin -> its model."""
    return {f"{m._meta.app_label}_{m._meta.model_name}": m for m in admin.site._registry}


def _admin_objects(model: Any) -> list[str]:
    """Primary keys of the model's rows to request (all of a small table, else the newest)."""
    pks = list(model._default_manager.order_by("-pk").values_list("pk", flat=True)[:12])
    return [str(pk) for pk in pks]


def _fill(
    route: Route, hw: hw_.HandWorld, examples: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """Every kwargs to request ``route`` with (several values of a kwarg: each of them)."""
    world = hw.world
    home, visitors = hw.match.home_id, hw.match.visitors_id
    fill: dict[str, list[Any]] = {
        "edition": [hw.edition.slug],
        "code": [hw.match.code],
        "match": [hw.match.code],
        "segment": [1, 2],
        "number": [1, 2],
        "board": [1, 4, 16, 17],
        "room": ["open", "closed"],
        "side": ["home", "visitors"],
        "team": [home, visitors],
        "uidb64": [urlsafe_base64_encode(force_bytes(world.users["public"].pk))],
        "token": [default_token_generator.make_token(world.users["public"])],
        # a public address without its language (redirected to the reader's)
        "rest": ["draw/", f"matches/{hw.match.code}/hand-records/1/"],
    }
    if route.name.startswith("admin:"):
        label = route.name.removeprefix("admin:")
        if "app_label" in route.kwargs:
            fill["app_label"] = sorted({m._meta.app_label for m in admin.site._registry})
        if "object_id" in route.kwargs or "id" in route.kwargs:
            models = _admin_models()
            key = next((k for k in models if label.startswith(k + "_")), None)
            if key is None:
                raise LookupError(f"no admin model for {route.name}")
            fill["object_id"] = fill["id"] = _admin_objects(models[key]) or ["1"]
    example = examples.get(route.name, {})
    values: list[list[Any]] = []
    for kwarg in route.kwargs:
        if kwarg in fill:
            values.append(fill[kwarg])
        elif kwarg in example:
            values.append([example[kwarg]])
        else:
            raise LookupError(
                f"cannot fill the kwarg {kwarg!r} of the URL {route.name} ({route.route}): add "
                "it to FILL in tests/web/test_secrecy.py (by its name), give the URL example "
                "kwargs in tests/web/test_permissions.py REGISTRY, or list it in SKIP with a "
                "reason"
            )
    return [dict(zip(route.kwargs, combo, strict=True)) for combo in itertools.product(*values)]


def _body(response: Any) -> str:
    """The response's text: HTML, JSON, iCalendar ...; a PDF's text when a reader exists."""
    if getattr(response, "streaming", False):
        data = b"".join(response.streaming_content)
    else:
        data = response.content
    if data.startswith(b"%PDF"):
        return _pdf_text(data)
    return data.decode("utf-8", errors="replace")


def _pdf_text(data: bytes) -> str:
    """A PDF's text by pypdf (the paper app's test dependency), plus its raw bytes (an
    uncompressed PDF, or one pypdf cannot read, e.g. a convention card of the test world)."""
    raw = data.decode("latin-1")
    try:
        reader_module = importlib.import_module("pypdf")
    except ImportError:
        return raw
    try:
        reader = reader_module.PdfReader(io.BytesIO(data))
        return raw + "\n" + "\n".join(page.extract_text() or "" for page in reader.pages)
    except Exception:  # not a PDF pypdf reads: its bytes only
        return raw


def _requests(hw: hw_.HandWorld) -> Iterator[tuple[str, str]]:
    """(description, URL) of every URL pattern with every kwargs, and the error pages."""
    examples = _registry_kwargs(hw.world)
    problems: list[str] = []
    for route in _routes():
        if route.name in SKIP:
            continue
        if route.name.startswith("(unnamed) "):
            if not any(route.route.endswith(end) for end, _why in SKIP_UNNAMED):
                problems.append(f"{route.name}: an unnamed pattern; name it or list it in SKIP")
            continue
        try:
            all_kwargs = _fill(route, hw, examples)
        except LookupError as exc:
            problems.append(str(exc))
            continue
        for kwargs in all_kwargs:
            try:
                url = reverse(route.name, kwargs=kwargs)
            except NoReverseMatch:
                problems.append(f"{route.name}: no URL for {kwargs}")
                continue
            yield route.name, url
    assert problems == [], "\n".join(problems)
    for url in ERROR_URLS:
        yield "error page", url


def _assert_audit_log_keeps_the_secret(needles: dict[str, str]) -> None:
    for entry in AuditEntry.objects.all():
        dump = json.dumps(
            [
                entry.before,
                entry.after,
                entry.summary,
                entry.summary_params,
                entry.object_repr,
            ],
            ensure_ascii=False,
        )
        found = hw_.leaks(dump, needles)
        assert found == [], f"audit entry {entry.action}: {found}"


@pytest.mark.slow  # every URL as ten roles: thousands of requests
def test_issue11_I15_no_deal_hand_or_seed_anywhere_before_the_segment_has_ended(
    world: World,
) -> None:
    hw = hw_.make(world)
    needles = hw_.secret_strings(hw)
    assert len(needles) > 16 * 20  # the detector is not empty
    clients = {who: hw.client(who) for who in ROLES}
    leaks: list[str] = []
    requested: set[str] = set()
    seen_by_staff = 0
    for name, url in _requests(hw):
        requested.add(name)
        for who in ROLES:
            response = clients[who].get(url)
            assert response.status_code < 500, (name, url, who, response.status_code)
            found = hw_.leaks(_body(response), needles)
            if who in SEE_BEFORE:
                seen_by_staff += bool(found)
            elif found:
                leaks.append(f"{url} ({name}) as {who}: {found[:3]}")
    assert leaks == [], "\n".join(leaks)
    # what was walked: the pages of this issue and those before, the admin, the API, the feed
    assert {
        "boards:hand_record",
        "public:hand_record",
        "public:hand_records_pdf",  # issue 20: the public PDF
        "api:match",
        "api:hand_records",
        "api:legacy_match",
        "api:legacy_hand_records",
        "api:team",
        "api:bracket",
        "api:matches",
        "public:schedule_ics",
        "matches:detail",
        "audit:log",
        "login",
        "admin:index",
        "admin:audit_auditentry_changelist",
    } <= requested
    assert seen_by_staff > 0  # the organiser's staff pages do show the deals (the detector works)
    _assert_audit_log_keeps_the_secret(needles)

    # After the end in both rooms (I15) the public hand record shows the deal: the detector
    # finds it there, so the silence above means something.
    hw_.end_segment(hw)
    url = reverse(
        "public:hand_record", kwargs={"edition": hw.edition.slug, "code": "QF1", "board": 1}
    )
    response = clients["anonymous"].get(url)
    assert response.status_code == 200
    found = hw_.leaks(_body(response), needles)
    assert any("board 1:" in f for f in found), found
    assert "board 1: NORTH's hand as shown (♠AKQ10…)" in found
    _assert_audit_log_keeps_the_secret(needles)


EXPORTS = {
    "export-site": "test_issue12_the_static_export_keeps_the_secret_until_the_end",
    "export-usebio": "test_issue20_the_usebio_and_cbs_exports_keep_the_secret_until_the_end",
    "export-cbs": "test_issue20_the_usebio_and_cbs_exports_keep_the_secret_until_the_end",
}
"""The commands that write public files, and the test below that searches what they write."""


def test_issue11_the_secrecy_test_covers_a_static_export_when_one_exists() -> None:
    """The public-site issue's static export (a CLI or management command) writes files that
    must keep the secret too: every such command must be run by a test here that searches its
    files (:data:`EXPORTS`)."""
    from bridgeko.cli import COMMANDS

    exports = [c for c in COMMANDS if "export" in c or "static" in c]
    uncovered = [c for c in exports if c not in EXPORTS]
    assert uncovered == [], (
        f"extend tests/web/test_secrecy.py to run {uncovered} and check the files"
    )
    assert set(EXPORTS) <= set(exports)  # no stale entry
    for test in EXPORTS.values():
        assert callable(globals().get(test)), test


def test_issue20_the_usebio_and_cbs_exports_keep_the_secret_until_the_end(
    world: World, tmp_path: Path
) -> None:
    """``bridgeko export-usebio`` writes the results as they are entered but a segment's hands
    only after its end (I15); ``bridgeko export-cbs`` writes no deal at all (and waits for the
    end of the edition)."""
    import xml.etree.ElementTree as ET

    from bridgeko.cli import main

    hw = hw_.make(world)
    hw_.enter_closed_room(hw, {1: "4S N =", 2: "3NT S ="})
    needles = hw_.secret_strings(hw)
    root = tmp_path / "out"
    assert main(["export-usebio", "--edition", hw.edition.slug, str(root / "event.xml")]) == 0
    assert main(["export-cbs", "--edition", hw.edition.slug, str(root / "cbs")]) == 2
    assert _exported_leaks(root, needles) == {}
    written = ET.parse(root / "event.xml").getroot()
    assert not list(written.iter("HAND")) and list(written.iter("TRAVELLER_LINE"))
    hw_.end_segment(hw)
    assert main(["export-usebio", "--edition", hw.edition.slug, str(root / "event.xml")]) == 0
    hands = list(ET.parse(root / "event.xml").getroot().iter("HAND"))
    assert len(hands) == 16 * 4  # the detector's counterpart: after the end the hands are there


def _exported_leaks(root: Path, needles: dict[str, str]) -> dict[str, list[str]]:
    """Every file the export wrote (the manifest too), searched as the walk searches a body (a
    PDF's text too)."""
    found = {}
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes()
        text = _pdf_text(data) if data.startswith(b"%PDF") else data.decode("utf-8", "replace")
        hits = hw_.leaks(text, needles)
        if hits:
            found[str(path.relative_to(root))] = hits
    return found


def test_issue12_the_static_export_keeps_the_secret_until_the_end(
    world: World, tmp_path: Path
) -> None:
    """``bridgeko export-site`` while the set is secret (the closed room half played): no file
    holds the seed, a deal or a hand; after the end in both rooms the hand records are exported
    and show the deals (the detector works on these files)."""
    from bridgeko.cli import main

    hw = hw_.make(world)
    hw_.enter_closed_room(hw, {1: "4S N =", 2: "3NT S ="})
    needles = hw_.secret_strings(hw)
    root = tmp_path / "site"
    assert main(["export-site", str(root), "--quiet"]) == 0
    files = [p for p in root.rglob("*") if p.is_file()]
    assert len(files) >= 20  # pages in both languages, live.json, assets, manifest
    assert _exported_leaks(root, needles) == {}
    assert not list(root.rglob("hand-records/*/index.html"))
    assert not list(root.rglob("*.pdf"))  # issue 20: nor the public PDF

    hw_.end_segment(hw)
    assert main(["export-site", str(root), "--quiet"]) == 0
    slug = hw.edition.slug
    for language in ("cs", "en"):
        for board in range(1, 17):
            page = root / f"{language}/e/{slug}/public/matches/QF1/hand-records/{board}/index.html"
            assert page.is_file(), page
    found = _exported_leaks(root, needles)
    board_page = f"en/e/{slug}/public/matches/QF1/hand-records/1/index.html"
    assert "board 1: NORTH's hand as shown (♠AKQ10…)" in found[board_page]
    pdf = f"en/e/{slug}/public/matches/QF1/segments/1/hand-records.pdf"
    assert "board 1: NORTH's hand as shown (♠AKQT…)" in found[pdf]  # the PDF is read too
