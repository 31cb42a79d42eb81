"""Algorithm 2.16 as a whole [2.16]: step 1 once, then step 2 (one move) followed by step
3 (the stop check) until step 3 stops the game, with step 3 also evaluated once right
after step 1 (E-6).

Games are played by legal moves under the thesis preset (small decks, so that they end)
and replayed move by move beside a model of the loop written from the clause text: it
keeps its own R and decides from it, the errors, the fields and the stack, in the
order of 2.16-3, whether the game stops after each move.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.actions import Discard
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.base.errors import HanabiError
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState
from hanabi_ref.engine.transition import apply, initial_state
from tests.helpers import Run, compositions, runs

INFINITY = None


@st.composite
def thesis_configs(draw: st.DrawFn) -> GameConfig:
    """Thesis rules with their default options on a small deck; any p, h, t0 and f0."""
    composition = draw(compositions())
    size = sum(map(sum, composition))
    hand_size = draw(st.integers(1, min(3, size)))
    players = draw(st.integers(1, min(4, size // hand_size)))
    hints = draw(st.integers(0, 3))
    errors = draw(st.one_of(st.none(), st.integers(1, 3)))
    return make_config(players, "thesis", composition=composition, hand_size=hand_size, hints=hints, errors=errors)


def stack_is_empty(state: GameState) -> bool:
    return state.next_card >= len(state.deck)


def check_step_1(config: GameConfig, state: GameState) -> int | None:
    """Step 1 happened once and nothing else: no move, seat 0 to move, t = t0, f = 0, D and
    F empty; then step 3 once: R = p at once if the deal took the whole stack. Returns R."""
    assert (state.turns, tuple(state.history), state.current_player) == (0, (), 0)
    assert (state.clue_tokens, state.strikes, state.discard) == (config.max_hints, 0, ())
    assert all(height == 0 for height in state.fireworks)
    remaining = config.players if stack_is_empty(state) else INFINITY
    assert state.remaining == remaining
    assert not state.terminal
    return remaining


def stops(config: GameConfig, after: GameState, remaining: int | None) -> tuple[bool, int | None]:
    """Step 3 after a move, in the clause's order: the last allowed error (R = -1), R = 0,
    every field complete; else the last round starts when R = inf and the stack is empty."""
    if config.max_errors is not None and after.strikes >= config.max_errors:
        return True, remaining
    if remaining == 0:
        return True, remaining
    if all(height == config.values for height in after.fireworks):
        return True, remaining
    if remaining is INFINITY and stack_is_empty(after):
        return False, config.players
    return False, remaining


def replay_beside_the_model(run: Run) -> list[str]:
    """Walk the game and return, in order, the step each transition shows ("1", then
    "2", "3" per move); assert the engine agrees with the model at every step."""
    config = run.config
    steps = ["1"]
    remaining = check_step_1(config, run.states[0])
    for before, action, after in zip(run.states, run.actions, run.states[1:]):
        assert not before.terminal, "a move after step 3 stopped the game"
        # Step 2: exactly one action, by the player to move; then C and R advance.
        assert after.turns == before.turns + 1 and len(after.history) == len(before.history) + 1
        event = after.history[-1]
        assert (event.player, event.action) == (before.current_player, action)
        steps.append("2")
        if remaining is not INFINITY and remaining > 0:
            remaining -= 1
        # Step 3: the stop check, after the move.
        stopped, remaining = stops(config, after, remaining)
        steps.append("3")
        assert after.terminal == stopped, (after.turns, remaining)
        if not stopped:
            assert after.remaining == remaining
            assert after.current_player == (before.current_player + 1) % config.players
    assert run.final.terminal
    return steps


@settings(max_examples=150, deadline=None)
@given(run=thesis_configs().flatmap(lambda config: runs(max_moves=None, config=config)))
def test_a_game_is_step_1_then_moves_each_followed_by_the_stop_check(run: Run) -> None:
    """[2.16] replayed step by step, a game shows step 1 once, then step 2 and step 3
    alternating, and stops exactly where the model's step 3 stops it; no move follows."""
    steps = replay_beside_the_model(run)
    assert steps == ["1"] + ["2", "3"] * len(run.actions)
    with pytest.raises(HanabiError):
        apply(run.final, Discard(0))


def test_the_last_round_gives_every_player_one_more_move() -> None:
    """[2.16] step 3 follows the move that draws the last card, so R := p is set after
    that move and each of the p players, the drawer included, moves exactly once more."""
    config = make_config(3, "thesis", composition=[[2, 2, 2]], hand_size=1)
    state = initial_state(config, deck_from_seed(config, 0))
    movers: list[int] = []
    drawer = None
    while not state.terminal:
        movers.append(state.current_player)
        stack_was_full = not stack_is_empty(state)
        state = apply(state, Discard(0))
        if stack_was_full and stack_is_empty(state):
            drawer, movers = movers[-1], []
    assert drawer == 2  # seats 0, 1, 2 draw the three cards left after the deal
    assert movers == [0, 1, 2]
