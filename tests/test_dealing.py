"""Decks: the canonical order, seeded shuffles with SplitMix64 and Fisher–Yates, and
explicit decks [D-canonical, D-seed, D-explicit, 2.9-S0]."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.dealing import (
    M32,
    WORDS_LIMIT,
    SplitMix64,
    deck_from_seed,
    derive_seed,
    is_accepted_in_words,
    next_in_words,
    rejected_from,
    remainder_in_words,
    shuffle,
    shuffle_in_words,
    shuffle_with_rejections,
    splitmix_output,
    splitmix_outputs,
)
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.players.strategies import STRATEGIES
from hanabi_ref.engine.transition import initial_state
from tests.helpers import card, configs, expected_multiset
from hanabi_ref.engine.tables import tables_for

MASK = (1 << 64) - 1
Deck = tuple[int, ...]


def reference_splitmix64(seed: int, count: int) -> list[int]:
    """SplitMix64 as published (Steele, Lea and Flood 2014; Vigna's splitmix64.c)."""
    outputs, x = [], seed
    for _ in range(count):
        x = (x + 0x9E3779B97F4A7C15) & MASK
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        outputs.append(z ^ (z >> 31))
    return outputs


def test_splitmix64_reference_values() -> None:
    """[D-seed] the first outputs for seed 0 are the published SplitMix64 values
    0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F, and seed 1234567 gives the
    values quoted in spec/rules.md."""
    rng = SplitMix64(0)
    assert [rng.next64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    rng = SplitMix64(1234567)
    assert [rng.next64() for _ in range(5)] == [
        6457827717110365317,
        3203168211198807973,
        9817491932198370423,
        4593380528125082431,
        16408922859458223821,
    ]


@given(st.integers(0, MASK))
def test_splitmix64_matches_the_published_algorithm(seed: int) -> None:
    """[D-seed] for any seed, the generator's outputs are those of the published algorithm."""
    rng = SplitMix64(seed)
    assert [rng.next64() for _ in range(4)] == reference_splitmix64(seed, 4)


@given(st.integers(0, MASK), st.integers(1, 1 << 64))
def test_bounded_draws_are_in_range(seed: int, bound: int) -> None:
    """[D-seed] below(m) is in 0..m-1 and is x mod m for the first output x below
    2^64 - (2^64 mod m) (rejection sampling as specified)."""
    value = SplitMix64(seed).below(bound)
    assert 0 <= value < bound
    limit = (1 << 64) - (1 << 64) % bound
    expected = next(x for x in reference_splitmix64(seed, 64) if x < limit) % bound
    assert value == expected


def test_below_one_is_always_zero() -> None:
    """[D-seed] below(1) = 0."""
    rng = SplitMix64(99)
    assert {rng.below(1) for _ in range(20)} == {0}


@pytest.mark.parametrize("seed", [-1, 1 << 64, True, 1.5])
def test_invalid_seeds(seed: object) -> None:
    """[D-seed] a seed is an integer in 0..2^64-1; anything else is a ConfigError on 'seed'."""
    with pytest.raises(ConfigError) as error:
        SplitMix64(seed)  # type: ignore[arg-type]
    assert str(error.value).startswith("seed:")


def reference_shuffle(items: list[int], seed: int) -> list[int]:
    """Fisher–Yates from the last index down, j = below(i + 1), as spec/rules.md D-seed says."""
    outputs = iter(reference_splitmix64(seed, 10_000))
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        bound = i + 1
        limit = (1 << 64) - (1 << 64) % bound
        x = next(outputs)
        while x >= limit:
            x = next(outputs)
        j = x % bound
        result[i], result[j] = result[j], result[i]
    return result


@settings(max_examples=50, deadline=None)
@given(configs(), st.integers(0, MASK))
def test_deck_from_seed_is_the_specified_shuffle(config: GameConfig, seed: int) -> None:
    """[D-seed, D-canonical, 2.9-S0] deck_from_seed is the canonical order shuffled by the
    specified algorithm, a permutation of the composition, and the same on every call."""
    deck = deck_from_seed(config, seed)
    assert Counter(deck) == expected_multiset(config)
    assert list(deck) == reference_shuffle(list(tables_for(config).canonical_deck), seed)
    assert deck_from_seed(config, seed) == deck


@settings(max_examples=60, deadline=None)
@given(st.integers(0, MASK), st.integers(0, 70))
def test_the_shuffle_in_words_is_the_specified_shuffle(seed: int, size: int) -> None:
    """[D-seed] the shuffle the compiled build runs, on 32-bit halves, is the specified
    one, for deck-sized lists and the empty and one-item ones."""
    items = list(range(size))
    assert list(shuffle_in_words(items, seed)) == reference_shuffle(items, seed)
    assert shuffle_in_words(items, seed) == shuffle(items, seed)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, MASK))
