"""``hanabi-ref bench perft``: perft's nodes per CPU second, ours beside OpenSpiel walking
the same tree [PF-bench].

Each run is a fresh interpreter that deals the deck of the seed under the ``hle`` preset
and counts perft once (:func:`~hanabi_ref.tools.perft.count.perft`; for OpenSpiel, its
``hanabi`` game dealt the same deck through its chance nodes, ``child(move)`` for every
move, the last level counted in bulk as ours is), and reports
the count, its CPU and wall seconds and whether our contracts were on.  The variants are
run interleaved as ``bench engine`` runs them (B-engine), and every variant's count must
be the same.
"""

from __future__ import annotations

import importlib
import json
import statistics
import sys
import time
from collections.abc import Sequence
from typing import Any, Final

from hanabi_ref.tools.bench.engine import (OPENSPIEL, OURS, BenchError, Variant, _machine, finished, machine_line, measure_in_child,
                                          schedule)

PRESET: Final = "hle"
VARIANTS: Final = (Variant("source-off", OURS, contracts=False), Variant("source-on", OURS, contracts=True))
"""Our count from the sources, contracts off and on (perft walks the engine's functions)."""
PEER: Final = Variant(OPENSPIEL, OPENSPIEL)
RATIOS: Final = (("source-off", OPENSPIEL), ("source-on", OPENSPIEL), ("source-off", "source-on"))
"""The ratios of medians (nodes per CPU second) reported, numerator first."""


# --- in the child interpreter -------------------------------------------------------


def _timed(count: Any) -> dict[str, Any]:
    wall, cpu = time.perf_counter(), time.process_time()
    nodes = count()
    return {"nodes": nodes, "cpu_seconds": time.process_time() - cpu, "wall_seconds": time.perf_counter() - wall}


def measure_ours(players: int, depth: int, seed: int) -> dict[str, Any]:
    """[PF-bench] our count from the deal of ``seed``, timed (the deal not included)."""
    from hanabi_ref.base.contracts import ENABLED
    from hanabi_ref.engine.configs import make_config
    from hanabi_ref.engine.transition import new_game
    from hanabi_ref.tools.perft.count import perft

    state = new_game(make_config(players, preset=PRESET), seed)
    return dict(_timed(lambda: perft(state, depth)), engine="ours", contracts=ENABLED)


def measure_openspiel(players: int, depth: int, seed: int) -> dict[str, Any]:
    """[PF-bench] OpenSpiel's ``hanabi`` walking the same tree: the deck of ``seed``
    dealt through its chance nodes (outcome colour * ranks + rank - 1), every draw the
    deck's next card, ``clone()`` and ``apply_action`` for each move, the last level
    counted in bulk (the deal not timed)."""
    from hanabi_ref.engine.cards import suit_of, value_of
    from hanabi_ref.engine.configs import make_config
    from hanabi_ref.engine.dealing import deck_from_seed

    pyspiel = importlib.import_module("pyspiel")
    config = make_config(players, preset=PRESET)
    game = pyspiel.load_game("hanabi", {"players": players, "hand_size": config.hand_size,
                                        "max_information_tokens": config.max_hints, "max_life_tokens": config.max_errors})
    outcomes = [suit_of(card, config.values) * config.values + value_of(card, config.values) - 1
                for card in deck_from_seed(config, seed)]

    def deal(state: Any, dealt: int) -> int:
        while state.is_chance_node():
            state.apply_action(outcomes[dealt])
            dealt += 1
        return dealt

    def walk(state: Any, dealt: int, left: int) -> int:
        moves = [] if state.is_terminal() else state.legal_actions()
        if left == 1:
            return len(moves)
        total = 0
        for move in moves:
            child = state.child(move)  # clone and apply in one call into OpenSpiel
            total += walk(child, deal(child, dealt), left - 1)
        return total

    root = game.new_initial_state()
    dealt = deal(root, 0)
    return dict(_timed(lambda: 1 if depth == 0 else walk(root, dealt, depth)), engine=OPENSPIEL, contracts=None)


