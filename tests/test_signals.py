"""Ctrl-C, SIGTERM and SIGHUP to every long-running command [SV-signals, SIM-orphans,
EP-lifecycle].

Each command runs as a subprocess in a session of its own.  The signal is sent once the
run is under way, which the test sees rather than waits for: the command's handler for
SIGTERM is installed (``SigCgt`` in ``/proc/PID/status``), and with ``--jobs 2`` both
workers have used CPU time.  It goes to the main process alone, as ``kill PID`` sends it:
the command itself must end its workers.  Then: the exit code is 128 + the signal's
number, standard error is exactly the one line, no process of the command's session is
left, and ``--out`` was not written.  (``verify --engine`` is covered the same way in
tests/test_verify_hostile.py.)
"""

from __future__ import annotations

import signal
import subprocess
import time
import weakref
from pathlib import Path

import pytest

from hanabi_ref.base.signals import Stopped, signals_stop_run
from tests.processes import LINUX, Stat, catches, checkout_env, cli, session_members, started, stat, wait_until
from tests.oracles import oracle

pytestmark = pytest.mark.skipif(not LINUX, reason="reads processes through /proc")

LINES = {signal.SIGINT: "hanabi-ref: interrupted", signal.SIGTERM: "hanabi-ref: terminated",
         signal.SIGHUP: "hanabi-ref: hung up"}
SIGNALS = [signal.SIGINT, signal.SIGTERM, signal.SIGHUP]


def _workers(pid: int) -> list[tuple[int, Stat]]:
    """The children of ``pid`` (its pool workers), with what ``/proc`` says of them."""
    found = []
    for member in session_members(pid):
        info = stat(member)
        if info is not None and info.ppid == pid:
            found.append((member, info))
    return found


def _cpu_ticks(pid: int) -> int:
    text = Path(f"/proc/{pid}/stat").read_text() if Path(f"/proc/{pid}/stat").exists() else ")" + " 0" * 20
    fields = text.rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def _under_way(process: subprocess.Popen[str], jobs: int) -> bool:
    """In one process: the run has set its handler for SIGTERM (SV-signals: the run is
    under way); with workers: as many children as workers are at work (the workers start
    after the handlers)."""
    if process.poll() is not None:
        return True  # it ended: the assertions after say how
    if jobs == 1:
        return catches(process.pid, signal.SIGTERM)
    return sum(_cpu_ticks(pid) > 2 for pid, _ in _workers(process.pid)) >= jobs


def _stop_mid_run(argv: list[str], jobs: int, signum: signal.Signals, out: Path) -> None:
    """Run ``argv``, send ``signum`` once it is under way, and check how it ends."""
    with started(cli(*argv), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=checkout_env()) as process:
        assert wait_until(lambda: _under_way(process, jobs)), "the run never got under way (in one process: never set a handler for SIGTERM)"
        assert process.poll() is None, process.communicate()
        process.send_signal(signum)
        _, err = process.communicate(timeout=120)
        assert process.returncode == 128 + signum, err
        if signum == signal.SIGINT and argv[0] == "simulate":  # [SIM-interrupt] the line says where the games are
            assert err.startswith(LINES[signum] + "; ") and err.endswith("not kept: run with --out FILE to keep the "
                                                                         "finished games of a run (and --resume FILE to go on)\n")
            assert err.count("\n") == 1
        else:
            assert err == LINES[signum] + "\n"
        assert wait_until(lambda: not session_members(process.pid), 30), \
            [(pid, stat(pid)) for pid in session_members(process.pid)]
    assert not out.exists()


DEEP_SOLVE_CASES = {(2, signal.SIGHUP), (1, signal.SIGTERM)}
SOLVE_CASES = [pytest.param(jobs, signum, id=f"jobs{jobs}-{signum.name}",
                            marks=pytest.mark.deep if (jobs, signum) in DEEP_SOLVE_CASES else ())
               for jobs, signum in [(2, signum) for signum in SIGNALS] + [(1, signal.SIGTERM), (1, signal.SIGHUP)]]
"""By default each way a run stops, once: with workers, Ctrl-C (KeyboardInterrupt) and
SIGTERM (:class:`Stopped`); in one process, SIGHUP (:class:`Stopped`, the other line and
code).  The other two in the deep set."""


@pytest.mark.checks("SV-signals")
@pytest.mark.parametrize(("jobs", "signum"), SOLVE_CASES)
def test_a_signal_stops_solve_with_one_line_and_no_worker_left(jobs: int, signum: signal.Signals, tmp_path: Path) -> None:
    """[SV-signals] SIGINT, SIGTERM or SIGHUP to ``solve`` mid-run (with two workers, or
    in one process): exit 130, 143 or 129, the one line, no traceback, no "leaked
    semaphore" warning, no worker left, no ``--out`` file.  (Ctrl-C in one process:
    tests/test_solver.py.)"""
    out = tmp_path / "solve.json"
    _stop_mid_run(["solve", "--players", "2", "--games", "100000", "--jobs", str(jobs), "--out", str(out)],
                  jobs, signum, out)


SIMULATE_CASES = [signal.SIGINT, signal.SIGHUP]
"""SIGTERM to simulate: tests/test_sim_lifecycle.py."""

