"""Static files: WhiteNoise serves them (no Django view), compressed and under hashed names with
a long cache time once collected; the plain names before (a fresh checkout, the tests)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from django.core.management import call_command
from django.test import Client
from django.urls import Resolver404, resolve

CSS = re.compile(r'href="(/static/[^"]+\.css)"')


def _css_url(client: Client) -> str:
    found = CSS.search(client.get("/login/").content.decode())
    assert found is not None
    return found[1]


def test_no_url_pattern_serves_static_files(db: Any) -> None:
    """WhiteNoise's middleware serves /static/, not ``django.contrib.staticfiles.views.serve``
    (which Django calls "grossly inefficient and probably insecure")."""
    try:
        resolve("/static/bridgeko/style.css")
    except Resolver404:
        pass
    else:
        raise AssertionError("a URL pattern serves /static/")


def test_before_collectstatic_the_plain_name_is_served(db: Any) -> None:
    client = Client()
    url = _css_url(client)
    assert url == "/static/bridgeko/style.css"
    css = client.get(url)
    assert css.status_code == 200
    assert css["Content-Type"].startswith("text/css")
    assert "immutable" not in css.get("Cache-Control", "")


def test_collected_files_have_hashed_names_compressed_copies_and_a_long_cache(
    db: Any, settings: Any, tmp_path: Path
) -> None:
    settings.STATIC_ROOT = tmp_path / "static"
    call_command("collectstatic", interactive=False, verbosity=0)
    assert (tmp_path / "static" / "staticfiles.json").is_file()
    client = Client()  # a new handler: WhiteNoise reads the collected files when it starts
    url = _css_url(client)
    assert re.fullmatch(r"/static/bridgeko/style\.[0-9a-f]{12}\.css", url), url
    assert (tmp_path / url.removeprefix("/")).with_suffix(".css.gz").is_file()
    css = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
    assert css.status_code == 200
    assert css["Content-Encoding"] == "gzip"
    cache = css["Cache-Control"]
    assert "immutable" in cache and int(re.search(r"max-age=(\d+)", cache)[1]) >= 365 * 86400
