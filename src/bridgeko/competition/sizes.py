"""The size of a standard scheme and its byes: :func:`check_size`, :func:`standard_byes`.

Re-exported by :mod:`bridgeko.competition.scheme` and :mod:`bridgeko.competition.bracket`
(import them from there), with :class:`BracketError`; kept apart so that the draw
(``bridgeko verify-draw``) works out the byes without loading the schemes' dataclasses, JSON and
TOML: start-up time.
"""

from __future__ import annotations

from bridgeko.competition.messages import N_, Message

__all__ = [
    "SIZE_NOT_POWER_OF_TWO",
    "TEAMS_DO_NOT_FIT",
    "BracketError",
    "check_size",
    "standard_byes",
]


class BracketError(ValueError):
    """A user error about a bracket: an impossible size, a result that does not fit the scheme.

    :attr:`detail` is the message as a translatable :class:`Message`; ``str(error)`` is its
    English text."""

    def __init__(self, message: str | Message) -> None:
        self.detail = message if isinstance(message, Message) else Message(message)
        super().__init__(str(self.detail))


SIZE_NOT_POWER_OF_TWO = N_("a scheme size must be a power of two, at least 4, not %(size)s")
TEAMS_DO_NOT_FIT = N_("%(teams)s teams do not fit a scheme for %(size)s")


def _is_power_of_two(n: int) -> bool:
    return n >= 1 and n & (n - 1) == 0


def check_size(size: object) -> int:
    """``size`` when it can be the size of the standard scheme (a power of two, at least 4);
    :class:`BracketError` otherwise."""
    if (
        isinstance(size, bool)
        or not isinstance(size, int)
        or size < 4
        or not _is_power_of_two(size)
    ):
        raise BracketError(Message(SIZE_NOT_POWER_OF_TWO, {"size": repr(size)}))
    return size


def standard_byes(size: int, teams: int) -> tuple[int, ...]:
    """The numbers that go to round 2 without a match in the standard scheme for ``size`` when
    numbers 1..``teams`` are present (R11.4, I1).

    Number *i* meets *size+1-i* in the first round
    (:func:`~bridgeko.competition.scheme.first_round`), so number *i* has no opponent exactly
    when *size+1-i* > ``teams``: numbers 1..min(teams, size-teams). The same as reading the byes
    off :func:`bridgeko.competition.bracket.resolve`, without building the scheme (a test checks
    both agree).

    >>> standard_byes(16, 12)
    (1, 2, 3, 4)
    """
    check_size(size)
    if isinstance(teams, bool) or not isinstance(teams, int) or not 0 <= teams <= size:
        raise BracketError(Message(TEAMS_DO_NOT_FIT, {"teams": str(teams), "size": size}))
    return tuple(range(1, min(teams, size - teams) + 1))
