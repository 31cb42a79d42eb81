"""Worker lifecycles and resumable runs [SIM-orphans, SIM-stall, SIM-dask-lost, SIM-out,
SIM-resume].

The orphan and stall tests run ``hanabi-ref simulate`` as a subprocess, find its pool
workers as the processes whose parent it is (read from ``/proc``, recorded before any
signal is sent), and watch what becomes of them.  The resume tests compare a run that was
interrupted and resumed with the same run never interrupted, and with the scores of the
seeds played one by one with ``play_game`` (the oracle of tests/test_sim_runner.py).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref.players import strategies
from hanabi_ref.engine.actions import Action
from hanabi_ref.cli import EXIT_USAGE, main
from hanabi_ref.engine.configs import make_config
from hanabi_ref.tools.sim.chunks import GameSetup, split_games
from hanabi_ref.tools.sim.executors import LocalExecutor, StallError
from hanabi_ref.players.strategies import STRATEGIES, StrategySpec
from hanabi_ref.players.strategies.simple import SimpleStrategy
from hanabi_ref.engine.view import PlayerView
from tests.processes import end_session, run_process
from tests.processes import started as process_started
from tests.test_sim_runner import EXIT_FAILED, assert_statistics, direct, failing_spec, register, without_timing
from tests.oracles import oracle

EXIT_STOPPED = 3
EXIT_TERMINATED = 143
EXIT_INTERRUPTED = 130
LINUX = sys.platform.startswith("linux") and Path("/proc/self/stat").exists()
needs_proc = pytest.mark.skipif(not LINUX, reason="finds worker processes through /proc")
GONE_WITHIN = 5.0
"""Seconds the workers get to go once their parent is gone."""


# ------------------------------------------------------------------ processes through /proc


def process_state(pid: int) -> str | None:
    """The state letter of process ``pid`` (``R``, ``S``, ``T``, ``Z``...), None if gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2:].split()[0]


def cpu_ticks(pid: int) -> int:
    """User plus system CPU time of ``pid`` in clock ticks (0 when it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return int(fields[11]) + int(fields[12])


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2:].split()[1]) == pid:
            found.append(int(entry.name))
    return found


def is_alive(pid: int) -> bool:
    """Running or stopped; a zombie is dead (whoever inherits it may be slow to reap it)."""
    return process_state(pid) not in (None, "Z")


def wait_for(condition: Callable[[], bool], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def simulate_command(*options: str) -> list[str]:
    return [sys.executable, "-m", "hanabi_ref.cli", "simulate", "--strategy", "simple", "--players", "3", *options]


class Run:
    """A ``simulate`` subprocess and the pool workers seen so far."""

    def __init__(self, argv: list[str], cwd: Path) -> None:
        self.process = subprocess.Popen(argv, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                        start_new_session=True)
        self.workers: list[int] = []

    def busy_workers(self, count: int) -> list[int]:
        """The ``count`` pool workers, once each has used CPU time (is playing)."""
        def ready() -> bool:
            self.workers = children(self.process.pid)
            return len(self.workers) == count and all(cpu_ticks(pid) > 2 for pid in self.workers)

        assert wait_for(ready, 30.0), "the pool workers did not start"
        return self.workers

    def stderr(self) -> str:
        return self.process.stderr.read() if self.process.stderr is not None else ""


@contextmanager
def started(argv: list[str], cwd: Path) -> Iterator[Run]:
    """``argv`` running in a session of its own; on the way out it, every worker seen and
    the rest of its session are killed if still there."""
    run = Run(argv, cwd)
    try:
        yield run
    finally:
        for pid in [*run.workers, run.process.pid]:
            if is_alive(pid):
                os.kill(pid, signal.SIGKILL)
        end_session(run.process.pid)
        run.process.communicate(timeout=120)


# ------------------------------------------------------------------ [SIM-orphans]


@pytest.mark.checks("SIM-orphans")
@needs_proc
@pytest.mark.parametrize("sent", [signal.SIGKILL, signal.SIGTERM])
def test_workers_die_with_the_main_process(sent: signal.Signals, tmp_path: Path) -> None:
    """[SIM-orphans] SIGKILL or SIGTERM to ``simulate --jobs 2`` mid-run: both workers are
    gone within a few seconds (SIGTERM: exit 143 and one line)."""
    with started(simulate_command("--games", "100000", "--jobs", "2"), tmp_path) as run:
        workers = run.busy_workers(2)
        os.kill(run.process.pid, sent)
        assert run.process.wait(timeout=GONE_WITHIN) == (-signal.SIGKILL if sent == signal.SIGKILL else EXIT_TERMINATED)
        assert wait_for(lambda: not any(is_alive(pid) for pid in workers), GONE_WITHIN), \
            [(pid, process_state(pid)) for pid in workers]
        err = run.stderr()
    if sent == signal.SIGTERM:
        assert err == "hanabi-ref: terminated\n"


WATCHDOG_SCRIPT = textwrap.dedent("""
    import os, sys, time
    from hanabi_ref.tools.sim.executors import die_with_parent
    middle = os.fork()
    if middle == 0:
        worker = os.fork()
        if worker == 0:
            quiet = os.open(os.devnull, os.O_WRONLY)
            os.dup2(quiet, 1)
            os.dup2(quiet, 2)
            die_with_parent(os.getppid(), 0.05)
            time.sleep(60)
            os._exit(0)
        print(worker, flush=True)
        time.sleep(0.5)
        os._exit(0)
    os.waitpid(middle, 0)
