"""The ``hanabi-ref`` command line [C-cli].

    hanabi-ref simulate --strategy NAME --players P --games N --seed S
                        [--rules PRESET] [--variant NAME] [--hand-size H] [--param K=V ...]
                        [--jobs J] [--chunk-size K] [--executor local|dask --scheduler ADDR] [--json]
                        [--out FILE [--checkpoint-every SECONDS] [--overwrite]] [--resume FILE]
                        [--stall-timeout SECONDS] [--compiled]
                        [--isolate | --bot CMD [--bot CMD ...] (instead of --strategy)] [--move-timeout SECONDS]
    hanabi-ref sweep    --strategy NAME --players P --games N --grid K=V1,V2,... [--grid ...]
                        [--param K=V ...] [--seed S] [--rules PRESET] [--variant NAME] [--hand-size H]
                        [--jobs J] [--chunk-size K] [--executor local|dask --scheduler ADDR]
                        [--stall-timeout SECONDS]
                        [--format table|csv|json] [--out FILE] [--plot FILE.png|FILE.svg]
                        [--plot-kind mean|distribution] [--compiled] [--isolate [--move-timeout SECONDS]]
    hanabi-ref play     --strategy NAME --players P --seed S [--out FILE] [--json] [--compiled] ...
                        [--isolate | --bot CMD [--bot CMD ...] (instead of --strategy)] [--move-timeout SECONDS]
    hanabi-ref replay   FILE [--format trace|hanab-live] [--rules PRESET] [--json]
    hanabi-ref verify   (--engine CMD | --against PEER) [--rules R,...] [--players P,...]
                        [--variant NAME] [--games N] [--seed S] [--timeout T] [--no-vectors]
                        [--views acting|all|none] [--no-views] [--out FILE] [--json] [--option NAME=VALUE ...]
    hanabi-ref rules    --list [--json]
    hanabi-ref serve    [--engine reference|PEER] [--deals deck|seed|seed-drawn]
    hanabi-ref vectors generate DIR
    hanabi-ref bench engine [--players P,...] [--against openspiel] [--rules PRESET] [--seconds S]
                        [--repeats R] [--seed S] [--compiled] [--json]
    hanabi-ref bench strategy [--strategy NAME] [--players P,...] [--rules PRESET] [--seconds S]
                        [--repeats R] [--seed S] [--json]
    hanabi-ref bench verify [--games N] [--repeats R] [--seed S] [--json]
    hanabi-ref bench isolate [--players P,...] [--rules PRESET] [--seconds S] [--repeats R] [--seed S] [--json]
    hanabi-ref bench playability-table [--repeats R] [--json]
    hanabi-ref bench solver [--players P] [--games N] [--seed S] [--rules PRESET] [--max-nodes M] [--json]
    hanabi-ref compile  [--status] [--json]
    hanabi-ref playability count --counts C --hand-size M [--samples N [--seed S]] [--json]
    hanabi-ref playability table [--json]
    hanabi-ref solve    --players P [--games N] [--seed S] [--rules PRESET] [--variant V] [--max-nodes M]
                        [--time-limit SECONDS] [--jobs J]
                        [--executor local|dask --scheduler ADDR] [--against STRATEGY] [--json] [--out FILE]
    hanabi-ref spec coverage [--root DIR] [--write FILE] [--check FILE]
    hanabi-ref rl train --agent recommendation --steps N --out DIR [--players P] [--rules PRESET] [--seed S]
                        [--bc-games G] [--bc-epochs E] [--decks D] [--rollouts K] [--embedding constant|modular]
                        [--judge-games G] [--threshold-games G]
    hanabi-ref rl eval  DIR [--games N] [--seed S] [--jobs J] [--json]
    hanabi-ref rl curve DIR --png FILE

Exit codes [C-exit]: 0 success; 1 invalid input or a failed check: a file that is not
JSON, breaks the schema or describes a game the rules do not allow, a strategy that chose
an illegal action, a game of ``simulate`` or ``sweep`` that failed, an engine under
verification that diverges, hangs, crashes or breaks the protocol, a compiled build that
failed; 2 a usage error (bad arguments, unknown preset, variant, strategy or peer,
an ``--engine`` command that cannot be started, a file that cannot be read or written,
``compile`` without mypy installed, ``--compiled`` without a usable build, ``bench
--against openspiel`` without open-spiel); 3 a simulation stopped by a stalled worker or
a lost dask scheduler, its finished games kept; 130 interrupted (Ctrl-C); 143 (129)
ended by SIGTERM (SIGHUP).  Every error is one line on stderr, never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from hanabi_ref.errors import ConfigError, FileReadError, HanabiError
from hanabi_ref.escape import escape_text

EXIT_OK = 0
EXIT_INVALID_GAME = 1
EXIT_USAGE = 2


class UsageError(Exception):
    """A mistake in the command line itself."""


class _VersionShown(Exception):
    """``--version`` printed the version: the command is done."""


class _VersionAction(argparse.Action):
    """[C-version] ``hanabi-ref --version``: the package's version on standard output."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any,
                 option_string: str | None = None) -> None:
        from hanabi_ref import __version__

        print(f"hanabi-ref {__version__}")
        raise _VersionShown


class _DefaultsFormatter(argparse.HelpFormatter):
    """[C-help] every option's help names its default, unless the text already does."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if "default" in text or default in (None, False, True, argparse.SUPPRESS) or default == []:
            return text
        return f"{text} (default: %(default)s)"


class _Parser(argparse.ArgumentParser):
    """argparse with one-line errors and exit code 2 [C-exit], help texts naming the
    defaults [C-help]."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _DefaultsFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("hanabi-ref").strip()
        raise UsageError(f"hanabi-ref: {command + ': ' if command else ''}{message}")


