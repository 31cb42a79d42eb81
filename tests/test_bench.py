"""``hanabi-ref bench`` measures honestly [B-engine, PL-bench].

No speed is asserted here (speed is measured by the command, never timed in a test).
What is checked: the runs are interleaved in the order the report records, every child
ran with the contracts and build it was asked for, CPU time is measured apart from wall
time, OpenSpiel's chance nodes are not counted as moves, the ratios are those of the
medians of the runs, and bad arguments are one-line usage errors.
"""

from __future__ import annotations

import importlib.util
import json
import random
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref.tools.bench import engine as bench
from hanabi_ref.cli import main
from tests.oracles import oracle
from hanabi_ref.engine.tables import tables_for

ROOT = Path(__file__).resolve().parents[1]
SECONDS = 0.05
REPEATS = 2
PLAYERS = (2, 3)

def _isolate(monkeypatch: pytest.MonkeyPatch, cache: Path) -> None:
    """Children import this checkout and look for compiled builds in an empty cache."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    monkeypatch.setenv("HANABI_REF_CACHE", str(cache))
    monkeypatch.delenv("HANABI_REF_COMPILED", raising=False)


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One tiny interleaved run against OpenSpiel, without a compiled build."""
    oracle("pyspiel")
    with pytest.MonkeyPatch.context() as monkeypatch:
        _isolate(monkeypatch, tmp_path_factory.mktemp("empty-cache"))
        yield bench.bench_engine(PLAYERS, "hle", SECONDS, REPEATS, seed=5, against="openspiel")


@pytest.mark.checks("B-engine")
def test_schedule_rotates_every_round() -> None:
    """[B-engine] round r runs each variant once per player count, starting with variant
    r mod n and keeping their cyclic order; round r + 1 starts after round r ends."""
    names = ["a", "b", "c"]
    order = bench.schedule(names, [2, 4], 4)
    assert [step["round"] for step in order] == sorted(step["round"] for step in order)
    for round_ in range(4):
        steps = [step for step in order if step["round"] == round_]
        for count in (2, 4):
            ran = [step["variant"] for step in steps if step["players"] == count]
            start = names.index(ran[0])
            assert start == round_ % 3 and ran == [names[(start + i) % 3] for i in range(3)]


def test_runs_are_interleaved_as_recorded(report: dict[str, Any]) -> None:
    """[B-engine] the schedule holds every variant in every round, rotated; each variant's
    runs come from successive rounds, one per round."""
    variants = report["variants"]
    assert variants == ["source-off", "checked-off", "facade-off", "source-on", "openspiel"]  # no build in the empty cache
    assert len(report["schedule"]) == REPEATS * len(PLAYERS) * len(variants)
    firsts = [next(s["variant"] for s in report["schedule"] if s["round"] == r) for r in range(REPEATS)]
    assert firsts == variants[:REPEATS]
    for entry in report["results"]:
        for name in variants:
            assert [run["round"] for run in entry["variants"][name]["runs"]] == list(range(REPEATS))


@pytest.mark.checks("B-engine")
def test_children_ran_as_asked(report: dict[str, Any]) -> None:
    """[B-engine] contracts off/on as named, and the engine modules loaded from .py files."""
    for entry in report["results"]:
        variants = entry["variants"]
        for name, contracts in (("source-off", False), ("checked-off", False), ("facade-off", False), ("source-on", True)):
            for run in variants[name]["runs"]:
                assert run["contracts"] is contracts and run["compiled"] is False
                assert run["compiled_modules"]["hanabi_ref.engine.transition"] is False
        assert variants["compiled-off"] == {"status": "not built", "build_command": "hanabi-ref compile"}


