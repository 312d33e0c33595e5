from django.urls import path

from bridgeko.draw import no_show_views, print_views, views

app_name = "draw"
urlpatterns = [
    path("e/<slug:edition>/draw/", views.manage, name="manage"),
    path("e/<slug:edition>/draw/announce/", views.announce, name="announce"),
    path("e/<slug:edition>/draw/commit/", views.commit, name="commit"),
    path("e/<slug:edition>/draw/hold/", views.hold, name="hold"),
    path("e/<slug:edition>/draw/manual/", views.manual, name="manual"),
    path("e/<slug:edition>/draw/scheme/", views.scheme, name="scheme"),
    path("e/<slug:edition>/schedule/", views.schedule_page, name="schedule"),
    path("e/<slug:edition>/schedule/defaults/", views.schedule_defaults, name="schedule_defaults"),
    path("e/<slug:edition>/schedule/publish/", views.schedule_publish, name="schedule_publish"),
    path("e/<slug:edition>/schedule/<str:match>/", views.schedule_match, name="schedule_match"),
    # printable lists (organisers and TDs)
    path("e/<slug:edition>/print/", print_views.print_index, name="print_index"),
    path("e/<slug:edition>/print/teams/", print_views.print_teams, name="print_teams"),
    path("e/<slug:edition>/print/fees/", print_views.print_fees, name="print_fees"),
    path(
        "e/<slug:edition>/print/conditions/", print_views.print_conditions, name="print_conditions"
    ),
    path("e/<slug:edition>/print/draw/", print_views.print_draw, name="print_draw"),
    path("e/<slug:edition>/print/schedule/", print_views.print_schedule, name="print_schedule"),
    # failures to appear (R15): for a match of the bracket, so in the draw app
    path("e/<slug:edition>/no-shows/", no_show_views.no_show_list, name="no_shows"),
    path(
        "e/<slug:edition>/no-shows/<int:no_show>/",
        no_show_views.no_show_change,
        name="no_show_change",
    ),
    path(
        "e/<slug:edition>/teams/<int:team>/no-show/",
        no_show_views.no_show_record,
        name="no_show",
    ),
]
