from django.urls import path

from bridgeko.matches import standings_views

app_name = "matches"
urlpatterns = [
    # standings and schedule
    path("e/<slug:edition>/standings/", standings_views.standings, name="standings"),
    path("e/<slug:edition>/standings/decide/", standings_views.decide, name="decide_place"),
    path(
        "e/<slug:edition>/standings/decisions/<int:decision>/withdraw/",
        standings_views.withdraw_decision,
        name="withdraw_decision",
    ),
    path("e/<slug:edition>/match-dates/", standings_views.dates, name="dates"),
    path(
        "e/<slug:edition>/matches/<str:match>/reschedule/",
        standings_views.reschedule,
        name="reschedule",
    ),
    path("e/<slug:edition>/matches/<str:match>/swap/", standings_views.swap, name="swap"),
    # end of standings and schedule
]
