"""The boards' staff pages (R12.7, I8, I15); the public page of the commitments is the public
app's."""

from __future__ import annotations

from django.urls import path

from bridgeko.boards import views

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
]
