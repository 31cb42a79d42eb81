"""The JSON Schemas of the engine protocol: shipped with the package and in ``spec/``,
satisfied by what ``serve`` answers and what ``verify`` asks in real sessions, and used
by ``verify`` on every answer; an answer outside them is one line naming the request,
the place and the schema keyword, exit 1, nothing left running, no pipe left open
[EP-schemas, EP-types, EP-failures, EP-requests, EP-serve, EP-lifecycle].

The tests that start engine processes run with ResourceWarning as an error (the module's
mark) and also record the warning around the run, after a garbage collection, so that a
pipe left unclosed fails them either way.
"""

from __future__ import annotations

import copy
import gc
import json
import os
import random
import subprocess
import sys
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.actions import Play
from hanabi_ref.cli import EXIT_INVALID_GAME, main
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.formats.schema import SCHEMA_BASE, first_violation, load_schema, schema_registry, strict_validator
from hanabi_ref.engine.cards import as_identities
from hanabi_ref.formats.serial import card_to_json
from hanabi_ref.engine.configs import config_to_json
from hanabi_ref.tools.verify.answers import OPS, PROTOCOL_SCHEMA, answer_violation, is_plain_answer
from hanabi_ref.tools.protocol.engine import EngineFailure, ReferenceEngine, UnsupportedConfig
from hanabi_ref.tools.verify.process import ProcessEngine
from hanabi_ref.tools.verify.run import verify_random_games, verify_vectors
from hanabi_ref.tools.verify.serve import answer_request
from hanabi_ref.tools.verify.perft import compare_deal
from tests.helpers import drawn_node, scripted_engine
from tests.processes import WAIT, end_session

pytestmark = pytest.mark.filterwarnings("error::ResourceWarning")

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
HELLO = '{"ok": true, "name": "scripted"}'


def lax_validator(definition: str | None = None) -> jsonschema.Draft202012Validator:
    """A plain draft 2020-12 validator of the protocol schema, as an engine author would
    build one (jsonschema's own integer rule: 1.0 counts as an integer)."""
    target = SCHEMA_BASE + PROTOCOL_SCHEMA + ("" if definition is None else f"#/$defs/{definition}")
    return jsonschema.Draft202012Validator({"$ref": target}, registry=schema_registry())


def _valid(op: str, answer: Any) -> bool:
    return strict_validator(PROTOCOL_SCHEMA, f"{op}_answer").is_valid(answer)


