"""What every command's parser shares: the parser class with one-line errors, the argument
types, the option groups of a game and a run, and the errors a handler raises [C-cli,
C-exit, C-help].

``hanabi_ref.cli`` builds the top-level parser and asks each subsystem's ``commands``
module to add its commands with these; it maps the errors below to the exit codes its
docstring lists.  Nothing here knows a game: it sits in the base, below every layer that
has a command.
"""

from __future__ import annotations

import argparse
import json
import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn, TypeAlias

EXIT_OK = 0
EXIT_INVALID_GAME = 1
EXIT_USAGE = 2

Subparsers: TypeAlias = "argparse._SubParsersAction[CommandParser]"
"""The object ``add_subparsers`` returns, to which a ``commands`` module adds its commands."""

Handler: TypeAlias = Callable[[argparse.Namespace], int]
"""A command's handler: the parsed arguments in, the exit code out."""


class UsageError(Exception):
    """A mistake in the command line itself (exit 2); the message is the whole line."""


class InvalidGame(Exception):
    """A well-formed input that describes a game the rules do not allow, or a failed
    check (exit 1); the message is the whole line."""


class DefaultsFormatter(argparse.HelpFormatter):
    """[C-help] every option's help names its default, unless the text already does."""

    def _get_help_string(self, action: argparse.Action) -> str | None:
        text = action.help or ""
        default = action.default
        if "default" in text or default in (None, False, True, argparse.SUPPRESS) or default == []:
            return text
        return f"{text} (default: %(default)s)"


class CommandParser(argparse.ArgumentParser):
    """argparse with one-line errors and exit code 2 [C-exit], help texts naming the
    defaults [C-help]."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", DefaultsFormatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        command = self.prog.removeprefix("hanabi-ref").strip()
        raise UsageError(f"hanabi-ref: {command + ': ' if command else ''}{message}")


def add_command(commands: Subparsers, name: str, handler: Handler, **kwargs: Any) -> argparse.ArgumentParser:
    """A command's parser, added to ``commands``, that dispatches to ``handler``."""
    parser = commands.add_parser(name, **kwargs)
    parser.set_defaults(handler=handler)
    return parser


def add_questions(parser: argparse.ArgumentParser) -> Subparsers:
    """The subcommands of a command (``rl check``, ``playability table``, ...)."""
    return parser.add_subparsers(dest="question", required=True, parser_class=CommandParser)


def integer(text: str, low: int, high: int | None, meaning: str) -> int:
    """``text`` as an integer in ``low..high``, or an argparse error naming ``meaning``."""
    try:
        value = int(text)
    except ValueError:
        value = low - 1
    if value < low or (high is not None and value > high):
        raise argparse.ArgumentTypeError(f"must be {meaning}, got {text!r}")
    return value


def positive(text: str) -> int:
    return integer(text, 1, None, "a positive integer")


def count(text: str) -> int:
    return integer(text, 0, None, "a non-negative integer")


def seed(text: str) -> int:
    return integer(text, 0, 2**64 - 1, "an integer in 0..2^64-1")


def seed_or_random(text: str) -> int:
    """[ISO-seeds] a seed, or ``random``: 63 bits drawn from the system's generator."""
    if text == "random":
        import secrets  # not at the top: ``hanabi-ref --help`` need not load it

        return secrets.randbits(63)
    return seed(text)


def seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a positive number, got {text!r}")
    return value


def player_counts(text: str) -> list[int]:
    counts = [integer(part.strip(), 1, None, "player counts such as 3 or 2,3,4,5") for part in text.split(",")]
    if len(set(counts)) != len(counts):
        raise argparse.ArgumentTypeError(f"must name each player count once, got {text!r}")
    return counts


def resolve_seeds(args: argparse.Namespace) -> None:
    """[ISO-seeds] ``--sealed`` draws both seeds from the system (given with either seed, a
    usage error); otherwise ``--seed`` defaults to 0 and the strategies are seeded from
    the deck seeds unless ``--strategy-seed`` is given."""
    if getattr(args, "sealed", False):
        if args.seed is not None or args.strategy_seed is not None:
            raise UsageError("hanabi-ref: --sealed draws both seeds from the system: give neither --seed nor "
                             "--strategy-seed with it")
        args.seed, args.strategy_seed = seed_or_random("random"), seed_or_random("random")
    elif hasattr(args, "strategy_seed") and args.seed is None:
        args.seed = 0


