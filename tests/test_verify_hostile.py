"""``verify`` against hostile engines and operators: engines that never read, leave
children behind, flood stderr, answer with wrong JSON types or endless numbers; signals
to verify; an ``--out`` that cannot be written [EP-lifecycle, EP-numbers, EP-types,
EP-schemas, EP-out, EP-failures, EP-serve, EP-compare, C-verify].

Every engine here is a small script under ``tests/engines/`` or a ``sh -c`` command line.
An engine that must be gone afterwards writes its process group's id to a file, and the
test checks that no process of that group exists any more; a watchdog or a ``finally``
kills what a failing test would otherwise leave running.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref.cli import EXIT_INVALID_GAME, EXIT_OK, EXIT_USAGE, main
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.configs import make_config
from hanabi_ref.tools.protocol.choosing import RandomChooser
from hanabi_ref.tools.verify.compare import play_compared, state_difference
from hanabi_ref.tools.verify.equality import json_equal, json_type
from hanabi_ref.tools.protocol.engine import EngineFailure, ReferenceEngine
from hanabi_ref.tools.verify.process import MAX_LINE, ProcessEngine, Tail, parse_line
from hanabi_ref.tools.verify.serve import serve
from tests.helpers import scripted_engine
from tests.processes import catches, run_process, started

ENGINES = Path(__file__).resolve().parent / "engines"
PY = sys.executable
SCRIPTED = ENGINES / "scripted.py"
HELLO = '{"ok": true, "name": "scripted"}'
# Python's default limit on the digits of an int read from text (sys.int_info), which
# EP-numbers adopts: 4300 digits are a number, 4301 are refused.
LIMIT = 4300
ROOT = Path(__file__).resolve().parents[1]


def _answers(tmp_path: Path, lines: list[str]) -> Path:
    path = tmp_path / "answers.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def _verify(tmp_path: Path, engine: str, *extra: str) -> int:
    return main(["verify", "--engine", engine, "--no-vectors", "--games", "1", "--rules", "hle", "--players", "2",
                 "--out", str(tmp_path / "d.json"), *extra])


def _group_exists(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


def _kill_quietly(group: int, *pids: int) -> None:
    """SIGKILL to ``group`` and to each of ``pids``, whichever still exist."""
    for kill, target in [(os.killpg, group)] + [(os.kill, pid) for pid in pids]:
        try:
            kill(target, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


@pytest.fixture
def pidfile(tmp_path: Path) -> Iterator[Path]:
    """A file where a ``sh -c`` engine writes ``$$`` (its group: sh leads it) and ``$!``;
    whatever of that group is left at the end is killed, so a failing test leaves nothing."""
    path = tmp_path / "pids"
    yield path
    if path.exists():
        pids = _pids(path)
        _kill_quietly(pids[0], *pids)


def _pids(path: Path) -> list[int]:
    return [int(word) for word in path.read_text().split()]


# ------------------------------------------------------------------ engines that never read


@pytest.mark.checks("EP-failures")
def test_engine_that_never_reads_is_given_up_within_the_timeout(tmp_path: Path) -> None:
    """[EP-lifecycle, EP-failures] an engine that answers without ever reading its input
    fills the pipe to its stdin: verify's write gives up at the request's time limit
    instead of blocking for good.  (A watchdog kills the engine after 30 s so that a
    blocking write fails this test instead of hanging it.)"""
    engine = ProcessEngine(f"{PY} {ENGINES / 'deaf.py'}", timeout=1)
    watchdog = threading.Timer(30, lambda: _kill_quietly(engine.group, engine.group))
    watchdog.start()
    config = make_config(5, preset="hle")
    deck = deck_from_seed(config, 0)
    try:
        with pytest.raises(EngineFailure) as failure:
            for _ in range(1000):  # 1000 new_game requests are over 1 MB: no pipe holds them
                engine.new_game(config, deck)
    finally:
        watchdog.cancel()
        engine.close()
    assert "did not read the new_game request within 1 s (stopped)" in str(failure.value)
    assert "\n" not in str(failure.value)
    assert not _group_exists(engine.group)


# ------------------------------------------------------------------ nothing outlives verify


@pytest.mark.checks("EP-lifecycle")
def test_spinning_child_of_a_hung_engine_is_ended_with_it(tmp_path: Path, pidfile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-lifecycle, EP-failures] an engine started through ``sh -c`` forks a child that
    spins and then hangs: when verify gives up, no process of the engine's group is left."""
    answers = _answers(tmp_path, [HELLO, "HANG"])
    command = f"sh -c 'while :; do :; done & echo $$ $! > {pidfile}; exec {PY} {SCRIPTED} {answers}'"
    code = _verify(tmp_path, command, "--timeout", "1")
    err = capsys.readouterr().err
    assert code == EXIT_INVALID_GAME and "no answer to new_game within 1 s" in err, err
    _assert_group_and_child_gone(pidfile)


