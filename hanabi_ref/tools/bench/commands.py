"""The commands about speed: ``bench ...`` (run by the benchmarks of this package, of
the solver and of the RL face) and ``compile``, which builds the optional compiled
modules they measure [B-engine, B-strategy, B-verify, B-isolate, PL-bench, SV-bench,
PF-bench, B-compiled].

Like every ``commands`` module this one imports no game at load time: ``hanabi-ref
--help`` stays cheap, and ``--compiled`` is acted on before the engine is first
imported [B-compiled]; the handlers import what they run.
"""

from __future__ import annotations

import argparse
import importlib.util
import json

from hanabi_ref.base.cliargs import (EXIT_OK, InvalidGame, Subparsers, UsageError, add_command, add_compiled_option,
                                player_counts, positive, seconds, seed)
from hanabi_ref.base.extras import install_hint


def add_bench(commands: Subparsers) -> None:
    """[B-engine, PL-bench, RL-os-bench] ``bench engine``, ``bench playability-table``,
    ``bench openspiel-game`` and the others."""
    bench = add_command(commands, "bench", command_bench, help="measure speed (CPU and wall time)")
    bench.add_argument("target", choices=["engine", "strategy", "verify", "playability-table", "isolate", "solver", "perft",
                                           "openspiel-game"],
                       help="what to measure")
    bench.add_argument("--games", type=positive, default=200, help="random games of one run of bench verify")
    bench.add_argument("--strategy", default="info", help="the strategy of bench strategy (default info)")
    bench.add_argument("--players", type=player_counts, default=None,
                       help="player counts, e.g. 3 or 2,3,4,5 (default 2,3,4,5 with --against, else 3)")
    bench.add_argument("--against", choices=["openspiel"], default=None, help="also measure this peer engine")
    bench.add_argument("--rules", default="hle", help="rule preset (default hle, the rules OpenSpiel plays)")
    bench.add_argument("--seconds", type=seconds, default=2.0, help="CPU seconds of one run")
    bench.add_argument("--repeats", type=positive, default=5, help="interleaved runs per variant (median reported)")
    bench.add_argument("--seed", type=seed, default=0, help="seed of the first game of each run")
    bench.add_argument("--max-nodes", type=positive, default=200_000,
                       help="positions each deck may search in bench solver (default 200000)")
    bench.add_argument("--depth", type=positive, default=4, help="the depth of bench perft (default 4)")
    bench.add_argument("--json", action="store_true", help="print the whole report as one JSON object")
    add_compiled_option(bench)


def add_compile(commands: Subparsers) -> None:
    """[B-compiled] ``compile``."""
    compile_ = add_command(commands, "compile", command_compile,
                           help="compile the strategies' hot modules with mypyc (optional, faster)")
    compile_.add_argument("--status", action="store_true", help="only report whether this process runs them compiled")
    compile_.add_argument("--verbose", action="store_true", help="show mypyc's output")
    compile_.add_argument("--json", action="store_true", help="print one JSON object")


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
    if args.target == "perft":
        return _bench_perft(args)
    if args.target == "openspiel-game":
        return _bench_openspiel_game(args)
    from hanabi_ref.tools.bench import engine as bench
    from hanabi_ref.engine.configs import make_config

    if args.against is not None and args.rules != "hle":
        raise UsageError(f"hanabi-ref: bench: --rules: {args.against} plays the hle rules, got {args.rules!r}")
    if args.against is not None and importlib.util.find_spec("pyspiel") is None:
        raise UsageError(f"hanabi-ref: bench: --against openspiel needs open-spiel: {install_hint('openspiel')}")
    players = args.players or ([2, 3, 4, 5] if args.against else [3])
    for count in players:
        make_config(count, preset=args.rules)  # reject a bad configuration before measuring
    try:
        report = bench.bench_engine(players, args.rules, args.seconds, args.repeats, args.seed, args.against)
    except bench.BenchError as error:
        raise InvalidGame(f"hanabi-ref: bench: {error}") from None
    print(json.dumps(report, sort_keys=True) if args.json else bench.format_engine_report(report))
    return EXIT_OK


