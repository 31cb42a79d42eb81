"""Algorithm 2.16 step by step on hand-built decks: every step's effect is compared with
the thesis' formulas, evaluated here independently [2.16, 2.16-1 .. 2.16-3-*, E-1 .. E-7,
R-1, R-2, R-3]."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.base.errors import IllegalActionError
from hanabi_ref.engine.legality import illegality, legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState, hand_cards, score, stack, deck_size
from hanabi_ref.engine.transition import apply, initial_state
from tests.helpers import (
    all_cards,
    card,
    greedy_open_action,
    play_all,
    play_out,
    stacked_deck,
    suit_and_value,
)

RED, YELLOW, GREEN, BLUE, PURPLE = range(5)


def start(config: GameConfig, *hands: Sequence[tuple[int, int]], then: Sequence[tuple[int, int]] = ()) -> GameState:
    """The initial state of a deck that deals ``hands`` (blocks, seat 0 first) and has
    ``then`` on top of the stack; the rest of the composition follows."""
    top = [pair for hand in hands for pair in hand] + list(then)
    return initial_state(config, stacked_deck(config, top))


def value_set(config: GameConfig, value: int) -> int:
    """{(value, y) : y = 1..k} as a bitmask."""
    return sum(1 << card(config, value, y) for y in range(config.suit_count))


def suit_set(config: GameConfig, suit: int) -> int:
    """{(x, suit) : x = 1..n} as a bitmask."""
    return sum(1 << card(config, x, suit) for x in range(1, config.values + 1))


JOHN = ((1, RED), (4, GREEN), (5, GREEN), (1, PURPLE), (4, PURPLE))  # Example 2.8's hand
MARY = ((2, YELLOW), (3, YELLOW), (2, BLUE), (3, BLUE), (2, RED))


# ------------------------------------------------------------------ step 1


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_initialisation_deals_blocks(players: int) -> None:
    """[2.16-1, 2.16-1-deal, E-1, 2.14-initial, E-22, 2.13-1, 2.13-3] seat j receives
    s_{jh+1}, ..., s_{jh+h} (the thesis' a_j .. a_{j+h-1} with the index slip corrected),
    the stack starts at s_{ph+1}; D and F empty, t = t0, f = 0, C = seat 0, R = infinity,
    every K_c = Cards(H)."""
    config = make_config(players)
    deck = deck_from_seed(config, 1000 + players)
    state = initial_state(config, deck)
    h = config.hand_size
    for seat in range(players):
        assert hand_cards(state, seat) == deck[seat * h : (seat + 1) * h]
        assert state.knowledge[seat] == (all_cards(config),) * h
    assert stack(state) == deck[players * h :]
    assert deck_size(state) == 50 - players * h
    assert state.discard == () and state.played == () and state.fireworks == (0,) * 5
    assert (state.clue_tokens, state.strikes, state.current_player, state.remaining, state.turns) == (8, 0, 0, None, 0)
    assert not state.terminal and state.history == ()


@pytest.mark.parametrize("players", [2, 3, 5])
@pytest.mark.parametrize("draw_position", ["newest-last", "newest-first"])
def test_initialisation_round_robin(players: int, draw_position: str) -> None:
    """[E-1, 2.16-1-deal, R-2] under deal = "round-robin" seat j receives s_{j+1},
    s_{j+1+p}, ... one card at a time around the table (in reverse slot order under
    newest-first); the stack still starts at s_{ph+1}."""
    config = make_config(players, deal="round-robin", draw_position=draw_position)
    deck = deck_from_seed(config, 5)
    state = initial_state(config, deck)
    h = config.hand_size
    for seat in range(players):
        dealt = tuple(deck[seat + i * players] for i in range(h))
        assert hand_cards(state, seat) == (dealt if draw_position == "newest-last" else dealt[::-1])
    assert stack(state) == deck[players * h :]


# ------------------------------------------------------------------ step 2a


def test_value_hint_updates_knowledge_as_step_2a() -> None:
    """[2.16-2a, 2.16-2a-value, 2.16-2a-cost] a value hint on 4 to seat 1: cards with
    value 4 keep K_c minus {(x, y) : x != 4}, the others lose {(4, y)}; t := t - 1;
    nothing else changes."""
    config = make_config(2)
    state = start(config, MARY, JOHN)
    after = apply(state, Hint(1, "value", 4))
    everything, fours = all_cards(config), value_set(config, 4)
    expected = tuple(everything & fours if value == 4 else everything & ~fours for value, _ in JOHN)
    assert after.knowledge[1] == expected
    assert after.knowledge[0] == state.knowledge[0]
    assert after.clue_tokens == state.clue_tokens - 1
    assert after.hands == state.hands and after.deck == state.deck and after.next_card == state.next_card
    assert (after.fireworks, after.discard, after.strikes) == (state.fireworks, state.discard, state.strikes)
    assert after.history[-1].touched == (state.hands[1][1], state.hands[1][4])


def test_colour_hint_after_value_hint_intersects() -> None:
    """[2.16-2a-suit, 2.16-2a-value] successive hints intersect: after "value 4" and then
    "green" to John, the green 4 is known exactly, the green 5 is green-not-4, and the red
    1 is neither green nor 4."""
    config = make_config(2)
    state = start(config, MARY, JOHN)
    states = play_all(state, [Hint(1, "value", 4), Hint(0, "value", 2), Hint(1, "colour", GREEN)])
    final = states[-1]
    everything, fours, greens = all_cards(config), value_set(config, 4), suit_set(config, GREEN)
    assert final.knowledge[1][1] == fours & greens == 1 << card(config, 4, GREEN)
    assert final.knowledge[1][2] == everything & ~fours & greens
    assert final.knowledge[1][0] == everything & ~fours & ~greens
    assert final.knowledge[1][4] == fours & ~greens
    assert final.clue_tokens == 5


def test_empty_hint_is_legal_in_the_thesis_and_removes_the_value() -> None:
    """[2.16-2a-empty, E-20] the thesis allows a hint that touches no card: it costs a token
    and every card of the target loses the named identities."""
    config = make_config(2)
    state = start(config, MARY, JOHN)
    after = apply(state, Hint(1, "value", 3))
    assert after.history[-1].touched == ()
    assert after.knowledge[1] == (all_cards(config) & ~value_set(config, 3),) * 5
    assert after.clue_tokens == 7


@pytest.mark.parametrize("preset", ["hle", "hanab-live"])
def test_empty_hint_is_illegal_without_the_option(preset: str) -> None:
    """[2.16-2a-empty, P-presets] under empty_hints = false a hint touching no card is
    refused with the clause 2.16-2a-empty, and a touching hint is accepted."""
    config = make_config(2, preset)
    state = start(config, MARY, JOHN)
    with pytest.raises(IllegalActionError) as error:
        apply(state, Hint(1, "value", 3))
    assert error.value.clause == "2.16-2a-empty"
    with pytest.raises(IllegalActionError):
        apply(state, Hint(1, "colour", YELLOW))
    assert apply(state, Hint(1, "colour", PURPLE)).history[-1].touched == (state.hands[1][3], state.hands[1][4])


def test_hint_without_token_is_refused() -> None:
    """[2.16-2a-token, E-21] with t = 0 no hint is legal; the refusal names 2.16-2a-token."""
    config = make_config(2, hints=1)
    state = apply(start(config, MARY, JOHN), Hint(1, "value", 1))
    state = apply(state, Play(0))  # seat 1 plays its red 1: no token regained
    assert state.clue_tokens == 0
    assert not any(isinstance(a, Hint) for a in legal_actions(state))
    with pytest.raises(IllegalActionError) as error:
        apply(state, Hint(1, "value", 1))
    assert error.value.clause == "2.16-2a-token"


def test_self_hints_option() -> None:
    """[E-4, 2.16-2a-target] a player may not hint its own hand, unless self_hints = true;
    then the literal step 2a applies to its own cards."""
    default = start(make_config(2), MARY, JOHN)
    with pytest.raises(IllegalActionError) as error:
        apply(default, Hint(0, "value", 2))
    assert error.value.clause == "2.16-2a-target"

    config = make_config(2, self_hints=True)
    state = start(config, MARY, JOHN)
    after = apply(state, Hint(0, "value", 2))
    twos = value_set(config, 2)
    expected = tuple(all_cards(config) & (twos if value == 2 else ~twos) for value, _ in MARY)
    assert after.knowledge[0] == expected
    assert after.knowledge[1] == state.knowledge[1]


SIXTH = 5
SIXTH_HAND = ((1, SIXTH), (2, RED), (3, YELLOW), (4, GREEN), (5, BLUE))


def test_rainbow_cards_are_touched_by_every_colour() -> None:
    """[V-rainbow, 2.16-2a-suit] a colour hint on c touches the cards of suit c and every
    rainbow card; a touched card keeps the identities of both suits."""
    config = make_config(2, variant="rainbow")
    state = start(config, MARY, SIXTH_HAND)
    hand = state.hands[1]
    for colour in range(5):
        after = apply(state, Hint(1, "colour", colour))
        expected = tuple(c for c, (_, suit) in zip(hand, SIXTH_HAND) if suit in (colour, SIXTH))
        assert after.history[-1].touched == expected
        assert after.knowledge[1][0] == suit_set(config, colour) | suit_set(config, SIXTH)
    assert apply(state, Hint(1, "value", 1)).history[-1].touched == (hand[0],)


@pytest.mark.parametrize("variant", ["black", "dutch-rainbow", "6-suits"])
def test_a_sixth_suit_with_its_own_colour(variant: str) -> None:
    """[V-black, V-dutch-rainbow, V-6-suits, V-suit] the sixth suit's card is touched by
    its own clue colour (index 5) and by no other."""
    config = make_config(2, variant=variant)
    state = start(config, MARY, SIXTH_HAND)
    hand = state.hands[1]
    touched = {colour: apply(state, Hint(1, "colour", colour)).history[-1].touched for colour in range(6)}
    assert touched[SIXTH] == (hand[0],)
    assert all(hand[0] not in touched[colour] for colour in range(5))


# ------------------------------------------------------------------ step 2b


def test_newest_last_is_the_default_slot_order() -> None:
    """[R-2, E-15] by default slot 0 is the oldest card: dealt cards in dealing order,
    drawn cards appended."""
    state = start(make_config(2), MARY, JOHN)
    assert state.hands == ((0, 1, 2, 3, 4), (5, 6, 7, 8, 9))
    assert apply(state, Play(1)).hands[0] == (0, 2, 3, 4, 10)


def test_discard_moves_the_card_and_draws_the_top_card() -> None:
    """[2.16-2b, 2.16-2b-discard, 2.16-2b-draw, R-2, 2.14-initial] the discarded card is
    appended to D, the top card s_{ph+1} is drawn into the last slot with K = Cards(H),
    the knowledge sets of the other cards move with them."""
    config = make_config(2)
    state = start(config, MARY, JOHN)
    states = play_all(state, [Hint(1, "value", 1), Hint(0, "value", 2), Discard(2)])
    before, after = states[-2], states[-1]
    assert after.discard == (before.hands[0][2],)
    assert after.hands[0] == before.hands[0][:2] + before.hands[0][3:] + (10,)
    assert after.knowledge[0] == before.knowledge[0][:2] + before.knowledge[0][3:] + (all_cards(config),)
    assert after.next_card == 11 and deck_size(after) == deck_size(before) - 1
    assert after.history[-1].drawn == 10 and after.history[-1].card == card(config, 2, BLUE)


def test_discard_regains_a_token_below_t0_only() -> None:
    """[2.16-2b-token, E-2] a discard at t < t0 regains a token; at t = t0 the thesis allows
    the discard and nothing is gained."""
    config = make_config(2)
    state = start(config, MARY, JOHN)
    at_max = apply(state, Discard(0))
    assert at_max.clue_tokens == 8 and len(at_max.discard) == 1
    below = play_all(state, [Hint(1, "value", 1), Hint(0, "value", 2), Discard(0)])
    assert [s.clue_tokens for s in below] == [8, 7, 6, 7]


@pytest.mark.parametrize("preset", ["hle", "hanab-live"])
def test_discard_at_max_hints_is_illegal_without_the_option(preset: str) -> None:
    """[E-2, 2.16-2b] with discard_at_max_hints = false no discard is legal at t = t0 (the
    refusal names E-2); after a hint it is."""
    state = start(make_config(2, preset), MARY, JOHN)
    assert not any(isinstance(a, Discard) for a in legal_actions(state))
    with pytest.raises(IllegalActionError) as error:
        apply(state, Discard(0))
    assert error.value.clause == "E-2"
    state = apply(apply(state, Hint(1, "value", 1)), Hint(0, "value", 2))
    assert apply(state, Discard(0)).clue_tokens == 7


# ------------------------------------------------------------------ step 2c


def test_successful_play() -> None:
    """[2.16-2c, 2.16-2c-success, 2.16-2c-draw, E-25] a 1 on an empty field starts it (the
    case y = 1 of the one success test); the card is on the field, not in D; t and f
    unchanged; the top card is drawn."""
    config = make_config(2)
    state = start(config, JOHN, MARY)
    after = apply(state, Play(0))
    assert after.fireworks == (1, 0, 0, 0, 0)
    assert after.played == (0,) and after.discard == ()
    assert (after.clue_tokens, after.strikes) == (8, 0)
    assert after.hands[0] == (1, 2, 3, 4, 10)
    assert after.history[-1].success is True


def test_play_uses_value_first_pairs() -> None:
    """[E-3, 2.16-2c] a card is (value, suit): a purple 1 starts the purple field (not the
    field of "suit 1"), and a green 4 on an empty field is an error (it is not "a 1 of
    suit 4")."""
    config = make_config(2)
    state = start(config, JOHN, MARY)
    after = apply(state, Play(3))  # the purple 1
    assert after.fireworks == (0, 0, 0, 0, 1)
    after = apply(apply(after, Discard(0)), Play(0))  # seat 0's slot 0: the red 1; ok
    assert after.fireworks == (1, 0, 0, 0, 1)
    after = apply(apply(after, Discard(0)), Play(0))  # the green 4
    assert after.strikes == 1 and after.fireworks == (1, 0, 0, 0, 1)


def test_misplay() -> None:
    """[2.16-2c-fail, E-10] a card that does not extend its field goes to D and f := f + 1;
    the fields and t do not change."""
    config = make_config(2)
    state = start(config, MARY, JOHN)
    after = apply(state, Play(0))  # yellow 2 on an empty field
    assert after.discard == (0,) and after.played == ()
    assert (after.strikes, after.clue_tokens, after.fireworks) == (1, 8, (0,) * 5)
    assert after.remaining is None and not after.terminal
    assert after.history[-1].success is False


SUIT_RUN = tuple((value, RED) for value in range(1, 6))


def _play_red_run(config: GameConfig, partner: Action) -> list[GameState]:
    """Seat 0 plays red 1..5 from slot 0; seat 1 answers each play with ``partner``."""
    state = start(config, SUIT_RUN, MARY)
    actions: list[Action] = []
    for _ in range(4):
        actions += [Play(0), partner]
    return play_all(state, actions + [Play(0)])


def test_playing_a_five_below_t0_regains_a_token() -> None:
    """[2.16-2c-five] seat 1 spends a token after each of red 1..4 (t = 4); completing the
    suit with the 5 gives t := t + 1 = 5."""
    states = _play_red_run(make_config(2), Hint(0, "value", 5))
    assert states[-2].clue_tokens == 4
    assert states[-1].fireworks[RED] == 5 and states[-1].clue_tokens == 5


def test_playing_a_five_at_t0_gains_nothing() -> None:
    """[2.16-2c-five, 2.16-tokens, E-2] seat 1 discards instead (legal at t0 in the thesis,
    no token); the 5 is played at t = t0 = 8 and t stays 8."""
    states = _play_red_run(make_config(2), Discard(0))
    assert [s.clue_tokens for s in states] == [8] * len(states)
    assert states[-1].fireworks[RED] == 5


STRIKE_HANDS = (
    ((1, RED), (3, YELLOW), (4, YELLOW), (3, GREEN), (4, GREEN)),
    ((3, BLUE), (4, BLUE), (3, PURPLE), (4, PURPLE), (3, RED)),
)
STRIKE_MOVES = [Play(0), Play(0), Play(0), Play(0)]  # red 1 succeeds, then three errors


@pytest.mark.parametrize("strikeout_score, expected", [("zero", 0), ("fireworks", 1)])
def test_strikeout(strikeout_score: str, expected: int) -> None:
    """[2.16-2c-strikeout, 2.16-3-strikeout, 2.16-errors] the third error (f = f0 = 3)
    sets R := -1 and step 3 stops with score 0, or the fields' sum (here 1) under
    strikeout_score = "fireworks"."""
    config = make_config(2, strikeout_score=strikeout_score)
    states = play_all(start(config, *STRIKE_HANDS), STRIKE_MOVES)
    assert [s.strikes for s in states] == [0, 0, 1, 2, 3]
    assert [s.terminal for s in states] == [False] * 4 + [True]
    assert states[-1].remaining == -1 and states[-1].fireworks[RED] == 1
    assert score(states[-1]) == expected
    with pytest.raises(IllegalActionError) as error:
        apply(states[-1], Hint(0, "value", 1))
    assert error.value.clause == "2.16-3"
    assert legal_actions(states[-1]) == []


def test_no_strikeout_with_unbounded_errors() -> None:
    """[2.16-2c-strikeout, 2.9] with f0 = infinity errors never end the game."""
    config = make_config(2, errors=None)
    states = play_all(start(config, *STRIKE_HANDS), STRIKE_MOVES + [Play(0), Play(0)])
    assert states[-1].strikes == 5 and not states[-1].terminal and states[-1].remaining is None


# ------------------------------------------------------------------ end of step 2, step 3


@pytest.mark.parametrize("players", [1, 2, 4])
def test_turn_passes_cyclically(players: int) -> None:
    """[2.16-2-next, E-7, E-9] C := C + 1, seat 0 after seat p - 1 (p = 1: the same
    player); the move counter ``turn`` counts the moves, separately from the tokens."""
    config = make_config(players)
    states = play_all(initial_state(config, deck_from_seed(config, 3)), [Discard(0)] * 9)
    assert [s.current_player for s in states] == [i % players for i in range(10)]
    assert [s.turns for s in states] == list(range(10))


@pytest.mark.parametrize("players", [2, 3, 5])
def test_last_round_gives_every_player_one_more_move(players: int) -> None:
    """[2.16-3-last-round, 2.16-2-R, 2.16-3-R0, E-5, 2.13-hand-size] after the move that
    draws the last card R := p; then each player, the drawer last, moves exactly once more
    (R = p-1, ..., 0), drawing nothing (the hand keeps h - 1 cards), and the game stops."""
    config = make_config(players)
    state = initial_state(config, deck_from_seed(config, 77))
    h, draws = config.hand_size, 50 - players * config.hand_size
    states = play_all(state, [Discard(0)] * draws)
    drawn_last = states[-1]
    drawer = (draws - 1) % players
    assert deck_size(drawn_last) == 0 and drawn_last.remaining == players and not drawn_last.terminal
    assert all(s.remaining is None for s in states[:-1])
    last_round = play_all(drawn_last, [Discard(0)] * players)
    movers = [s.current_player for s in last_round[:-1]]
    assert movers == [(drawer + 1 + i) % players for i in range(players)]
    assert movers[-1] == drawer
    assert [s.remaining for s in last_round] == list(range(players, -1, -1))
    assert [s.terminal for s in last_round] == [False] * players + [True]
    final = last_round[-1]
    assert all(len(hand) == h - 1 for hand in final.hands)
    assert final.next_card == len(final.deck)
    assert score(final) == sum(final.fireworks)


def test_final_score_is_the_sum_of_the_fields() -> None:
    """[2.16-3-R0, E-13, E-14] a game that runs out of cards scores sum(max F[i]) (empty =
    0), summed here from the played cards; each field is held as its height."""
    config = make_config(3)
    states = play_out(initial_state(config, deck_from_seed(config, 11)), greedy_open_action)
    final = states[-1]
    assert final.remaining == 0
    heights = [0] * 5
    for card_id in final.played:
        suit, value = suit_and_value(config, final.deck[card_id])
        heights[suit] = max(heights[suit], value)
    assert score(final) == sum(heights) > 0


def test_game_stops_at_the_maximum_score() -> None:
    """[2.16-3-max] the game stops when the last field is completed, with score n * k,
    although cards are left in the stack (R is still infinite)."""
    config = make_config(2)
    ordered = [(value, suit) for suit in range(5) for value in range(1, 6)]
    states = play_out(initial_state(config, stacked_deck(config, ordered)), greedy_open_action)
    final = states[-1]
    assert [s.terminal for s in states] == [sum(s.fireworks) == 25 for s in states]
    assert score(final) == 25 and final.remaining is None and deck_size(final) > 0


def test_empty_stack_after_the_deal_starts_the_last_round() -> None:
    """[E-6, 2.16-3-last-round] when the deal takes the whole stack, step 3 runs once after
    step 1: R = p before the first move, and the game lasts p moves."""
    config = make_config(2, composition=[[1, 1, 1, 1]], hand_size=2, hints=0)
    state = initial_state(config, tuple(card(config, v, 0) for v in (1, 2, 3, 4)))
    assert state.remaining == 2
    states = play_all(state, [Play(0), Play(0)])
    assert [s.terminal for s in states] == [False, False, True]
    literal = initial_state(make_config(2, composition=[[1, 1, 1, 1]], hand_size=2, hints=0, initial_stop_check=False), state.deck)
    assert literal.remaining is None


# ------------------------------------------------------------------


def _discard_ones(state: GameState) -> Action:
    """Discard a 1 when a discard is legal and the hand holds one; otherwise hint."""
    legal = legal_actions(state)
    ones = [slot for slot, c in enumerate(hand_cards(state, state.current_player)) if suit_and_value(state.config, c)[1] == 1]
    if ones and Discard(ones[0]) in legal:
        return Discard(ones[0])
    return next(a for a in legal if isinstance(a, Hint))


ALL_ONES = [(1, suit) for suit in range(5) for _ in range(3)]


def _ones_discarded(state: GameState) -> int:
    return sum(suit_and_value(state.config, state.deck[c])[1] == 1 for c in state.discard)


def test_hanab_live_ends_when_no_points_are_possible() -> None:
    """[R-1, P-presets] hanab-live stops as soon as no further point can be scored: here
    exactly when the fifteenth (last) 1 is discarded, not before; the thesis plays on."""
    config = make_config(2, "hanab-live")
    state = initial_state(config, stacked_deck(config, ALL_ONES))
    states = [state]
    while not states[-1].terminal and _ones_discarded(states[-1]) < 15:
        states.append(apply(states[-1], _discard_ones(states[-1])))
    assert [s.terminal for s in states] == [_ones_discarded(s) == 15 for s in states]
    assert states[-1].terminal and score(states[-1]) == 0 and deck_size(states[-1]) > 0

    thesis = make_config(2)
    replayed = play_all(initial_state(thesis, state.deck), [e.action for e in states[-1].history])
    assert _ones_discarded(replayed[-1]) == 15 and not replayed[-1].terminal


def test_no_points_possible_with_a_custom_composition() -> None:
    """[R-1] one suit with a single 1, 2 and 3: discarding the 1 leaves nothing to score
    beyond the current 0, so the option stops the game; without it play goes on."""
    deck_pairs = ((1, 0), (2, 0), (3, 0))
    for option, stops in ((True, True), (False, False)):
        config = make_config(1, composition=[[1, 1, 1]], hand_size=1, end_when_no_points_possible=option)
        state = initial_state(config, stacked_deck(config, deck_pairs))
        assert apply(state, Discard(0)).terminal is stops


def test_newest_first_draw_position() -> None:
    """[R-2] under draw_position = "newest-first" slot 0 is always the newest card: the
    dealt cards lie in reverse order of dealing, a drawn card goes to slot 0, and the old
    cards keep their order and knowledge behind it."""
    config = make_config(2, draw_position="newest-first")
    state = start(config, MARY, JOHN)
    assert state.hands == ((4, 3, 2, 1, 0), (9, 8, 7, 6, 5))
    states = play_all(state, [Hint(1, "value", 1), Hint(0, "value", 3), Discard(3)])
    before, after = states[-2], states[-1]
    assert after.hands[0] == (10, 4, 3, 2, 0)
    assert after.knowledge[0] == (all_cards(config),) + before.knowledge[0][:3] + before.knowledge[0][4:]


@pytest.mark.parametrize("draws", [True, False])
def test_final_move_draw_option(draws: bool) -> None:
    """[R-3] the move that ends the game (here the third error) draws its card in the
    thesis; under draw_after_final_move = false it draws nothing and the hand keeps
    h - 1 cards; the score is the same."""
    config = make_config(2, draw_after_final_move=draws)
    states = play_all(start(config, *STRIKE_HANDS), STRIKE_MOVES)
    before, final = states[-2], states[-1]
    assert final.terminal and score(final) == 0
    assert len(final.hands[1]) == (5 if draws else 4)
    assert final.next_card == before.next_card + (1 if draws else 0)
    assert final.history[-1].drawn == (before.next_card if draws else None)


def test_hle_final_move_draws_nothing_at_the_maximum_score() -> None:
    """[R-3, P-presets] the hle preset deals no card after the move that completes the
    last field; its hands keep h - 1 cards at the end."""
    config = make_config(2, "hle")
    ordered = [(value, suit) for suit in range(5) for value in range(1, 6)]
    states = play_out(initial_state(config, stacked_deck(config, ordered)), greedy_open_action)
    before, final = states[-2], states[-1]
    assert score(final) == 25 and final.next_card == before.next_card
    assert len(final.hands[before.current_player]) == config.hand_size - 1


# ------------------------------------------------------------------ step 2 as a whole


def test_illegal_actions_are_refused_and_leave_the_state_alone() -> None:
    """[2.16-2] apply refuses an illegal action with IllegalActionError naming the clause;
    the state (immutable) is unchanged and the same move is still possible afterwards."""
    config = make_config(2, "hle")
    state = start(config, MARY, JOHN)
    cases: list[tuple[Action, str]] = [
        (Hint(0, "value", 2), "2.16-2a-target"),
        (Hint(2, "value", 2), "2.16-2a-target"),
        (Hint(1, "value", 0), "2.16-2a-value"),
        (Hint(1, "value", 6), "2.16-2a-value"),
        (Hint(1, "colour", 5), "2.16-2a-suit"),
        (Play(5), "2.16-2c"),
        (Discard(-1), "2.16-2b"),
    ]
    for action, clause in cases:
        assert illegality(state, action) is not None
        with pytest.raises(IllegalActionError) as error:
            apply(state, action)
        assert error.value.clause == clause
        assert str(error.value).startswith(clause + ":")
    assert apply(state, Play(0)).strikes == 1