@pytest.mark.checks("EP-lifecycle")
def test_children_an_agreeing_engine_leaves_are_ended_at_the_end(tmp_path: Path, pidfile: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-lifecycle] an engine that agrees and quits but leaves a ``sleep 1000`` behind:
    verify reports no divergence, and the sleeping child is gone too."""
    command = f"sh -c 'sleep 1000 & echo $$ $! > {pidfile}; exec {PY} -m hanabi_ref.cli serve'"
    code = _verify(tmp_path, command, "--timeout", "30")
    out = capsys.readouterr().out
    assert code == EXIT_OK and "divergences     0" in out, out
    _assert_group_and_child_gone(pidfile)


def _assert_group_and_child_gone(pidfile: Path) -> None:
    """The engine's process group no longer exists, nor the child it started."""
    group, child = _pids(pidfile)
    assert not _group_exists(group)
    with pytest.raises(ProcessLookupError):
        os.kill(child, 0)


@pytest.mark.parametrize(
    ("signum", "code", "message"),
    [(signal.SIGTERM, 143, "terminated by SIGTERM"), (signal.SIGHUP, 129, "terminated by SIGHUP"),
     (signal.SIGINT, 130, "hanabi-ref: interrupted")],
)
@pytest.mark.checks("EP-lifecycle")
def test_signal_to_verify_ends_the_hung_engine_group(tmp_path: Path, pidfile: Path, signum: signal.Signals, code: int, message: str) -> None:
    """[EP-lifecycle] SIGTERM, SIGHUP or SIGINT to a verify process whose engine hangs
    (the engine, in a session of its own, gets none of them): verify exits with
    128 + the signal's number and one line, and the engine's group (the hung engine and
    its sleeping child) is gone."""
    answers = _answers(tmp_path, [HELLO, "HANG"])
    command = f"sh -c 'sleep 1000 & echo $$ $! > {pidfile}; exec {PY} {SCRIPTED} {answers}'"
    argv = [PY, "-m", "hanabi_ref.cli", "verify", "--engine", command, "--no-vectors", "--games", "1",
            "--rules", "hle", "--players", "2", "--timeout", "60", "--out", str(tmp_path / "d.json")]
    with started(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT) as verify:
        # under way: the engine has started (and its child), and verify's handlers are set
        _wait_for(lambda: pidfile.exists() and len(pidfile.read_text().split()) == 2
                  and catches(verify.pid, signal.SIGTERM), verify)
        verify.send_signal(signum)
        _, err = verify.communicate(timeout=120)
    assert verify.returncode == code, err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err, err
    group, sleeper = _pids(pidfile)
    assert not _group_exists(group)
    with pytest.raises(ProcessLookupError):
        os.kill(sleeper, 0)


def _wait_for(condition: Any, process: subprocess.Popen[str]) -> None:
    """Poll ``condition`` until it holds; fail if ``process`` ends first or 120 s pass."""
    deadline = time.monotonic() + 120
    while not condition():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the engine never started"
        time.sleep(0.02)


# ------------------------------------------------------------------ stderr floods


@pytest.mark.checks("EP-transport", "EP-failures")
def test_stderr_flood_keeps_only_the_tail(tmp_path: Path) -> None:
    """[EP-lifecycle, EP-failures] 20 MB of engine stderr: the failure quotes its last
    line, and verify's peak memory grows by less than 10 MB while it reads the flood
    (holding it all would take at least 20 MB).  Measured in a fresh process."""
    driver = (
        "import resource, sys\n"
        "from hanabi_ref.tools.protocol.engine import EngineFailure\n"
        "from hanabi_ref.tools.verify.process import ProcessEngine\n"
        "before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "try:\n"
        f"    ProcessEngine({PY!r} + ' ' + {str(ENGINES / 'flood_stderr.py')!r} + ' 20', timeout=30)\n"
        "except EngineFailure as failure:\n"
        "    print(failure)\n"
        "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)\n"
    )
    run = run_process([PY, "-c", driver], capture_output=True, text=True, timeout=120, cwd=ROOT)
    message, growth_kib = run.stdout.splitlines()
    assert message.endswith("exited with code 3 while answering hello; last stderr line: flood: the last line"), run.stdout + run.stderr
    assert int(growth_kib) < 10 * 1024


