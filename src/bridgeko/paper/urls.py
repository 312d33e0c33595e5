"""The paper forms (PDF, A4): each under ``e/<edition>/paper/``."""

from __future__ import annotations

from django.urls import path

from bridgeko.paper import views

app_name = "paper"
urlpatterns = [
    path("e/<slug:edition>/paper/entry-form.pdf", views.entry_form, name="entry_form"),
    path(
        "e/<slug:edition>/paper/teams/<int:team>/entry-form.pdf",
        views.team_entry_form,
        name="team_entry_form",
    ),
    path("e/<slug:edition>/paper/teams/<int:team>/receipt.pdf", views.receipt, name="receipt"),
    path(
        "e/<slug:edition>/paper/matches/<str:code>/record.pdf",
        views.match_record,
        name="match_record",
    ),
    path(
        "e/<slug:edition>/paper/matches/<str:code>/appeal-form.pdf",
        views.appeal_form,
        name="appeal_form",
    ),
    path(
        "e/<slug:edition>/paper/matches/<str:code>/segments/<int:number>/line-ups.pdf",
        views.line_ups,
        name="line_ups",
    ),
    path(
        "e/<slug:edition>/paper/matches/<str:code>/segments/<int:number>/hand-records.pdf",
        views.hand_records,
        name="hand_records",
    ),
    path("e/<slug:edition>/paper/prize-list.pdf", views.prize_list, name="prize_list"),
]
