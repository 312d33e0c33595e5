from django.contrib.auth import views as auth_views
from django.urls import path, reverse_lazy

from bridgeko.accounts import site_views, views

app_name = "accounts"
urlpatterns = [
    path("e/<slug:edition>/roles/", views.roles, name="roles"),
    path("e/<slug:edition>/roles/<int:pk>/revoke/", views.revoke, name="revoke"),
    path("roles/", site_views.site_roles, name="site_roles"),
    path("roles/<int:pk>/revoke/", site_views.site_revoke, name="site_revoke"),
    # the one-time link of an account created without a password (Django's reset token)
    path(
        "set-password/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name="accounts/set_password.html",
            success_url=reverse_lazy("accounts:set_password_done"),
        ),
        name="set_password",
    ),
    path(
        "set-password/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name="accounts/set_password_done.html"
        ),
        name="set_password_done",
    ),
]