@pytest.mark.checks("B-engine")
def test_cpu_time_is_measured_and_the_medians_recomputed(report: dict[str, Any]) -> None:
    """[B-engine] every run spends its CPU budget (process time, the loop's stop rule) and
    the reported rates, spreads and ratios are those of the runs."""
    for entry in report["results"]:
        rates = {}
        for name, result in entry["variants"].items():
            if result["status"] != "measured":
                continue
            for run in result["runs"]:
                assert run["cpu_seconds"] >= SECONDS and run["moves"] > 0 and run["games"] > 0
                assert run["moves_per_cpu_second"] == run["moves"] / run["cpu_seconds"]
                assert run["moves_per_wall_second"] == run["moves"] / run["wall_seconds"]
            cpu = [run["moves"] / run["cpu_seconds"] for run in result["runs"]]
            assert result["median_moves_per_cpu_second"] == statistics.median(cpu)
            assert (result["min_moves_per_cpu_second"], result["max_moves_per_cpu_second"]) == (min(cpu), max(cpu))
            assert result["moves"] == sum(run["moves"] for run in result["runs"])
            rates[name] = statistics.median(cpu)
        assert entry["ratios"] == {
            "source-off/openspiel": rates["source-off"] / rates["openspiel"],
            "source-on/openspiel": rates["source-on"] / rates["openspiel"],
            "source-off/source-on": rates["source-off"] / rates["source-on"],
            "facade-off/checked-off": rates["facade-off"] / rates["checked-off"],
            "facade-off/source-off": rates["facade-off"] / rates["source-off"],
        }


def test_openspiel_runs_count_whole_games_of_player_moves(report: dict[str, Any]) -> None:
    """[B-engine] a game has at most OpenSpiel's own max_game_length player moves."""
    import pyspiel

    for entry in report["results"]:
        bound = pyspiel.load_game("hanabi", {"players": entry["players"]}).max_game_length()
        for run in entry["variants"]["openspiel"]["runs"]:
            assert run["contracts"] is None and run["games"] <= run["moves"] <= bound * run["games"]


def test_openspiel_game_skips_chance_nodes() -> None:
    """[B-engine] the moves counted are the history's entries by a player; the deal and
    the draws (chance) are in the history too but not counted."""
    pyspiel = oracle("pyspiel")

    for players in (2, 5):
        game = pyspiel.load_game("hanabi", {"players": players})
        moves, state = bench.play_openspiel_game(game, random.Random(players))
        history = state.full_history()
        assert state.is_terminal()
        assert moves == sum(1 for item in history if item.player != pyspiel.PlayerId.CHANCE)
        hand_size = 5 if players < 4 else 4
        assert len(history) - moves >= players * hand_size


def test_text_report_names_every_variant(report: dict[str, Any]) -> None:
    """[B-engine] the table shows each variant per player count, the missing build with
    its command, the machine and the ratios."""
    text = bench.format_engine_report(report)
    for count in PLAYERS:
        for name in ("source-off", "checked-off", "facade-off", "source-on", "openspiel"):
            assert any(line.split()[:2] == [str(count), name] for line in text.splitlines())
    assert "not built (build it with: hanabi-ref compile)" in text and "load average" in text
    assert "source-off/openspiel" in text and "CPU s" in text


def test_a_child_that_did_not_load_the_build_is_an_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """[B-engine] asked for the compiled build where there is none, the child runs the
    sources, says so, and the measurement is refused."""
    _isolate(monkeypatch, tmp_path)
    with pytest.raises(bench.BenchError, match="compiled=False, not contracts=False compiled=True"):
        bench.run_child(bench.COMPILED_OFF, 2, "hle", 0.01, 0)