@pytest.mark.checks("EP-transport")
def test_tail_keeps_the_last_bytes_and_quotes_the_last_line() -> None:
    """[EP-lifecycle] the tail holds at most its size, the newest bytes, and its last line
    is the last non-empty line written."""
    tail = Tail(100)
    for index in range(1000):
        tail.add(f"line {index}\n".encode())
    tail.add(b"\n\n")
    assert len(tail) == 100 and tail.last_line() == "line 999"
    assert Tail(10).last_line() == ""


# ------------------------------------------------------------------ numbers and types in answers


@pytest.mark.parametrize(
    ("answers", "fragment"),
    [
        ([f'{{"ok": true, "name": "big", "x": {"9" * (LIMIT + 1)}}}'], f"answer to hello: a number has {LIMIT + 1} digits"),
        ([HELLO, f'{{"ok": true, "n": -{"1" * 5000}}}'], "answer to new_game: a number has 5000 digits"),
        ([HELLO, '{"ok": true}', f'{{"ok": true, "state": {{"clue_tokens": {"8" * 5000}}}}}'], "answer to state: a number has 5000 digits"),
    ],
)
@pytest.mark.checks("EP-numbers", "EP-failures")
def test_endless_numbers_in_answers_are_one_line_failures(tmp_path: Path, capsys: pytest.CaptureFixture[str], answers: list[str], fragment: str) -> None:
    """[EP-numbers, EP-failures] an integer of more than 4300 digits in an answer ends the
    run with exit 1 and one line naming the request, not a ValueError traceback."""
    code = _verify(tmp_path, scripted_engine(tmp_path, answers), "--timeout", "5")
    err = capsys.readouterr().err
    assert code == EXIT_INVALID_GAME and err.count("\n") == 1 and fragment in err and "Traceback" not in err, err


@pytest.mark.checks("EP-numbers")
def test_numbers_up_to_the_limit_are_read() -> None:
    """[EP-numbers] 4300 digits are a number (with or without a minus sign); 4301 are not."""
    assert parse_line(f'{{"x": -{"7" * LIMIT}}}') == {"x": -int("7" * LIMIT)}
    with pytest.raises(ValueError, match=f"{LIMIT + 1} digits"):
        parse_line(f'[{"7" * (LIMIT + 1)}]')


WRONG_TYPES = [
    ("terminal", "int", '0 is not of type "boolean"', "engine 0 (terminal: JSON type integer, T-state requires boolean)"),
    ("current", "float", '0.0 is not of type "integer"', "engine 0.0 (current: JSON type number, T-state requires integer)"),
    ("clue_tokens", "float", '8.0 is not of type "integer"', "engine 8.0 (clue_tokens: JSON type number, T-state requires integer)"),
    ("current", "bool", 'false is not of type "integer"', "engine false (current: JSON type boolean, T-state requires integer)"),
]
CONVERT = {"int": int, "float": float, "bool": bool}


@pytest.mark.parametrize(("field", "kind", "problem", "shown"), WRONG_TYPES)
def test_wrong_json_types_are_outside_the_protocol(tmp_path: Path, capsys: pytest.CaptureFixture[str], field: str, kind: str, problem: str, shown: str) -> None:
    """[EP-schemas, EP-types, EP-failures, T-state] our engine behind the protocol with one
    state field of the wrong JSON type (Python finds 0 == False and 1.0 == 1): the answer
    to the first state request breaks the schema, so verify exits 1 with one line naming
    the request, the field, the value and the schema keyword, and nothing of the engine
    is left running."""
    code = _verify(tmp_path, f"{PY} {ENGINES / 'wrong_types.py'} {field} {kind}", "--timeout", "30")
    err = capsys.readouterr().err
    assert code == EXIT_INVALID_GAME and err.count("\n") == 1 and "Traceback" not in err, err
    schema = f"trace.schema.json#/$defs/state/properties/{field}/type"
    assert f"answer to state is outside the protocol: at $.state.{field}: {problem} (schema {schema})" in err, err


class WrongType(ReferenceEngine):
    """Our engine inside Python with one state field of the wrong JSON type."""

    def __init__(self, field: str, kind: str) -> None:
        super().__init__()
        self.field, self.convert = field, CONVERT[kind]

    def state(self) -> dict[str, Any]:
        state = super().state()
        state[self.field] = self.convert(state[self.field])
        return state


