from django.urls import path

from bridgeko.draw import views

app_name = "draw"
urlpatterns = [
    path("e/<slug:edition>/draw/", views.manage, name="manage"),
    path("e/<slug:edition>/draw/announce/", views.announce, name="announce"),
    path("e/<slug:edition>/draw/commit/", views.commit, name="commit"),
    path("e/<slug:edition>/draw/hold/", views.hold, name="hold"),
    path("e/<slug:edition>/draw/manual/", views.manual, name="manual"),
    path("e/<slug:edition>/schedule/", views.schedule_page, name="schedule"),
    path("e/<slug:edition>/schedule/defaults/", views.schedule_defaults, name="schedule_defaults"),
    path("e/<slug:edition>/schedule/publish/", views.schedule_publish, name="schedule_publish"),
    path("e/<slug:edition>/schedule/<str:match>/", views.schedule_match, name="schedule_match"),
]
