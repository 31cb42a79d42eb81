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
                        [--perft D (instead of the vectors and random games)]
    hanabi-ref rules    --list [--json]
    hanabi-ref perft    (--seed S | --deck FILE) --players P [--rules PRESET] [--variant NAME] [--hand-size H]
                        [--hints T0] [--errors F0|none] [--composition COUNTS] [--option NAME=VALUE ...]
                        [--moves MOVES] --depth D [--divide] [--json]
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
    hanabi-ref bench perft [--players P,...] [--depth D] [--repeats R] [--seed S] [--json]
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
--against openspiel`` without open-spiel, an engine under ``verify --perft`` that does not count perft); 3 a simulation stopped by a stalled worker or
a lost dask scheduler, its finished games kept; 130 interrupted (Ctrl-C); 143 (129)
ended by SIGTERM (SIGHUP).  Every error is one line on stderr, never a traceback.

This module only dispatches: each subsystem's ``commands`` module adds its commands'
parsers (:data:`COMMANDS`) and holds their handlers; the arguments they share are
:mod:`hanabi_ref.base.cliargs`.  The handlers raise :class:`~hanabi_ref.base.cliargs.UsageError`
or :class:`~hanabi_ref.base.cliargs.InvalidGame` (or a ``HanabiError``), and :func:`main`
turns each into its one line and exit code above.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

from hanabi_ref.tools import game_commands as game
from hanabi_ref.tools import spec_commands as spec
from hanabi_ref.tools.bench import commands as bench
from hanabi_ref.base.cliargs import (EXIT_INVALID_GAME, EXIT_OK, EXIT_USAGE, CommandParser, Handler, InvalidGame, Subparsers,
                                UsageError, resolve_seeds)
from hanabi_ref.base.errors import ConfigError, FileReadError, HanabiError
from hanabi_ref.base.escape import escape_text
from hanabi_ref.tools.perft import commands as perft
from hanabi_ref.tools.playability import commands as playability
from hanabi_ref.tools.rl import commands as rl
from hanabi_ref.tools.sim import commands as sim
from hanabi_ref.tools.solver import commands as solver
from hanabi_ref.base.stdout import WatchedOutput, is_failing, point_at_devnull
from hanabi_ref.tools.verify import commands as verify

__all__ = ["EXIT_INVALID_GAME", "EXIT_OK", "EXIT_USAGE", "build_parser", "main"]

COMMANDS: tuple[Callable[[Subparsers], None], ...] = (
    sim.add_simulate, sim.add_sweep, sim.add_crossplay, game.add_play, game.add_replay, verify.add_verify, verify.add_explain,
    game.add_rules, verify.add_serve, verify.add_vectors, perft.add_perft, bench.add_bench, playability.add_playability,
    solver.add_solve, spec.add_spec, rl.add_rl, bench.add_compile,
)
"""Each adds its command (and its subcommands) to the parser, in the order ``--help`` lists them."""


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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``hanabi-ref``: every subsystem's commands [C-cli]."""
    parser = CommandParser(prog="hanabi-ref", description="Reference implementation of Hanabi.")
    parser.add_argument("--version", action=_VersionAction, help="print the version and exit")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=CommandParser)
    for add in COMMANDS:
        add(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of ``hanabi-ref``; returns the exit code [C-exit, OUT-stdout]."""
    if sys.stdout is None:  # started with standard output closed: results would vanish
        return _fail("hanabi-ref: standard output is closed", EXIT_USAGE)
    real = sys.stdout
    watched = WatchedOutput(real) if real is sys.__stdout__ else None
    if watched is not None:
        sys.stdout = watched  # a proxy of the real one
    try:
        return _run(argv, watched)
    finally:
        sys.stdout = real
        if is_failing(real):
            point_at_devnull(real)


def _run(argv: Sequence[str] | None, watched: WatchedOutput | None) -> int:
    """The command and its errors, one line each [C-exit, OUT-stdout]."""
    try:
        args = build_parser().parse_args(argv)
        resolve_seeds(args)
        if getattr(args, "compiled", False):
            _enable_compiled()
        handler: Handler = args.handler
        code = handler(args)
        sys.stdout.flush()  # [OUT-stdout] an error writing the results is reported here, not at exit
        return code
    except _VersionShown:
        sys.stdout.flush()
        return EXIT_OK
    except UsageError as error:
        return _fail(str(error), EXIT_USAGE)
    except InvalidGame as error:
        return _fail(str(error), EXIT_INVALID_GAME)
    except (ConfigError, FileReadError) as error:
        return _fail(f"hanabi-ref: {error}", EXIT_USAGE)
    except HanabiError as error:
        return _fail(f"hanabi-ref: {error}", EXIT_INVALID_GAME)
    except KeyboardInterrupt as stop:  # one line; a run says there where its finished games are [SIM-interrupt]
        detail = getattr(stop, "detail", None)
        return _fail("hanabi-ref: interrupted" + (f"; {detail}" if isinstance(detail, str) else ""), 130)
    except BrokenPipeError:
        return EXIT_OK  # [OUT-stdout] the reader stopped reading: quietly
    except OSError as error:
        if not ((watched is not None and watched.failure is error) or is_failing(sys.stdout)):
            raise
        return _fail(f"hanabi-ref: standard output: cannot write: {error.strerror or error}", EXIT_USAGE)


def _enable_compiled() -> None:
    """``--compiled`` [B-compiled]: opt in for this process and, through the environment,
    for its worker processes; a missing or unusable build is a usage error, in one line."""
    from hanabi_ref.tools import compiled  # not at the top: a command without --compiled need not load it

    if compiled.is_switched_off():
        raise UsageError(f"hanabi-ref: --compiled: {compiled.ENVIRONMENT}={os.environ[compiled.ENVIRONMENT]} switches it off")
    try:
        enabled = compiled.enable(strict=True)
    except (compiled.CompiledTooLateError, compiled.UnusableBuildError) as error:
        raise UsageError(f"hanabi-ref: --compiled: {error}") from None
    if not enabled:
        raise UsageError(f"hanabi-ref: --compiled: no compiled build of these sources; build it with: {compiled.BUILD_COMMAND}")
    os.environ[compiled.ENVIRONMENT] = "1"


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