@pytest.mark.checks("SIM-orphans")
@pytest.mark.parametrize("signum", SIMULATE_CASES, ids=[s.name for s in SIMULATE_CASES])
def test_a_signal_stops_simulate_with_one_line_and_no_worker_left(signum: signal.Signals, tmp_path: Path) -> None:
    """[SIM-orphans] SIGINT or SIGHUP to ``simulate --jobs 2`` mid-run: its code, its one
    line, no worker left."""
    _stop_mid_run(["simulate", "--strategy", "simple", "--players", "3", "--games", "1000000", "--jobs", "2"],
                  2, signum, tmp_path / "none")


SWEEP_CASES = [pytest.param(signum, id=signum.name, marks=pytest.mark.deep if signum == signal.SIGHUP else ())
               for signum in SIGNALS]
"""Ctrl-C and SIGTERM by default (the two ways ``sweep`` stops); SIGHUP, which takes
SIGTERM's way with another line and code (checked above for ``solve`` and ``simulate``),
in the deep set."""


@pytest.mark.checks("SIM-orphans")
@pytest.mark.parametrize("signum", SWEEP_CASES)
def test_a_signal_stops_sweep_with_one_line_and_no_worker_left(signum: signal.Signals, tmp_path: Path) -> None:
    """[SIM-orphans] SIGINT, SIGTERM or SIGHUP to ``sweep --jobs 2`` mid-run: its code,
    its one line, no worker left, no ``--out`` file."""
    out = tmp_path / "sweep.csv"
    _stop_mid_run(["sweep", "--strategy", "thesis", "--players", "3", "--games", "200000", "--jobs", "2",
                   "--grid", "rho_h=2,3", "--format", "csv", "--out", str(out)], 2, signum, out)


@pytest.mark.checks("SV-signals")
def test_a_signal_ignored_at_the_start_stays_ignored(tmp_path: Path) -> None:
    """[SV-signals] ``solve`` started with SIGHUP ignored (as ``nohup`` starts it) does not
    take SIGHUP back: the kernel discards it (no handler of ours), and SIGTERM after it
    still stops the run (exit 143, not 129)."""
    out = tmp_path / "solve.json"
    argv = cli("solve", "--players", "2", "--games", "100000", "--jobs", "1", "--out", str(out))
    command = ["sh", "-c", "trap '' HUP; exec \"$@\"", "sh", *argv]
    with started(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=checkout_env()) as process:
        assert wait_until(lambda: process.poll() is not None or catches(process.pid, signal.SIGTERM))
        assert not catches(process.pid, signal.SIGHUP)
        process.send_signal(signal.SIGHUP)
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=120)
    assert process.returncode == 143 and err == LINES[signal.SIGTERM] + "\n"
    assert not out.exists()


RL_TRAIN_CASES = [pytest.param(signum, marks=() if signum == signal.SIGTERM else pytest.mark.deep, id=signum.name)
                  for signum in SIGNALS]
"""SIGTERM by default: it takes the stop that ``rl train`` handles itself (RL-train-cli);
SIGINT goes on to the command line's Ctrl-C, and SIGHUP differs from SIGTERM only in its
line and code, both checked above for ``solve``, ``simulate`` and ``sweep``, which share
hanabi_ref/base/signals.py with it.  SIGINT and SIGHUP in the deep set (each run imports
PyTorch)."""


@pytest.mark.checks("RL-train-cli")
@pytest.mark.parametrize("signum", RL_TRAIN_CASES)
def test_a_signal_stops_rl_train_with_one_line(signum: signal.Signals, tmp_path: Path) -> None:
    """[SV-signals, RL-train-cli] SIGINT, SIGTERM or SIGHUP to ``rl train`` while it plays
    its teacher's games: its code, its one line, nothing of it left running (SIGTERM by
    default, the others in the deep set)."""
    oracle("torch")
    _stop_mid_run(["rl", "train", "--agent", "recommendation", "--steps", "100000000", "--players", "4",
                   "--bc-games", "100000", "--out", str(tmp_path / "run")], 1, signum, tmp_path / "none")


class _Owner:
    """Something a weakref can watch."""


def _loop(turns: int) -> int:
    """Plain bytecodes, between which Python runs a pending signal's handler."""
    total = 0
    for turn in range(turns):
        total += turn
    return total


@pytest.mark.checks("SV-signals", "EP-lifecycle")
@pytest.mark.parametrize("signum", SIGNALS, ids=[s.name for s in SIGNALS])
def test_a_stop_raised_where_python_drops_it_is_raised_again(signum: signal.Signals, capsys: pytest.CaptureFixture[str]) -> None:
    """[SV-signals, EP-lifecycle] The signal arrives while a weakref's callback runs (as
    an import's module-lock callback does), where Python can only drop the exception its
    handler raises and print "Exception ignored": the run still stops, in the code that
    runs next, with the same kind of exception, and nothing is printed."""
    seen: list[int] = []

    def callback(_: object) -> None:
        signal.raise_signal(signum)  # the handler runs here, inside the callback
        seen.append(_loop(1000))

    expected = KeyboardInterrupt if signum == signal.SIGINT else Stopped
    with signals_stop_run():
        owner = _Owner()
        watch = weakref.ref(owner, callback)
        with pytest.raises(expected) as stopped:
            del owner  # the callback runs
            assert watch() is None
            for _ in range(1200):  # the stop ends a wait (not a clock: load only makes it later)
                time.sleep(0.1)
    assert seen == [], "the stop did not even interrupt the callback"
    assert not isinstance(stopped.value, Stopped) or stopped.value.signum == signum
    assert capsys.readouterr().err == ""
