"""Machine check of proofs/playability_search.md [PL-dominance, PL-solve, PL-count, 3.28, 5.1].

1. Lemma 1 directly: a plain search over *physical* single-player states (hand as a
   multiset, stack heights, cards drawn) written here, sharing no code with the solver,
   gives the best reachable score from every reachable state; whenever one state's
   position dominates another's, its best score is at least as high.
2. PL-solve, Algorithm 3.29 and Algorithm 3.36 against the exhaustive open-game search of
   3.4-search on every word of the listed sizes (the longest words in the deep set), in
   both end readings.
3. PL-count against counting those words one by one.
4. Conjecture 5.1: the counting recursion (no end) against m! · m^(k−m) for every m ≤ k ≤ 11
   and against the exhaustive search on every permutation for k ≤ 5 (k = 12 and k = 6 in
   the deep set, ``python -m pytest -m deep``).
"""

from __future__ import annotations

import math
from collections import Counter as Multiset
from collections.abc import Sequence
from functools import cache
from itertools import permutations, product

import pytest

from hanabi_ref.tools.playability.algorithms import is_playable_multi, is_playable_single
from hanabi_ref.tools.playability.composition import Card, single_colour
from hanabi_ref.tools.playability.opengame import is_sequence_playable_by_search
from hanabi_ref.tools.playability.solver import PlayableCounter, count_playable, solve

# ------------------------------------------------------------------ 1. Lemma 1, physically

Hand = tuple[Card, ...]  # sorted multiset
Heights = tuple[int, ...]


def best_score(sequence: tuple[Card, ...], m: int, hand: Hand, heights: Heights, drawn: int, actions_left: int) -> int:
    """Best final score from a physical state: every play or discard of every card [3.4]."""
    return _best(sequence, m, hand, heights, drawn, actions_left)


@cache
def _best(sequence: tuple[Card, ...], m: int, hand: Hand, heights: Heights, drawn: int, actions_left: int) -> int:
    best = sum(heights)
    if actions_left == 0:
        return best
    for card in set(hand):
        rest = list(hand)
        rest.remove(card)
        next_drawn = drawn
        if drawn < len(sequence):
            rest.append(sequence[drawn])
            next_drawn += 1
        value, colour = card
        after = tuple(sorted(rest))
        if heights[colour - 1] == value - 1:  # play
            raised = heights[: colour - 1] + (value,) + heights[colour:]
            best = max(best, _best(sequence, m, after, raised, next_drawn, actions_left - 1))
        best = max(best, _best(sequence, m, after, heights, next_drawn, actions_left - 1))  # discard
    return best


def reachable_states(sequence: tuple[Card, ...], m: int, colours: int) -> dict[int, set[tuple[Hand, Heights]]]:
    """Every physical state after each number of actions (full exploration, no pruning)."""
    layer = {(tuple(sorted(sequence[:m])), (0,) * colours)}
    layers = {0: set(layer)}
    for t in range(1, len(sequence) - m + 1):
        following = set()
        for hand, heights in layer:
            for card in set(hand):
                rest = list(hand)
                rest.remove(card)
                rest.append(sequence[m + t - 1])
                value, colour = card
                after = tuple(sorted(rest))
                following.add((after, heights))
                if heights[colour - 1] == value - 1:
                    following.add((after, heights[: colour - 1] + (value,) + heights[colour:]))
        layer = following
        layers[t] = set(layer)
    return layers


def position(hand: Hand, heights: Heights) -> tuple[Heights, frozenset[Card]]:
    """(L, K) of the proof: heights and the distinct useful identities held."""
    return heights, frozenset(card for card in hand if card[0] > heights[card[1] - 1])


def dominates(a: tuple[Heights, frozenset[Card]], b: tuple[Heights, frozenset[Card]]) -> bool:
    """Lemma 1's relation, written from the proof's text."""
    (la, ka), (lb, kb) = a, b
    played = {card for card in kb if card[0] <= la[card[1] - 1]}
    return all(x >= y for x, y in zip(la, lb)) and kb <= ka | played


