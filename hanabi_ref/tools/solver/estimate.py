"""``hanabi-ref solve``: how many seeded decks of a configuration can reach the maximum
score in the open game [SV-estimate] (spec/solver.md).

Ctrl-C, SIGTERM and SIGHUP stop a run as they stop ``simulate``: its worker processes are
killed, one line goes to standard error, the exit code is 130, 143 or 129, and ``--out``
is not written [SV-signals].
"""

from __future__ import annotations

import json
import statistics
import sys
import time
from collections import deque
from collections.abc import Generator, Iterator, Sequence
from concurrent.futures import Future
from typing import Any, Final

import attrs

from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.base.signals import Stopped, exit_now, signals_held, signals_stop_run
from hanabi_ref.tools.sim.executors import worker_pool
from hanabi_ref.base.stats import percentile, wilson_interval
from hanabi_ref.tools.solver.search import best_below, solve_deck
from hanabi_ref.engine.tables import tables_for


@attrs.frozen
class DeckResult:
    """One deck's answer: True (winnable, its line replayed by the engine), False (the
    search completed) or None (undecided); positions searched; CPU seconds."""

    seed: int
    winnable: bool | None
    nodes: int
    cpu_seconds: float
    reason: str | None
    best: int | None = None
    """the best reachable score (SV-best): the maximum for a winnable deck; for a lost
    one the highest lower target reached; None when a search on the way was undecided"""
    bots: tuple[bool, ...] = ()
    """for each strategy of ``--against``, whether it played this deck perfectly"""


def solve_seed(config: GameConfig, seed: int, max_nodes: int, seconds: float | None = None,
               against: tuple[str, ...] = ()) -> DeckResult:
    """[SV-estimate] the deck of ``seed`` solved within ``max_nodes`` positions (and
    ``seconds`` of wall time per search, if given); a winning line is replayed by the
    engine before it counts.  ``against``: strategies that also play the deck (their
    games are not timed)."""
    deck = deck_from_seed(config, seed)
    bots = tuple(_perfect(config, name, seed) for name in against)
    started = time.process_time()
    solution = solve_deck(config, deck, max_nodes=max_nodes, seconds=seconds)  # a line it returns is replayed
    best: int | None = tables_for(config).max_score if solution.reachable else None
    nodes = solution.nodes
    if solution.reachable is False:
        best, _, below = best_below(config, deck, max_nodes, seconds)
        nodes += below
    return DeckResult(seed, solution.reachable, nodes, time.process_time() - started, solution.reason, best, bots)


def _perfect(config: GameConfig, strategy: str, seed: int) -> bool:
    """[SV-against] whether ``strategy`` plays the deck of ``seed`` to the maximum (the
    game ``simulate`` plays for that seed)."""
    from hanabi_ref.players.runner import play_game
    from hanabi_ref.players.strategies import factory_for

    return play_game(config, factory_for(strategy), seed=seed).score == tables_for(config).max_score


Task = tuple[GameConfig, int, int, "float | None", tuple[str, ...]]


def _solve_one(task: Task) -> DeckResult:
    return solve_seed(*task)


def solve_seeds(config: GameConfig, seeds: range, max_nodes: int, jobs: int,
                scheduler: str | None = None, seconds: float | None = None,
                against: tuple[str, ...] = ()) -> Generator[DeckResult, None, None]:
    """The decks' results in seed order, on ``jobs`` worker processes or, given a
    ``scheduler`` address, as tasks of a dask.distributed cluster (the same results for
    any ``jobs`` and either executor: the budget is counted in positions, not in
    seconds)."""
    tasks: list[Task] = [(config, seed, max_nodes, seconds, against) for seed in seeds]
    if scheduler is not None:
        yield from _solve_on_dask(scheduler, tasks)
        return
    if jobs <= 1:
        yield from map(_solve_one, tasks)
        return
    yield from _solve_in_pool(tasks, jobs)


IN_FLIGHT: Final = 4
"""Decks given to each worker ahead of the one it solves."""


