"""Tests that mutation testing (tests/mutation.py) showed missing: each reads one clause
and checks a case no other test reached [2.9-S0, 2.16-2a-value, 2.16-2a-suit,
2.16-2b-draw, 2.16-2-R, 2.16-3-last-round, 2.17-history, 2.13-conservation, 2.13-4,
2.13-hand-size, 2.14-sound, 2.16-2-next, 2.17-view, 2.16-actions, R-1, E-6].

Most feed a condition of :mod:`hanabi_ref.engine.conditions`, or an invariant predicate of
:mod:`hanabi_ref.engine.state`, a result tampered against the part of its clause that
tests/test_conditions.py does not tamper with, and expect it to be refused.  The states are
reached by legal play of seeded games, never invented.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import attrs
import icontract
import pytest

from hanabi_ref.engine import conditions, view
from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.fastpath import build_state
from hanabi_ref.engine.state import GameState, check_invariants, is_cards_conserved, is_fields_gapless, is_hand_size_valid, is_knowledge_sound
from hanabi_ref.engine.transition import apply_legal, initial_state
from tests.helpers import greedy_open_action
from hanabi_ref.engine.tables import tables_for

Move = tuple[GameState, Action, GameState]


def _forge(state: GameState, **changes: Any) -> GameState:
    """A copy of ``state`` with ``changes``, its invariants not checked (a result as a
    buggy engine might build it)."""
    forged: GameState = object.__new__(GameState)
    forged.__dict__.update(state.__dict__)
    forged.__dict__.update(changes)
    return forged


def _moves() -> Iterator[Move]:
    """Every move of a few seeded games, by greedy open play (even seeds) or stepping
    through the legal actions (odd seeds), so that hints of both kinds, draws from an
    empty stack and the last round all occur."""
    for players in (2, 3):
        config = make_config(players)
        for seed in range(4):
            state = initial_state(config, deck_from_seed(config, seed))
            while not state.terminal:
                options = legal_actions(state)
                action = greedy_open_action(state) if seed % 2 == 0 else options[(state.turns * 7 + seed) % len(options)]
                result = apply_legal(state, action)
                yield state, action, result
                state = result


def _find(situation: Callable[[GameState, Action, GameState], bool]) -> Move:
    for move in _moves():
        if situation(*move):
            return move
    raise AssertionError("no move of the sample games fits")


def _refused(clause: str, state: GameState, action: Action, tampered: GameState) -> None:
    """The clause's condition refuses ``tampered``, and check_move raises naming it."""
    (condition,) = [c for c in conditions.POSTCONDITIONS if c.clause == clause]
    assert not condition.holds(state, action, tampered)
    with pytest.raises(icontract.ViolationError) as error:
        conditions.check_move(state, action, tampered)
    assert str(error.value).startswith(clause + ":")


def _replace(values: tuple[Any, ...], index: int, new: Any) -> tuple[Any, ...]:
    return values[:index] + (new,) + values[index + 1 :]


# ------------------------------------------------------------ 2.16-2a


@pytest.mark.parametrize(("kind", "clause"), [("value", "2.16-2a-value"), ("colour", "2.16-2a-suit")])
def test_a_hint_changes_no_other_seats_knowledge(kind: str, clause: str) -> None:
    """[2.16-2a-value, 2.16-2a-suit] a hint updates K_c for the cards of the target only:
    a result in which another seat's knowledge changed is refused."""
    state, action, result = _find(lambda s, a, r: isinstance(a, Hint) and a.kind == kind)
    assert isinstance(action, Hint)
    other = next(seat for seat in range(state.config.players) if seat != action.target)
    known = result.knowledge[other]
    tampered = _forge(result, knowledge=_replace(result.knowledge, other, (known[0] & ~1 | 2,) + known[1:]))
    assert tampered.knowledge[other] != result.knowledge[other]
    _refused(clause, state, action, tampered)


@pytest.mark.parametrize(("kind", "clause"), [("value", "2.16-2a-value"), ("colour", "2.16-2a-suit")])
def test_a_hint_keeps_one_knowledge_set_per_card(kind: str, clause: str) -> None:
    """[2.16-2a-value, 2.16-2a-suit] every card c of the target keeps its K_c: a result
    whose target lost the knowledge set of its last card is refused."""
    state, action, result = _find(lambda s, a, r: isinstance(a, Hint) and a.kind == kind)
    assert isinstance(action, Hint)
    target = action.target
    tampered = _forge(result, knowledge=_replace(result.knowledge, target, result.knowledge[target][:-1]))
    _refused(clause, state, action, tampered)