LEMMA_WORDS = [
    ((1, 1), (2, 2), (1, 2), (3, 1), (2, 1), (1, 1), (3, 2), (2, 2)),
    ((3, 1), (2, 1), (2, 2), (1, 2), (1, 1), (3, 2), (2, 1), (1, 1), (2, 2)),
    ((4, 1), (2, 1), (3, 1), (1, 1), (3, 1), (2, 1), (1, 1), (1, 1), (4, 1)),
]


@pytest.mark.checks("PL-dominance")
@pytest.mark.parametrize("sequence", LEMMA_WORDS)
@pytest.mark.parametrize("m", [2, 3])
def test_lemma_1_dominance_on_physical_states(sequence: tuple[Card, ...], m: int) -> None:
    """[PL-dominance] Dominating positions never have a lower best score; and the best
    score of a state depends only on its position (the abstraction loses nothing)."""
    colours = max(colour for _, colour in sequence)
    compared = strict = 0
    for t, states in reachable_states(sequence, m, colours).items():
        actions_left = len(sequence) - m + 1 - t
        scored = [(position(h, l), best_score(sequence, m, h, l, m + t, actions_left)) for h, l in states]
        by_position: dict[tuple[Heights, frozenset[Card]], set[int]] = {}
        for pos, score in scored:
            by_position.setdefault(pos, set()).add(score)
        assert all(len(scores) == 1 for scores in by_position.values())
        for pa, sa in scored:
            for pb, sb in scored:
                if dominates(pa, pb):
                    compared += 1
                    assert sa >= sb, (t, pa, pb)
                    strict += sa > sb
    assert compared > 100 and strict > 0  # the check compared something, and dominance mattered


# ------------------------------------------------------------------ 2./3. deciders on every word


def words(alphabet: Sequence[int] | Sequence[Card], length: int) -> list[tuple[object, ...]]:
    return list(product(alphabet, repeat=length))


@pytest.mark.checks("PL-solve", "3.29", "3.28", "3.4-search", "PL-count")
@pytest.mark.parametrize("length", [3, 4, 5, pytest.param(6, marks=pytest.mark.deep), pytest.param(7, marks=pytest.mark.deep)])
def test_single_colour_words(length: int) -> None:
    """Every word over {1, 2, 3}: PL-solve and Algorithm 3.29 equal the exhaustive search
    [PL-solve, 3.29, 3.28, 3.4-search]; PL-count equals the word-by-word count [PL-count]."""
    playable_by_composition: Multiset[tuple[tuple[int, ...], int]] = Multiset()
    for word in words([1, 2, 3], length):
        sequence: tuple[int, ...] = word  # type: ignore[assignment]
        for m in range(1, min(4, length) + 1):
            for k in (2, 3):
                by_search = is_sequence_playable_by_search(sequence, k, m)
                assert solve(sequence, k, m) == by_search, (sequence, k, m)
                assert is_playable_single(sequence, k, m) == by_search, (sequence, k, m)
            no_end = is_sequence_playable_by_search(sequence, 3, m, end_on_empty_stack=False)
            assert solve(sequence, 3, m, end_on_empty_stack=False) == no_end
            counts = tuple(sequence.count(v) for v in (1, 2, 3))
            playable_by_composition[(counts, m)] += is_sequence_playable_by_search(sequence, 3, m)
    for (counts, m), playable in playable_by_composition.items():
        assert PlayableCounter([(1, 1), (2, 1), (3, 1)], m, 3).count(counts) == playable


CARDS: list[Card] = [(1, 1), (2, 1), (1, 2), (2, 2)]


