"""Parallel simulation: the same results for every number of workers and chunk size,
strategy parameters, the progress bar, and games or workers that fail [SIM-jobs,
SIM-param, SIM-progress, SIM-crash, SIM-errors, C-simulate].

Expected values come from playing the same seeds directly with ``play_game`` (the
single-process oracle), never from the simulation machinery under test.  The strategies
registered here exist only for the tests: ``mix`` has parameters and plays fast, the
failing ones break on chosen seeds.
"""

from __future__ import annotations

import io
import json
import multiprocessing
import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref.base.extras import install_hint
from hanabi_ref.players import strategies
from hanabi_ref.engine.actions import Action, Play
from hanabi_ref.cli import EXIT_OK, EXIT_USAGE, main
from hanabi_ref.engine.dealing import derive_seed
from hanabi_ref.players.runner import play_game
from hanabi_ref.players.strategy import BaseStrategy, Strategy, StrategyFactory
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.tools.sim.chunks import ChunkResult, Failure, GameSetup, chunk_size_for, play_chunk, split_games
from hanabi_ref.tools.sim.executors import LocalExecutor
from hanabi_ref.tools.sim.runner import Progress, progress_interval
from hanabi_ref.players.strategies import STRATEGIES, Param, StrategySpec, factory_for
from hanabi_ref.players.strategies.random import RandomStrategy
from hanabi_ref.players.strategies.simple import SimpleStrategy
from hanabi_ref.engine.view import PlayerView

EXIT_FAILED = 1
TIMING = ("games_per_second", "games_per_cpu_second", "jobs", "chunk_size", "executor")
"""Keys of a result that may differ between runs of the same games."""

MAIN_PID = os.getpid()
FORK = sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods()
needs_fork = pytest.mark.skipif(not FORK, reason="test strategies reach workers only when they are forked")


# ------------------------------------------------------------------ test-only strategies


def mix_factory(random_seats: int) -> StrategyFactory:
    """Seats 0 .. random_seats-1 play at random, the others the simple strategy."""

    def factory(config: GameConfig, seat: int, seed: int) -> Strategy:
        if seat < random_seats:
            return RandomStrategy(config, seat, seed)
        return SimpleStrategy(config, seat, seed)

    return factory


MIX = StrategySpec(
    "mix",
    "test only: the first seats play at random, the others simply",
    (
        Param("random_seats", "int", 0, "seats playing at random", 0, 5),
        Param("weight", "real", 0.5, "unused", 0.0, 1.0),
        Param("style", "word", "plain", "unused", choices=("plain", "fancy")),
    ),
    lambda values: mix_factory(int(values["random_seats"])),
)


class IllegalPlayer(BaseStrategy):
    """Plays a slot that does not exist: the engine raises StrategyError."""

    def act(self, view: PlayerView) -> Action:
        return Play(99)


class WorkerKiller(BaseStrategy):
    """Ends the worker process it runs in (never the test process itself)."""

    def act(self, view: PlayerView) -> Action:
        if os.getpid() == MAIN_PID:
            raise RuntimeError("WorkerKiller ran in the test process: it must run in a worker")
        os._exit(3)


def failing_spec(name: str, illegal_on: Iterable[int] = (), exit_on: Iterable[int] = (),
                 params: tuple[Param, ...] = ()) -> StrategySpec:
    """The simple strategy, except that seat 0 plays illegally (``illegal_on``) or kills its
    worker process (``exit_on``) in the games with those seeds; ``params`` are accepted
    and ignored."""
    illegal = {derive_seed(seed, 1) for seed in illegal_on}
    fatal = {derive_seed(seed, 1) for seed in exit_on}

    def factory(config: GameConfig, seat: int, seed: int) -> Strategy:
        if seat == 0 and seed in illegal:
            return IllegalPlayer()
        if seat == 0 and seed in fatal:
            return WorkerKiller()
        return SimpleStrategy(config, seat, seed)

    return StrategySpec(name, "test only: fails on chosen seeds", params, lambda values: factory)


def register(monkeypatch: pytest.MonkeyPatch, spec: StrategySpec) -> None:
    """Make ``spec`` known by name for this test (forked workers inherit it)."""
    monkeypatch.setitem(strategies.SPECS, spec.name, spec)


