from django.urls import path

from bridgeko.players import views

app_name = "players"
urlpatterns = [
    path("e/<slug:edition>/players/", views.player_list, name="list"),
    path("e/<slug:edition>/players/new/", views.player_create, name="create"),
    path("e/<slug:edition>/players/<int:pk>/", views.player_edit, name="edit"),
    path("e/<slug:edition>/players/<int:pk>/delete/", views.player_delete, name="delete"),
    path("e/<slug:edition>/players/import/", views.elo_import, name="import"),
    path("e/<slug:edition>/players/elo/", views.elo_list, name="elo"),
    path("e/<slug:edition>/players/elo/undo/<int:pk>/", views.elo_undo, name="elo_undo"),
]
