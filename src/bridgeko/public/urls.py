"""The public HTML pages, under the reader's language: ``/cs/e/<edition>/public/…`` and
``/en/e/<edition>/public/…`` (``i18n_patterns`` in the project's URLs). The JSON API and the
language-free files (``live.json``, feeds) are in :mod:`bridgeko.public.api_urls`."""

from django.urls import path

from bridgeko.public import boards_views, handrecord_views, match_views, views

app_name = "public"
# The JSON API is in bridgeko.public.api_urls (namespace "api", no language prefix).
urlpatterns = [
    path("e/<slug:edition>/public/", views.home, name="home"),
    path("e/<slug:edition>/public/teams/", views.teams, name="teams"),
    path("e/<slug:edition>/public/teams/<int:team>/", views.team, name="team"),
    path("e/<slug:edition>/public/teams/<int:team>/schedule.ics", views.team_ics, name="team_ics"),
    path("e/<slug:edition>/public/draw/", views.draw, name="draw"),
    # the bracket alone, for an <iframe> on another site (issue 12, item 5)
    path("e/<slug:edition>/public/embed/bracket/", views.embed_bracket, name="embed_bracket"),
    path("e/<slug:edition>/public/draw/protocol.json", views.protocol, name="protocol"),
    path("e/<slug:edition>/public/schedule/", views.schedule, name="schedule"),
    path("e/<slug:edition>/public/schedule.ics", views.schedule_ics, name="schedule_ics"),
    path("e/<slug:edition>/public/standings/", views.standings, name="standings"),
    # the computer-dealt sets: commitments, revealed seeds (issue 11, R12.7, I8, I15)
    path("e/<slug:edition>/public/boards/", boards_views.boards, name="boards"),
    # one match board by board, live (issue 12)
    path("e/<slug:edition>/public/matches/<str:code>/", match_views.match, name="match"),
]

# hand records (issue 11): public after the end of the segment (I15), 404 before
urlpatterns += [
    path(
        "e/<slug:edition>/public/hand-records/",
        handrecord_views.index,
        name="hand_records_index",
    ),
    path(
        "e/<slug:edition>/public/matches/<str:code>/segments/<int:segment>/hand-records/",
        handrecord_views.hand_records,
        name="hand_records",
    ),
    # the same as PDF to print (issue 20): public after the end too, 404 before
    path(
        "e/<slug:edition>/public/matches/<str:code>/segments/<int:segment>/hand-records.pdf",
        handrecord_views.hand_records_pdf,
        name="hand_records_pdf",
    ),
    path(
        "e/<slug:edition>/public/matches/<str:code>/hand-records/<int:board>/",
        handrecord_views.hand_record,
        name="hand_record",
    ),
]
