"""Bad input is refused the same way whether contracts are on or off [2.16-2, 2.9, T-trace].

Contracts only check; they never steer.  Every illegal action, malformed deck,
configuration or trace below is refused with the same error class and the same
clause-numbered message in this process (contracts on, as in every test) and in a child
interpreter run with ``HANABI_REF_CONTRACTS=0`` (contracts removed).  The cases are
built here from the clauses; the child runs this module's :func:`refusals`.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from hanabi_ref.engine.actions import Discard, Hint, Play
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.base.errors import HanabiError
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState
from hanabi_ref.formats.trace import replay, trace_from_json
from hanabi_ref.engine.transition import apply, initial_state
from tests.processes import run_process

ROOT = Path(__file__).resolve().parents[1]


def _opening(preset: str, players: int = 3) -> GameState:
    config = make_config(players, preset=preset)
    return initial_state(config, deck_from_seed(config, 11))


def _without_tokens(preset: str) -> GameState:
    """Hints given until t = 0, each the first legal hint of its turn."""
    state = _opening(preset)
    while state.clue_tokens:
        state = apply(state, next(a for a in legal_actions(state) if isinstance(a, Hint)))
    return state


def _finished(preset: str) -> GameState:
    state = _opening(preset)
    while not state.terminal:
        state = apply(state, legal_actions(state)[-1])
    return state


def _empty_hint(preset: str) -> tuple[GameState, object]:
    """A value hint touching no card of the next seat (2.16-2a-empty)."""
    state = _opening(preset)
    target = (state.current_player + 1) % state.config.players
    values = {state.deck[c] % state.config.values + 1 for c in state.hands[target]}
    missing = min(set(range(1, state.config.values + 1)) - values)
    return state, Hint(target, "value", missing)


Maker = Callable[[str], tuple[GameState, object]]

ACTION_CASES: tuple[tuple[str, Maker], ...] = (
    ("self hint", lambda p: (_opening(p), Hint(0, "value", 1))),
    ("no such seat", lambda p: (_opening(p), Hint(3, "value", 1))),
    ("value 0", lambda p: (_opening(p), Hint(1, "value", 0))),
    ("value 6", lambda p: (_opening(p), Hint(1, "value", 6))),
    ("colour 5", lambda p: (_opening(p), Hint(1, "colour", 5))),
    ("kind", lambda p: (_opening(p), Hint(1, "suit", 1))),  # type: ignore[arg-type]
    ("no token", lambda p: (_without_tokens(p), Hint(1, "value", 1))),
    ("slot 5", lambda p: (_opening(p), Play(5))),
    ("slot -1", lambda p: (_opening(p), Discard(-1))),
    ("slot text", lambda p: (_opening(p), Play("0"))),  # type: ignore[arg-type]
    ("game over", lambda p: (_finished(p), Play(0))),
    ("not an action", lambda p: (_opening(p), "play 0")),
)
"""Illegal in every preset."""

PRESET_CASES: tuple[tuple[str, str, Maker], ...] = (
    ("hle", "empty hint", _empty_hint),
    # [E-2] legal in the thesis' algorithm, refused under the two other presets.
    ("hle", "discard at t0", lambda p: (_opening(p), Discard(0))),
    ("hanab-live", "discard at t0", lambda p: (_opening(p), Discard(0))),
)


def _action_cases() -> list[tuple[str, str, Maker]]:
    cases = [(preset, name, make) for preset in ("thesis", "hle", "hanab-live") for name, make in ACTION_CASES]
    return cases + list(PRESET_CASES)


def _other_five(card: int) -> int:
    """A 5 (one copy of each in No Variant) other than ``card``: putting it in place of
    ``card`` makes two copies of it, which no composition of the variant has."""
    return 4 if card != 4 else 9


def _deck_cases() -> list[tuple[str, Callable[[GameConfig], Sequence[object]]]]:
    return [
        ("short deck", lambda c: list(deck_from_seed(c, 1))[:-1]),
        ("card out of range", lambda c: list(deck_from_seed(c, 1))[:-1] + [99]),
        ("bool card", lambda c: [True] + list(deck_from_seed(c, 1))[1:]),
        ("float card", lambda c: [float(x) for x in deck_from_seed(c, 1)]),
        ("wrong composition", lambda c: [_other_five(deck_from_seed(c, 1)[0])] + list(deck_from_seed(c, 1))[1:]),
    ]


def _config_cases() -> list[tuple[str, Callable[[], object]]]:
    return [
        ("no players", lambda: make_config(0)),
        ("hle six players", lambda: make_config(6, preset="hle")),
        ("hand of zero", lambda: make_config(3, hand_size=0)),
        ("negative tokens", lambda: make_config(3, hints=-1)),
        ("unknown preset", lambda: make_config(3, preset="nope")),
        ("unknown variant", lambda: make_config(3, variant="Nope")),
        ("unknown option", lambda: make_config(3, nope=True)),
    ]


def _trace_cases() -> list[tuple[str, object]]:
    return [
        ("trace not an object", []),
        ("trace without deck", {"format": "hanabi-ref/trace", "config": {}, "actions": []}),
    ]


def _outcome(run: Callable[[], object]) -> str:
    try:
        run()
    except HanabiError as error:
        return f"{type(error).__name__}: {error}"
    return "accepted"


def refusals() -> dict[str, str]:
    """Every case's outcome: the error class and message, or "accepted"."""
    outcomes: dict[str, str] = {}
    for preset, name, make in _action_cases():
        state, action = make(preset)
        outcomes[f"{preset} {name}"] = _outcome(lambda: apply(state, action))  # type: ignore[arg-type]
    config = make_config(3)
    for name, deck in _deck_cases():
        outcomes[name] = _outcome(lambda: initial_state(config, deck(config)))  # type: ignore[arg-type]
    for name, build in _config_cases():
        outcomes[name] = _outcome(build)
    for name, data in _trace_cases():
        outcomes[name] = _outcome(lambda: replay(trace_from_json(data)))
    return outcomes


def test_bad_input_is_refused_alike_with_contracts_on_and_off() -> None:
    """[2.16-2, 2.9, 2.9-S0, T-trace] the same refusals, word for word, both ways; every
    case is refused (none accepted) and every action refusal names a clause."""
    on = refusals()
    environment = dict(os.environ, HANABI_REF_CONTRACTS="0")
    script = "import json, tests.test_errors_both_ways as t; print(json.dumps(t.refusals()))"
    child = run_process([sys.executable, "-c", script], cwd=ROOT, env=environment, capture_output=True, text=True, check=True)
    off = json.loads(child.stdout)
    assert off == on
    assert "accepted" not in on.values(), [name for name, outcome in on.items() if outcome == "accepted"]
    actions = [f"{preset} {name}" for preset, name, _ in _action_cases()]
    assert all(on[name].startswith("IllegalActionError: ") for name in actions), on
    clauses = {on[name].split(": ")[1] for name in actions}
    assert clauses == {"2.16-2a-target", "2.16-2a-value", "2.16-2a-suit", "2.16-2a", "2.16-2a-token",
                       "2.16-2c", "2.16-2b", "E-2", "2.16-3", "2.16-2", "2.16-2a-empty"}


def test_the_child_really_runs_without_contracts() -> None:
    """The comparison above is only worth something if the child's contracts are off."""
    environment = dict(os.environ, HANABI_REF_CONTRACTS="0")
    script = "from hanabi_ref.base.contracts import ENABLED; print(ENABLED)"
    child = run_process([sys.executable, "-c", script], cwd=ROOT, env=environment, capture_output=True, text=True, check=True)
    assert child.stdout.strip() == "False"
