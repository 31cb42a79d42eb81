"""``hanabi-ref simulate`` and ``hanabi-ref sweep`` [C-simulate, SIM-jobs, SIM-param,
SIM-trace-hash, SIM-sweep, SIM-plot, SIM-dask, SIM-crash, SIM-errors].

Everything a run needs is checked before the first game: the strategy and its
parameters, the grid, the configuration, the seeds, the executor (a dask scheduler is
contacted), the output paths and matplotlib.  A mistake there is one line on stderr and
exit code 2, and nothing is written.  Games that fail while running are reported by seed
on one line, the statistics of the others are still printed, and the exit code is 1.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from hanabi_ref.contracts import ENABLED
from hanabi_ref.errors import ConfigError
from hanabi_ref.rules import GameConfig
from hanabi_ref.sim.chunks import Failure, GameSetup
from hanabi_ref.sim.executors import Executor, LocalExecutor, SetupError, connect_dask, default_jobs
from hanabi_ref.sim.files import check_output_path, write_text_atomically
from hanabi_ref.sim.runner import Cell, CellResult, Progress, RunResult, run_cells
from hanabi_ref.sim.sweep import Axis, parse_grid, point_label, points, render_csv, render_json, render_table, row
from hanabi_ref.strategies import ParamError, StrategySpec, Value, parse_assignments, strategy_spec

EXIT_OK = 0
EXIT_FAILED_GAMES = 1
MAX_SEEDS_SHOWN = 10


# ------------------------------------------------------------------ checking the command line


def check_strategy(name: str) -> StrategySpec:
    """The named strategy, or a one-line error naming ``--strategy`` [SIM-errors]."""
    try:
        return strategy_spec(name)
    except ParamError as error:
        raise ParamError(f"--strategy: {error}") from None


def given_params(items: Sequence[str], spec: StrategySpec) -> dict[str, str]:
    """``--param`` items as text, each name known and each value checked [SIM-param]."""
    given = parse_assignments(list(items), "--param")
    try:
        spec.resolve(given)
    except ParamError as error:
        raise ParamError(f"--param: {error}") from None
    return given


def check_config(args: argparse.Namespace, spec: StrategySpec, params: Mapping[str, Value]) -> tuple[GameSetup, GameConfig]:
    """The setup and its configuration; the seeds must stay below 2^64 (D-seed)."""
    setup = GameSetup.of(args.players, args.rules, args.variant, args.hand_size, spec.name, params)
    config = setup.config()
    setup.factory()  # the strategy can be built with these parameters
    try:
        spec.check_config(config)
    except ConfigError as error:
        raise ConfigError(f"--strategy {spec.name}: {error}") from None
    if args.seed + args.games > 2**64:
        raise SetupError("--seed: seed + games must stay below 2^64")
    return setup, config


def open_executor(args: argparse.Namespace) -> Executor:
    """[SIM-jobs, SIM-dask] ``--executor local`` with ``--jobs`` processes, or a client of
    the dask scheduler at ``--scheduler`` (contacted now, with a timeout)."""
    if args.executor == "dask":
        if args.scheduler is None:
            raise SetupError("--executor dask: needs --scheduler ADDRESS (e.g. tcp://host:8786)")
        if args.jobs is not None:
            raise SetupError("--jobs: only for --executor local (a dask cluster has its own workers)")
        return connect_dask(args.scheduler)
    if args.scheduler is not None:
        raise SetupError("--scheduler: only with --executor dask")
    return LocalExecutor(args.jobs or default_jobs())


def run(cells: Sequence[Cell], executor: Executor, chunk_size: int | None) -> RunResult:
    """Play the cells with a progress bar on stderr [SIM-progress]; close the executor."""
    progress = Progress(sum(cell.games for cell in cells))
    try:
        return run_cells(cells, executor, chunk_size=chunk_size, progress=progress)
    finally:
        progress.close()
        executor.close()


def failure_line(groups: Sequence[tuple[str, CellResult]]) -> str:
    """[SIM-crash] Every failed game of a run on one line: how many, their seeds (by grid
    point in a sweep), and the first one's error."""
    failed = [(label, failure) for label, result in groups for failure in result.failures]
    total = sum(result.cell.games for _, result in groups)
    label, first = failed[0]
    shown: list[str] = []
    budget = MAX_SEEDS_SHOWN
    for group_label, result in groups:
        seeds = result.failed_seeds[:budget]
        if not seeds:
            continue
        budget -= len(seeds)
        text = ("seed " if len(result.failed_seeds) == 1 else "seeds ") + ", ".join(map(str, seeds))
        if len(seeds) < len(result.failed_seeds):
            text += ", ..."
        shown.append(f"{group_label}: {text}" if group_label else text)
    where = f"{label}, seed {first.seed}" if label else f"seed {first.seed}"
    count = f"{len(failed)} of {total} games failed" if len(failed) > 1 else f"1 of {total} games failed"
    return f"hanabi-ref: {count} ({'; '.join(shown)}); first ({where}): {first.error}"