def _solve_in_pool(tasks: Sequence[Task], jobs: int) -> Iterator[DeckResult]:
    """[SV-estimate, SV-signals] the decks' results in seed order, solved by ``jobs``
    worker processes (the simulations' pool: a worker dies with this process, and an
    abandoned run, closed or interrupted, kills them all)."""
    with worker_pool(min(jobs, len(tasks))) as pool:
        waiting = iter(tasks)
        pending: deque[Future[DeckResult]] = deque()
        for task in waiting:
            pending.append(pool.submit(_solve_one, task))
            if len(pending) >= IN_FLIGHT * jobs:
                break
        while pending:
            result = pending.popleft().result()
            for task in waiting:
                pending.append(pool.submit(_solve_one, task))
                break
            yield result


def _solve_on_dask(scheduler: str, tasks: list[Task]) -> Iterator[DeckResult]:
    """[SV-estimate] the decks as tasks of the dask cluster at ``scheduler`` (one line,
    exit 2, when it cannot be reached: the simulations' own connection check)."""
    from hanabi_ref.tools.sim.executors import connect_dask

    executor = connect_dask(scheduler)
    try:
        futures = executor.client.map(_solve_one, tasks, pure=False)
        for future in futures:
            result: DeckResult = future.result()
            yield result
    finally:
        executor.close()


def summary(config: GameConfig, rules: str, first_seed: int, max_nodes: int, results: list[DeckResult],
            against: tuple[str, ...] = ()) -> dict[str, Any]:
    """[SV-estimate] the run's summary: counts, the winnable fraction with its 95 %
    interval (Wilson) over all decks, the decided fraction, positions and CPU time per
    deck (median and 99th percentile), and the slowest decks."""
    total = len(results)
    won = sum(result.winnable is True for result in results)
    lost = sum(result.winnable is False for result in results)
    undecided = total - won - lost
    low, high = wilson_interval(won, total)
    times = sorted(result.cpu_seconds for result in results)
    slowest = sorted(results, key=lambda result: (-result.nodes, result.seed))[:5]
    return {
        "players": config.players, "rules": rules, "variant": config.variant, "hand_size": config.hand_size,
        "decks": total, "seed": first_seed, "max_nodes": max_nodes,
        "winnable": won, "lost": lost, "undecided": undecided,
        "winnable_fraction": won / total, "winnable_ci95": [low, high],
        "decided_fraction": (won + lost) / total,
        "cheap_reasons": sum(result.reason is not None for result in results),
        "median_cpu_seconds": statistics.median(times),
        "p99_cpu_seconds": percentile(times, 0.99),
        "median_nodes": statistics.median(result.nodes for result in results),
        "slowest": [{"seed": result.seed, "nodes": result.nodes, "cpu_seconds": round(result.cpu_seconds, 4),
                     "winnable": result.winnable} for result in slowest],
        "undecided_seeds": [result.seed for result in results if result.winnable is None],
        "lost_seeds": [result.seed for result in results if result.winnable is False],
        "best_of_lost": {str(result.seed): result.best for result in results if result.winnable is False},
        "best_scores": {str(best): sum(result.best == best for result in results)
                        for best in sorted({result.best for result in results if result.best is not None}, reverse=True)},
        "best_unknown": sum(result.best is None for result in results),
        "against": {name: _against(results, index, won, total) for index, name in enumerate(against)},
    }


def _against(results: list[DeckResult], index: int, winnable: int, total: int) -> dict[str, Any]:
    """[SV-against] one strategy's perfect games on the same decks: their count and
    fraction with its 95 % interval, the gap to the winnable fraction, and the decks it
    won that the solver did not find winnable (lost: a contradiction; undecided)."""
    perfect = [result for result in results if result.bots[index]]
    low, high = wilson_interval(len(perfect), total)
    return {"perfect": len(perfect), "perfect_fraction": len(perfect) / total, "perfect_ci95": [low, high],
            "gap": (winnable - len(perfect)) / total,
            "won_but_lost": [result.seed for result in perfect if result.winnable is False],
            "won_but_undecided": [result.seed for result in perfect if result.winnable is None]}


