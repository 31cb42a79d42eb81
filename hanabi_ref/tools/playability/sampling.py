"""Estimated playability by sampling shuffles and solving each exactly [PL-sample]."""

from __future__ import annotations

import random

import attrs

from hanabi_ref.base.errors import ConfigError
from hanabi_ref.tools.playability.composition import Composition
from hanabi_ref.tools.playability.solver import solve_types, table_for
from hanabi_ref.base.stats import wilson_interval

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
    # One table for every shuffle: the card types are those of the composition.
    table = table_for(composition.cards, hand_size, composition.target)
    deck = [index for index, count in enumerate(composition.counts) for _ in range(count)]
    playable = 0
    for _ in range(samples):
        rng.shuffle(deck)
        playable += solve_types(table, deck)
    low, high = wilson_interval(playable, samples)
    return Estimate(samples, playable, low, high)
