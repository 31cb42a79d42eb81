"""Machine check of proofs/legal_action.md [PR-legal-action].

Exhaustive breadth-first search over every state reachable by legal play, from every
order of the deck, in tiny configurations under the rule options that bear on legality,
stopping or the hands.  In every non-terminal state it asserts

* the claim: the player to move has a legal action, and ``Play(0)`` is one;
* Lemma 1 of legal_action.md: while R is infinite the stack is non-empty and every hand
  is full; once R = r the stack is empty and the r seats still to move, C, C + 1, ...,
  C + r - 1, hold h cards each;

and in every terminal state that no action is legal.  Which actions are legal is asked
of ``is_legal`` for every conceivable action and compared with ``legal_actions``
(see hanabi_search.py).  The last part checks the literal reading of E-6
(``initial_stop_check = false``), under which Lemma 1 fails and the claim needs h >= 2.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs
import icontract
import pytest

from hanabi_ref.engine.actions import Discard, Play
from hanabi_ref.base.contracts import ENABLED
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.engine.legality import is_legal, legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.presets import PRESETS, RuleOptions
from hanabi_ref.engine.state import GameState, deck_size
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_search import (
    PRESET_OPTIONS,
    SLOT_AND_SCORE_OPTIONS,
    Composition,
    describe_state,
    explore,
    option_combinations,
    tiny_config,
)

Family = tuple[int, Composition, int]  # (p, composition, h)
Grid = list[tuple[int, int | None, Mapping[str, bool | str]]]  # (t0, f0, options)

# N = p*h (the deal empties the stack) and N > p*h; h = 1 (a hand can become empty)
# and h > 1; p = 1 (no hints without self hints) up to p = 4.
TWO_AND_THREE_CARDS: list[Family] = [
    (1, ((1, 1),), 1),
    (1, ((1, 1),), 2),
    (2, ((1, 1),), 1),
    (3, ((1, 1, 1),), 1),
]
FOUR_CARDS: list[Family] = [
    (2, ((1, 1), (1, 1)), 1),
    (2, ((1, 1), (1, 1)), 2),
    (3, ((1, 1), (1, 1)), 1),
    (4, ((1, 1), (1, 1)), 1),
]
# The slowest searches run in the deep set only (python -m pytest -m deep): p = 3 and 4
# on the four-card deck (p = 3 with h = 1 stays on the three-card deck, N = p*h), and the
# five-card decks but the first (N > p*h with h > 1, two equal cards).
DEEP_FOUR_CARDS = FOUR_CARDS[2:]
FIVE_CARDS: list[object] = [
    (1, ((2, 1), (1, 1)), 2),
    pytest.param((2, ((2, 1), (1, 1)), 1), marks=pytest.mark.deep),
    pytest.param((2, ((2, 1), (1, 1)), 2), marks=pytest.mark.deep),
    pytest.param((3, ((2, 1), (1, 1)), 1), marks=pytest.mark.deep),
]


def grid_for(family: Family) -> Grid:
    """Which (t0, f0, options) each family is searched under.

    With t0 = 0 no hint can ever rescue a player without cards, so t0 = 0 is searched
    under all 24 option combinations; t0 >= 1 multiplies the states (knowledge aside,
    hints change the token count and whose turn it is), so it is searched under the
    presets' option bundles.  The 5-card decks are the slow part and get t0 <= 1."""
    combos: list[Mapping[str, bool | str]] = list(option_combinations())
    presets: list[Mapping[str, bool | str]] = list(PRESET_OPTIONS.values())
    if family in TWO_AND_THREE_CARDS:
        return [(t, f, o) for t in (0, 1, 2) for f in (1, None) for o in combos]
    if family in FOUR_CARDS:
        grid: Grid = [(0, f, o) for f in (1, None) for o in combos]
        return grid + [(t, 2, o) for t in (1, 2) for o in presets]
    grid = [(0, 2, o) for o in combos]
    return grid + [(1, 1, o) for o in presets]


