"""``hanabi-ref bench``: speed, measured honestly [B-engine, PL-bench].

``bench engine`` plays whole games of uniformly random legal moves.  Every measurement
runs in a fresh interpreter started for it, which reports its moves, games, CPU seconds
(``time.process_time``) and wall seconds, and, for our engine, whether its contracts were
on and whether the engine modules really came from the compiled build.  The headline is
the public API, :class:`~hanabi_ref.api.Game`, as users call it; the engine's internal
trusted path (``internal-off``) and its checked functions (``checked-off``) are shown
beside it.  Each peer is driven by its cheapest correct loop: OpenSpiel's chance nodes by
one uniform number and a cumulative scan of their outcomes
(:func:`~hanabi_ref.base.stats.outcome_at`), its player and chance nodes told apart by one
``current_player()`` call.  The variants
(:data:`VARIANTS`, plus the peer ``openspiel`` with ``--against openspiel``) are
interleaved: round r runs every variant once for every player count, in an order that
rotates from round to round, so a change in the machine's load falls on all of them
alike.  The report gives, per variant and player count, the median, minimum and maximum
moves per CPU second and per wall second over the runs, every run, the ratios of the
medians, and the machine's load average before and after the runs.
"""

from __future__ import annotations

import importlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any, Final

import attrs

from hanabi_ref.base.stats import outcome_at

OURS: Final = "ours"
"""The child engine that plays through the engine's internal trusted path (``apply_legal``)."""
FACADE: Final = "facade"
"""The child engine that plays through the public API, :class:`~hanabi_ref.api.Game`."""
CHECKED: Final = "checked"
"""The child engine that plays through the engine's public functions (``apply`` checks again)."""
OPENSPIEL: Final = "openspiel"
PEERS: Final = (OPENSPIEL,)
OUR_GAME: Final = "game:hanabi_ref"
NATIVE_GAME: Final = "game:hanabi"
"""[RL-os-bench] the child engines that play random games through OpenSpiel's API: our
engine registered as the OpenSpiel game ``hanabi_ref``, and OpenSpiel's own ``hanabi``."""
CONTRACTS_VARIABLE: Final = "HANABI_REF_CONTRACTS"
COMPILED_VARIABLE: Final = "HANABI_REF_COMPILED"


class BenchError(Exception):
    """A measurement failed or did not run as asked; the message is one line."""


@attrs.frozen
class Variant:
    """One thing measured: an engine and, for ours, its contracts and build [B-engine]."""

    name: str
    engine: str
    contracts: bool = False
    compiled: bool = False

    def environment(self) -> dict[str, str]:
        """The switches the child interpreter starts with (set explicitly, never inherited)."""
        return {
            CONTRACTS_VARIABLE: "1" if self.contracts else "0",
            COMPILED_VARIABLE: "1" if self.compiled else "0",
        }


SOURCE_OFF: Final = Variant("source-off", FACADE, contracts=False, compiled=False)
SOURCE_ON: Final = Variant("source-on", FACADE, contracts=True, compiled=False)
COMPILED_OFF: Final = Variant("compiled-off", FACADE, contracts=False, compiled=True)
INTERNAL_OFF: Final = Variant("internal-off", OURS, contracts=False, compiled=False)
CHECKED_OFF: Final = Variant("checked-off", CHECKED, contracts=False, compiled=False)
PEER_VARIANTS: Final = {OPENSPIEL: Variant(OPENSPIEL, OPENSPIEL)}
VARIANTS: Final = (SOURCE_OFF, INTERNAL_OFF, CHECKED_OFF, SOURCE_ON, COMPILED_OFF)
"""[B-engine] ``source-off``, ``source-on`` and ``compiled-off`` play through the public
API (:class:`~hanabi_ref.api.Game`); ``internal-off`` and ``checked-off`` through the
engine's functions."""
HEADLINE: Final = SOURCE_OFF.name
"""[B-engine] the row the report leads with: the public API from the sources, contracts off."""
PATHS: Final = {FACADE: "Game API", OURS: "internal apply_legal", CHECKED: "legal_actions + apply",
                OPENSPIEL: "pyspiel"}
"""How each child engine applies its moves, as the report names it."""
GAME_VARIANTS: Final = (Variant("hanabi_ref-off", OUR_GAME, contracts=False),
                        Variant("hanabi_ref-on", OUR_GAME, contracts=True), Variant("openspiel-hanabi", NATIVE_GAME))
