"""The ``simulate`` and ``sweep`` commands: their parsers, and handlers that hand the run
to :mod:`hanabi_ref.tools.sim.simulate` [C-simulate, SIM-sweep].

Like every ``commands`` module this one imports no game at load time: ``hanabi-ref
--help`` stays cheap, and ``--compiled`` is acted on before the engine is first
imported [B-compiled]; the handlers import what they run.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from hanabi_ref.base.cliargs import (Subparsers, UsageError, add_command, add_compiled_option, add_game_options, count,
                                positive, seconds)

if TYPE_CHECKING:
    from hanabi_ref.players.strategy import StrategyFactory


def add_simulate(commands: Subparsers) -> None:
    """[C-simulate, SIM-out, SIM-resume] ``simulate``."""
    simulate = add_command(commands, "simulate", command_simulate, help="play many seeded games with a strategy")
    add_game_options(simulate, bots=True)
    add_run_options(simulate)
    simulate.add_argument("--out", default=None, metavar="FILE",
                          help="write the result (the --json object) to FILE, and checkpoints while it runs")
    simulate.add_argument("--resume", default=None, metavar="FILE",
                          help="go on with the run checkpointed in FILE (written to FILE unless --out is given)")
    simulate.add_argument("--checkpoint-every", type=count, default=None, metavar="SECONDS",
                          help="rewrite the --out checkpoint at most this often (default 60; 0: after every chunk)")
    simulate.add_argument("--overwrite", action="store_true",
                          help="start again over the checkpoint of an unfinished run in --out (instead of --resume)")
    add_compiled_option(simulate)


def add_sweep(commands: Subparsers) -> None:
    """[SIM-sweep, SIM-plot] ``sweep``: simulate's options plus the grid and the outputs."""
    sweep = add_command(commands, "sweep", command_sweep, help="simulate every point of a grid of strategy parameters")
    add_game_options(sweep, json_option=False)
    add_run_options(sweep)
    sweep.add_argument("--grid", action="append", required=True, metavar="KEY=V1,V2,...",
                       help="a parameter and its values (repeatable: the grid is the product, in the order given)")
    sweep.add_argument("--format", choices=["table", "csv", "json"], default="table", help="output format")
    sweep.add_argument("--out", default=None, help="write the table to this file (default: standard output)")
    sweep.add_argument("--plot", default=None, metavar="FILE", help="draw a chart to FILE.png or FILE.svg (needs matplotlib)")
    sweep.add_argument("--plot-kind", choices=["mean", "distribution"], default=None,
                       help="mean score per point with 95%% intervals (default), or score distributions")
    add_compiled_option(sweep)


def add_run_options(parser: argparse.ArgumentParser) -> None:
    """Options of simulate and sweep: games, parameters, workers, stalls [SIM-jobs,
    SIM-param, SIM-dask, SIM-stall]."""
    parser.add_argument("--games", type=positive, required=True, help="number of games N (per grid point)")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="a strategy parameter (repeatable); the others keep their defaults")
    parser.add_argument("--jobs", type=positive, default=None,
                        help="worker processes (default: all cores; 1: play in this process)")
    parser.add_argument("--chunk-size", type=positive, default=None,
                        help="games per task (default: automatic; results do not depend on it)")
    parser.add_argument("--executor", choices=["local", "dask"], default="local",
                        help="local processes (default) or a dask.distributed cluster")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="address of the dask scheduler, e.g. tcp://host:8786 (with --executor dask)")
    parser.add_argument("--stall-timeout", type=seconds, default=None, metavar="SECONDS",
                        help="stop the run (exit 3) when no chunk finishes for this long (default 600)")


def command_simulate(args: argparse.Namespace) -> int:
    """Play games seed S .. S+N-1, in parallel, and report the statistics [C-simulate,
    SIM-jobs, SIM-param, SIM-progress, SIM-crash, SIM-dask]."""
    from hanabi_ref.tools.sim import simulate

    return simulate.command_simulate(args)


def command_sweep(args: argparse.Namespace) -> int:
    """Simulate every point of a grid of strategy parameters [SIM-sweep, SIM-plot]."""
    from hanabi_ref.tools.sim import simulate

    return simulate.command_sweep(args)


def strategy_factory(name: str) -> StrategyFactory:
    """The built-in strategy ``--strategy`` names; an unknown name is a usage error."""
    from hanabi_ref.players.strategies import STRATEGIES

    if name not in STRATEGIES:
        raise UsageError(f"hanabi-ref: --strategy: unknown strategy {name!r} (known: {', '.join(STRATEGIES)})")
    return STRATEGIES[name]
