"""Chances to win a match in progress (issue 12): from the score, the boards played and left, and
the two teams' Elo. The model and where its numbers come from are in ``docs/chances.md``.

The IMP difference of one board is noise of standard deviation ``sigma`` around the per-board
strength difference ``mu`` of the two teams. Before the match ``mu`` is believed to be ``mu0``
(from the Elo difference) give or take ``tau``; the lead after the boards played updates that
belief (normal prior, normal likelihood); the remaining boards then add a normal difference (an
exact sum of real boards' IMPs for the last 8 boards), and a tie at the end is broken by 4-board
extra segments (R12.5):

>>> round(chance_to_win(0, 0, 32, None, None), 3)
0.5
>>> round(chance_to_win(10, 16, 16, None, None), 3)  # 10 IMPs up at half-time
0.677
>>> round(chance_to_win(-10, 16, 16, None, None), 3)
0.323
>>> round(chance_to_win(10, 28, 4, None, None), 3)
0.793
>>> chance_to_win(3, 32, 0, None, None), chance_to_win(-1, 32, 0, None, None)
(1.0, 0.0)
>>> round(chance_to_win(0, 32, 0, None, None), 9)  # tied: extra segments follow (R12.5)
0.5
>>> round(chance_to_win(0, 0, 32, 650, 550), 3)  # Elo 100 up: E = 0.640 (R10)
0.641
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from statistics import NormalDist

from bridgeko.competition.regulations import Regulations

__all__ = [
    "BOARD_COUNTS",
    "DEFAULT",
    "ELO_SCALE",
    "EXACT_BOARDS",
    "SIGMA",
    "TAU",
    "ChanceParams",
    "Estimate",
    "Parameter",
    "chance_to_win",
    "chances",
    "elo_expectation",
    "estimate",
    "explain",
    "params_for",
    "per_board_edge",
]

_UNIT = NormalDist()

SIGMA: float = 6.2
"""Standard deviation of the IMP difference of one board between two given teams, in IMPs:
the pooled within-match standard deviation of 112,608 boards of 6,148 two-table matches of
World and European team championships and two national leagues 2005-2012 (6.20, 95% CI
6.17-6.22; ``docs/chances.md``, ``tests/data/imps``)."""

TAU: float = 1.0
"""Standard deviation of the per-board strength difference ``mu`` of two teams that the Elo does
not tell, in IMPs a board: from the same matches, the spread of the match totals beyond
``sigma`` (1.00, 95% CI 0.95-1.06). Used as the residual uncertainty around the Elo's ``mu0``."""

ELO_SCALE: float = 400.0
"""The Elo difference (in the ČBS per mille, R10.1) that makes the stronger team ten times as
likely to win as to lose a standard match: the logistic Elo convention. Not estimated (no
published match records carry the ČBS Elo); ``docs/chances.md`` says what it implies."""


@dataclass(frozen=True, slots=True)
class ChanceParams:
    """The model's numbers; :data:`DEFAULT` are those estimated from real records."""

    sigma: float = SIGMA
    """IMPs: standard deviation of one board's IMP difference (noise)."""
    tau: float = TAU
    """IMPs a board: spread of the strength difference not explained by the Elo (0: the Elo
    tells the strength exactly and the score so far says nothing about it)."""
    elo_scale: float = ELO_SCALE
    """Elo points (per mille) for odds of 10:1 in a standard match."""
    reference_boards: int = 32
    """The standard match the Elo expectation is about (R12.1: 32 boards)."""
    extra_segment_boards: int = 4
    """Boards of each extra segment that breaks a tie (R12.5)."""

    def __post_init__(self) -> None:
        if not (self.sigma > 0 and self.tau >= 0 and self.elo_scale > 0):
            raise ValueError("sigma and elo_scale must be positive and tau not negative")
        if self.reference_boards < 1 or self.extra_segment_boards < 1:
            raise ValueError("reference_boards and extra_segment_boards must be 1 or more")


DEFAULT = ChanceParams()


def params_for(reg: Regulations, params: ChanceParams = DEFAULT) -> ChanceParams:
    """``params`` with the edition's match length (R12.1) and extra segment (R12.5)."""
    return replace(
        params,
        reference_boards=reg.match.boards,
        extra_segment_boards=reg.match.extra_segment_boards,
    )


