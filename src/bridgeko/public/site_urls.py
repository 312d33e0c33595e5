"""The public site's addresses without a language (namespace ``site``): ``live.json``, which
every open public page polls, the results as files for other programs (a match's PBN, the
edition's USEBIO XML), and a public page's address without its language prefix, which
redirects to the reader's language."""

from django.urls import path

from bridgeko.public import download_views, live

app_name = "site"
urlpatterns = [
    # what open public pages poll (live updates, issue 12)
    path("e/<slug:edition>/live.json", live.live, name="live"),
    # results for other programs (issue 20)
    path(
        "e/<slug:edition>/matches/<str:code>/results.pbn",
        download_views.match_pbn,
        name="match_pbn",
    ),
    path("e/<slug:edition>/usebio.xml", download_views.usebio, name="usebio"),
    # a public page's address without its language: to the reader's
    path("e/<slug:edition>/public/", live.in_language, name="in_language"),
    path("e/<slug:edition>/public/<path:rest>", live.in_language, name="in_language"),
]
