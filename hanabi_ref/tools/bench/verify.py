"""``hanabi-ref bench verify``: how fast ``verify`` plays its random games and shrinks a
divergence [B-verify].

Two measurements, each run in a fresh interpreter with contracts off (the setting of
``verify`` when speed matters; ``HANABI_REF_CONTRACTS=0``), interleaved round by round:

* **games**: the random phase of ``verify --against openspiel --no-vectors`` (the ``hle``
  preset, 2 to 5 players), with the default views (EP-views: the seat to move at every
  state) and with none, and, for comparison, of our engine against itself: games per CPU
  second of this process (the peer runs in it too) and per wall second;
* **shrinking**: :class:`~hanabi_ref.tools.verify.faulty.LastRoundShort`, an engine whose last
  round is one move short, found by the random phase and shrunk with the default budget,
  once served over the protocol by a process of its own (``python -m
  hanabi_ref.tools.verify.faulty``: what ``verify --engine`` meets) and once inside this
  process (the cost of the shrinking itself).  The seed of these runs is the first from
  ``--seed`` on whose first diverging game has at least :data:`LONG_GAME` actions, found
  before the runs, so that the shrinking has a long way to go.
"""

from __future__ import annotations

import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import Any, Final

GAMES_VARIANTS: Final = ("openspiel", "openspiel-no-views", "reference")
SHRINK_VARIANTS: Final = ("shrink-process", "shrink-in-process")
LONG_GAME: Final = 70
"""The fewest actions of the first diverging game a shrink measurement starts from."""
SEARCHED_SEEDS: Final = 200


def _configs(peer: bool) -> list[Any]:
    from hanabi_ref.tools.peers import peer_config
    from hanabi_ref.engine.configs import make_config

    return [peer_config("openspiel", p) if peer else make_config(p, preset="hle") for p in range(2, 6)]


# --- in the child interpreter -------------------------------------------------------


def measure(variant: str, games: int, seed: int) -> dict[str, Any]:
    """One run of ``variant`` [B-verify]."""
    from hanabi_ref.base.contracts import ENABLED
    from hanabi_ref.tools.protocol.engine import Engine, ReferenceEngine
    from hanabi_ref.tools.verify.faulty import LastRoundShort
    from hanabi_ref.tools.verify.run import verify_random_games

    engine: Engine
    if variant.startswith("openspiel"):
        from hanabi_ref.tools.peers.openspiel import OpenSpielEngine

        engine = OpenSpielEngine()
    elif variant == "reference":
        engine = ReferenceEngine()
    elif variant == "shrink-process":
        from hanabi_ref.tools.verify.process import ProcessEngine

        engine = ProcessEngine(f"{sys.executable} -m hanabi_ref.tools.verify.faulty")
    else:
        engine = LastRoundShort()
    cpu, wall = time.process_time(), time.perf_counter()
    try:
        report = verify_random_games(engine, _configs(variant.startswith("openspiel")), games, seed,
                                     views="none" if variant.endswith("no-views") else "acting")
    finally:
        engine.close()
    result: dict[str, Any] = {"variant": variant, "contracts": ENABLED, "seed": seed,
                              "cpu_seconds": time.process_time() - cpu, "wall_seconds": time.perf_counter() - wall,
                              "games": report.checked, "playing_seconds": report.playing_seconds}
    if variant in GAMES_VARIANTS:
        result["diverged"] = report.divergence is not None
        return result
    if report.divergence is None:
        result["diverged"] = False
        return result
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    result.update(diverged=True, first_actions=report.first_length, shrunk_actions=len(report.divergence.trace.actions),
                  shrinking_games=report.shrinking, shrinking_seconds=report.shrinking_seconds,
                  engine_cpu_seconds=children.ru_utime + children.ru_stime)
    return result


# --- in the parent ------------------------------------------------------------------


class BenchVerifyError(Exception):
    """A measurement failed or did not run as asked; the message is one line."""


def long_divergence_seed(seed: int) -> tuple[int, int]:
    """The first seed from ``seed`` on (at most :data:`SEARCHED_SEEDS` tried) whose random
    phase first diverges, on LastRoundShort, in a game of at least :data:`LONG_GAME`
    actions, and that game's length."""
    from hanabi_ref.tools.verify.faulty import LastRoundShort
    from hanabi_ref.tools.verify.run import verify_random_games

    configs = _configs(False)
    for candidate in range(seed, seed + SEARCHED_SEEDS):
        report = verify_random_games(LastRoundShort(), configs, 200, candidate, shrink_budget=0)
        if report.first_length is not None and report.first_length >= LONG_GAME:
            return candidate, report.first_length
    raise BenchVerifyError(f"no seed in {seed}..{seed + SEARCHED_SEEDS - 1} gives a first divergence of "
                           f"{LONG_GAME} actions or more")


