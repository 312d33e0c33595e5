"""Django's own messages that Django's Czech catalogue lacks, translated in the project's.

Django 5.2 reworded the password-too-short error ("... at least %d characters.", formerly
"%(min_length)d"), and its bundled Czech catalogue still has only the old wording: the error
showed in English amid Czech text. The project catalogue (``src/bridgeko/locale``) carries the
Czech of the messages listed here; marking them here keeps them there when ``makemessages`` runs
(``tests/web/test_i18n.py`` checks that each of Django's messages reads in Czech). Nothing imports
this module.
"""

from __future__ import annotations

from bridgeko.competition.messages import NP_

DJANGO_MESSAGES = (
    # django.contrib.auth.password_validation.MinimumLengthValidator.get_error_message
    NP_(
        "This password is too short. It must contain at least %d character.",
        "This password is too short. It must contain at least %d characters.",
    ),
)