@pytest.mark.parametrize(("field", "kind", "problem", "shown"), WRONG_TYPES)
@pytest.mark.checks("EP-types")
def test_wrong_json_types_of_an_engine_inside_python_diverge(field: str, kind: str, problem: str, shown: str) -> None:
    """[EP-types, EP-compare, T-state] the same wrong types from an engine inside Python (a
    peer adapter's state is not a protocol answer): a divergence naming the field and
    its JSON type, right after the deal (player 0 to move, 8 clue tokens: 2.16-1)."""
    config = make_config(2, preset="hle")
    divergence = play_compared(WrongType(field, kind), config, deck_from_seed(config, 0), RandomChooser(0))
    ours = {"terminal": "false", "current": "0", "clue_tokens": "8"}[field]
    assert divergence is not None and divergence.what == f"after the deal: state.{field}: reference {ours}, {shown}"


@pytest.mark.checks("EP-types")
def test_json_equal_compares_json_types_not_python_equality() -> None:
    """[EP-types] values Python's ``==`` confuses are different JSON values, at any depth;
    equal JSON values (tuples standing for arrays) are equal."""
    for ours, theirs in [(False, 0), (True, 1), (1, 1.0), (8, 8.0), (1, True), (None, False), ([1], [1.0]),
                         ({"suit": 0}, {"suit": False}), ([[{"value": 1}]], [[{"value": 1.0}]]), ([1], [1, 1])]:
        assert not json_equal(ours, theirs) and not json_equal(theirs, ours), (ours, theirs)
    for value in [0, False, None, "x", [1, [2, {"a": None}]], {"a": [True, 3]}]:
        assert json_equal(value, json.loads(json.dumps(value)))
    assert json_equal([1, 2], (1, 2))
    values: list[object] = [True, 1, 1.5, "s", None, [], {}]
    assert [json_type(v) for v in values] == ["boolean", "integer", "number", "string", "null", "array", "object"]


@pytest.mark.checks("EP-types", "EP-compare")
def test_state_difference_names_a_nested_type_difference() -> None:
    """[EP-types, EP-compare] a card value written as 1.0 deep in the hands is a
    divergence of ``hands`` that names the place of the wrong type."""
    config = make_config(2, preset="hle")
    engine = ReferenceEngine()
    engine.new_game(config, deck_from_seed(config, 3))
    ours = engine.state()
    theirs = json.loads(json.dumps(ours))
    theirs["hands"][1][2]["value"] = float(theirs["hands"][1][2]["value"])
    difference = state_difference(ours, theirs)
    assert difference is not None and difference.startswith("state.hands, seat 1: ")
    assert difference.endswith("(hands[1][2].value: JSON type number, T-state requires integer)")
    assert state_difference(ours, json.loads(json.dumps(ours))) is None


# ------------------------------------------------------------------ serve goes on


