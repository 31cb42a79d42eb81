"""``hanabi-ref bench solver``: the solver's time per deck, and what each of its ideas
does, measured on the same decks [SV-bench] (spec/solver.md)."""

from __future__ import annotations

import statistics
import time
from typing import Any

from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.base.stats import percentile
from hanabi_ref.tools.solver.core import IDEAS
from hanabi_ref.tools.solver.search import solve_deck


def bench_solver(config: GameConfig, rules: str, games: int, first_seed: int, max_nodes: int,
                 ideas: tuple[str, ...] = IDEAS) -> dict[str, Any]:
    """[SV-bench] every deck of seeds first_seed .. + games - 1 solved by the whole solver
    and by the solver without each idea in turn, deck by deck (the variants interleaved,
    so the machine's load falls on all alike), each within ``max_nodes`` positions: per
    variant the decks decided, CPU time per deck (median, 99th percentile, total) and
    positions, and the ratios of its times to the whole solver's."""
    variants = {"all": frozenset[str]()} | {f"without {idea}": frozenset({idea}) for idea in ideas}
    cpu: dict[str, list[float]] = {name: [] for name in variants}
    nodes: dict[str, list[int]] = {name: [] for name in variants}
    answers: dict[str, list[bool | None]] = {name: [] for name in variants}
    for seed in range(first_seed, first_seed + games):
        deck = deck_from_seed(config, seed)
        for name, without in variants.items():
            started = time.process_time()
            solution = solve_deck(config, deck, max_nodes=max_nodes, without=without)
            cpu[name].append(time.process_time() - started)
            nodes[name].append(solution.nodes)
            answers[name].append(solution.reachable)
    for name in variants:  # every idea is exact: a decided deck gets the same answer
        for whole, part in zip(answers["all"], answers[name]):
            if whole is not None and part is not None and whole != part:
                raise AssertionError(f"{name} answered {part} where the whole solver answered {whole}")
    report: dict[str, Any] = {"players": config.players, "rules": rules, "variant": config.variant,
                              "decks": games, "seed": first_seed, "max_nodes": max_nodes, "variants": {}}
    base = cpu["all"]
    for name in variants:
        times = sorted(cpu[name])
        decided = sum(answer is not None for answer in answers[name])
        report["variants"][name] = {
            "decided": decided, "undecided": games - decided,
            "median_ms": 1000 * statistics.median(times), "p99_ms": 1000 * percentile(times, 0.99),
            "total_cpu_s": sum(times), "median_nodes": statistics.median(nodes[name]), "total_nodes": sum(nodes[name]),
            "median_ratio": statistics.median(times) / max(statistics.median(sorted(base)), 1e-9),
            "total_ratio": sum(times) / max(sum(base), 1e-9),
        }
    return report


def format_report(report: dict[str, Any]) -> str:
    """The report as a table, one line per variant."""
    lines = [f"solver, {report['players']} players, {report['rules']} rules, {report['variant']}: {report['decks']} decks "
             f"(seeds {report['seed']}..{report['seed'] + report['decks'] - 1}), budget {report['max_nodes']:,} "
             f"positions; CPU time per deck",
             f"{'variant':<18}{'decided':>9}{'median ms':>11}{'p99 ms':>10}{'total s':>9}{'x total':>9}{'positions':>12}"]
    for name, row in report["variants"].items():
        lines.append(f"{name:<18}{row['decided']:>9}{row['median_ms']:>11.2f}{row['p99_ms']:>10.1f}"
                     f"{row['total_cpu_s']:>9.2f}{row['total_ratio']:>9.2f}{row['total_nodes']:>12,}")
    return "\n".join(lines)
