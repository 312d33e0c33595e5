from django.urls import path

from bridgeko.accounts import views

app_name = "accounts"
urlpatterns = [
    path("e/<slug:edition>/roles/", views.roles, name="roles"),
    path("e/<slug:edition>/roles/<int:pk>/revoke/", views.revoke, name="revoke"),
]
