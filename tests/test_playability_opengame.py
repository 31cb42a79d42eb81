"""Tests of the open-game model and its exhaustive search [3.4, 3.4-search, 3.4-no-end, 3.10, 3.10-f0, 3.10-turns, 3.32].

Expected values come from the thesis (Examples 3.11, 3.12, 3.38; Theorems 3.8 and 3.13;
the remark before Conjecture 5.1) or from methods that share no code with
``hanabi_ref.tools.playability.opengame``: a subsequence test written here, hand-worked small
games, and, above all, the engine (``hanabi_ref.engine.transition``), which is played move by
move beside the model and searched exhaustively on its own.
"""

from __future__ import annotations

import itertools
from collections.abc import Hashable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.cards import identity
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.tools.playability.opengame import (
    PASS,
    Card,
    OpenAction,
    OpenGame,
    OpenState,
    apply_open_action,
    initial_open_state,
    is_open_game_playable,
    is_sequence_playable_by_search,
    legal_open_actions,
    make_open_game,
    max_open_game_score,
    open_score,
    reachable_open_states,
    stack_size,
)
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState, score
from hanabi_ref.engine.transition import apply, initial_state

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def single(values: Sequence[int]) -> list[Card]:
    """A single-colour stack as cards of colour 1."""
    return [(value, 1) for value in values]


def contains_in_order(sequence: Sequence[int], wanted: Sequence[int]) -> bool:
    """Whether ``wanted`` is a subsequence of ``sequence`` (greedy left-to-right scan;
    written here, independent of the module under test)."""
    position = 0
    for item in sequence:
        if position < len(wanted) and item == wanted[position]:
            position += 1
    return position == len(wanted)


# ------------------------------------------------------------ the thesis' examples


@pytest.mark.checks("3.10")
def test_example_3_11() -> None:
    """Example 3.11: (4, 3, 2, 1, 1, 1, 1) is (4, 4)-playable but not (4, 1)-playable [3.10]."""
    sequence = (4, 3, 2, 1, 1, 1, 1)
    assert is_sequence_playable_by_search(sequence, 4, 4)
    assert not is_sequence_playable_by_search(sequence, 4, 1)


@pytest.mark.checks("3.10")
def test_example_3_12() -> None:
    """Example 3.12: (1, 2, 3, 4) is (4, 1)-playable but not (4, 4)-playable: with hand
    size 4 the deal empties the stack and the single player gets one move [3.10, E-6]."""
    assert is_sequence_playable_by_search((1, 2, 3, 4), 4, 1)
    assert not is_sequence_playable_by_search((1, 2, 3, 4), 4, 4)
    game = make_open_game(4, 1, 1, 4, single((1, 2, 3, 4)), 0, None)
    assert initial_open_state(game).remaining == 1
    assert max_open_game_score(game) == 1


@pytest.mark.checks("3.4", "3.10-f0")
def test_example_3_38() -> None:
    """Example 3.38: (4, 1, 2, 2, S0, t0, 0) with S0 = (4, 3, 2, 1, 1, 1, 1, 1); player 1
    holds {3, 4}, player 2 {1, 2}.  Without passes it is not playable, with t0 = ∞ it is
    [3.4, 3.10-f0]."""
    stack = single((4, 3, 2, 1, 1, 1, 1, 1))
    without = make_open_game(4, 1, 2, 2, stack, 0, None)
    with_passes = make_open_game(4, 1, 2, 2, stack, None, None)
    assert initial_open_state(without).hands == (((3, 1), (4, 1)), ((1, 1), (2, 1)))
    assert not is_open_game_playable(without)
    assert is_open_game_playable(with_passes)
    # The example's line of play, seats alternating from player 1: pass, play 1, pass,
    # play 2, play 3, pass, play 4.
    state = initial_open_state(with_passes)
    def play(value: int) -> OpenAction:
        return OpenAction("play", (value, 1))

    for action in (PASS, play(1), PASS, play(2), play(3), PASS, play(4)):
        state = apply_open_action(with_passes, state, action)
    assert state.over and open_score(state) == 4