def _integer(text: str, low: int, high: int | None, meaning: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(f"must be {meaning}, got {text!r}")
    return value


def _positive(text: str) -> int:
    return _integer(text, 1, None, "a positive integer")


def _seed(text: str) -> int:
    return _integer(text, 0, 2**64 - 1, "an integer in 0..2^64-1")


def _seed_or_random(text: str) -> int:
    """[ISO-seeds] a seed, or ``random``: 63 bits drawn from the system's generator."""
    if text == "random":
        import secrets

        return secrets.randbits(63)
    return _seed(text)


def resolve_seeds(args: argparse.Namespace) -> None:
    """[ISO-seeds] ``--sealed`` draws both seeds from the system (given with either seed, a
    usage error); otherwise ``--seed`` defaults to 0 and the strategies are seeded from
    the deck seeds unless ``--strategy-seed`` is given."""
    if getattr(args, "sealed", False):
        if args.seed is not None or args.strategy_seed is not None:
            raise UsageError("hanabi-ref: --sealed draws both seeds from the system: give neither --seed nor "
                             "--strategy-seed with it")
        args.seed, args.strategy_seed = _seed_or_random("random"), _seed_or_random("random")
    elif hasattr(args, "strategy_seed") and args.seed is None:
        args.seed = 0


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return value


def _add_game_options(parser: argparse.ArgumentParser, *, json_option: bool = True, bots: bool = False) -> None:
    parser.add_argument("--strategy", required=not bots, default=None,
                        help="strategy name (random, simple, thesis, hat, hat-classic, recommendation, info, info-source, info-search, learned-recommendation)")
    parser.add_argument("--players", type=_positive, required=True, help="number of players p")
    parser.add_argument("--seed", type=_seed_or_random, default=None,
                        help="seed of game 0 (game i uses seed S+i; default 0); random: drawn from the system (ISO-seeds)")
    parser.add_argument("--strategy-seed", type=_seed_or_random, default=None,
                        help="seed the strategies from this seed, apart from the decks' (ISO-seeds); random: drawn "
                             "from the system")
    parser.add_argument("--sealed", action="store_true",
                        help="--seed random --strategy-seed random: no strategy can guess a deck (ISO-seeds)")
    parser.add_argument("--rules", default="thesis", help="rule preset: thesis, hle, hanab-live")
    parser.add_argument("--variant", default="no-variant", help="variant slug or hanab.live name")
    parser.add_argument("--hand-size", type=_positive, default=None, help="hand size h (default by p)")
    if json_option:
        parser.add_argument("--json", action="store_true", help="print one JSON object")
    _add_isolation_options(parser, bots)


def _add_isolation_options(parser: argparse.ArgumentParser, bots: bool) -> None:
    """[ISO-cli] seats in processes of their own."""
    parser.add_argument("--isolate", action="store_true",
                        help="run each seat's strategy in a process of its own (spec/isolation.md)")
    if bots:
        parser.add_argument("--bot", action="append", default=None, metavar="CMD",
                            help="seat a bot speaking the bot protocol (once: every seat; once per seat: seat by seat)")
    parser.add_argument("--move-timeout", type=_seconds, default=None, metavar="SECONDS",
                        help="seconds an isolated seat or bot may take to answer (default 10)")


def _add_run_options(parser: argparse.ArgumentParser) -> None:
    """Options of simulate and sweep: games, parameters, workers, stalls [SIM-jobs,
    SIM-param, SIM-dask, SIM-stall]."""
    parser.add_argument("--games", type=_positive, required=True, help="number of games N (per grid point)")
    parser.add_argument("--param", action="append", default=[], metavar="KEY=VALUE",
                        help="a strategy parameter (repeatable); the others keep their defaults")
    parser.add_argument("--jobs", type=_positive, default=None,
                        help="worker processes (default: all cores; 1: play in this process)")
    parser.add_argument("--chunk-size", type=_positive, default=None,
                        help="games per task (default: automatic; results do not depend on it)")
    parser.add_argument("--executor", choices=["local", "dask"], default="local",
                        help="local processes (default) or a dask.distributed cluster")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="address of the dask scheduler, e.g. tcp://host:8786 (with --executor dask)")
    parser.add_argument("--stall-timeout", type=_seconds, default=None, metavar="SECONDS",
                        help="stop the run (exit 3) when no chunk finishes for this long (default 600)")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``hanabi-ref``."""
    parser = _Parser(prog="hanabi-ref", description="Reference implementation of Hanabi.")
    parser.add_argument("--version", action=_VersionAction, help="print the version and exit")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    simulate = commands.add_parser("simulate", help="play many seeded games with a strategy")
    _add_game_options(simulate, bots=True)
    _add_run_options(simulate)
    simulate.add_argument("--out", default=None, metavar="FILE",
                          help="write the result (the --json object) to FILE, and checkpoints while it runs")
    simulate.add_argument("--resume", default=None, metavar="FILE",
                          help="go on with the run checkpointed in FILE (written to FILE unless --out is given)")
    simulate.add_argument("--checkpoint-every", type=_count, default=None, metavar="SECONDS",
                          help="rewrite the --out checkpoint at most this often (default 60; 0: after every chunk)")
    simulate.add_argument("--overwrite", action="store_true",
                          help="start again over the checkpoint of an unfinished run in --out (instead of --resume)")
    _add_compiled_option(simulate)
    _add_sweep_parser(commands)

    play = commands.add_parser("play", help="play one seeded game and write its trace")
    _add_game_options(play, bots=True)
    play.add_argument("--out", default=None, help="write the trace to this file")
    play.add_argument("--states", action="store_true", help="include the state after every action in the trace")
    play.add_argument("--human", type=_count, default=None, metavar="SEAT",
                      help="take seat SEAT yourself, at the terminal; the strategy plays the other seats (HU-play)")
    _add_show_options(play)
    _add_compiled_option(play)

    replay = commands.add_parser("replay", help="replay a game file and print the final state")
    replay.add_argument("file", help="game file (JSON)")
    replay.add_argument("--format", choices=["trace", "hanab-live"], default="trace", help="file format")
    replay.add_argument("--rules", default=None, help="rule preset for hanab.live files (default hanab-live)")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    _add_show_options(replay)
    replay.add_argument("--html", default=None, metavar="FILE",
                        help="write a self-contained page that steps through the game in a browser (VW-file)")

    _add_verify_parser(commands)
    explain = commands.add_parser("explain", help="tell the story of a divergence written by verify --out")
    explain.add_argument("file", help="the reproduction file (verify --out)")
    _add_rules_parser(commands)

    serve = commands.add_parser("serve", help="speak the engine protocol on stdin/stdout")
    serve.add_argument("--engine", default="reference", help="reference (ours) or a built-in peer adapter")
    serve.add_argument("--deals", choices=["deck", "seed", "seed-drawn"], default="deck",
                       help="our engine: handed the deck (deck), or dealing from the seed of new_game and revealing "
                            "the whole deck (seed) or each card as drawn (seed-drawn) (EP-seed)")

    vectors = commands.add_parser("vectors", help="conformance vectors")
    vectors.add_argument("action", choices=["generate"], help="generate: write every vector file")
    vectors.add_argument("directory", help="directory to write (replaced atomically)")

    _add_bench_parser(commands)

    _add_playability_parser(commands)
    _add_solve_parser(commands)
    _add_spec_parser(commands)
    _add_rl_parser(commands)

    compile_ = commands.add_parser("compile", help="compile the strategies' hot modules with mypyc (optional, faster)")
    compile_.add_argument("--status", action="store_true", help="only report whether this process runs them compiled")
    compile_.add_argument("--verbose", action="store_true", help="show mypyc's output")
    compile_.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def _add_compiled_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--compiled", action="store_true",
                        help="load the compiled build (hanabi-ref compile) in this process and its workers")


def _add_bench_parser(commands: Any) -> None:
    """[B-engine, PL-bench] ``bench engine`` and ``bench playability-table``."""
    bench = commands.add_parser("bench", help="measure speed (CPU and wall time)")
    bench.add_argument("target", choices=["engine", "strategy", "verify", "playability-table", "isolate", "solver"],
                       help="what to measure")
    bench.add_argument("--games", type=_positive, default=200, help="random games of one run of bench verify")
    bench.add_argument("--strategy", default="info", help="the strategy of bench strategy (default info)")
    bench.add_argument("--players", type=_player_counts, default=None,
                       help="player counts, e.g. 3 or 2,3,4,5 (default 2,3,4,5 with --against, else 3)")
    bench.add_argument("--against", choices=["openspiel"], default=None, help="also measure this peer engine")
    bench.add_argument("--rules", default="hle", help="rule preset (default hle, the rules OpenSpiel plays)")
    bench.add_argument("--seconds", type=_seconds, default=2.0, help="CPU seconds of one run")
    bench.add_argument("--repeats", type=_positive, default=5, help="interleaved runs per variant (median reported)")
    bench.add_argument("--seed", type=_seed, default=0, help="seed of the first game of each run")
    bench.add_argument("--max-nodes", type=_positive, default=200_000,
                       help="positions each deck may search in bench solver (default 200000)")
    bench.add_argument("--json", action="store_true", help="print the whole report as one JSON object")
    _add_compiled_option(bench)


def _add_show_options(parser: argparse.ArgumentParser) -> None:
    """``--show [--from N] [--to M]`` [SH-show]."""
    parser.add_argument("--show", action="store_true",
                        help="print the game move by move: each move and the board after it (SH-show)")
    parser.add_argument("--from", dest="show_from", type=_count, default=None, metavar="N",
                        help="with --show: start at move N (default: the deal)")
    parser.add_argument("--to", dest="show_to", type=_count, default=None, metavar="M",
                        help="with --show: stop after move M (default: the last move)")


def _player_counts(text: str) -> list[int]:
    counts = [_integer(part.strip(), 1, None, "player counts such as 3 or 2,3,4,5") for part in text.split(",")]
    if len(set(counts)) != len(counts):
        raise argparse.ArgumentTypeError(f"must name each player count once, got {text!r}")
    return counts


def _add_sweep_parser(commands: Any) -> None:
    """[SIM-sweep, SIM-plot] ``sweep``: simulate's options plus the grid and the outputs."""
    sweep = commands.add_parser("sweep", help="simulate every point of a grid of strategy parameters")
    _add_game_options(sweep, json_option=False)
    _add_run_options(sweep)
    sweep.add_argument("--grid", action="append", required=True, metavar="KEY=V1,V2,...",
                       help="a parameter and its values (repeatable: the grid is the product, in the order given)")
    sweep.add_argument("--format", choices=["table", "csv", "json"], default="table", help="output format")
    sweep.add_argument("--out", default=None, help="write the table to this file (default: standard output)")
    sweep.add_argument("--plot", default=None, metavar="FILE", help="draw a chart to FILE.png or FILE.svg (needs matplotlib)")
    sweep.add_argument("--plot-kind", choices=["mean", "distribution"], default=None,
                       help="mean score per point with 95%% intervals (default), or score distributions")
    _add_compiled_option(sweep)