# ------------------------------------------------------------ 2.16-2b-draw


@pytest.mark.parametrize("kind", [Discard, Play])
def test_without_a_draw_the_card_still_leaves_the_hand(kind: type) -> None:
    """[2.16-2b-draw, 2.16-2c-draw, E-5] with the stack empty nothing is drawn and the
    hand keeps one card fewer: a result in which the card stayed in the hand is refused."""
    state, action, result = _find(lambda s, a, r: isinstance(a, kind) and s.next_card == len(s.deck))
    seat = state.current_player
    assert result.next_card == state.next_card
    tampered = _forge(result, hands=_replace(result.hands, seat, state.hands[seat]))
    _refused("2.16-2b-draw", state, action, tampered)


# ------------------------------------------------------------ 2.16-2-R and 2.16-3-last-round


def test_infinite_remaining_does_not_become_a_number_other_than_p() -> None:
    """[2.16-2-R] infinity - 1 = infinity: from R = infinity a move leaves R infinite,
    or p when the last round starts (2.16-3-last-round), or -1 on a strikeout; R = p - 1
    is refused."""
    state, action, result = _find(lambda s, a, r: s.remaining is None and r.remaining is None)
    tampered = _forge(result, remaining=state.config.players - 1)
    _refused("2.16-2-R", state, action, tampered)


def test_the_last_round_does_not_start_while_the_stack_lasts() -> None:
    """[2.16-3-last-round] R := p only once the stack is empty; while it lasts R stays
    infinite: R = p with cards left on the stack is refused."""
    state, action, result = _find(
        lambda s, a, r: s.remaining is None and not r.terminal and r.next_card < len(r.deck)
    )
    tampered = _forge(result, remaining=state.config.players)
    _refused("2.16-3-last-round", state, action, tampered)


# ------------------------------------------------------------ 2.17-history


def test_a_move_does_not_rewrite_earlier_records() -> None:
    """[2.17-history] one record per move: a move appends its own record and leaves the
    earlier ones as they were; a result whose first record changed is refused."""
    state, action, result = _find(lambda s, a, r: s.turns >= 2)
    first = result.history[0]
    changed = type(first)(first.turn, (first.player + 1) % state.config.players, first.action, first.card_id, first.card, first.success, first.touched, first.drawn)
    tampered = _forge(result, history=(changed,) + result.history[1:])
    _refused("2.17-history", state, action, tampered)


def test_a_move_appends_exactly_one_record() -> None:
    """[2.17-history] a result holding the move's record twice is refused."""
    state, action, result = _find(lambda s, a, r: s.turns >= 2)
    tampered = _forge(result, history=result.history + result.history[-1:])
    _refused("2.17-history", state, action, tampered)


# ------------------------------------------------------------ 2.9-S0


@pytest.mark.parametrize("bad", ["size", -1, True, "x", 2.0])
def test_a_deck_entry_that_is_no_card_is_named(bad: object) -> None:
    """[2.9-S0] S0 is a sequence of identities in Cards(H): an entry that is not one
    (the first id past the last identity, a negative number, a bool, a string, a float)
    is refused by a one-line error naming its index."""
    config = make_config(2)
    size = config.values * config.suit_count
    deck = list(deck_from_seed(config, 0))
    deck[7] = size if bad == "size" else bad  # type: ignore[call-overload]
    with pytest.raises(ConfigError) as error:
        initial_state(config, deck)
    assert str(error.value).startswith("deck[7]: ")
    assert "\n" not in str(error.value)


# ------------------------------------------------------------ state invariants


def _state_at(situation: Callable[[GameState], bool]) -> GameState:
    return _find(lambda s, a, r: situation(s))[0]


def test_conservation_refuses_a_draw_past_the_end_of_the_stack() -> None:
    """[2.13-conservation, E-5] the stack is S0 from next_card on, and nothing is drawn
    from an empty stack: a state claiming next_card = N + 1, with the non-existent id N
    in the discard pile, is refused."""
    state = _state_at(lambda s: s.next_card == len(s.deck))
    size = len(state.deck)
    assert is_cards_conserved(state)
    tampered = _forge(state, next_card=size + 1, discard=state.discard + (size,))
    assert not is_cards_conserved(tampered)


