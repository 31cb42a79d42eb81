"""What check_move reads once per move, and what it decides by identity, can still fail
[CT-move, 2.17-history, 2.16-2a-cost, 2.16-2b, 2.9].

:func:`~hanabi_ref.engine.conditions.check_move` works out what the clauses ask of the
action once (:class:`~hanabi_ref.engine.conditions.Reading`), compares the areas a move
leaves alone by identity before value, and decides the history's shared prefix by identity
when the two histories see one list.  These tests tamper with exactly those parts: the new
history entry on a shared list, the prefix on another list, the length, an area a hint or
a card move must leave alone given as another object with other values; each is refused,
naming its clause, and an equal copy of an untouched area is accepted.  The states are
reached by legal play of seeded games; the tampered ones are copies built past the class.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import icontract
import pytest

from hanabi_ref.engine import conditions
from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.history import History, entry_after
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.state import GameState
from hanabi_ref.engine.transition import apply_legal, initial_state

Move = tuple[GameState, Action, GameState]


def _forge(state: GameState, **changes: Any) -> GameState:
    """A copy of ``state``'s fields with ``changes``, its invariants not checked."""
    forged: GameState = object.__new__(GameState)
    forged.__dict__.update(state.__dict__)
    forged.__dict__.update(changes)
    return forged


def _moves() -> Iterator[Move]:
    for preset in ("thesis", "hle"):
        for players in (2, 3):
            config = make_config(players, preset=preset)
            state = initial_state(config, deck_from_seed(config, 7))
            while not state.terminal:
                options = legal_actions(state)
                action = options[(state.turns * 5 + 3) % len(options)]
                result = apply_legal(state, action)
                yield state, action, result
                state = result


def _find(predicate: Callable[[GameState, Action, GameState], bool]) -> Move:
    for move in _moves():
        if predicate(*move):
            return move
    raise AssertionError("no move of the sample games fits")


def _refused(state: GameState, action: Action, result: GameState) -> str:
    with pytest.raises(icontract.ViolationError) as error:
        conditions.check_move(state, action, result)
    return str(error.value).split(":")[0]


@pytest.mark.checks("CT-move", "2.17-history")
def test_a_shared_history_is_decided_by_identity_and_still_fails() -> None:
    """[2.17-history] on the list the state before shares, a result whose new entry is
    wrong, which adds two entries or none, is refused; its own entry is accepted."""
    state, action, result = _find(lambda s, a, r: s.turns == 4)
    assert result.history._events is state.history._events  # one line of play, one list
    assert entry_after(result.history, state.history) == result.history[-1]
    event, wrong = result.history[-1], result.history[-1]._replace(turn=state.turns + 1)

    def shared(extend: Callable[[History], History]) -> tuple[GameState, GameState]:
        """The state before on a list of its own, and the result with ``extend`` of its
        history, on that same list."""
        own = History(state.history)
        after = extend(own)
        assert after._events is own._events
        return _forge(state, history=own), _forge(result, history=after)

    conditions.check_move(*_with(action, shared(lambda h: h.appended(event))))
    for extend in (lambda h: h.appended(wrong), lambda h: h.appended(event).appended(event), lambda h: h):
        before, after = shared(extend)
        assert _refused(before, action, after) == "2.17-history"


def _with(action: Action, states: tuple[GameState, GameState]) -> tuple[GameState, Action, GameState]:
    return states[0], action, states[1]


@pytest.mark.checks("CT-move", "2.17-history")
def test_a_history_on_another_list_is_compared_entry_by_entry() -> None:
    """[2.17-history] a result history on another list whose earlier entry differs (the
    prefix the identity test skips on a shared list) is refused; a faithful copy passes."""
    state, action, result = _find(lambda s, a, r: s.turns == 6)
    entries = list(result.history)
    conditions.check_move(state, action, _forge(result, history=History(entries)))
    entries[2] = entries[2]._replace(player=(entries[2].player + 1) % state.config.players)
    assert _refused(state, action, _forge(result, history=History(entries))) == "2.17-history"
    assert _refused(state, action, _forge(result, history=tuple(entries))) == "2.17-history"


@pytest.mark.checks("CT-move", "2.16-2a-cost", "2.16-2b", "2.9")
def test_areas_compared_by_identity_first_are_still_compared_by_value() -> None:
    """[2.16-2a-cost, 2.16-2b, 2.9] an untouched area given as an equal copy passes; given
    with other values it is refused under the clause that keeps it."""
    state, hint, result = _find(lambda s, a, r: isinstance(a, Hint))
    copies = {"hands": tuple(tuple(h) for h in result.hands), "played": tuple(result.played),
              "discard": tuple(result.discard), "fireworks": tuple(result.fireworks), "deck": tuple(result.deck)}
    conditions.check_move(state, hint, _forge(result, **{name: tuple(list(v)) for name, v in copies.items()}))
    other = (hint.target + 1) % state.config.players  # type: ignore[union-attr]
    hands = tuple(h[::-1] if seat == other else h for seat, h in enumerate(result.hands))
    assert _refused(state, hint, _forge(result, hands=hands)) == "2.16-2a-cost"
    fields = (result.fireworks[0] + 1,) + result.fireworks[1:]
    assert _refused(state, hint, _forge(result, fireworks=fields)) == "2.16-2a-cost"
    deck = result.deck[1:] + result.deck[:1]
    assert _refused(state, hint, _forge(result, deck=deck)) == "2.9"
    state, card, result = _find(lambda s, a, r: isinstance(a, (Discard, Play)) and s.turns > 2)
    other = (state.current_player + 1) % state.config.players
    knowledge = tuple(tuple(k ^ 1 for k in known) if seat == other else known
                      for seat, known in enumerate(result.knowledge))
    assert _refused(state, card, _forge(result, knowledge=knowledge)) == "2.16-2b"


@pytest.mark.checks("CT-move", "2.16-2c-success", "2.16-2c-fail")
def test_the_reading_of_a_play_is_the_card_played() -> None:
    """[2.16-2c-success, 2.16-2c-fail] the reading of a play fits the card on its stack
    exactly when the thesis' test F[x] = (1, ..., y - 1) holds for it, counted here from
    the fields and the card's identity."""
    seen = set()
    for state, action, result in _moves():
        if isinstance(action, Play):
            reading = conditions.read_move(state, action, result)
            card = state.deck[state.hands[state.current_player][action.slot]]
            n = state.config.values
            assert reading.card == card and reading.fits == (state.fireworks[card // n] == card % n)
            seen.add(reading.fits)
    assert seen == {True, False}
