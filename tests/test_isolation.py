"""Isolated seats and the bot protocol [ISO-view, ISO-changes, ISO-schema, ISO-protocol,
ISO-seat, ISO-same, ISO-timeout, ISO-failures, ISO-lifecycle, ISO-cli, ISO-example,
ISO-attacks, ISO-games].

Views are compared with the views the engine builds (never with our own JSON); games
played with isolated seats are compared, action for action, with the same games played
in-process; failing bots are scripted processes whose ids are checked to be gone after
the run; the attacks are real strategies that read the interpreter, run both ways.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema.protocols import Validator

from hanabi_ref.cli import main
from hanabi_ref.players.runner import play_game, play_games
from hanabi_ref.tools.isolation import seat_command
from hanabi_ref.tools.isolation.client import BotProcess, IsolatedFactory, SeatFailure
from hanabi_ref.tools.isolation.protocol import OPS, SCHEMA, answer_violation, is_plain_answer
from hanabi_ref.tools.isolation.wire import apply_changes, event_from_json, event_to_json, view_changes, view_from_json, view_to_json
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.formats.schema import SCHEMA_BASE, load_schema, strict_validator
from hanabi_ref.engine.presets import OPTIONS
from hanabi_ref.players.strategies import SPECS, Value, factory_for
from hanabi_ref.players.strategy import StrategyError, StrategyFactory
from hanabi_ref.formats.trace import GameRecord
from hanabi_ref.engine.transition import apply, new_game
from hanabi_ref.engine.view import PlayerView, make_views
from tests.bots import peeking

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
needs_node = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")


def _views_of_game(config: GameConfig, seed: int) -> Iterator[tuple[list[PlayerView], Any]]:
    """Every seat's view after the deal and after every move of a game of the first legal
    actions, with the event of the move (None after the deal)."""
    state = new_game(config, seed)
    seats = list(range(config.players))
    yield make_views(state, seats), None
    while not state.terminal:
        actions = legal_actions(state)
        state = apply(state, actions[(state.turns * 7) % len(actions)])
        yield make_views(state, seats), state.history[-1]


CONFIGS = [make_config(2), make_config(4, preset="hle"), make_config(3, preset="hanab-live", variant="rainbow")]


@pytest.mark.checks("ISO-view", "ISO-changes", "EP-config")
@pytest.mark.parametrize("config", CONFIGS, ids=lambda config: f"{config.players}-{config.preset}-{config.variant}")
def test_views_and_changes_round_trip_exactly(config: GameConfig) -> None:
    """[ISO-view, ISO-changes, EP-config] through JSON text, a whole view gives back an
    equal view, and the changes from the seat's last view (with the event) give back an
    equal view, for every seat after every move of a game; a view's configuration has
    every rule option."""
    last: list[PlayerView] | None = None
    validator = strict_validator(SCHEMA, "view")
    for views, event in _views_of_game(config, seed=11):
        for seat, view in enumerate(views):
            data = json.loads(json.dumps(view_to_json(view)))
            assert validator.is_valid(data) and set(data["config"]["options"]) == set(OPTIONS)
            rebuilt = view_from_json(data)
            assert rebuilt == view and type(rebuilt.history[-1] if view.history else None) is type(
                view.history[-1] if view.history else None)
            if last is not None:
                changes = json.loads(json.dumps(view_changes(view, last[seat])))
                assert not {"config", "seat", "history"} & changes.keys()
                assert apply_changes(view_from_json(json.loads(json.dumps(view_to_json(last[seat])))), changes,
                                     event_from_json(json.loads(json.dumps(event_to_json(event))))) == view
        last = views


@pytest.mark.checks("ISO-view")
def test_a_view_cannot_be_built_with_a_field_missing_or_added() -> None:
    """[ISO-view, 2.17-view] the sanctioned builder takes exactly PlayerView's fields."""
    from hanabi_ref.engine.view import view_from_parts

    view = make_views(new_game(make_config(2), 1), [0])[0]
    parts = {name: value for name, value in view.__dict__.items() if name != "key"}
    assert view_from_parts(dict(parts)) == view
    with pytest.raises(ValueError, match="ISO-view"):
        view_from_parts({**parts, "deck": (1, 2, 3)})
    del parts["history"]
    with pytest.raises(ValueError, match="ISO-view"):
        view_from_parts(parts)


