"""The ``solve`` command: its parser, and a handler that runs
:mod:`hanabi_ref.tools.solver.estimate` [SV-estimate].

Like every ``commands`` module this one imports no game at load time: ``hanabi-ref
--help`` stays cheap, and ``--compiled`` is acted on before the engine is first
imported [B-compiled]; the handler imports what it runs.
"""

from __future__ import annotations

import argparse

from hanabi_ref.base.cliargs import EXIT_INVALID_GAME, EXIT_OK, Subparsers, UsageError, add_command, positive, seed


def add_solve(commands: Subparsers) -> None:
    """[SV-estimate] ``solve``: the open games of seeded decks."""
    solve = add_command(commands, "solve", command_solve,
                        help="which seeded decks can reach the maximum score in the open game (spec/solver.md)")
    solve.add_argument("--players", type=positive, required=True, help="number of players p")
    solve.add_argument("--games", type=positive, default=100, help="decks to solve (default 100)")
    solve.add_argument("--seed", type=seed, default=0, help="seed of deck 0 (deck i uses seed S+i; default 0)")
    solve.add_argument("--rules", default="hle", help="rule preset (default hle)")
    solve.add_argument("--variant", default="No Variant", help="variant (default No Variant)")
    solve.add_argument("--hand-size", type=positive, default=None, help="cards per hand (default: the preset's)")
    solve.add_argument("--max-nodes", type=positive, default=1_000_000,
                       help="positions each deck may search before it counts as undecided (default 1000000)")
    solve.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                       help="also stop a deck's search after this many seconds of wall time (default: none; "
                            "the answers then depend on the machine)")
    solve.add_argument("--jobs", type=positive, default=1, help="worker processes (default 1; results do not depend on it)")
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
    from hanabi_ref.engine.configs import make_config
    from hanabi_ref.tools.sim.executors import SetupError
    from hanabi_ref.tools.solver.estimate import run_solve
    from hanabi_ref.players.strategies import ParamError, strategy_spec

    if args.executor == "dask" and args.scheduler is None:
        raise SetupError("--executor dask: needs --scheduler ADDRESS (e.g. tcp://host:8786)")
    if args.executor != "dask" and args.scheduler is not None:
        raise SetupError("--scheduler: only with --executor dask")
    if args.time_limit is not None and not args.time_limit > 0:
        raise UsageError(f"hanabi-ref: --time-limit: must be more than 0 seconds, got {args.time_limit:g}")
    config = make_config(args.players, preset=args.rules, variant=args.variant, hand_size=args.hand_size)
    for name in args.against:  # an unknown strategy or one that cannot play this configuration: exit 2
        try:
            spec = strategy_spec(name)
        except ParamError as error:
            raise UsageError(f"hanabi-ref: --against: {error}") from None
        spec.check_config(config)
    code = run_solve(config, args.rules, args.games, args.seed, args.max_nodes, args.jobs, args.json, args.out,
                     args.scheduler, args.time_limit, tuple(args.against))
    return EXIT_OK if code == 0 else EXIT_INVALID_GAME
