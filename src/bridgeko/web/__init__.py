"""The Django project: settings, URLs, the base template, the CSS and the dashboard hook."""
