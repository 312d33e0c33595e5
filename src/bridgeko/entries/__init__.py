"""Team entries of an edition (Django app label ``entries``; the rules are in
:mod:`bridgeko.competition.entries`)."""