def test_the_generator_in_words_is_splitmix64(seed: int) -> None:
    """[D-seed] next_in_words gives SplitMix64's outputs and states as 32-bit halves."""
    hi, lo = seed >> 32, seed & M32
    for expected in reference_splitmix64(seed, 20):
        hi, lo, out_hi, out_lo = next_in_words(hi, lo)
        assert out_hi << 32 | out_lo == expected
    assert hi << 32 | lo == (seed + 20 * 0x9E3779B97F4A7C15) & MASK


def test_bounded_draws_in_words_reject_and_reduce_as_specified() -> None:
    """[D-seed] below(m) on halves: an output is kept exactly when x < 2^64 - (2^64 mod m),
    and j is x mod m, checked on both sides of every limit and at the extremes."""
    table = rejected_from(WORDS_LIMIT)
    bounds = [*range(1, 300), 1 << 10, 3 << 9, 1000, 4099, WORDS_LIMIT - 1, WORDS_LIMIT]
    for m in bounds:
        limit = (1 << 64) - (1 << 64) % m
        for x in {0, 1, m - 1, m, (1 << 32) - 1, 1 << 32, limit - 2, limit - 1, limit, limit + 1, MASK}:
            if 0 <= x <= MASK:
                assert is_accepted_in_words(x >> 32, x & M32, table[m]) == (x < limit), (m, x)
                assert remainder_in_words(x >> 32, x & M32, m) == x % m, (m, x)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, MASK), st.integers(0, 300))