"""[RL-os-bench] the variants of ``bench openspiel-game``."""

RATIOS: Final = (
    ("source-off", OPENSPIEL),
    ("compiled-off", OPENSPIEL),
    ("source-on", OPENSPIEL),
    ("internal-off", OPENSPIEL),
    ("source-off", "source-on"),
    ("compiled-off", "source-off"),
    ("source-off", "checked-off"),
    ("source-off", "internal-off"),
)
"""The ratios of medians (moves per CPU second) reported, numerator first."""


# --- in the child interpreter -------------------------------------------------------


def _timed_games(play_one: Any, seconds: float) -> dict[str, Any]:
    """Call ``play_one(game_index) -> moves`` for whole games until ``seconds`` of CPU time
    are spent; count moves, games, CPU and wall seconds."""
    moves = games = 0
    wall_start, cpu_start = time.perf_counter(), time.process_time()
    while time.process_time() - cpu_start < seconds:
        moves += play_one(games)
        games += 1
    return {
        "moves": moves,
        "games": games,
        "cpu_seconds": time.process_time() - cpu_start,
        "wall_seconds": time.perf_counter() - wall_start,
    }


def measure_ours(players: int, preset: str, seconds: float, seed: int, *, checked: bool = False) -> dict[str, Any]:
    """Random legal games of our engine through its functions for ``seconds`` of CPU time,
    and whether this process runs with contracts and the compiled build.

    Decks come from D-seed (our own dealing is part of what is measured, as OpenSpiel's
    chance nodes are on its side); the moves are chosen by Python's ``random`` as on
    OpenSpiel's side, and applied through the engine's internal trusted path for actions
    taken from the legal list (:func:`~hanabi_ref.engine.transition.apply_legal`,
    ``internal-off``, a secondary row).  ``checked``: applied through
    :func:`~hanabi_ref.engine.transition.apply` instead, which decides legality again, as a
    caller of the public transition function does (``checked-off``, API-cost)."""
    from hanabi_ref.engine.legality import legal_actions
    from hanabi_ref.engine.configs import make_config
    from hanabi_ref.engine.transition import apply, apply_legal, new_game

    config = make_config(players, preset=preset)
    rng = random.Random(seed)
    move = apply if checked else apply_legal

    def play_one(game: int) -> int:
        state, moves = new_game(config, seed + game), 0
        while not state.terminal:
            state = move(state, rng.choice(legal_actions(state)))
            moves += 1
        return moves

    return _engine_run(_timed_games(play_one, seconds), CHECKED if checked else OURS)


def measure_facade(players: int, preset: str, seconds: float, seed: int) -> dict[str, Any]:
    """:func:`measure_ours` through the public API [B-engine, API-cost], the headline's
    path (``source-off``, ``source-on``, ``compiled-off``): the same decks and the same
    random choices, so the same games, played as a user of :class:`~hanabi_ref.api.Game`
    plays them (``g.apply(rng.choice(g.legal_actions()))``)."""
    from hanabi_ref.api import Config, Game

    config = Config.preset(preset, players=players)
    rng = random.Random(seed)

    def play_one(game: int) -> int:
        position, moves = Game.new(config, seed + game), 0
        while not position.terminal:
            position = position.apply(rng.choice(position.legal_actions()))
            moves += 1
        return moves

    return _engine_run(_timed_games(play_one, seconds), FACADE)


def _engine_run(result: dict[str, Any], engine: str) -> dict[str, Any]:
    """A run of our engine (directly or through the facade) with the switches it ran
    under: whether this process has contracts on and runs the engine modules compiled."""
    from hanabi_ref.tools.compiled import ENGINE_MODULES, is_compiled
    from hanabi_ref.base.contracts import ENABLED

    modules = {name: is_compiled(sys.modules[name]) for name in ENGINE_MODULES if name in sys.modules}
    return dict(result, engine=engine, contracts=ENABLED, compiled=bool(modules) and all(modules.values()),
                compiled_modules=modules)


CHANCE_PLAYER: Final = -1
"""OpenSpiel's ``current_player()`` at a chance node (``pyspiel.PlayerId.CHANCE``); it is
below 0 at a terminal state too, at or above 0 at a player's node."""


