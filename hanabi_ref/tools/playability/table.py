"""Appendix A of the thesis, generated [PL-table].

For every count vector (x_1, …, x_5) of ten single-colour cards with each value present
(126 of them, in the thesis' order) and every hand size m = 1, …, 5: the number of
(5, m)-playable sequences among the T(x_1, …, x_5) distinct ones.
"""

from __future__ import annotations

from itertools import product

import attrs

from hanabi_ref.tools.playability.composition import multinomial
from hanabi_ref.tools.playability.solver import PlayableCounter

HAND_SIZES = (1, 2, 3, 4, 5)
LENGTH = 10
VALUES = 5


@attrs.frozen
class Row:
    counts: tuple[int, ...]
    total: int
    playable: tuple[int, ...]  # one per hand size in HAND_SIZES

    @property
    def fractions(self) -> tuple[float, ...]:
        return tuple(count / self.total for count in self.playable)


def appendix_a_counts() -> list[tuple[int, ...]]:
    """The 126 count vectors, lexicographically ascending as printed in Appendix A."""
    return [c for c in product(range(1, LENGTH + 1), repeat=VALUES) if sum(c) == LENGTH]


def appendix_a() -> list[Row]:
    """The whole table; one memo per hand size, shared by all rows [PL-table, PL-count]."""
    cards = [(value, 1) for value in range(1, VALUES + 1)]
    counters = [PlayableCounter(cards, m, VALUES) for m in HAND_SIZES]
    return [
        Row(counts, multinomial(counts), tuple(counter.count(counts) for counter in counters))
        for counts in appendix_a_counts()
    ]