def _bench_perft(args: argparse.Namespace) -> int:
    """[PF-bench] perft's nodes per CPU second, ours beside OpenSpiel's on the same tree."""
    from hanabi_ref.tools.bench import perft as bench
    from hanabi_ref.tools.bench.engine import BenchError

    if args.rules != "hle":
        raise UsageError(f"hanabi-ref: bench perft: --rules: it counts under hle, the rules OpenSpiel plays, got {args.rules!r}")
    players = args.players or [2, 3, 4, 5]
    if any(not 2 <= count <= 5 for count in players):
        raise UsageError("hanabi-ref: bench perft: --players: hle plays 2 to 5 players")
    against = importlib.util.find_spec("pyspiel") is not None
    try:
        report = bench.bench_perft(players, args.depth, args.repeats, args.seed, against)
    except BenchError as error:
        raise InvalidGame(f"hanabi-ref: bench perft: {error}") from None
    if not against:
        report["openspiel"] = f"not installed: {install_hint('openspiel')}"
    print(json.dumps(report, sort_keys=True) if args.json else bench.format_report(report)
          + ("" if against else f"\n  openspiel: {report['openspiel']}"))
    return EXIT_OK


def _bench_openspiel_game(args: argparse.Namespace) -> int:
    """[RL-os-bench] random games through OpenSpiel's API: our engine as ``hanabi_ref`` beside
    OpenSpiel's ``hanabi``."""
    from hanabi_ref.tools.bench import engine as bench

    if args.against is not None or args.rules != "hle":
        raise UsageError("hanabi-ref: bench openspiel-game: plays the hle rules against OpenSpiel's hanabi; "
                         "--against and --rules do not apply")
    if importlib.util.find_spec("pyspiel") is None:
        raise UsageError(f"hanabi-ref: bench openspiel-game: needs open-spiel: {install_hint('openspiel')}")
    players = args.players or [2, 3, 4, 5]
    if any(not 2 <= count <= 5 for count in players):
        raise UsageError(f"hanabi-ref: bench openspiel-game: --players: OpenSpiel's hanabi plays 2 to 5, got {players}")
    try:
        report = bench.bench_openspiel_game(players, args.seconds, args.repeats, args.seed)
    except bench.BenchError as error:
        raise InvalidGame(f"hanabi-ref: bench openspiel-game: {error}") from None
    print(json.dumps(report, sort_keys=True) if args.json else bench.format_openspiel_game_report(report))
    return EXIT_OK


def _bench_solver(args: argparse.Namespace) -> int:
    """[SV-bench] the solver's CPU time per deck, whole and without each idea."""
    from hanabi_ref.engine.configs import make_config
    from hanabi_ref.tools.solver.bench import bench_solver, format_report

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
    from hanabi_ref.tools.bench import engine as bench
    from hanabi_ref.engine.configs import make_config
    from hanabi_ref.players.strategies import ParamError, strategy_spec

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
    from hanabi_ref.tools.bench import isolate as bench
    from hanabi_ref.engine.configs import make_config
    from hanabi_ref.players.strategies import strategy_spec

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
    from hanabi_ref.tools.bench import verify as bench

    if importlib.util.find_spec("pyspiel") is None:
        raise UsageError(f"hanabi-ref: bench verify: needs open-spiel: {install_hint('openspiel')}")
    try:
        report = bench.bench_verify(args.games, args.repeats, args.seed)
    except bench.BenchVerifyError as error:
        raise InvalidGame(f"hanabi-ref: bench verify: {error}") from None
    print(json.dumps(report, sort_keys=True) if args.json else bench.format_report(report))
    return EXIT_OK


def _bench_playability_table(args: argparse.Namespace) -> int:
    from hanabi_ref.tools.bench.engine import bench_playability_table

    report = bench_playability_table(args.repeats)
    if args.json:
        print(json.dumps(report, sort_keys=True))
    else:
        wall = ", ".join(f"{seconds:.2f}" for seconds in report["runs_seconds"])
        cpu = ", ".join(f"{seconds:.2f}" for seconds in report["runs_cpu_seconds"])
        print(f"Appendix A (126 compositions x 5 hand sizes), one core, median of {args.repeats}: "
              f"{report['median_cpu_seconds']:.2f} CPU s (runs {cpu}), {report['median_seconds']:.2f} wall s (runs {wall})")
    return EXIT_OK


def command_compile(args: argparse.Namespace) -> int:
    """Build, or report on, the optional compiled modules [B-compiled]."""
    from hanabi_ref.tools import compiled

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