def play_openspiel_game(game: Any, rng: random.Random) -> tuple[int, Any]:
    """One game of OpenSpiel's Hanabi with uniformly random legal moves; chance nodes (the
    deal and every draw) are sampled from their outcomes by
    :func:`~hanabi_ref.base.stats.outcome_at` and are not moves.  Returns the players' moves and the terminal state."""
    state, moves = game.new_initial_state(), 0
    while True:
        player = state.current_player()
        if player >= 0:
            state.apply_action(rng.choice(state.legal_actions()))
            moves += 1
        elif player == CHANCE_PLAYER:
            state.apply_action(outcome_at(state.chance_outcomes(), rng.random()))
        else:
            return moves, state


def measure_openspiel(players: int, seconds: float, seed: int) -> dict[str, Any]:
    """Random legal games of OpenSpiel's ``hanabi`` (the HLE rules) for ``seconds`` of CPU time."""
    pyspiel = importlib.import_module("pyspiel")
    game = pyspiel.load_game("hanabi", {"players": players})
    rng = random.Random(seed)
    result = _timed_games(lambda _: play_openspiel_game(game, rng)[0], seconds)
    return dict(result, engine=OPENSPIEL, contracts=None, compiled=None, compiled_modules={})


def measure_openspiel_game(name: str, players: int, seconds: float, seed: int) -> dict[str, Any]:
    """[RL-os-bench] random games of the OpenSpiel game ``name`` (``hanabi_ref`` under ``hle``,
    or ``hanabi``) through OpenSpiel's API for ``seconds`` of CPU time: chance outcomes by
    :func:`~hanabi_ref.base.stats.outcome_at`, moves uniformly from ``legal_actions()``; ``steps`` counts
    both, ``moves`` the players' moves."""
    pyspiel = importlib.import_module("pyspiel")
    parameters: dict[str, Any] = {"players": players}
    if name == "hanabi_ref":
        importlib.import_module("hanabi_ref.tools.rl.openspiel_game")  # registers the game
        parameters["rules"] = "hle"
    game = pyspiel.load_game(name, parameters)
    rng = random.Random(seed)
    counted = {"moves": 0}

    def play_one(_: int) -> int:
        state, steps = game.new_initial_state(), 0
        while True:
            player = state.current_player()
            if player >= 0:
                state.apply_action(rng.choice(state.legal_actions()))
                counted["moves"] += 1
            elif player == CHANCE_PLAYER:
                state.apply_action(outcome_at(state.chance_outcomes(), rng.random()))
            else:
                return steps
            steps += 1

    result = _timed_games(play_one, seconds)
    result = dict(result, steps=result["moves"], moves=counted["moves"])
    if name == "hanabi_ref":
        return _engine_run(result, OUR_GAME)
    return dict(result, engine=NATIVE_GAME, contracts=None, compiled=None, compiled_modules={})


STRATEGY_PREFIX: Final = "strategy="
"""A child's engine argument ``strategy=NAME`` measures whole games of that strategy [B-strategy]."""


def measure_strategy(name: str, players: int, preset: str, seconds: float, seed: int) -> dict[str, Any]:
    """Whole games of strategy ``name`` (game i dealt from seed + i) for ``seconds`` of CPU
    time, and whether the strategy's modules and the engine came from the compiled build
    [B-strategy]."""
    from hanabi_ref.tools.compiled import MODULES, is_compiled
    from hanabi_ref.base.contracts import ENABLED
    from hanabi_ref.players.runner import play_game
    from hanabi_ref.engine.configs import make_config
    from hanabi_ref.players.strategies import factory_for
    from hanabi_ref.engine.view import ViewMaker

    config = make_config(players, preset=preset)
    factory = factory_for(name)

    views = ViewMaker(config)  # as simulate's chunks do [ISO-views]

    def play_one(game: int) -> int:
        return len(play_game(config, factory, seed=seed + game, views=views).trace.actions)

    result = _timed_games(play_one, seconds)
    modules = {module: is_compiled(sys.modules[module]) for module in MODULES if module in sys.modules}
    return dict(result, engine=f"{STRATEGY_PREFIX}{name}", contracts=ENABLED,
                compiled=bool(modules) and all(modules.values()), compiled_modules=modules)