def invariant_problem(state: GameState) -> str | None:
    """Lemma 1 of legal_action.md for a non-terminal state, or what breaks it."""
    p, h = state.config.players, state.config.hand_size
    if state.remaining is None:
        if deck_size(state) == 0:
            return "R is infinite but the stack is empty"
        if any(len(hand) != h for hand in state.hands):
            return "R is infinite but a hand is not full"
        return None
    r = state.remaining
    if not 1 <= r <= p:
        return f"R = {r} in a non-terminal state"
    if deck_size(state) != 0:
        return f"R = {r} but the stack is not empty"
    for offset in range(r):
        seat = (state.current_player + offset) % p
        if len(state.hands[seat]) != h:
            return f"R = {r} but seat {seat}, still to move, holds {len(state.hands[seat])} cards"
    return None


@attrs.define
class Tally:
    """What a search saw, so that a vacuous search cannot pass unnoticed."""

    states: int = 0
    non_terminal: int = 0
    last_round: int = 0
    empty_hands: int = 0


def check_state(state: GameState, tally: Tally, lemma: bool = True) -> None:
    """The assertions made in every reachable state.  :func:`explore` calls it on every
    state it reaches and then, for a non-terminal one, asks ``is_legal`` of every
    conceivable action and asserts that ``legal_actions`` lists exactly the legal ones,
    so the engine's list stands for both here."""
    tally.states += 1
    if state.terminal:
        assert legal_actions(state) == [], describe_state(state)
        return
    tally.non_terminal += 1
    assert legal_actions(state), f"[PR-legal-action] no legal action: {describe_state(state)}"
    assert is_legal(state, Play(0)), f"[PR-legal-action] Play(0) is illegal: {describe_state(state)}"
    if lemma:
        problem = invariant_problem(state)
        assert problem is None, f"[PR-legal-action] Lemma 1: {problem}: {describe_state(state)}"
    tally.last_round += state.remaining is not None
    tally.empty_hands += any(not hand for hand in state.hands)


def search(family: Family, grid: Grid, lemma: bool = True) -> Tally:
    """Search every configuration of the family on the grid, checking every state."""
    players, composition, hand_size = family
    tally = Tally()
    for hints, errors, options in grid:
        config = tiny_config(players, composition, hand_size, hints, errors, options)
        explore(config, lambda state: check_state(state, tally, lemma))
    return tally


def _family_id(family: Family) -> str:
    p, composition, h = family
    return f"p{p}-{'+'.join(''.join(map(str, suit)) for suit in composition)}-h{h}"


@pytest.mark.parametrize("family", [
    *TWO_AND_THREE_CARDS,
    *(pytest.param(family, marks=pytest.mark.deep) if family in DEEP_FOUR_CARDS else family for family in FOUR_CARDS),
    *FIVE_CARDS,
], ids=_family_id)
def test_player_to_move_has_a_legal_action(family: Family) -> None:
    """[PR-legal-action] the claim and Lemma 1 in every reachable state."""
    players, _, hand_size = family
    tally = search(family, grid_for(family))
    assert tally.non_terminal > 0 and tally.last_round > 0, "the search reached no last round"
    if hand_size == 1 and players > 1:
        # The delicate case of the proof was reached: a seat holding no card at all
        # while the game goes on.
        assert tally.empty_hands > 0, "the search never reached a hand emptied in the last round"


def test_preset_bundles_match_the_presets() -> None:
    """The option bundles searched as "hle" and "hanab-live" are those presets' options."""
    for name in ("thesis", "hle", "hanab-live"):
        overrides: dict[str, Any] = dict(PRESET_OPTIONS[name])
        assert attrs.evolve(RuleOptions(), **overrides) == PRESETS[name].options, name


def test_slot_order_deal_and_score_options_change_nothing() -> None:
    """[PR-legal-action] the same under round-robin deals, newest-first slots and the
    fireworks strikeout score (they permute slots or change a score only)."""
    for family in [(2, ((1, 1), (1, 1)), 1), (2, ((2, 1), (1, 1)), 2)]:
        grid: Grid = [(t, 1, o) for t in (0, 1) for o in SLOT_AND_SCORE_OPTIONS]
        assert search(family, grid).non_terminal > 0


# ------------------------------------------- the literal reading of step 1 [E-6]


