"""The thesis' worked examples, reproduced on the engine: Examples 2.8, 2.15, 2.18 (in
test_legality.py), 3.2, 3.3, 3.11 and 3.12 [2.16-2a, 2.16-2a-value, 2.14, 2.16-3,
2.16-3-last-round, E-6, E-18]."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.actions import Action, Hint, Play
from hanabi_ref.engine.dealing import shuffle
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState, hand_cards, score, stack, deck_size
from hanabi_ref.engine.transition import apply, initial_state
from tests.helpers import card, is_playable, play_all, stacked_deck, suit_and_value

RED, YELLOW, GREEN, BLUE, WHITE = range(5)  # the fifth classic suit plays the thesis' white


def all_outcomes(state: GameState) -> list[GameState]:
    """Every final state reachable from ``state`` by legal play (exhaustive)."""
    if state.terminal:
        return [state]
    return [final for action in legal_actions(state) for final in all_outcomes(apply(state, action))]


# ------------------------------------------------------------------ Example 2.8


JOHN = ((1, RED), (4, GREEN), (5, GREEN), (1, WHITE), (4, WHITE))
MARY = ((2, YELLOW), (3, YELLOW), (2, BLUE), (3, BLUE), (2, RED))


def test_example_2_8_hints_on_johns_hand() -> None:
    """[2.16-2a, 2.16-2a-value, 2.16-2a-suit, 2.16-2a-empty, E-20] Example 2.8: John holds
    a red 1, a green 4, a green 5, a white 1 and a white 4.  Mary may point out the 5, the
    two greens or the two 1s (and, by the same rule, the two 4s, the red card or the two
    whites); a hint always touches every matching card."""
    config = make_config(2, "hle")  # hints must point out at least one card (§2.2)
    state = initial_state(config, stacked_deck(config, MARY + JOHN))
    john = state.hands[1]
    hints = {a: apply(state, a).history[-1].touched for a in legal_actions(state) if isinstance(a, Hint)}
    assert hints == {
        Hint(1, "value", 1): (john[0], john[3]),
        Hint(1, "value", 4): (john[1], john[4]),
        Hint(1, "value", 5): (john[2],),
        Hint(1, "colour", GREEN): (john[1], john[2]),
        Hint(1, "colour", RED): (john[0],),
        Hint(1, "colour", WHITE): (john[3], john[4]),
    }


def test_example_2_8_no_hint_points_out_a_single_one() -> None:
    """[2.16-2a, 2.16-2a-value] "She is not allowed to point out a single 1": whatever Mary
    does (any legal action, thesis rules), afterwards the set of John's cards known to be
    1s (K_c within the 1s) is empty or both 1s."""
    config = make_config(2)
    state = initial_state(config, stacked_deck(config, MARY + JOHN))
    ones = sum(1 << card(config, 1, suit) for suit in range(5))
    outcomes = set()
    for action in legal_actions(state):
        known = apply(state, action).knowledge[1]
        outcomes.add(frozenset(slot for slot, k in enumerate(known) if not k & ~ones))
    assert outcomes == {frozenset(), frozenset({0, 3})}


# ------------------------------------------------------------------ Example 2.15


def test_example_2_15_knowledge_after_the_hint_on_the_ones() -> None:
    """[2.14, 2.14-initial, 2.16-2a-value] Example 2.15: player 1 (seat 0) holds (1, 1),
    (4, 2), (5, 2), (1, 3), (4, 3) with K_c = Cards(H); player 2 points out the two 1s;
    then the knowledge base is {A, B, B, A, B} with A = {(x, y) : x = 1} and B its
    complement in Cards(H).  Seat 0 moves first, so it first hints seat 1."""
    config = make_config(2)
    p1 = ((1, 0), (4, 1), (5, 1), (1, 2), (4, 2))  # the thesis' suits 1..5 are 0..4 here
    state = initial_state(config, stacked_deck(config, p1))
    cards_h = {(x, y) for x in range(1, 6) for y in range(5)}
    a_set = {(x, y) for (x, y) in cards_h if x == 1}
    b_set = cards_h - a_set

    def mask(pairs: set[tuple[int, int]]) -> int:
        return sum(1 << card(config, x, y) for x, y in pairs)

    after_own_move = apply(state, Hint(1, "colour", RED))
    assert after_own_move.knowledge[0] == (mask(cards_h),) * 5
    after = apply(after_own_move, Hint(0, "value", 1))
    a, b = mask(a_set), mask(b_set)
    assert after.knowledge[0] == (a, b, b, a, b)


# ------------------------------------------------------------------ Example 3.2


def example_3_2_state() -> GameState:
    """2-player classic Hanabi with all fives, then all fours on top of the stack."""
    config = make_config(2)
    top = [(5, suit) for suit in range(5)] + [(4, suit) for suit in range(5) for _ in range(2)]
    return initial_state(config, stacked_deck(config, top))


def loses_a_needed_card(state: GameState) -> bool:
    """A 5 or both 4s of one suit are in the discard pile (then 25 is out of reach)."""
    lost = Counter(suit_and_value(state.config, state.deck[c]) for c in state.discard)
    return any(lost[(suit, 5)] >= 1 or lost[(suit, 4)] >= 2 for suit in range(5))


def position(state: GameState) -> tuple[object, ...]:
    """Everything that decides the legal actions and their effects on the cards, tokens,
    errors and turn; knowledge and history are left out because no legality or outcome
    depends on them."""
    return (
        tuple(sorted(hand_cards(state, 0))),
        tuple(sorted(hand_cards(state, 1))),
        state.next_card,
        state.current_player,
        state.clue_tokens,
        state.strikes,
        tuple(sorted(state.deck[c] for c in state.discard)),
        state.fireworks,
        state.remaining,
        state.terminal,
    )


def test_example_3_2_deal() -> None:
    """[2.16-1-deal] Example 3.2: P_1 holds the five 5s, P_2 = {(4,1), (4,1), (4,2), (4,2),
    (4,3)}, and the stack starts with the other five 4s."""
    state = example_3_2_state()
    config = state.config
    assert sorted(hand_cards(state, 0)) == sorted(card(config, 5, s) for s in range(5))
    assert sorted(hand_cards(state, 1)) == sorted(card(config, 4, s) for s in (0, 0, 1, 1, 2))
    assert sorted(stack(state)[:5]) == sorted(card(config, 4, s) for s in (2, 3, 3, 4, 4))


def test_example_3_2_cannot_reach_25() -> None:
    """[2.16-2c-fail, 2.16-2b-draw, 2.16-3, 2.13-2] Example 3.2 by exhaustive search over
    legal play from the deal: every game either strikes out or loses a needed card (a 5, or
    the second 4 of a suit), and no position before that has had six cards leave the
    hands or anything played; as the discard pile only grows, 25 is out of reach.

    (Why six: the first 15 cards are the 5s and 4s; the first card that is neither is
    s_16, drawn by the sixth discard or play, so each of the first six removes a 4 or a
    5, and no play of those can succeed while the fields are empty.  Of the fifteen 4s
    and 5s at most five, one 4 per suit, can be spared.)  Positions that agree on
    everything legality and outcomes depend on are merged (see ``position``)."""
    start = example_3_2_state()
    seen = {position(start)}
    frontier = [start]
    lost = 0
    while frontier:
        state = frontier.pop()
        if state.terminal or loses_a_needed_card(state):
            assert not state.terminal or score(state) == 0  # only a strikeout can end it here
            lost += 1
            continue
        assert len(state.discard) < 6 and state.fireworks == (0,) * 5
        for action in legal_actions(state):
            after = apply(state, action)
            if position(after) not in seen:
                seen.add(position(after))
                frontier.append(after)
    assert lost > 100


# ------------------------------------------------------------------ Example 3.3


def ones_at_the_bottom(config: GameConfig, seed: int) -> tuple[int, ...]:
    """A classic deck whose last 15 cards are all the 1s; both parts shuffled by ``seed``."""
    deck = stacked_deck(config, [])
    ones = [c for c in deck if suit_and_value(config, c)[1] == 1]
    rest = [c for c in deck if suit_and_value(config, c)[1] != 1]
    return shuffle(rest, seed) + shuffle(ones, seed + 1)


def example_3_3_choice(data: st.DataObject, state: GameState) -> Action:
    """Mostly an open greedy move (play a playable card), otherwise any legal move."""
    legal = legal_actions(state)
    playable: list[Action] = [a for a in legal if isinstance(a, Play) and is_playable(state, a.slot)]
    greedy = data.draw(st.integers(0, 3)) > 0
    if playable and greedy:
        return data.draw(st.sampled_from(playable))
    return data.draw(st.sampled_from(legal))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.integers(2, 5), st.integers(0, 2**63), st.data())
def test_example_3_3_ones_at_the_bottom(players: int, seed: int, data: st.DataObject) -> None:
    """[2.16-2c-success, 2.16-2c-draw, 2.16-3-last-round, 2.16-3-R0] Example 3.3: with all
    1s at the bottom nothing is played until a 1 is drawn, when at most 14 cards remain;
    afterwards each point before the stack runs out comes with a draw, and the last round
    adds at most one per player.  Checked at every step of legal games (biased towards
    playing playable cards): score <= (14 - |S|) + moves since the stack emptied, so the
    final score is at most 14 + p (19 for p = 5)."""
    config = make_config(players)
    state = initial_state(config, ones_at_the_bottom(config, seed))
    first_one = len(state.deck) - 15
    moves_after_empty = 0
    while not state.terminal:
        state = apply(state, example_3_3_choice(data, state))
        if state.next_card <= first_one:
            assert sum(state.fireworks) == 0
        else:
            assert sum(state.fireworks) <= (14 - deck_size(state)) + moves_after_empty
        if deck_size(state) == 0:
            moves_after_empty += 1
    assert score(state) <= 14 + players


def test_example_3_3_greedy_open_play_stays_below_19() -> None:
    """[2.16-3-R0] the thesis' ordering (1s at the bottom, suit by suit), p = 5: even a
    player who sees every card and plays whenever possible ends at most at 14 + 5 = 19."""
    config = make_config(5)
    ones = [(1, suit) for suit in range(5) for _ in range(3)]
    rest = [(value, suit) for suit in range(5) for value in (2, 2, 3, 3, 4, 4, 5)]
    state = initial_state(config, stacked_deck(config, rest + ones))
    rule: Callable[[GameState], Action] = lambda s: next(
        (a for a in legal_actions(s) if isinstance(a, Play) and is_playable(s, a.slot)), legal_actions(s)[0]
    )
    while not state.terminal:
        state = apply(state, rule(state))
    assert 0 < score(state) <= 19


# ------------------------------------------------------------------ Examples 3.11 and 3.12


def single_suit(counts: list[int], hand_size: int, **options: Any) -> GameConfig:
    """Definition 3.10's game (n, 1, 1, m, S, 0, 0): one suit, one player, no hints; the
    thesis' f0 = 0 is written f0 = infinity (E-18)."""
    return make_config(1, composition=[counts], hand_size=hand_size, hints=0, errors=None, **options)


