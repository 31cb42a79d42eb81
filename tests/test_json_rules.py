"""Strict JSON reading and the files it refuses [T-json, T-schema, D-seed, HL-options,
C-exit, C-replay]."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.cli import EXIT_INVALID_GAME, EXIT_OK, main
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.base.errors import TraceError
from hanabi_ref.players.runner import play_game
from hanabi_ref.formats.hanablive import trace_from_hanablive, trace_to_hanablive
from hanabi_ref.engine.configs import make_config
from hanabi_ref.formats.serial import MAX_DIGITS, JsonRuleError, NumberTooLong, parse_json
from hanabi_ref.players.strategies import STRATEGIES
from hanabi_ref.formats.trace import Trace, replay, trace_from_json, trace_to_json
from tests.processes import run_process

ROOT = Path(__file__).resolve().parents[1]

# ------------------------------------------------------------------ the parser

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=8)
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=100, deadline=None)  # 300 more in the deep set
@given(json_values)
def test_every_json_value_without_the_refused_forms_reads_as_python_reads_it(value: object) -> None:
    """[T-json] what the rules do not refuse is read exactly as Python's own parser reads
    it (the independent method): the strict reader adds refusals, never a different value."""
    text = json.dumps(value)
    assert parse_json(text) == json.loads(text)


@pytest.mark.parametrize(
    "text, reason",
    [
        ('{"a": NaN}', "NaN is not a JSON number"),
        ("[Infinity]", "Infinity is not a JSON number"),
        ('{"a": [1, -Infinity]}', "-Infinity is not a JSON number"),
        ('{"a": 1, "a": 1}', 'the key "a" appears twice in one object'),
        ('{"x": {"b": 1, "c": 2, "b": 3}}', 'the key "b" appears twice in one object'),
        ("[" + "7" * (MAX_DIGITS + 1) + "]", f"a number has {MAX_DIGITS + 1} digits, more than {MAX_DIGITS}"),
    ],
)
@pytest.mark.checks("T-json")
def test_refused_forms(text: str, reason: str) -> None:
    """[T-json] NaN and the infinities, a key twice in one object (at any depth) and an
    over-long integer are refused, though Python's ``json.loads`` accepts all but the last
    (which only the interpreter's own, adjustable, limit refuses)."""
    if "digits" not in reason:
        json.loads(text)  # the forms are ones Python's parser takes
    with pytest.raises(JsonRuleError) as error:
        parse_json(text)
    assert str(error.value) == reason


def test_the_digit_limit_is_inclusive() -> None:
    """[T-json, EP-numbers] 4,300 digits are read, a minus sign not counted; 4,301 are not."""
    assert parse_json("-" + "9" * MAX_DIGITS) == -int("9" * MAX_DIGITS)
    with pytest.raises(NumberTooLong):
        parse_json("9" * (MAX_DIGITS + 1))


@pytest.mark.checks("T-json")
def test_the_same_key_in_different_objects_is_fine() -> None:
    """[T-json] only a key twice in one object is refused."""
    assert parse_json('[{"a": 1}, {"a": 2, "b": {"a": 3}}]') == [{"a": 1}, {"a": 2, "b": {"a": 3}}]


# ------------------------------------------------------------------ game files


def recorded() -> Trace:
    return play_game(make_config(3, "hanab-live"), STRATEGIES["simple"], seed=4).trace


def run_cli(argv: list[str]) -> tuple[int, str]:
    """Exit code and standard error of the command in a fresh interpreter."""
    done = run_process([sys.executable, "-m", "hanabi_ref.cli", *argv], capture_output=True, text=True, timeout=120, cwd=ROOT)
    return done.returncode, done.stderr


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Exit code and standard error of the command run in this process (the same code path
    as :func:`run_cli`'s, without a fresh interpreter)."""
    code = main(argv)
    return code, capsys.readouterr().err


@pytest.mark.parametrize(
    "mutate, reason",
    [
        (lambda text: text.replace('"version":1', '"version":1,"version":1', 1), 'the key "version" appears twice'),
        (lambda text: text.replace('"actions":[', '"actions":[],"actions":[', 1), 'the key "actions" appears twice'),
        (lambda text: text.replace('"seed":', '"seed":NaN,"x":', 1), "NaN is not a JSON number"),
    ],
)
@pytest.mark.checks("T-json")
def test_replay_refuses_a_trace_our_rules_refuse(tmp_path: Path, mutate: Any, reason: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """[T-json, C-exit, C-replay] a trace with a key twice (the last would silently win in
    Python's parser) or NaN: exit 1, one line with the ``hanabi-ref:`` prefix, the file
    and the rule."""
    path = tmp_path / "game.json"
    text = json.dumps(trace_to_json(recorded()), separators=(",", ":"), sort_keys=True)
    mutated = mutate(text)
    assert mutated != text
    path.write_text(mutated, encoding="utf-8")
    code, err = run_main(["replay", str(path)], capsys)
    assert code == EXIT_INVALID_GAME and err.count("\n") == 1, err
    assert err.startswith(f"hanabi-ref: {path}: not valid JSON (") and reason in err and "(T-json)" in err, err


@pytest.mark.checks("T-json")
def test_replay_of_bytes_that_are_not_utf8_exits_1(tmp_path: Path) -> None:
    """[T-json, C-exit] bytes that are not UTF-8 make a file that is not JSON (exit 1),
    for traces and hanab.live files alike; the message names the line and the byte."""
    path = tmp_path / "game.json"
    path.write_bytes(b'{\n"format": "hanabi-ref/trace\xff"}')
    for extra in ([], ["--format", "hanab-live"]):
        code, err = run_cli(["replay", *extra, str(path)])
        assert code == EXIT_INVALID_GAME and err.count("\n") == 1, err
        assert err.startswith(f"hanabi-ref: {path}: not valid JSON (not UTF-8: line 2, byte offset 29: "), err


def test_a_seed_that_deals_another_deck_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[D-seed, T-schema, C-replay] a trace names a seed only when that seed deals its deck:
    swapping two different cards of a seeded deck keeps the composition (so the deck alone
    is valid) but breaks the seed; the replay is refused naming ``seed`` and the first card
    that differs; without the seed the same deck replays."""
    trace = recorded()
    assert trace.seed is not None and deck_from_seed(trace.config, trace.seed) == trace.deck
    deck = list(trace.deck)
    last = max(i for i, card in enumerate(deck) if card != deck[-1])
    deck[last], deck[-1] = deck[-1], deck[last]
    data = trace_to_json(Trace(trace.config, tuple(deck), ()))
    data["seed"] = trace.seed
    with pytest.raises(TraceError) as error:
        replay(trace_from_json(data))
    assert str(error.value) == f"seed: seed {trace.seed} does not deal this deck (deck[{last}] differs, D-seed)"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    code, err = run_main(["replay", str(path)], capsys)
    assert code == EXIT_INVALID_GAME and err == f"hanabi-ref: {path}: seed: seed {trace.seed} does not deal this deck (deck[{last}] differs, D-seed)\n"
    del data["seed"]
    replay(trace_from_json(data))


def test_replay_errors_carry_the_prefix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[C-replay, C-exit] an illegal action found in the replay: exit 1, one line that
    starts ``hanabi-ref: FILE: actions[i]``."""
    trace = recorded()
    data = trace_to_json(trace)
    data["actions"][0] = {"type": "play", "slot": 99}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path)]) == EXIT_INVALID_GAME
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"hanabi-ref: {path}: actions[0]"), err


