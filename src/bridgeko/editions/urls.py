from django.urls import path

from bridgeko.editions import views

app_name = "editions"
urlpatterns = [
    path("", views.edition_list, name="list"),
    path("new/", views.create, name="create"),
    path("<slug:edition>/", views.detail, name="detail"),
    path("<slug:edition>/settings/", views.edit, name="edit"),
    path("<slug:edition>/dashboard/", views.dashboard_view, name="dashboard"),
]
