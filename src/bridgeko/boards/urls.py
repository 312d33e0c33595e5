"""The boards' staff pages. Each feature keeps its patterns in a block of its own."""

from __future__ import annotations

from django.urls import path

from bridgeko.boards import handrecord_views

app_name = "boards"
urlpatterns = [
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