# ------------------------------------------------------------------ helpers


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def simulate_json(argv: list[str], capsys: pytest.CaptureFixture[str], expected: int = EXIT_OK) -> dict[str, Any]:
    code, out, err = run(["simulate", *argv, "--json"], capsys)
    assert code == expected, err
    result: dict[str, Any] = json.loads(out)
    return result


def without_timing(result: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in result.items() if key not in TIMING}


def direct(config: GameConfig, factory: StrategyFactory, seeds: Iterable[int]) -> tuple[list[int], int]:
    """The oracle: scores of the seeds played one by one, and how many struck out."""
    records = [play_game(config, factory, seed=seed) for seed in seeds]
    return [record.score for record in records], sum(record.final.remaining == -1 for record in records)


def assert_statistics(result: Mapping[str, Any], scores: list[int], strikeouts: int, max_score: int = 25) -> None:
    """The result's statistics are those of ``scores``, computed here by hand."""
    n = len(scores)
    mean = sum(scores) / n
    assert result["games_completed"] == n
    assert result["mean_score"] == pytest.approx(mean)
    assert result["std_error"] == pytest.approx((sum((s - mean) ** 2 for s in scores) / (n - 1) / n) ** 0.5)
    assert result["score_histogram"] == [scores.count(score) for score in range(max_score + 1)]
    assert result["strikeout_rate"] == pytest.approx(strikeouts / n)
    assert result["perfect_rate"] == pytest.approx(scores.count(max_score) / n)
    assert (result["lowest_score"], result["highest_score"]) == (min(scores), max(scores))


# ------------------------------------------------------------------ [SIM-jobs]


@pytest.mark.checks("SIM-jobs")
def test_chunks_cover_the_seeds_in_order() -> None:
    """[SIM-jobs] 7 games from seed 5 in chunks of 3: seeds 5-7, 8-10, 11 (by hand); the
    automatic size aims at eight chunks per worker and at most 50 games (or ``largest``)."""
    setup = GameSetup.of(3, "thesis", "no-variant", None, "simple", {})
    chunks = list(split_games(setup, 5, 7, 3))
    assert [(chunk.first_seed, chunk.games) for chunk in chunks] == [(5, 3), (8, 3), (11, 1)]
    assert [list(chunk.seeds()) for chunk in chunks[1].single_games()] == [[8], [9], [10]]
    assert chunk_size_for(1, 2) == 1
    assert chunk_size_for(160, 2) == 10  # 160 / (8 * 2)
    assert chunk_size_for(161, 2) == 11
    assert chunk_size_for(4000, 2) == 50  # capped
    assert chunk_size_for(10, 64) == 1
    assert chunk_size_for(4000, 2, largest=200) == 200
    assert chunk_size_for(4000, 32, largest=200) == 16  # 4000 / (8 * 32), rounded up


@pytest.mark.checks("SIM-jobs")
def test_jobs_and_chunk_size_do_not_change_the_result(capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-jobs, C-simulate] one process, two or three workers and any chunk size give the
    same result, and it is that of playing seeds 11 .. 33 one by one."""
    argv = ["--strategy", "random", "--players", "3", "--games", "23", "--seed", "11"]
    oracle = simulate_json(argv + ["--jobs", "1"], capsys)
    assert oracle["jobs"] == 1 and oracle["failed_seeds"] == [] and oracle["failures"] == []
    scores, strikeouts = direct(make_config(3), STRATEGIES["random"], range(11, 34))
    assert_statistics(oracle, scores, strikeouts)
    for extra in (["--jobs", "2"], ["--jobs", "2", "--chunk-size", "1"], ["--jobs", "2", "--chunk-size", "7"],
                  ["--jobs", "3", "--chunk-size", "50"]):
        result = simulate_json(argv + extra, capsys)
        assert without_timing(result) == without_timing(oracle), extra
        assert result["jobs"] == int(extra[1])


@pytest.mark.checks("SIM-jobs")
def test_local_executor_returns_every_chunk_once() -> None:
    """[SIM-jobs] two worker processes return each chunk exactly once, equal to playing it
    in this process."""
    setup = GameSetup.of(2, "hle", "no-variant", None, "simple", {})
    chunks = list(split_games(setup, 100, 9, 2))
    results = list(LocalExecutor(2).run(chunks))
    assert sorted(index for index, _ in results) == list(range(len(chunks)))
    for index, result in results:
        assert result == play_chunk(chunks[index])


# ------------------------------------------------------------------ [SIM-param]


@pytest.mark.checks("SIM-param")
def test_params_are_resolved_recorded_and_used(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-param] --param sets one parameter, the others keep their defaults, the JSON
    names them all, and the games are those of the strategy built with that value."""
    register(monkeypatch, MIX)
    argv = ["--strategy", "mix", "--players", "3", "--games", "10", "--seed", "3", "--jobs", "2"]
    result = simulate_json(argv + ["--param", "random_seats=2", "--param", "style=fancy"], capsys)
    assert result["params"] == {"random_seats": 2, "weight": 0.5, "style": "fancy"}
    scores, strikeouts = direct(make_config(3), mix_factory(2), range(3, 13))
    assert_statistics(result, scores, strikeouts)
    default = simulate_json(argv, capsys)
    assert default["params"] == {"random_seats": 0, "weight": 0.5, "style": "plain"}
    assert_statistics(default, *direct(make_config(3), mix_factory(0), range(3, 13)))