@contextmanager
def no_resource_warning() -> Iterator[None]:
    """Fail if a ResourceWarning (an unclosed pipe or file) is issued inside, or by a
    garbage collection at the end."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", ResourceWarning)
        yield
        gc.collect()
    leaks = [str(w.message) for w in caught if issubclass(w.category, ResourceWarning)]
    assert not leaks, leaks


# ------------------------------------------------------------------ the files


@pytest.mark.parametrize("name", ["engine-protocol.schema.json", "vectors.schema.json", "bot-protocol.schema.json",
                                  "perft.schema.json"])
@pytest.mark.checks("EP-schemas", "VEC-schema", "PF-schema")
def test_shipped_schemas_are_the_spec_copies(name: str) -> None:
    """[EP-schemas, VEC-schema] the package's schema and its copy in spec/ are the same
    bytes; it is a valid draft 2020-12 schema with the $id its references use, and every
    $ref in it resolves."""
    shipped = (ROOT / "hanabi_ref" / "formats" / "schemas" / name).read_bytes()
    assert (ROOT / "spec" / name).read_bytes() == shipped
    schema = load_schema(name)
    assert json.loads(shipped) == schema and schema["$id"] == SCHEMA_BASE + name
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    resolver = schema_registry().resolver(base_uri=SCHEMA_BASE + name)

    def refs(node: object) -> Iterator[str]:
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                yield node["$ref"]
            for value in node.values():
                yield from refs(value)
        elif isinstance(node, list):
            for value in node:
                yield from refs(value)

    for ref in refs(schema):
        resolver.lookup(ref)
    if name == PROTOCOL_SCHEMA:
        assert {f"{op}_answer" for op in OPS} | {f"{op}_request" for op in OPS} <= schema["$defs"].keys()


@pytest.mark.checks("EP-schemas", "EP-types")
def test_integers_are_json_integers() -> None:
    """[EP-types, EP-schemas] draft 2020-12 counts 1.0 as an integer; the validator
    verify uses does not, nor booleans; the schema refuses both where T-state wants an
    integer."""
    state = {"ok": True, "state": {"clue_tokens": 8.0}}
    assert lax_validator("state_answer").is_valid(state)
    assert not _valid("state", state) and not _valid("state", {"ok": True, "state": {"clue_tokens": True}})
    assert _valid("state", {"ok": True, "state": {"clue_tokens": 8}})
    violation = answer_violation("state", state)
    assert violation is not None and str(violation) == (
        'at $.state.clue_tokens: 8.0 is not of type "integer" (schema trace.schema.json#/$defs/state/properties/clue_tokens/type)'
    )


# ------------------------------------------------------------------ our own sessions satisfy it


class Served:
    """``hanabi-ref serve`` as a process, one request and answer at a time."""

    def __init__(self) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.process = subprocess.Popen([PY, "-m", "hanabi_ref.cli", "serve"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, cwd=ROOT, env=env, start_new_session=True)
        self.exchanges: list[tuple[dict[str, Any], Any]] = []

    def ask(self, request: dict[str, Any]) -> Any:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        answer = json.loads(self.process.stdout.readline())
        self.exchanges.append((request, answer))
        return answer

    def close(self) -> None:
        """End of input: the server exits; its whole session is ended whatever happens."""
        try:
            self.process.communicate(timeout=120)
        finally:
            end_session(self.process.pid)
            self.process.wait()


def _new_game(config: GameConfig, seed: int) -> dict[str, Any]:
    deck = deck_from_seed(config, seed)
    return {"op": "new_game", "config": config_to_json(config, in_full=True), "deck": [card_to_json(card, config) for card in as_identities(deck)]}


@pytest.mark.checks("EP-requests", "EP-schemas", "EP-serve")
def test_a_served_session_satisfies_the_schema() -> None:
    """[EP-schemas, EP-serve, EP-requests, EP-observe] ``hanabi-ref serve`` driven through
    whole games under each preset (hello, new_game, perft with and without its divide, then state, a seat's view,
    legal_actions, an illegal probe and a legal move until the game is over, quit): every request is valid under the
    schema's root, every answer under the definition of its request's answer, by
    jsonschema itself (strict and plain) and by verify's direct check."""
    served = Served()
    chooser = random.Random(5)
    try:
        assert served.ask({"op": "hello", "protocol": "hanabi-ref/engine", "version": 1})["ok"] is True
        for config, seed in [(make_config(2, preset="hle"), 1), (make_config(3, preset="thesis", variant="Rainbow (6 Suits)"), 2),
                             (make_config(4, preset="hanab-live"), 3)]:
            assert served.ask(_new_game(config, seed)) == {"ok": True}
            served.ask({"op": "perft", "depth": 2, "divide": True})  # [EP-perft]
            served.ask({"op": "perft", "depth": 1})
            while True:
                served.ask({"op": "state"})
                served.ask({"op": "observe", "seat": len(served.exchanges) % config.players})
                actions = served.ask({"op": "legal_actions"})["actions"]
                if not actions:
                    break
                assert served.ask({"op": "apply", "action": {"type": "play", "slot": config.hand_size}})["ok"] is False
                assert served.ask({"op": "apply", "action": chooser.choice(actions)}) == {"ok": True}
        served.ask({"op": "quit"})
    finally:
        served.close()
    assert served.process.returncode == 0
    ops = [request["op"] for request, _ in served.exchanges]
    assert set(ops) == set(OPS) and len(ops) > 150
    requests, lax_requests = strict_validator(PROTOCOL_SCHEMA), lax_validator()
    answers = {op: (strict_validator(PROTOCOL_SCHEMA, f"{op}_answer"), lax_validator(f"{op}_answer")) for op in OPS}
    for request, answer in served.exchanges:
        op = request["op"]
        assert requests.is_valid(request) and lax_requests.is_valid(request), request
        assert answers[op][0].is_valid(answer) and answers[op][1].is_valid(answer), (op, answer)
        assert is_plain_answer(op, answer) and answer_violation(op, answer) is None, (op, answer)
    refusals = [answer for request, answer in served.exchanges if request["op"] == "apply" and not answer["ok"]]
    assert refusals and all(set(answer) == {"ok", "illegal"} for answer in refusals)


