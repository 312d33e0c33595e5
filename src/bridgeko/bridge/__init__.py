"""The pure bridge domain: cards, deals, boards, contracts, scoring, IMPs, PBN, dealing, analysis.

Nothing in this package imports Django; everything is typed and checked with ``mypy --strict``.
"""