@pytest.mark.checks("3.4")
def test_example_3_2_like_deadlock() -> None:
    """A small game in the manner of Example 3.2: the hands are full of cards that are the
    only ones of their kind and cannot be played yet.  Worked by hand: two players with
    one card each, P1 = {(2,1)}, P2 = {(2,2)}, stack ((1,1), (1,2), (1,1), (1,2)).  A 1
    reaches a hand only by a draw, and a draw needs a discard or a play of a unique 2
    that cannot be played: one colour stops at 1, so at most 3 of the 4 points, whatever
    the passes.  With t0 = ∞, 3 is reached: P1 discards (2,1) and draws (1,1), P2 passes,
    P1 plays (1,1) and draws (1,2), P2 passes, P1 plays (1,2), P2 plays (2,2) [3.4]."""
    stack = [(2, 1), (2, 2), (1, 1), (1, 2), (1, 1), (1, 2)]
    for passes in (0, 1, 3, None):
        game = make_open_game(2, 2, 2, 1, stack, passes, None)
        assert not is_open_game_playable(game)
        assert is_open_game_playable(game, 2)
        assert max_open_game_score(game) <= 3
    assert max_open_game_score(make_open_game(2, 2, 2, 1, stack, None, None)) == 3


@pytest.mark.checks("3.4")
def test_example_3_3_like_no_time() -> None:
    """In the manner of Example 3.3: the 1s lie at the bottom, so the stack is empty
    before enough cards can be played.  One player, hand {(2,1), (2,2), (1,1)}, stack
    ((1,2)): play (1,1), draw (1,2); the stack is empty, one last move: at most 2 of the
    4 points [3.4, 2.16-3-last-round]."""
    game = make_open_game(2, 2, 1, 3, [(2, 1), (2, 2), (1, 1), (1, 2)], 0, None)
    assert max_open_game_score(game) == 2
    assert not is_open_game_playable(game)
    assert is_open_game_playable(game, 2)
    relaxed = make_open_game(2, 2, 1, 3, [(2, 1), (2, 2), (1, 1), (1, 2)], 0, None, end_on_empty_stack=False)
    assert is_open_game_playable(relaxed)


# ------------------------------------------------------------ Theorem 3.13 [3.13-1..4]

sequences = st.lists(st.integers(min_value=-1, max_value=4), max_size=7)
hand_sizes = st.integers(min_value=1, max_value=4)


@pytest.mark.checks("3.13-1")
@FAST
@given(sequences, hand_sizes)
def test_theorem_3_13_part_1(sequence: list[int], m: int) -> None:
    """[3.13-1] (k, m)-playable implies (l, m)-playable for every l < k [3.10]."""
    playable = [is_sequence_playable_by_search(sequence, k, m) for k in range(6)]
    assert playable[0]
    for k in range(1, 6):
        assert not playable[k] or playable[k - 1]


@pytest.mark.checks("3.13-2")
@FAST
@given(sequences)
def test_theorem_3_13_part_2(sequence: list[int]) -> None:
    """[3.13-2] (k, 1)-playable iff (1, ..., k) is a subsequence [3.10]."""
    for k in range(6):
        expected = contains_in_order(sequence, list(range(1, k + 1)))
        assert is_sequence_playable_by_search(sequence, k, 1) == expected, k


@pytest.mark.checks("3.13-3", "3.13-4", "3.10-turns")
@FAST
@given(sequences, hand_sizes)
def test_theorem_3_13_parts_3_and_4(sequence: list[int], m: int) -> None:
    """[3.13-3] a missing value in 1..k, or [3.13-4] N - m + 1 < k, makes S not
    (k, m)-playable [3.10-turns]."""
    for k in range(1, 6):
        missing_value = any(value not in sequence for value in range(1, k + 1))
        too_short = len(sequence) - m + 1 < k
        if missing_value or too_short:
            assert not is_sequence_playable_by_search(sequence, k, m), k


