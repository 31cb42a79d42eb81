"""Statistics of simulated games: mean, standard error, 95% intervals, score histograms.

The interval for a mean is the normal approximation mean ± z · s / √n (s the sample
standard deviation with n − 1 in the denominator); with the thousands of games a
simulation plays, the t correction changes it by less than 0.1%.  The interval for a
rate (perfect games, strikeouts, playable decks) is Wilson's score interval, which stays
inside [0, 1] and behaves at rates near 0 and 1, where perfect-game rates live.

:func:`outcome_at` draws from a discrete distribution with one uniform number (the peer
engines' chance nodes, as the benchmarks and comparisons drive them).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TypeVar

Z_95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution: two-sided 95% intervals."""


def mean(values: Sequence[float]) -> float:
    """The arithmetic mean; an empty sample is an error."""
    if not values:
        raise ValueError("mean of an empty sample")
    return math.fsum(values) / len(values)


def standard_error(values: Sequence[float]) -> float:
    """s / √n with the sample standard deviation s (n − 1 in its denominator); 0 for n = 1."""
    n = len(values)
    if n < 2:
        return 0.0 if n == 1 else _empty()
    centre = mean(values)
    variance = math.fsum((value - centre) ** 2 for value in values) / (n - 1)
    return math.sqrt(variance / n)


def mean_interval(values: Sequence[float], z: float = Z_95) -> tuple[float, float]:
    """The normal-approximation interval mean ± z · standard error (95% by default)."""
    centre, spread = mean(values), z * standard_error(values)
    return centre - spread, centre + spread


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Wilson's score interval for a binomial proportion (95% by default)."""
    if trials <= 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials > 0, got {successes}/{trials}")
    phat = successes / trials
    denominator = 1 + z * z / trials
    centre = (phat + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(phat * (1 - phat) / trials + z * z / (4 * trials * trials)) / denominator
    # At 0 and at n successes the bound is exactly 0 (resp. 1); rounding must not move it.
    low = 0.0 if successes == 0 else max(0.0, centre - spread)
    high = 1.0 if successes == trials else min(1.0, centre + spread)
    return low, high


def percentile(sorted_values: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` of the sorted values lie (nearest rank)."""
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def histogram(scores: Sequence[int], max_score: int) -> list[int]:
    """How many games ended with each score 0, 1, …, max_score."""
    counts = [0] * (max_score + 1)
    for score in scores:
        if not 0 <= score <= max_score:
            raise ValueError(f"score {score} outside 0..{max_score}")
        counts[score] += 1
    return counts


Outcome = TypeVar("Outcome")


def outcome_at(outcomes: Sequence[tuple[Outcome, float]], point: float) -> Outcome:
    """The outcome whose share of [0, 1) holds ``point``: the first of the (outcome,
    probability) pairs whose cumulative probability exceeds it (the last one if rounding
    leaves ``point`` past them all).  For ``point`` uniform on [0, 1) each outcome comes
    with its probability, at the cost of one uniform number and a scan."""
    total = 0.0
    for outcome, probability in outcomes:
        total += probability
        if point < total:
            return outcome
    return outcomes[-1][0]


def _empty() -> float:
    raise ValueError("standard error of an empty sample")