@pytest.mark.checks("EP-numbers", "EP-serve")
def test_serve_answers_an_endless_number_or_line_with_an_error_and_goes_on() -> None:
    """[EP-serve, EP-numbers] a request with a 5000-digit number and a line over 1 MiB
    each get an error answer; the requests after them are answered as usual."""
    requests = [
        '{"op": "hello", "protocol": "hanabi-ref/engine", "version": 1}',
        f'{{"op": "apply", "action": {{"type": "play", "slot": {"9" * 5000}}}}}',
        '{"op": "state", "pad": "' + "x" * MAX_LINE + '"}',
        '{"op": "quit"}',
    ]
    out = io.StringIO()
    serve(ReferenceEngine(), io.BytesIO(("\n".join(requests) + "\n").encode()), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [a["ok"] for a in answers] == [True, False, False, True]
    assert "5000 digits" in answers[1]["error"] and str(MAX_LINE) in answers[2]["error"]


def test_serve_process_survives_an_endless_number() -> None:
    """[EP-serve, EP-numbers, C-serve] the ``serve`` command itself: the bad request is
    answered, the next one too, and it exits 0 at the end of its input."""
    requests = f'{{"op": {"1" * 5000}}}\n{{"op": "hello", "protocol": "hanabi-ref/engine", "version": 1}}\n'
    run = run_process([PY, "-m", "hanabi_ref.cli", "serve"], input=requests, capture_output=True, text=True, timeout=120, cwd=ROOT)
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert [a["ok"] for a in answers] == [False, True]


@pytest.mark.checks("EP-serve")
def test_serve_process_answers_requests_our_json_rules_refuse() -> None:
    """[EP-serve, T-json, C-serve] a line that is not UTF-8, one that is not JSON, NaN,
    and a key given twice each get one error answer naming the problem; the server goes
    on and exits 0 at the end of its input."""
    hello = b'{"op": "hello", "protocol": "hanabi-ref/engine", "version": 1}\n'
    bad = [
        (b'{"op": "hel\xfflo"}\n', "not UTF-8"),
        (b'{"op": \n', "not JSON"),
        (b'{"op": "apply", "action": {"type": "play", "slot": NaN}}\n', "NaN is not a JSON number"),
        (b'{"op": "state", "op": "quit"}\n', 'the key "op" appears twice'),
    ]
    run = run_process(
        [PY, "-m", "hanabi_ref.cli", "serve"], input=b"".join(line for line, _ in bad) + hello,
        capture_output=True, timeout=120, cwd=ROOT,
    )
    answers = [json.loads(line) for line in run.stdout.decode().splitlines()]
    assert run.returncode == 0 and b"Traceback" not in run.stderr, run.stderr
    assert [a["ok"] for a in answers] == [False] * len(bad) + [True]
    for answer, (_, reason) in zip(answers, bad):
        assert reason in answer["error"], answer


# ------------------------------------------------------------------ --out


@pytest.mark.parametrize("where", ["missing/d.json", "is_a_file/d.json", "a_directory"])
@pytest.mark.checks("EP-out")
def test_unwritable_out_is_refused_before_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str], where: str) -> None:
    """[EP-out, C-exit] an ``--out`` whose directory is missing or is a file, or that is a
    directory: exit 2 with one line naming --out, and the engine is never started (an
    engine that cannot start would have been named instead)."""
    (tmp_path / "is_a_file").write_text("x")
    (tmp_path / "a_directory").mkdir()
    code = main(["verify", "--engine", "/nonexistent/engine", "--no-vectors", "--out", str(tmp_path / where)])
    err = capsys.readouterr().err
    assert code == EXIT_USAGE and err.count("\n") == 1 and err.startswith(f"hanabi-ref: --out {tmp_path / where}: "), err


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only directory")
@pytest.mark.checks("EP-out")
def test_out_in_a_read_only_directory_is_refused_before_the_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-out, C-exit] an ``--out`` in a directory we may not write to: exit 2."""
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        code = main(["verify", "--engine", "/nonexistent/engine", "--no-vectors", "--out", str(locked / "d.json")])
    finally:
        locked.chmod(0o700)
    assert code == EXIT_USAGE and "is not writable" in capsys.readouterr().err


class ReportsTerminalAsNumber(ReferenceEngine):
    """Reports ``terminal`` as 0 or 1: diverges right after the deal (EP-types)."""

    def state(self) -> dict[str, Any]:
        state = super().state()
        state["terminal"] = int(state["terminal"])
        return state


@pytest.mark.parametrize("as_json", [False, True])
@pytest.mark.checks("EP-out")
def test_divergence_is_printed_when_its_trace_cannot_be_written(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, as_json: bool
) -> None:
    """[EP-out, EP-shrink, C-verify] writing the reproduction fails after the check (here:
    the disk is full): the divergence is still printed on stdout, one line on stderr
    says the trace was not written, and the exit code is the divergence's, 1."""
    import hanabi_ref.formats.trace
    import hanabi_ref.tools.verify.session as verify_session

    def disk_full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(verify_session, "make_engine", lambda name: ReportsTerminalAsNumber())
    monkeypatch.setattr("hanabi_ref.tools.peers.peer_config", lambda name, players: make_config(players, preset="hle"), raising=False)
    monkeypatch.setattr(hanabi_ref.formats.trace, "save_trace", disk_full)
    out = tmp_path / "d.json"
    code = main(["verify", "--against", "openspiel", "--no-vectors", "--games", "3", "--players", "2", "--out", str(out)]
                + (["--json"] if as_json else []))
    captured = capsys.readouterr()
    assert code == EXIT_INVALID_GAME
    assert captured.err == f"hanabi-ref: --out {out}: cannot write the reproduction: No space left on device\n"
    if as_json:
        divergence = json.loads(captured.out)["divergence"]
        assert divergence["trace"] is None and divergence["what"].startswith("after the deal: state.terminal: ")
    else:
        assert "DIVERGENCE      random game: after the deal: state.terminal: reference false, engine 0" in captured.out
        assert "reproduction    not written" in captured.out
    assert not out.exists()
