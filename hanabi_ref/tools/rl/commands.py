"""The ``rl`` commands: their parsers, and handlers that run :mod:`hanabi_ref.tools.rl.tools`
[RL-cli, RL-train-cli, RL-errors].

Like every ``commands`` module this one imports no game at load time: ``hanabi-ref
--help`` stays cheap and needs no numpy, and ``--compiled`` is acted on before the
engine is first imported [B-compiled]; the handlers import what they run.
"""

from __future__ import annotations

import argparse

from hanabi_ref.base.cliargs import (EXIT_INVALID_GAME, EXIT_OK, CommandParser, Subparsers, UsageError, add_command,
                                add_game_options, add_questions, positive, resolve_seeds, seed)
from hanabi_ref.tools.sim import commands as sim_commands
from hanabi_ref.base.extras import install_hint


def add_rl(commands: Subparsers) -> None:
    """[RL-cli, RL-train-cli, RL-os-compose] ``rl check``, ``rl compose``, ``rl play``, ``rl bench``,
    ``rl train``, ``rl eval`` and ``rl curve``."""
    rl = add_command(commands, "rl", command_rl, help="reinforcement-learning encodings and environments (spec/rl.md)")
    questions = add_questions(rl)
    check = questions.add_parser("check", help="compare the encoders with a peer, every seat of every state")
    check.add_argument("--against", choices=["openspiel"], required=True, help="the peer (openspiel)")
    check.add_argument("--states", type=positive, required=True, help="(state, seat) pairs to compare")
    check.add_argument("--seed", type=seed, default=0, help="seed of the games and drawn configurations")
    check.add_argument("--json", action="store_true", help="print one JSON object")
    compose = questions.add_parser("compose", help="our engine as the OpenSpiel game hanabi_ref beside OpenSpiel's "
                                   "hanabi, every state (needs open-spiel)")
    compose.add_argument("--states", type=positive, required=True, help="states to compare")
    compose.add_argument("--seed", type=seed, default=0, help="seed of the chance outcomes and the moves")
    compose.add_argument("--json", action="store_true", help="print one JSON object")
    play = questions.add_parser("play", help="play one game and print the encoding of every observation")
    add_game_options(play)
    play.add_argument("--encoding", required=True, help="canonical, minimal, v0 or notes")
    play.add_argument("--all-seats", action="store_true", help="every seat's view of every state, not only the acting one's")
    bench = questions.add_parser("bench", help="encoded steps per CPU second: single and batch environments, OpenSpiel")
    bench.add_argument("--players", type=positive, default=4, help="number of players (default 4)")
    bench.add_argument("--hand-size", type=positive, default=None, help="hand size (default by p)")
    bench.add_argument("--batch", type=positive, action="append", default=None, metavar="N",
                       help="a batch size to measure (repeatable; default 1, 64 and 1024)")
    bench.add_argument("--repeats", type=positive, default=3, help="runs of each measure; the median is shown")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    train = questions.add_parser("train", help="train a learned hat agent (spec/rl.md section 9; needs PyTorch)")
    train.add_argument("--agent", required=True, help="the agent to train: recommendation")
    train.add_argument("--players", type=positive, default=4, help="number of players (default 4)")
    train.add_argument("--rules", default="hle", help="rule preset (default hle)")
    train.add_argument("--steps", type=positive, required=True, help="game moves to play in all")
    train.add_argument("--seed", type=seed, default=0, help="the run's seed (decks, weights, draws)")
    train.add_argument("--out", required=True, metavar="DIR", help="the run's directory (a run there is resumed)")
    train.add_argument("--bc-games", type=positive, default=None, help="games of the teacher to clone (default 2000)")
    train.add_argument("--bc-epochs", type=positive, default=None, help="passes over them (default 4)")
    train.add_argument("--decks", type=positive, default=None, help="decks per policy-gradient update (default 32)")
    train.add_argument("--rollouts", type=positive, default=None, help="games per deck and update, at least 2 (default 4)")
    train.add_argument("--embedding", choices=["constant", "modular"], default=None,
                       help="how the team embeds its sums in reveals (default modular)")
    train.add_argument("--judge-games", type=positive, default=None,
                       help="the teacher's games the judge of stale plays learns from (default 10000)")
    train.add_argument("--threshold-games", type=positive, default=None,
                       help="games per threshold the judge's threshold is chosen by (default 1000)")
    evaluate = questions.add_parser("eval", help="play a trained model's team: simulate's summary")
    evaluate.add_argument("model", metavar="DIR", help="a training directory (its model.npz) or a model file")
    evaluate.add_argument("--games", type=positive, default=10000, help="games to play (default 10000)")
    evaluate.add_argument("--seed", type=seed, default=0, help="seed of the first game (default 0)")
    evaluate.add_argument("--jobs", type=positive, default=None, help="worker processes (default: all cores)")
    evaluate.add_argument("--json", action="store_true", help="print simulate's JSON summary")
    curve = questions.add_parser("curve", help="draw a training run's learning curve (needs matplotlib)")
    curve.add_argument("run", metavar="DIR", help="a training directory")
    curve.add_argument("--png", required=True, metavar="FILE", help="the PNG file to write")


