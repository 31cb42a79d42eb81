"""What bots, isolated seats and engines leave behind is ended with the run, and a child
that closes its output is reported as such [ISO-reap, EP-lifecycle, ISO-failures,
EP-failures].

The hostile processes here start, as they start up, four processes that escape their
process group (so that ending the group misses them) and write their ids to a file:
``setsid sleep 300``; a double-forked ``sleep 300`` in a session of its own; one in a
session of its own that ignores SIGTERM and SIGHUP (only SIGKILL ends it); and a
double-forked one that stays in the bot's session but leads a group of its own.  After the
command ends, none of them may be alive.  Whatever happens, the test kills them.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from hanabi_ref.cli import EXIT_INVALID_GAME, main
from hanabi_ref.tools.isolation.client import BotProcess, SeatFailure
from hanabi_ref.tools.pipes import orphans_adopted
from tests.processes import LINUX, PY, catches, checkout_env, cli, is_alive, run_process, started, stat, wait_until, WAIT

pytestmark = pytest.mark.skipif(not LINUX, reason="reads processes through /proc (the subreaper is Linux's)")

ESCAPES = '''
import os, subprocess, sys

def escape(pids):
    """Start four processes that leave this one's process group; append their ids to pids."""
    found = [subprocess.Popen(["setsid", "sleep", "300"]).pid]
    found.append(_double_fork(lambda: os.setsid(), ["sleep", "300"]))
    found.append(_double_fork(lambda: os.setsid(), ["sh", "-c", "trap '' TERM HUP; exec sleep 300"]))
    found.append(_double_fork(lambda: os.setpgid(0, 0), ["sleep", "300"]))
    with open(pids, "a", encoding="ascii") as file:
        file.write("".join(f"{pid}\\n" for pid in found))

def _double_fork(leave, argv):
    read, write = os.pipe()
    middle = os.fork()
    if middle == 0:
        if os.fork() == 0:
            leave()
            os.write(write, f"{os.getpid()}\\n".encode())
            os.execvp(argv[0], argv)
        os._exit(0)
    os.waitpid(middle, 0)
    return int(os.read(read, 64).decode().strip())
'''

BOT = ESCAPES + '''
escape(sys.argv[1])
from hanabi_ref.tools.isolation.seat import serve
from hanabi_ref.players.strategies import factory_for
sys.exit(serve(factory_for("simple"), "escaper"))
'''

ENGINE = ESCAPES + '''
escape(sys.argv[1])
os.execv(sys.executable, [sys.executable, "-m", "hanabi_ref.cli", "serve"])
'''

SEAT_SITE = ESCAPES + '''
if "hanabi_ref.tools.isolation.seat" in sys.orig_argv:
    escape(os.environ["ESCAPED_PIDS"])
