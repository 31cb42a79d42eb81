"""What a view may hold, by list [2.17-view]: :data:`hanabi_ref.engine.view.VIEW_HOLDS` names
every attribute of a view with the type of its value, and the view condition refuses a
view holding anything else, whatever its name."""

from __future__ import annotations

from typing import Any

import attrs
import icontract
import pytest

from hanabi_ref.engine import view
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState, stack
from hanabi_ref.engine.transition import initial_state
from tests.helpers import greedy_open_action, play_all

CLAUSE = "2.17-view: a view holds only the listed fields, each of its type"


def _state_after(moves: int) -> GameState:
    config = make_config(3)
    states = [initial_state(config, deck_from_seed(config, 5))]
    for _ in range(moves):
        states += play_all(states[-1], [greedy_open_action(states[-1])])[1:]
    return states[-1]


def _tampered(made: view.PlayerView, **changes: Any) -> view.PlayerView:
    forged: view.PlayerView = object.__new__(view.PlayerView)
    forged.__dict__.update(made.__dict__)
    forged.__dict__.update(changes)
    return forged


@pytest.mark.checks("CT-view")
def test_the_list_names_every_field_of_a_view() -> None:
    """[2.17-view, CT-view] a field added to PlayerView must be added to the list, with its type."""
    assert set(view.VIEW_HOLDS) == {field.name for field in attrs.fields(view.PlayerView)}


def test_real_views_hold_only_listed_fields() -> None:
    """[2.17-view] every seat's view of a state reached by play passes the list."""
    state = _state_after(12)
    for made in view.make_views(state, range(state.config.players)):
        view.check_view(state, made.seat, made)


@pytest.mark.parametrize("name", ["notes", "cache", "_memo"])
@pytest.mark.checks("CT-view")
def test_the_stack_under_an_innocent_name_is_refused(name: str) -> None:
    """[2.17-view, CT-view] the identities of the stack, in order, planted under a name that
    says nothing of a deck, make the view condition fire naming its clause."""
    state = _state_after(6)
    hidden = stack(state)
    assert hidden
    made = view.make_view(state, state.current_player)
    with pytest.raises(icontract.ViolationError, match="^" + CLAUSE):
        view.check_view(state, state.current_player, _tampered(made, **{name: hidden}))


@pytest.mark.parametrize(
    "name, value",
    [
        ("history", "state"),  # the state itself where the history belongs
        ("config", "state"),
        ("hands", "deck"),  # a tuple, but of the deck's identities, not rows of card ids
        ("deck_size", "stack"),  # the stack's identities where its size belongs
        ("terminal", 0),  # an int is not a bool
        ("clue_tokens", True),  # a bool is not a count
    ],
)
@pytest.mark.checks("CT-view")
def test_a_listed_name_holding_another_type_is_refused(name: str, value: object) -> None:
    """[2.17-view, CT-view] a listed attribute holding a value of another type fires the condition."""
    state = _state_after(6)
    replacements = {"state": state, "deck": state.deck, "stack": stack(state)}
    planted = replacements.get(value, value) if isinstance(value, str) else value
    made = view.make_view(state, state.current_player)
    with pytest.raises(icontract.ViolationError, match="^" + CLAUSE):
        view.check_view(state, state.current_player, _tampered(made, **{name: planted}))
