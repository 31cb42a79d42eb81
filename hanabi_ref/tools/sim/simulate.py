"""``hanabi-ref simulate`` and ``hanabi-ref sweep`` [C-simulate, SIM-jobs, SIM-param,
SIM-trace-hash, SIM-outcome-hash, SIM-sweep, SIM-plot, SIM-dask, SIM-crash, SIM-errors].

Everything a run needs is checked before the first game: the strategy and its
parameters, the grid, the configuration, the seeds, the executor (a dask scheduler is
contacted), the output paths and matplotlib.  A mistake there is one line on stderr and
exit code 2, and nothing is written.  Games that fail while running are reported by seed
on one line, the statistics of the others are still printed, and the exit code is 1.
A run that cannot go on (a stalled worker, a lost dask scheduler) is one line and exit
code 3, with the finished chunks kept in ``simulate --out``'s checkpoint; SIGTERM stops
the workers and exits with 143 [SIM-stall, SIM-dask-lost, SIM-orphans, SIM-out,
SIM-resume].
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

from hanabi_ref.base import atomic
from hanabi_ref.base.contracts import ENABLED
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.base.escape import escape_text
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.base.signals import Stopped, exit_now, signals_stop_run
from hanabi_ref.tools.sim.checkpoint import CHECKPOINT_SECONDS, CheckpointWriter, is_checkpoint_file, load_checkpoint
from hanabi_ref.tools.sim.collector import tuned_collector
from hanabi_ref.tools.sim.chunks import Chunk, ChunkResult, Failure, GameSetup
from hanabi_ref.tools.sim.executors import (STALL_SECONDS, Executor, LocalExecutor, RunStopped, SetupError, connect_dask,
                                      default_jobs)
from hanabi_ref.tools.sim.files import check_output_path, write_text_atomically
from hanabi_ref.tools.sim.locks import lock_output
from hanabi_ref.tools.sim.runner import Cell, CellResult, Finished, Progress, RunResult, run_cells
from hanabi_ref.tools.sim.sweep import Axis, parse_grid, point_label, points, render_csv, render_json, render_table, row
from hanabi_ref.players.strategies import ParamError, StrategySpec, Value, parse_assignments, strategy_spec
from hanabi_ref.engine.tables import tables_for

BOT: Final = "bot"
"""The strategy name a run of ``--bot`` seats reports [ISO-cli]."""

EXIT_OK = 0
EXIT_FAILED_GAMES = 1
EXIT_STOPPED = 3
"""[SIM-stall, SIM-dask-lost] The run stopped before every game was played."""
MAX_SEEDS_SHOWN = 10
# ------------------------------------------------------------------ checking the command line


def check_strategy(name: str) -> StrategySpec:
    """The named strategy, or a one-line error naming ``--strategy`` [SIM-errors]."""
    try:
        return strategy_spec(name)
    except ParamError as error:
        raise ParamError(f"--strategy: {error}") from None


def seated(setup: GameSetup, args: argparse.Namespace) -> GameSetup:
    """[ISO-cli] ``setup`` with its seats in processes of their own: the bots of ``--bot``,
    or with ``--isolate`` the seat server playing the setup's strategy (and parameters).
    The isolation package (and the JSON schemas it loads) is imported only for them: a
    run of a built-in strategy starts a twentieth of a second sooner."""
    bots = getattr(args, "bot", None) or []
    isolate = getattr(args, "isolate", False)
    if not (bots or isolate):
        if getattr(args, "move_timeout", None) is not None:
            raise SetupError("--move-timeout: only with --isolate or --bot")
        return setup
    import attrs

    from hanabi_ref.tools.isolation import seat_command
    from hanabi_ref.tools.isolation.client import MOVE_TIMEOUT, split_command

    timeout = getattr(args, "move_timeout", None) or MOVE_TIMEOUT
    if bots:
        seats = tuple(tuple(split_command(command)) for command in bots)
        if len(seats) not in (1, setup.players):
            raise SetupError(f"--bot: give one command for every seat or {setup.players} (one per seat), got {len(seats)}")
        return attrs.evolve(setup, seats=seats, move_timeout=timeout)
    return attrs.evolve(setup, seats=(tuple(seat_command(setup.strategy, dict(setup.params))),), move_timeout=timeout)


def check_seats(setup: GameSetup) -> None:
    """[ISO-cli, ISO-failures] Start the first seat's process and read its hello answer
    before any game: a command that cannot be started is a usage error (exit 2), a bot
    that does not speak the protocol a failure (exit 1)."""
    if not setup.seats:
        return
    from hanabi_ref.tools.isolation.client import BotProcess

    bot = BotProcess(list(setup.seats[0]), 0, setup.move_timeout)
    try:
        bot.collect()
    finally:
        bot.close()


def check_strategy_or_bots(args: argparse.Namespace) -> StrategySpec | None:
    """The named strategy, or None when ``--bot`` seats bots instead [SIM-errors, ISO-cli]."""
    if getattr(args, "bot", None):
        for option, given in (("--strategy", args.strategy is not None), ("--isolate", args.isolate),
                              ("--param", bool(getattr(args, "param", [])))):
            if given:
                raise SetupError(f"{option}: not with --bot (a bot is its own strategy, in a process of its own)")
        return None
    if args.strategy is None:
        raise SetupError("--strategy: required (or --bot CMD)")
    return check_strategy(args.strategy)


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
    setup = GameSetup.of(args.players, args.rules, args.variant, args.hand_size, spec.name, params, strategy_seed(args))
    config = setup.config()
    setup.factory()  # the strategy can be built with these parameters
    try:
        spec.check_config(config, params)
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
        return connect_dask(args.scheduler, stall_seconds=stall_seconds(args))
    if args.scheduler is not None:
        raise SetupError("--scheduler: only with --executor dask")
    return LocalExecutor(args.jobs or default_jobs(), stall_seconds(args))


def stall_seconds(args: argparse.Namespace) -> float:
    """[SIM-stall] ``--stall-timeout``, else the default."""
    value: float | None = getattr(args, "stall_timeout", None)
    return STALL_SECONDS if value is None else value


def run(cells: Sequence[Cell], executor: Executor, chunk_size: int | None, finished: Sequence[Finished] = (),
        on_chunk: Callable[[int, Chunk, ChunkResult], None] | None = None) -> RunResult:
    """Play the cells with a progress bar on stderr [SIM-progress], the collector tuned for
    games [SIM-gc]; close the executor."""
    progress = Progress(sum(cell.games for cell in cells))
    try:
        with tuned_collector():
            return run_cells(cells, executor, chunk_size=chunk_size, progress=progress, finished=finished,
                             on_chunk=on_chunk)
    finally:
        progress.close()
        executor.close()


def stopped_line(error: BaseException, finished: int, total: int, kept: str) -> str:
    """[SIM-stall, SIM-dask-lost] A stopped run on one line: why, how many games finished
    and where they are ``kept``; the reason and the path are escaped [OUT-escape]."""
    return escape_text(f"hanabi-ref: {error}; {finished} of {total} games finished, {kept}")


def failure_line(groups: Sequence[tuple[str, CellResult]]) -> str:
    """[SIM-crash, OUT-escape] Every failed game of a run on one line: how many, their seeds
    (by grid point in a sweep), and the first one's error, escaped: a failure's text may
    come from a checkpoint [SIM-resume], and must not forge a line or reach the terminal
    as a control character."""
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
    return escape_text(f"hanabi-ref: {count} ({'; '.join(shown)}); first ({where}): {first.error}")


def _report_failures(groups: Sequence[tuple[str, CellResult]]) -> int:
    if not any(result.failures for _, result in groups):
        return EXIT_OK
    print(failure_line(groups), file=sys.stderr)
    return EXIT_FAILED_GAMES


def _failures_json(failures: Sequence[Failure]) -> list[dict[str, Any]]:
    return [{"seed": failure.seed, "error": failure.error} for failure in failures]


# ------------------------------------------------------------------ simulate


def command_simulate(args: argparse.Namespace) -> int:
    """Play games S .. S+N-1 in parallel and report the statistics and the hashes
    [C-simulate, SIM-jobs, SIM-param, SIM-trace-hash, SIM-outcome-hash]; exit 1 if a game
    failed [SIM-crash]; with ``--out`` keep checkpoints and the result in a file, locked
    [SIM-out, SIM-out-lock, SIM-out-early], with ``--resume`` go on from a checkpoint
    [SIM-resume]."""
    spec = check_strategy_or_bots(args)
    params = {} if spec is None else spec.resolve(given_params(args.param, spec))
    if spec is None:
        setup = GameSetup.of(args.players, args.rules, args.variant, args.hand_size, BOT, params,
                             strategy_seed(args))
        config = setup.config()
        if args.seed + args.games > 2**64:
            raise SetupError("--seed: seed + games must stay below 2^64")
    else:
        setup, config = check_config(args, spec, params)
    setup = seated(setup, args)
    check_seats(setup)
    name = BOT if spec is None else spec.name
    identity = run_identity(args, name, params, config)
    out = _simulate_output(args)
    with _claimed(args, out):
        kept = [] if args.resume is None else load_checkpoint(Path(args.resume), identity, setup)
        every = CHECKPOINT_SECONDS if args.checkpoint_every is None else float(args.checkpoint_every)
        checkpoint = CheckpointWriter(out if _takes_checkpoints(out) else None, identity, every, kept)
        executor = open_executor(args)
        return _simulate_run(args, setup, (name, params, config), out, checkpoint, executor)


def _simulate_run(args: argparse.Namespace, setup: GameSetup, named: tuple[str, Mapping[str, Value], GameConfig],
                  out: Path | None, checkpoint: CheckpointWriter, executor: Executor) -> int:
    """[SIM-out-early] Write the first checkpoint before any game (a file that cannot be
    written fails now, not after the games), play, print the report, then write the
    result: a result that cannot be written still leaves the report on standard output."""
    try:
        checkpoint.write()
    except BaseException:
        executor.close()
        raise
    kept = [(0, chunk, chunk_result) for chunk, chunk_result in checkpoint.chunks]
    try:
        with signals_stop_run():
            result = run([Cell(setup, args.seed, args.games)], executor, args.chunk_size, kept,
                         lambda _, chunk, chunk_result: checkpoint.add(chunk, chunk_result))
    except (RunStopped, Stopped, KeyboardInterrupt) as stop:
        return _stopped(stop, checkpoint, args.games)
    summary = _simulate_summary(args, *named, executor, result)
    if args.json:
        print(json.dumps(summary, sort_keys=True))
    else:
        print_summary(summary)
    if out is not None:
        sys.stdout.flush()  # [SIM-out-early] the report is out before the file is tried
        write_text_atomically(out, json.dumps(summary, sort_keys=True) + "\n", "--out")
    return _report_failures([("", result.cells[0])])


@contextmanager
def _claimed(args: argparse.Namespace, out: Path | None) -> Iterator[None]:
    """[SIM-out-lock] Hold the lock of the ``--out`` (or ``--resume``) file for the run,
    and refuse a file that holds another run's checkpoint, unless the run resumes it or
    ``--overwrite`` is given."""
    overwrite = getattr(args, "overwrite", False)
    if overwrite and args.out is None:
        raise SetupError("--overwrite: only with --out FILE")
    if out is None or not _takes_checkpoints(out):
        yield
        return
    with lock_output(out, "--out" if args.out is not None else "--resume"):
        if not overwrite and is_checkpoint_file(out) and not _is_resumed(args, out):
            raise SetupError(f"--out {out}: holds the checkpoint of a run that has not finished; "
                             f"go on with it (--resume {out}), or start again over it (--overwrite)")
        yield


def _is_resumed(args: argparse.Namespace, out: Path) -> bool:
    """Whether ``out`` is the very file ``--resume`` names."""
    if args.resume is None:
        return False
    try:
        return os.path.samefile(out, args.resume)
    except OSError:
        return False


def run_identity(args: argparse.Namespace, strategy: str, params: Mapping[str, Value], config: GameConfig) -> dict[str, Any]:
    """[SIM-resume] Every setting that chooses a run's games, and the version of hanabi_ref
    that plays them."""
    return {"strategy": strategy, "params": dict(params), "players": config.players, "hand_size": config.hand_size,
            "rules": config.preset, "variant": config.variant, "seed": args.seed, "games": args.games,
            **({} if strategy_seed(args) is None else {"strategy_seed": strategy_seed(args)}),
            "hanabi_ref": _version()}


def strategy_seed(args: argparse.Namespace) -> int | None:
    """[ISO-seeds, SIM-resume] the run's strategy seed, when it has one of its own
    (arguments built by hand, as tests do, may not name one)."""
    seed: int | None = getattr(args, "strategy_seed", None)
    return seed


def _version() -> str:
    from importlib import metadata

    try:
        return metadata.version("hanabi_ref")
    except metadata.PackageNotFoundError:
        return "unknown"


def _simulate_output(args: argparse.Namespace) -> Path | None:
    """[SIM-out, SIM-errors] ``--out``, else the ``--resume`` file, checked before any game."""
    if args.out is not None:
        return check_output_path(args.out, "--out")
    if args.resume is not None:
        return check_output_path(args.resume, "--resume")
    return None


def _takes_checkpoints(path: Path | None) -> bool:
    """[SIM-out] Checkpoints go to a regular file (or one to create); standard output, a
    FIFO or a device gets only the result."""
    return path is not None and str(path) != "-" and (path.is_file() or not path.exists())


def _stopped(stop: BaseException, checkpoint: CheckpointWriter, total: int, kept: str | None = None) -> int:
    """[SIM-out, SIM-stall, SIM-dask-lost, SIM-orphans, SIM-interrupt] Keep the finished chunks in the
    checkpoint (if it has a file), then report: Ctrl-C goes on to ``main`` (exit 130),
    SIGTERM exits 143, a stopped run 3.  A checkpoint that cannot be written is a warning
    (the file keeps its last one) and the stop is still reported [SIM-out-early]."""
    checkpoint.write_or_warn()
    if isinstance(stop, KeyboardInterrupt):  # [SIM-interrupt] say where the finished games are, or how to keep them
        path = checkpoint.path
        where = (f"kept in {path} (go on with --resume {path})" if path is not None
                 else "not kept: run with --out FILE to keep the finished games of a run (and --resume FILE to go on)")
        stop.detail = escape_text(f"{checkpoint.games} of {total} games finished, {where}")  # type: ignore[attr-defined]
        raise stop  # main's one line: "hanabi-ref: interrupted; " and the detail
    if isinstance(stop, Stopped):  # [SV-signals] SIGTERM or SIGHUP: its line, its code
        print(stop.line, file=sys.stderr)
        exit_now(stop.code)
    if kept is None:
        path = checkpoint.path
        kept = (f"kept in {path} (go on with --resume {path})" if path is not None
                else "not kept (--out FILE keeps them)")
    print(stopped_line(stop, checkpoint.games, total, kept), file=sys.stderr)
    return EXIT_STOPPED


def _simulate_summary(args: argparse.Namespace, strategy: str, params: Mapping[str, Value], config: GameConfig,
                      executor: Executor, result: RunResult) -> dict[str, Any]:
    """``simulate --json``'s object [C-simulate, SIM-jobs]; the rate counts the games this
    process played."""
    cell = result.cells[0]
    return {
        "strategy": strategy,
        "params": params,
        "players": config.players,
        "hand_size": config.hand_size,
        "games": args.games,
        "seed": args.seed,
        "strategy_seed": strategy_seed(args),
        "rules": config.preset,
        "variant": config.variant,
        "max_score": tables_for(config).max_score,
        "contracts": ENABLED,
        "executor": executor.name,
        "jobs": result.workers,
        "chunk_size": result.chunk_size,
        **cell.statistics(),
        "failed_seeds": cell.failed_seeds,
        "failures": _failures_json(cell.failures),
        "trace_sha256": cell.trace_sha256,
        "outcome_sha256": cell.outcome_sha256,
        "games_per_second": result.games_played / result.seconds if result.seconds > 0 else float("inf"),
        "games_per_cpu_second": result.games_played / result.cpu_seconds if result.cpu_seconds > 0 else None,
    }


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
    if result.get("strategy_seed") is not None:
        rows.append(("strategy seed", f"{result['strategy_seed']} (ISO-seeds)"))
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
    cpu = result.get("games_per_cpu_second")
    per_cpu = f", {cpu:.1f} per CPU second" if cpu else ""
    rows.append(("games per second", f"{result['games_per_second']:.1f} wall clock{per_cpu} ({where})"))
    rows.append(("trace sha256", result["trace_sha256"]))
    rows.append(("outcome sha256", result["outcome_sha256"]))
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
    setups = [seated(GameSetup.of(args.players, args.rules, args.variant, args.hand_size, spec.name,
                                  spec.resolve({**fixed, **point}), strategy_seed(args)), args)
              for point in grid]
    _, config = check_config(args, spec, dict(setups[0].params))
    check_seats(setups[0])
    out, plot = _check_outputs(args)
    executor = open_executor(args)
    tally = CheckpointWriter(None, {}, CHECKPOINT_SECONDS)  # counts the finished games, writes nothing
    try:
        with signals_stop_run():
            result = run([Cell(setup, args.seed, args.games) for setup in setups], executor, args.chunk_size,
                         on_chunk=lambda _, chunk, chunk_result: tally.add(chunk, chunk_result))
    except (RunStopped, Stopped) as stop:
        return _stopped(stop, tally, args.games * len(setups), "not kept (a sweep keeps no checkpoint)")
    cells = list(zip(grid, result.cells))
    text = _render(args, spec, fixed, axes, config, cells, executor, result)
    if out is None:
        sys.stdout.write(text)
    else:
        _write_or_show(out, text)
    if plot is not None:
        from hanabi_ref.tools.sim.plot import save_plot

        save_plot(plot, args.plot_kind or "mean", axes, cells, _title(args, config))
    return _report_failures([(point_label(point), cell) for point, cell in cells])


def _write_or_show(out: Path, text: str) -> None:
    """[SIM-out-early] Write the sweep's table to ``out``; if that fails (a full disk), the
    table goes to standard output instead, so the run is not lost, before the error."""
    try:
        write_text_atomically(out, text, "--out")
    except SetupError:
        if not atomic.is_standard_output(out):
            sys.stdout.write(text)
            sys.stdout.flush()
        raise


def _check_outputs(args: argparse.Namespace) -> tuple[Path | None, Path | None]:
    """[SIM-errors] The output paths, checked before any game is played."""
    out = None if args.out is None else check_output_path(args.out, "--out")
    if args.plot is None:
        if args.plot_kind is not None:
            raise SetupError("--plot-kind: only with --plot FILE")
        return out, None
    from hanabi_ref.tools.sim.plot import PLOT_SUFFIXES, require_matplotlib

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
        "max_score": tables_for(config).max_score,
        "games": args.games,
        "seed": args.seed,
        "contracts": ENABLED,
        "executor": executor.name,
        "jobs": result.workers,
        "chunk_size": result.chunk_size,
        "games_per_second": total / result.seconds if result.seconds > 0 else None,
        "games_per_cpu_second": result.games_played / result.cpu_seconds if result.cpu_seconds > 0 else None,
    }
    return render_json(header, axes, cells)


__all__ = ["command_simulate", "command_sweep"]
