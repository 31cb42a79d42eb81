"""Trace files: JSON that replays a game exactly [T-trace, T-actions].

A trace holds the configuration, the full deck S0 (top first) and the actions, so
nobody needs our random number generator to reproduce a game.  Every problem in a file
is reported as one line naming its place, e.g. ``actions[17].slot: ...``.
"""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any

import attrs

from hanabi_ref.engine.actions import Action, Discard, Hint, HintKind, Play, action_to_json
from hanabi_ref.base.atomic import write_text_atomically
from hanabi_ref.engine.cards import as_identities, identity, suit_of, value_of
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.base.errors import ConfigError, FileReadError, IllegalActionError, TraceError
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import config_from_json, config_to_json, max_moves
from hanabi_ref.formats.serial import JsonRuleError, canonical_json, count_values, parse_json, state_to_json
from hanabi_ref.engine.state import GameState, score
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.tables import tables_for

FORMAT = "hanabi-ref/trace"
VERSION = 1


@attrs.frozen
class Trace:
    """A replayable record: config, the full deck S0 and the actions [T-trace], and
    optionally the expected state after the deal and after each action [T-states]."""

    config: GameConfig
    deck: tuple[int, ...]
    actions: tuple[Action, ...]
    seed: int | None = None
    states: tuple[dict[str, Any], ...] | None = None
    strategy_seed: int | None = None
    """[ISO-seeds] the seed the strategies were seeded from, when drawn apart from ``seed``"""


@attrs.frozen
class GameRecord:
    """A finished game: its trace and final state."""

    trace: Trace
    final: GameState

    @property
    def score(self) -> int:
        """The score step 3 returned [2.16-3]."""
        return score(self.final)



def trace_to_json(trace: Trace, *, with_states: bool = False) -> dict[str, Any]:
    """The JSON object of a trace [T-trace]; ``with_states`` adds the state after the deal
    and after every action, computed by replaying [T-states]."""
    n = trace.config.values
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "config": config_to_json(trace.config),
        "deck": [{"suit": suit_of(c, n), "value": value_of(c, n)} for c in as_identities(trace.deck)],
        "actions": [action_to_json(a) for a in trace.actions],
    }
    if trace.seed is not None:
        data["seed"] = trace.seed
    if trace.strategy_seed is not None:
        data["strategy_seed"] = trace.strategy_seed  # [ISO-seeds]
    if with_states:
        data["states"] = [state_to_json(s) for s in replay_states(trace)]
    elif trace.states is not None:
        data["states"] = list(trace.states)
    return data


