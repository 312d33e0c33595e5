"""``makemessages`` that also extracts the rules engine's templates marked with ``N_()``
and ``NP_()`` (singular, plural)
(``bridgeko.competition.messages.N_``; Django's own command knows only ``gettext_noop`` & co)."""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_", "--keyword=NP_:1,2"]