class Unsupporting(ReferenceEngine):
    def new_game(self, config: GameConfig, deck: tuple[int, ...]) -> None:
        raise UnsupportedConfig("only hle rules")


def test_an_unsupported_answer_satisfies_the_schema() -> None:
    """[EP-schemas, EP-requests, EP-serve] serve's answer for an engine that cannot play a
    configuration is valid under new_game_answer; an error answer is not."""
    answer = answer_request(Unsupporting(), _new_game(make_config(2), 0))
    assert set(answer) == {"ok", "unsupported"} and _valid("new_game", answer) and is_plain_answer("new_game", answer)
    error = answer_request(ReferenceEngine(), {"op": "state"})
    assert error["ok"] is False and not _valid("state", error)


@pytest.mark.checks("EP-requests", "EP-schemas")
def test_verify_asks_only_what_the_schema_allows(monkeypatch: pytest.MonkeyPatch) -> None:
    """[EP-schemas, EP-requests, EP-vectors, EP-random] every request verify sends while
    replaying vectors and playing random games (probes included) is valid under the
    schema's root."""
    from hanabi_ref.tools.vectors import iter_vectors

    sent: list[bytes] = []
    original = ProcessEngine._send

    def recording(self: ProcessEngine, op: str, data: bytes, deadline: float) -> None:
        sent.append(data)
        original(self, op, data, deadline)

    monkeypatch.setattr(ProcessEngine, "_send", recording)
    with no_resource_warning():
        engine = ProcessEngine(f"{PY} -m hanabi_ref.cli serve", timeout=WAIT)  # a bound a busy machine cannot reach
        try:
            vectors = list(iter_vectors(presets=("hle",), cases=("hint_refused", "strikeout", "games")))
            assert verify_vectors(engine, vectors).divergence is None
            report = verify_random_games(engine, [make_config(3, preset="hle"), make_config(2)], games=4, seed=2)
            assert report.divergence is None
            config = make_config(2, preset="hle")  # [EP-perft-verify] the perft requests
            engine.new_game(config, deck_from_seed(config, 0))
            assert compare_deal(engine, config, deck_from_seed(config, 0), 2).divergence is None
        finally:
            engine.close()
    requests = [json.loads(line) for line in sent]
    assert {r["op"] for r in requests} == set(OPS) and len(requests) > 200
    validator = strict_validator(PROTOCOL_SCHEMA)
    for line in dict.fromkeys(sent):  # each different request once, in order: most recur ({"op": "state"})
        assert validator.is_valid(json.loads(line)), line


# ------------------------------------------------------------------ answers outside the schema


STATE_0 = '{"ok": true, "state": {}}'


