"""The matches' pages (issue 10). Each feature keeps its patterns in a block of its own."""

from __future__ import annotations

from django.urls import path

from bridgeko.matches import pbn_views

app_name = "matches"
urlpatterns = [
    # PBN import
    path(
        "e/<slug:edition>/matches/<str:match>/import/",
        pbn_views.import_pbn,
        name="import_pbn",
    ),
]
