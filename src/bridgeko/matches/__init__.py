"""The matches of an edition: teams, segments, line-ups, board results, penalties (R12, R15)."""
