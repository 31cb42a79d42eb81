"""Machine check of proofs/open_games.md [3.39, 5.2].

Every game here is decided by the exhaustive search of
:mod:`hanabi_ref.tools.playability.opengame` [3.4-search], over every distinct order of small
compositions (one and two colours, N <= 6 in the default run, N <= 7 with the deep set,
``python -m pytest -m deep``):

1. Theorem 3.39 [3.39]: with hand size 1 and no passes, the p-player open game
   (p = 2, 3, 4, where N >= p) is playable exactly when the single-player one is, and
   both reach the same best score.  Lemma 1 of open_games.md is checked on every state
   either game reaches: the player to move holds exactly the card s_i of move i.
2. Conjecture 5.2 [5.2], under the reading in which an empty stack does not end the game
   [3.4-no-end]: L = (n, k, p, 1, S0, ∞, f0) and L' = (n, k, 1, p, S0, 0, f0), p = 2, 3,
   f0 = ∞ and 1 (and 2 on the smaller decks), are playable together.  Stronger, as the
   proof says: the states both games reach, with L's hands pooled into one multiset and
   whose turn it is forgotten, are the same set.
3. With the usual end of game Conjecture 5.2 fails: S0 = (1, 2), p = 2 is the worked
   counterexample, and on the grid of 2. L is playable whenever L' is (Lemma 4 of
   open_games.md) while the converse fails on some order of every family.  Without
   passes (t0 = 0) it fails even without the end: S0 = (2, 1), p = 2.

Each part asserts that playable and unplayable orders both occur, so that a search
that decides everything the same way cannot pass.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator, Sequence

import pytest

from hanabi_ref.tools.playability.opengame import (
    Card,
    OpenGame,
    OpenState,
    is_open_game_playable,
    make_open_game,
    max_open_game_score,
    reachable_open_states,
)

Composition = tuple[tuple[int, ...], ...]  # per colour, the number of copies of each value


def cards_of(composition: Composition) -> list[Card]:
    """The multiset of cards (value, colour) of a composition, colours from 1."""
    return [
        (value, colour)
        for colour, counts in enumerate(composition, start=1)
        for value, count in enumerate(counts, start=1)
        for _ in range(count)
    ]


def distinct_orders(cards: Sequence[Card]) -> Iterator[tuple[Card, ...]]:
    """Every distinct order of a multiset of cards, each once, in sorted order."""
    yield from sorted(set(itertools.permutations(cards)))


def goal(composition: Composition) -> int:
    """The score asked of a composition: every colour up to its highest listed value
    [PL-playable]; n * k when every colour lists every value 1..n (Definition 3.1)."""
    return sum(len(counts) for counts in composition)


def shape(composition: Composition) -> tuple[int, int]:
    """(n, k): the number of values and of colours."""
    return max(len(counts) for counts in composition), len(composition)


def game(
    composition: Composition,
    stack: Sequence[Card],
    players: int,
    hand_size: int,
    passes: int | None,
    errors: int | None,
    *,
    end_on_empty_stack: bool = True,
) -> OpenGame:
    n, k = shape(composition)
    return make_open_game(n, k, players, hand_size, stack, passes, errors, end_on_empty_stack=end_on_empty_stack)


# ------------------------------------------------------------------ Theorem 3.39 [3.39]

DEEP = pytest.mark.deep
"""The larger decks run in the deep set only (python -m pytest -m deep); each part keeps
decks of one and of two colours, with and without duplicates, in the default run."""

# Every colour holds every value 1..n, so that n * k can be reached at all.
THEOREM_3_39: list[object] = [
    ((1, 1, 1, 1, 1),),  # 1..5: 120 orders
    ((2, 2, 1, 1),),  # N = 6: 180 orders
    ((2, 1), (1, 2)),  # two colours, N = 6: 180 orders
    pytest.param(((1, 1, 1, 1, 1, 1),), marks=DEEP),  # 1..6: 720 orders
    pytest.param(((3, 2, 1, 1),), marks=DEEP),  # N = 7: 420 orders
    pytest.param(((1, 1, 1), (1, 1, 1)), marks=DEEP),  # two colours, N = 6: 720 orders
]


def is_each_colour_in_order(stack: Sequence[Card], composition: Composition) -> bool:
    """Theorems 3.13-2 and 3.34, tested directly: for every colour y, its cards in stack
    order contain the values 1, 2, ..., n_y as a subsequence [3.13-2, 3.34]."""
    for colour, counts in enumerate(composition, start=1):
        wanted = 1
        for value, card_colour in stack:
            if card_colour == colour and value == wanted:
                wanted += 1
        if wanted <= len(counts):
            return False
    return True


def is_lemma_1(stack: Sequence[Card], players: int, state: OpenState) -> bool:
    """Lemma 1 of open_games.md: before move i (counted from 1) the player to move holds
    exactly s_i, where i - 1 = next_card - p while R = ∞, and N - R in the last round."""
    if state.over:
        return True
    index = state.next_card - players if state.remaining is None else len(stack) - state.remaining
    return state.hands[state.current] == (stack[index],)


@pytest.mark.checks("3.39")
@pytest.mark.parametrize("composition", THEOREM_3_39, ids=str)
def test_theorem_3_39(composition: Composition) -> None:
    """[3.39] (n, k, p, 1, S0, 0, f0) is playable iff (n, k, 1, 1, S0, 0, f0) is, for
    every order S0, p = 2, 3, 4 (N >= p) and f0 = ∞ or 1; with f0 = ∞ the best scores
    agree as well (so the two games are equivalent for every target score).  The
    single-player answer is also checked against the subsequence test of 3.13-2/3.34."""
    cards = cards_of(composition)
    seen: set[tuple[int, bool]] = set()
    for stack in distinct_orders(cards):
        for errors in (None, 1):
            one = game(composition, stack, 1, 1, 0, errors)
            one_playable = is_open_game_playable(one)
            assert one_playable == is_each_colour_in_order(stack, composition), stack
            one_best = max_open_game_score(one) if errors is None else None
            for players in (2, 3, 4):
                if players > len(stack):
                    continue
                many = game(composition, stack, players, 1, 0, errors)
                playable = is_open_game_playable(many)
                assert playable == one_playable, (stack, players, errors)
                if one_best is not None:
                    assert max_open_game_score(many) == one_best, (stack, players)
                seen.add((players, playable))
    assert seen == {(p, b) for p in (2, 3, 4) for b in (True, False)}, seen


@pytest.mark.checks("3.39")
@pytest.mark.parametrize("composition", [((1, 1, 1, 1, 1),), ((2, 1), (1, 1))], ids=str)
def test_lemma_1(composition: Composition) -> None:
    """[3.39] Lemma 1 of open_games.md on every reachable state: with hand size 1 and no
    passes the mover's only card is s_i, in the p-player game and the single-player one."""
    for stack in distinct_orders(cards_of(composition)):
        for players in (1, 2, 3):
            current = game(composition, stack, players, 1, 0, 2)
            assert all(is_lemma_1(stack, players, state) for state in reachable_open_states(current)), stack