def _child_main(argv: Sequence[str]) -> None:
    engine, players, preset, seconds, seed = argv
    if engine.startswith(STRATEGY_PREFIX):
        result = measure_strategy(engine[len(STRATEGY_PREFIX):], int(players), preset, float(seconds), int(seed))
    elif engine == OPENSPIEL:
        result = measure_openspiel(int(players), float(seconds), int(seed))
    elif engine in (OUR_GAME, NATIVE_GAME):
        result = measure_openspiel_game(engine.partition(":")[2], int(players), float(seconds), int(seed))
    elif engine == CHECKED:
        result = measure_ours(int(players), preset, float(seconds), int(seed), checked=True)
    elif engine == FACADE:
        result = measure_facade(int(players), preset, float(seconds), int(seed))
    else:
        result = measure_ours(int(players), preset, float(seconds), int(seed))
    print(json.dumps(result))


# --- in the parent ------------------------------------------------------------------


def measure_in_child(command: list[str], variant: Variant, where: str) -> dict[str, Any]:
    """[B-engine] ``command`` run in a fresh interpreter with the variant's environment;
    its one JSON line, or :class:`BenchError` naming ``where`` and the child's last line."""
    done = subprocess.run(command, env=dict(os.environ, **variant.environment()), capture_output=True, text=True)
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        raise BenchError(f"{where}: the measuring process failed: {lines[-1] if lines else done.returncode}")
    run: dict[str, Any] = json.loads(done.stdout)
    return run


def run_child(variant: Variant, players: int, preset: str, seconds: float, seed: int) -> dict[str, Any]:
    """One measurement in a fresh interpreter; checks that it ran as asked [B-engine]."""
    command = [sys.executable, "-m", "hanabi_ref.tools.bench.engine", variant.engine, str(players), preset, repr(seconds), str(seed)]
    where = f"{variant.name}, {players} players"
    run = measure_in_child(command, variant, where)
    if variant.engine not in (OPENSPIEL, NATIVE_GAME) and (run["contracts"], run["compiled"]) != (variant.contracts, variant.compiled):
        raise BenchError(f"{where}: the run had contracts={run['contracts']} compiled={run['compiled']}, "
                         f"not contracts={variant.contracts} compiled={variant.compiled}")
    run["moves_per_cpu_second"] = run["moves"] / run["cpu_seconds"]
    run["moves_per_wall_second"] = run["moves"] / run["wall_seconds"]
    run["games_per_cpu_second"] = run["games"] / run["cpu_seconds"]
    run["games_per_wall_second"] = run["games"] / run["wall_seconds"]
    if "steps" in run:
        run["steps_per_cpu_second"] = run["steps"] / run["cpu_seconds"]
        run["steps_per_wall_second"] = run["steps"] / run["wall_seconds"]
    return run


def schedule(variants: Sequence[str], players: Sequence[int], repeats: int) -> list[dict[str, Any]]:
    """The interleaved order of the runs: round r runs every variant once for each player
    count, the variants rotated by r places."""
    order = []
    for round_ in range(repeats):
        shift = round_ % len(variants)
        for count in players:
            for name in (*variants[shift:], *variants[:shift]):
                order.append({"round": round_, "players": count, "variant": name})
    return order


def _summary(runs: list[dict[str, Any]], unit: str = "moves") -> dict[str, Any]:
    """Median, minimum and maximum ``unit`` (moves or games) per CPU and per wall second,
    totals and every run."""
    summary: dict[str, Any] = {"status": "measured"}
    for clock in ("cpu", "wall"):
        values = [run[f"{unit}_per_{clock}_second"] for run in runs]
        summary[f"median_{unit}_per_{clock}_second"] = statistics.median(values)
        summary[f"min_{unit}_per_{clock}_second"] = min(values)
        summary[f"max_{unit}_per_{clock}_second"] = max(values)
    for total in ("moves", "games", "cpu_seconds", "wall_seconds", "steps"):
        if total in runs[0]:
            summary[total] = sum(run[total] for run in runs)
    summary["contracts"], summary["compiled"] = runs[0]["contracts"], runs[0]["compiled"]
    summary["runs"] = runs
    return summary


def _ratios(results: dict[str, Any]) -> dict[str, float]:
    key = "median_moves_per_cpu_second"
    return {
        f"{top}/{bottom}": results[top][key] / results[bottom][key]
        for top, bottom in RATIOS
        if results.get(top, {}).get("status") == "measured" and results.get(bottom, {}).get("status") == "measured"
    }