@pytest.mark.checks("SIM-param", "S-params")
def test_thesis_parameters_reach_the_workers(capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-param, S-params] the thesis strategy with omega_p = 0.3 in two workers plays
    the games of factory_for("thesis", {"omega_p": "0.3"})."""
    result = simulate_json(["--strategy", "thesis", "--players", "2", "--games", "4", "--seed", "8", "--jobs", "2",
                            "--param", "omega_p=0.3"], capsys)
    assert result["params"]["omega_p"] == 0.3
    assert set(result["params"]) == {param.name for param in strategies.SPECS["thesis"].params}
    assert_statistics(result, *direct(make_config(2), factory_for("thesis", {"omega_p": "0.3"}), range(8, 12)))


# ------------------------------------------------------------------ [SIM-progress]


@pytest.mark.checks("SIM-progress")
def test_progress_bar_shows_rate_and_running_mean() -> None:
    """[SIM-progress] the bar counts games, shows games per second and the running mean of
    the finished games (20 = (10 + 20 + 30) / 3; the failed game does not count)."""
    stream = io.StringIO()
    progress = Progress(4, stream, enabled=True)
    progress.add(ChunkResult((10, 20), (False, False)), 2)
    progress.add(ChunkResult((30,), (False,), (Failure(7, "boom"),)), 2)
    progress.close()
    text = stream.getvalue()
    assert "4/4" in text and "game/s" in text and "mean 20.000" in text


@pytest.mark.checks("SIM-progress")
def test_no_progress_bar_when_stderr_is_not_a_terminal_and_lines_are_off(capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-progress] under a pipe (here: pytest's capture) no bar is drawn, and with
    ``HANABI_REF_PROGRESS=off`` (the suite's setting) no line either: stderr stays empty."""
    code, out, err = run(["simulate", "--strategy", "simple", "--players", "2", "--games", "5", "--jobs", "2"], capsys)
    assert code == EXIT_OK and "mean score" in out and err == ""


@pytest.mark.checks("SIM-progress")
def test_progress_lines_off_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """[SIM-progress] off a terminal, plain lines at the interval of HANABI_REF_PROGRESS
    (here: every chunk, the interval being below any chunk's time), counting the games
    finished of the total, with the rate and the running mean; none once all are done."""
    monkeypatch.setenv("HANABI_REF_PROGRESS", "1e-9")
    stream = io.StringIO()
    progress = Progress(6, stream)
    progress.add(ChunkResult((10, 20), (False, False)), 2)
    progress.add(ChunkResult((30,), (False,), (Failure(7, "boom"),)), 2)
    progress.add(ChunkResult((5, 5), (False, False)), 2)
    progress.close()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2, lines
    assert lines[0].startswith("hanabi-ref: 2 of 6 games (33 %), ") and "games per second (wall)" in lines[0]
    assert lines[0].endswith("mean 15.000") and lines[1].startswith("hanabi-ref: 4 of 6 games (67 %)")
    assert lines[1].endswith("mean 20.000")
    # the interval is read from the environment: off, or not a positive number of seconds
    for text, interval in [("off", None), ("0", None), ("2.5", 2.5), ("-1", None), ("soon", 10.0)]:
        monkeypatch.setenv("HANABI_REF_PROGRESS", text)
        assert progress_interval() == interval


