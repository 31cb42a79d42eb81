"""Legality: which actions a player may take, how many there are, and which clause an
illegal one breaks [2.16-2, 2.16-actions, 2.16-2a-token, 2.16-2a-target, 2.16-2a-value,
2.16-2a-suit, 2.16-2a-empty, 2.16-2b, 2.16-2c, E-2, E-4, E-11, E-21, 2.16-3]."""

from __future__ import annotations

from typing import cast

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.actions import Action, Discard, Hint, HintKind, Play
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.base.errors import IllegalActionError
from hanabi_ref.engine.legality import illegality, is_legal, legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import make_view, view_is_legal
from tests.helpers import (
    NAMED_VARIANTS,
    Run,
    choose_action,
    compositions,
    reached,
    reaches_assertion,
    reference_hint_mask,
    runs,
    thesis_options,
)


def catalogue(state: GameState) -> list[Action]:
    """Every action the engine could be asked for, legal or not: all hint targets (and
    seats that do not exist), both kinds (and a bogus one), values and colours out of
    range, slots -1 .. h + 1."""
    config = state.config
    top = max(config.values, len(config.colours)) + 1
    actions: list[Action] = []
    for target in range(-1, config.players + 1):
        for kind in ("value", "colour", "shape"):
            for value in range(-1, top + 1):
                actions.append(Hint(target, cast(HintKind, kind), value))
    for slot in range(-1, config.hand_size + 2):
        actions += [Discard(slot), Play(slot)]
    return actions


def broken_clauses(state: GameState, action: Action) -> set[str]:
    """Every clause ``action`` breaks in ``state``, read off spec/rules.md section 4."""
    config, options = state.config, state.config.options
    if state.terminal:
        return {"2.16-3"}
    broken: set[str] = set()
    if isinstance(action, Hint):
        if not 0 <= action.target < config.players or (action.target == state.current_player and not options.self_hints):
            broken.add("2.16-2a-target")
        if action.kind == "value" and not 1 <= action.subject <= config.values:
            broken.add("2.16-2a-value")
        elif action.kind == "colour" and not 0 <= action.subject < len(config.colours):
            broken.add("2.16-2a-suit")
        elif action.kind not in ("value", "colour"):
            broken.add("2.16-2a")
        if state.clue_tokens < 1:
            broken.add("2.16-2a-token")
        if not broken and not options.empty_hints:
            mask = reference_hint_mask(config, action)
            if not any(mask >> state.deck[c] & 1 for c in state.hands[action.target]):
                broken.add("2.16-2a-empty")
        return broken
    assert isinstance(action, (Discard, Play))
    if not 0 <= action.slot < len(state.hands[state.current_player]):
        broken.add("2.16-2b" if isinstance(action, Discard) else "2.16-2c")
    if isinstance(action, Discard) and state.clue_tokens == config.max_hints and not options.discard_at_max_hints:
        broken.add("E-2")
    return broken


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(runs(), st.data())
def test_every_action_of_the_catalogue(run: Run, data: st.DataObject) -> None:
    """[2.16-2, 2.16-actions, 2.16-2a-token, 2.16-2a-target, 2.16-2a-value, 2.16-2a-suit,
    2.16-2a-empty, 2.16-2b, 2.16-2c, E-2, E-4, 2.16-3] for every action of the catalogue:
    it is legal exactly when it breaks no clause, is_legal agrees with legal_actions and
    with the acting seat's view, and an illegal action is refused by apply with an
    IllegalActionError naming one of the clauses it breaks."""
    state = data.draw(st.sampled_from(run.states))
    legal = legal_actions(state)
    view = make_view(state, state.current_player)
    for action in catalogue(state):
        broken = broken_clauses(state, action)
        assert is_legal(state, action) == (action in legal) == (not broken), action
        assert view_is_legal(view, action) == (not broken)
        problem = illegality(state, action)
        assert (problem is None) == (not broken)
        if problem is not None:
            assert problem[0] in broken, (action, problem, broken)
    illegal = [a for a in catalogue(state) if broken_clauses(state, a)]
    for action in data.draw(st.lists(st.sampled_from(illegal), max_size=5)) if illegal else []:
        with pytest.raises(IllegalActionError) as error:
            apply(state, action)
        assert error.value.clause in broken_clauses(state, action)


@pytest.mark.parametrize("players, count", [(2, 20), (3, 30), (4, 38), (5, 48)])
def test_action_count_of_example_2_18(players: int, count: int) -> None:
    """[2.16-actions, E-11] classic Hanabi under the thesis' rules, t >= 1, full hands:
    10(p - 1) + 2h actions (Example 2.18): 20, 30, 38, 48 for p = 2 .. 5."""
    config = make_config(players)
    state = initial_state(config, deck_from_seed(config, players))
    assert len(legal_actions(state)) == count
    assert len(set(legal_actions(state))) == count