def _report_failures(groups: Sequence[tuple[str, CellResult]]) -> int:
    if not any(result.failures for _, result in groups):
        return EXIT_OK
    print(failure_line(groups), file=sys.stderr)
    return EXIT_FAILED_GAMES


def _failures_json(failures: Sequence[Failure]) -> list[dict[str, Any]]:
    return [{"seed": failure.seed, "error": failure.error} for failure in failures]


# ------------------------------------------------------------------ simulate


def command_simulate(args: argparse.Namespace) -> int:
    """Play games S .. S+N-1 in parallel and report the statistics and the trace hash
    [C-simulate, SIM-jobs, SIM-param, SIM-trace-hash]; exit 1 if a game failed [SIM-crash]."""
    spec = check_strategy(args.strategy)
    params = spec.resolve(given_params(args.param, spec))
    setup, config = check_config(args, spec, params)
    executor = open_executor(args)
    result = run([Cell(setup, args.seed, args.games)], executor, args.chunk_size)
    cell = result.cells[0]
    summary = {
        "strategy": args.strategy,
        "params": params,
        "players": config.players,
        "hand_size": config.hand_size,
        "games": args.games,
        "seed": args.seed,
        "rules": config.preset,
        "variant": config.variant,
        "max_score": config.max_score,
        "contracts": ENABLED,
        "executor": executor.name,
        "jobs": result.workers,
        "chunk_size": result.chunk_size,
        **cell.statistics(),
        "failed_seeds": cell.failed_seeds,
        "failures": _failures_json(cell.failures),
        "trace_sha256": cell.trace_sha256,
        "games_per_second": args.games / result.seconds if result.seconds > 0 else float("inf"),
    }
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        print_summary(summary)
    return _report_failures([("", cell)])


def print_summary(result: Mapping[str, Any]) -> None:
    """``simulate``'s result as a readable table with a histogram."""
    finished = result["games_completed"]
    rows = [
        ("strategy", result["strategy"]),
        ("parameters", ", ".join(f"{key}={value}" for key, value in result["params"].items()) or "none"),
        ("rules / variant", f"{result['rules']} / {result['variant']}"),
        ("players / hand size", f"{result['players']} / {result['hand_size']}"),
        ("games (seeds)", f"{result['games']} ({result['seed']}..{result['seed'] + result['games'] - 1})"),
    ]
    if result["failed_seeds"]:
        rows.append(("failed games", f"{len(result['failed_seeds'])} (statistics over the {finished} that finished)"))
    if finished:
        low, high = result["mean_score_ci95"]
        perfect_low, perfect_high = result["perfect_rate_ci95"]
        rows += [
            ("mean score", f"{result['mean_score']:.3f} ± {result['std_error']:.3f} (standard error)"),
            ("95% interval", f"{low:.3f} .. {high:.3f}"),
            ("perfect games", f"{100 * result['perfect_rate']:.2f} % (95%: {100 * perfect_low:.2f} .. {100 * perfect_high:.2f} %)"),
            ("strikeouts", f"{100 * result['strikeout_rate']:.2f} %"),
            ("lowest / highest score", f"{result['lowest_score']} / {result['highest_score']}"),
        ]
    workers = f"{result['jobs']} {'worker' if result['jobs'] == 1 else 'workers'}"
    where = "in this process" if result["executor"] == "local" and result["jobs"] == 1 else f"{workers}, {result['executor']}"
    rows.append(("games per second", f"{result['games_per_second']:.1f} ({where})"))
    rows.append(("trace sha256", result["trace_sha256"]))
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    if finished:
        print("score histogram:")
        peak = max(result["score_histogram"]) or 1
        for score, count in enumerate(result["score_histogram"]):
            if count:
                print(f"  {score:>3} {count:>8}  {'#' * max(1, round(40 * count / peak))}")


