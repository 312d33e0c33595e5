"""Paper: the printable PDF forms of a knockout on A4, in Czech and English (issue 11) — the entry
form with the R16.5 waiver, the line-up slips and table cards of a segment, the match record
(R14.2b), the appeal form (R16.2), the hand records of a segment, the fee receipt, the prize
list. Typeset by Typst (:mod:`bridgeko.paper.render`) from the templates in ``typst/``."""
