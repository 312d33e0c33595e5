from django.urls import path

from bridgeko.entries import views

app_name = "entries"
urlpatterns = [
    path("e/<slug:edition>/teams/", views.team_list, name="list"),
    path("e/<slug:edition>/teams/new/", views.team_create, name="create"),
    path("e/<slug:edition>/teams/<int:team>/", views.team_detail, name="detail"),
    path("e/<slug:edition>/teams/<int:team>/edit/", views.team_edit, name="edit"),
    path("e/<slug:edition>/teams/<int:team>/pairs/", views.team_pairs, name="pairs"),
    path(
        "e/<slug:edition>/teams/<int:team>/pairs/<int:pair>/card/",
        views.card_upload,
        name="card_upload",
    ),
    path("e/<slug:edition>/teams/<int:team>/cards/<int:card>/", views.card_download, name="card"),
    path("e/<slug:edition>/teams/<int:team>/conditions/", views.team_conditions, name="conditions"),
    path("e/<slug:edition>/teams/<int:team>/fee/", views.team_fee, name="fee"),
    path(
        "e/<slug:edition>/teams/<int:team>/late-decision/",
        views.late_decision,
        name="late_decision",
    ),
    path("e/<slug:edition>/my-team/", views.my_team, name="my_team"),
    path("e/<slug:edition>/my-team/<int:team>/", views.my_team_of, name="my_team_of"),
    path("e/<slug:edition>/entries/closing/", views.closing, name="closing"),
    path("e/<slug:edition>/entries/reopen/", views.reopen, name="reopen"),
    path("after-login/", views.after_login, name="after_login"),
]
