"""The project's URLs. An app adds itself with one ``path("", include("bridgeko.<app>.urls"))``
line here (its own patterns start with ``e/<slug:edition>/...`` when they belong to an
edition)."""

from __future__ import annotations

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from bridgeko.accounts.views import set_language
from bridgeko.core import health
from bridgeko.editions import views as edition_views

urlpatterns = [
    path("", edition_views.edition_list, name="home"),
    path("healthz", health.healthz, name="healthz"),  # for a monitor (issue 23): no login
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/setlang/", set_language, name="set_language"),
    path("admin/", admin.site.urls),
    path("e/", include("bridgeko.editions.urls")),
    path("", include("bridgeko.accounts.urls")),
    path("", include("bridgeko.players.urls")),
    path("", include("bridgeko.editions.audit_urls")),
    path("", include("bridgeko.entries.urls")),
    path("", include("bridgeko.draw.urls")),
    path("", include("bridgeko.matches.urls")),
    path("", include("bridgeko.boards.urls")),
    path("", include("bridgeko.appeals.urls")),
    path("", include("bridgeko.mail.urls")),  # mail
    path("", include("bridgeko.paper.urls")),  # issue 11: PDFs
    path("", include("bridgeko.public.api_urls")),  # the JSON API
    path("", include("bridgeko.public.site_urls")),  # live.json, addresses without a language
]
# The public pages carry their language in the URL (/cs/…, /en/…): no cookie decides it, so
# any proxy or CDN may cache them. An address without the prefix redirects to the reader's.
urlpatterns += i18n_patterns(path("", include("bridgeko.public.urls")))

handler403 = "bridgeko.web.views.permission_denied"
handler404 = "bridgeko.web.views.page_not_found"
handler500 = "bridgeko.web.views.server_error"