@pytest.mark.checks("3.10-turns")
def test_fewer_cards_than_the_hand() -> None:
    """[3.10-turns] N < m: playable only for the score 0."""
    assert is_sequence_playable_by_search((1, 2), 0, 3)
    assert not is_sequence_playable_by_search((1, 2), 1, 3)
    assert is_sequence_playable_by_search((), 0, 1)
    assert not is_sequence_playable_by_search((), 1, 1)


@pytest.mark.checks("3.10", "3.32")
def test_unplayable_values_fill_the_hand() -> None:
    """[3.10, 3.32] Values <= 0 (which §3.5 creates) can never be played but take a place
    in the hand and the stack.  Worked by hand:

    * (0, 1, 2), m = 1: discard 0, play 1, play 2 in the last round: score 2.
    * (0, 1, 2), m = 2: hand {0, 1}; play 1, draw 2 (the stack is empty), play 2: score 2.
    * (0, 1, 2), m = 3: the deal takes every card, one move only: score 1.
    * (2, 0, 1), m = 2: hand {0, 2}; keeping 2 means discarding 0 and drawing 1, after
      which the one move left plays 1: score 1.
    * ((2,2), (1,1), (1,2), (-1,1)), m = 1: discard (2,2), play (1,1), play (1,2):
      score 2; 3 would need (2,2) after (1,2)."""
    assert is_sequence_playable_by_search((0, 1, 2), 2, 1)
    assert is_sequence_playable_by_search((0, 1, 2), 2, 2)
    assert not is_sequence_playable_by_search((0, 1, 2), 2, 3)
    assert is_sequence_playable_by_search((0, 1, 2), 1, 3)
    assert not is_sequence_playable_by_search((2, 0, 1), 2, 2)
    assert is_sequence_playable_by_search(((2, 2), (1, 1), (1, 2), (-1, 1)), 2, 1)
    assert not is_sequence_playable_by_search(((2, 2), (1, 1), (1, 2), (-1, 1)), 3, 1)


@pytest.mark.checks("3.32")
def test_example_3_37_by_search() -> None:
    """Example 3.37: ((2,1), (1,1), (3,2), (1,2), (3,1), (2,2), (1,1)) is (4, 2)-playable.
    Worked by hand, all six cards can even be played: play (1,1), (2,1), (1,2), (3,1),
    (2,2) (its draw empties the stack) and, in the last round, (3,2) [3.32]."""
    sequence = ((2, 1), (1, 1), (3, 2), (1, 2), (3, 1), (2, 2), (1, 1))
    assert is_sequence_playable_by_search(sequence, 4, 2)
    assert is_sequence_playable_by_search(sequence, 6, 2)
    assert not is_sequence_playable_by_search(sequence, 6, 1)


# ------------------------------------------------------------ Theorem 3.8 / Corollary 3.9

small_stacks = st.lists(
    st.tuples(st.integers(min_value=1, max_value=3), st.integers(min_value=1, max_value=2)),
    min_size=1,
    max_size=6,
)


@pytest.mark.checks("3.4", "3.4-no-end")
@FAST
@given(small_stacks, st.integers(min_value=1, max_value=3), st.sampled_from([None, 1, 2]), st.booleans())
def test_single_player_passes_never_help(stack: list[Card], h: int, f0: int | None, usual_end: bool) -> None:
    """Theorem 3.8 and Corollary 3.9: with one player, the best score is the same for
    every number of passes t0 (0, 1, 3 or ∞), with either end of game [3.4, 3.4-no-end]."""
    if len(stack) < h:
        h = len(stack)
    n = max(value for value, _ in stack)
    k = max(colour for _, colour in stack)
    best = {
        t0: max_open_game_score(make_open_game(n, k, 1, h, stack, t0, f0, end_on_empty_stack=usual_end))
        for t0 in (0, 1, 3, None)
    }
    assert len(set(best.values())) == 1, best


# ------------------------------------------------------------ §5 without the game's end


def larger_before(permutation: Sequence[int]) -> int:
    """max over i of #{j < i : s_j > s_i}: the thesis' criterion before Conjecture 5.1."""
    return max((sum(1 for earlier in permutation[:i] if earlier > value) for i, value in enumerate(permutation)), default=0)