PRESET_NAMES = ("thesis", "hle", "hanab-live", "hanabi-rs", "physical")
"""The rule presets' names as ``--rules`` help lists them, without importing the rules at
every start of the command line (tests/test_cli.py checks them against
``hanabi_ref.engine.presets.PRESETS``)."""


def add_game_options(parser: argparse.ArgumentParser, *, json_option: bool = True, bots: bool = False,
                     presets: Sequence[str] = PRESET_NAMES, rules_default: str | None = "thesis",
                     strategy_default: str | None = None) -> None:
    """The game a command plays: strategy, players, seeds, rules (one of ``presets``), variant,
    hand size.  With ``bots``, ``--strategy`` and ``--bot`` are one required choice (C-help:
    the usage line shows that one of them is needed), unless ``strategy_default`` names the
    strategy played without either."""
    strategies = ("strategy name (random, simple, thesis, natural, hat, hat-classic, recommendation, info, info-source, "
                  "info-search, learned-recommendation)")
    if bots:
        choice = parser.add_mutually_exclusive_group(required=strategy_default is None)
        choice.add_argument("--strategy", default=None,
                            help=strategies + ("" if strategy_default is None else f"; {strategy_default}"))
        choice.add_argument("--bot", action="append", default=None, metavar="CMD",
                            help="seat a bot speaking the bot protocol (once: every seat; once per seat: seat by seat)")
    else:
        parser.add_argument("--strategy", required=True, default=None, help=strategies)
    parser.add_argument("--players", type=positive, required=True, help="number of players p")
    parser.add_argument("--seed", type=seed_or_random, default=None,
                        help="seed of game 0 (game i uses seed S+i; default 0); random: drawn from the system (ISO-seeds)")
    parser.add_argument("--strategy-seed", type=seed_or_random, default=None,
                        help="seed the strategies from this seed, apart from the decks' (ISO-seeds); random: drawn "
                             "from the system")
    parser.add_argument("--sealed", action="store_true",
                        help="--seed random --strategy-seed random: no strategy can guess a deck (ISO-seeds)")
    names = f": {', '.join(presets)}" if presets else ""
    parser.add_argument("--rules", default=rules_default,
                        help=f"rule preset{names}" + ("" if rules_default is not None else
                                                       " (default: hanab-live with --human, else thesis)"))
    parser.add_argument("--variant", default="no-variant", help="variant slug or hanab.live name")
    parser.add_argument("--hand-size", type=positive, default=None, help="hand size h (default by p)")
    if json_option:
        parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_isolation_options(parser, bots)


def add_isolation_options(parser: argparse.ArgumentParser, bots: bool) -> None:
    """[ISO-cli] seats in processes of their own."""
    parser.add_argument("--isolate", action="store_true",
                        help="run each seat's strategy in a process of its own (spec/isolation.md)")
    parser.add_argument("--move-timeout", type=seconds, default=None, metavar="SECONDS",
                        help="seconds an isolated seat or bot may take to answer (default 10)")


def add_compiled_option(parser: argparse.ArgumentParser) -> None:
    """[B-compiled] ``--compiled``: the command line opts in before the handler runs."""
    parser.add_argument("--compiled", action="store_true",
                        help="load the compiled build (hanabi-ref compile) in this process and its workers")


def add_show_options(parser: argparse.ArgumentParser) -> None:
    """``--show [--from N] [--to M]`` [SH-show]."""
    parser.add_argument("--show", action="store_true",
                        help="print the game move by move: each move and the board after it (SH-show)")
    parser.add_argument("--from", dest="show_from", type=count, default=None, metavar="N",
                        help="with --show: start at move N (default: the deal)")
    parser.add_argument("--to", dest="show_to", type=count, default=None, metavar="M",
                        help="with --show: stop after move M (default: the last move)")
    parser.add_argument("--hand-order", choices=["newest-left", "oldest-left"], default=None,
                        help="how boards lay out hands (SH-order; default: newest on the left under hanab-live "
                             "rules, as hanab.live shows them, else oldest on the left)")


def print_summary(result: Mapping[str, Any], as_json: bool) -> None:
    """A result as one JSON object, or one ``key value`` line per entry."""
    if as_json:
        print(json.dumps(result, sort_keys=True))
        return
    for key, value in result.items():
        print(f"{key:<12} {value}")
