"""The public site's addresses without a language (namespace ``site``): ``live.json``, which
every open public page polls, and a public page's address without its language prefix, which
redirects to the reader's language."""

from django.urls import path

from bridgeko.public import live

app_name = "site"
urlpatterns = [
    # what open public pages poll (live updates, issue 12)
    path("e/<slug:edition>/live.json", live.live, name="live"),
    # a public page's address without its language: to the reader's
    path("e/<slug:edition>/public/", live.in_language, name="in_language"),
    path("e/<slug:edition>/public/<path:rest>", live.in_language, name="in_language"),
]