@st.composite
def formula_configs(draw: st.DrawFn) -> GameConfig:
    """Configurations of the thesis preset with empty hints and discards at t0 allowed
    (the other options varied), every named variant and small custom compositions, as
    :func:`tests.helpers.configs` draws them [P-options]."""
    options = draw(thesis_options())
    options["empty_hints"] = options["discard_at_max_hints"] = True
    hints = draw(st.integers(0, 8))
    errors = draw(st.one_of(st.none(), st.integers(1, 3)))
    if draw(st.booleans()):
        composition = draw(compositions())
        size = sum(map(sum, composition))
        hand_size = draw(st.integers(1, min(3, size)))
        players = draw(st.integers(1, min(3, size // hand_size)))
        if size == players * hand_size and hand_size == 1:
            options["initial_stop_check"] = True  # the literal E-6 is refused there (PR-legal-action)
        return make_config(players, composition=composition, hand_size=hand_size, hints=hints, errors=errors, **options)
    variant = draw(st.sampled_from(NAMED_VARIANTS))
    chosen_hand = draw(st.one_of(st.none(), st.integers(1, 5)))
    return make_config(draw(st.integers(1, 6)), "thesis", variant, hand_size=chosen_hand, hints=hints, errors=errors, **options)


@st.composite
def full_hand_states(draw: st.DrawFn) -> GameState:
    """A state of a :func:`formula_configs` game reached by legal moves (drawn as
    :func:`tests.helpers.runs` draws them) in which the game goes on and the player to
    move holds a full hand: play stops before the first move that would end the game or
    leave the next player a card short."""
    config = draw(formula_configs())
    state = initial_state(config, deck_from_seed(config, draw(st.integers(0, 2**64 - 1))))
    for _ in range(draw(st.integers(0, 120))):
        if state.terminal:
            break  # the deal itself ended the game (a custom deck with no stack)
        after = apply(state, choose_action(draw, state))
        if after.terminal or len(after.hands[after.current_player]) < config.hand_size:
            break
        state = after
    return state


@reaches_assertion()
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(full_hand_states())
def test_action_count_formula(state: GameState) -> None:
    """[2.16-actions, E-11, E-4] in the thesis preset with empty hints and discards at
    t0 allowed, t >= 1 and a full hand, there are (p - 1)(n + c) + 2h actions (c clue
    colours; p targets with self hints); with t = 0, 2h."""
    config, options = state.config, state.config.options
    if state.terminal or len(state.hands[state.current_player]) < config.hand_size:
        return  # only where the deal itself ends the game (a custom deck with no stack)
    targets = config.players if options.self_hints else config.players - 1
    hints = targets * (config.values + len(config.colours)) if state.clue_tokens >= 1 else 0
    event("t = 0" if state.clue_tokens == 0 else "t >= 1")
    reached()
    assert len(legal_actions(state)) == hints + 2 * config.hand_size


def test_rainbow_action_count() -> None:
    """[E-11, V-rainbow] Rainbow (6 Suits) with p = 3, t >= 1: 2 (5 + 5) + 10 = 30 actions,
    not (p - 1)(n + k) + 2h = 32: the rainbow suit has no clue colour."""
    config = make_config(3, variant="rainbow")
    assert len(legal_actions(initial_state(config, deck_from_seed(config, 0)))) == 30


def test_legal_action_order() -> None:
    """[2.16-actions] hints by target seat, colours by index then values; then discards by
    slot; then plays by slot."""
    config = make_config(3)
    state = initial_state(config, deck_from_seed(config, 8))
    expected: list[Action] = []
    for target in (1, 2):
        expected += [Hint(target, "colour", c) for c in range(5)]
        expected += [Hint(target, "value", v) for v in range(1, 6)]
    expected += [Discard(s) for s in range(5)] + [Play(s) for s in range(5)]
    assert legal_actions(state) == expected


def test_single_player_has_no_hints() -> None:
    """[E-4, 2.16-2a-target] with p = 1 and no self hints there is nobody to hint: 2h
    actions; with self hints, n + k + 2h."""
    config = make_config(1)
    state = initial_state(config, deck_from_seed(config, 1))
    assert len(legal_actions(state)) == 10
    config = make_config(1, self_hints=True)
    assert len(legal_actions(initial_state(config, deck_from_seed(config, 1)))) == 20


def test_a_hints_subject_has_one_name() -> None:
    """[2.16-actions] a hint names a value 1..n or a clue-colour index as ``subject``;
    the old name ``value`` (misleading for colour hints) is gone."""
    hint = Hint(1, "colour", 2)
    assert hint.subject == 2
    assert not hasattr(hint, "value")