# ------------------------------------------------------------------ sweep


def command_sweep(args: argparse.Namespace) -> int:
    """Simulate every point of the grid on the same seeds and write the table (and the
    chart) [SIM-sweep, SIM-plot]; exit 1 if a game failed [SIM-crash]."""
    spec = check_strategy(args.strategy)
    fixed = given_params(args.param, spec)
    axes = parse_grid(args.grid, spec, fixed)
    grid = points(axes)
    setups = [GameSetup.of(args.players, args.rules, args.variant, args.hand_size, spec.name,
                           spec.resolve({**fixed, **point})) for point in grid]
    _, config = check_config(args, spec, dict(setups[0].params))
    out, plot = _check_outputs(args)
    executor = open_executor(args)
    result = run([Cell(setup, args.seed, args.games) for setup in setups], executor, args.chunk_size)
    cells = list(zip(grid, result.cells))
    text = _render(args, spec, fixed, axes, config, cells, executor, result)
    if out is None:
        sys.stdout.write(text)
    else:
        write_text_atomically(out, text, "--out")
    if plot is not None:
        from hanabi_ref.sim.plot import save_plot

        save_plot(plot, args.plot_kind or "mean", axes, cells, _title(args, config))
    return _report_failures([(point_label(point), cell) for point, cell in cells])


def _check_outputs(args: argparse.Namespace) -> tuple[Path | None, Path | None]:
    """[SIM-errors] The output paths, checked before any game is played."""
    out = None if args.out is None else check_output_path(args.out, "--out")
    if args.plot is None:
        if args.plot_kind is not None:
            raise SetupError("--plot-kind: only with --plot FILE")
        return out, None
    from hanabi_ref.sim.plot import PLOT_SUFFIXES, require_matplotlib

    plot = check_output_path(args.plot, "--plot", PLOT_SUFFIXES)
    if out is not None and out.resolve() == plot.resolve():
        raise SetupError(f"--plot {args.plot}: the same file as --out")
    require_matplotlib()
    return out, plot


def _title(args: argparse.Namespace, config: GameConfig) -> str:
    return (f"{args.strategy}, {config.players} players, {config.preset} / {config.variant}, "
            f"{args.games} games per point (seeds {args.seed}..{args.seed + args.games - 1})")


def _render(args: argparse.Namespace, spec: StrategySpec, fixed: Mapping[str, str], axes: Sequence[Axis],
            config: GameConfig, cells: Sequence[tuple[dict[str, Value], CellResult]], executor: Executor,
            result: RunResult) -> str:
    rows = [row(point, cell) for point, cell in cells]
    if args.format == "csv":
        return render_csv(axes, rows)
    if args.format == "table":
        return render_table(axes, rows)
    gridded = {axis.name for axis in axes}
    total = args.games * len(cells)
    header = {
        "strategy": spec.name,
        "params": {key: value for key, value in spec.resolve(fixed).items() if key not in gridded},
        "players": config.players,
        "hand_size": config.hand_size,
        "rules": config.preset,
        "variant": config.variant,
        "max_score": config.max_score,
        "games": args.games,
        "seed": args.seed,
        "contracts": ENABLED,
        "executor": executor.name,
        "jobs": result.workers,
        "chunk_size": result.chunk_size,
        "games_per_second": total / result.seconds if result.seconds > 0 else None,
    }
    return render_json(header, axes, cells)


__all__ = ["command_simulate", "command_sweep"]
