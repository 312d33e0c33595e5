"""The appeals pages (R16)."""

from __future__ import annotations

from django.urls import path

from bridgeko.appeals import views

app_name = "appeals"
urlpatterns = [
    path("e/<slug:edition>/appeals/", views.appeal_list, name="list"),
    path("e/<slug:edition>/appeals/settings/", views.appeal_settings, name="settings"),
    path("e/<slug:edition>/appeals/lodge/<str:code>/", views.lodge, name="lodge"),
    path("e/<slug:edition>/appeals/<int:appeal>/", views.appeal_detail, name="detail"),
    path("e/<slug:edition>/appeals/<int:appeal>/committee/", views.committee, name="committee"),
    path("e/<slug:edition>/appeals/<int:appeal>/decide/", views.decide, name="decide"),
    path("e/<slug:edition>/appeals/<int:appeal>/withdraw/", views.withdraw, name="withdraw"),
    path(
        "e/<slug:edition>/my-team/<int:team>/appeals/<int:appeal>/",
        views.team_appeal,
        name="team",
    ),
]