def elo_expectation(elo_home: float, elo_visitors: float, params: ChanceParams = DEFAULT) -> float:
    """The Elo expectation of the home team, read as its chance to win a standard match.

    >>> elo_expectation(600, 600), round(elo_expectation(1000, 600), 4)
    (0.5, 0.9091)
    """
    exponent = min(max(-(elo_home - elo_visitors) / params.elo_scale, -300.0), 300.0)
    return 1.0 / (1.0 + math.pow(10.0, exponent))


def per_board_edge(
    elo_home: float | None, elo_visitors: float | None, params: ChanceParams = DEFAULT
) -> float:
    """``mu0``: the home team's expected IMPs a board from the Elo (0 when either is unknown).

    The Elo expectation ``E`` is the chance to win a match of ``N = reference_boards`` boards
    from the start. The model's total of such a match is Normal(``N*mu0``,
    ``N*sigma^2 + N^2*tau^2``), so ``mu0 = Phi^-1(E) * sqrt(sigma^2/N + tau^2)``.

    >>> per_board_edge(None, 600), per_board_edge(600, 600)
    (0.0, 0.0)
    >>> round(per_board_edge(650, 550), 3), round(per_board_edge(550, 650), 3)
    (0.532, -0.532)
    """
    if elo_home is None or elo_visitors is None:
        return 0.0
    e = elo_expectation(elo_home, elo_visitors, params)
    e = min(max(e, 1e-12), 1.0 - 1e-12)
    spread = math.sqrt(params.sigma**2 / params.reference_boards + params.tau**2)
    return _UNIT.inv_cdf(e) * spread


BOARD_COUNTS: tuple[int, ...] = (
    32281, 16015, 8272, 5290, 3595, 7413, 6994, 4687, 2364, 2227, 6116, 5984, 4827,
    4053, 1340, 490, 271, 317, 30, 21, 13, 7, 1, 0, 0,
)  # fmt: skip
"""How many of the 112,608 training boards (those of :data:`SIGMA`) gave 0, 1, ... 24 IMPs
either way: the shape of one board's IMP difference, used exactly for the last boards."""

EXACT_BOARDS: int = 8
"""Up to this many boards left (and for the extra segments) the remaining difference is the
exact sum of boards of that shape (a board is 0 IMPs three times in ten, which a normal curve
misses); beyond it the normal curve of the sum is close enough (``docs/chances.md``)."""

_GH_NODES = (-2.8569700138728056, -1.3556261799742658, 0.0, 1.3556261799742658, 2.8569700138728056)
_GH_WEIGHTS = (
    0.011257411327720691,
    0.2220759220056126,
    0.5333333333333333,
    0.2220759220056126,
    0.011257411327720691,
)
"""Five-point Gauss-Hermite rule for a standard normal: averages over the belief about mu."""

_MAX_EDGE = 8.0
"""|mu| is kept below this many IMPs a board (far beyond any real edge) so the tilt is finite."""


def _board_pmf() -> tuple[float, ...]:
    total = BOARD_COUNTS[0] + 2 * sum(BOARD_COUNTS[1:])
    half = [c / (2 * total) for c in BOARD_COUNTS]
    return tuple([*reversed(half[1:]), BOARD_COUNTS[0] / total, *half[1:]])


_PMF = _board_pmf()
_TOP = len(BOARD_COUNTS) - 1  # the largest IMPs of one board (24)
_VAR = sum(p * (k - _TOP) ** 2 for k, p in enumerate(_PMF))


@lru_cache(maxsize=EXACT_BOARDS + 1)
def _sum_pmf(n: int) -> tuple[float, ...]:
    """Distribution of the sum of ``n`` boards, values ``-24n .. 24n``."""
    out: tuple[float, ...] = (1.0,)
    for _ in range(n):
        acc = [0.0] * (len(out) + 2 * _TOP)
        for i, a in enumerate(out):
            if a:
                for j, b in enumerate(_PMF):
                    acc[i + j] += a * b
        out = tuple(acc)
    return out


@lru_cache(maxsize=4096)
def _tilt_cached(mu: float) -> float:
    theta = mu / _VAR
    for _ in range(60):
        w = [p * math.exp(theta * (k - _TOP)) for k, p in enumerate(_PMF)]
        z = sum(w)
        mean = sum(wk * (k - _TOP) for k, wk in enumerate(w)) / z
        var = sum(wk * (k - _TOP) ** 2 for k, wk in enumerate(w)) / z - mean * mean
        step = (mean - mu) / var
        theta -= step
        if abs(step) < 1e-12:
            break
    return theta


