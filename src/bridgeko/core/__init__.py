"""The shared layer below every Django app: what the apps share and no app owns.

- :mod:`bridgeko.core.errors`: :class:`ServiceError`, the user error every service raises;
- :mod:`bridgeko.core.i18n`: :func:`tr` / :func:`tr_stored`, the engine's messages translated;
- :mod:`bridgeko.core.forms`: :func:`apply_service_error`, a service error shown on its field;
- :mod:`bridgeko.core.dashboard`: the organiser's dashboard registry (apps register providers);
- :mod:`bridgeko.core.config`: paths and the environment (``source_root``, ``data_dir``...),
  pure functions read by the settings module too;
- :mod:`bridgeko.core.admin`: :class:`ReadOnlyAdmin`, the admin of models written by services;
- the template filter ``{% load engine_i18n %}{{ x|tr }}`` and the project's ``makemessages``.

It imports no app and not the Django project package (``bridgeko.web``); every app may import it
(``tests/web/test_layers.py`` checks both).
"""
