"""The draw of an edition (Django app label ``draw``; the rules are in
:mod:`bridgeko.competition.draw`, :mod:`bridgeko.competition.bracket` and
:mod:`bridgeko.competition.schedule`)."""