# ------------------------------------------------------------------ Conjecture 5.2 [5.2]

Pooled = tuple[int, tuple[Card, ...], tuple[int, ...], int, int | None, bool]

# (composition, players, further values of f0 beyond ∞).
CONJECTURE_5_2: list[object] = [
    (((1, 1, 1, 1),), 2, (1, 2)),
    (((1, 1, 1, 1),), 3, (1, 2)),
    (((2, 1, 1, 1),), 2, (1, 2)),
    (((2, 1, 1, 1),), 3, (1,)),
    (((1, 1), (1, 1)), 2, (1, 2)),
    (((2, 1), (1, 1)), 2, (1, 2)),
    (((1, 1, 1), (1,)), 2, (1, 2)),  # colour 2 stops at 1: the target is 4 [PL-playable]
    pytest.param(((1, 1, 1, 1, 1),), 2, (1, 2), marks=DEEP),
    pytest.param(((1, 1, 1, 1, 1),), 3, (1, 2), marks=DEEP),
    pytest.param(((1, 1, 1), (1, 1)), 3, (1,), marks=DEEP),  # colour 2 stops at 2: the target is 5
    pytest.param(((2, 2, 1, 1),), 2, (1,), marks=DEEP),
    pytest.param(((2, 1), (1, 2)), 2, (1,), marks=DEEP),
]


def pooled_states(current: OpenGame) -> set[Pooled]:
    """The reachable states with every hand poured into one multiset and the seat to
    move and the passes forgotten: (stack position, pooled hand, heights, f, R, over)."""
    return {
        (
            state.next_card,
            tuple(sorted(card for hand in state.hands for card in hand)),
            state.heights,
            state.errors,
            state.remaining,
            state.over,
        )
        for state in reachable_open_states(current)
    }


def conjecture_pair(
    composition: Composition, stack: Sequence[Card], players: int, errors: int | None, end_on_empty_stack: bool
) -> tuple[OpenGame, OpenGame]:
    """L = (n, k, p, 1, S0, ∞, f0) and L' = (n, k, 1, p, S0, 0, f0) [5.2]."""
    many = game(composition, stack, players, 1, None, errors, end_on_empty_stack=end_on_empty_stack)
    one = game(composition, stack, 1, players, 0, errors, end_on_empty_stack=end_on_empty_stack)
    return many, one