@pytest.mark.parametrize(
    ("lines", "message"),
    [
        ([HELLO, '{"ok": true}', '{"ok": true, "state": {"fireworks": [0, 0, "3", 0, 0]}}'],
         'answer to state is outside the protocol: at $.state.fireworks[2]: "3" is not of type "integer" '
         "(schema trace.schema.json#/$defs/state/properties/fireworks/items/type)"),
        ([HELLO, '{"ok": true}', '{"ok": true, "state": {"clue_tokens": 8.0}}'],
         'answer to state is outside the protocol: at $.state.clue_tokens: 8.0 is not of type "integer" '
         "(schema trace.schema.json#/$defs/state/properties/clue_tokens/type)"),
        ([HELLO, '{"ok": true}', '{"ok": true, "state": {"lives": 3}}'],
         'answer to state is outside the protocol: at $.state: "lives" is not allowed here '
         "(schema trace.schema.json#/$defs/state/additionalProperties)"),
        ([HELLO, '{"ok": true}', '{"ok": true, "state": {"hands": [[{"suit": 0, "value": 1.5}]]}}'],
         'at $.state.hands[0][0].value: 1.5 is not of type "integer" (schema trace.schema.json#/$defs/card/properties/value/type)'),
        ([HELLO, '{"ok": true}', '{"ok": true}'],
         'answer to state is outside the protocol: at $: "state" is missing '
         "(schema engine-protocol.schema.json#/$defs/state_answer/allOf/1/required)"),
        ([HELLO, '{"ok": true}', STATE_0, '{"ok": true, "actions": [{"type": "play", "slot": 0}, {"type": "hint", "target": 1, "kind": "value", "value": true}]}'],
         'answer to legal_actions is outside the protocol: at $.actions[1].value: true is not of type "integer" '
         "(schema trace.schema.json#/$defs/action/oneOf/0/properties/value/type)"),
        ([HELLO, '{"ok": true}', STATE_0, '{"ok": true, "actions": [{"type": "pass"}]}'],
         'at $.actions[0].type: "pass" is not one of "hint", "play", "discard" (schema trace.schema.json#/$defs/action/oneOf)'),
        ([HELLO, '{"ok": true, "seed": 4}'],
         'answer to new_game is outside the protocol: at $: "seed" is not allowed here '
         "(schema engine-protocol.schema.json#/$defs/dealt/additionalProperties)"),
        ([HELLO, '{"ok": false, "unsupported": ["hle"]}'],
         'answer to new_game is outside the protocol: at $.unsupported: ["hle"] is not of type "string" '
         "(schema engine-protocol.schema.json#/$defs/new_game_answer/allOf/1/else/properties/unsupported/type)"),
        ([HELLO, '{"ok": 1}'],
         'answer to new_game is outside the protocol: at $.ok: 1 is not of type "boolean" '
         "(schema engine-protocol.schema.json#/$defs/answer/properties/ok/type)"),
        (['{"ok": true, "name": "x", "version": "2.0.1"}'],
         'answer to hello is outside the protocol: at $.version: "2.0.1" is not 1 '
         "(schema engine-protocol.schema.json#/$defs/hello_answer/allOf/1/properties/version/const)"),
    ],
)
@pytest.mark.checks("EP-schemas", "EP-failures")
def test_answers_outside_the_schema_are_one_line_failures(tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str], message: str) -> None:
    """[EP-schemas, EP-failures, EP-lifecycle, C-exit] a scripted engine answering outside
    the schema: exit 1 with one line naming the request, the place in the answer, the
    offending value and the schema keyword; no pipe left open."""
    with no_resource_warning():
        code = main(["verify", "--engine", scripted_engine(tmp_path, lines), "--no-vectors", "--games", "1", "--timeout", "10",
                     "--rules", "hle", "--players", "2", "--out", str(tmp_path / "d.json")])
    err = capsys.readouterr().err
    assert code == EXIT_INVALID_GAME, err
    assert err.startswith("hanabi-ref: ")
    assert err.count("\n") == 1 and message in err and err.endswith(" (stopped)\n") and "Traceback" not in err, err
    assert not (tmp_path / "d.json").exists()


