from django.urls import path

from bridgeko.audit import views

app_name = "audit"
urlpatterns = [path("audit/", views.audit_log, name="log")]
