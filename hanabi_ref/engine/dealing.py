"""Deterministic decks: a seed fixes S0 through a documented algorithm [D-seed, D-explicit].

The generator is SplitMix64 (64-bit arithmetic, no floating point, nothing from
Python's ``random`` or ``hash``), so a seed gives the same deck on every Python version
and platform.  The shuffle is Fisher–Yates from the last index down with unbiased
bounded draws by rejection.  ``spec/rules.md`` [D-seed] states the algorithm so that
other engines can reproduce our decks.
"""

from __future__ import annotations

import functools
import hashlib
import operator
import struct
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

from hanabi_ref.base.errors import ConfigError
from hanabi_ref.engine.cards import Identity
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.tables import tables_for

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
        return mix64(self.state)

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


def mix64(state: int) -> int:
    """SplitMix64's output for a state: z := state; z := (z xor (z >> 30)) * C1;
    z := (z xor (z >> 27)) * C2; z xor (z >> 31), modulo 2^64 [D-seed]."""
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    return z ^ (z >> 31)


def splitmix_output(seed: int, index: int) -> int:
    """Output number ``index`` (from 0) of SplitMix64 started at ``seed``: the state then
    is seed + (index + 1) * golden, modulo 2^64 [D-seed]."""
    return mix64((seed + (index + 1) * GOLDEN) & MASK64)


LANE: Final = 128
"""Bits per output in :func:`splitmix_outputs`: a 64-bit value times a 64-bit constant
stays below 2^128, so it never reaches the next lane."""

@functools.lru_cache(maxsize=256)
def _lane_tables(count: int) -> tuple[int, int, int, struct.Struct]:
    """For ``count`` lanes: a 1 in every lane, 2^64 - 1 in every lane, (k + 1) * golden
    mod 2^64 in lane k, and the layout of the lanes as bytes (two 64-bit words each,
    low first).

    Memoized by ``count`` alone (a deck size): the key is an integer and the value
    integers and a format that no one can change, at most 256 of them, so the memo holds
    nothing of a game and stays bounded."""
    ones = sum(1 << (LANE * k) for k in range(count))
    steps = sum((((k + 1) * GOLDEN) & MASK64) << (LANE * k) for k in range(count))
    return (ones, ones * MASK64, steps, struct.Struct(f"<{2 * count}Q"))


def splitmix_outputs(seed: int, count: int) -> list[int]:
    """The first ``count`` outputs of SplitMix64 started at ``seed``, all at once: output
    k is computed in bits 128k .. 128k+127 of one integer (its state is seed + (k + 1) *
    golden, which :func:`splitmix_output` computes alone), where every step of
    :func:`mix64` acts on each lane by itself, since each result is masked back to 64 bits
    before a product could reach the next lane.  The same numbers as the one-at-a-time
    generator (tests/test_dealing.py), for a few integer operations on long integers
    instead of a dozen per output."""
    if count <= 0:
        return []
    ones, low_words, steps, layout = _lane_tables(count)
    state = (seed * ones + steps) & low_words
    z = ((state ^ (state >> 30)) & low_words) * 0xBF58476D1CE4E5B9 & low_words
    z = ((z ^ (z >> 27)) & low_words) * 0x94D049BB133111EB & low_words
    z ^= z >> 31
    return list(layout.unpack(z.to_bytes(layout.size, "little"))[::2])


def derive_seed(seed: int, *labels: int) -> int:
    """A seed for a sub-stream (e.g. one seat's strategy) from ``seed`` and labels
    [D-derive]: the first 8 bytes (little-endian) of BLAKE2b-64 keyed with
    ``b"hanabi_ref/derive"`` over the seed and labels as 8-byte little-endian words.

    It cannot be inverted, but its key is public: from a seed derived from a *small*
    game seed, trying every small game seed finds it (and the deck) in about a second.
    A strategy's seed tells nothing of the deck only when the seeds cannot be guessed:
    ``--sealed`` draws them from the system [ISO-seeds]."""
    data = b"".join((value & MASK64).to_bytes(8, "little") for value in (seed, *labels))
    digest = hashlib.blake2b(data, digest_size=8, key=b"hanabi_ref/derive").digest()
    return int.from_bytes(digest, "little")


