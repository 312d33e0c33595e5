"""The boards' staff pages (R12.7, I8, I15); the public pages (commitments, hand records) are
the public app's. Each feature keeps its patterns in a block of its own."""

from __future__ import annotations

from django.urls import path

from bridgeko.boards import handrecord_views, views

app_name = "boards"
_SEG = "e/<slug:edition>/matches/<str:code>/sets/<int:segment>/"
urlpatterns = [
    path("e/<slug:edition>/matches/<str:code>/sets/", views.match_boards, name="match"),
    path(_SEG, views.set_page, name="set"),
    path(_SEG + "progress.json", views.progress_json, name="progress"),
    path(_SEG + "commit/", views.commit, name="commit"),
    path(_SEG + "make/", views.make, name="make"),
    path(_SEG + "download/", views.download, name="download"),
    path(_SEG + "restart/", views.restart, name="restart"),
    path(_SEG + "load/", views.load, name="load"),
    # hand records (the staff's: organisers before the end of the segment, I15)
    path(
        "e/<slug:edition>/matches/<str:code>/segments/<int:segment>/hand-records/",
        handrecord_views.hand_records,
        name="hand_records",
    ),
    path(
        "e/<slug:edition>/matches/<str:code>/hand-records/<int:board>/",
        handrecord_views.hand_record,
        name="hand_record",
    ),
    # end of hand records
]