@pytest.mark.checks("PL-solve", "3.36", "3.32", "3.4-search", "PL-count")
@pytest.mark.parametrize("length", [3, 4, pytest.param(5, marks=pytest.mark.deep), pytest.param(6, marks=pytest.mark.deep)])
def test_two_colour_words(length: int) -> None:
    """Every word over {1, 2} × {1, 2}: PL-solve and Algorithm 3.36 equal the exhaustive
    search [PL-solve, 3.36, 3.32, 3.4-search]; PL-count equals the count [PL-count]."""
    playable_by_composition: Multiset[tuple[tuple[int, ...], int]] = Multiset()
    for word in words(CARDS, length):
        sequence: tuple[Card, ...] = word  # type: ignore[assignment]
        for m in range(1, 4):
            for k in (2, 4):
                by_search = is_sequence_playable_by_search(sequence, k, m)
                assert solve(sequence, k, m) == by_search, (sequence, k, m)
                assert is_playable_multi(sequence, k, m) == by_search, (sequence, k, m)
            counts = tuple(sequence.count(card) for card in CARDS)
            playable_by_composition[(counts, m)] += is_sequence_playable_by_search(sequence, 4, m)
    for (counts, m), playable in playable_by_composition.items():
        assert PlayableCounter(CARDS, m, 4).count(counts) == playable


# ------------------------------------------------------------------ 4. Conjecture 5.1


def conjectured(k: int, m: int) -> int:
    """Conjecture 5.1 as printed: m! (m + 1)^(k − m) [5.1]."""
    return math.factorial(m) * int(pow(m + 1, k - m))


def proven(k: int, m: int) -> int:
    """Theorem 3 of playability_search.md: m! · m^(k − m) for k ≥ m [5.1]."""
    return math.factorial(m) * int(pow(m, k - m))


def count_without_end(k: int, m: int) -> int:
    return count_playable(single_colour((1,) * k), m, end_on_empty_stack=False)


@pytest.mark.checks("5.1")
def test_conjecture_5_1_counterexample_by_hand() -> None:
    """[5.1] k = 3, m = 2: exactly the four permutations named in the proof are playable."""
    playable = {p for p in permutations((1, 2, 3)) if is_sequence_playable_by_search(p, 3, 2, end_on_empty_stack=False)}
    assert playable == {(1, 2, 3), (1, 3, 2), (2, 1, 3), (3, 1, 2)}
    assert conjectured(3, 2) == 6


@pytest.mark.checks("5.1")
@pytest.mark.parametrize("k", [*range(1, 12), pytest.param(12, marks=pytest.mark.deep)])
def test_conjecture_5_1_fails_and_the_correct_count_holds(k: int) -> None:
    """[5.1] For every 1 ≤ m ≤ k, k ≤ 11 (the issue asks k ≤ 9; k = 12 in the deep set):
    the count equals m! m^(k−m), and the conjecture fails exactly when m < k."""
    for m in range(1, k + 1):
        counted = count_without_end(k, m)
        assert counted == proven(k, m), (k, m)
        assert (counted == conjectured(k, m)) == (m == k), (k, m)


@pytest.mark.checks("5.1")
def test_printed_formula_is_the_count_for_one_card_more() -> None:
    """[5.1] m! (m + 1)^(k − m) is exactly the count with hand size m + 1."""
    for k in range(2, 10):
        for m in range(1, k):
            assert count_without_end(k, m + 1) == conjectured(k, m)


@pytest.mark.checks("5.1", "3.4-no-end")
@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, pytest.param(6, marks=pytest.mark.deep)])
def test_conjecture_5_1_by_exhaustive_search(k: int) -> None:
    """[5.1, 3.4-no-end, 3.4-search] Every permutation decided by the open-game search."""
    for m in range(1, k + 1):
        searched = sum(
            is_sequence_playable_by_search(p, k, m, end_on_empty_stack=False) for p in permutations(range(1, k + 1))
        )
        assert searched == proven(k, m) == count_without_end(k, m)


@pytest.mark.checks("5.1", "3.10-turns", "3.13-4")
def test_with_the_usual_end_the_conjecture_is_about_another_game() -> None:
    """With the last round a permutation has only k − m + 1 turns for k plays, so only the
    identity is playable, with m = 1 [5.1, 3.10-turns, 3.13-4]."""
    for m in range(1, 6):
        with_end = count_playable(single_colour((1,) * 5), m)
        searched = sum(is_sequence_playable_by_search(p, 5, m) for p in permutations(range(1, 6)))
        assert with_end == searched == (1 if m == 1 else 0)