def _grown(table: list[int], size: int, entry: Callable[[int], int]) -> list[int]:
    """``table`` with ``entry(m)`` at every index m <= ``size`` (a table per bound m of
    below(m), grown as needed and kept between calls; entry 0 is a placeholder)."""
    while len(table) <= size:
        table.append(entry(len(table)))
    return table


_LIMITS: list[int] = [0]


def _limits(size: int) -> list[int]:
    """``limits[m]`` = 2^64 - (2^64 mod m), below(m)'s rejection bound, for m <= ``size``."""
    return _grown(_LIMITS, size, lambda m: (1 << 64) - (1 << 64) % m)


def shuffle(items: Sequence[T], seed: int) -> tuple[T, ...]:
    """Fisher–Yates, last index down: for i = N-1..1 swap items[i], items[below(i+1)] [D-seed].

    below(m) reads SplitMix64's outputs in order and rejects those at or above 2^64 -
    (2^64 mod m).  The outputs are computed at once by :func:`splitmix_outputs`, one per
    draw.  Since 2^64 mod m < m <= N, no draw is rejected when every output lies below
    2^64 - N, and then draw i is output i mod (i + 1) for every swap; otherwise (less
    likely than 2^-57 per deck) :func:`shuffle_with_rejections` draws one by one.  The
    compiled build runs :func:`shuffle_in_words` instead, the same shuffle on 32-bit
    halves, which it computes without long integers.  tests/test_dealing.py checks all
    three against the specified algorithm, rejections included."""
    state = check_seed(seed)
    if COMPILED and len(items) <= WORDS_LIMIT:
        return shuffle_in_words(items, state)
    result = list(items)
    size = len(result)
    outputs = splitmix_outputs(state, size - 1)
    if outputs and max(outputs) >= (1 << 64) - size:
        return shuffle_with_rejections(result, state, outputs)
    for i, j in zip(range(size - 1, 0, -1), map(operator.mod, outputs, range(size, 1, -1))):
        result[i], result[j] = result[j], result[i]
    return tuple(result)


def shuffle_with_rejections(result: list[T], state: int, outputs: list[int]) -> tuple[T, ...]:
    """:func:`shuffle` of the list ``result`` from the generator started at ``state``,
    whose first outputs are ``outputs``, with every bounded draw tested for rejection: a
    rejected draw takes the next output, and the outputs are extended by one with
    :func:`splitmix_output` for each [D-seed]."""
    limits = _limits(len(result))
    drawn = 0
    for i in range(len(result) - 1, 0, -1):
        bound = i + 1
        x = outputs[drawn]
        drawn += 1
        while x >= limits[bound]:
            outputs.append(splitmix_output(state, len(outputs)))
            x = outputs[drawn]
            drawn += 1
        j = x % bound
        result[i], result[j] = result[j], result[i]
    return tuple(result)


COMPILED: Final = not __file__.endswith(".py")
"""Whether this module runs from the compiled build (B-compiled)."""

WORDS_LIMIT: Final = 1 << 16
"""The largest list :func:`shuffle_in_words` shuffles (its remainders need bound^2 < 2^62)."""

M32: Final = 0xFFFFFFFF
M16: Final = 0xFFFF