@pytest.mark.checks("ISO-schema")
def test_the_shipped_schema_is_the_spec_copy() -> None:
    """[ISO-schema] the package's bot-protocol schema and spec/'s are the same bytes."""
    shipped = (ROOT / "hanabi_ref" / "formats" / "schemas" / SCHEMA).read_bytes()
    assert (ROOT / "spec" / SCHEMA).read_bytes() == shipped
    assert load_schema(SCHEMA)["$id"] == SCHEMA_BASE + SCHEMA


ANSWERS = [
    ("hello", {"ok": True}, True),
    ("hello", {"ok": True, "name": "x", "protocol": "hanabi-ref/bot", "version": 1, "updates": "changes"}, True),
    ("hello", {"ok": True, "version": 2}, False),
    ("hello", {"ok": True, "updates": "some"}, False),
    ("new_game", {"ok": True}, True),
    ("new_game", {"ok": True, "extra": 1}, False),
    ("observe", {"ok": False, "error": "no"}, True),
    ("observe", {"ok": False}, False),
    ("act", {"ok": True, "action": {"type": "play", "slot": 0}}, True),
    ("act", {"ok": True, "action": {"type": "hint", "target": 1, "kind": "colour", "value": 2}}, True),
    ("act", {"ok": True, "action": {"type": "play", "slot": -1}}, False),
    ("act", {"ok": True, "action": {"type": "play", "slot": 1.0}}, False),
    ("act", {"ok": True}, False),
    ("quit", {"ok": True}, True),
]


@pytest.mark.checks("ISO-schema")
@pytest.mark.parametrize(("op", "answer", "valid"), ANSWERS)
def test_answers_are_checked_as_the_schema_says(op: str, answer: dict[str, Any], valid: bool) -> None:
    """[ISO-schema] the direct check never passes what the schema refuses, and an answer
    is refused exactly when the schema refuses it (the expected verdicts are read from
    spec/isolation.md's table of answers)."""
    schema_valid = strict_validator(SCHEMA, f"{op}_answer").is_valid(answer)
    assert schema_valid == valid
    assert (answer_violation(op, answer) is None) == valid
    if is_plain_answer(op, answer):
        assert valid


# ------------------------------------------------------------------ same games


def _config_for(name: str) -> GameConfig:
    """The smallest configuration the strategy plays, among 2 to 5 players of the presets."""
    for players in (2, 3, 4, 5):
        for preset in ("thesis", "hle", "hanab-live"):
            config = make_config(players, preset=preset)
            if SPECS[name].unsupported is None or SPECS[name].unsupported(config) is None:  # type: ignore[misc]
                return config
    raise AssertionError(name)


def _request_validators() -> dict[str, Validator]:
    """For each operation, a validator that is the schema's root on requests of that
    operation.  The root is one of the ``<op>_request`` definitions, each of which (every
    alternative of it) requires ``op`` to be its own name: a request of operation ``op``
    meets the root exactly when it meets ``<op>_request``, and the root would try all
    five definitions on it, view and event included (read off the schema here)."""
    schema = load_schema(SCHEMA)
    assert schema["$ref"] == "#/$defs/request" and not schema.keys() - {"$id", "$schema", "$ref", "$defs", "title",
                                                                          "description"}
    assert schema["$defs"]["request"] == {"oneOf": [{"$ref": f"#/$defs/{op}_request"} for op in OPS]}
    for op in OPS:
        definition = schema["$defs"][f"{op}_request"]
        branches = definition["oneOf"] if "oneOf" in definition else [definition]
        assert "oneOf" not in definition or definition.keys() == {"oneOf"}
        for branch in branches:
            assert "op" in branch["required"] and branch["properties"]["op"] == {"const": op}, (op, branch)
    return {op: strict_validator(SCHEMA, f"{op}_request") for op in OPS}


