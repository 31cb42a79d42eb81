"""The state's invariants can fail: each predicate rejects a broken state, and the live
contracts refuse to build one, naming the clause [2.13, 2.13-1, 2.13-2, 2.13-4,
2.13-conservation, 2.13-hand-size, 2.14-sound, 2.16-tokens, 2.16-errors, 2.16-2-next,
2.16-2-R, 2.16-2a]."""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any, cast

import attrs
import icontract
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.base.contracts import ENABLED
from hanabi_ref.engine.actions import Hint
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.fastpath import build_state
from hanabi_ref.engine.state import (
    CHECKED_MARK,
    Event,
    GameState,
    is_cards_conserved,
    is_errors_within_bound,
    is_fields_gapless,
    is_hand_size_valid,
    is_knowledge_sound,
    stack,
)
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.transition import apply, apply_legal, initial_state, new_game
from tests.helpers import configs, greedy_open_action, play_out


def mid_game() -> GameState:
    """A 3-player state after some successful plays and discards."""
    config = make_config(3)
    states = play_out(initial_state(config, deck_from_seed(config, 31)), greedy_open_action)
    state = next(s for s in states if len(s.played) >= 3 and len(s.discard) >= 1 and s.clue_tokens < 8)
    return state


def tampered(state: GameState, **changes: Any) -> GameState:
    """A look-alike of ``state`` with some fields changed, built without the contracts."""
    fields = {f.name: getattr(state, f.name) for f in attrs.fields(GameState)}
    fields.update(changes)
    return cast(GameState, types.SimpleNamespace(**fields))


def _swap_played_order(s: GameState) -> dict[str, Any]:
    return {"played": tuple(reversed(s.played))}


def _move_a_card_to_the_discard_pile(s: GameState) -> dict[str, Any]:
    return {
        "hands": (s.hands[0][1:],) + s.hands[1:],
        "knowledge": (s.knowledge[0][1:],) + s.knowledge[1:],
        "discard": s.discard + s.hands[0][:1],
    }


CASES: list[tuple[str, Callable[[GameState], bool], Callable[[GameState], dict[str, Any]]]] = [
    ("2.13-conservation", is_cards_conserved, lambda s: {"discard": s.discard + s.discard[:1]}),
    ("2.13-conservation", is_cards_conserved, lambda s: {"next_card": s.next_card + 1}),
    ("2.13-4", is_fields_gapless, lambda s: {"fireworks": (s.fireworks[0] + 1,) + s.fireworks[1:]}),
    ("2.13-4", is_fields_gapless, _swap_played_order),
    ("2.13-hand-size", is_hand_size_valid, _move_a_card_to_the_discard_pile),
    ("2.14-sound", is_knowledge_sound, lambda s: {"knowledge": ((0,) + s.knowledge[0][1:],) + s.knowledge[1:]}),
    ("2.14-sound", is_knowledge_sound, lambda s: {"knowledge": (s.knowledge[0][1:],) + s.knowledge[1:]}),
    ("2.16-errors", is_errors_within_bound, lambda s: {"strikes": 4}),
    ("2.16-errors", is_errors_within_bound, lambda s: {"strikes": -1}),
]


@pytest.mark.parametrize("clause, predicate, change", CASES)
def test_predicates_reject_broken_states(
    clause: str, predicate: Callable[[GameState], bool], change: Callable[[GameState], dict[str, Any]]
) -> None:
    """[2.13-conservation, 2.13-4, E-14, 2.13-hand-size, 2.14-sound, 2.16-errors] each
    state predicate holds on a reached state and fails on a broken copy of it (a field
    height without its played cards, played cards out of order, ...)."""
    state = mid_game()
    assert predicate(state)
    assert not predicate(tampered(state, **change(state)))


@pytest.mark.parametrize(
    "clause, change",
    [(clause, change) for clause, _, change in CASES]
    + [
        ("2.16-tokens", lambda s: {"clue_tokens": s.config.max_hints + 1}),
        ("2.16-tokens", lambda s: {"clue_tokens": -1}),
        ("2.16-2-next", lambda s: {"current_player": s.config.players}),
        ("2.16-2-R", lambda s: {"remaining": s.config.players + 1}),
        ("2.16-2-R", lambda s: {"remaining": -2}),
    ],
)
def test_contracts_refuse_broken_states(clause: str, change: Callable[[GameState], dict[str, Any]]) -> None:
    """[2.13, 2.16-tokens, 2.16-2-next, 2.16-2-R] with contracts on (as in every test), a
    state that breaks an invariant cannot be built; the violation names the clause."""
    state = mid_game()
    with pytest.raises(icontract.ViolationError) as error:
        attrs.evolve(state, **change(state))
    assert clause in str(error.value)