def test_outputs_computed_at_once_are_the_generator_s(seed: int, count: int) -> None:
    """[D-seed] splitmix_outputs (every output in its own lane of one integer) and
    splitmix_output (one output by its index) give SplitMix64's outputs in order."""
    expected = reference_splitmix64(seed, count)
    assert splitmix_outputs(seed, count) == expected
    for index in {0, count // 2, count - 1} if count else ():
        assert splitmix_output(seed, index) == expected[index]


def unmix(z: int) -> int:
    """The state whose SplitMix64 output is z: the output function undone step by step
    (xor-shifts by iteration, products by the constants' inverses modulo 2^64)."""

    def unshift(value: int, bits: int) -> int:
        result = value
        for _ in range(64 // bits + 1):
            result = value ^ (result >> bits)
        return result

    z = unshift(z, 31)
    z = unshift((z * pow(0x94D049BB133111EB, -1, 1 << 64)) & MASK, 27)
    return unshift((z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & MASK, 30)


def seed_with_outputs(outputs: dict[int, int]) -> int:
    """A seed whose output number ``index`` is ``value`` for one entry of ``outputs``
    (SplitMix64's state is seed + (index + 1) * golden); the others are checked."""
    index, value = next(iter(outputs.items()))
    seed = (unmix(value) - (index + 1) * 0x9E3779B97F4A7C15) & MASK
    produced = reference_splitmix64(seed, max(outputs) + 1)
    assert all(produced[i] == v for i, v in outputs.items())
    return seed


@pytest.mark.parametrize("size, top", [(50, 0), (50, 47), (60, 10), (3, 0), (1000, 500)])
def test_rejected_draws_take_the_next_output(size: int, top: int) -> None:
    """[D-seed] a draw at or above 2^64 - (2^64 mod m) is rejected and the next output is
    drawn: seeds are built (by undoing the output function) whose output number ``top``
    is 2^64 - 1, above every limit whose m is not a power of two; both shuffles then
    agree with the specified algorithm."""
    seed = seed_with_outputs({top: MASK})
    bound = size - top
    assert bound & (bound - 1) and reference_splitmix64(seed, top + 1)[top] >= (1 << 64) - (1 << 64) % bound
    items = list(range(size))
    expected = reference_shuffle(items, seed)
    assert list(shuffle(items, seed)) == expected
    assert list(shuffle_in_words(items, seed)) == expected
    # keeping the rejected output instead would give another deck
    outputs, kept = iter(reference_splitmix64(seed, size)), list(items)
    for i in range(size - 1, 0, -1):
        j = next(outputs) % (i + 1)
        kept[i], kept[j] = kept[j], kept[i]
    assert kept != expected


def test_decks_differ_across_seeds() -> None:
    """[D-seed] 200 seeds give 200 different classic decks."""
    config = make_config(2)
    assert len({deck_from_seed(config, seed) for seed in range(200)}) == 200


def test_shuffle_keeps_the_items() -> None:
    """[D-seed] a shuffle is a permutation; empty and one-element lists are unchanged."""
    assert shuffle([], 3) == ()
    assert shuffle(["a"], 3) == ("a",)
    assert sorted(shuffle(list(range(30)), 3)) == list(range(30))


def test_derived_seeds() -> None:
    """[D-seed, 2.17-history] each seat's strategy seed is derived from the game seed and
    the seat: reproducible, different per seat and per game seed."""
    seeds = {derive_seed(s, seat) for s in range(10) for seat in range(1, 7)}
    assert len(seeds) == 60
    assert derive_seed(5, 2) == derive_seed(5, 2)
    assert all(0 <= s <= MASK for s in seeds)


def test_canonical_order() -> None:
    """[D-canonical] suit by suit, value by value, copies together: No Variant begins
    R1 R1 R1 R2 R2 R3 R3 and ends P4 P4 P5."""
    config = make_config(2)
    expected = [
        card(config, value, suit)
        for suit in range(5)
        for value, copies in zip(range(1, 6), (3, 2, 2, 2, 1))
        for _ in range(copies)
    ]
    assert list(tables_for(config).canonical_deck) == expected


def test_explicit_deck_is_used() -> None:
    """[D-explicit] an explicit deck is dealt as given, and play_game records it."""
    config = make_config(2)
    deck = tuple(reversed(tables_for(config).canonical_deck))
    assert initial_state(config, deck).deck == deck
    record = play_game(config, STRATEGIES["simple"], seed=4, deck=deck)
    assert record.trace.deck == deck and record.final.deck == deck


@pytest.mark.parametrize(
    "change, prefix",
    [
        (lambda d: d[:-1], "deck:"),
        (lambda d: d + (0,), "deck:"),
        (lambda d: (d[-1],) + d[1:], "deck:"),
        (lambda d: d[:3] + (25,) + d[4:], "deck[3]:"),
        (lambda d: d[:3] + (-1,) + d[4:], "deck[3]:"),
    ],
)
def test_explicit_deck_must_be_the_composition(change: Callable[[Deck], Deck], prefix: str) -> None:
    """[D-explicit, 2.9-S0, E-17] a deck that is not a permutation of the composition (a card
    missing, one too many, a copy replaced, an identity outside Cards(H)) is refused with
    a message naming the deck or the offending index."""
    config = make_config(2)
    deck = change(tables_for(config).canonical_deck)
    with pytest.raises(ConfigError) as error:
        initial_state(config, deck)
    assert str(error.value).startswith(prefix), str(error.value)


@settings(max_examples=30, deadline=None)
@given(st.integers(0, MASK), st.integers(2, 120))
def test_the_shuffle_that_tests_every_draw_is_the_specified_shuffle(seed: int, size: int) -> None:
    """[D-seed] the shuffle that tests each bounded draw for rejection (which shuffle runs
    only when some output lies in the top N values) is the specified algorithm too."""
    items = list(range(size))
    assert list(shuffle_with_rejections(list(items), seed, splitmix_outputs(seed, size - 1))) == reference_shuffle(items, seed)