def print_summary(report: dict[str, Any]) -> None:
    low, high = report["winnable_ci95"]
    print(f"open games, {report['players']} players, {report['rules']} rules, {report['variant']}: "
          f"{report['decks']} decks (seeds {report['seed']}..{report['seed'] + report['decks'] - 1}), "
          f"budget {report['max_nodes']:,} positions per deck")
    print(f"winnable     {report['winnable']} ({100 * report['winnable_fraction']:.2f} %, "
          f"95 %: {100 * low:.2f} .. {100 * high:.2f} %)")
    print(f"lost         {report['lost']} ({report['cheap_reasons']} by a cheap reason)")
    print(f"undecided    {report['undecided']} (decided: {100 * report['decided_fraction']:.2f} %)")
    print(f"per deck     median {1000 * report['median_cpu_seconds']:.1f} ms, 99th percentile "
          f"{1000 * report['p99_cpu_seconds']:.1f} ms CPU; median {report['median_nodes']:,.0f} positions")
    histogram = ", ".join(f"{best}: {count}" for best, count in report["best_scores"].items())
    print(f"best scores  {histogram}" + (f"; unknown (undecided): {report['best_unknown']}" if report["best_unknown"] else ""))
    for name, row in report["against"].items():
        low, high = row["perfect_ci95"]
        print(f"{name:<12} perfect on {row['perfect']} decks ({100 * row['perfect_fraction']:.2f} %, 95 %: "
              f"{100 * low:.2f} .. {100 * high:.2f} %); gap to the winnable fraction {100 * row['gap']:.2f} points; "
              f"won but not found winnable: {len(row['won_but_lost'])} lost, {len(row['won_but_undecided'])} undecided")
    print("slowest      " + ", ".join(f"seed {deck['seed']} ({deck['nodes']:,} positions)" for deck in report["slowest"]))


def _solve_with_progress(config: GameConfig, seeds: range, max_nodes: int, jobs: int, scheduler: str | None,
                         seconds: float | None, against: tuple[str, ...]) -> list[DeckResult]:
    """[SV-estimate] every deck's result, with a progress bar on a terminal.  [SV-signals]
    However the loop ends, the decks' generator is closed at once, which kills its workers
    (with the stopping signals held meanwhile)."""
    from tqdm import tqdm

    results: list[DeckResult] = []
    won = 0
    decks = solve_seeds(config, seeds, max_nodes, jobs, scheduler, seconds, against)
    try:
        with tqdm(total=len(seeds), unit="deck", file=sys.stderr, disable=not sys.stderr.isatty(),
                  dynamic_ncols=True) as bar:
            for result in decks:
                results.append(result)
                won += result.winnable is True
                bar.update(1)
                bar.set_postfix_str(f"winnable {won}/{len(results)}")
    finally:
        with signals_held():
            decks.close()
    return results


def run_solve(config: GameConfig, rules: str, games: int, first_seed: int, max_nodes: int, jobs: int,
              as_json: bool, out: str | None, scheduler: str | None = None, seconds: float | None = None,
              against: tuple[str, ...] = ()) -> int:
    """[SV-estimate] solve the decks of seeds first_seed .. first_seed + games - 1 with a
    progress bar on a terminal; print the summary (or its JSON); ``out``: write the JSON
    to a file whole, only once every deck is solved.  [SV-signals] Ctrl-C goes on to the
    command line (exit 130); SIGTERM and SIGHUP end the process here with their line,
    once the workers are gone."""
    seeds = range(first_seed, first_seed + games)
    with signals_stop_run():
        try:
            results = _solve_with_progress(config, seeds, max_nodes, jobs, scheduler, seconds, against)
        except Stopped as stop:
            print(stop.line, file=sys.stderr)
            exit_now(stop.code)
    report = summary(config, rules, first_seed, max_nodes, results, against)
    if out is not None:
        from hanabi_ref.base.atomic import write_text_atomically

        write_text_atomically(out, json.dumps(report, indent=1) + "\n")
    if as_json:
        print(json.dumps(report))
    else:
        print_summary(report)
    contradictions = {name: row["won_but_lost"] for name, row in report["against"].items() if row["won_but_lost"]}
    if contradictions:  # never expected: a perfect game is a winning line of the open game
        print(f"hanabi-ref: solve: decks a strategy won but the solver found lost: {contradictions}", file=sys.stderr)
        return 1
    return 0
