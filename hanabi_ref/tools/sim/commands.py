"""The ``simulate`` and ``sweep`` commands: their parsers, and handlers that hand the run
to :mod:`hanabi_ref.tools.sim.simulate` [C-simulate, SIM-sweep].

Like every ``commands`` module this one imports no game at load time: ``hanabi-ref
--help`` stays cheap, and ``--compiled`` is acted on before the engine is first
imported [B-compiled]; the handlers import what they run.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from hanabi_ref.base.cliargs import (PRESET_NAMES, Subparsers, UsageError, add_command, add_compiled_option, add_game_options, count,
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


def add_crossplay(commands: Subparsers) -> None:
    """[XP-matrix, XP-seats, XP-plot] ``crossplay``: every strategy beside every other."""
    crossplay = add_command(commands, "crossplay", command_crossplay,
                            help="play every strategy beside every other: the matrix of mean score, perfect and strike-out rates")
    crossplay.add_argument("--strategies", required=True, metavar="A,B,C", help="the strategies of the rows and columns")
    crossplay.add_argument("--players", type=positive, required=True, help="number of players p")
    crossplay.add_argument("--seats", type=positive, default=1, help="seats 0..k-1 play the column strategy (default 1)")
    crossplay.add_argument("--games", type=positive, required=True, help="games N per cell")
    crossplay.add_argument("--seed", type=count, default=None, help="seed of game 0 of every cell (default 0)")
    crossplay.add_argument("--strategy-seed", type=count, default=None,
                           help="seed the strategies from this seed, apart from the decks' (ISO-seeds)")
    crossplay.add_argument("--rules", default="thesis", help=f"rule preset: {', '.join(PRESET_NAMES)}")
    crossplay.add_argument("--variant", default="no-variant", help="variant slug or hanab.live name")
    crossplay.add_argument("--hand-size", type=positive, default=None, help="hand size h (default by p)")
    crossplay.add_argument("--json", action="store_true", help="print one JSON object")
    crossplay.add_argument("--plot", default=None, metavar="FILE",
                           help="draw the mean-score matrix as a heat map to FILE.png or FILE.svg (needs matplotlib)")
    for option, kind, text in (("--jobs", positive, "worker processes (default: all cores; 1: this process)"),
                               ("--chunk-size", positive, "games per task (default: automatic)")):
        crossplay.add_argument(option, type=kind, default=None, help=text)
    crossplay.add_argument("--executor", choices=["local", "dask"], default="local",
                           help="local processes (default) or a dask.distributed cluster")
    crossplay.add_argument("--scheduler", default=None, metavar="ADDRESS", help="address of the dask scheduler")
    crossplay.add_argument("--stall-timeout", type=seconds, default=None, metavar="SECONDS",
                           help="stop the run (exit 3) when no chunk finishes for this long (default 600)")
    add_compiled_option(crossplay)


def command_crossplay(args: argparse.Namespace) -> int:
    """[XP-matrix] every strategy beside every other, on the same seeds."""
    from hanabi_ref.tools.sim import crossplay

    return crossplay.command_crossplay(args)


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