def _add_solve_parser(commands: Any) -> None:
    """[SV-estimate] ``solve``: the open games of seeded decks."""
    solve = commands.add_parser("solve", help="which seeded decks can reach the maximum score in the open game (spec/solver.md)")
    solve.add_argument("--players", type=_positive, required=True, help="number of players p")
    solve.add_argument("--games", type=_positive, default=100, help="decks to solve (default 100)")
    solve.add_argument("--seed", type=_seed, default=0, help="seed of deck 0 (deck i uses seed S+i; default 0)")
    solve.add_argument("--rules", default="hle", help="rule preset (default hle)")
    solve.add_argument("--variant", default="No Variant", help="variant (default No Variant)")
    solve.add_argument("--hand-size", type=_positive, default=None, help="cards per hand (default: the preset's)")
    solve.add_argument("--max-nodes", type=_positive, default=1_000_000,
                       help="positions each deck may search before it counts as undecided (default 1000000)")
    solve.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                       help="also stop a deck's search after this many seconds of wall time (default: none; "
                            "the answers then depend on the machine)")
    solve.add_argument("--jobs", type=_positive, default=1, help="worker processes (default 1; results do not depend on it)")
    solve.add_argument("--executor", choices=["local", "dask"], default="local",
                       help="local processes (default) or a dask.distributed cluster")
    solve.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="address of the dask scheduler, e.g. tcp://host:8786 (with --executor dask)")
    solve.add_argument("--against", action="append", default=[], metavar="STRATEGY",
                       help="also play this strategy on every deck and report its perfect games beside the "
                            "winnable ones (repeatable)")
    solve.add_argument("--json", action="store_true", help="print the summary as one JSON object")
    solve.add_argument("--out", default=None, metavar="FILE", help="write the JSON summary to FILE once every deck is solved")


def command_solve(args: argparse.Namespace) -> int:
    """[SV-estimate] solve seeded decks and print the winnable fraction."""
    from hanabi_ref.solver.commands import run_solve

    from hanabi_ref.sim.executors import SetupError

    if args.executor == "dask" and args.scheduler is None:
        raise SetupError("--executor dask: needs --scheduler ADDRESS (e.g. tcp://host:8786)")
    if args.executor != "dask" and args.scheduler is not None:
        raise SetupError("--scheduler: only with --executor dask")
    if args.time_limit is not None and not args.time_limit > 0:
        raise UsageError(f"hanabi-ref: --time-limit: must be more than 0 seconds, got {args.time_limit:g}")
    from hanabi_ref.strategies import ParamError, strategy_spec

    config = _config(args)
    for name in args.against:  # an unknown strategy or one that cannot play this configuration: exit 2
        try:
            spec = strategy_spec(name)
        except ParamError as error:
            raise UsageError(f"hanabi-ref: --against: {error}") from None
        spec.check_config(config)
    code = run_solve(config, args.rules, args.games, args.seed, args.max_nodes, args.jobs, args.json, args.out,
                     args.scheduler, args.time_limit, tuple(args.against))
    return EXIT_OK if code == 0 else EXIT_INVALID_GAME


def _add_playability_parser(commands: Any) -> None:
    """[PL-cli] ``playability count`` and ``playability table``."""
    playability = commands.add_parser("playability", help="which deck orders can be played perfectly (thesis §3)")
    questions = playability.add_subparsers(dest="question", required=True, parser_class=_Parser)
    count = questions.add_parser("count", help="count (or estimate) the playable orders of a deck")
    count.add_argument("--counts", required=True, help="cards per value, colours separated by /: 3,2,2,2,1 or 2,1,1/2,1,1")
    count.add_argument("--hand-size", type=_positive, required=True, help="hand size m of the single player")
    count.add_argument("--samples", type=_positive, default=None, help="estimate from N random shuffles instead of counting")
    count.add_argument("--seed", type=_seed, default=None, help="seed of the shuffles (with --samples; default 0)")
    count.add_argument("--json", action="store_true", help="print one JSON object")
    table = questions.add_parser("table", help="print Appendix A of the thesis, computed")
    table.add_argument("--json", action="store_true", help="print one JSON object")