def run_child(variant: str, games: int, seed: int) -> dict[str, Any]:
    """One measurement in a fresh interpreter with contracts off."""
    command = [sys.executable, "-m", "hanabi_ref.tools.bench.verify", variant, str(games), str(seed)]
    done = subprocess.run(command, env=dict(os.environ, HANABI_REF_CONTRACTS="0"), capture_output=True, text=True)
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        raise BenchVerifyError(f"{variant}: the measuring process failed: {lines[-1] if lines else done.returncode}")
    run: dict[str, Any] = json.loads(done.stdout)
    if run["contracts"]:
        raise BenchVerifyError(f"{variant}: the run had its contracts on")
    if variant in GAMES_VARIANTS and run["diverged"]:
        raise BenchVerifyError(f"{variant}: the random games diverged; nothing to time")
    if variant in SHRINK_VARIANTS and not run["diverged"]:
        raise BenchVerifyError(f"{variant}: the faulty engine did not diverge with seed {run['seed']}")
    return run


def bench_verify(games: int, repeats: int, seed: int) -> dict[str, Any]:
    """Interleaved runs of every variant, and the report [B-verify]."""
    from hanabi_ref.tools.bench.engine import _machine, finished

    shrink_seed, first = long_divergence_seed(seed)
    report: dict[str, Any] = {"benchmark": "verify", "games": games, "repeats": repeats, "seed": seed,
                              "shrink_seed": shrink_seed, "shrink_first_actions": first, **_machine()}
    variants = [*GAMES_VARIANTS, *SHRINK_VARIANTS]
    runs: dict[str, list[dict[str, Any]]] = {variant: [] for variant in variants}
    for round_ in range(repeats):
        shift = round_ % len(variants)
        for variant in (*variants[shift:], *variants[:shift]):
            run_seed = seed if variant in GAMES_VARIANTS else shrink_seed
            runs[variant].append(dict(run_child(variant, games, run_seed), round=round_))
    report["results"] = {variant: _summary(variant, found) for variant, found in runs.items()}
    return finished(report)


def _summary(variant: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    if variant in GAMES_VARIANTS:
        cpu = [run["games"] / run["cpu_seconds"] for run in runs]
        wall = [run["games"] / run["playing_seconds"] for run in runs]
        return {"median_games_per_cpu_second": statistics.median(cpu), "min_games_per_cpu_second": min(cpu),
                "max_games_per_cpu_second": max(cpu), "median_games_per_wall_second": statistics.median(wall),
                "runs": runs}
    seconds = [run["shrinking_seconds"] for run in runs]
    return {"median_shrinking_seconds": statistics.median(seconds), "min_shrinking_seconds": min(seconds),
            "max_shrinking_seconds": max(seconds),
            "median_cpu_seconds": statistics.median(run["cpu_seconds"] for run in runs),
            "first_actions": runs[0]["first_actions"], "shrunk_actions": sorted({run["shrunk_actions"] for run in runs}),
            "shrinking_games": runs[0]["shrinking_games"], "runs": runs}


def format_report(report: dict[str, Any]) -> str:
    """The report as a few readable lines."""
    from hanabi_ref.tools.bench.engine import machine_line

    lines = [f"bench verify: {report['repeats']} interleaved runs per variant, contracts off, hle rules, 2-5 players; "
             + machine_line(report)]
    for variant in GAMES_VARIANTS:
        result = report["results"][variant]
        runs = " ".join(f"{run['games'] / run['cpu_seconds']:.0f}" for run in result["runs"])
        lines.append(f"  random games, {variant:<18} {result['median_games_per_cpu_second']:7.1f} games per CPU s "
                     f"(median; {result['min_games_per_cpu_second']:.1f}..{result['max_games_per_cpu_second']:.1f}; "
                     f"runs {runs}), {result['median_games_per_wall_second']:.1f} per wall s; {report['games']} games, "
                     f"seed {report['seed']}")
    for variant in SHRINK_VARIANTS:
        result = report["results"][variant]
        runs = " ".join(f"{run['shrinking_seconds']:.1f}" for run in result["runs"])
        shrunk = "/".join(map(str, result["shrunk_actions"]))
        lines.append(f"  {variant:<32} {result['median_shrinking_seconds']:7.1f} s wall to shrink a "
                     f"{result['first_actions']}-action divergence to {shrunk} actions "
                     f"({result['shrinking_games']} games tried; {result['min_shrinking_seconds']:.1f}.."
                     f"{result['max_shrinking_seconds']:.1f}; runs {runs}); seed {report['shrink_seed']}")
    return "\n".join(lines)


def _child_main(argv: Sequence[str]) -> None:
    variant, games, seed = argv
    print(json.dumps(measure(variant, int(games), int(seed))))


if __name__ == "__main__":
    _child_main(sys.argv[1:])
