"""The calibration check the chances' tests share (``test_chances``: a match;
``test_event_chances_calibration``: the event)."""

from __future__ import annotations

import math
from collections.abc import Sequence


def assert_calibrated(
    predictions: Sequence[tuple[float, float]],
    *,
    label: str,
    brier_below: float,
    gap_below: float,
) -> None:
    """``predictions``: (chance given, 1 if it happened else 0; a half for a tie). The Brier
    score is below ``brier_below``; in every tenth of [0, 1] with 30 predictions or more, the
    observed share is within 3.5 binomial standard errors of the mean chance given; the
    size-weighted mean gap is below ``gap_below``."""
    brier = sum((p - o) ** 2 for p, o in predictions) / len(predictions)
    assert brier < brier_below
    bins: list[list[tuple[float, float]]] = [[] for _ in range(10)]
    for p, o in predictions:
        bins[min(9, int(p * 10))].append((p, o))
    gap = 0.0
    for b in bins:
        if not b:
            continue
        predicted = sum(p for p, _ in b) / len(b)
        observed = sum(o for _, o in b) / len(b)
        gap += abs(observed - predicted) * len(b)
        if len(b) >= 30:
            se = math.sqrt(max(predicted * (1 - predicted), 0.01) / len(b))
            assert abs(observed - predicted) <= 3.5 * se, (label, predicted, observed, len(b))
    assert gap / len(predictions) < gap_below