def test_conservation_refuses_a_stack_card_in_a_hand() -> None:
    """[2.13-conservation] every card is in exactly one area: a hand holding the top card
    of the stack in place of its own card is refused, although the number of cards is
    right and no id appears twice."""
    state = _state_at(lambda s: s.turns == 3 and s.next_card < len(s.deck))
    seat = 1
    own = state.hands[seat][0]
    assert own != 0 and is_cards_conserved(state)
    hand = (state.next_card,) + state.hands[seat][1:]
    assert not is_cards_conserved(_forge(state, hands=_replace(state.hands, seat, hand)))


def test_fields_refuse_a_two_played_on_an_empty_field() -> None:
    """[2.13-4] F[i] = (1, ..., fields[i]) built in order: a card of value y >= 2 on the
    played pile of a suit whose field was empty (a play that skipped the 1) is refused,
    even with fields[i] = y to match."""

    def skipping(s: GameState, card_id: int) -> bool:
        n = s.config.values
        return s.deck[card_id] % n >= 1 and s.fireworks[s.deck[card_id] // n] == 0

    state = _state_at(lambda s: any(skipping(s, c) for c in s.hands[0]))
    card_id = next(c for c in state.hands[0] if skipping(state, c))
    n = state.config.values
    suit, value = state.deck[card_id] // n, state.deck[card_id] % n + 1
    assert is_fields_gapless(state)
    tampered = _forge(state, played=state.played + (card_id,), fireworks=_replace(state.fireworks, suit, value))
    assert not is_fields_gapless(tampered)


def test_hand_size_refuses_h_minus_2_after_the_stack_is_empty() -> None:
    """[2.13-hand-size] once the stack is empty a hand holds h or h - 1 cards: h - 2 is
    refused (outside the literal reading of E-6)."""
    state = _state_at(lambda s: s.next_card == len(s.deck) and not tables_for(s.config).is_literal_empty_deal)
    h = state.config.hand_size
    seat = state.current_player
    short = state.hands[seat][: h - 2]
    tampered = _forge(state, hands=_replace(state.hands, seat, short), knowledge=_replace(state.knowledge, seat, state.knowledge[seat][: h - 2]))
    assert is_hand_size_valid(state)
    assert not is_hand_size_valid(tampered)


def test_hand_size_under_the_literal_reading_stops_at_h_minus_2() -> None:
    """[2.13-hand-size, E-6] under the literal reading (the deal takes the whole stack,
    step 3 not checked after it) the first player may hold h - 2 cards, never h - 3."""
    config = make_config(1, composition=[[1, 1, 1, 1]], hand_size=4, hints=0, errors=None, initial_stop_check=False)
    assert tables_for(config).is_literal_empty_deal
    state = initial_state(config, (0, 1, 2, 3))
    state = apply_legal(state, Play(0))
    state = apply_legal(state, Play(0))
    assert len(state.hands[0]) == 2 and is_hand_size_valid(state)
    tampered = _forge(state, hands=(state.hands[0][:1],), knowledge=(state.knowledge[0][:1],))
    assert not is_hand_size_valid(tampered)


def test_knowledge_refuses_a_card_without_a_knowledge_set() -> None:
    """[2.14-sound] every card in hand has a knowledge set: a hand whose last card lost
    its K_c is refused."""
    state = _state_at(lambda s: s.turns == 3)
    seat = 1
    tampered = _forge(state, knowledge=_replace(state.knowledge, seat, state.knowledge[seat][:-1]))
    assert is_knowledge_sound(state)
    assert not is_knowledge_sound(tampered)


def test_knowledge_refuses_a_seat_without_knowledge() -> None:
    """[2.14-sound] every seat's cards have knowledge sets: a state whose last seat has no
    knowledge tuple at all is refused with the clause named."""
    state = _state_at(lambda s: s.turns == 3)
    tampered = _forge(state, knowledge=state.knowledge[:-1])
    assert not is_knowledge_sound(tampered)
    with pytest.raises(icontract.ViolationError) as error:
        check_invariants(tampered)
    assert str(error.value).startswith("2.14-sound:")


def test_current_seat_is_not_negative() -> None:
    """[2.16-2-next] C is a seat, counted from 0: C = -1 is refused by the invariants
    (Python would read hands[-1] as the last seat's hand without complaint)."""
    state = _state_at(lambda s: s.turns == 3)
    with pytest.raises(icontract.ViolationError) as error:
        check_invariants(_forge(state, current_player=-1))
    assert str(error.value).startswith("2.16-2-next:")


def test_the_engine_builds_no_state_that_breaks_an_invariant() -> None:
    """[2.16-tokens] the states the engine builds (build_state, one per move) are checked
    against the invariants with contracts on: t = t0 + 1 is refused naming the clause."""
    state = _state_at(lambda s: s.turns == 3)
    fields = {field.name: getattr(state, field.name) for field in attrs.fields(GameState)}
    fields["clue_tokens"] = state.config.max_hints + 1
    with pytest.raises(icontract.ViolationError) as error:
        build_state(**fields)
    assert str(error.value).startswith("2.16-tokens:")


# ------------------------------------------------------------ views


def test_a_view_of_seat_minus_one_is_refused() -> None:
    """[2.17-view] a view is the view of a seat 0 .. p - 1: asking for seat -1 (which
    Python would read as the last seat) is a bug of the caller and is refused."""
    state = _state_at(lambda s: s.turns == 3)
    with pytest.raises(icontract.ViolationError) as error:
        view.make_view(state, -1)
    assert str(error.value).startswith("2.17-view: the seat exists")


def test_make_views_checks_every_view_it_builds(monkeypatch: pytest.MonkeyPatch) -> None:
    """[2.17-view] with contracts on, a view that shows more than its seat may know is
    refused when it is built: a bug planted in the shared parts (the stack seen one card
    larger than it is) raises the ViolationError of the stack condition."""
    state = _state_at(lambda s: s.turns == 3)
    original = view.ViewMaker._public_parts

    def leaky(self: view.ViewMaker, state: GameState) -> tuple[dict[str, object], tuple[tuple[int, ...], ...]]:
        shared, identities = original(self, state)
        return dict(shared, deck_size=len(state.deck) - state.next_card + 1), identities

    monkeypatch.setattr(view.ViewMaker, "_public_parts", leaky)
    with pytest.raises(icontract.ViolationError) as error:
        view.make_views(state, (0,))
    assert str(error.value).startswith("2.17-view: the stack is seen only as its size")


def test_a_views_repr_shows_no_private_token() -> None:
    """[2.17-view] a view shows what its seat may know: its repr lists the seat's
    information, not the private construction token (nor a memory address)."""
    state = _state_at(lambda s: s.turns == 3)
    text = repr(view.make_view(state, 0))
    assert "key=" not in text and " at 0x" not in text


def test_legality_is_asked_only_from_the_acting_seats_view() -> None:
    """[2.16-actions, 2.16-2] legality is decided from the view of the player to move; a
    view of another seat asked for legal actions, or whether an action is legal, is a
    bug of the caller and is refused naming the clause."""
    state = _state_at(lambda s: s.turns == 3)
    other = view.make_view(state, (state.current_player + 1) % state.config.players)
    with pytest.raises(icontract.ViolationError) as listing:
        view.view_legal_actions(other)
    assert str(listing.value).startswith("2.16-actions:")
    with pytest.raises(icontract.ViolationError) as asking:
        view.view_is_legal(other, Play(0))
    assert str(asking.value).startswith("2.16-2:")


# ------------------------------------------------------------ additions


def test_a_hint_result_keeps_every_seats_knowledge() -> None:
    """[2.16-2a-value] a hint changes K_c for the target's cards only; a result in which
    the last seat (not the target) has no knowledge tuple at all is refused."""
    state, action, result = _find(
        lambda s, a, r: isinstance(a, Hint) and a.kind == "value" and a.target != s.config.players - 1
    )
    (condition,) = [c for c in conditions.POSTCONDITIONS if c.clause == "2.16-2a-value"]
    tampered = _forge(result, knowledge=result.knowledge[:-1])
    assert not condition.holds(state, action, tampered)


def test_conservation_in_a_one_card_deal() -> None:
    """[2.13-conservation] one player dealt one card: the hand must hold card id 0, the
    card dealt; holding the stack's top card (id 1) instead is refused."""
    config = make_config(1, composition=[[1, 1]], hand_size=1, hints=0, errors=None)
    state = initial_state(config, (0, 1))
    assert state.next_card == 1 and state.hands == ((0,),) and is_cards_conserved(state)
    assert not is_cards_conserved(_forge(state, hands=((1,),)))


def test_no_stop_at_the_deal_while_a_point_can_be_scored() -> None:
    """[R-1, E-6] under end_when_no_points_possible step 3 runs once after the deal and
    stops only if no further point can be scored; with the 1s and 2s of both suits in
    the deck (and no 3s, so no suit can be completed) points can be scored: the game
    goes on."""
    config = make_config(2, composition=[[2, 1, 0], [2, 1, 0]], hand_size=2, end_when_no_points_possible=True)
    state = initial_state(config, deck_from_seed(config, 0))
    assert not state.terminal and state.remaining is None
