"""``hanabi-ref bench engine``: random legal play, moves per second [B-engine].

Each measurement runs in a fresh interpreter whose ``HANABI_REF_CONTRACTS`` is set, so
contracts are truly off (the decorators are not even applied) or on.  A run plays whole
games of uniformly random legal moves for a fixed time; the report gives every run and
the median, for contracts off and on, and their ratio.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any


def measure(players: int, preset: str, seconds: float, seed: int) -> dict[str, Any]:
    """Play random legal games for ``seconds``; count moves and games (in this process)."""
    from hanabi_ref.contracts import ENABLED
    from hanabi_ref.dealing import SplitMix64, deck_from_seed
    from hanabi_ref.legality import legal_actions
    from hanabi_ref.rules import make_config
    from hanabi_ref.transition import apply, initial_state

    config = make_config(players, preset=preset)
    rng = SplitMix64(seed)
    moves = games = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = initial_state(config, deck_from_seed(config, seed + games))
        while not state.terminal:
            state = apply(state, rng.choice(legal_actions(state)))
            moves += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {
        "contracts": ENABLED,
        "moves": moves,
        "games": games,
        "elapsed": elapsed,
        "moves_per_second": moves / elapsed,
    }


def run_isolated(contracts: bool, players: int, preset: str, seconds: float, seed: int) -> dict[str, Any]:
    """One measurement in a child interpreter with contracts switched as asked."""
    env = dict(os.environ, HANABI_REF_CONTRACTS="1" if contracts else "0")
    command = [
        sys.executable,
        "-m",
        "hanabi_ref.bench",
        str(players),
        preset,
        repr(seconds),
        str(seed),
    ]
    output = subprocess.run(command, env=env, check=True, capture_output=True, text=True).stdout
    result: dict[str, Any] = json.loads(output)
    if result["contracts"] != contracts:
        raise RuntimeError(f"the child process ran with contracts={result['contracts']}, not {contracts}")
    return result


def bench_engine(players: int, preset: str, seconds: float, repeats: int, seed: int) -> dict[str, Any]:
    """Median moves per second over ``repeats`` runs, contracts off and on."""
    report: dict[str, Any] = {
        "benchmark": "engine",
        "players": players,
        "rules": preset,
        "seconds_per_run": seconds,
        "repeats": repeats,
        "python": sys.version.split()[0],
    }
    for label, contracts in (("contracts_off", False), ("contracts_on", True)):
        runs = [run_isolated(contracts, players, preset, seconds, seed) for _ in range(repeats)]
        report[label] = {
            "median_moves_per_second": statistics.median(r["moves_per_second"] for r in runs),
            "runs_moves_per_second": [round(r["moves_per_second"], 1) for r in runs],
            "moves": sum(r["moves"] for r in runs),
            "games": sum(r["games"] for r in runs),
        }
    report["ratio_off_to_on"] = (
        report["contracts_off"]["median_moves_per_second"] / report["contracts_on"]["median_moves_per_second"]
    )
    return report


if __name__ == "__main__":
    print(json.dumps(measure(int(sys.argv[1]), sys.argv[2], float(sys.argv[3]), int(sys.argv[4]))))


def bench_playability_table(repeats: int) -> dict[str, Any]:
    """Seconds to compute the whole of Appendix A from scratch, one core [PL-bench, PL-table].

    Each run builds fresh memo tables, so no run profits from an earlier one.
    """
    from hanabi_ref.playability.table import appendix_a

    runs = []
    for _ in range(repeats):
        start = time.perf_counter()
        rows = appendix_a()
        runs.append(time.perf_counter() - start)
        assert len(rows) == 126
    return {"runs_seconds": runs, "median_seconds": statistics.median(runs), "rows": 126, "hand_sizes": 5}
