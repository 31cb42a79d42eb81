"""Deterministic decks: a seed fixes S0 through a documented algorithm [D-seed, D-explicit].

The generator is SplitMix64 (64-bit arithmetic, no floating point, nothing from
Python's ``random`` or ``hash``), so a seed gives the same deck on every Python version
and platform.  The shuffle is Fisher–Yates from the last index down with unbiased
bounded draws by rejection.  ``spec/rules.md`` [D-seed] states the algorithm so that
other engines can reproduce our decks.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import TypeVar

from hanabi_ref.errors import ConfigError
from hanabi_ref.rules import GameConfig

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15
T = TypeVar("T")


def check_seed(seed: object) -> int:
    """[D-seed] a seed is an integer in 0..2^64-1; anything else is refused in one line."""
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MASK64:
        raise ConfigError(f"seed: must be an integer in 0..2^64-1, got {seed!r}")
    return seed


class SplitMix64:
    """The SplitMix64 generator [D-seed]."""

    def __init__(self, seed: int) -> None:
        check_seed(seed)
        self.state = seed

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = (self.state + GOLDEN) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in 0..bound-1, by rejection of the biased top range [D-seed]."""
        limit = (1 << 64) - (1 << 64) % bound
        while True:
            x = self.next64()
            if x < limit:
                return x % bound

    def choice(self, items: Sequence[T]) -> T:
        """A uniformly chosen element."""
        return items[self.below(len(items))]


def derive_seed(seed: int, *labels: int) -> int:
    """A seed for a sub-stream (e.g. one seat's strategy), one-way from ``seed`` and labels
    [D-derive]: the first 8 bytes (little-endian) of BLAKE2b-64 keyed with
    ``b"hanabi_ref/derive"`` over the seed and labels as 8-byte little-endian words.

    One-way, so a strategy cannot compute the game seed (and from it the deck) from its
    own seed by inverting the derivation."""
    data = b"".join((value & MASK64).to_bytes(8, "little") for value in (seed, *labels))
    digest = hashlib.blake2b(data, digest_size=8, key=b"hanabi_ref/derive").digest()
    return int.from_bytes(digest, "little")


_LIMITS: list[int] = [0]


def _limits(size: int) -> list[int]:
    """``limits[m]`` = 2^64 - (2^64 mod m), below(m)'s rejection bound, for m < ``size``
    and beyond (a table that grows as needed, kept between calls)."""
    while len(_LIMITS) <= size:
        _LIMITS.append((1 << 64) - (1 << 64) % len(_LIMITS))
    return _LIMITS


def shuffle(items: Sequence[T], seed: int) -> tuple[T, ...]:
    """Fisher–Yates, last index down: for i = N-1..1 swap items[i], items[below(i+1)] [D-seed].

    The generator's steps are written out in the loop (the same arithmetic as
    :meth:`SplitMix64.next64` and :meth:`SplitMix64.below`, checked against them in
    tests/test_dealing.py): a deck is dealt for every game, and method calls per card
    were most of its cost."""
    state = check_seed(seed)
    result = list(items)
    limits = _limits(len(result))
    for i in range(len(result) - 1, 0, -1):
        bound = i + 1
        limit = limits[bound]
        while True:
            state = (state + GOLDEN) & MASK64
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
            z ^= z >> 31
            if z < limit:
                break
        j = z % bound
        result[i], result[j] = result[j], result[i]
    return tuple(result)


def deck_from_seed(config: GameConfig, seed: int) -> tuple[int, ...]:
    """S0 for a seed: the canonical deck [D-canonical] shuffled [D-seed]; index 0 is s_1."""
    return shuffle(config.canonical_deck, seed)