def test_preconditions_are_live() -> None:
    """[2.16-2a-target] handing the trusted path an illegal action breaks its
    precondition (a bug in the caller, not a user error): the contracts are switched on."""
    config = make_config(2)
    state = initial_state(config, deck_from_seed(config, 0))
    with pytest.raises(icontract.ViolationError) as error:
        apply_legal(state, Hint(0, "value", 1))
    assert str(error.value).startswith("2.16-2a-target:")


def test_stack_is_the_rest_of_s0() -> None:
    """[2.13-1, 2.13-2, E-23] the stack is S0 from the top card not yet drawn, in order;
    the discard pile grows at its end, oldest first."""
    state = mid_game()
    assert stack(state) == state.deck[state.next_card :]
    after = apply(state, greedy_open_action(state))
    assert after.discard[: len(state.discard)] == state.discard


@settings(max_examples=60, deadline=None)
@given(configs(), st.integers(0, 2**64 - 1))
def test_new_game_is_the_checked_deal_of_its_seed(config: GameConfig, seed: int) -> None:
    """[D-seed, 2.16-1, 2.9-S0] the set-up that trusts a deck it dealt itself gives the
    state that the checked set-up gives for the same deck."""
    assert new_game(config, seed) == initial_state(config, deck_from_seed(config, seed))


def test_a_built_state_equals_the_one_attrs_builds() -> None:
    """[2.13] build_state fills the state's fields as attrs' own __init__ does: the two
    are equal, hash alike and have exactly the declared fields, besides the engine's mark
    of a checked state when contracts are on (CT-state)."""
    state = play_out(initial_state(make_config(3), deck_from_seed(make_config(3), 5)), greedy_open_action)[12]
    values = [getattr(state, field.name) for field in attrs.fields(type(state))]
    built = build_state(*values)
    assert built == state and hash(built) == hash(state)
    marks = [CHECKED_MARK] if ENABLED else []
    assert sorted(vars(built)) == sorted([field.name for field in attrs.fields(type(state))] + marks)


def test_recorded_events_are_the_events_their_constructor_builds() -> None:
    """[2.17-history] the engine builds each Event as its tuple directly; every event of
    a played game is an Event equal to the one its keyword constructor gives for the same
    fields, field by field."""
    config = make_config(4)
    for seed in range(3):
        final = play_out(initial_state(config, deck_from_seed(config, seed)), greedy_open_action)[-1]
        assert final.history
        for event in final.history:
            rebuilt = Event(**{name: getattr(event, name) for name in Event._fields})
            assert type(event) is Event and event == rebuilt
            assert [getattr(event, name) for name in Event._fields] == list(rebuilt)


def _key_from_clause(state: GameState, seat: int) -> int:
    """Which hints to ``seat`` touch a card of its hand, worked out hint by hint from
    the identities each hint touches (2.16-2a-value, 2.16-2a-suit), as a key: bit i for
    the i-th hint of the catalogue (Tables.hint_order)."""
    key = 0
    for index, (_, _, touched) in enumerate(state.tables.hint_order):
        if any(touched >> state.deck[card_id] & 1 for card_id in state.hands[seat]):
            key |= 1 << index
    return key


@settings(max_examples=25, deadline=None)
@given(configs(), st.integers(0, 2**64 - 1), st.integers(0, 2**32))
def test_each_state_keeps_the_touch_keys_of_its_hands(config: GameConfig, seed: int, choices: int) -> None:
    """[2.16-2a-empty] every state of a game carries each hand's touch key (which hints
    touch a card of it), kept up to date by the moves as cards come and go: at every
    state it is the key worked out from the hand, hint by hint, and the constructor
    (attrs.evolve) computes the same."""
    state = new_game(config, seed)
    while True:
        assert state.touch_keys == tuple(_key_from_clause(state, seat) for seat in range(config.players))
        assert attrs.evolve(state).touch_keys == state.touch_keys
        if state.terminal:
            break
        options = legal_actions(state)
        state = apply_legal(state, options[(choices + state.turns * 7) % len(options)])