def values_deck(config: GameConfig, values: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(card(config, v, 0) for v in values)


def values_in(state: GameState, cards: tuple[int, ...]) -> list[int]:
    return sorted(suit_and_value(state.config, c)[1] for c in cards)


def test_example_3_11_is_4_4_playable() -> None:
    """[2.16-3-last-round, 2.16-3-max, E-18] Example 3.11: S = (4, 3, 2, 1, 1, 1, 1), hand
    size 4: play the 1, the 2, the 3 (the stack is now empty) and in the one remaining
    turn the 4; score 4.  The hands and stacks on the way are the thesis'."""
    config = single_suit([4, 1, 1, 1], 4)
    state = initial_state(config, values_deck(config, (4, 3, 2, 1, 1, 1, 1)))
    assert values_in(state, hand_cards(state, 0)) == [1, 2, 3, 4] and values_in(state, stack(state)) == [1, 1, 1]
    states = play_all(state, [Play(3), Play(2), Play(1)])
    assert [values_in(s, hand_cards(s, 0)) for s in states[1:]] == [[1, 2, 3, 4], [1, 1, 3, 4], [1, 1, 1, 4]]
    assert [deck_size(s) for s in states[1:]] == [2, 1, 0]
    assert states[-1].remaining == 1 and not states[-1].terminal
    final = apply(states[-1], Play(0))
    assert final.terminal and score(final) == 4


def test_example_3_11_is_not_4_1_playable() -> None:
    """[2.16-3] Example 3.11: with hand size 1 the 4, 3 and 2 each must leave the hand
    before the next card is seen, so no sequence of legal moves scores 4 (the best is 1)."""
    config = single_suit([4, 1, 1, 1], 1)
    outcomes = all_outcomes(initial_state(config, values_deck(config, (4, 3, 2, 1, 1, 1, 1))))
    assert len(outcomes) > 1
    assert max(score(s) for s in outcomes) == 1


def test_example_3_12_is_4_1_playable() -> None:
    """[2.16-2c-success, 2.16-3-max] Example 3.12: S = (1, 2, 3, 4) with hand size 1 is
    played 1, 2, 3, 4 for 4 points."""
    config = single_suit([1, 1, 1, 1], 1)
    states = play_all(initial_state(config, values_deck(config, (1, 2, 3, 4))), [Play(0)] * 4)
    assert [sum(s.fireworks) for s in states] == [0, 1, 2, 3, 4]
    assert states[-1].terminal and score(states[-1]) == 4


def test_example_3_12_with_hand_size_4_allows_one_move() -> None:
    """[E-6, 2.16-3-last-round] Example 3.12: with hand size 4 the stack is empty at the
    start, "we only have one turn": every legal first move ends the game, best score 1."""
    config = single_suit([1, 1, 1, 1], 4)
    state = initial_state(config, values_deck(config, (1, 2, 3, 4)))
    assert state.remaining == 1
    outcomes = all_outcomes(state)
    assert {s.turns for s in outcomes} == {1}
    assert max(score(s) for s in outcomes) == 1


def test_example_3_12_literal_reading_allows_two_moves() -> None:
    """[E-6, 2.13-hand-size] under initial_stop_check = false (the literal algorithm) the
    last round starts only after the first move: two moves, best score 2 (play 1, play
    2), and the hand goes down to h - 2."""
    config = single_suit([1, 1, 1, 1], 4, initial_stop_check=False)
    state = initial_state(config, values_deck(config, (1, 2, 3, 4)))
    assert state.remaining is None
    outcomes = all_outcomes(state)
    assert {s.turns for s in outcomes} == {2}
    assert max(score(s) for s in outcomes) == 2
    assert min(len(s.hands[0]) for s in outcomes) == 2