""")


@pytest.mark.checks("SIM-orphans")
@needs_proc
def test_watchdog_ends_a_worker_whose_parent_died() -> None:
    """[SIM-orphans] ``die_with_parent`` in a process whose parent then exits: the process
    is gone within a few seconds (by the kernel's signal on Linux, else its watchdog)."""
    result = run_process([sys.executable, "-c", WATCHDOG_SCRIPT], capture_output=True, text=True, timeout=120)
    worker = int(result.stdout.split()[0])
    assert wait_for(lambda: not is_alive(worker), GONE_WITHIN), process_state(worker)


@pytest.mark.checks("SIM-orphans")
@needs_proc
def test_watchdog_thread_alone_ends_an_orphan() -> None:
    """[SIM-orphans] the portable path: with the kernel's signal switched off, the watchdog
    thread still ends a process whose parent is gone."""
    script = WATCHDOG_SCRIPT.replace(
        "from hanabi_ref.tools.sim.executors import die_with_parent",
        "from hanabi_ref.tools.sim import executors\n"
        "executors._set_parent_death_signal = lambda: None\n"
        "die_with_parent = executors.die_with_parent")
    result = run_process([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    worker = int(result.stdout.split()[0])
    assert wait_for(lambda: not is_alive(worker), GONE_WITHIN), process_state(worker)


# ------------------------------------------------------------------ [SIM-stall]


@pytest.mark.checks("SIM-stall")
@needs_proc
def test_a_stopped_worker_is_reported_as_a_stall(tmp_path: Path) -> None:
    """[SIM-stall] one worker stopped with SIGSTOP: within the stall time (2 s here) after
    the last chunk finished the run ends with exit 3 and one line, and the stopped worker
    is killed."""
    out = tmp_path / "run.json"
    argv = simulate_command("--games", "1600", "--jobs", "2", "--chunk-size", "800", "--stall-timeout", "2",
                            "--out", str(out))
    with started(argv, tmp_path) as run:
        workers = run.busy_workers(2)
        os.kill(workers[0], signal.SIGSTOP)
        code = run.process.wait(timeout=60)
        err = run.stderr()
        assert wait_for(lambda: not any(is_alive(pid) for pid in workers), GONE_WITHIN)
    assert code == EXIT_STOPPED, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith("hanabi-ref: no chunk finished in 2 s")
    assert f"kept in {out} (go on with --resume {out})" in err
    document = json.loads(out.read_text())
    assert document["checkpoint"] == "hanabi-ref simulate checkpoint"
    assert len(document["chunks"]) <= 1  # the stopped worker's chunk never finished


class Sleeper(SimpleStrategy):
    """The simple strategy that hangs (sleeps far beyond the test) on its first move."""

    def act(self, view: PlayerView) -> Action:
        time.sleep(60)
        return super().act(view)


@pytest.mark.checks("SIM-stall")
def test_a_hung_pool_raises_stall_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """[SIM-stall] a local pool whose games hang raises StallError after the stall time and
    its workers are killed (the test returns long before the games would)."""
    register(monkeypatch, StrategySpec("sleeper", "test only", (), lambda values: Sleeper))
    setup = GameSetup.of(2, "thesis", "no-variant", None, "sleeper", {})
    start = time.monotonic()
    with pytest.raises(StallError, match="no chunk finished in 0.5 s"):
        list(LocalExecutor(2, stall_seconds=0.5).run(list(split_games(setup, 0, 4, 2))))
    assert time.monotonic() - start < 30


@pytest.mark.checks("SIM-stall")
@pytest.mark.parametrize("command", ["simulate", "sweep"])
def test_both_run_commands_take_the_stall_timeout(command: str) -> None:
    """[SIM-stall] ``--stall-timeout`` is an option of simulate and of sweep alike, and
    reaches the executor; without it the executor waits the default."""
    from hanabi_ref.cli import build_parser
    from hanabi_ref.tools.sim.simulate import open_executor
    from hanabi_ref.tools.sim.executors import STALL_SECONDS

    argv = [command, "--strategy", "thesis", "--players", "2", "--games", "4", "--jobs", "1"]
    if command == "sweep":
        argv += ["--grid", "volume=0,1"]
    for extra, seconds in (([], STALL_SECONDS), (["--stall-timeout", "7.5"], 7.5)):
        executor = open_executor(build_parser().parse_args(argv + extra))
        try:
            assert isinstance(executor, LocalExecutor) and executor.stall_seconds == seconds
        finally:
            executor.close()


# ------------------------------------------------------------------ [SIM-out, SIM-resume]


def run_main(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


SIMULATE = ["simulate", "--strategy", "simple", "--players", "3", "--seed", "7", "--json"]


class InterruptAt(SimpleStrategy):
    """The simple strategy, except that the game with seed ``stop_seed`` raises
    KeyboardInterrupt in its first move (Ctrl-C in the middle of a run)."""

    stop_seed = -1

    def __init__(self, config: Any, seat: int, seed: int) -> None:
        super().__init__(config, seat, seed)
        self.stop = seat == 0 and seed == strategies_seed(self.stop_seed)

    def act(self, view: PlayerView) -> Action:
        if self.stop:
            raise KeyboardInterrupt
        return super().act(view)


def strategies_seed(game_seed: int) -> int:
    from hanabi_ref.engine.dealing import derive_seed

    return derive_seed(game_seed, 1)


@pytest.mark.checks("SIM-out", "SIM-resume")
def test_interrupted_run_resumes_to_the_same_result(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-out, SIM-resume] Ctrl-C at seed 17 of seeds 7..26 (chunks of 4, one process):
    exit 130, the checkpoint holds the two whole chunks before it (seeds 7..14), and
    ``--resume`` ends with the JSON of the run never interrupted, which is also written to
    the file; its statistics are those of the seeds played one by one."""
    out = tmp_path / "run.json"
    monkeypatch.setattr(InterruptAt, "stop_seed", 17)
    register(monkeypatch, StrategySpec("interrupt", "test only", (), lambda values: InterruptAt))
    argv = ["--games", "20", "--jobs", "1", "--chunk-size", "4", "--checkpoint-every", "3600"]
    code, _, err = run_main(["simulate", "--strategy", "interrupt", "--players", "3", "--seed", "7", *argv,
                             "--out", str(out)], capsys)
    assert code == EXIT_INTERRUPTED
    assert err == f"hanabi-ref: interrupted; 8 of 20 games finished, kept in {out} (go on with --resume {out})\n"
    checkpoint = json.loads(out.read_text())
    assert [(chunk["first_seed"], chunk["games"]) for chunk in checkpoint["chunks"]] == [(7, 4), (11, 4)]
    assert checkpoint["run"]["strategy"] == "interrupt"
    monkeypatch.setattr(InterruptAt, "stop_seed", -1)  # nothing interrupts the rest
    code, resumed, err = run_main(["simulate", "--strategy", "interrupt", "--players", "3", "--seed", "7",
                                   "--json", *argv, "--resume", str(out)], capsys)
    assert code == 0, err
    code, whole, err = run_main(["simulate", "--strategy", "interrupt", "--players", "3", "--seed", "7",
                                 "--json", "--games", "20", "--jobs", "1"], capsys)
    assert code == 0, err
    assert without_timing(json.loads(resumed)) == without_timing(json.loads(whole))
    assert without_timing(json.loads(out.read_text())) == without_timing(json.loads(whole))
    assert_statistics(json.loads(resumed), *direct(make_config(3), STRATEGIES["simple"], range(7, 27)))


@pytest.mark.checks("SIM-interrupt")
def test_an_interrupted_run_without_out_says_how_to_keep_its_games(monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-interrupt] Ctrl-C at seed 17 of seeds 7..26 without --out: the two chunks that
    finished are named as lost, with the options that keep them; exit 130."""
    monkeypatch.setattr(InterruptAt, "stop_seed", 17)
    register(monkeypatch, StrategySpec("interrupt", "test only", (), lambda values: InterruptAt))
    code, out, err = run_main(["simulate", "--strategy", "interrupt", "--players", "3", "--seed", "7", "--games", "20",
                               "--jobs", "1", "--chunk-size", "4"], capsys)
    assert code == EXIT_INTERRUPTED and out == ""
    assert err == ("hanabi-ref: interrupted; 8 of 20 games finished, not kept: run with --out FILE to keep the "
                   "finished games of a run (and --resume FILE to go on)\n")


@pytest.mark.checks("SIM-out", "SIM-resume", "SIM-orphans")
@needs_proc
def test_killed_run_resumes_to_the_same_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-out, SIM-resume, SIM-orphans] ``simulate --jobs 2 --out F --checkpoint-every 0``
    killed with SIGKILL once F holds some chunks but not all; ``--resume F`` (with other
    jobs and chunk size) gives the JSON and trace hash of the uninterrupted run."""
    out = tmp_path / "run.json"
    games = ["--games", "120", "--seed", "7"]
    # niced, so that however busy the machine, this test sees the first chunks before the
    # run can end: the run is then killed mid-way, with 3 to 59 of its 60 chunks written
    with started(["nice", "-n", "19", *simulate_command(*games, "--jobs", "2", "--chunk-size", "2",
                                                         "--checkpoint-every", "0", "--out", str(out))],
                 tmp_path) as run:
        assert wait_for(lambda: chunks_in(out) >= 3, 60), "no checkpoint appeared"
        run.workers = children(run.process.pid)
        os.kill(run.process.pid, signal.SIGKILL)
        run.process.wait(timeout=10)
    written = chunks_in(out)
    assert 3 <= written < 60, written
    code, resumed, err = run_main([*SIMULATE[:-1], *games, "--json", "--jobs", "2", "--chunk-size", "3",
                                   "--resume", str(out)], capsys)
    assert code == 0, err
    code, whole, err = run_main([*SIMULATE[:-1], *games, "--json", "--jobs", "1"], capsys)
    assert code == 0, err
    assert without_timing(json.loads(resumed)) == without_timing(json.loads(whole))
    assert json.loads(resumed)["trace_sha256"] == json.loads(whole)["trace_sha256"]


def chunks_in(path: Path) -> int:
    """Chunks in the checkpoint at ``path`` (0 while there is none: written atomically, it
    is whole whenever it is there)."""
    try:
        document = json.loads(path.read_text())
    except (OSError, ValueError):
        return 0
    return len(document.get("chunks", []))


@pytest.mark.checks("SIM-resume", "SIM-crash")
def test_failed_games_are_kept_and_reported_after_resume(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-resume, SIM-crash] a game that failed before the interruption stays failed, by
    seed, after the resume (the failure comes from the checkpoint, not from replaying)."""
    register(monkeypatch, failing_spec("flaky", illegal_on=(3,)))
    out = tmp_path / "run.json"
    argv = ["simulate", "--strategy", "flaky", "--players", "2", "--games", "10", "--jobs", "1", "--chunk-size", "5",
            "--json"]
    code, whole, _ = run_main(argv + ["--out", str(out)], capsys)
    assert code == EXIT_FAILED
    # the checkpoint of the first chunk only, as a run stopped after it would have left it
    first = render_first_chunk(argv, tmp_path, capsys)
    register(monkeypatch, failing_spec("flaky", illegal_on=()))  # replaying seed 3 now would not fail
    code, resumed, err = run_main(argv + ["--resume", str(first)], capsys)
    assert code == EXIT_FAILED and "seed 3" in err
    assert without_timing(json.loads(resumed)) == without_timing(json.loads(whole))


def render_first_chunk(argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A checkpoint holding the first chunk (seeds 0..4) of the run ``argv``, made by the
    run itself with ``--checkpoint-every 0`` and cut after its first chunk (the first
    checkpoint, written before any game, holds none: SIM-out-early)."""
    full = tmp_path / "full.json"
    import hanabi_ref.tools.sim.checkpoint as checkpoint

    written: list[str] = []
    original = checkpoint.render_checkpoint

    def keep(run: Any, chunks: Any, seals: Any = None) -> str:
        text = original(run, chunks, seals)
        written.append(text)
        return text

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(checkpoint, "render_checkpoint", keep)
        run_main(argv + ["--out", str(full), "--checkpoint-every", "0"], capsys)
    assert json.loads(written[0])["chunks"] == []
    first = tmp_path / "first.json"
    first.write_text(written[1])
    assert [chunk["first_seed"] for chunk in json.loads(written[1])["chunks"]] == [0]
    return first


@pytest.mark.checks("SIM-resume", "SIM-errors")
@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (["--players", "4"], "made by a run with players 3, this one has 4"),
        (["--seed", "8"], "made by a run with seed 7, this one has 8"),
        (["--games", "13"], "made by a run with games 12, this one has 13"),
        (["--rules", "hle"], "made by a run with rules \"thesis\", this one has \"hle\""),
        (["--strategy", "random"], "made by a run with strategy \"simple\", this one has \"random\""),
        (["--variant", "6-suits"], "variant"),
    ],
)
def test_resume_from_another_run_is_refused(change: list[str], fragment: str, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-resume, SIM-errors] a checkpoint of other settings: one line naming the first
    difference, exit 2, and the file is left as it was."""
    out = tmp_path / "run.json"
    base = {"--strategy": "simple", "--players": "3", "--seed": "7", "--games": "12"}
    checkpoint = checkpoint_of(base, out)
    options = {**base, **dict(zip(change[::2], change[1::2]))}
    code, stdout, err = run_main(["simulate", *[item for pair in options.items() for item in pair], "--jobs", "1",
                                  "--resume", str(out)], capsys)
    assert code == EXIT_USAGE and stdout == "" and err.count("\n") == 1, err
    assert err.startswith(f"hanabi-ref: --resume {out}: ") and fragment in err
    assert out.read_text() == checkpoint


@pytest.mark.checks("SIM-resume", "SIM-param")
def test_resume_with_other_parameters_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-resume, SIM-param] a strategy parameter that differs is named with both values."""
    from tests.test_sim_runner import MIX

    register(monkeypatch, MIX)
    out = tmp_path / "run.json"
    checkpoint_of({"--strategy": "mix", "--players": "3", "--seed": "0", "--games": "4"}, out)
    code, _, err = run_main(["simulate", "--strategy", "mix", "--players", "3", "--games", "4", "--jobs", "1",
                             "--param", "random_seats=1", "--resume", str(out)], capsys)
    assert code == EXIT_USAGE
    assert "made by a run with parameter random_seats=0, this one has random_seats=1" in err


def checkpoint_of(options: dict[str, str], out: Path) -> str:
    """The text of a checkpoint of the run ``options`` holding its first chunk, made by
    ``hanabi_ref.tools.sim.checkpoint`` from a run of that chunk."""
    from hanabi_ref.tools.sim.checkpoint import render_checkpoint
    from hanabi_ref.tools.sim.chunks import play_chunk
    from hanabi_ref.tools.sim.simulate import run_identity

    spec = strategies.strategy_spec(options["--strategy"])
    params = spec.resolve({})
    config = make_config(int(options["--players"]))
    args = type("Args", (), {"seed": int(options["--seed"]), "games": int(options["--games"])})()
    identity = run_identity(args, spec.name, params, config)
    setup = GameSetup.of(config.players, "thesis", "no-variant", None, spec.name, params)
    chunk = next(split_games(setup, int(options["--seed"]), 2, 2))
    text = render_checkpoint(identity, [(chunk, play_chunk(chunk))])
    out.write_text(text)
    return text


@pytest.mark.checks("SIM-resume")
@pytest.mark.parametrize(
    ("tamper", "fragment"),
    [
        (lambda d: d.update(version=1), "version: expected 2, got 1"),  # made before chunks were sealed
        (lambda d: d["chunks"][0].update(scores=[1, 99]), "chunks[0].scores[1]: 99 is above the highest score 25"),
        (lambda d: d["chunks"][0].update(digests="ab"), "chunks[0].digests: expected 64 hexadecimal digits per game"),
        (lambda d: d["chunks"][0].update(games=3), "do not make its 3 games"),
        (lambda d: d["chunks"].append(dict(d["chunks"][0])), "overlaps"),
        (lambda d: d["chunks"][0].update(strikeouts=[0, 1]), "chunks[0].strikeouts[0]: expected true or false"),
        (lambda d: d.pop("checkpoint"), "not a simulate checkpoint"),
    ],
)
def test_malformed_checkpoint_is_refused(tamper: Callable[[dict[str, Any]], None], fragment: str, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-resume] a checkpoint that was tampered with: one line naming the place, exit 1."""
    out = tmp_path / "run.json"
    document = json.loads(checkpoint_of({"--strategy": "simple", "--players": "3", "--seed": "7", "--games": "12"}, out))
    tamper(document)
    out.write_text(json.dumps(document))
    code, stdout, err = run_main(["simulate", "--strategy", "simple", "--players", "3", "--seed", "7", "--games", "12",
                                  "--jobs", "1", "--resume", str(out)], capsys)
    assert code == EXIT_FAILED and stdout == "" and err.count("\n") == 1, err
    assert fragment in err


@pytest.mark.checks("SIM-resume")
def test_resume_of_a_finished_result_or_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-resume] a finished run's result has nothing to resume, a missing file cannot be
    read: one line each, exit 2."""
    out = tmp_path / "run.json"
    argv = ["simulate", "--strategy", "simple", "--players", "2", "--games", "3", "--jobs", "1"]
    assert run_main(argv + ["--out", str(out)], capsys)[0] == 0
    assert "trace_sha256" in json.loads(out.read_text())
    code, _, err = run_main(argv + ["--resume", str(out)], capsys)
    assert code == EXIT_USAGE and "holds the result of a finished run" in err
    code, _, err = run_main(argv + ["--resume", str(tmp_path / "missing.json")], capsys)
    assert code == EXIT_USAGE and err.count("\n") == 1 and "cannot read" in err


CLUSTER_SCRIPT = textwrap.dedent("""
    import time, distributed
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, protocol="tcp",
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        print(cluster.scheduler_address, flush=True)
        time.sleep(120)
""")


@pytest.mark.checks("SIM-dask-lost", "SIM-resume")
@needs_proc
def test_lost_dask_scheduler_is_one_line_and_keeps_the_finished_chunks(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-dask-lost, SIM-resume] the scheduler's process killed mid-run: one line naming
    it, exit 3, the finished chunks in the checkpoint, and a local ``--resume`` ends with
    the trace hash of a local run never interrupted."""
    oracle("distributed")
    # the cluster (its workers play the games) niced, so that however busy the machine,
    # this test sees the first chunks before the run can end
    with process_started(["nice", "-n", "19", sys.executable, "-c", CLUSTER_SCRIPT], stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True) as cluster:
        address = cluster.stdout.readline().strip() if cluster.stdout is not None else ""
        out = tmp_path / "run.json"
        games = ["--games", "100", "--seed", "5"]
        with started(simulate_command(*games, "--executor", "dask", "--scheduler", address, "--chunk-size", "2",
                                      "--checkpoint-every", "0", "--out", str(out)), tmp_path) as run:
            assert wait_for(lambda: chunks_in(out) >= 2, 60), "no checkpoint appeared"
            cluster.kill()
            code = run.process.wait(timeout=60)
            err = run.stderr()
    assert code == EXIT_STOPPED, err
    assert err.count("\n") == 1 and err.startswith(f"hanabi-ref: lost the dask scheduler at {address}: ")
    assert f"kept in {out}" in err and 2 <= chunks_in(out) < 50
    code, resumed, _ = run_main([*SIMULATE[:-1], *games, "--json", "--jobs", "2", "--resume", str(out)], capsys)
    assert code == 0
    code, whole, _ = run_main([*SIMULATE[:-1], *games, "--json", "--jobs", "2"], capsys)
    assert without_timing(json.loads(resumed)) == without_timing(json.loads(whole))