def _plays_the_same_games_isolated(name: str, params: dict[str, Value], alone: tuple[int, ...],
                                   together_seeds: range) -> None:
    """``name`` with ``params``, each seat a process, plays the games ``alone`` one at a
    time and ``together_seeds`` at once: each the game played in-process, action for
    action; the requests sent are valid under the schema's root: every request of the
    first game, and of the others the first of each operation in each game and every
    tenth."""
    config = _config_for(name)
    sent: list[str] = []
    first_game = 0
    original = BotProcess.post

    def recording(self: BotProcess, request: dict[str, Any] | str, turn: int) -> None:
        sent.append(request if isinstance(request, str) else json.dumps(request))
        original(self, request, turn)

    BotProcess.post = recording  # type: ignore[method-assign]
    try:
        with IsolatedFactory([seat_command(name, params)]) as isolated:
            for seed in alone:
                expected = play_game(config, factory_for(name, params), seed=seed).trace
                assert play_game(config, isolated, seed=seed).trace == expected
                first_game = first_game or len(sent)
            together = play_games(config, isolated, [(seed, None) for seed in together_seeds])
            assert len(together) == len(together_seeds)
            for seed, record in zip(together_seeds, together):
                assert isinstance(record, GameRecord), record
                assert record.trace == play_game(config, factory_for(name, params), seed=seed).trace
    finally:
        BotProcess.post = original  # type: ignore[method-assign]
    validators = _request_validators()
    assert {json.loads(line)["op"] for line in sent} >= {"hello", "new_game", "observe", "act"}
    assert all(set(request["config"]["options"]) == set(OPTIONS) for request in map(json.loads, sent)
               if request["op"] == "new_game")  # [EP-config] every option
    assert {json.loads(line).get("game") for line in sent} >= set(range(len(together_seeds)))  # [ISO-games] the games at once
    firsts: set[tuple[object, object]] = set()
    for index, line in enumerate(sent):
        request = json.loads(line)
        kind = (request["op"], request.get("game"))
        if index < first_game or kind not in firsts or index % 10 == 0:
            assert validators[request["op"]].is_valid(request), line[:200]
        firsts.add(kind)


@pytest.mark.checks("ISO-same", "ISO-seat", "ISO-protocol", "ISO-games")
@pytest.mark.parametrize("name", list(SPECS))
def test_every_shipped_strategy_plays_the_same_games_isolated(name: str) -> None:
    """[ISO-same, ISO-seat, ISO-protocol, ISO-games] every shipped strategy, each seat in a
    process of its own that receives only serialised views and events, plays the very
    games it plays in-process, action for action, one game alone and three games at
    once; the requests it was sent are valid under the schema's root: every request of
    the first game, and of the others the first of each operation in each game and every
    tenth (validating all of them cost 35 s of the suite and found nothing more).  The
    searching ``info-search`` (each move near the end plays dozens of games to their end)
    plays two games at once only (the game alone is every other strategy's), searching 8
    worlds per move instead of 32: the same code in the seat's process, in a tenth of
    the time; the deep set plays its full search, one game alone and three at once."""
    if name == "info-search":
        _plays_the_same_games_isolated(name, {"search": 8}, (), range(5, 7))
    else:
        _plays_the_same_games_isolated(name, {}, (3,), range(5, 8))


@pytest.mark.deep  # one to two minutes: every move near the end searches 32 worlds, in-process and in the seat
def test_info_search_plays_the_same_games_isolated_with_its_full_search() -> None:
    """The default test's check of ``info-search`` at full size: its default search (32
    worlds), one game alone and three at once, each seat a process, plays the games
    played in-process, action for action."""
    _plays_the_same_games_isolated("info-search", {}, (3,), range(5, 8))


# ------------------------------------------------------------------ failing bots


