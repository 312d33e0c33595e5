"""The audit log page (URL namespace ``audit``, kept from when the page was in the audit app)."""

from django.urls import path

from bridgeko.editions import audit_views as views

app_name = "audit"
urlpatterns = [path("audit/", views.audit_log, name="log")]