def _child_main(argv: Sequence[str]) -> None:
    engine, players, depth, seed = argv
    measure = measure_openspiel if engine == OPENSPIEL else measure_ours
    print(json.dumps(measure(int(players), int(depth), int(seed))))


# --- in the parent ------------------------------------------------------------------


def run_child(variant: Variant, players: int, depth: int, seed: int) -> dict[str, Any]:
    """One count in a fresh interpreter; checks that it ran as asked [PF-bench]."""
    command = [sys.executable, "-m", "hanabi_ref.tools.bench.perft", variant.engine, str(players), str(depth), str(seed)]
    where = f"{variant.name}, {players} players"
    run = measure_in_child(command, variant, where)
    if variant.engine != OPENSPIEL and run["contracts"] != variant.contracts:
        raise BenchError(f"{where}: the run had contracts={run['contracts']}, not {variant.contracts}")
    run["nodes_per_cpu_second"] = run["nodes"] / max(run["cpu_seconds"], 1e-9)
    run["nodes_per_wall_second"] = run["nodes"] / max(run["wall_seconds"], 1e-9)
    return run


def _summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    summary: dict[str, Any] = {"nodes": runs[0]["nodes"], "runs": runs}
    for clock in ("cpu", "wall"):
        values = [run[f"nodes_per_{clock}_second"] for run in runs]
        summary[f"median_nodes_per_{clock}_second"] = statistics.median(values)
        summary[f"min_nodes_per_{clock}_second"] = min(values)
        summary[f"max_nodes_per_{clock}_second"] = max(values)
    return summary


def bench_perft(players: Sequence[int], depth: int, repeats: int, seed: int, against: bool) -> dict[str, Any]:
    """Interleaved counts of every variant for every player count, and the report [PF-bench]."""
    variants = [*VARIANTS, *([PEER] if against else [])]
    report: dict[str, Any] = {"benchmark": "perft", "rules": PRESET, "players": list(players), "depth": depth,
                              "repeats": repeats, "seed": seed, "clock": "cpu", **_machine(),
                              "variants": [variant.name for variant in variants]}
    report["schedule"] = schedule(report["variants"], players, repeats)
    by_name = {variant.name: variant for variant in variants}
    runs: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for step in report["schedule"]:
        run = dict(run_child(by_name[step["variant"]], step["players"], depth, seed), round=step["round"])
        runs.setdefault((step["players"], step["variant"]), []).append(run)
    report["results"] = []
    for count in players:
        results = {variant.name: _summary(runs[count, variant.name]) for variant in variants}
        counted = {run["nodes"] for summary in results.values() for run in summary["runs"]}
        if len(counted) != 1:
            raise BenchError(f"{count} players: the variants counted differently: {sorted(counted)}")
        key = "median_nodes_per_cpu_second"
        ratios = {f"{top}/{bottom}": results[top][key] / results[bottom][key]
                  for top, bottom in RATIOS if top in results and bottom in results}
        report["results"].append({"players": count, "nodes": counted.pop(), "variants": results, "ratios": ratios})
    return finished(report)


def format_report(report: dict[str, Any]) -> str:
    """The report as a readable table: nodes per CPU second."""
    lines = [
        f"bench perft: {report['rules']} rules, the deal of seed {report['seed']}, depth {report['depth']}, "
        f"{report['repeats']} interleaved runs per variant and player count; nodes per CPU second (median, min..max)",
        machine_line(report),
    ]
    for entry in report["results"]:
        for name, result in entry["variants"].items():
            lines.append(f"  {entry['players']} players  {name:<11} {result['median_nodes_per_cpu_second']:12.0f}"
                         f"  ({result['min_nodes_per_cpu_second']:.0f}..{result['max_nodes_per_cpu_second']:.0f}),"
                         f" {entry['nodes']} nodes")
        ratios = "   ".join(f"{name} {value:.2f}" for name, value in entry["ratios"].items())
        lines.append(f"  {entry['players']} players  ratios: {ratios}")
    return "\n".join(lines)


if __name__ == "__main__":
    _child_main(sys.argv[1:])
