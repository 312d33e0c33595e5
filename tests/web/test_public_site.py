"""The public site's frame (issue 12): the language in the URL, no cookie, one ETag per data
version with 304s, the same bytes for every reader, and ``live.json`` for live updates."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from bridgeko.matches import services
from bridgeko.public.freshness import edition_version
from tests.web.conftest import World
from tests.web.test_api_match import first_r1
from tests.web.test_matches import PLAY

pytestmark = pytest.mark.django_db

PAGES = (
    "public:home",
    "public:teams",
    "public:draw",
    "public:schedule",
    "public:standings",
    "public:boards",
    "public:hand_records_index",
)


def _url(name: str, world: World, language: str) -> str:
    with translation.override(language):
        return reverse(name, kwargs={"edition": world.edition.slug})


@pytest.mark.parametrize("name", PAGES)
@pytest.mark.parametrize("who", ["anonymous", "organiser", "captain"])
def test_public_page_sets_no_cookie_and_is_the_same_for_everyone(
    drawn: World, name: str, who: str
) -> None:
    url = _url(name, drawn, "en")
    response = drawn.client(who, language="cs").get(url)
    assert response.status_code == 200
    assert not response.cookies, response.cookies
    assert "Cookie" not in response.get("Vary", "")
    assert "Accept-Language" not in response.get("Vary", "")
    assert "csrfmiddlewaretoken" not in response.content.decode()
    anonymous = Client().get(url)
    assert anonymous.content == response.content  # the same bytes for every reader
    assert anonymous["ETag"] == response["ETag"]


@pytest.mark.parametrize("name", PAGES)
def test_public_page_language_is_the_urls(drawn: World, name: str) -> None:
    czech = _url(name, drawn, "cs")
    english = _url(name, drawn, "en")
    assert czech.startswith("/cs/") and english.startswith("/en/")
    cs_page = drawn.client("anonymous", language="en").get(czech).content.decode()
    en_page = drawn.client("anonymous", language="cs").get(english).content.decode()
    assert '<html lang="cs">' in cs_page and '<html lang="en">' in en_page
    # each links the same page in the other language, as a plain link (no form, no token)
    assert f'href="{english}"' in cs_page and f'href="{czech}"' in en_page


def test_public_page_without_language_redirects_to_one(drawn: World) -> None:
    response = drawn.client("anonymous", language="cs").get(f"/e/{drawn.edition.slug}/public/draw/")
    assert response.status_code == 302
    assert response["Location"] == f"/cs/e/{drawn.edition.slug}/public/draw/"


@pytest.mark.parametrize("name", PAGES)
def test_public_page_etag_304_after_one_query(
    drawn: World, name: str, django_assert_max_num_queries: Any
) -> None:
    url = _url(name, drawn, "en")
    first = Client().get(url)
    assert first["ETag"] and first["Last-Modified"]
    assert first["Cache-Control"] == "public, max-age=0, must-revalidate"
    with django_assert_max_num_queries(2):  # the edition, its version
        again = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    other = Client().get(_url(name, drawn, "cs"))
    assert other["ETag"] != first["ETag"]  # the language is part of the tag


def test_a_saved_result_changes_the_version_the_etag_and_live_json(drawn: World) -> None:
    match = first_r1(drawn)
    url = _url("public:draw", drawn, "en")
    live_url = reverse("site:live", kwargs={"edition": drawn.edition.slug})
    before = Client().get(url)
    live_before = Client().get(live_url)
    assert live_before["Content-Type"] == "application/json"
    assert live_before["Access-Control-Allow-Origin"] == "*"
    assert not live_before.cookies
    doc = json.loads(live_before.content)
    assert doc["version"] == edition_version(drawn.edition).token
    assert f'data-version="{doc["version"]}"' in before.content.decode()
    assert Client().get(live_url, HTTP_IF_NONE_MATCH=live_before["ETag"]).status_code == 304

    services.save_board(
        match=match,
        board=1,
        room="open",
        text="3NT S =",
        version=0,  # the board's: nothing stored yet
        user=drawn.users["organiser"],
        now=PLAY,
    )
    after = Client().get(url, HTTP_IF_NONE_MATCH=before["ETag"])
    assert after.status_code == 200 and after["ETag"] != before["ETag"]
    live_after = Client().get(live_url, HTTP_IF_NONE_MATCH=live_before["ETag"])
    assert live_after.status_code == 200
    assert json.loads(live_after.content)["version"] != doc["version"]


def test_public_pages_carry_the_live_script_and_last_update(drawn: World) -> None:
    page = Client().get(_url("public:home", drawn, "en")).content.decode()
    assert "bridgeko/live" in page and 'data-live="/e/' in page
    assert 'class="live-status"' in page and "Updated" in page


def test_live_json_of_an_unknown_edition_is_404(db: Any) -> None:
    assert Client().get("/e/no-such-edition/live.json").status_code == 404
