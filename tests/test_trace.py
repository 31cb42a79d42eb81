"""Trace files: the JSON form of a game, its exact replay, and errors that name their
place [T-trace, T-actions]."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref.engine.actions import Action, Discard, Hint, Play, action_to_json
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.base.errors import FileReadError, TraceError
from hanabi_ref.players.runner import play_game
from hanabi_ref.formats.trace import Trace
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import score, deck_size
from hanabi_ref.players.strategies import STRATEGIES
from hanabi_ref.formats.trace import action_from_json, load_trace, replay, save_trace, summary, trace_from_json, trace_to_json
from hanabi_ref.engine.transition import initial_state
from tests.helpers import play_all, stacked_deck, suit_and_value
from hanabi_ref.engine.tables import tables_for


def recorded_game() -> Trace:
    """A 3-player thesis game of the simple strategy (long enough for actions[17])."""
    record = play_game(make_config(3), STRATEGIES["simple"], seed=21)
    assert len(record.trace.actions) > 30
    return record.trace


def trace_error(data: object) -> str:
    with pytest.raises(TraceError) as error:
        replay(trace_from_json(data))
    return str(error.value)


def test_save_load_replay(tmp_path: Path) -> None:
    """[T-trace] a saved trace loads as the same trace and replays to the final state of
    the recorded game; the file is canonical JSON."""
    record = play_game(make_config(4, "hanab-live", "rainbow"), STRATEGIES["simple"], seed=8)
    path = tmp_path / "game.json"
    save_trace(record.trace, path)
    assert load_trace(path) == record.trace
    assert replay(load_trace(path)) == record.final
    assert json.loads(path.read_text(encoding="utf-8")) == trace_to_json(record.trace)


def test_trace_json_layout() -> None:
    """[T-trace, T-actions] the documented layout: format, version, config, the deck top
    first as {"suit": y (from 0), "value": x}, the actions, the seed."""
    config = make_config(2)
    deck = stacked_deck(config, [(1, 3), (5, 0)])
    actions: tuple[Action, ...] = (Hint(1, "value", 3), Hint(0, "colour", 4), Discard(2), Play(0))
    data = trace_to_json(Trace(config, deck, actions, 12))
    assert data["format"] == "hanabi-ref/trace" and data["version"] == 1 and data["seed"] == 12
    assert data["deck"][:2] == [{"suit": 3, "value": 1}, {"suit": 0, "value": 5}]
    assert data["deck"] == [{"suit": s, "value": v} for s, v in (suit_and_value(config, c) for c in deck)]
    assert data["actions"] == [
        {"type": "hint", "target": 1, "kind": "value", "value": 3},
        {"type": "hint", "target": 0, "kind": "colour", "value": 4},
        {"type": "discard", "slot": 2},
        {"type": "play", "slot": 0},
    ]
    assert data["config"]["players"] == 2 and data["config"]["preset"] == "thesis"
    assert "seed" not in trace_to_json(Trace(config, deck, actions))


@pytest.mark.parametrize("action", [Hint(2, "value", 5), Hint(0, "colour", 0), Discard(3), Play(0)])
def test_action_round_trip(action: Action) -> None:
    """[T-actions] every kind of action survives action_to_json / action_from_json."""
    assert action_from_json(action_to_json(action), "a") == action


def test_trace_seed_is_the_deck_origin_for_seeded_games() -> None:
    """[T-trace, D-seed] a game dealt from a seed records that seed, and the seed rebuilds
    the recorded deck."""
    record = play_game(make_config(3), STRATEGIES["random"], seed=77)
    assert record.trace.seed == 77 and deck_from_seed(record.trace.config, 77) == record.trace.deck


def test_trace_seed_is_the_deck_origin_for_explicit_decks() -> None:
    """[T-trace, D-explicit, D-seed] T-trace: the optional seed is "the seed the deck came
    from"; a game played on an explicit deck must not claim a seed that does not give it."""
    config = make_config(2)
    deck = tuple(reversed(tables_for(config).canonical_deck))
    record = play_game(config, STRATEGIES["simple"], seed=4, deck=deck)
    assert record.trace.seed is None or deck_from_seed(config, record.trace.seed) == record.trace.deck