@pytest.mark.checks("EP-schemas", "EP-failures")
def test_a_refusal_outside_the_schema_names_the_apply_request(tmp_path: Path) -> None:
    """[EP-schemas, EP-failures, EP-lifecycle] the answer to apply is checked too; the
    engine's process group is gone afterwards and no pipe is left open."""
    with no_resource_warning():
        engine = ProcessEngine(scripted_engine(tmp_path, [HELLO, '{"ok": false, "illegal": "no", "why": "E-2"}']), timeout=10)
        try:
            with pytest.raises(EngineFailure) as failure:
                engine.apply(Play(0))
        finally:
            engine.close()
    assert str(failure.value) == (
        'scripted: answer to apply is outside the protocol: at $: "why" is not allowed here '
        "(schema engine-protocol.schema.json#/$defs/apply_answer/allOf/1/else/additionalProperties) (stopped)"
    )
    with pytest.raises(ProcessLookupError):
        os.killpg(engine.group, 0)


def test_a_long_answer_is_checked_in_the_time_of_its_fault(tmp_path: Path) -> None:
    """[EP-schemas, EP-failures] a state whose 10,000-card discard pile ends in a card of
    value 0 (a quarter of the 1 MiB line limit): the failure names that card's index, and
    the check, cut to that card, takes a fraction of what jsonschema takes on the whole."""
    import time

    pile = [{"suit": 0, "value": 1}] * 10_000 + [{"suit": 0, "value": 0}]
    answer = {"ok": True, "state": {"discard": pile}}
    start = time.process_time()
    violation = answer_violation("state", answer)
    spent = time.process_time() - start
    assert violation is not None and violation.path == "$.state.discard[10000].value", violation
    start = time.process_time()
    full = first_violation(strict_validator(PROTOCOL_SCHEMA, "state_answer"), answer)
    assert full == violation and spent < (time.process_time() - start) / 5
    line = json.dumps(answer)
    with no_resource_warning():
        engine = ProcessEngine(scripted_engine(tmp_path, [HELLO, line]), timeout=20)
        try:
            with pytest.raises(EngineFailure, match=r"at \$\.state\.discard\[10000\]\.value: 0 is less than the minimum 1"):
                engine.state()
        finally:
            engine.close()


# ------------------------------------------------------------------ the direct check is the schema


def _real_answers() -> list[tuple[str, Any]]:
    """Answers of our engine to every kind of request, in a few states of a game."""
    engine = ReferenceEngine()
    config = make_config(3, preset="thesis", variant="Rainbow (6 Suits)")
    answers: list[tuple[str, Any]] = [
        ("hello", answer_request(engine, {"op": "hello", "protocol": "hanabi-ref/engine", "version": 1})),
        ("new_game", answer_request(engine, _new_game(config, 4))),
        ("new_game", answer_request(Unsupporting(), _new_game(config, 4))),
        ("quit", {"ok": True}),
    ]
    chooser = random.Random(1)
    for turn in range(12):
        answers.append(("state", answer_request(engine, {"op": "state"})))
        answers.append(("observe", answer_request(engine, {"op": "observe", "seat": turn % config.players})))
        legal = answer_request(engine, {"op": "legal_actions"})
        answers.append(("legal_actions", legal))
        answers.append(("apply", answer_request(engine, {"op": "apply", "action": {"type": "play", "slot": 9}})))
        answers.append(("apply", answer_request(engine, {"op": "apply", "action": chooser.choice(legal["actions"])})))
    answers += _seeded_answers(config)
    return answers


def _seeded_answers(config: GameConfig) -> list[tuple[str, Any]]:
    """[EP-seed] answers of our engine dealing from a seed: hello with ``deals``, new_game
    revealing the whole deck or the cards dealt, apply answers revealing a drawn card."""
    from hanabi_ref.tools.protocol.seeded import SeededReference

    answers: list[tuple[str, Any]] = []
    request = {"op": "new_game", "config": config_to_json(config), "seed": 11}
    for reveal in ("deck", "drawn"):
        engine = SeededReference(reveal)
        answers.append(("hello", answer_request(engine, {"op": "hello", "protocol": "hanabi-ref/engine", "version": 1})))
        answers.append(("new_game", answer_request(engine, request)))
        for _ in range(3):
            answers.append(("apply", answer_request(engine, {"op": "apply", "action": {"type": "discard", "slot": 0}})))
    assert any("dealt" in answer for op, answer in answers if op == "apply")
    return answers


