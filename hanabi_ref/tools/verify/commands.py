"""The commands that check other engines: ``verify`` (run by
:mod:`hanabi_ref.tools.verify.session`), ``explain``, ``serve``, and ``vectors generate``,
which writes the conformance vectors they are checked with [C-verify, C-serve,
C-vectors, EP-explain].

Like every ``commands`` module this one imports no game at load time: ``hanabi-ref
--help`` stays cheap, and ``--compiled`` is acted on before the engine is first
imported [B-compiled]; the handlers import what they run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hanabi_ref.base.cliargs import (EXIT_INVALID_GAME, EXIT_OK, InvalidGame, Subparsers, UsageError, add_command, count,
                                seconds, seed)
from hanabi_ref.base.errors import ConfigError, FileReadError, TraceError
from hanabi_ref.base.escape import escape_text


def add_verify(commands: Subparsers) -> None:
    """[C-verify, EP-views, EP-options] ``verify``."""
    verify = add_command(commands, "verify", command_verify, help="check another engine against the reference")
    target = verify.add_mutually_exclusive_group(required=True)
    target.add_argument("--engine", help="command line of an engine speaking spec/engine-protocol.md")
    target.add_argument("--against", help="built-in peer adapter: openspiel, hle, hle-seed, hanabython")
    verify.add_argument("--rules", default=None, help="presets of the random games, comma-separated")
    verify.add_argument("--players", default=None, help="player counts of the random games, e.g. 2,3 or 2-5")
    verify.add_argument("--variant", default="no-variant", help="variant of the random games")
    verify.add_argument("--games", type=count, default=200, help="random games (0: vectors only)")
    verify.add_argument("--seed", type=seed, default=0, help="seed of the random games")
    verify.add_argument("--timeout", type=seconds, default=10.0, help="seconds the engine may take per answer")
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
    verify.add_argument("--option", type=rule_option, action="append", default=[], metavar="NAME=VALUE",
                        help="a rule option on top of each preset of the random games (repeatable; "
                             "hanabi-ref rules --list shows them)")
    verify.add_argument("--perft", type=count, default=None, metavar="D",
                        help="instead of the vectors and random games, compare the engine's perft counts at depth D "
                             "from the deal of --seed under each configuration, divided down to the first move where "
                             "they part (EP-perft-verify)")


def add_explain(commands: Subparsers) -> None:
    """[EP-explain] ``explain``."""
    explain = add_command(commands, "explain", command_explain,
                          help="tell the story of a divergence written by verify --out")
    explain.add_argument("file", help="the reproduction file (verify --out)")


def add_serve(commands: Subparsers) -> None:
    """[C-serve, EP-seed] ``serve``."""
    serve = add_command(commands, "serve", command_serve, help="speak the engine protocol on stdin/stdout")
    serve.add_argument("--engine", default="reference", help="reference (ours) or a built-in peer adapter")
    serve.add_argument("--deals", choices=["deck", "seed", "seed-drawn"], default="deck",
                       help="our engine: handed the deck (deck), or dealing from the seed of new_game and revealing "
                            "the whole deck (seed) or each card as drawn (seed-drawn) (EP-seed)")


def add_vectors(commands: Subparsers) -> None:
    """[C-vectors] ``vectors generate``."""
    vectors = add_command(commands, "vectors", command_vectors, help="conformance vectors")
    vectors.add_argument("action", choices=["generate"], help="generate: write every vector file")
    vectors.add_argument("directory", help="directory to write (replaced atomically)")


def rule_option(text: str) -> tuple[str, bool | str]:
    """[EP-options] ``--option NAME=VALUE``: a known rule option and one of its values."""
    from hanabi_ref.engine.presets import parse_rule_option

    try:
        return parse_rule_option(text)
    except ConfigError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def command_verify(args: argparse.Namespace) -> int:
    """Drive another engine through the vectors and random games [C-verify, EP-vectors,
    EP-random]; a mistake in its arguments or its command is a usage error."""
    from hanabi_ref.tools.protocol.engine import VerifyUsageError
    from hanabi_ref.tools.verify.session import run_verify

    try:
        if args.perft is not None:
            from hanabi_ref.tools.verify.perft import run_verify_perft

            return EXIT_OK if run_verify_perft(args) else EXIT_INVALID_GAME  # [EP-perft-verify]
        return EXIT_OK if run_verify(args) else EXIT_INVALID_GAME
    except VerifyUsageError as error:
        raise UsageError(f"hanabi-ref: {error}") from None


def command_serve(args: argparse.Namespace) -> int:
    """Serve an engine over the JSON-lines protocol [C-serve, EP-serve]; a mistake in its
    arguments is a usage error."""
    from hanabi_ref.tools.protocol.engine import VerifyUsageError

    try:
        return _serve(args)
    except VerifyUsageError as error:
        raise UsageError(f"hanabi-ref: {error}") from None


def _serve(args: argparse.Namespace) -> int:
    """[C-serve, EP-seed] our engine, dealing as ``--deals`` says, or a peer's, served."""
    from hanabi_ref.tools.protocol.engine import Engine
    from hanabi_ref.tools.protocol.seeded import SeededReference
    from hanabi_ref.tools.verify.serve import serve
    from hanabi_ref.tools.verify.session import make_engine

    engine: Engine
    if args.deals == "deck":
        engine = make_engine(args.engine)
    elif args.engine != "reference":
        raise UsageError(f"hanabi-ref: serve: --deals {args.deals}: only for --engine reference (a peer deals as it does)")
    else:
        engine = SeededReference("deck" if args.deals == "seed" else "drawn")  # [EP-seed]
    try:
        serve(engine, sys.stdin.buffer, sys.stdout)
    finally:
        engine.close()
    return EXIT_OK


def command_explain(args: argparse.Namespace) -> int:
    """[EP-explain] a reproduction file of ``verify`` as a short story."""
    from hanabi_ref.tools.verify.explain import explain

    try:
        lines = explain(args.file)
    except FileReadError:
        raise  # unreadable: a usage error (exit 2)
    except TraceError as error:
        raise InvalidGame(f"hanabi-ref: {error}") from None
    for line in lines:
        print(escape_text(line))  # [OUT-escape] the story quotes the file's texts
    return EXIT_OK


def command_vectors(args: argparse.Namespace) -> int:
    """Write the conformance vectors [C-vectors, VEC-generate]."""
    from hanabi_ref.tools.vectors import VectorsError, generate

    try:
        written = generate(Path(args.directory))
    except VectorsError as error:
        raise UsageError(f"hanabi-ref: {error}") from None
    except OSError as error:
        raise UsageError(f"hanabi-ref: {args.directory}: cannot write: {error.strerror or error}") from None
    print(f"wrote {written} vectors to {args.directory}")
    return EXIT_OK