def _times(hi: int, lo: int, c_hi: int, c_lo: int) -> tuple[int, int]:
    """(hi * 2^32 + lo) * (c_hi * 2^32 + c_lo) mod 2^64 as 32-bit halves, from products of
    16-bit pieces, so that no intermediate value reaches 2^52."""
    l0, l1, c0, c1 = lo & M16, lo >> 16, c_lo & M16, c_lo >> 16
    middle = l1 * c0 + l0 * c1
    low = l0 * c0 + ((middle & M16) << 16)
    # lo * c_lo = carry * 2^32 + (low mod 2^32); the cross products count mod 2^32 only.
    carry = l1 * c1 + (middle >> 16) + (low >> 32)
    h0, h1, d0, d1 = hi & M16, hi >> 16, c_hi & M16, c_hi >> 16
    cross = h0 * c0 + ((h1 * c0 + h0 * c1) << 16) + l0 * d0 + ((l1 * d0 + l0 * d1) << 16)
    return (carry + cross) & M32, low & M32


def next_in_words(hi: int, lo: int) -> tuple[int, int, int, int]:
    """:meth:`SplitMix64.next64` on 32-bit halves: from the state (hi, lo), the next
    state and the output, as (state_hi, state_lo, out_hi, out_lo) [D-seed]."""
    lo += 0x7F4A7C15
    hi = (hi + 0x9E3779B9 + (lo >> 32)) & M32
    lo &= M32
    z_hi, z_lo = hi ^ (hi >> 30), lo ^ (((hi << 2) | (lo >> 30)) & M32)
    z_hi, z_lo = _times(z_hi, z_lo, 0xBF58476D, 0x1CE4E5B9)
    z_hi, z_lo = z_hi ^ (z_hi >> 27), z_lo ^ (((z_hi << 5) | (z_lo >> 27)) & M32)
    z_hi, z_lo = _times(z_hi, z_lo, 0x94D049BB, 0x133111EB)
    return hi, lo, z_hi ^ (z_hi >> 31), z_lo ^ (((z_hi << 1) | (z_lo >> 31)) & M32)


_REJECTED_FROM: list[int] = [0]


def rejected_from(size: int) -> list[int]:
    """``table[m]`` for m <= ``size``: below(m) rejects an output x >= 2^64 - r, where
    r = 2^64 mod m < 2^32, that is x with hi = 2^32 - 1 and lo >= table[m] = 2^32 - r
    (2^32 when r = 0: nothing is rejected)."""
    return _grown(_REJECTED_FROM, size, lambda m: (1 << 32) - (1 << 64) % m)


def shuffle_in_words(items: Sequence[T], seed: int) -> tuple[T, ...]:
    """:func:`shuffle` with every 64-bit value held as two 32-bit halves (hi, lo): the
    same generator, bounded draws and swaps, on integers below 2^52, which the compiled
    build keeps unboxed [D-seed].  For lists of at most :data:`WORDS_LIMIT` items; the
    interpreter runs it too, more slowly (tests/test_dealing.py compares the two)."""
    hi, lo = seed >> 32, seed & M32
    result = list(items)
    table = rejected_from(len(result))
    for i in range(len(result) - 1, 0, -1):
        bound = i + 1
        while True:
            hi, lo, z_hi, z_lo = next_in_words(hi, lo)
            if is_accepted_in_words(z_hi, z_lo, table[bound]):
                break
        j = remainder_in_words(z_hi, z_lo, bound)
        result[i], result[j] = result[j], result[i]
    return tuple(result)


def is_accepted_in_words(hi: int, lo: int, rejected_from: int) -> bool:
    """Whether below(m) keeps the output (hi, lo), given m's entry of :func:`rejected_from`."""
    return hi != M32 or lo < rejected_from


def remainder_in_words(hi: int, lo: int, bound: int) -> int:
    """(hi * 2^32 + lo) mod bound, for bound <= 2^16: ((hi mod m) * (2^32 mod m) + lo) mod
    m, every term below 2^62."""
    return ((hi % bound) * ((1 << 32) % bound) + lo) % bound


def deck_from_seed(config: GameConfig, seed: int) -> tuple[Identity, ...]:
    """S0 for a seed: the canonical deck [D-canonical] shuffled [D-seed]; index 0 is s_1."""
    return shuffle(tables_for(config).canonical_deck, seed)