def load_average() -> list[float] | None:
    """[B-engine] the machine's load average over 1, 5 and 15 minutes, or None where the
    system does not tell."""
    try:
        return [round(value, 2) for value in os.getloadavg()]
    except (AttributeError, OSError):
        return None


def _machine() -> dict[str, Any]:
    """[B-engine] the Python version, the CPU count, the CPUs this process may use, and the
    load average now (``load_average_at_start``; :func:`finished` adds the one at the end)."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return {"python": sys.version.split()[0], "cpu_count": os.cpu_count(), "cpus_usable": usable,
            "load_average_at_start": load_average()}


def finished(report: dict[str, Any]) -> dict[str, Any]:
    """[B-engine] ``report`` with the load average once the last run has ended."""
    report["load_average_at_end"] = load_average()
    return report


def machine_line(report: dict[str, Any]) -> str:
    """[B-engine] the machine as a report's text says it: Python, CPUs and the load
    average (1, 5 and 15 minutes) at the start and at the end of the runs."""

    def load(key: str) -> str:
        value = report.get(key)
        return "/".join(f"{part:.2f}" for part in value) if value else "unknown"

    return (f"python {report['python']}, {report['cpu_count']} CPUs ({report['cpus_usable']} usable), load average "
            f"(1/5/15 min) {load('load_average_at_start')} at start, {load('load_average_at_end')} at end")


def compiled_build() -> dict[str, Any]:
    """Whether a complete compiled build of these sources exists (hashes the sources)."""
    from hanabi_ref.tools import compiled

    built = compiled.find_build(compiled.MODULES) is not None
    return {"built": built, "build": str(compiled.cache_root() / compiled.build_key()),
            "build_command": compiled.BUILD_COMMAND}


def bench_engine(
    players: Sequence[int], preset: str, seconds: float, repeats: int, seed: int, against: str | None = None
) -> dict[str, Any]:
    """Interleaved runs of every variant for every player count, and the report [B-engine]."""
    report: dict[str, Any] = {"benchmark": "engine", "rules": preset, "players": list(players),
                              "seconds_per_run": seconds, "clock_of_runs": "cpu", "repeats": repeats, "seed": seed,
                              "against": against, **_machine(), "compiled_build": compiled_build(),
                              "headline": HEADLINE, "paths": {}}
    shown = [*VARIANTS, *([PEER_VARIANTS[against]] if against is not None else [])]
    report["paths"] = {variant.name: PATHS[variant.engine] for variant in shown}
    report["results"] = []
    for count, results in _run_interleaved(report, shown, players, preset, seconds, seed, "moves"):
        report["results"].append({"players": count, "variants": results, "ratios": _ratios(results)})
    return finished(report)


def _run_interleaved(report: dict[str, Any], shown: Sequence[Variant], players: Sequence[int], preset: str,
                     seconds: float, seed: int, unit: str) -> list[tuple[int, dict[str, Any]]]:
    """Run the variants of ``shown`` (``compiled-off`` only if built) in the interleaved
    schedule, recording ``variants`` and ``schedule`` in ``report``; per player count,
    each shown variant's summary of ``unit`` per second, or "not built" [B-engine,
    B-strategy]."""
    built = report["compiled_build"]["built"]
    variants = [v for v in shown if v.name != COMPILED_OFF.name or built]
    report["variants"] = [variant.name for variant in variants]
    report["schedule"] = schedule(report["variants"], players, report["repeats"])
    by_name = {variant.name: variant for variant in variants}
    runs: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for step in report["schedule"]:
        run = dict(run_child(by_name[step["variant"]], step["players"], preset, seconds, seed), round=step["round"])
        runs.setdefault((step["players"], step["variant"]), []).append(run)
    not_built = {"status": "not built", "build_command": report["compiled_build"]["build_command"]}
    return [(count, {v.name: _summary(runs[count, v.name], unit) if v.name in by_name else dict(not_built) for v in shown})
            for count in players]


def bench_strategy(name: str, players: Sequence[int], preset: str, seconds: float, repeats: int, seed: int) -> dict[str, Any]:
    """Interleaved runs of a strategy's whole games from the sources and from the compiled
    build (if built), contracts off, and the report [B-strategy]."""
    report: dict[str, Any] = {"benchmark": "strategy", "strategy": name, "rules": preset, "players": list(players),
                              "seconds_per_run": seconds, "clock_of_runs": "cpu", "repeats": repeats, "seed": seed,
                              **_machine(), "compiled_build": compiled_build()}
    engine = f"{STRATEGY_PREFIX}{name}"
    shown = [attrs.evolve(SOURCE_OFF, engine=engine), attrs.evolve(COMPILED_OFF, engine=engine)]
    report["results"] = []
    for count, results in _run_interleaved(report, shown, players, preset, seconds, seed, "games"):
        ratios = {}
        if all(results[v.name].get("status") == "measured" for v in shown):
            key = "median_games_per_cpu_second"
            ratios["compiled-off/source-off"] = results[COMPILED_OFF.name][key] / results[SOURCE_OFF.name][key]
        report["results"].append({"players": count, "variants": results, "ratios": ratios})
    return finished(report)


def bench_openspiel_game(players: Sequence[int], seconds: float, repeats: int, seed: int) -> dict[str, Any]:
    """[RL-os-bench] interleaved runs of random games through OpenSpiel's API: our engine as
    the game ``hanabi_ref`` (``hle``, contracts off and on) and OpenSpiel's ``hanabi``."""
    report: dict[str, Any] = {"benchmark": "openspiel-game", "rules": "hle", "players": list(players),
                              "seconds_per_run": seconds, "clock_of_runs": "cpu", "repeats": repeats, "seed": seed,
                              "unit": "steps: chance outcomes and moves applied", **_machine(),
                              "compiled_build": {"built": False, "build_command": ""}}
    report["results"] = []
    key = "median_steps_per_cpu_second"
    for count, results in _run_interleaved(report, GAME_VARIANTS, players, "hle", seconds, seed, "steps"):
        native = results["openspiel-hanabi"][key]
        ratios = {f"{name}/openspiel-hanabi": results[name][key] / native for name in ("hanabi_ref-off", "hanabi_ref-on")}
        report["results"].append({"players": count, "variants": results, "ratios": ratios})
    return finished(report)


