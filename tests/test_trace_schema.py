"""Trace files: the JSON Schema, canonical JSON, the state object and expected states
[T-schema, T-canonical, T-state, T-states, C-replay].

Fuzzing: whatever bytes a trace file holds, loading and replaying it raises one
single-line TraceError naming a place, or yields a game that replays; never another
exception.
"""

from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.cli import EXIT_INVALID_GAME, EXIT_OK, main
from hanabi_ref.base.errors import TraceError
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.configs import make_config
from hanabi_ref.formats.schema import trace_schema
from hanabi_ref.formats.serial import canonical_json, knowledge_to_json
from hanabi_ref.players.strategies import STRATEGIES
from hanabi_ref.formats.trace import load_trace, replay, replay_states, trace_from_json, trace_to_json
from tests.helpers import drawn_node

REPO = Path(__file__).resolve().parents[1]


def recorded(players: int = 3, preset: str = "thesis", variant: str = "No Variant", seed: int = 4) -> dict[str, Any]:
    """The trace file object, states included, of a game of the simple strategy: a copy of
    its own for the caller to change."""
    data: dict[str, Any] = json.loads(recorded_text(players, preset, variant, seed))
    return data


@cache
def recorded_text(players: int = 3, preset: str = "thesis", variant: str = "No Variant", seed: int = 4) -> str:
    """:func:`recorded` as canonical JSON text (the object holds JSON values only, so that
    it reads back equal).  Each game is played once: the fuzz tests below ask for the same
    few many times."""
    record = play_game(make_config(players, preset=preset, variant=variant), STRATEGIES["simple"], seed=seed)
    return canonical_json(trace_to_json(record.trace, with_states=True))


@pytest.mark.checks("T-schema")
def test_spec_copy_of_the_schema_is_the_shipped_schema() -> None:
    """[T-schema] spec/trace.schema.json is the file the package validates with, and a
    valid draft 2020-12 schema."""
    assert json.loads((REPO / "spec" / "trace.schema.json").read_text(encoding="utf-8")) == trace_schema()
    jsonschema.Draft202012Validator.check_schema(trace_schema())


@pytest.mark.parametrize(("preset", "variant", "players"), [("thesis", "No Variant", 1), ("hle", "No Variant", 5),
                                                             ("hanab-live", "Rainbow (6 Suits)", 4), ("thesis", "Black (6 Suits)", 6)])
@pytest.mark.checks("T-schema")
def test_written_traces_satisfy_the_schema(preset: str, variant: str, players: int) -> None:
    """[T-schema, T-trace] every trace we write, states included, is valid under the schema
    (checked by jsonschema directly, not through our loader)."""
    jsonschema.validate(recorded(players, preset, variant), trace_schema())


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda d: d.pop("deck"), "deck: missing"),
        (lambda d: d.__setitem__("version", 2), "version: must be 1, got 2"),
        (lambda d: d["deck"][3].__setitem__("value", 0), "deck[3].value: must be >= 1, got 0"),
        (lambda d: d["config"].__setitem__("players", "3"), "config.players: must be an integer"),
        (lambda d: d["config"]["options"].__setitem__("deal", "shuffled"), "config.options.deal: must be"),
        (lambda d: d["actions"].__setitem__(2, {"type": "play", "slot": -1}), "actions[2].slot: must be >= 0, got -1"),
        (lambda d: d["actions"].__setitem__(2, {"type": "fly"}), "actions[2].type: must be"),
        (lambda d: d["actions"].__setitem__(2, {"type": "play", "slot": 1, "card": 3}), "actions[2].card: unknown field"),
        (lambda d: d.__setitem__("comment", "x"), "comment: unknown field"),
        (lambda d: d["states"][0].__setitem__("lives", 3), "states[0].lives: unknown field"),
    ],
)
@pytest.mark.checks("T-schema")
def test_schema_violations_name_the_path(mutate: Any, message: str) -> None:
    """[T-schema] the first stage: a schema violation is one line naming the JSON path."""
    data = recorded()
    mutate(data)
    with pytest.raises(TraceError) as error:
        trace_from_json(data)
    assert str(error.value).startswith(message), str(error.value)
    assert "\n" not in str(error.value)


@pytest.mark.checks("T-canonical")
def test_canonical_json_is_sorted_compact_and_integer_only() -> None:
    """[T-canonical] keys sorted, no spaces, floats refused; equal values give equal bytes."""
    assert canonical_json({"b": [1, {"d": None, "c": True}], "a": "é"}) == '{"a":"é","b":[1,{"c":true,"d":null}]}'
    with pytest.raises(ValueError, match="T-canonical"):
        canonical_json({"mean": 1.5})
    assert canonical_json(json.loads(json.dumps(recorded(), indent=3))) == canonical_json(recorded())


@pytest.mark.checks("T-canonical")
def test_saved_trace_is_canonical(tmp_path: Path) -> None:
    """[T-canonical, C-play] `play --out --states` writes canonical JSON plus one newline."""
    path = tmp_path / "game.json"
    assert main(["play", "--strategy", "simple", "--players", "3", "--seed", "4", "--out", str(path), "--states"]) == EXIT_OK
    text = path.read_text(encoding="utf-8")
    assert text == canonical_json(json.loads(text)) + "\n"
    assert json.loads(text)["states"] == recorded()["states"]