@pytest.mark.checks("3.4-no-end", "5.1")
@pytest.mark.parametrize("k", [1, 2, 3, 4, 5])
def test_no_end_permutations_follow_the_memory_criterion(k: int) -> None:
    """[3.4-no-end] The remark before Conjecture 5.1: without the empty stack ending the
    game, a permutation of 1..k is (k, m)-playable iff no value has more than m - 1
    larger values before it.  Counting these by that criterion gives m! m^(k-m) for
    k >= m, the count of [5.1] (not the printed (m + 1)^(k-m))."""
    for m in range(1, k + 1):
        count = 0
        for permutation in itertools.permutations(range(1, k + 1)):
            playable = is_sequence_playable_by_search(permutation, k, m, end_on_empty_stack=False)
            assert playable == (larger_before(permutation) <= m - 1), (permutation, m)
            count += playable
        factorial = 1
        for i in range(2, m + 1):
            factorial *= i
        assert count == factorial * m ** (k - m)


# ------------------------------------------------------------ validation and legality


@pytest.mark.checks("3.4", "3.10-f0")
@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((0, 1, 1, 1, [(1, 1)], 0, None), "values: must be an integer >= 1"),
        ((1, 1, 0, 1, [(1, 1)], 0, None), "players: must be an integer >= 1"),
        ((1, 1, 1, True, [(1, 1)], 0, None), "hand_size: must be an integer >= 1"),
        ((2, 1, 1, 1, [(3, 1)], 0, None), "stack[0]: (3, 1) is not a card"),
        ((2, 1, 1, 1, [(1, 1), (1, 2)], 0, None), "stack[1]: (1, 2) is not a card"),
        ((2, 1, 2, 2, [(1, 1), (2, 1)], 0, None), "Definition 2.9 requires p*h <= N"),
        ((2, 1, 1, 1, [(1, 1)], -1, None), "passes: must be an integer >= 0 or None"),
        ((2, 1, 1, 1, [(1, 1)], 0, 0), "[3.10-f0]"),
    ],
)
def test_invalid_games_are_refused(arguments: tuple[object, ...], message: str) -> None:
    """[3.4] Definition 2.9's ranges, one-line messages naming the field."""
    with pytest.raises(ValueError) as caught:
        make_open_game(*arguments)  # type: ignore[arg-type]
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


@pytest.mark.checks("3.10", "3.32")
def test_bad_sequences_and_targets_are_refused() -> None:
    """[3.10, 3.32] integers or (value, colour) pairs with colour >= 1, not both."""
    with pytest.raises(ValueError, match="mixes integers"):
        mixed: list[object] = [1, (2, 1)]
        is_sequence_playable_by_search(mixed, 1, 1)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="colour 0"):
        is_sequence_playable_by_search([(1, 0)], 1, 1)
    with pytest.raises(ValueError, match="score"):
        is_sequence_playable_by_search([1], -1, 1)
    with pytest.raises(ValueError, match="target"):
        is_open_game_playable(make_open_game(1, 1, 1, 1, [(1, 1)]), -1)


@pytest.mark.checks("3.4")
def test_illegal_actions_are_refused() -> None:
    """[3.4] a pass needs a pass left (t >= 1); a card must be in the mover's hand."""
    game = make_open_game(2, 1, 2, 1, single((2, 1, 1)), 0, None)
    state = initial_open_state(game)
    assert PASS not in legal_open_actions(game, state)
    with pytest.raises(ValueError, match="not legal"):
        apply_open_action(game, state, PASS)
    with pytest.raises(ValueError, match="not legal"):
        apply_open_action(game, state, OpenAction("play", (1, 1)))


@pytest.mark.checks("3.4-search")
def test_unlimited_passes_terminate() -> None:
    """[3.4-search] with t0 = ∞ a round of passes returns to the same state; the search
    still ends, and finds a game that only passing can win."""
    game = make_open_game(2, 1, 3, 1, single((2, 2, 1, 1)), None, None)
    states = list(reachable_open_states(game))
    assert len(states) == len(set(states))
    assert is_open_game_playable(game)
    assert not is_open_game_playable(make_open_game(2, 1, 3, 1, single((2, 2, 1, 1)), 0, None))


