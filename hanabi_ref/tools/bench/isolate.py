"""``hanabi-ref bench isolate``: the hat player in-process and isolated [B-isolate].

Both ways play the same games (game i dealt from seed + 1 + i, after one warm-up game
that starts the isolated seats' processes and is not counted), in batches of a
simulation chunk's games (:data:`~hanabi_ref.tools.sim.chunks.MAX_CHUNK_GAMES`, played together
by isolated seats as ``simulate --isolate`` plays them, ISO-games), until ``seconds`` of
wall time have passed, each run in a fresh interpreter; the two are interleaved as in
B-engine.  Isolated
play uses five processes, so its speed is judged on the wall clock of whole games, every
process included; its CPU time is this process's plus every seat process's (read from
``/proc`` while they run, so that their start-up is not counted; where there is no
``/proc``, ``resource.getrusage(RUSAGE_CHILDREN)`` after they end, start-up included).
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

STRATEGY: Final = "hat"
MODES: Final = ("in-process", "isolated")
TARGET: Final = 0.40
"""[B-isolate] isolated play should reach this fraction of in-process games per wall second."""


# --- in the child interpreter -------------------------------------------------------


def _seats_cpu(pids: Sequence[int]) -> float | None:
    """CPU seconds the processes ``pids`` used so far (from /proc), or None."""
    total = 0
    try:
        for pid in pids:
            with open(f"/proc/{pid}/stat", encoding="ascii") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (fields 14 and 15)
    except (OSError, IndexError, ValueError):
        return None
    return total / os.sysconf("SC_CLK_TCK")


def measure(mode: str, players: int, preset: str, seconds: float, seed: int) -> dict[str, Any]:
    """Whole games of the hat player for ``seconds`` of wall time, in-process or isolated."""
    from hanabi_ref.base.contracts import ENABLED
    from hanabi_ref.players.runner import play_games
    from hanabi_ref.tools.isolation import seat_command
    from hanabi_ref.tools.isolation.client import IsolatedFactory
    from hanabi_ref.engine.configs import make_config
    from hanabi_ref.tools.sim.chunks import MAX_CHUNK_GAMES
    from hanabi_ref.players.strategies import factory_for
    from hanabi_ref.formats.trace import GameRecord
    from hanabi_ref.engine.view import ViewMaker

    config = make_config(players, preset=preset)
    views = ViewMaker(config)
    isolated = IsolatedFactory([seat_command(STRATEGY)]) if mode == "isolated" else None
    factory = factory_for(STRATEGY) if isolated is None else isolated
    try:
        play_games(config, factory, [(seed, None)], views=views)  # warm-up: the seats' processes start
        pids = [] if isolated is None else isolated.pids()
        seats_start = _seats_cpu(pids)
        games = moves = 0
        wall_start, cpu_start = time.perf_counter(), time.process_time()
        while time.perf_counter() - wall_start < seconds:
            batch = [(seed + 1 + games + i, None) for i in range(MAX_CHUNK_GAMES)]
            for record in play_games(config, factory, batch, views=views):
                if not isinstance(record, GameRecord):
                    raise record
                moves += len(record.trace.actions)
            games += len(batch)
        wall, cpu = time.perf_counter() - wall_start, time.process_time() - cpu_start
        seats_end = _seats_cpu(pids)
    finally:
        if isolated is not None:
            isolated.close()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    seats = seats_end - seats_start if seats_start is not None and seats_end is not None else None
    return {"mode": mode, "games": games, "moves": moves, "wall_seconds": wall, "cpu_seconds": cpu,
            "seat_processes": len(pids), "seats_cpu_seconds": seats,
            "children_cpu_seconds_with_startup": children.ru_utime + children.ru_stime, "contracts": ENABLED}


# --- in the parent ------------------------------------------------------------------


class BenchIsolateError(Exception):
    """A measurement failed; the message is one line."""


def run_child(mode: str, players: int, preset: str, seconds: float, seed: int) -> dict[str, Any]:
    """One measurement in a fresh interpreter, contracts off [B-isolate]."""
    command = [sys.executable, "-m", "hanabi_ref.tools.bench.isolate", mode, str(players), preset, repr(seconds), str(seed)]
    env = dict(os.environ, HANABI_REF_CONTRACTS="0")
    done = subprocess.run(command, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        raise BenchIsolateError(f"{mode}, {players} players: the measuring process failed: "
                                f"{lines[-1] if lines else done.returncode}")
    run: dict[str, Any] = json.loads(done.stdout)
    if run["contracts"]:
        raise BenchIsolateError(f"{mode}, {players} players: the run had contracts on")
    seats = run["seats_cpu_seconds"]
    total_cpu = run["cpu_seconds"] + (seats if seats is not None else run["children_cpu_seconds_with_startup"])
    run["total_cpu_seconds"] = total_cpu
    run["games_per_wall_second"] = run["games"] / run["wall_seconds"]
    run["games_per_cpu_second"] = run["games"] / total_cpu
    return run


def bench_isolate(players: Sequence[int], preset: str, seconds: float, repeats: int, seed: int) -> dict[str, Any]:
    """Interleaved runs of both modes for every player count, and the report [B-isolate]."""
    from hanabi_ref.tools.bench.engine import _machine, finished, schedule

    report: dict[str, Any] = {"benchmark": "isolate", "strategy": STRATEGY, "rules": preset, "players": list(players),
                              "seconds_per_run": seconds, "clock_of_runs": "wall", "repeats": repeats, "seed": seed,
                              "target_wall_ratio": TARGET, **_machine()}
    report["schedule"] = schedule(list(MODES), players, repeats)
    runs: dict[tuple[int, str], list[dict[str, Any]]] = {}
    for step in report["schedule"]:
        run = dict(run_child(step["variant"], step["players"], preset, seconds, seed), round=step["round"])
        runs.setdefault((step["players"], step["variant"]), []).append(run)
    report["results"] = [_result(count, {mode: runs[count, mode] for mode in MODES}) for count in players]
    return finished(report)


def _result(players: int, runs: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    modes = {mode: {f"median_games_per_{clock}_second": statistics.median(r[f"games_per_{clock}_second"] for r in rs)
                    for clock in ("wall", "cpu")} | {"games": sum(r["games"] for r in rs), "runs": rs}
             for mode, rs in runs.items()}
    ratios = {f"isolated/in-process per {label} second": modes["isolated"][f"median_games_per_{clock}_second"]
              / modes["in-process"][f"median_games_per_{clock}_second"] for clock, label in (("wall", "wall"), ("cpu", "CPU"))}
    wall_ratio = ratios["isolated/in-process per wall second"]
    return {"players": players, "modes": modes, "ratios": ratios, "meets_target": wall_ratio >= TARGET}


def format_report(report: dict[str, Any]) -> str:
    """The report as readable lines."""
    from hanabi_ref.tools.bench.engine import machine_line

    lines = [f"bench isolate: the {report['strategy']} player, {report['rules']} rules, {report['repeats']} interleaved "
             f"runs of {report['seconds_per_run']:g} wall s per mode, contracts off, {report['cpus_usable']} usable CPUs; "
             "games per wall second (all processes) and per CPU second (all processes), medians", machine_line(report)]
    for entry in report["results"]:
        for mode, result in entry["modes"].items():
            lines.append(f"  {entry['players']} players  {mode:<10} {result['median_games_per_wall_second']:8.1f} /wall s"
                         f"  {result['median_games_per_cpu_second']:8.1f} /CPU s  ({result['games']} games)")
        wall = entry["ratios"]["isolated/in-process per wall second"]
        cpu = entry["ratios"]["isolated/in-process per CPU second"]
        verdict = "meets" if entry["meets_target"] else "misses"
        lines.append(f"  {entry['players']} players  isolated/in-process: {wall:.2f} (wall), {cpu:.2f} (CPU); "
                     f"{verdict} the target of {report['target_wall_ratio']:.2f} (wall)")
    return "\n".join(lines)


if __name__ == "__main__":
    mode, count, rules, span, first = sys.argv[1:]
    print(json.dumps(measure(mode, int(count), rules, float(span), int(first))))