@pytest.mark.checks("SIM-speed")
def test_a_run_reports_games_per_wall_and_per_cpu_second(capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-speed] both rates, each named, in the JSON and in the summary."""
    result = json.loads(run(["simulate", "--strategy", "simple", "--players", "2", "--games", "30", "--jobs", "1",
                             "--json"], capsys)[1])
    assert result["games_per_second"] > 0 and result["games_per_cpu_second"] > 0
    code, out, _ = run(["simulate", "--strategy", "simple", "--players", "2", "--games", "30", "--jobs", "2"], capsys)
    line = next(line for line in out.splitlines() if line.startswith("games per second"))
    assert code == EXIT_OK and "wall clock" in line and "per CPU second" in line


# ------------------------------------------------------------------ [SIM-crash]


@pytest.mark.checks("SIM-crash")
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_failing_game_is_reported_and_the_others_count(
    jobs: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """[SIM-crash, C-exit] games 13 and 20 raise StrategyError: exit 1, one line naming
    both seeds and the error, and the statistics of the other ten games."""
    register(monkeypatch, failing_spec("flaky", illegal_on=(13, 20)))
    result = simulate_json(["--strategy", "flaky", "--players", "3", "--games", "12", "--seed", "11",
                            "--jobs", jobs, "--chunk-size", "3"], capsys, expected=EXIT_FAILED)
    assert result["failed_seeds"] == [13, 20]
    assert [failure["seed"] for failure in result["failures"]] == [13, 20]
    assert all(failure["error"].startswith("StrategyError: ") for failure in result["failures"])
    assert result["games"] == 12
    others = [seed for seed in range(11, 23) if seed not in (13, 20)]
    assert_statistics(result, *direct(make_config(3), STRATEGIES["simple"], others))
    code, out, err = run(["simulate", "--strategy", "flaky", "--players", "3", "--games", "12", "--seed", "11",
                          "--jobs", jobs], capsys)
    assert code == EXIT_FAILED and err.count("\n") == 1 and "Traceback" not in err
    assert "2 of 12 games failed (seeds 13, 20)" in err and "seed 13): StrategyError" in err
    assert "failed games" in out and "mean score" in out


@pytest.mark.checks("SIM-crash")
@needs_fork
def test_a_worker_that_dies_loses_only_its_game(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-crash] the game with seed 15 ends its worker process (os._exit): that seed is
    reported, and every other game, including those of the pool that broke, counts."""
    register(monkeypatch, failing_spec("fatal", exit_on=(15,)))
    result = simulate_json(["--strategy", "fatal", "--players", "3", "--games", "16", "--seed", "4",
                            "--jobs", "2", "--chunk-size", "4"], capsys, expected=EXIT_FAILED)
    assert result["failed_seeds"] == [15]
    assert "worker process" in result["failures"][0]["error"]
    others = [seed for seed in range(4, 20) if seed != 15]
    assert_statistics(result, *direct(make_config(3), STRATEGIES["simple"], others))


class KillOnce(SimpleStrategy):
    """The simple strategy, whose first move anywhere ends its worker process once (the
    marker file records that it happened): a worker killed from outside."""

    marker = Path()

    def act(self, view: PlayerView) -> Action:
        try:
            os.close(os.open(self.marker, os.O_CREAT | os.O_EXCL))
        except FileExistsError:
            return super().act(view)
        if os.getpid() == MAIN_PID:
            raise RuntimeError("KillOnce ran in the test process: it must run in a worker")
        os._exit(9)