def format_openspiel_game_report(report: dict[str, Any]) -> str:
    """[RL-os-bench] the report as a readable table: steps per CPU second."""
    lines = [
        f"bench openspiel-game: random games through OpenSpiel's API (hle), {report['repeats']} interleaved runs of "
        f"{report['seconds_per_run']:g} CPU s per variant and player count; steps = chance outcomes and moves applied",
        machine_line(report),
    ]
    for entry in report["results"]:
        for name, result in entry["variants"].items():
            runs = " ".join(f"{run['steps_per_cpu_second']:.0f}" for run in result["runs"])
            lines.append(f"  {entry['players']} players  {name:<17} {result['median_steps_per_cpu_second']:9.0f} "
                         f"steps/CPU s ({result['min_steps_per_cpu_second']:.0f}..{result['max_steps_per_cpu_second']:.0f})"
                         f", {statistics.median(run['moves_per_cpu_second'] for run in result['runs']):.0f} moves/CPU s, "
                         f"{result['games']} games; "
                         f"runs {runs}")
        for ratio, value in entry["ratios"].items():
            lines.append(f"  {entry['players']} players  {ratio}: {value:.3f}x")
    return "\n".join(lines)


def format_strategy_report(report: dict[str, Any]) -> str:
    """The strategy report as a readable table: games per CPU second."""
    lines = [
        f"bench strategy: {report['strategy']}, {report['rules']} rules, {report['repeats']} interleaved runs of "
        f"{report['seconds_per_run']:g} CPU s per variant, contracts off; games per CPU second (median, min..max)",
        machine_line(report),
    ]
    for entry in report["results"]:
        for name, result in entry["variants"].items():
            if result["status"] != "measured":
                lines.append(f"  {entry['players']} players  {name:<13} not built ({result['build_command']})")
                continue
            lines.append(f"  {entry['players']} players  {name:<13} {result['median_games_per_cpu_second']:8.1f}"
                         f"  ({result['min_games_per_cpu_second']:.1f}..{result['max_games_per_cpu_second']:.1f}),"
                         f" {result['games']} games")
        for ratio, value in entry["ratios"].items():
            lines.append(f"  {entry['players']} players  {ratio}: {value:.2f}x")
    return "\n".join(lines)