@pytest.mark.checks("T-state")
def test_state_object_matches_an_independent_reading_of_the_trace() -> None:
    """[T-state] hands, fireworks, discard, tokens and deck size recomputed by a small
    model from the deck and the actions (blocks deal, oldest card first, a draw appends)."""
    data = recorded(players=3, seed=8)
    deck = data["deck"]
    hands = [deck[5 * j:5 * j + 5] for j in range(3)]
    nxt, fireworks, discard, tokens, strikes = 15, [0] * 5, [], 8, 0
    for index, action in enumerate(data["actions"]):
        seat = index % 3
        if action["type"] == "hint":
            tokens -= 1
        else:
            card = hands[seat].pop(action["slot"])
            if action["type"] == "play" and fireworks[card["suit"]] == card["value"] - 1:
                fireworks[card["suit"]] += 1
                tokens += card["value"] == 5 and tokens < 8
            elif action["type"] == "play":
                strikes += 1
                discard.append(card)
            else:
                discard.append(card)
                tokens += tokens < 8
            if nxt < len(deck):
                hands[seat].append(deck[nxt])
                nxt += 1
        state = data["states"][index + 1]
        assert state["hands"] == hands and state["fireworks"] == fireworks and state["discard"] == discard
        assert (state["clue_tokens"], state["strikes"], state["deck_size"]) == (tokens, strikes, len(deck) - nxt)


@pytest.mark.checks("T-state", "T-knowledge")
def test_knowledge_is_reported_as_suits_times_values() -> None:
    """[T-state, T-knowledge, 2.14] a product set is split into its suits and values; a
    set that is not a product also lists its cards, and the object validates."""
    config = make_config(2)
    n = config.values
    mask = sum(1 << (s * n + v - 1) for s in (0, 3) for v in (2, 5))
    assert knowledge_to_json(mask, config) == {"suits": [0, 3], "values": [2, 5]}
    partial = knowledge_to_json(mask & ~(1 << (0 * n + 1)), config)  # red 2 left out
    assert partial == {"suits": [0, 3], "values": [2, 5], "cards": [
        {"suit": 0, "value": 5}, {"suit": 3, "value": 2}, {"suit": 3, "value": 5}]}
    jsonschema.validate(partial, {"$ref": "#/$defs/knowledge", "$defs": trace_schema()["$defs"]})


@pytest.mark.checks("T-states")
def test_expected_states_are_checked_on_replay() -> None:
    """[T-states] a trace whose expected state differs from the replay fails at that index
    and field; a wrong number of states is refused."""
    data = recorded()
    trace_from_json(data) and replay(trace_from_json(data))
    bad = copy.deepcopy(data)
    bad["states"][7]["clue_tokens"] += 1
    with pytest.raises(TraceError, match=r"^states\[7\]\.clue_tokens: the trace expects"):
        replay(trace_from_json(bad))
    short = copy.deepcopy(data)
    short["states"].pop()
    with pytest.raises(TraceError, match=r"^states: "):
        trace_from_json(short)
    assert len(replay_states(trace_from_json(data))) == len(data["actions"]) + 1


@pytest.mark.checks("T-states")
def test_replay_of_a_trace_with_wrong_states_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[C-replay, C-exit, T-states] the command reports the first wrong state, exit 1."""
    data = recorded()
    data["states"][-1]["score"] += 1
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path)]) == EXIT_INVALID_GAME
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"states[{len(data['actions'])}].score" in err


JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.floats(allow_nan=False) | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
FIELDS = ["format", "version", "config", "deck", "actions", "seed", "states", "players", "suit", "value", "slot",
          "type", "target", "kind", "options", "preset", "variant", "hand_size", "hints", "errors"]


def _assert_clean(data: object) -> None:
    try:
        replay(trace_from_json(data))
    except TraceError as error:
        assert "\n" not in str(error) and str(error)


@settings(max_examples=150, deadline=None)
@given(JSON)
def test_fuzz_random_json_values(data: object) -> None:
    """[T-schema] random JSON values: a TraceError or (never, in practice) a valid game."""
    _assert_clean(data)


@settings(max_examples=40, deadline=None)  # 200 more in the deep set, below
@given(st.data())
def test_fuzz_mutated_traces(data: st.DataObject) -> None:
    """[T-schema, T-trace] a real trace with one field replaced, removed or added somewhere:
    one-line TraceError or a game that replays, nothing else."""
    trace = recorded(players=data.draw(st.integers(2, 5)), preset=data.draw(st.sampled_from(["thesis", "hle", "hanab-live"])))
    node: Any = drawn_node(data, trace)
    if isinstance(node, dict):
        key = data.draw(st.sampled_from(sorted(node) + FIELDS))
        if key in node and data.draw(st.booleans()):
            del node[key]
        else:
            node[key] = data.draw(JSON)
    elif isinstance(node, list) and node:
        node[data.draw(st.integers(0, len(node) - 1))] = data.draw(JSON)
    _assert_clean(trace)


@pytest.mark.deep
def test_fuzz_mutated_traces_at_length() -> None:
    """[T-schema, T-trace] the fuzzing above, five more runs (200 examples)."""
    for _ in range(5):
        test_fuzz_mutated_traces()


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["truncate", "byte"]))
def test_fuzz_damaged_files(tmp_path_factory: pytest.TempPathFactory, cut: int, damage: str) -> None:
    """[T-schema, C-replay] truncated or byte-damaged files: one-line errors."""
    text = recorded_text()
    position = cut % len(text)
    damaged = text[:position] if damage == "truncate" else text[:position] + "\x00" + text[position + 1:]
    path = tmp_path_factory.mktemp("fuzz") / "game.json"
    path.write_text(damaged, encoding="utf-8")
    try:
        replay(load_trace(path))
    except TraceError as error:
        assert "\n" not in str(error)