def _tilt(mu: float) -> float:
    """``theta`` such that the board shape tilted by ``exp(theta x)`` has mean ``mu``."""
    return _tilt_cached(round(min(max(mu, -_MAX_EDGE), _MAX_EDGE), 9))


@lru_cache(maxsize=16384)
def _exact(lead: float, n: int, theta: float) -> tuple[float, float]:
    """Win and tie chances of the home team with ``n`` boards of shape tilted by ``theta``."""
    dist = _sum_pmf(n)
    low = -_TOP * n
    step = math.exp(theta)
    factor = math.exp(theta * low)
    z = win = tie = 0.0
    for k, p in enumerate(dist):
        wk = p * factor
        factor *= step
        z += wk
        final = low + k + lead
        if final > 0:
            win += wk
        elif final == 0:
            tie += wk
    return win / z, tie / z


def _tie_break(mu: float, var_mu: float, params: ChanceParams, *, exact: bool) -> float:
    """The home team's chance to win the extra segments that follow a tie (R12.5): fresh
    segments of ``extra_segment_boards`` boards, repeated while tied. ``exact``: sums of real
    boards averaged over the belief about ``mu``; else the normal curve (when the match has
    many boards left, the tie itself is unlikely and this is close enough)."""
    s = params.extra_segment_boards
    if exact and s <= EXACT_BOARDS:
        chance = 0.0
        for w, z in zip(_GH_WEIGHTS, _GH_NODES, strict=True):
            win, tie = _exact(0.0, s, _tilt(mu + math.sqrt(var_mu) * z))
            lose = 1.0 - win - tie
            chance += w * (win / (win + lose) if win + lose > 0 else 0.5)
        return chance
    sd = math.sqrt(s * params.sigma**2 + s * s * var_mu)
    win = 1.0 - _UNIT.cdf((0.5 - s * mu) / sd)
    lose = _UNIT.cdf((-0.5 - s * mu) / sd)
    return win / (win + lose) if win + lose > 0 else 0.5


def chance_to_win(
    lead_imps: float,
    boards_played: int,
    boards_left: int,
    elo_home: float | None,
    elo_visitors: float | None,
    params: ChanceParams = DEFAULT,
) -> float:
    """The home team's chance to win the match, between 0 and 1; the visitors' is ``1 - it``.

    ``lead_imps``: the home team's IMPs minus the visitors' (negative when behind), penalties
    and adjustments included (what ``MatchView.running`` shows). ``boards_played``: boards of
    the match scored so far (the lead is their result); ``boards_left``: boards still to play
    of the prescribed ones, or of the extra segment in progress. ``elo_home``/``elo_visitors``:
    the teams' Elo (R10), ``None`` when not known: then neither team gets an edge.

    With no boards left: 1 if ahead, 0 if behind, and if tied the chance to win the extra
    segments (R12.5), 0.5 unless the Elo or the play so far favours a team.

    The per-board strength difference ``mu`` is believed Normal(``m``, ``v``) given the Elo
    (prior ``mu0`` +- ``tau``) and the lead over the boards played. For ``n`` boards left the
    remaining IMP difference is Normal(``n*m``, ``n*sigma^2 + n^2*v``), read with a continuity
    correction of 0.5 (IMPs are whole numbers); for ``n <= EXACT_BOARDS`` it is instead the
    exact sum of ``n`` boards of the real per-board shape (:data:`BOARD_COUNTS`) tilted to mean
    ``mu``, averaged over the belief about ``mu``. A final tie goes to the extra segments.

    >>> a, b = chance_to_win(5, 16, 16, 600, 600), chance_to_win(-5, 16, 16, 600, 600)
    >>> abs(a - (1 - b)) < 1e-12
    True
    """
    if boards_played < 0 or boards_left < 0:
        raise ValueError("boards played and boards left are 0 or more")
    lead = float(lead_imps)
    if not math.isfinite(lead):
        raise ValueError(f"the lead must be a finite number of IMPs, not {lead_imps!r}")
    mu0 = per_board_edge(elo_home, elo_visitors, params)
    sigma2 = params.sigma**2
    if params.tau > 0:
        # The lead over k boards is Normal(k*mu, k*sigma^2): it adds k/sigma^2 to the
        # precision of the belief about mu and lead/sigma^2 to its precision-weighted mean
        # (nothing when no board is scored: a lead then is penalties only).
        var_mu = 1.0 / (1.0 / params.tau**2 + boards_played / sigma2)
        evidence = lead / sigma2 if boards_played else 0.0
        mu = (mu0 / params.tau**2 + evidence) * var_mu
    else:
        var_mu, mu = 0.0, mu0
    n = boards_left
    if n == 0 and abs(lead) >= 0.5:
        return 1.0 if lead > 0 else 0.0
    exact = n <= EXACT_BOARDS
    tie_break = _tie_break(mu, var_mu, params, exact=exact)
    if n == 0:
        return tie_break
    if exact:
        chance = 0.0
        for w, z in zip(_GH_WEIGHTS, _GH_NODES, strict=True):
            win, tie = _exact(lead, n, _tilt(mu + math.sqrt(var_mu) * z))
            chance += w * (win + tie * tie_break)
        return min(1.0, max(0.0, chance))
    sd = math.sqrt(n * sigma2 + n * n * var_mu)
    mean = lead + n * mu
    win = 1.0 - _UNIT.cdf((0.5 - mean) / sd)
    tie = _UNIT.cdf((0.5 - mean) / sd) - _UNIT.cdf((-0.5 - mean) / sd)
    return min(1.0, max(0.0, win + tie * tie_break))