def format_engine_report(report: dict[str, Any]) -> str:
    """The report as a readable table, led by the public API's row against OpenSpiel."""
    build = report["compiled_build"]
    lines = [
        f"bench engine: {report['rules']} rules, uniformly random legal moves, {report['repeats']} interleaved "
        f"runs of {report['seconds_per_run']:g} CPU s per variant and player count",
        machine_line(report) + ", compiled build "
        + ("built" if build["built"] else f"not built (build it with: {build['build_command']})"),
        *_headline(report),
        "",
        f"{'players':<8}{'variant':<14}{'path':<23}{'contracts':<10}{'compiled':<9}{'moves/CPU s':>12}{'min..max':>20}"
        f"{'moves/wall s':>13}{'min..max':>20}{'games':>8}{'moves':>10}   runs (moves/CPU s)",
    ]
    for entry in report["results"]:
        for name, result in entry["variants"].items():
            lines.append(_row(entry["players"], name, report["paths"][name], result))
    lines += ["", "ratios of the medians of moves per CPU second"]
    for entry in report["results"]:
        ratios = "   ".join(f"{name} {value:.2f}" for name, value in entry["ratios"].items())
        lines.append(f"{entry['players']} players   {ratios or '(none)'}")
    return "\n".join(lines)


def _headline(report: dict[str, Any]) -> list[str]:
    """[B-engine] the headline: the public API from the sources with contracts off, per
    player count, and its ratio to OpenSpiel's median where OpenSpiel ran."""
    name = report["headline"]
    lines = [f"headline: {name}, the public API ({report['paths'][name]}) from the sources, contracts off; "
             "median moves per CPU second"]
    for entry in report["results"]:
        against = entry["ratios"].get(f"{name}/{OPENSPIEL}")
        lines.append(f"  {entry['players']} players  {entry['variants'][name]['median_moves_per_cpu_second']:.0f}"
                     + ("" if against is None else f" = {against:.2f}x OpenSpiel"))
    return lines


def _row(players: int, name: str, path: str, result: dict[str, Any]) -> str:
    if result["status"] != "measured":
        return (f"{players:<8}{name:<14}{path:<23}{'off':<10}{'-':<9}{result['status']} "
                f"(build it with: {result['build_command']})")

    def switch(value: bool | None, on: str, off: str) -> str:
        return "-" if value is None else on if value else off

    cells = [f"{players:<8}{name:<14}{path:<23}{switch(result['contracts'], 'on', 'off'):<10}"
             f"{switch(result['compiled'], 'yes', 'no'):<9}"]
    for clock in ("cpu", "wall"):
        spread = f"{result[f'min_moves_per_{clock}_second']:.0f}..{result[f'max_moves_per_{clock}_second']:.0f}"
        cells.append(f"{result[f'median_moves_per_{clock}_second']:>{12 if clock == 'cpu' else 13}.0f}{spread:>20}")
    runs = " ".join(f"{run['moves_per_cpu_second']:.0f}" for run in result["runs"])
    cells.append(f"{result['games']:>8}{result['moves']:>10}   {runs}")
    return "".join(cells)


def bench_playability_table(repeats: int) -> dict[str, Any]:
    """Wall and CPU seconds to compute the whole of Appendix A from scratch, one core
    [PL-bench, PL-table].  Each run builds fresh memo tables, so no run profits from an
    earlier one."""
    from hanabi_ref.tools.playability.table import appendix_a

    machine = _machine()
    wall, cpu = [], []
    for _ in range(repeats):
        wall_start, cpu_start = time.perf_counter(), time.process_time()
        rows = appendix_a()
        wall.append(time.perf_counter() - wall_start)
        cpu.append(time.process_time() - cpu_start)
        if len(rows) != 126:
            raise BenchError(f"Appendix A has 126 rows, the computation gave {len(rows)}")
    return {"runs_seconds": wall, "median_seconds": statistics.median(wall), "runs_cpu_seconds": cpu,
            "median_cpu_seconds": statistics.median(cpu), "rows": 126, "hand_sizes": 5, **machine,
            "load_average_at_end": load_average()}


if __name__ == "__main__":
    _child_main(sys.argv[1:])