@pytest.mark.parametrize(
    "arguments",
    [
        ["--players", "0"],
        ["--players", "2,x"],
        ["--players", "2,2"],
        ["--players", "9"],
        ["--rules", "nope"],
        ["--against", "hle"],
        ["--seconds", "-1"],
        ["--repeats", "0"],
        ["--against", "openspiel", "--rules", "thesis"],
    ],
)
def test_bad_arguments_are_one_line_usage_errors(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """[C-exit] exit 2, one line on stderr, nothing measured."""
    assert main(["bench", "engine", *arguments]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and captured.err.startswith("hanabi-ref")


def test_against_openspiel_without_open_spiel(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """[B-engine] without pyspiel: one line naming the package, exit 2."""
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None if name == "pyspiel" else real(name, *args))
    assert main(["bench", "engine", "--against", "openspiel"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "open-spiel" in error


@pytest.mark.checks("PL-bench")
def test_playability_table_bench_reports_cpu_apart_from_wall(monkeypatch: pytest.MonkeyPatch) -> None:
    """[PL-bench] a run that only waits takes wall time but (almost) no CPU time: the two
    clocks are measured apart."""
    import hanabi_ref.tools.playability.table as table

    def waiting_table() -> list[int]:
        time.sleep(0.05)
        return list(range(126))

    monkeypatch.setattr(table, "appendix_a", waiting_table)
    result = bench.bench_playability_table(2)
    assert len(result["runs_cpu_seconds"]) == len(result["runs_seconds"]) == 2
    for wall, cpu in zip(result["runs_seconds"], result["runs_cpu_seconds"]):
        assert wall >= 0.05 and 0 <= cpu < wall
    assert result["median_cpu_seconds"] == statistics.median(result["runs_cpu_seconds"])
    json.dumps(result)


# ------------------------------------------------------------------ bench strategy [B-strategy]


@pytest.fixture(scope="module")
def strategy_report(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One tiny interleaved run of the information strategy, without a compiled build."""
    with pytest.MonkeyPatch.context() as monkeypatch:
        _isolate(monkeypatch, tmp_path_factory.mktemp("empty-cache"))
        yield bench.bench_strategy("info", [4], "hle", SECONDS, REPEATS, seed=5)


@pytest.mark.checks("B-strategy")
def test_strategy_runs_count_whole_games_from_the_sources(strategy_report: dict[str, Any]) -> None:
    """[B-strategy] without a build only the sources are measured; every run played whole
    games (each game's moves are those of the seeded game played again here), its
    games per CPU second are games / CPU seconds, and the median is that of the runs."""
    from hanabi_ref.players.runner import play_game
    from hanabi_ref.engine.configs import make_config
    from hanabi_ref.players.strategies import factory_for

    assert strategy_report["variants"] == ["source-off"]
    entry = strategy_report["results"][0]
    assert entry["variants"]["compiled-off"]["status"] == "not built" and entry["ratios"] == {}
    result = entry["variants"]["source-off"]
    runs = result["runs"]
    assert len(runs) == REPEATS and all(run["games"] >= 1 and not run["contracts"] for run in runs)
    config, factory = make_config(4, "hle"), factory_for("info")
    for run in runs:
        moves = sum(len(play_game(config, factory, seed=5 + game).trace.actions) for game in range(run["games"]))
        assert run["moves"] == moves
        assert run["games_per_cpu_second"] == run["games"] / run["cpu_seconds"]
    assert result["median_games_per_cpu_second"] == statistics.median(run["games_per_cpu_second"] for run in runs)
    assert "games per CPU second" in bench.format_strategy_report(strategy_report)


@pytest.mark.parametrize(
    "arguments, fragment",
    [
        (["--strategy", "nope"], "--strategy: unknown strategy 'nope'"),
        (["--players", "6", "--rules", "hanab-live"], "strategy 'info': 6 players"),
        (["--against", "openspiel"], "--against: only for bench engine"),
    ],
)
def test_bench_strategy_refuses_bad_arguments(arguments: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    """[B-strategy, C-exit] exit 2, one line naming what is wrong, nothing measured."""
    assert main(["bench", "strategy", *arguments]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and fragment in captured.err, captured.err


# ------------------------------------------------------------------ bench verify [B-verify]


def test_verify_bench_measures_games_apart_from_the_peer_process() -> None:
    """[B-verify] a games run counts the random phase's games against our own engine, with
    the CPU seconds of that process, and no divergence."""
    from hanabi_ref.base.contracts import ENABLED
    from hanabi_ref.tools.bench import verify as verify_bench

    run = verify_bench.measure("reference", 5, 0)
    assert run["games"] == 5 and run["diverged"] is False and run["contracts"] == ENABLED
    assert 0 < run["cpu_seconds"] and 0 < run["playing_seconds"] <= run["wall_seconds"]


@pytest.mark.deep  # a long benchmark game shrunk 400 times: 12 s, the deep set (README)
def test_verify_bench_shrinks_a_long_divergence_of_the_faulty_engine() -> None:
    """[B-verify, EP-shrink] the seed searched for gives a first divergence of at least 70
    actions; shrinking it in-process gives a shorter game that still diverges on the faulty
    engine and still runs the stack down (at least 50 - p*h draws: the fault shows only in
    the last round, 2.16-3-last-round)."""
    from hanabi_ref.formats.trace import replay
    from hanabi_ref.tools.bench import verify as verify_bench
    from hanabi_ref.tools.protocol.choosing import Chooser
    from hanabi_ref.tools.verify.compare import play_compared
    from hanabi_ref.tools.verify.faulty import LastRoundShort

    seed, first = verify_bench.long_divergence_seed(0)
    assert first >= verify_bench.LONG_GAME
    run = verify_bench.measure("shrink-in-process", 200, seed)
    assert run["diverged"] and run["first_actions"] == first and run["shrinking_games"] == 400
    assert run["shrunk_actions"] < first

    class Following(Chooser):
        def __init__(self, actions: tuple[Any, ...]) -> None:
            self.actions = list(actions)

        def choose(self, state: Any, legal: list[Any]) -> Any:
            return self.actions.pop(0)

    from hanabi_ref.tools.verify.run import verify_random_games

    shrunk = verify_random_games(LastRoundShort(), verify_bench._configs(False), 200, seed).divergence
    assert shrunk is not None and len(shrunk.trace.actions) == run["shrunk_actions"]
    config = shrunk.trace.config
    replay(shrunk.trace)
    assert len(shrunk.trace.actions) >= tables_for(config).deck_size - config.players * config.hand_size
    again = play_compared(LastRoundShort(), config, shrunk.trace.deck, Following(shrunk.trace.actions))
    assert again is not None and "terminal" in again.what


@pytest.mark.checks("B-verify")
def test_verify_bench_interleaves_and_takes_medians(monkeypatch: pytest.MonkeyPatch) -> None:
    """[B-verify] every round runs the five variants, rotated by one place per round; the
    games runs use the given seed, the shrink runs the searched one; the summaries are the
    medians of the runs."""
    from hanabi_ref.tools.bench import verify as verify_bench

    order: list[tuple[str, int]] = []
    monkeypatch.setattr(verify_bench, "long_divergence_seed", lambda seed: (seed + 3, 71))

    def fake_run(variant: str, games: int, seed: int) -> dict[str, Any]:
        order.append((variant, seed))
        n = len(order)
        if variant in verify_bench.GAMES_VARIANTS:
            return {"games": games, "cpu_seconds": n, "playing_seconds": n}
        return {"shrinking_seconds": float(n), "cpu_seconds": float(n), "first_actions": 71, "shrunk_actions": 40,
                "shrinking_games": 400}

    monkeypatch.setattr(verify_bench, "run_child", fake_run)
    report = verify_bench.bench_verify(10, 3, 7)
    names = [variant for variant, _ in order]
    variants = [*verify_bench.GAMES_VARIANTS, *verify_bench.SHRINK_VARIANTS]
    assert names == variants + variants[1:] + variants[:1] + variants[2:] + variants[:2]
    assert all(seed == (7 if variant in verify_bench.GAMES_VARIANTS else 10) for variant, seed in order)
    openspiel = report["results"]["openspiel"]
    rates = [10 / (i + 1) for i, (variant, _) in enumerate(order) if variant == "openspiel"]
    assert openspiel["median_games_per_cpu_second"] == statistics.median(rates)
    shrink = report["results"]["shrink-process"]
    times = [float(i + 1) for i, (variant, _) in enumerate(order) if variant == "shrink-process"]
    assert shrink["median_shrinking_seconds"] == statistics.median(times)
    assert "shrink-process" in verify_bench.format_report(report)


@pytest.mark.checks("B-engine")
def test_the_facade_plays_the_same_games_as_the_engine_functions() -> None:
    """[B-engine, API-cost] the facade's runs measure the very games of source-off and
    checked-off: the same decks and random choices give the same actions and final states,
    so the ratios compare one amount of work done three ways."""
    from hanabi_ref.api import Config, Game
    from hanabi_ref.engine.legality import legal_actions
    from hanabi_ref.engine.transition import apply, apply_legal, new_game

    config = Config.preset("hle", players=3)
    direct, checked, through = random.Random(9), random.Random(9), random.Random(9)
    for seed in range(5):
        state = new_game(config, seed)
        while not state.terminal:
            state = apply_legal(state, direct.choice(legal_actions(state)))
        again = new_game(config, seed)
        while not again.terminal:
            again = apply(again, checked.choice(legal_actions(again)))
        game = Game.new(config, seed)
        while not game.terminal:
            game = game.apply(through.choice(game.legal_actions()))
        assert game.state.history == state.history == again.history and game.state.deck == state.deck
        assert game.score == state.score == again.score