# ------------------------------------------------------------ the engine, move by move


def engine_config(game: OpenGame) -> GameConfig:
    """The engine's configuration for an open game under the thesis preset.  With empty
    hints legal (2.16-2a-empty) a hint is exactly a pass: it costs a token and changes
    nothing the open game reads.  One player has no one to hint (E-4), so for p = 1 the
    option self_hints supplies the pass."""
    counts = [[0] * game.values for _ in range(game.colours)]
    for value, colour in game.stack:
        counts[colour - 1][value - 1] += 1
    assert game.passes is not None, "the engine needs a finite t0 (E-16)"
    return make_config(
        game.players,
        composition=counts,
        hand_size=game.hand_size,
        hints=game.passes,
        errors=game.errors,
        self_hints=game.players == 1,
    )


def card_table(game: OpenGame) -> dict[int, Card]:
    """Engine identity -> (value, colour): the engine counts suits from 0, §3 from 1."""
    return {
        identity(value, colour - 1, game.values): (value, colour)
        for value in range(1, game.values + 1)
        for colour in range(1, game.colours + 1)
    }


def engine_deck(game: OpenGame) -> tuple[int, ...]:
    return tuple(identity(value, colour - 1, game.values) for value, colour in game.stack)


def as_open_action(engine: GameState, action: Action, table: dict[int, Card]) -> OpenAction:
    """A hint is a pass; a discard or play of a slot names the card in it."""
    if isinstance(action, Hint):
        return PASS
    card = table[engine.deck[engine.hands[engine.current_player][action.slot]]]
    return OpenAction("discard" if isinstance(action, Discard) else "play", card)


def assert_agree(game: OpenGame, model: OpenState, engine: GameState, table: dict[int, Card]) -> None:
    """Every variable the open game has, compared with the engine's."""
    assert stack_size(game, model) == len(engine.deck) - engine.next_card
    engine_hands = tuple(tuple(sorted(table[engine.deck[c]] for c in hand)) for hand in engine.hands)
    assert model.hands == engine_hands
    assert model.heights == engine.fireworks
    assert model.passes == engine.clue_tokens
    assert model.errors == engine.strikes
    assert model.current == engine.current_player
    assert model.remaining == engine.remaining
    assert model.over == engine.terminal
    assert open_score(model) == score(engine)
    engine_actions = {as_open_action(engine, action, table) for action in legal_actions(engine)}
    assert set(legal_open_actions(game, model)) == engine_actions


@st.composite
def small_games(draw: st.DrawFn) -> OpenGame:
    """A random small open game with finite t0 (the engine's range): n <= 3, k <= 2,
    a stack of 3 to 10 cards drawn at random (any multiset, in any order), p <= 3."""
    n = draw(st.sampled_from([3, 2, 1]))
    k = draw(st.sampled_from([2, 1]))
    card = st.tuples(st.integers(min_value=1, max_value=n), st.integers(min_value=1, max_value=k))
    stack = draw(st.lists(card, min_size=3, max_size=10))
    p = draw(st.sampled_from([p for p in (2, 3, 1) if p <= len(stack)]))
    h = draw(st.sampled_from([h for h in (1, 2, 3) if p * h <= len(stack)]))
    t0 = draw(st.sampled_from([1, 0, 2, 3]))
    f0 = draw(st.sampled_from([None, 1, 2, 3]))
    return make_open_game(n, k, p, h, stack, t0, f0)