@pytest.mark.checks("SIM-crash")
@needs_fork
def test_a_worker_killed_once_loses_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-crash] a worker that dies once (not because of its game) costs only time: the
    lost chunks are played again and the result is complete and exact."""
    monkeypatch.setattr(KillOnce, "marker", tmp_path / "killed")
    register(monkeypatch, StrategySpec("kill-once", "test only", (), lambda values: KillOnce))
    result = simulate_json(["--strategy", "kill-once", "--players", "3", "--games", "12", "--seed", "50",
                            "--jobs", "2", "--chunk-size", "2"], capsys)
    assert (tmp_path / "killed").exists()
    assert result["failed_seeds"] == []
    assert_statistics(result, *direct(make_config(3), STRATEGIES["simple"], range(50, 62)))


@pytest.mark.checks("SIM-crash")
def test_no_game_finished(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-crash] if every game fails the statistics are empty (null), not an error."""
    register(monkeypatch, failing_spec("hopeless", illegal_on=range(3)))
    result = simulate_json(["--strategy", "hopeless", "--players", "2", "--games", "3", "--jobs", "1"], capsys,
                           expected=EXIT_FAILED)
    assert result["failed_seeds"] == [0, 1, 2] and result["games_completed"] == 0
    assert result["mean_score"] is None and result["perfect_rate_ci95"] is None
    assert result["score_histogram"] == [0] * 26
    code, out, err = run(["simulate", "--strategy", "hopeless", "--players", "2", "--games", "3", "--jobs", "2"], capsys)
    assert code == EXIT_FAILED and "3 of 3 games failed" in err and "statistics over the 0" in out


# ------------------------------------------------------------------ [SIM-errors]

SIM = ["simulate", "--players", "3", "--games", "2"]


@pytest.mark.checks("SIM-errors", "SIM-param")
@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (SIM + ["--strategy", "nope"], "--strategy: unknown strategy 'nope'"),
        (SIM + ["--strategy", "simple", "--param", "omega_p=0.5"], "--param: strategy 'simple': unknown parameter 'omega_p'"),
        (SIM + ["--strategy", "thesis", "--param", "omega_q=0.5"], "unknown parameter 'omega_q'"),
        (SIM + ["--strategy", "thesis", "--param", "omega_p=1.5"], "parameter omega_p: must be a number in [0, 1], got '1.5'"),
        (SIM + ["--strategy", "thesis", "--param", "omega_p=high"], "parameter omega_p"),
        (SIM + ["--strategy", "thesis", "--param", "rho_h=2.5"], "parameter rho_h"),
        (SIM + ["--strategy", "thesis", "--param", "omega_p"], "--param: expected key=value, got 'omega_p'"),
        (SIM + ["--strategy", "thesis", "--param", "omega_p="], "--param: expected key=value"),
        (SIM + ["--strategy", "thesis", "--param", "=0.5"], "--param: expected key=value"),
        (SIM + ["--strategy", "thesis", "--param", "omega_p=0.5", "--param", "omega_p=0.6"], "given twice"),
        (SIM + ["--strategy", "simple", "--jobs", "0"], "--jobs"),
        (SIM + ["--strategy", "simple", "--jobs", "-2"], "--jobs"),
        (SIM + ["--strategy", "simple", "--chunk-size", "0"], "--chunk-size"),
        (SIM + ["--strategy", "simple", "--executor", "spark"], "--executor"),
        (SIM + ["--strategy", "simple", "--executor", "dask"], "--executor dask: needs --scheduler"),
        (SIM + ["--strategy", "simple", "--scheduler", "tcp://127.0.0.1:8786"], "--scheduler: only with --executor dask"),
        (SIM + ["--strategy", "simple", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:1", "--jobs", "2"],
         "--jobs: only for --executor local"),
        (["simulate", "--strategy", "simple", "--players", "3", "--games", "2", "--seed", str(2**64 - 1)], "--seed"),
    ],
)
def test_usage_errors_exit_2_with_one_line(argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-errors, SIM-param] a one-line error naming the option, exit 2, no output."""
    code, out, err = run(argv, capsys)
    assert code == EXIT_USAGE, err
    assert out == "" and err.count("\n") == 1 and fragment in err and "Traceback" not in err


@pytest.mark.checks("SIM-errors", "SIM-dask")
def test_dask_not_installed_is_a_usage_error(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-errors, SIM-dask] without the optional package: how to install it, exit 2."""
    monkeypatch.setitem(sys.modules, "distributed", None)  # makes ``import distributed`` fail
    code, out, err = run(SIM + ["--strategy", "simple", "--executor", "dask", "--scheduler", "tcp://127.0.0.1:1"], capsys)
    assert code == EXIT_USAGE and out == "" and err.count("\n") == 1
    assert install_hint("dask") in err

