"""Estimated playability by sampling shuffles and solving each exactly [PL-sample]."""

from __future__ import annotations

import random

import attrs

from hanabi_ref.errors import ConfigError
from hanabi_ref.playability.composition import Composition
from hanabi_ref.playability.solver import solve
from hanabi_ref.sim.stats import wilson_interval

__all__ = ["Estimate", "estimate", "wilson_interval"]

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
