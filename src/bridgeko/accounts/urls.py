from django.urls import path

from bridgeko.accounts import site_views, views

app_name = "accounts"
urlpatterns = [
    path("e/<slug:edition>/roles/", views.roles, name="roles"),
    path("e/<slug:edition>/roles/<int:pk>/revoke/", views.revoke, name="revoke"),
    path("roles/", site_views.site_roles, name="site_roles"),
    path("roles/<int:pk>/revoke/", site_views.site_revoke, name="site_revoke"),
]
