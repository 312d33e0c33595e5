"""The pure rules of one knockout edition (the regulations as code).

Nothing in this package imports Django. Randomness, the current time and the edition's
:class:`~bridgeko.competition.regulations.Regulations` are passed in as arguments.
"""