'''


@pytest.fixture
def pids(tmp_path: Path) -> Iterator[Path]:
    """The file the escaping processes write their ids to; on the way out, every one of
    them still alive is killed."""
    path = tmp_path / "pids.txt"
    try:
        yield path
    finally:
        for pid in _escaped(path):
            if is_alive(pid):
                os.kill(pid, signal.SIGKILL)


def _escaped(path: Path) -> list[int]:
    return [int(pid) for pid in path.read_text().split()] if path.exists() else []


def _parent(pid: int) -> int | None:
    found = stat(pid)
    return None if found is None else found.ppid


def _script(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _assert_all_gone(pids: Path, processes: int) -> None:
    """Every one of the four escapes of each of ``processes`` hostile processes is gone
    (a zombie counts as gone: whoever holds it now may be slow to reap it)."""
    escaped = _escaped(pids)
    assert len(escaped) >= 4 * processes, escaped
    alive = [(pid, stat(pid)) for pid in escaped if is_alive(pid)]
    assert not alive, f"left running: {alive}"


@pytest.mark.checks("ISO-reap")
@pytest.mark.parametrize("jobs", [1, 2])
def test_what_bots_leave_behind_is_ended_with_the_run(jobs: int, tmp_path: Path, pids: Path) -> None:
    """[ISO-reap] ``simulate --bot`` whose bot leaves four processes outside its group,
    played in the main process or by two workers: the run succeeds, and when it has
    ended none of them is alive (before ISO-reap, three ``sleep 300`` outlived an exit 0)."""
    bot = _script(tmp_path, "bot.py", BOT)
    done = run_process(cli("simulate", "--bot", f"{PY} {bot} {pids}", "--players", "2", "--games", "4", "--jobs", str(jobs),
                   "--json"), capture_output=True, text=True, timeout=WAIT, env=checkout_env())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games_completed"] == 4
    _assert_all_gone(pids, 2)  # at least the hello check's bot and one per seat


@pytest.mark.checks("ISO-reap", "SIM-orphans")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_what_bots_leave_behind_is_ended_when_the_run_is_stopped(signum: signal.Signals, tmp_path: Path,
                                                                 pids: Path) -> None:
    """[ISO-reap, SIM-orphans] SIGTERM or Ctrl-C to ``simulate --bot --jobs 2`` once its
    bots play (their escapes written, the run's handler set): the run stops with its code,
    and nothing any bot left outside its group is alive after (the workers are killed, so
    their bots are adopted and ended by the main process)."""
    bot = _script(tmp_path, "bot.py", BOT)
    argv = cli("simulate", "--bot", f"{PY} {bot} {pids}", "--players", "2", "--games", "100000", "--jobs", "2")
    with started(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=checkout_env()) as process:
        assert wait_until(lambda: process.poll() is not None or (
            len(_escaped(pids)) >= 12 and catches(process.pid, signal.SIGTERM))), "the bots never started"
        process.send_signal(signum)
        _, err = process.communicate(timeout=120)
    assert process.returncode == 128 + signum, err
    _assert_all_gone(pids, 3)


@pytest.mark.checks("ISO-reap")
def test_what_isolated_seats_leave_behind_is_ended_with_the_run(tmp_path: Path, pids: Path) -> None:
    """[ISO-reap] ``simulate --isolate`` whose seat processes (made hostile by a
    ``sitecustomize`` on their path) leave four processes each: none outlives the run."""
    site = tmp_path / "site"
    site.mkdir()
    _script(site, "sitecustomize.py", SEAT_SITE)
    env = checkout_env(ESCAPED_PIDS=str(pids))
    env["PYTHONPATH"] = os.pathsep.join([str(site), env["PYTHONPATH"]])
    done = run_process(cli("simulate", "--strategy", "simple", "--isolate", "--players", "2", "--games", "4", "--jobs", "2"),
               capture_output=True, text=True, timeout=WAIT, env=env)
    assert done.returncode == 0, done.stderr
    _assert_all_gone(pids, 2)


@pytest.mark.checks("ISO-reap", "EP-lifecycle")
def test_what_an_engine_leaves_behind_is_ended_with_verify(tmp_path: Path, pids: Path) -> None:
    """[ISO-reap, EP-lifecycle] ``verify --engine`` with an engine (our own ``serve``)
    that leaves four processes outside its group: verify agrees, and none of them is
    alive after it."""
    engine = _script(tmp_path, "engine.py", ENGINE)
    done = run_process(cli("verify", "--engine", f"{PY} {engine} {pids}", "--no-vectors", "--games", "1", "--rules", "hle",
                   "--players", "2", "--out", str(tmp_path / "d.json")), capture_output=True, text=True, timeout=WAIT,
               env=checkout_env())
    assert done.returncode == 0, done.stdout + done.stderr
    _assert_all_gone(pids, 1)


@pytest.mark.checks("ISO-reap")
def test_play_with_a_bot_ends_what_it_leaves_behind(tmp_path: Path, pids: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[ISO-reap] ``play --bot`` in this very process: when the game is over, what the
    bots left is gone, reaped by this process (which adopted it)."""
    bot = _script(tmp_path, "bot.py", BOT)
    assert main(["play", "--bot", f"{PY} {bot} {pids}", "--players", "2", "--seed", "3"]) == 0
    capsys.readouterr()
    _assert_all_gone(pids, 2)
    assert [pid for pid in _escaped(pids) if stat(pid) is not None] == []  # reaped, not even zombies


@pytest.mark.checks("ISO-reap")
def test_children_that_were_there_before_are_left_alone(tmp_path: Path, pids: Path) -> None:
    """[ISO-reap] only what was adopted during the run is ended: a process this process
    started before, in a session of its own, is still running after a bot came and went,
    although a process it orphaned meanwhile (adopted, in its process group) was ended."""
    bot = _script(tmp_path, "bot.py", BOT)
    go, orphan = tmp_path / "go", tmp_path / "orphan.txt"
    script = f"while [ ! -e {go} ]; do sleep 0.05; done; (sleep 300 & echo $! > {orphan}); exec sleep 300"
    with started(["sh", "-c", script]) as bystander:
        seat = BotProcess([PY, str(bot), str(pids)], 0)
        try:
            go.touch()
            assert wait_until(lambda: orphan.exists() and orphan.read_text().strip() != "")
            with pids.open("a", encoding="ascii") as file:  # killed by the fixture, whatever happens
                file.write(orphan.read_text())
            assert wait_until(lambda: _parent(int(orphan.read_text())) == os.getpid())  # adopted
            seat.collect()
        finally:
            seat.close()
        assert not is_alive(int(orphan.read_text()))
        _assert_all_gone(pids, 1)
        assert is_alive(bystander.pid) and bystander.poll() is None


@pytest.mark.checks("ISO-reap")
def test_adoption_nests_and_ends_at_the_outermost(tmp_path: Path, pids: Path) -> None:
    """[ISO-reap] inside a run (``orphans_adopted``), a bot that ends does not end what is
    adopted yet: the run's end does."""
    bot = _script(tmp_path, "bot.py", BOT)
    with orphans_adopted():
        seat = BotProcess([PY, str(bot), str(pids)], 0)
        try:
            seat.collect()
        finally:
            seat.close()
        escaped = _escaped(pids)
        assert wait_until(lambda: all(_parent(pid) == os.getpid() for pid in escaped), 30)
        assert all(is_alive(pid) for pid in escaped)
    _assert_all_gone(pids, 1)


# ------------------------------------------------------------------ a child that closes its output

CLOSER = '''
import os, sys, time
sys.stdin.readline()
print('{"ok": true, "name": "closer"}', flush=True)
sys.stdin.readline()
os.close(1)
time.sleep(300)
'''


@pytest.mark.checks("ISO-failures")
def test_a_bot_that_closes_its_output_is_not_reported_by_our_signal(tmp_path: Path) -> None:
    """[ISO-failures] a bot that closes its output and sleeps: it "closed its output" and
    was stopped; the exit code our own SIGTERM gave it (-15) is not reported as its own."""
    closer = _script(tmp_path, "closer.py", CLOSER)
    seat = BotProcess([PY, str(closer)], 0, timeout=1.0)
    try:
        seat.collect()
        with pytest.raises(SeatFailure) as failure:
            seat.request({"op": "new_game"}, 0)
    finally:
        seat.close()
    message = str(failure.value)
    assert message == "seat 0 (closer), turn 0: closed its output while answering new_game (stopped)", message
    assert "code" not in message


@pytest.mark.checks("EP-failures")
def test_an_engine_that_closes_its_output_is_not_reported_by_our_signal(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-failures] the same for ``verify --engine``: one line, exit 1, "closed its output",
    no exit code of our making."""
    closer = _script(tmp_path, "closer.py", CLOSER)
    code = main(["verify", "--engine", f"{PY} {closer}", "--no-vectors", "--games", "1", "--rules", "hle",
                 "--players", "2", "--timeout", "1", "--out", str(tmp_path / "d.json")])
    err = capsys.readouterr().err
    assert code == EXIT_INVALID_GAME
    assert err.strip().endswith("closer: closed its output while answering new_game (stopped)"), err
    assert "code" not in err and err.count("\n") == 1


@pytest.mark.checks("ISO-failures")
def test_a_child_killed_by_another_signal_is_named_by_it(tmp_path: Path) -> None:
    """[ISO-failures] a bot that kills itself with SIGSEGV while answering: "was killed by
    SIGSEGV", not a number."""
    crasher = _script(tmp_path, "crasher.py", CLOSER.replace("os.close(1)\ntime.sleep(300)",
                                                             "os.kill(os.getpid(), 11)"))
    seat = BotProcess([PY, str(crasher)], 0, timeout=30.0)
    try:
        seat.collect()
        with pytest.raises(SeatFailure, match=r"^seat 0 \(closer\), turn 0: was killed by SIGSEGV while answering new_game$"):
            seat.request({"op": "new_game"}, 0)
    finally:
        seat.close()