def chances(
    lead_imps: float,
    boards_played: int,
    boards_left: int,
    elo_home: float | None,
    elo_visitors: float | None,
    params: ChanceParams = DEFAULT,
) -> tuple[float, float]:
    """``(home, visitors)`` chances to win; they add up to 1.

    >>> [round(c, 9) for c in chances(0, 16, 16, None, None)]
    [0.5, 0.5]
    """
    home = chance_to_win(lead_imps, boards_played, boards_left, elo_home, elo_visitors, params)
    return home, 1.0 - home


@dataclass(frozen=True, slots=True)
class Parameter:
    name: str
    value: float
    meaning: str


def explain(params: ChanceParams = DEFAULT) -> tuple[Parameter, ...]:
    """The parameters with their values and a short explanation each (for a page or the API).

    >>> [(p.name, p.value) for p in explain()][:3]
    [('sigma', 6.2), ('tau', 1.0), ('elo_scale', 400.0)]
    """
    return (
        Parameter(
            "sigma",
            params.sigma,
            "IMPs: standard deviation of one board's IMP difference between two teams, "
            "estimated from real two-table match records",
        ),
        Parameter(
            "tau",
            params.tau,
            "IMPs a board: how much the strength difference of two teams may differ from what "
            "their Elo says; the score so far corrects the Elo by that much",
        ),
        Parameter(
            "elo_scale",
            params.elo_scale,
            "Elo points for odds of 10 to 1 in a standard match (the Elo convention)",
        ),
        Parameter(
            "reference_boards",
            float(params.reference_boards),
            "boards of the standard match the Elo expectation is about (R12.1)",
        ),
        Parameter(
            "extra_segment_boards",
            float(params.extra_segment_boards),
            "boards of each extra segment that breaks a tie (R12.5)",
        ),
    )


@dataclass(frozen=True, slots=True)
class Estimate:
    sigma: float
    """Pooled within-match standard deviation of the per-board IMP difference."""
    tau: float
    """Spread of the per-board strength difference: ``sqrt(mean((T^2 - n sigma^2) / n^2))``
    over the matches (``T`` a match's total, ``n`` its boards; the team order is arbitrary, so
    the mean difference is 0)."""
    matches: int
    boards: int


def estimate(matches: list[list[int]]) -> Estimate:
    """``sigma`` and ``tau`` by the method of moments from matches given board by board.

    >>> e = estimate([[3, -3, 0, 0], [1, 1, -1, -1]])
    >>> round(e.sigma, 3), e.tau, e.matches, e.boards
    (1.915, 0.0, 2, 8)
    """
    ss = 0.0
    df = 0
    boards = 0
    for imps in matches:
        n = len(imps)
        if n < 2:
            continue
        m = sum(imps) / n
        ss += sum((x - m) ** 2 for x in imps)
        df += n - 1
        boards += n
    if df == 0:
        raise ValueError("no match of two boards or more")
    sigma2 = ss / df
    used = [imps for imps in matches if len(imps) >= 2]
    excess = sum((sum(x) ** 2 - len(x) * sigma2) / len(x) ** 2 for x in used) / len(used)
    return Estimate(math.sqrt(sigma2), math.sqrt(max(excess, 0.0)), len(used), boards)
