"""The appeals procedure (R16, I15): the organiser's list of committee candidates, appeals lodged
through the TD, the committee named for each and its final decision. The rules are the engine's
(:mod:`bridgeko.competition.appeals`, :func:`bridgeko.competition.schedule.appeal_deadlines`)."""