def _int(value: object, where: str, low: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TraceError(f"{where}: must be an integer, got {json.dumps(value)}")
    if low is not None and value < low:
        raise TraceError(f"{where}: must be >= {low}, got {value}")
    return value


def _object(value: object, where: str, keys: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TraceError(f"{where}: must be an object")
    for key in value:
        if key not in keys:
            raise TraceError(f"{where}.{key}: unknown field")
    for key in keys:
        if key not in value:
            raise TraceError(f"{where}.{key}: missing")
    return value


def card_from_json(value: object, where: str, config: GameConfig) -> int:
    """A card object of a trace as an identity [T-state]."""
    data = _object(value, where, {"suit", "value"})
    suit = _int(data["suit"], f"{where}.suit", 0)
    card_value = _int(data["value"], f"{where}.value", 1)
    if suit >= config.suit_count:
        raise TraceError(f"{where}.suit: {suit} is not a suit (0..{config.suit_count - 1})")
    if card_value > config.values:
        raise TraceError(f"{where}.value: {card_value} is not a value (1..{config.values})")
    return identity(card_value, suit, config.values)


def action_from_json(value: object, where: str) -> Action:
    """Parse one action [T-actions]."""
    if not isinstance(value, dict) or "type" not in value:
        raise TraceError(f"{where}: must be an object with a type")
    kind = value["type"]
    if kind == "hint":
        data = _object(value, where, {"type", "target", "kind", "value"})
        if data["kind"] not in ("value", "colour", "color"):
            raise TraceError(f"{where}.kind: must be 'value' or 'colour' (or 'color'), got {json.dumps(data['kind'])}")
        hint_kind: HintKind = "value" if data["kind"] == "value" else "colour"  # [T-actions] both spellings read
        return Hint(_int(data["target"], f"{where}.target", 0), hint_kind, _int(data["value"], f"{where}.value", 0))
    if kind in ("play", "discard"):
        data = _object(value, where, {"type", "slot"})
        slot = _int(data["slot"], f"{where}.slot", 0)
        return Play(slot) if kind == "play" else Discard(slot)
    raise TraceError(f"{where}.type: must be 'hint', 'play' or 'discard', got {json.dumps(kind)}")


def trace_from_json(data: object) -> Trace:
    """Parse and validate a trace object (not yet replayed) [T-trace]."""
    # jsonschema is loaded only when a trace is read: the game runner imports this module
    # for its records (Trace, GameRecord) and should not pay for it.
    from hanabi_ref.formats.schema import validate_trace_json

    validate_trace_json(data)
    if not isinstance(data, dict):
        raise TraceError("trace: must be a JSON object")
    allowed = {"format", "version", "config", "deck", "actions", "seed", "strategy_seed", "states", "divergence"}
    for key in data:
        if key not in allowed:
            raise TraceError(f"{key}: unknown field")
    if data.get("format") != FORMAT:
        raise TraceError(f"format: must be {json.dumps(FORMAT)}, got {json.dumps(data.get('format'))}")
    if data.get("version") != VERSION or type(data.get("version")) is not int:
        raise TraceError(f"version: must be {VERSION}, got {json.dumps(data.get('version'))}")
    for key in ("config", "deck", "actions"):
        if key not in data:
            raise TraceError(f"{key}: missing")
    try:
        config = config_from_json(data["config"])
    except ConfigError as error:
        raise TraceError(str(error)) from None
    if not isinstance(data["deck"], list):
        raise TraceError("deck: must be a list of cards")
    if len(data["deck"]) != tables_for(config).deck_size:
        raise TraceError(f"deck: {len(data['deck'])} cards, but the configuration's deck has {tables_for(config).deck_size}")
    deck = tuple(card_from_json(card, f"deck[{i}]", config) for i, card in enumerate(data["deck"]))
    if not isinstance(data["actions"], list):
        raise TraceError("actions: must be a list")
    if len(data["actions"]) > max_moves(config):
        raise TraceError(
            f"actions: {len(data['actions'])} actions, but no game of this configuration lasts more than "
            f"{max_moves(config)} moves (L-moves)"
        )
    actions = tuple(action_from_json(a, f"actions[{i}]") for i, a in enumerate(data["actions"]))
    seed = data.get("seed")
    if seed is not None:
        _int(seed, "seed", 0)
    strategy_seed = data.get("strategy_seed")
    if strategy_seed is not None:
        _int(strategy_seed, "strategy_seed", 0)
    states = data.get("states")
    if states is not None and len(states) != len(actions) + 1:
        raise TraceError(f"states: {len(states)} states for {len(actions)} actions (expected {len(actions) + 1})")
    return Trace(config, deck, actions, seed, None if states is None else tuple(states), strategy_seed)


def _check_seed(config: GameConfig, seed: int, deck: tuple[int, ...]) -> None:
    """[T-schema, D-seed] a trace names a seed only if that seed deals its deck."""
    dealt = deck_from_seed(config, seed)
    if dealt != deck:
        first = next(index for index, (ours, theirs) in enumerate(zip(dealt, deck)) if ours != theirs)
        raise TraceError(f"seed: seed {seed} does not deal this deck (deck[{first}] differs, D-seed)")


def replay(trace: Trace) -> GameState:
    """Replay a trace to its final state; an illegal action is reported with its index,
    a state that differs from the trace's expected state with its index and field [T-states]."""
    return replay_states(trace)[-1]


def replay_states(trace: Trace) -> list[GameState]:
    """The state after the deal and after each action of a trace [T-trace, T-states]."""
    try:
        states = [initial_state(trace.config, trace.deck)]
    except ConfigError as error:
        raise TraceError(str(error)) from None
    if trace.seed is not None:
        _check_seed(trace.config, trace.seed, trace.deck)
    _check_expected(trace, 0, states[0])
    for index, action in enumerate(trace.actions):
        try:
            states.append(apply(states[-1], action))
        except IllegalActionError as error:
            raise TraceError(f"actions[{index}]: {error}") from None
        _check_expected(trace, index + 1, states[-1])
    return states


def _check_expected(trace: Trace, index: int, state: GameState) -> None:
    """[T-states] the replayed state must equal the trace's expected state, field by field."""
    if trace.states is None:
        return
    expected, actual = trace.states[index], state_to_json(state)
    for key in sorted(set(expected) | set(actual)):
        if expected.get(key) != actual.get(key):
            raise TraceError(
                f"states[{index}].{key}: the trace expects {json.dumps(expected.get(key))}, "
                f"the replay gives {json.dumps(actual.get(key))}"
            )


def load_trace(path: str | Path) -> Trace:
    """Read and validate a trace file; every problem is one TraceError line."""
    data = read_json_file(path)
    try:
        return trace_from_json(data)
    except TraceError as error:
        if looks_like_hanab_live(data):  # [T-hanab-live-hint] the usual mistake, named
            raise TraceError(f"{path}: this looks like a hanab.live game, not a trace: add --format hanab-live "
                             f"(as a trace: {error})") from None
        raise TraceError(f"{path}: {error}") from None


def looks_like_hanab_live(data: object) -> bool:
    """[T-hanab-live-hint] whether a JSON value has the shape of a hanab.live export: a list
    of player names and a deck of ``{"suitIndex", "rank"}`` cards."""
    if not isinstance(data, dict):
        return False
    players, deck = data.get("players"), data.get("deck")
    return (isinstance(players, list) and all(isinstance(name, str) for name in players)
            and isinstance(deck, list) and bool(deck)
            and all(isinstance(card, dict) and "suitIndex" in card and "rank" in card for card in deck))


MAX_FILE_BYTES = 16 << 20
"""[L-files] the largest game file (trace or hanab.live export) that is read: 16 MiB."""
MAX_FILE_VALUES = 500_000
"""[L-files] the most JSON values a game file may hold (as :func:`~hanabi_ref.formats.serial.count_values`
counts them, before parsing): twice what the longest game of the largest configuration
needs without expected states, and small enough that parsing stays well under 200 MB
whatever the values are."""


def read_json_file(path: str | Path) -> object:
    """The JSON value in a file; an unreadable file is a :class:`FileReadError`, content
    that is not JSON by the rules of T-json a :class:`TraceError`, each one line naming
    the file.

    [L-files] only a regular file of at most :data:`MAX_FILE_BYTES` is read: a device,
    a FIFO or a directory is refused before a byte is read (so that neither an endless
    device nor a FIFO without a writer can hold the command), and no more than the limit
    and one byte is ever read, whatever the file grows to meanwhile; a file of more than
    :data:`MAX_FILE_VALUES` values is refused before it is parsed.  [T-json] the bytes
    must be UTF-8, and the JSON is read strictly (:func:`~hanabi_ref.formats.serial.parse_json`)."""
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise FileReadError(f"{path}: cannot read: not a regular file (L-files: devices, FIFOs and directories are not read)")
        with open(path, "rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)
    except (OSError, ValueError) as error:
        raise FileReadError(f"{path}: cannot read: {getattr(error, 'strerror', None) or error}") from None
    if len(data) > MAX_FILE_BYTES:
        raise FileReadError(f"{path}: larger than {MAX_FILE_BYTES >> 20} MiB, the most a game file may hold (L-files)")
    if count_values(data) > MAX_FILE_VALUES:
        raise FileReadError(
            f"{path}: more than {MAX_FILE_VALUES:,} JSON values (counted as its brackets and commas), "
            f"the most a game file may hold (L-files)"
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise TraceError(f"{path}: not valid JSON (not UTF-8: line {line}, byte offset {error.start}: {error.reason}) (T-json)") from None
    try:
        return parse_json(text)
    except json.JSONDecodeError as error:
        raise TraceError(f"{path}: not valid JSON (line {error.lineno}, column {error.colno}: {error.msg})") from None
    except JsonRuleError as error:
        raise TraceError(f"{path}: not valid JSON ({error}) (T-json)") from None
    except (ValueError, RecursionError) as error:
        # e.g. nesting beyond the recursion limit
        raise TraceError(f"{path}: not valid JSON ({' '.join(str(error).splitlines()) or 'nested too deeply'})") from None


def save_trace(trace: Trace, path: str | Path, *, with_states: bool = False,
               divergence: dict[str, Any] | None = None) -> None:
    """Write a trace as canonical JSON [T-canonical], atomically (nothing half-written).
    ``divergence``: the object a reproduction file of verify ends with [EP-repro]; it
    holds the engine's answers as they came, so a file whose engine values canonical JSON
    cannot hold (a float where an integer belongs) is written as plain sorted JSON."""
    data = trace_to_json(trace, with_states=with_states)
    if divergence is None:
        write_text_atomically(path, canonical_json(data) + "\n")
        return
    data["divergence"] = divergence
    try:
        text = canonical_json(data)
    except ValueError:
        text = json.dumps(data, sort_keys=True, ensure_ascii=False)
    write_text_atomically(path, text + "\n")


def summary(state: GameState) -> dict[str, Any]:
    """The replay summary: score, fireworks by suit index, tokens, strikes, deck size,
    turns and whether the game is over."""
    return {
        "score": score(state),
        "fireworks": list(state.fireworks),
        "clue_tokens": state.clue_tokens,
        "strikes": state.strikes,
        "deck_size": len(state.deck) - state.next_card,
        "turns": state.turns,
        "terminal": state.terminal,
    }
