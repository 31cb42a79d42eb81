"""``hanabi-ref bench`` measures honestly [B-engine, PL-bench].

No speed is asserted here (speed is measured by the command, never timed in a test).
What is checked: the runs are interleaved in the order the report records, every child
ran with the contracts and build it was asked for, the headline row plays through the
public API, CPU time is measured apart from wall time, OpenSpiel's chance nodes are
sampled with their probabilities (one uniform number each) and not counted as moves, the
ratios are those of the medians of the runs, the load average is taken before the first
run and after the last, and bad arguments are one-line usage errors.
"""

from __future__ import annotations

import bisect
import collections
import importlib.util
import itertools
import json
import os
import random
import statistics
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref.base.stats import outcome_at
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
    assert variants == ["source-off", "internal-off", "checked-off", "source-on", "openspiel"]  # no build in the empty cache
    assert len(report["schedule"]) == REPEATS * len(PLAYERS) * len(variants)
    firsts = [next(s["variant"] for s in report["schedule"] if s["round"] == r) for r in range(REPEATS)]
    assert firsts == variants[:REPEATS]
    for entry in report["results"]:
        for name in variants:
            assert [run["round"] for run in entry["variants"][name]["runs"]] == list(range(REPEATS))


@pytest.mark.checks("B-engine")
def test_children_ran_as_asked(report: dict[str, Any]) -> None:
    """[B-engine] contracts off/on as named, the engine modules loaded from .py files, and
    each child played through the path its variant names: the public ``Game`` API for the
    source and compiled rows, the engine's functions for internal-off and checked-off."""
    for entry in report["results"]:
        variants = entry["variants"]
        for name, contracts, engine in (("source-off", False, "facade"), ("internal-off", False, "ours"),
                                        ("checked-off", False, "checked"), ("source-on", True, "facade")):
            for run in variants[name]["runs"]:
                assert run["contracts"] is contracts and run["compiled"] is False and run["engine"] == engine
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
            "internal-off/openspiel": rates["internal-off"] / rates["openspiel"],
            "source-off/source-on": rates["source-off"] / rates["source-on"],
            "source-off/checked-off": rates["source-off"] / rates["checked-off"],
            "source-off/internal-off": rates["source-off"] / rates["internal-off"],
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
        for name in ("source-off", "internal-off", "checked-off", "source-on", "openspiel"):
            assert any(line.split()[:2] == [str(count), name] for line in text.splitlines())
    assert "not built (build it with: hanabi-ref compile)" in text and "load average" in text
    assert "source-off/openspiel" in text and "CPU s" in text


@pytest.mark.checks("B-engine")
def test_the_headline_is_the_public_api_against_openspiel(report: dict[str, Any]) -> None:
    """[B-engine] the report leads with source-off, which plays through ``Game``, and its
    ratio to OpenSpiel per player count; the trusted internal path is labelled as such."""
    assert report["headline"] == "source-off" and report["paths"]["source-off"] == "Game API"
    assert report["paths"]["internal-off"] == "internal apply_legal"
    lines = bench.format_engine_report(report).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("headline: source-off, the public API (Game API)"))
    assert start == 2  # after the title and the machine's line, before the table
    for offset, entry in enumerate(report["results"], 1):
        ratio = entry["variants"]["source-off"]["median_moves_per_cpu_second"] / entry["variants"]["openspiel"][
            "median_moves_per_cpu_second"]
        assert lines[start + offset].split()[:2] == [str(entry["players"]), "players"]
        assert lines[start + offset].endswith(f"= {ratio:.2f}x OpenSpiel")
    table = [line.split() for line in lines if line.split()[:2] == ["2", "internal-off"]]
    assert table and table[0][2:4] == ["internal", "apply_legal"]