def command_rl(args: argparse.Namespace) -> int:
    """[RL-cli, RL-errors] the rl commands; a refusal of the RL face is a usage error (exit 2)."""
    try:
        from hanabi_ref.tools.rl import tools
    except ImportError as error:  # numpy is the rl extra's
        raise UsageError(f"hanabi-ref: rl: needs numpy ({error}); {install_hint('rl')}") from None
    from hanabi_ref.tools.rl.errors import RLError

    try:
        if args.question == "eval":
            simulate = tools.eval_arguments(args.model, args.games, args.seed, args.jobs, args.json)
        else:
            return _run_question(args)
    except RLError as error:
        raise UsageError(f"hanabi-ref: rl: {error}") from None
    return _simulate(simulate)


def _run_question(args: argparse.Namespace) -> int:
    """[RL-cli, RL-train-cli] ``rl check``, ``play``, ``bench``, ``train`` or ``curve``."""
    from hanabi_ref.tools.rl import tools
    from hanabi_ref.engine.configs import make_config

    if args.question == "check":
        return EXIT_OK if tools.run_check(args.states, args.seed, args.json) else EXIT_INVALID_GAME
    if args.question == "compose":
        return _compose(args)
    if args.question == "bench":
        from hanabi_ref.tools.rl.batch import batch_unsupported

        config = make_config(args.players, preset="hle", hand_size=args.hand_size)
        if batch_unsupported(config) is not None:
            raise UsageError(f"hanabi-ref: rl bench: {batch_unsupported(config)}")
        tools.run_bench(config, args.batch or [1, 64, 1024], args.repeats, args.json)
        return EXIT_OK
    if args.question == "train":
        options = {name: value for name in ("bc_games", "bc_epochs", "decks", "rollouts", "embedding",
                                            "judge_games", "threshold_games")
                   if (value := getattr(args, name)) is not None}
        if options.get("rollouts", 2) < 2:
            raise UsageError("hanabi-ref: rl train: --rollouts: at least 2 (the baseline is the other rollouts' mean)")
        tools.run_train(args.agent, args.players, args.rules, args.steps, args.seed, args.out, options)
        return EXIT_OK
    if args.question == "curve":
        tools.write_curve(args.run, args.png)
        return EXIT_OK
    config = make_config(args.players, preset=args.rules, variant=args.variant, hand_size=args.hand_size)
    tools.run_play(args.encoding, config, sim_commands.strategy_factory(args.strategy), args.seed, args.all_seats,
                   args.json)
    return EXIT_OK


def _compose(args: argparse.Namespace) -> int:
    """[RL-os-compose] ``rl compose``; without open-spiel one line naming the extra (exit 2)."""
    from hanabi_ref.base.extras import MissingExtraImport

    try:
        from hanabi_ref.tools.rl.openspiel_compose import run_compose
    except MissingExtraImport as error:
        raise UsageError(f"hanabi-ref: rl compose: {error}") from None
    return EXIT_OK if run_compose(args.states, args.seed, args.json) else EXIT_INVALID_GAME


def _simulate(argv: list[str]) -> int:
    """[RL-train-cli] ``rl eval``: the ``simulate`` command these arguments make, run here."""
    parser = CommandParser(prog="hanabi-ref")
    sim_commands.add_simulate(parser.add_subparsers(dest="command", required=True, parser_class=CommandParser))
    args = parser.parse_args(argv)
    resolve_seeds(args)
    return sim_commands.command_simulate(args)
