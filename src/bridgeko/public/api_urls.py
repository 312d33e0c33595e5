"""The public site's language-free URLs: the read-only JSON API under ``/api/`` and the files
every language shares. No language prefix: a JSON document holds codes, not translated words."""

from django.urls import path

from bridgeko.public import api, handrecord_views, live

app_name = "api"
urlpatterns = [
    # what open public pages poll (live updates, issue 12)
    path("e/<slug:edition>/live.json", live.live, name="live"),
    # the read-only JSON API (issue 10, item 11)
    path("api/e/<slug:edition>/matches/<slug:code>/", api.match, name="api_match"),
    path(
        "api/e/<slug:edition>/matches/<slug:code>/segments/<int:segment>/hand-records/",
        handrecord_views.hand_records_json,
        name="api_hand_records",
    ),
]
