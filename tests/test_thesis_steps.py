"""Steps of Algorithm 4.6 (spec/strategies.md) on hand-built positions: the defaults of
the decision rule (4.6), discard rule 2 (4.6-discard-2) and the fallback when no step
applies (S-fallback).

Positions are reached by legal moves from a stacked deck; the expected moves are worked
out from the clauses (probabilities by counting the copies the seat cannot see) and, for
the fallback, from the engine's own order of legal actions.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from hanabi_ref.engine.actions import Discard, Hint, Play
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.configs import make_config
from hanabi_ref.players.strategies import factory_for
from hanabi_ref.players.strategies.thesis import ThesisStrategy
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import make_view
from tests.helpers import stacked_deck

CLASSIC = make_config(3)


def thesis(seat: int, seed: int = 0, **params: object) -> ThesisStrategy:
    strategy = factory_for("thesis", params)(CLASSIC, seat, seed)
    assert isinstance(strategy, ThesisStrategy)
    return strategy


@pytest.mark.checks("4.6")
def test_the_defaults_are_the_thesis_best_rule() -> None:
    """[4.6] without parameters: rho_h = 3, rho_d = 2, omega_p = 0.6, omega_s = omega_d =
    omega_h = 1 (the thesis' best rule, section 4.3)."""
    strategy = thesis(0)
    assert (strategy.rho_h, strategy.rho_d, strategy.omega_s) == (3, 2, 1)
    assert Fraction(*strategy.omega_p) == Fraction(3, 5) and Fraction(*strategy.omega_d) == 1
    assert strategy.omega_h == 1


@pytest.mark.checks("4.6-discard-2")
def test_discard_rule_2_takes_the_card_most_likely_worthless() -> None:
    """[4.6-discard-2] red at 1 (seat 0 played it), then seat 1 tells seat 2 its 1 (slot
    1, a green 1): of the fourteen 1s seat 2 cannot see, two are the red 1s left, now
    worthless, so that card is worthless with probability 1/7; its other cards are no 1
    and nothing else is worthless, so 0.  With nothing sure to play, no hint (omega_h =
    0) and nothing sure worthless, rule 2 discards slot 1 whatever the seed; rule 1
    (random) does not always."""
    hands = [[(1, 0), (3, 1), (4, 2), (2, 3), (3, 4)], [(4, 1), (5, 2), (4, 3), (4, 4), (3, 2)],
             [(3, 1), (1, 2), (4, 3), (2, 4), (3, 0)]]
    state = initial_state(CLASSIC, stacked_deck(CLASSIC, [card for hand in hands for card in hand]))
    for action in (Play(0), Hint(2, "value", 1)):
        state = apply(state, action)
    assert state.current_player == 2 and state.fireworks[0] == 1
    view = make_view(state, 2)
    rule = {"omega_p": 1.0, "omega_h": 0.0, "omega_d": 1.0}
    assert {thesis(2, seed, rho_d=2, **rule).act(view) for seed in range(30)} == {Discard(1)}
    assert len({thesis(2, seed, rho_d=1, **rule).act(view) for seed in range(30)}) > 1


@pytest.mark.checks("S-fallback")
def test_with_no_hint_and_no_discard_the_first_legal_action_is_taken() -> None:
    """[S-fallback] hanab-live rules with no hint token at all (t0 = 0): a discard would
    be at all tokens, so it is illegal, and there is no hint to give; with nothing marked
    playable (omega_p = 1, nothing known) no step applies and the seat takes the first
    legal action in the engine's order, whatever the seed and the rules of (c) and (d)."""
    config = make_config(3, "hanab-live", hints=0)
    state = initial_state(config, stacked_deck(config, [(2, 0), (3, 1), (4, 2), (2, 3), (3, 4)]))
    legal = legal_actions(state)
    assert all(isinstance(action, Play) for action in legal)
    view = make_view(state, 0)
    chosen = {factory_for("thesis", {"omega_p": "1", "rho_h": str(h), "rho_d": str(d)})(config, 0, seed).act(view)
              for seed in range(5) for h in (1, 2, 3, 4) for d in (1, 2, 3, 4)}
    assert chosen == {legal[0]}