@pytest.mark.checks("B-engine")
def test_the_load_is_taken_before_the_first_run_and_after_the_last(monkeypatch: pytest.MonkeyPatch) -> None:
    """[B-engine] the JSON holds the load average (1, 5, 15 minutes) read before any run
    and after every run, and the CPU count; the text shows both loads."""
    events: list[str] = []
    loads = iter([(1.0, 2.0, 3.0), (4.0, 5.0, 6.0)])

    def load() -> tuple[float, float, float]:
        events.append("load")
        return next(loads)

    def fake_run(variant: bench.Variant, players: int, preset: str, seconds: float, seed: int) -> dict[str, Any]:
        events.append("run")
        rate = 1000.0 if variant.name != "openspiel" else 2000.0
        return {"moves": rate, "games": 10, "cpu_seconds": 1.0, "wall_seconds": 2.0, "moves_per_cpu_second": rate,
                "moves_per_wall_second": rate / 2, "games_per_cpu_second": 10.0, "games_per_wall_second": 5.0,
                "engine": variant.engine, "contracts": variant.contracts if variant.name != "openspiel" else None,
                "compiled": False if variant.name != "openspiel" else None, "compiled_modules": {}}

    monkeypatch.setattr(os, "getloadavg", load)
    monkeypatch.setattr(bench, "run_child", fake_run)
    monkeypatch.setattr(bench, "compiled_build", lambda: {"built": False, "build": "-", "build_command": "hanabi-ref compile"})
    report = bench.bench_engine([3], "hle", 1.0, 2, 0, against="openspiel")
    assert events == ["load"] + ["run"] * 10 + ["load"]
    assert report["load_average_at_start"] == [1.0, 2.0, 3.0] and report["load_average_at_end"] == [4.0, 5.0, 6.0]
    assert report["cpu_count"] == os.cpu_count()
    json.loads(json.dumps(report))
    text = bench.format_engine_report(report)
    assert "load average (1/5/15 min) 1.00/2.00/3.00 at start, 4.00/5.00/6.00 at end" in text
    assert "3 players  1000 = 0.50x OpenSpiel" in text


# The deck's composition: per colour three 1s, two 2s, 3s and 4s, one 5 (50 cards); OpenSpiel's
# chance outcome for a card is colour * 5 + rank - 1.
COMPOSITION = {colour * 5 + rank: count for colour in range(5) for rank, count in enumerate((3, 2, 2, 2, 1))}


def test_the_chance_sampler_gives_each_outcome_its_share_exactly() -> None:
    """[B-engine] points spread evenly over [0, 1) (the midpoints of 50 k equal cells) fall
    on each outcome exactly k times its count of the 50 cards."""
    outcomes = [(action, count / 50) for action, count in COMPOSITION.items()]
    k = 40
    found = collections.Counter(outcome_at(outcomes, (i + 0.5) / (50 * k)) for i in range(50 * k))
    assert found == {action: k * count for action, count in COMPOSITION.items()}
    assert outcome_at([(3, 0.5), (7, 0.5 - 1e-12)], 0.9999999999999) == 7  # rounding: the last one


def test_openspiel_deals_with_the_probabilities_of_the_deck() -> None:
    """[B-engine] OpenSpiel's first chance node offers every card with its share of the
    deck, and 20,000 draws of the sampler from one seed fit those shares (chi-square, 24
    degrees of freedom, below the 0.1 % critical value 51.18)."""
    pyspiel = oracle("pyspiel")
    outcomes = pyspiel.load_game("hanabi", {"players": 2}).new_initial_state().chance_outcomes()
    assert {action: probability for action, probability in outcomes} == pytest.approx(
        {action: count / 50 for action, count in COMPOSITION.items()})
    draws, rng = 20_000, random.Random(2026)
    found = collections.Counter(outcome_at(outcomes, rng.random()) for _ in range(draws))
    chi_square = sum((found[action] - draws * count / 50) ** 2 / (draws * count / 50) for action, count in COMPOSITION.items())
    assert set(found) <= set(COMPOSITION) and chi_square < 51.18


def test_openspiel_games_draw_one_uniform_number_per_chance_node() -> None:
    """[B-engine] replaying a game of the bench's loop with the same seed: every chance
    outcome is the inverse of the cumulative distribution at the next ``random()``
    (found here by bisection), every move the next ``choice`` of the legal moves."""
    pyspiel = oracle("pyspiel")
    game = pyspiel.load_game("hanabi", {"players": 3})
    for seed in range(3):
        _, played = bench.play_openspiel_game(game, random.Random(seed))
        rng, state = random.Random(seed), game.new_initial_state()
        for item in played.full_history():
            if state.is_chance_node():
                actions, probabilities = zip(*state.chance_outcomes())
                expected = actions[bisect.bisect_right(list(itertools.accumulate(probabilities)), rng.random())]
            else:
                expected = rng.choice(state.legal_actions())
            assert item.action == expected
            state.apply_action(item.action)
        assert state.is_terminal()


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
