from django.urls import path

from bridgeko.matches import views

app_name = "matches"
urlpatterns = [
    # match pages (the TD's: the matches, one match, board by board, totals, penalties)
    path("e/<slug:edition>/matches/", views.match_list, name="list"),
    path("e/<slug:edition>/matches/<str:code>/", views.match_detail, name="detail"),
    path(
        "e/<slug:edition>/matches/<str:code>/boards/<int:board>/<str:room>/",
        views.save_board,
        name="save_board",
    ),
    path(
        "e/<slug:edition>/matches/<str:code>/segments/<int:segment>/totals/",
        views.segment_totals,
        name="segment_totals",
    ),
    path(
        "e/<slug:edition>/matches/<str:code>/segments/<int:segment>/close/",
        views.close_segment,
        name="close_segment",
    ),
    path("e/<slug:edition>/matches/<str:code>/penalties/", views.add_penalty, name="add_penalty"),
    path(
        "e/<slug:edition>/matches/<str:code>/penalties/<int:penalty>/withdraw/",
        views.withdraw_penalty,
        name="withdraw_penalty",
    ),
    # end of match pages
]