@pytest.mark.checks("5.2", "3.4-no-end")
@pytest.mark.parametrize(("composition", "players", "errors"), CONJECTURE_5_2, ids=str)
def test_conjecture_5_2_without_the_end(composition: Composition, players: int, errors: tuple[int, ...]) -> None:
    """[5.2, 3.4-no-end] L playable iff L' playable, on every order, for f0 = ∞ and the
    listed finite f0; with f0 = ∞ the pooled states of L are exactly the states of L'
    (Lemmas 2 and 3 of open_games.md), so the best scores agree too."""
    outcomes, playable_orders = set(), 0
    for stack in distinct_orders(cards_of(composition)):
        for f0 in (None, *errors):
            many, one = conjecture_pair(composition, stack, players, f0, False)
            playable = is_open_game_playable(one, goal(composition))
            assert is_open_game_playable(many, goal(composition)) == playable, (stack, players, f0)
            if f0 is None:
                assert pooled_states(many) == pooled_states(one), (stack, players)
                playable_orders += playable
            outcomes.add(playable)
    assert outcomes == {True, False}
    if len(composition) == 1 and set(composition[0]) == {1}:
        # [5.1] permutations of 1..k without the end: p! p^(k - p) are (k, p)-playable.
        k = len(composition[0])
        assert playable_orders == math.factorial(players) * players ** (k - players)


@pytest.mark.checks("5.2", "3.4-no-end")
@pytest.mark.parametrize("composition", [((2, 1), (1, 1)), pytest.param(((1, 1, 1, 1, 1),), marks=DEEP)], ids=str)
def test_larger_hands(composition: Composition) -> None:
    """[5.2, 3.4-no-end] The remark after Theorem 2 of open_games.md: the proof never
    uses h = 1, so (n, k, 2, 2, S0, ∞, f0) and (n, k, 1, 4, S0, 0, f0) reach the same
    pooled states too."""
    for stack in distinct_orders(cards_of(composition)):
        many = game(composition, stack, 2, 2, None, None, end_on_empty_stack=False)
        one = game(composition, stack, 1, 4, 0, None, end_on_empty_stack=False)
        assert pooled_states(many) == pooled_states(one), stack


@pytest.mark.checks("5.2")
def test_conjecture_5_2_fails_with_the_usual_end() -> None:
    """[5.2] S0 = (1, 2), one colour, p = 2: L deals 1 to player 1 and 2 to player 2, the
    stack is empty after the deal, and the last round lets each play: score 2.  L' deals
    both cards to the single player, who gets one move: score 1.  Without the end of
    game both reach 2 [E-6, 3.4-no-end]."""
    many, one = conjecture_pair(((1, 1),), ((1, 1), (2, 1)), 2, None, True)
    assert is_open_game_playable(many) and max_open_game_score(many) == 2
    assert not is_open_game_playable(one) and max_open_game_score(one) == 1
    many, one = conjecture_pair(((1, 1),), ((1, 1), (2, 1)), 2, None, False)
    assert is_open_game_playable(many) and is_open_game_playable(one)


@pytest.mark.checks("5.2", "3.4-no-end")
def test_conjecture_5_2_needs_passes() -> None:
    """[5.2, 3.4-no-end] Even without the end of game, the passes matter: S0 = (2, 1),
    p = 2.  The single player holding {1, 2} plays 1, then 2.  With t0 = 0, player 1 must
    give up the only 2 at once; one pass (t0 = 1) is enough here."""
    one = game(((1, 1),), ((2, 1), (1, 1)), 1, 2, 0, None, end_on_empty_stack=False)
    assert is_open_game_playable(one)
    for passes, expected in ((0, False), (1, True), (None, True)):
        many = game(((1, 1),), ((2, 1), (1, 1)), 2, 1, passes, None, end_on_empty_stack=False)
        assert is_open_game_playable(many) == expected, passes


@pytest.mark.checks("5.2")
@pytest.mark.parametrize(("composition", "players", "errors"), CONJECTURE_5_2, ids=str)
def test_usual_end_one_direction(composition: Composition, players: int, errors: tuple[int, ...]) -> None:
    """[5.2] With the usual end of game, L' playable implies L playable (Lemma 4 of
    open_games.md), on every order and f0; the converse fails on some order of every
    family, so the usual end does break the equivalence."""
    failures = 0
    for stack in distinct_orders(cards_of(composition)):
        for f0 in (None, *errors):
            many, one = conjecture_pair(composition, stack, players, f0, True)
            many_playable = is_open_game_playable(many, goal(composition))
            if is_open_game_playable(one, goal(composition)):
                assert many_playable, (stack, players, f0)
            elif many_playable:
                failures += 1
    assert failures > 0, "some order is playable by p players with single cards, not by one player with p"
