from django.apps import AppConfig


class CoreConfig(AppConfig):
    """An app only for its template tags and management command: it has no models."""

    name = "bridgeko.core"
    label = "core"
    verbose_name = "bridgeko core"