def pick_action(engine: GameState, choice: int) -> Action:
    """A legal action chosen by ``choice``: its kind first (hint, discard, play, so that
    the many hints do not crowd out the rest), then which one."""
    actions = legal_actions(engine)
    kinds = [kind for kind in (Hint, Discard, Play) if any(isinstance(a, kind) for a in actions)]
    kind = kinds[choice % len(kinds)]
    of_kind = [action for action in actions if isinstance(action, kind)]
    return of_kind[(choice // 3) % len(of_kind)]


@pytest.mark.checks("3.4")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # 450 more in the deep set
@given(small_games(), st.lists(st.integers(min_value=0, max_value=10_000), max_size=40))
def test_model_agrees_with_engine_move_by_move(game: OpenGame, choices: list[int]) -> None:
    """[3.4] The same random game, played by the engine under the thesis preset and by the
    model: after the deal and after every move they agree on the stack size, the hands
    (as multisets of identities), the field heights, tokens = passes, errors, whose turn,
    R, whether the game is over, the score, and the set of available actions.  Every
    game is played to its end (PR-length bounds it)."""
    table = card_table(game)
    engine = initial_state(engine_config(game), engine_deck(game))
    model = initial_open_state(game)
    assert_agree(game, model, engine, table)
    moves = 0
    while not engine.terminal:
        # The drawn choices first, then a fixed cycle, so that every game is played out.
        choice = choices[moves] if moves < len(choices) else moves
        action = pick_action(engine, choice)
        moves += 1
        model = apply_open_action(game, model, as_open_action(engine, action, table))
        engine = apply(engine, action)
        assert_agree(game, model, engine, table)


def engine_best_score(game: OpenGame) -> int:
    """The best score of an open game found by searching the *engine's* states: every
    legal action from every state (hints to one seat stand for all passes), states
    identified by what Algorithm 2.16 reads.  Independent of the model's search."""
    config, table = engine_config(game), card_table(game)
    start = initial_state(config, engine_deck(game))

    def key(state: GameState) -> Hashable:
        hands = tuple(tuple(sorted(table[state.deck[c]] for c in hand)) for hand in state.hands)
        return (hands, state.next_card, state.fireworks, state.clue_tokens, state.strikes, state.current_player, state.remaining, state.terminal)

    seen, frontier, best = {key(start)}, [start], 0
    while frontier:
        state = frontier.pop()
        best = max(best, score(state))
        actions = legal_actions(state)
        hints = [action for action in actions if isinstance(action, Hint)][:1]
        for action in hints + [action for action in actions if isinstance(action, (Discard, Play))]:
            successor = apply(state, action)
            if key(successor) not in seen:
                seen.add(key(successor))
                frontier.append(successor)
    return best


TINY = [
    # (n, k, p, h, multiset of S0, t0, f0)
    (2, 1, 2, 1, single((1, 1, 2)), 0, None),
    (2, 1, 2, 1, single((1, 2, 2)), 1, 1),
    (2, 2, 2, 1, [(1, 1), (2, 1), (1, 2), (2, 2)], 1, None),
    (3, 1, 1, 2, single((1, 2, 2, 3)), 1, 2),
    (3, 1, 3, 1, single((1, 2, 3, 1)), 2, None),
]


@pytest.mark.checks("3.4-search")
@pytest.mark.parametrize("n,k,p,h,cards,t0,f0", TINY)
def test_best_score_agrees_with_engine_search(
    n: int, k: int, p: int, h: int, cards: list[Card], t0: int, f0: int | None
) -> None:
    """[3.4-search] On every order of a few tiny decks, the model's search finds the same
    best score as a search over the engine's states, and playable (target n·k) exactly
    when that best score is n·k."""
    orders = sorted(set(itertools.permutations(cards)))
    outcomes = set()
    for order in orders:
        game = make_open_game(n, k, p, h, order, t0, f0)
        best = engine_best_score(game)
        assert max_open_game_score(game) == best, order
        assert is_open_game_playable(game) == (best == n * k), order
        outcomes.add(best == n * k)
    assert outcomes == {True, False}, "every tiny family has playable and unplayable orders"


@pytest.mark.deep
@pytest.mark.parametrize("test", [test_model_agrees_with_engine_move_by_move], ids=lambda test: test.__name__.removeprefix("test_"))
def test_properties_at_length(test: Any) -> None:
    """The move-by-move property above, three more runs."""
    for _ in range(3):
        test()