def literal_config(config: GameConfig) -> GameConfig:
    """``config`` with initial_stop_check = false, bypassing the validator that rejects
    the combination h = 1, N = p (used only to exhibit the counterexample)."""
    literal = attrs.evolve(config)
    object.__setattr__(literal, "options", attrs.evolve(config.options, initial_stop_check=False))
    return literal


@pytest.mark.parametrize("family", [
    (1, ((1, 1),), 1),
    (2, ((1, 1), (1, 1)), 1),
    pytest.param((3, ((1, 1), (1, 1)), 1), marks=pytest.mark.deep),
], ids=_family_id)
def test_literal_reading_is_the_same_game_when_the_stack_outlasts_the_deal(family: Family) -> None:
    """With N > p*h the option initial_stop_check changes nothing (step 3 has nothing
    to do after the deal), so the claim and Lemma 1 hold under it too."""
    grid: Grid = [(t, 2, dict(o, initial_stop_check=False)) for t in (0, 1) for o in PRESET_OPTIONS.values()]
    assert search(family, grid).last_round > 0


def test_literal_reading_with_hand_size_one_is_rejected() -> None:
    """[E-6] h = 1 with N = p*h under initial_stop_check = false is a configuration error."""
    for players, composition in [(1, ((1,),)), (2, ((1, 1),)), (3, ((1, 1, 1),))]:
        with pytest.raises(ConfigError, match="initial_stop_check"):
            tiny_config(players, composition, 1, 0, 2, {"initial_stop_check": False})


def test_literal_reading_with_hand_size_one_would_strand_the_first_player() -> None:
    """[E-6] Why it is rejected: without the initial stop check the first player moves
    again at move p + 1; with h = 1 and no hint token it holds no card and has no legal
    action although the game is not over (legal_action.md, "Where the claim fails")."""
    config = literal_config(tiny_config(2, ((1, 1),), 1, 0, 2, {}))
    state = initial_state(config, (0, 1))
    assert state.remaining is None  # no stop check after the deal
    state = apply(state, Discard(0))  # seat 0 discards its only card; now R := p
    if ENABLED:
        # The engine's own postcondition of apply states the claim and catches it.
        with pytest.raises(icontract.ViolationError, match="PR-legal-action"):
            apply(state, Play(0))
        return
    state = apply(state, Play(0))  # seat 1 misplays its 2
    assert not state.terminal and state.current_player == 0 and state.hands[0] == ()
    assert legal_actions(state) == []


@pytest.mark.parametrize("family", [(1, ((1, 1),), 2), (2, ((1, 1), (1, 1)), 2), (1, ((1, 1, 1),), 3)], ids=_family_id)
def test_literal_reading_with_larger_hands(family: Family) -> None:
    """[E-6, PR-legal-action] With h >= 2 and N = p*h the claim survives the literal
    reading, but Lemma 1 does not: the first player moves twice and, at its second
    move, may hold h - 1 cards."""
    players, composition, hand_size = family
    lemma_broken = False
    short_mover = False
    for hints in (0, 1):
        for options in PRESET_OPTIONS.values():
            config = tiny_config(players, composition, hand_size, hints, 2, dict(options, initial_stop_check=False))

            def visit(state: GameState) -> None:
                nonlocal lemma_broken, short_mover
                check_state(state, Tally(), lemma=False)
                if not state.terminal:
                    lemma_broken |= invariant_problem(state) is not None
                    short_mover |= len(state.hands[state.current_player]) == hand_size - 1
                    assert len(state.hands[state.current_player]) >= hand_size - 1

            explore(config, visit)
    assert lemma_broken and short_mover


def test_the_default_reading_matches_example_3_12() -> None:
    """Example 3.12: S = (1, 2, 3, 4), one player with h = 4: one move only, so the best
    score is 1 (Theorem 3.13.4: at most N - m + 1 = 1 turns)."""
    config = tiny_config(1, ((1, 1, 1, 1),), 4, 0, 3, {})
    state = initial_state(config, (0, 1, 2, 3))
    assert state.remaining == 1
    scores = set()
    for action in legal_actions(state):
        final = apply(state, action)
        assert final.terminal
        scores.add(sum(final.fireworks))
    assert max(scores) == 1