REAL = _real_answers()
ANSWER_VALIDATORS = {op: strict_validator(PROTOCOL_SCHEMA, f"{op}_answer") for op in OPS}
"""The strict validator of each operation's answer, built once (it holds no state)."""
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2, 9) | st.sampled_from([1.0, 0.0, 8.0, 2.5]) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(
        st.sampled_from(["ok", "state", "actions", "suit", "value", "type", "slot", "hands", "illegal", "name", "zz",
                         "view", "seat", "observe", "deals", "deck", "dealt"]), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None)
@given(st.data())
@pytest.mark.checks("EP-schemas", "EP-types")
def test_the_direct_check_and_the_narrowing_agree_with_the_schema(data: st.DataObject) -> None:
    """[EP-schemas, EP-types] a real answer with one value replaced, removed or added
    somewhere: the direct check accepts only what the schema accepts, the answer is
    refused exactly when the schema refuses it, and the violation reported (found on the
    answer cut short) is the one jsonschema reports on the whole answer (150 answers
    here, 1,500 in the deep set)."""
    _agrees_with_the_schema(data)


@pytest.mark.deep  # the test above with ten times the examples
@settings(max_examples=1500, deadline=None)
@given(st.data())
def test_the_direct_check_and_the_narrowing_agree_with_the_schema_at_length(data: st.DataObject) -> None:
    """The test above on 1,500 answers."""
    _agrees_with_the_schema(data)


def _agrees_with_the_schema(data: st.DataObject) -> None:
    """Draw a real answer, change one value somewhere, and check the direct check and the
    violation reported against jsonschema on the whole answer."""
    op, answer = data.draw(st.sampled_from(REAL))
    answer = copy.deepcopy(answer)
    node: Any = drawn_node(data, answer)
    if isinstance(node, dict):
        key = data.draw(st.sampled_from(sorted(node) + ["zz", "ok", "state"]))
        if key in node and data.draw(st.booleans()):
            del node[key]
        else:
            node[key] = data.draw(VALUES)
    elif isinstance(node, list):
        replace: bool = data.draw(st.booleans())
        if node and replace:
            node[data.draw(st.integers(0, len(node) - 1))] = data.draw(VALUES)
        else:
            node.append(data.draw(VALUES))
    schema = ANSWER_VALIDATORS[op]
    valid = schema.is_valid(answer)
    if is_plain_answer(op, answer):
        assert valid, (op, answer)
    violation = answer_violation(op, answer)
    assert (violation is None) == valid, (op, answer, violation)
    assert violation == first_violation(schema, answer)
    if violation is not None:
        assert "\n" not in str(violation) and str(violation).startswith(f"at {violation.path}: ")


@pytest.mark.checks("ISO-protocol", "EP-config")
def test_the_bot_protocol_refuses_a_partial_configuration() -> None:
    """[ISO-protocol, EP-config] a bot's ``new_game`` request carries the configuration in
    full: the schema takes the one our runner sends, and refuses it with any rule option
    left out (a trace file may leave options at their defaults; a bot is never sent one)."""
    validator = strict_validator("bot-protocol.schema.json", "new_game_request")
    config = config_to_json(make_config(3, "hanab-live"), in_full=True)  # as isolation.client sends it
    request: dict[str, Any] = {"op": "new_game", "config": config, "seat": 1, "seed": 7}
    assert first_violation(validator, request) is None
    for option in config["options"]:
        partial = copy.deepcopy(request)
        del partial["config"]["options"][option]
        assert first_violation(validator, partial) is not None, option
