"""The open JSON API's addresses (issue 12, item 5), namespace ``api``: outside the
language-prefixed pages (a document is the same in every language). Version 1 lives under
``/api/v1/``; ``/api/openapi.json`` describes it; the two addresses of issues 10 and 11
(``/api/e/...``) stay as they were, marked deprecated in the OpenAPI document."""

from django.urls import path

from bridgeko.public import api, api_v1, handrecord_views

app_name = "api"

E = "api/v1/editions/<slug:edition>/"

urlpatterns = [
    path("api/openapi.json", api_v1.openapi, name="openapi"),
    path("api/v1/editions/", api_v1.editions, name="editions"),
    path(E, api_v1.edition, name="edition"),
    path(E + "teams/", api_v1.teams, name="teams"),
    path(E + "teams/<int:team>/", api_v1.team, name="team"),
    path(E + "bracket/", api_v1.bracket, name="bracket"),
    path(E + "matches/", api_v1.matches, name="matches"),
    path(E + "matches/<slug:code>/", api.match, name="match"),
    path(
        E + "matches/<slug:code>/segments/<int:segment>/hand-records/",
        handrecord_views.hand_records_json,
        name="hand_records",
    ),
    path(E + "schedule/", api_v1.schedule, name="schedule"),
    path(E + "standings/", api_v1.standings, name="standings"),
    # the first addresses (issue 10, item 11; issue 11): kept, deprecated
    path("api/e/<slug:edition>/matches/<slug:code>/", api.match, name="legacy_match"),
    path(
        "api/e/<slug:edition>/matches/<slug:code>/segments/<int:segment>/hand-records/",
        handrecord_views.hand_records_json,
        name="legacy_hand_records",
    ),
]
