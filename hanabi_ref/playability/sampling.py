"""Estimated playability by sampling shuffles and solving each exactly [PL-sample]."""

from __future__ import annotations

import math
import random

import attrs

from hanabi_ref.errors import ConfigError
from hanabi_ref.playability.composition import Composition
from hanabi_ref.playability.solver import solve

Z_95 = 1.959963984540054
"""The 97.5% quantile of the standard normal distribution."""


@attrs.frozen
class Estimate:
    """A sampled fraction of playable sequences with its 95% Wilson score interval."""

    samples: int
    playable_samples: int
    low: float
    high: float

    @property
    def fraction(self) -> float:
        return self.playable_samples / self.samples


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """The Wilson score interval for a binomial proportion [PL-sample]."""
    if trials <= 0 or not 0 <= successes <= trials:
        raise ValueError(f"need 0 <= successes <= trials and trials > 0, got {successes}/{trials}")
    phat = successes / trials
    denominator = 1 + z * z / trials
    centre = (phat + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(phat * (1 - phat) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - spread), min(1.0, centre + spread)


def estimate(composition: Composition, hand_size: int, samples: int, seed: int) -> Estimate:
    """Shuffle the deck ``samples`` times (seeded) and decide each shuffle exactly [PL-sample].

    Every shuffle is uniform over orders of the physical cards, hence uniform over the
    distinct sequences of the composition, so the fraction estimates playable / T.
    """
    if hand_size < 1:
        raise ConfigError(f"--hand-size: must be at least 1, got {hand_size}")
    if samples < 1:
        raise ConfigError(f"--samples: must be at least 1, got {samples}")
    rng = random.Random(seed)
    deck = list(composition.deck)
    playable = 0
    for _ in range(samples):
        rng.shuffle(deck)
        playable += solve(deck, composition.target, hand_size)
    low, high = wilson_interval(playable, samples)
    return Estimate(samples, playable, low, high)