def _gone(pid: int) -> bool:
    """Whether no process (not even a zombie) has the id ``pid``."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def _script(tmp_path: Path, name: str, lines: list[str]) -> str:
    answers = tmp_path / f"{name}.txt"
    answers.write_text("\n".join(lines), encoding="utf-8")
    return f"{PY} -m tests.bots.scripted {answers} {tmp_path / 'pids.txt'}"


HELLO = '{"ok":true,"name":"scripted"}'
OK = '{"ok":true}'
FAILURES = [
    ("garbage", ["oops"], "seat 0 (scripted), turn 0: printed garbage in answer to act: 'oops' (stopped)"),
    ("schema", ['{"ok":true,"action":{"type":"play","slot":-1}}'],
     "seat 0 (scripted), turn 0: answer to act is outside the protocol: at $.action"),
    ("illegal", ['{"ok":true,"action":{"type":"play","slot":9}}'], "turn 0, seat 0 (IsolatedSeat): play 9 is illegal"),
    ("refused", ['{"ok":false,"error":"no idea"}'], "seat 0 (scripted), turn 0: failed to answer act: 'no idea'"),
    ("hang", ["HANG"], "seat 0 (scripted), turn 0: no answer to act within 1.5 s (stopped)"),
    ("exit", ["EXIT"], "seat 0 (scripted), turn 0: exited with code 3 while answering act; "
                       "last stderr line: scripted bot: out of answers"),
]


@pytest.mark.checks("ISO-failures", "ISO-lifecycle", "ISO-cli")
@pytest.mark.parametrize(("kind", "acts", "message"), FAILURES, ids=[kind for kind, _, _ in FAILURES])
def test_a_failing_bot_is_one_line_naming_seat_and_turn(kind: str, acts: list[str], message: str, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """[ISO-failures, ISO-lifecycle, ISO-cli] a bot that prints garbage, breaks the schema,
    answers an illegal move, refuses, hangs or exits: the game fails (never a score), one
    line names the seat, the turn and what it did, exit 1, and every process of every
    seat (the bots and the children they started) is gone."""
    command = _script(tmp_path, "seat0", [HELLO, OK, *acts])
    other = _script(tmp_path, "seat1", [HELLO, OK] + [OK] * 50)
    code = main(["simulate", "--bot", command, "--bot", other, "--players", "2", "--games", "1", "--jobs", "1",
                 "--move-timeout", "1.5", "--json"])
    out, err = capsys.readouterr()
    assert code == 1
    summary = json.loads(out)
    assert summary["games_completed"] == 0 and summary["failed_seeds"] == [0]
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err
    assert message in lines[0], lines[0]
    pids = [int(pid) for pid in (tmp_path / "pids.txt").read_text().split()]
    assert len(pids) >= 4  # two seats, the check of the first seat's hello, and their children
    assert all(_gone(pid) for pid in pids)


@pytest.mark.checks("ISO-timeout")
def test_each_answer_has_its_own_time_limit(tmp_path: Path) -> None:
    """[ISO-timeout] three requests sent together, answered 0.6 s apart: each answer is
    due 1.5 s after the one before it was read, so all three come in time although the
    last comes 1.8 s after it was sent; an answer that never comes is late after 1.5 s,
    named by its request.  (Each answer has 0.9 s to spare, for a loaded machine.)"""
    command = _script(tmp_path, "slow", [HELLO, "SLOW " + OK, "SLOW " + OK, "SLOW " + OK, "HANG"])
    bot = BotProcess(command.split(), 0, timeout=1.5)
    try:
        bot.collect()
        for turn in range(3):
            bot.post({"op": "observe"}, turn)
        start = time.monotonic()
        assert bot.collect() == {"ok": True} and time.monotonic() - start > 1.5
        bot.post({"op": "act"}, 3)
        with pytest.raises(SeatFailure, match=r"^seat 0 \(scripted\), turn 3: no answer to act within 1.5 s \(stopped\)$"):
            bot.collect()
    finally:
        bot.close()
    assert all(_gone(int(pid)) for pid in (tmp_path / "pids.txt").read_text().split())


@pytest.mark.checks("ISO-failures")
def test_a_later_seat_and_turn_are_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[ISO-failures] seat 1's first act comes at turn 1, after it observed turn 0."""
    seat0 = _script(tmp_path, "seat0", [HELLO, OK, '{"ok":true,"action":{"type":"play","slot":0}}'] + [OK] * 5)
    seat1 = _script(tmp_path, "seat1", [HELLO, OK, OK, "[1, 2]"])
    assert main(["play", "--bot", seat0, "--bot", seat1, "--players", "2", "--rules", "hle"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("hanabi-ref: seat 1 (scripted), turn 1: answer to act is outside the protocol: at $: "), err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.checks("ISO-cli")
def test_a_command_that_cannot_start_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """[ISO-cli] exit 2, one line, before any game."""
    assert main(["simulate", "--bot", "/nonexistent/bot", "--players", "2", "--games", "1"]) == 2
    assert capsys.readouterr().err.strip() == "hanabi-ref: --bot: cannot start '/nonexistent/bot': No such file or directory"


@pytest.mark.checks("ISO-cli")
@pytest.mark.parametrize("arguments", [
    ["--bot", "x", "--strategy", "simple"], ["--bot", "x", "--isolate"], ["--bot", "a", "--bot", "b", "--bot", "c"], [],
    ["--strategy", "simple", "--move-timeout", "3"],
])
def test_bad_seat_arguments_are_usage_errors(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """[ISO-cli] --bot with --strategy or --isolate, a number of bots that is neither one
    nor the number of seats, no strategy at all, or a time limit for seats that are not
    isolated: exit 2."""
    assert main(["simulate", *arguments, "--players", "2", "--games", "1"]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


@pytest.mark.checks("ISO-lifecycle")
def test_closing_the_factory_ends_every_seat() -> None:
    """[ISO-lifecycle] after close, no seat process is left, not even a zombie."""
    config = make_config(3)
    with IsolatedFactory([seat_command("simple")]) as isolated:
        play_game(config, isolated, seed=1)
        pids = isolated.pids()
        assert len(pids) == 3
    assert all(_gone(pid) for pid in pids)


@pytest.mark.checks("ISO-failures", "ISO-seat")
def test_a_seat_that_failed_is_started_again_for_the_next_game() -> None:
    """[ISO-failures, ISO-seat] a seat's process that was stopped (as after a failure) is
    replaced at the next game; the other seats keep theirs."""
    config = make_config(2)
    with IsolatedFactory([seat_command("simple")], timeout=5) as isolated:
        expected = play_game(config, factory_for("simple"), seed=2).trace
        play_game(config, isolated, seed=1)
        first = isolated.pids()
        isolated._bots[1]._end()
        assert isolated.pids() == first[:1]
        assert play_game(config, isolated, seed=2).trace == expected
        now = isolated.pids()
        assert now[0] == first[0] and len(now) == 2 and now[1] != first[1]
    assert _gone(first[1])


# ------------------------------------------------------------------ many games at once


def _faulty(tmp_path: Path, mode: str) -> str:
    """The command of a bot that fails as ``mode`` says in the third game its process starts."""
    return f"{PY} -m tests.bots.faulty {mode} 2 {tmp_path / 'failed'}"


@pytest.mark.checks("ISO-games", "ISO-failures", "ISO-timeout")
@pytest.mark.parametrize("mode", ["illegal", "refuse", "hang"])
def test_a_failure_among_many_games_at_once(mode: str, tmp_path: Path) -> None:
    """[ISO-games, ISO-failures, ISO-timeout] six games at once, in which seat 0's process
    fails in the third: an illegal action fails that game alone (the others are the games
    played in-process); a refusal or a hang fails every game not counted yet with one
    line naming the seat and the turn, and ends every seat's process; the next games
    start them again and are the in-process games."""
    config = make_config(2)
    seeds = list(range(10, 16))
    expected = [play_game(config, factory_for("simple"), seed=seed).trace for seed in seeds]
    # only the hang tests a limit: 2 s (hello, the start, is given a minute); the other
    # modes get a generous one, so that load cannot turn a slow answer into their failure
    with IsolatedFactory([_faulty(tmp_path, mode).split()], timeout=2.0 if mode == "hang" else 120.0) as isolated:
        first = play_games(config, isolated, [(seed, None) for seed in seeds])
        after_failure = isolated.pids()
        second = play_games(config, isolated, [(seed, None) for seed in seeds])
    assert [record.trace for record in second if isinstance(record, GameRecord)] == expected
    if mode == "illegal":
        assert isinstance(first[2], StrategyError)
        assert str(first[2]).startswith("turn 0, seat 0 (IsolatedSeat): play 9 is illegal")
        assert [record.trace if isinstance(record, GameRecord) else None for record in first] == \
            [*expected[:2], None, *expected[3:]]
        return
    # a hang is found at the first answer not given: the seat server writes the answers of
    # the requests it read together, so that may be the answer of a request before the act
    pattern = {"refuse": r"seat 0 \(faulty\), turn 0: failed to answer act: 'RuntimeError: the faulty bot refuses' \(stopped\)",
               "hang": r"seat 0 \(faulty\), turn 0: no answer to (new_game|act) within 2 s \(stopped\)"}[mode]
    assert all(isinstance(record, SeatFailure) for record in first), first
    assert len({str(record) for record in first}) == 1 and re.fullmatch(pattern, str(first[0])), first[0]
    assert after_failure == []


@pytest.mark.checks("ISO-timeout")
def test_a_slow_start_is_not_a_slow_move() -> None:
    """[ISO-timeout] a seat whose process takes longer than the move timeout to start (here
    a shell that sleeps 3 s before it starts the seat; the move timeout is 1 s) still
    plays: hello is given a minute; the games are the in-process games."""
    config = make_config(2)
    command = ["sh", "-c", 'sleep 3; exec "$@"', "sh", *seat_command("simple")]
    with IsolatedFactory([command], timeout=1.0) as isolated:
        record = play_game(config, isolated, seed=3)
    assert record.trace == play_game(config, factory_for("simple"), seed=3).trace


@pytest.mark.checks("ISO-games", "ISO-failures", "ISO-cli")
def test_simulate_lists_the_games_a_failure_among_many_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[ISO-games, ISO-failures, ISO-cli] a refusal in the first chunk of 24 games (three
    games at once per chunk, the third started failing) fails that chunk's three games,
    listed with one line, exit 1; the other 21 are played."""
    bot = _faulty(tmp_path, "refuse")
    code = main(["simulate", "--bot", bot, "--players", "2", "--games", "24", "--jobs", "1", "--move-timeout", "5",
                 "--json"])
    out, err = capsys.readouterr()
    summary = json.loads(out)
    assert code == 1 and summary["games_completed"] == 21 and summary["failed_seeds"] == [0, 1, 2]
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "seat 0 (faulty), turn 0: failed to answer act" in err


@pytest.mark.checks("ISO-lifecycle", "ISO-seat")
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_worker_keeps_its_seats_from_chunk_to_chunk(jobs: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """[ISO-lifecycle, ISO-seat] 16 games in chunks of 2 (one worker) or 1 (two workers):
    each worker starts its two seats' processes once, and none is left after the run."""
    pids = tmp_path / "pids.txt"
    monkeypatch.setenv("HANABI_REF_BOT_PIDS", str(pids))
    bot = _faulty(tmp_path, "illegal").replace(" 2 ", " 1000 ")  # never fails
    assert main(["simulate", "--bot", bot, "--players", "2", "--games", "16", "--jobs", str(jobs), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games_completed"] == 16
    started = [int(pid) for pid in pids.read_text().split()]
    assert 2 <= len(started) <= 2 * jobs + 2  # the check of the first seat's hello starts one more (twice at most)
    assert all(_gone(pid) for pid in started)


# ------------------------------------------------------------------ the example bot


@pytest.mark.checks("ISO-example", "ISO-protocol")
@needs_node
def test_the_example_bot_plays_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    """[ISO-example, ISO-protocol] docs/bots/example.js (Node.js) plays whole games, every
    answer valid."""
    bot = f"node {ROOT / 'docs' / 'bots' / 'example.js'}"
    assert main(["simulate", "--bot", bot, "--players", "3", "--games", "2", "--jobs", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games_completed"] == 2 and summary["mean_score"] > 0


# ------------------------------------------------------------------ routes 2 and 3


def _peeks(route: str, tmp_path: Path, isolated: bool, games: int) -> list[tuple[list[int], list[int] | None]]:
    """Play ``games`` games of the peeking strategy (in-process, or each seat a bot
    process) and return, for every act, the seat's real hand and the attack's guess."""
    log = tmp_path / f"{route}-{isolated}.jsonl"
    config = make_config(3)
    decks = []
    factory: StrategyFactory
    if isolated:
        os.environ[peeking.LOG] = str(log)
        try:
            with IsolatedFactory([[PY, "-m", "tests.bots.peeking", route]]) as seats:
                decks = [play_game(config, seats, seed=seed).final.deck for seed in range(games)]
        finally:
            del os.environ[peeking.LOG]
    else:
        factory = peeking.factory(route, str(log))
        decks = [play_game(config, factory, seed=seed).final.deck for seed in range(games)]
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    game, found = -1, []
    for entry in entries:  # the log is in game order; each game starts with turn 0
        game += entry["turn"] == 0
        found.append(([decks[game][card] for card in entry["hand"]], entry["guess"]))
    return found


@pytest.mark.checks("ISO-attacks", "ISO-seat")
@pytest.mark.parametrize("route", ["frames", "gc"])
def test_reading_the_interpreter_learns_nothing_in_an_isolated_seat(route: str, tmp_path: Path) -> None:
    """[ISO-attacks, ISO-seat] routes 2 (the caller's frames) and 3 (gc.get_objects()):
    in-process, the attack reads the seat's real hidden cards on every turn of a game (the
    positive control: the test can fail); in an isolated seat, in two games, it finds no
    game state, and its guesses match the seat's real hand never."""
    control = _peeks(route, tmp_path, isolated=False, games=1)
    assert control and all(guess == real for real, guess in control)
    attacked = _peeks(route, tmp_path, isolated=True, games=2)
    assert len(attacked) > 60
    assert sum(guess == real for real, guess in attacked) == 0
    assert all(guess is None for _, guess in attacked)


# ------------------------------------------------------------------ bench isolate


@pytest.mark.checks("B-isolate")
def test_bench_isolate_measures_both_modes_on_every_clock(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[B-isolate] one tiny interleaved round: both modes ran in fresh interpreters with
    contracts off, the isolated one with four seat processes whose CPU is counted, and
    the ratios are those of the medians (no speed is asserted: the command measures it)."""
    assert main(["bench", "isolate", "--seconds", "0.3", "--repeats", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["benchmark"] == "isolate" and report["clock_of_runs"] == "wall"
    assert [step["variant"] for step in report["schedule"]] == ["in-process", "isolated"]
    (entry,) = report["results"]
    modes = entry["modes"]
    (alone,), (isolated,) = modes["in-process"]["runs"], modes["isolated"]["runs"]
    assert alone["seat_processes"] == 0 and isolated["seat_processes"] == 4
    assert isolated["seats_cpu_seconds"] > 0 and isolated["total_cpu_seconds"] > isolated["cpu_seconds"]
    assert not alone["contracts"] and not isolated["contracts"]
    for run in (alone, isolated):
        assert run["games"] >= 1 and run["games_per_wall_second"] == run["games"] / run["wall_seconds"]
    wall = isolated["games_per_wall_second"] / alone["games_per_wall_second"]
    assert entry["ratios"]["isolated/in-process per wall second"] == pytest.approx(wall)
    assert entry["meets_target"] == (wall >= 0.4)