def _add_verify_parser(commands: Any) -> None:
    verify = commands.add_parser("verify", help="check another engine against the reference")
    target = verify.add_mutually_exclusive_group(required=True)
    target.add_argument("--engine", help="command line of an engine speaking spec/engine-protocol.md")
    target.add_argument("--against", help="built-in peer adapter: openspiel, hle, hle-seed, hanabython")
    verify.add_argument("--rules", default=None, help="presets of the random games, comma-separated")
    verify.add_argument("--players", default=None, help="player counts of the random games, e.g. 2,3 or 2-5")
    verify.add_argument("--variant", default="no-variant", help="variant of the random games")
    verify.add_argument("--games", type=_count, default=200, help="random games (0: vectors only)")
    verify.add_argument("--seed", type=_seed, default=0, help="seed of the random games")
    verify.add_argument("--timeout", type=_seconds, default=10.0, help="seconds the engine may take per answer")
    verify.add_argument("--no-vectors", action="store_true", help="skip the conformance vectors")
    verify.add_argument("--views", choices=["acting", "all", "none"], default="acting",
                        help="whose views to check, if the engine answers observe (EP-views): the seat to move at every "
                             "state and every seat at a game's start and end (acting, the default), every seat at every "
                             "state (all), none")
    verify.add_argument("--no-views", action="store_true", help="the same as --views none")
    verify.add_argument("--partial", action="store_true",
                        help="pass an engine that leaves out fields a game's result depends on (the report lists them)")
    verify.add_argument("--out", default="hanabi-ref-divergence.json",
                        help="where to write a divergence's trace (default hanabi-ref-divergence.json)")
    verify.add_argument("--json", action="store_true", help="print one JSON object")
    verify.add_argument("--option", type=_rule_option, action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option on top of each preset of the random games (repeatable; "
                             "hanabi-ref rules --list shows them)")


def _rule_option(text: str) -> tuple[str, bool | str]:
    """[EP-options] ``--option NAME=VALUE``: a known rule option and one of its values."""
    from hanabi_ref.rules import parse_rule_option

    try:
        return parse_rule_option(text)
    except ConfigError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _add_rules_parser(commands: Any) -> None:
    """[C-rules] ``rules --list``: the rule options and the presets."""
    rules = commands.add_parser("rules", help="the rule options and presets (spec/rules.md section 10)")
    rules.add_argument("--list", action="store_true", required=True,
                       help="list every rule option and every preset")
    rules.add_argument("--json", action="store_true", help="print one JSON object")


def _count(text: str) -> int:
    return _integer(text, 0, None, "a non-negative integer")


def _config(args: argparse.Namespace) -> Any:
    from hanabi_ref.rules import make_config

    return make_config(args.players, preset=args.rules, variant=args.variant, hand_size=args.hand_size)


def _factory(name: str) -> Any:
    from hanabi_ref.strategies import STRATEGIES

    if name not in STRATEGIES:
        raise UsageError(f"hanabi-ref: --strategy: unknown strategy {name!r} (known: {', '.join(STRATEGIES)})")
    return STRATEGIES[name]


def command_simulate(args: argparse.Namespace) -> int:
    """Play games seed S .. S+N-1, in parallel, and report the statistics [C-simulate,
    SIM-jobs, SIM-param, SIM-progress, SIM-crash, SIM-dask]."""
    from hanabi_ref.sim.commands import command_simulate as simulate

    return simulate(args)


def command_sweep(args: argparse.Namespace) -> int:
    """Simulate every point of a grid of strategy parameters [SIM-sweep, SIM-plot]."""
    from hanabi_ref.sim.commands import command_sweep as sweep

    return sweep(args)


def command_play(args: argparse.Namespace) -> int:
    """Play one game and optionally write its trace [C-play, T-trace]; ``--show`` prints
    it move by move [SH-show], ``--human SEAT`` lets a person take a seat [HU-play]."""
    from hanabi_ref.game import play_game
    from hanabi_ref.trace import summary

    config = _config(args)
    _check_show_options(args)
    if args.human is not None and args.human >= config.players:
        raise UsageError(f"hanabi-ref: --human: seat {args.human} does not exist ({config.players} players: "
                         f"seats 0..{config.players - 1})")
    factory = _play_factory(args, config)
    try:
        if args.human is not None:
            from hanabi_ref.human import play_human

            # [OUT-special] with the trace on standard output, the game is played on standard error
            record = play_human(config, factory, args.human, seed=args.seed, strategy_seed=args.strategy_seed,
                                output=sys.stderr if args.out == "-" else None)
        else:
            record = play_game(config, factory, seed=args.seed, strategy_seed=args.strategy_seed)
    finally:
        close = getattr(factory, "close", None)
        if close is not None:
            close()  # [ISO-lifecycle] every seat's process ended and reaped
    if args.out is not None:
        _write_trace(record.trace, args.out, args.states)
    result = summary(record.final)
    if args.strategy_seed is not None:  # [ISO-seeds] the seeds that play this game again
        result = {**result, "seed": args.seed, "strategy_seed": args.strategy_seed}
    if args.out == "-":  # [OUT-special] the trace has standard output; the summary goes beside it
        with contextlib.redirect_stdout(sys.stderr):
            _show(args, record.trace)
            _print_summary(result, args.json)
    else:
        _show(args, record.trace)
        _print_summary(result, args.json)
    return EXIT_OK


def _check_show_options(args: argparse.Namespace) -> None:
    """[SH-show] ``--from``/``--to`` only with ``--show``, and in order."""
    if not args.show and (args.show_from is not None or args.show_to is not None):
        raise UsageError("hanabi-ref: --from/--to: only with --show")
    if args.show_from is not None and args.show_to is not None and args.show_from > args.show_to:
        raise UsageError(f"hanabi-ref: --from {args.show_from} is after --to {args.show_to}")


def _show(args: argparse.Namespace, trace: Any, states: Any = None) -> None:
    """[SH-show] the game move by move, when ``--show`` asks."""
    if not args.show:
        return
    from hanabi_ref.show import show_game
    from hanabi_ref.trace import replay_states

    for line in show_game(replay_states(trace) if states is None else states, args.show_from, args.show_to):
        print(line)


def _play_factory(args: argparse.Namespace, config: Any) -> Any:
    """The strategy of ``play``: in this process, or with ``--isolate`` or ``--bot`` in a
    process per seat [ISO-cli]."""
    from hanabi_ref.sim.chunks import GameSetup
    from hanabi_ref.sim.commands import BOT, check_seats, check_strategy_or_bots, seated

    spec = check_strategy_or_bots(args)
    if spec is None or args.isolate:
        setup = GameSetup.of(config.players, config.preset, args.variant, args.hand_size,
                             BOT if spec is None else spec.name, {})
        setup = seated(setup, args)
        check_seats(setup)
        return setup.factory()
    if args.move_timeout is not None:
        raise UsageError("hanabi-ref: --move-timeout: only with --isolate or --bot")
    return _factory(args.strategy)


def _write_trace(trace: Any, out: str, with_states: bool) -> None:
    """[C-play, OUT-atomic, OUT-special, OUT-symlink] ``--out``: a file replaced atomically,
    ``-``, a device or a FIFO written through; an OS error is a usage error, a broken pipe on
    standard output ends the command quietly [OUT-stdout]."""
    from hanabi_ref.atomic import is_standard_output
    from hanabi_ref.trace import save_trace

    try:
        save_trace(trace, out, with_states=with_states)
    except BrokenPipeError:
        if is_standard_output(out):
            raise
        raise UsageError(f"hanabi-ref: --out: cannot write {out}: the reader of the pipe has gone") from None
    except OSError as error:
        raise UsageError(f"hanabi-ref: --out: cannot write {out}: {error.strerror or error}") from None


def _print_summary(result: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(result, sort_keys=True))
        return
    for key, value in result.items():
        print(f"{key:<12} {value}")


def command_replay(args: argparse.Namespace) -> int:
    """Replay a trace or a hanab.live game and print the final state [C-replay, T-trace,
    T-schema]; ``--show`` prints it move by move [SH-show]; ``--html`` writes the
    browser viewer [VW-file], nothing when the file is bad."""
    from hanabi_ref.errors import TraceError
    from hanabi_ref.trace import load_trace, replay_states, summary

    _check_show_options(args)
    if args.format == "hanab-live":
        from hanabi_ref.hanablive import load_hanablive
        from hanabi_ref.rules import PRESETS

        if args.rules is not None and args.rules not in PRESETS:  # [C-exit] a usage error, not the file's
            raise UsageError(f"hanabi-ref: --rules: unknown preset {args.rules!r} (known: {', '.join(PRESETS)})")
        trace = load_hanablive(args.file, args.rules or "hanab-live")
    elif args.rules is not None:
        raise UsageError("hanabi-ref: --rules: only for --format hanab-live (a trace names its own rules)")
    else:
        trace = load_trace(args.file)
    try:
        states = replay_states(trace)
    except TraceError as error:
        raise InvalidGame(f"hanabi-ref: {args.file}: {error}") from None
    if args.html is not None:
        _write_viewer(args, trace, states)
    _show(args, trace, states)
    result = summary(states[-1])
    if args.format == "hanab-live":
        from hanabi_ref.hanablive import game_is_over

        result["terminal"] = game_is_over(states[-1])  # [HL-end] the server's end, its final-round rule included
    _print_summary(result, args.json)
    return EXIT_OK


def _write_viewer(args: argparse.Namespace, trace: Any, states: Any) -> None:
    """[VW-file, OUT-atomic] ``--html FILE``: the viewer page, replaced atomically; a
    reproduction file of ``verify`` shows the divergence [VW-divergence]."""
    from hanabi_ref.viewer import read_divergence, write_viewer

    divergence = read_divergence(args.file) if args.format == "trace" else None
    try:
        write_viewer(args.html, trace, states, title=Path(args.file).name, divergence=divergence)
    except OSError as error:
        raise UsageError(f"hanabi-ref: --html: cannot write {args.html}: {error.strerror or error}") from None


def command_explain(args: argparse.Namespace) -> int:
    """[EP-explain] a reproduction file of ``verify`` as a short story."""
    from hanabi_ref.errors import FileReadError, TraceError
    from hanabi_ref.verify.explain import explain

    try:
        lines = explain(args.file)
    except FileReadError:
        raise  # unreadable: a usage error (exit 2)
    except TraceError as error:
        raise InvalidGame(f"hanabi-ref: {error}") from None
    for line in lines:
        print(escape_text(line))  # [OUT-escape] the story quotes the file's texts
    return EXIT_OK


def command_verify(args: argparse.Namespace) -> int:
    """Drive another engine through the vectors and random games [C-verify, EP-vectors, EP-random]."""
    from hanabi_ref.verify.cli import run_verify

    return EXIT_OK if run_verify(args) else EXIT_INVALID_GAME


def command_serve(args: argparse.Namespace) -> int:
    """Serve an engine over the JSON-lines protocol [C-serve, EP-serve]."""
    from hanabi_ref.verify.cli import make_engine
    from hanabi_ref.protocol.engine import Engine
    from hanabi_ref.verify.serve import serve

    engine: Engine
    if args.deals == "deck":
        engine = make_engine(args.engine)
    elif args.engine != "reference":
        raise UsageError(f"hanabi-ref: serve: --deals {args.deals}: only for --engine reference (a peer deals as it does)")
    else:
        from hanabi_ref.protocol.seeded import SeededReference

        engine = SeededReference("deck" if args.deals == "seed" else "drawn")  # [EP-seed]
    try:
        serve(engine, sys.stdin.buffer, sys.stdout)
    finally:
        engine.close()
    return EXIT_OK


def command_vectors(args: argparse.Namespace) -> int:
    """Write the conformance vectors [C-vectors, VEC-generate]."""
    from hanabi_ref.vectors import VectorsError, generate

    try:
        count = generate(Path(args.directory))
    except VectorsError as error:
        raise UsageError(f"hanabi-ref: {error}") from None
    except OSError as error:
        raise UsageError(f"hanabi-ref: {args.directory}: cannot write: {error.strerror or error}") from None
    print(f"wrote {count} vectors to {args.directory}")
    return EXIT_OK


class InvalidGame(Exception):
    """A well-formed input that describes a game the rules do not allow."""


def command_bench(args: argparse.Namespace) -> int:
    """Interleaved, CPU-timed runs of our engine's variants and a peer's [B-engine], or the
    time to compute Appendix A [PL-bench]."""
    if args.target == "playability-table":
        return _bench_playability_table(args)
    if args.target == "strategy":
        return _bench_strategy(args)
    if args.target == "verify":
        return _bench_verify(args)
    if args.target == "isolate":
        return _bench_isolate(args)
    if args.target == "solver":
        return _bench_solver(args)
    import importlib.util

    from hanabi_ref.bench import engine as bench
    from hanabi_ref.rules import make_config

    if args.against is not None and args.rules != "hle":
        raise UsageError(f"hanabi-ref: bench: --rules: {args.against} plays the hle rules, got {args.rules!r}")
    if args.against is not None and importlib.util.find_spec("pyspiel") is None:
        raise UsageError("hanabi-ref: bench: --against openspiel needs open-spiel: pip install 'hanabi-ref[openspiel]'")
    players = args.players or ([2, 3, 4, 5] if args.against else [3])
    for count in players:
        make_config(count, preset=args.rules)  # reject a bad configuration before measuring
    try:
        report = bench.bench_engine(players, args.rules, args.seconds, args.repeats, args.seed, args.against)
    except bench.BenchError as error:
        raise InvalidGame(f"hanabi-ref: bench: {error}") from None
    print(json.dumps(report, sort_keys=True) if args.json else bench.format_engine_report(report))
    return EXIT_OK


def _bench_solver(args: argparse.Namespace) -> int:
    """[SV-bench] the solver's CPU time per deck, whole and without each idea."""
    from hanabi_ref.rules import make_config
    from hanabi_ref.solver.bench import bench_solver, format_report

    if args.against is not None:
        raise UsageError("hanabi-ref: bench: --against: only for bench engine")
    players = args.players or [4]
    if len(players) != 1:
        raise UsageError("hanabi-ref: bench: --players: bench solver measures one player count")
    config = make_config(players[0], preset=args.rules)
    report = bench_solver(config, args.rules, args.games, args.seed, args.max_nodes)
    print(json.dumps(report, sort_keys=True) if args.json else format_report(report))
    return EXIT_OK


def _bench_strategy(args: argparse.Namespace) -> int:
    """[B-strategy] whole games of one strategy, sources against the compiled build."""
    from hanabi_ref.bench import engine as bench
    from hanabi_ref.rules import make_config
    from hanabi_ref.strategies import ParamError, strategy_spec

    if args.against is not None:
        raise UsageError("hanabi-ref: bench: --against: only for bench engine")
    try:
        spec = strategy_spec(args.strategy)
    except ParamError as error:
        raise UsageError(f"hanabi-ref: bench: --strategy: {error}") from None
    players = args.players or [4]
    for count in players:
        spec.check_config(make_config(count, preset=args.rules))  # before measuring
    try:
        report = bench.bench_strategy(spec.name, players, args.rules, args.seconds, args.repeats, args.seed)
    except bench.BenchError as error:
        raise InvalidGame(f"hanabi-ref: bench: {error}") from None
    print(json.dumps(report, sort_keys=True) if args.json else bench.format_strategy_report(report))
    return EXIT_OK


def _bench_isolate(args: argparse.Namespace) -> int:
    """[B-isolate] whole games of the hat player, in-process and with isolated seats."""
    from hanabi_ref.bench import isolate as bench
    from hanabi_ref.rules import make_config
    from hanabi_ref.strategies import strategy_spec

    if args.against is not None:
        raise UsageError("hanabi-ref: bench: --against: only for bench engine")
    players = args.players or [4]
    for count in players:
        strategy_spec(bench.STRATEGY).check_config(make_config(count, preset=args.rules))  # before measuring
    try:
        report = bench.bench_isolate(players, args.rules, args.seconds, args.repeats, args.seed)
    except bench.BenchIsolateError as error:
        raise InvalidGame(f"hanabi-ref: bench isolate: {error}") from None
    print(json.dumps(report, sort_keys=True) if args.json else bench.format_report(report))
    return EXIT_OK


def _bench_verify(args: argparse.Namespace) -> int:
    """[B-verify] the random games of verify against OpenSpiel, and shrinking a long divergence."""
    import importlib.util

    from hanabi_ref.bench import verify as bench

    if importlib.util.find_spec("pyspiel") is None:
        raise UsageError("hanabi-ref: bench verify: needs open-spiel: pip install 'hanabi-ref[openspiel]'")
    try:
        report = bench.bench_verify(args.games, args.repeats, args.seed)
    except bench.BenchVerifyError as error:
        raise InvalidGame(f"hanabi-ref: bench verify: {error}") from None
    print(json.dumps(report, sort_keys=True) if args.json else bench.format_report(report))
    return EXIT_OK


def _bench_playability_table(args: argparse.Namespace) -> int:
    from hanabi_ref.bench.engine import bench_playability_table

    report = bench_playability_table(args.repeats)
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        wall = ", ".join(f"{seconds:.2f}" for seconds in report["runs_seconds"])
        cpu = ", ".join(f"{seconds:.2f}" for seconds in report["runs_cpu_seconds"])
        print(f"Appendix A (126 compositions x 5 hand sizes), one core, median of {args.repeats}: "
              f"{report['median_cpu_seconds']:.2f} CPU s (runs {cpu}), {report['median_seconds']:.2f} wall s (runs {wall})")
    return EXIT_OK


def command_playability(args: argparse.Namespace) -> int:
    """[PL-cli] Exact or sampled playability counts, and Appendix A."""
    from hanabi_ref.playability import cli as playability_cli

    if args.question == "table":
        return playability_cli.print_table(args.json)
    if args.seed is not None and args.samples is None:
        raise UsageError("hanabi-ref: playability count: --seed only applies with --samples")
    return playability_cli.print_count(args.counts, args.hand_size, args.samples, args.seed or 0, args.json)


def _add_rl_parser(commands: Any) -> None:
    """[RL-cli, RL-train-cli] ``rl check``, ``rl play``, ``rl bench``, ``rl train``, ``rl eval`` and ``rl curve``."""
    rl = commands.add_parser("rl", help="reinforcement-learning encodings and environments (spec/rl.md)")
    questions = rl.add_subparsers(dest="question", required=True, parser_class=_Parser)
    check = questions.add_parser("check", help="compare the encoders with a peer, every seat of every state")
    check.add_argument("--against", choices=["openspiel"], required=True, help="the peer (openspiel)")
    check.add_argument("--states", type=_positive, required=True, help="(state, seat) pairs to compare")
    check.add_argument("--seed", type=_seed, default=0, help="seed of the games and drawn configurations")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    play = questions.add_parser("play", help="play one game and print the encoding of every observation")
    _add_game_options(play)
    play.add_argument("--encoding", required=True, help="canonical, minimal, v0 or notes")
    play.add_argument("--all-seats", action="store_true", help="every seat's view of every state, not only the acting one's")
    bench = questions.add_parser("bench", help="encoded steps per CPU second: single and batch environments, OpenSpiel")
    bench.add_argument("--players", type=_positive, default=4, help="number of players (default 4)")
    bench.add_argument("--hand-size", type=_positive, default=None, help="hand size (default by p)")
    bench.add_argument("--batch", type=_positive, action="append", default=None, metavar="N",
                       help="a batch size to measure (repeatable; default 1, 64 and 1024)")
    bench.add_argument("--repeats", type=_positive, default=3, help="runs of each measure; the median is shown")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    train = questions.add_parser("train", help="train a learned hat agent (spec/rl.md section 9; needs PyTorch)")
    train.add_argument("--agent", required=True, help="the agent to train: recommendation")
    train.add_argument("--players", type=_positive, default=4, help="number of players (default 4)")
    train.add_argument("--rules", default="hle", help="rule preset (default hle)")
    train.add_argument("--steps", type=_positive, required=True, help="game moves to play in all")
    train.add_argument("--seed", type=_seed, default=0, help="the run's seed (decks, weights, draws)")
    train.add_argument("--out", required=True, metavar="DIR", help="the run's directory (a run there is resumed)")
    train.add_argument("--bc-games", type=_positive, default=None, help="games of the teacher to clone (default 2000)")
    train.add_argument("--bc-epochs", type=_positive, default=None, help="passes over them (default 4)")
    train.add_argument("--decks", type=_positive, default=None, help="decks per policy-gradient update (default 32)")
    train.add_argument("--rollouts", type=_positive, default=None, help="games per deck and update, at least 2 (default 4)")
    train.add_argument("--embedding", choices=["constant", "modular"], default=None,
                       help="how the team embeds its sums in reveals (default modular)")
    train.add_argument("--judge-games", type=_positive, default=None,
                       help="the teacher's games the judge of stale plays learns from (default 10000)")
    train.add_argument("--threshold-games", type=_positive, default=None,
                       help="games per threshold the judge's threshold is chosen by (default 1000)")
    evaluate = questions.add_parser("eval", help="play a trained model's team: simulate's summary")
    evaluate.add_argument("model", metavar="DIR", help="a training directory (its model.npz) or a model file")
    evaluate.add_argument("--games", type=_positive, default=10000, help="games to play (default 10000)")
    evaluate.add_argument("--seed", type=_seed, default=0, help="seed of the first game (default 0)")
    evaluate.add_argument("--jobs", type=_positive, default=None, help="worker processes (default: all cores)")
    evaluate.add_argument("--json", action="store_true", help="print simulate's JSON summary")
    curve = questions.add_parser("curve", help="draw a training run's learning curve (needs matplotlib)")
    curve.add_argument("run", metavar="DIR", help="a training directory")
    curve.add_argument("--png", required=True, metavar="FILE", help="the PNG file to write")


def command_rl(args: argparse.Namespace) -> int:
    """[RL-cli, RL-errors] the rl commands; a refusal of the RL face is a usage error (exit 2)."""
    try:
        from hanabi_ref.rl import commands as rl_commands
    except ImportError as error:  # numpy is the rl extra's
        raise UsageError(f"hanabi-ref: rl: needs numpy ({error}); pip install 'hanabi-ref[rl]'") from None
    from hanabi_ref.rl.errors import RLError

    try:
        if args.question == "check":
            return EXIT_OK if rl_commands.run_check(args.states, args.seed, args.json) else EXIT_INVALID_GAME
        if args.question == "bench":
            from hanabi_ref.rl.batch import batch_unsupported
            from hanabi_ref.rules import make_config

            config = make_config(args.players, preset="hle", hand_size=args.hand_size)
            if batch_unsupported(config) is not None:
                raise UsageError(f"hanabi-ref: rl bench: {batch_unsupported(config)}")
            rl_commands.run_bench(config, args.batch or [1, 64, 1024], args.repeats, args.json)
            return EXIT_OK
        if args.question == "train":
            options = {name: value for name in ("bc_games", "bc_epochs", "decks", "rollouts", "embedding",
                                                "judge_games", "threshold_games")
                       if (value := getattr(args, name)) is not None}
            if options.get("rollouts", 2) < 2:
                raise UsageError("hanabi-ref: rl train: --rollouts: at least 2 (the baseline is the other rollouts' mean)")
            rl_commands.run_train(args.agent, args.players, args.rules, args.steps, args.seed, args.out, options)
            return EXIT_OK
        if args.question == "eval":
            return main(rl_commands.eval_arguments(args.model, args.games, args.seed, args.jobs, args.json))
        if args.question == "curve":
            rl_commands.write_curve(args.run, args.png)
            return EXIT_OK
        rl_commands.run_play(args.encoding, _config(args), _factory(args.strategy), args.seed, args.all_seats, args.json)
    except RLError as error:
        raise UsageError(f"hanabi-ref: rl: {error}") from None
    return EXIT_OK


def _add_spec_parser(commands: Any) -> None:
    """[C-coverage] ``spec coverage``: the clause -> code -> tests -> proofs matrix."""
    spec = commands.add_parser("spec", help="facts about spec/ and the code that implements it")
    questions = spec.add_subparsers(dest="question", required=True, parser_class=_Parser)
    coverage = questions.add_parser("coverage", help="which code implements and which tests check each clause")
    coverage.add_argument("--root", default=".", help="the checkout to read (default: the current directory)")
    coverage.add_argument("--write", default=None, metavar="FILE", help="write the matrix as markdown (docs/coverage.md)")
    coverage.add_argument("--check", default=None, metavar="FILE", help="fail unless FILE holds the current matrix")


def command_spec(args: argparse.Namespace) -> int:
    """Print, write or check the coverage matrix; exit 1 naming each uncovered clause
    [C-coverage]."""
    from hanabi_ref import spec_coverage

    write = None if args.write is None else Path(args.write)
    check = None if args.check is None else Path(args.check)
    try:
        code, out, errors = spec_coverage.run_command(Path(args.root), write, check)
    except spec_coverage.CoverageParseError as error:
        raise InvalidGame(f"hanabi-ref: spec coverage: {error}") from None
    except spec_coverage.CoverageInputError as error:
        raise UsageError(f"hanabi-ref: spec coverage: {error}") from None
    for line in out:
        print(line)
    for line in errors:
        print(f"hanabi-ref: spec coverage: {line}", file=sys.stderr)
    return code


def command_compile(args: argparse.Namespace) -> int:
    """Build, or report on, the optional compiled modules [B-compiled]."""
    from hanabi_ref import compiled

    if not args.status:
        try:
            directory = compiled.compile_modules(verbose=args.verbose)
        except compiled.MypycMissingError as error:
            raise UsageError(f"hanabi-ref: {error}") from None
        except compiled.CompileError as error:
            raise InvalidGame(f"hanabi-ref: compile: {error}") from None
        if not args.json:
            print(f"compiled {len(compiled.MODULES)} modules into {directory}; "
                  f"use them with --compiled or {compiled.ENVIRONMENT}=1")
        return EXIT_OK
    report = compiled.status()
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        print(f"build {report['build']} ({'built' if report['built'] else 'not built'})")
        print(f"this process: {'opted in' if report['enabled'] else 'not opted in (--compiled, ' + compiled.ENVIRONMENT + '=1)'}")
        for name, loads in report["would_load"].items():
            running = report["modules"].get(name)
            now = "-" if running is None else "compiled" if running else "python"
            print(f"{name:<42} opted in: {'compiled' if loads else 'python':<9} this process: {now}")
    return EXIT_OK


def command_rules(args: argparse.Namespace) -> int:
    """``rules --list``: every rule option with its values, default and clauses, and every
    preset with the options it sets, its player counts and its variants [C-rules,
    P-options, P-presets]; ``--json``: one object."""
    from hanabi_ref.rules import rules_listing

    listing = rules_listing()
    if args.json:
        print(json.dumps(listing, sort_keys=True))
        return EXIT_OK
    print("rule options (spec/rules.md P-options; verify --option NAME=VALUE sets one on top of a preset):")
    for option in listing["options"]:
        values = " | ".join(_rule_value(value) for value in option["values"])
        print(f"  {option['name']:<28} {values:<28} default {_rule_value(option['default']):<12} "
              f"{', '.join(option['clauses'])}")
    print("presets (spec/rules.md P-presets):")
    for preset in listing["presets"]:
        low, high = preset["min_players"], preset["max_players"]
        players = f"{low}+" if high is None else str(low) if high == low else f"{low}-{high}"
        variants = "all, custom compositions too" if preset["variants"] is None else ", ".join(preset["variants"])
        if preset["variants"] is not None and preset["hanab_live_names"]:
            variants += ", hanab.live's names (spec/variants.md)"
        sets = ", ".join(f"{name}={_rule_value(value)}" for name, value in preset["sets"].items()) or "the defaults"
        print(f"  {preset['name']:<12} players {players:<5} variants {variants}")
        print(f"  {'':<12} options {sets}")
    return EXIT_OK


def _rule_value(value: object) -> str:
    """A rule option's value as ``--option`` takes it: ``true``, ``false`` or the string."""
    return json.dumps(value) if isinstance(value, bool) else str(value)


COMMANDS = {
    "simulate": command_simulate,
    "sweep": command_sweep,
    "play": command_play,
    "replay": command_replay,
    "verify": command_verify,
    "explain": command_explain,
    "rules": command_rules,
    "serve": command_serve,
    "vectors": command_vectors,
    "bench": command_bench,
    "playability": command_playability,
    "solve": command_solve,
    "compile": command_compile,
    "spec": command_spec,
    "rl": command_rl,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``hanabi-ref``; returns the exit code [C-exit, OUT-stdout]."""
    if sys.stdout is None:  # started with standard output closed: results would vanish
        return _fail("hanabi-ref: standard output is closed", EXIT_USAGE)
    real = sys.stdout
    watched = _WatchedOutput(real) if real is sys.__stdout__ else None
    if watched is not None:
        sys.stdout = watched  # a proxy of the real one
    try:
        return _run(argv, watched)
    finally:
        sys.stdout = real
        if _is_failing(real):
            _point_at_devnull(real)


def _run(argv: Sequence[str] | None, watched: _WatchedOutput | None) -> int:
    """The command and its errors, one line each [C-exit, OUT-stdout]."""
    try:
        args = build_parser().parse_args(argv)
        resolve_seeds(args)
        if getattr(args, "compiled", False):
            _enable_compiled()
        code = COMMANDS[args.command](args)
        sys.stdout.flush()  # [OUT-stdout] an error writing the results is reported here, not at exit
        return code
    except _VersionShown:
        sys.stdout.flush()
        return EXIT_OK
    except UsageError as error:
        return _fail(str(error), EXIT_USAGE)
    except InvalidGame as error:
        return _fail(str(error), EXIT_INVALID_GAME)
    except ConfigError as error:
        return _fail(f"hanabi-ref: {error}", EXIT_USAGE)
    except FileReadError as error:
        return _fail(f"hanabi-ref: {error}", EXIT_USAGE)
    except _verify_usage_error() as error:
        return _fail(f"hanabi-ref: {error}", EXIT_USAGE)
    except HanabiError as error:
        return _fail(f"hanabi-ref: {error}", EXIT_INVALID_GAME)
    except KeyboardInterrupt:
        return _fail("hanabi-ref: interrupted", 130)
    except BrokenPipeError:
        return EXIT_OK  # [OUT-stdout] the reader stopped reading: quietly
    except OSError as error:
        if not ((watched is not None and watched.failure is error) or _is_failing(sys.stdout)):
            raise
        return _fail(f"hanabi-ref: standard output: cannot write: {error.strerror or error}", EXIT_USAGE)


class _WatchedOutput:
    """[OUT-stdout] Standard output, remembering the error of a failed write, so that an OS
    error is reported as standard output's only when it is."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.failure: OSError | None = None

    def write(self, text: str) -> int:
        try:
            return int(self.stream.write(text))
        except OSError as error:
            self.failure = error
            raise

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as error:
            self.failure = error
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def _is_failing(stream: Any) -> bool:
    """[OUT-stdout] Whether ``stream`` cannot take what it holds (a buffered stream keeps
    what it could not write)."""
    try:
        stream.flush()
    except (OSError, ValueError):
        return True
    return False


def _point_at_devnull(stream: Any) -> None:
    """[OUT-stdout] Point a failed stream's descriptor at /dev/null, so that Python's own
    flush at exit fails no more (no "Exception ignored" message, no changed exit code)."""
    try:
        descriptor = stream.fileno()
    except (OSError, ValueError):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)


def _enable_compiled() -> None:
    """``--compiled`` [B-compiled]: opt in for this process and, through the environment,
    for its worker processes; a missing or unusable build is a usage error, in one line."""
    import os

    from hanabi_ref import compiled

    if compiled.is_switched_off():
        raise UsageError(f"hanabi-ref: --compiled: {compiled.ENVIRONMENT}={os.environ[compiled.ENVIRONMENT]} switches it off")
    try:
        enabled = compiled.enable(strict=True)
    except (compiled.CompiledTooLateError, compiled.UnusableBuildError) as error:
        raise UsageError(f"hanabi-ref: --compiled: {error}") from None
    if not enabled:
        raise UsageError(f"hanabi-ref: --compiled: no compiled build of these sources; build it with: {compiled.BUILD_COMMAND}")
    os.environ[compiled.ENVIRONMENT] = "1"


class _NeverRaised(Exception):
    """Matches nothing: stands for VerifyUsageError while its module is not imported."""


def _verify_usage_error() -> type[Exception]:
    """VerifyUsageError if ``hanabi_ref.verify.cli`` was imported (else nothing can have
    raised it).  Not imported at the top: it imports the engine, which must wait for
    ``--compiled`` [B-compiled]."""
    module = sys.modules.get("hanabi_ref.verify.cli")
    error_class: type[Exception] = module.VerifyUsageError if module is not None else _NeverRaised
    return error_class


def _fail(message: str, code: int) -> int:
    """[C-exit] one line on standard error, always starting ``hanabi-ref:``; input text it
    quotes cannot reach the terminal as control characters [OUT-escape]."""
    line = escape_text(message)
    if not line.startswith("hanabi-ref:"):
        line = f"hanabi-ref: {line.removeprefix('hanabi-ref').lstrip()}"
    print(line, file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