def test_replay_is_step_1_then_the_actions() -> None:
    """[T-trace] replaying deals the trace's deck and applies its actions, nothing else."""
    config = make_config(2)
    deck = stacked_deck(config, [(1, 0)])
    actions: tuple[Action, ...] = (Play(0), Hint(0, "value", 2), Discard(1))
    expected = play_all(initial_state(config, deck), actions)[-1]
    assert replay(Trace(config, deck, actions)) == expected


# ------------------------------------------------------------------ errors


def test_malformed_and_truncated_files(tmp_path: Path) -> None:
    """[T-trace] a file that is not JSON, a truncated file and a missing file are each one
    TraceError naming the file."""
    good = tmp_path / "good.json"
    save_trace(recorded_game(), good)
    text = good.read_text(encoding="utf-8")
    cases = {
        "garbage.json": "{'format': hanabi}",
        "truncated.json": text[: len(text) // 2],
        "empty.json": "",
    }
    for name, content in cases.items():
        path = tmp_path / name
        path.write_text(content, encoding="utf-8")
        with pytest.raises(TraceError) as error:
            load_trace(path)
        assert str(error.value).startswith(f"{path}: not valid JSON"), str(error.value)
    for unreadable in (tmp_path / "absent.json", tmp_path):
        with pytest.raises(TraceError) as error:
            load_trace(unreadable)
        assert str(error.value).startswith(f"{unreadable}: cannot read"), str(error.value)
    latin = tmp_path / "latin.json"
    latin.write_bytes("{\"format\": \"é\"}".encode("latin-1"))
    with pytest.raises(TraceError) as error:
        load_trace(latin)
    # [T-json, C-exit] bytes that are not UTF-8 are content that is not JSON (exit 1), not
    # a file that cannot be read (exit 2)
    assert str(error.value).startswith(f"{latin}: not valid JSON (not UTF-8"), str(error.value)
    assert not isinstance(error.value, FileReadError)
    listing = tmp_path / "list.json"
    listing.write_text("[1, 2]", encoding="utf-8")
    with pytest.raises(TraceError) as error:
        load_trace(listing)
    assert str(error.value) == f"{listing}: trace: must be a JSON object"


def _edited(**edits: Any) -> dict[str, Any]:
    """The recorded game's JSON with top-level keys replaced (None deletes a key)."""
    data = copy.deepcopy(trace_to_json(recorded_game()))
    for key, value in edits.items():
        if value is None:
            del data[key]
        else:
            data[key] = value
    return data


@pytest.mark.parametrize(
    "edit, prefix",
    [
        ({"deck": None}, "deck: missing"),
        ({"actions": None}, "actions: missing"),
        ({"config": None}, "config: missing"),
        ({"format": None}, "format:"),
        ({"format": "hanab.live"}, "format:"),
        ({"version": 2}, "version:"),
        ({"comment": "hi"}, "comment: unknown field"),
        ({"deck": {"0": 1}}, "deck: must be a list"),
        ({"actions": "play 0"}, "actions: must be a list"),
        ({"seed": -4}, "seed: must be >= 0"),
        ({"seed": "7"}, "seed: must be an integer"),
        ({"config": {"players": 0}}, "config.players:"),
        ({"config": {"players": 3, "preset": "chess"}}, "config.preset:"),
    ],
)
def test_top_level_errors_name_the_field(edit: dict[str, Any], prefix: str) -> None:
    """[T-trace] missing, unknown and mistyped top-level fields are named."""
    message = trace_error(_edited(**edit))
    assert message.startswith(prefix), message


def _action_edit(index: int, action: object) -> dict[str, Any]:
    data = _edited()
    data["actions"][index] = action
    return data


@pytest.mark.parametrize(
    "where, index, value, prefix",
    [
        ("deck", 3, [1, 2], "deck[3]: must be an object"),
        ("deck", 3, {"suit": 1}, "deck[3].value: missing"),
        ("deck", 3, {"suit": 1, "value": 2, "colour": 0}, "deck[3].colour: unknown field"),
        ("deck", 3, {"suit": "red", "value": 2}, "deck[3].suit: must be an integer"),
        ("deck", 3, {"suit": 1, "value": 2.0}, "deck[3].value: must be an integer"),
        ("deck", 3, {"suit": 1, "value": True}, "deck[3].value: must be an integer"),
        ("deck", 3, {"suit": 5, "value": 2}, "deck[3].suit: 5 is not a suit"),
        ("deck", 3, {"suit": -1, "value": 2}, "deck[3].suit: must be >= 0"),
        ("deck", 3, {"suit": 1, "value": 6}, "deck[3].value: 6 is not a value"),
        ("deck", 3, {"suit": 1, "value": 0}, "deck[3].value: must be >= 1"),
        ("actions", 5, "play", "actions[5]: must be an object with a type"),
        ("actions", 5, {"slot": 0}, "actions[5]: must be an object with a type"),
        ("actions", 5, {"type": "pass"}, "actions[5].type:"),
        ("actions", 5, {"type": "play"}, "actions[5].slot: missing"),
        ("actions", 5, {"type": "play", "slot": "0"}, "actions[5].slot: must be an integer"),
        ("actions", 5, {"type": "play", "slot": -1}, "actions[5].slot: must be >= 0"),
        ("actions", 5, {"type": "play", "slot": 0, "card": 3}, "actions[5].card: unknown field"),
        ("actions", 5, {"type": "hint", "target": 1, "kind": "shape", "value": 1}, "actions[5].kind:"),
        ("actions", 5, {"type": "hint", "target": -1, "kind": "value", "value": 1}, "actions[5].target: must be >= 0"),
        ("actions", 5, {"type": "hint", "target": 1, "kind": "value"}, "actions[5].value: missing"),
    ],
)
def test_card_and_action_errors_name_their_place(where: str, index: int, value: object, prefix: str) -> None:
    """[T-trace, T-actions] a malformed card or action is named by its index and field."""
    data = _edited()
    data[where][index] = value
    with pytest.raises(TraceError) as error:
        trace_from_json(data)
    assert str(error.value).startswith(prefix), str(error.value)


@pytest.mark.parametrize(
    "action, clause",
    [
        ({"type": "discard", "slot": 7}, "2.16-2b"),
        ({"type": "play", "slot": 5}, "2.16-2c"),
        ({"type": "hint", "target": 3, "kind": "value", "value": 1}, "2.16-2a-target"),
        ({"type": "hint", "target": 1, "kind": "value", "value": 6}, "2.16-2a-value"),
        ({"type": "hint", "target": 1, "kind": "colour", "value": 5}, "2.16-2a-suit"),
    ],
)
def test_illegal_action_at_index_17(action: dict[str, Any], clause: str) -> None:
    """[T-trace, 2.16-2] an out-of-range slot, target, value or colour at index 17 is
    reported as ``actions[17]: <clause>: ...`` when the trace is replayed.  (Seat 17 mod 3
    = 2 moves at index 17, so seat 1 is a valid target of the value and colour hints.)"""
    message = trace_error(_action_edit(17, action))
    assert message.startswith(f"actions[17]: {clause}:"), message


def test_hint_to_oneself_and_actions_after_the_end() -> None:
    """[T-trace, 2.16-2a-target, 2.16-3] a hint to the seat that is to move, and an action
    after the game has stopped, are named with their index."""
    assert trace_error(_action_edit(17, {"type": "hint", "target": 2, "kind": "value", "value": 1})).startswith(
        "actions[17]: 2.16-2a-target:"
    )
    data = _edited()
    data["actions"].append({"type": "play", "slot": 0})
    index = len(data["actions"]) - 1
    assert trace_error(data).startswith(f"actions[{index}]: 2.16-3:")


def test_deck_that_does_not_fit_the_configuration() -> None:
    """[T-trace, D-explicit] a deck whose cards are not the configuration's composition is
    refused when the trace is replayed."""
    data = _edited()
    five = {"suit": 4, "value": 5}
    data["deck"][0] = five if data["deck"][0] != five else {"suit": 3, "value": 5}  # a second copy of a 5
    assert trace_error(data).startswith("deck:")
    data = _edited()
    data["deck"].pop()
    assert trace_error(data).startswith("deck:")


def test_summary() -> None:
    """[T-trace, 2.16-3] the replay summary reports the state's score, fields, tokens,
    errors, cards left, moves and whether the game is over."""
    trace = recorded_game()
    final = replay(trace)
    assert summary(final) == {
        "score": score(final),
        "fireworks": list(final.fireworks),
        "clue_tokens": final.clue_tokens,
        "strikes": final.strikes,
        "deck_size": deck_size(final),
        "turns": len(trace.actions),
        "terminal": True,
    }