@pytest.mark.parametrize("value", [math.nan, math.inf, -1.0])
def test_a_hanablive_time_base_must_be_finite(value: float) -> None:
    """[HL-options] ``timeBase`` is a finite number >= 0; NaN compares false to everything,
    so it must be refused explicitly when a game is given as a Python object."""
    game = trace_to_hanablive(recorded())
    game["options"] = {"timed": True, "timeBase": value}
    with pytest.raises(TraceError) as error:
        trace_from_hanablive(game)
    assert str(error.value).startswith("options.timeBase: must be a finite number >= 0"), str(error.value)


def test_a_hanablive_file_with_nan_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[T-json, HL-options, C-exit] NaN in a hanab.live file's options: exit 1, one line."""
    game = trace_to_hanablive(recorded())
    game["options"] = {"timed": True, "timeBase": 30}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(game).replace('"timeBase": 30', '"timeBase": NaN'), encoding="utf-8")
    code, err = run_main(["replay", "--format", "hanab-live", str(path)], capsys)
    assert code == EXIT_INVALID_GAME and err.count("\n") == 1 and "NaN is not a JSON number" in err, err
    path.write_text(json.dumps(game), encoding="utf-8")
    assert run_main(["replay", "--format", "hanab-live", str(path)], capsys)[0] == EXIT_OK


@pytest.mark.deep
@pytest.mark.parametrize("test", [test_every_json_value_without_the_refused_forms_reads_as_python_reads_it], ids=lambda test: test.__name__.removeprefix("test_"))
def test_properties_at_length(test: Any) -> None:
    """The reading property above, three more runs."""
    for _ in range(3):
        test()
