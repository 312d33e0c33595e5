from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "bridgeko.web"
    label = "web"
    verbose_name = "bridgeko"
