"""The commands of one game and of its rules: ``play`` (a person may take a seat with
``--human``), ``replay`` (``--show`` move by move, ``--html`` the browser viewer) and
``rules --list`` [C-play, C-replay, C-rules].

Like every ``commands`` module this one imports no game at load time: ``hanabi-ref
--help`` stays cheap, and ``--compiled`` is acted on before the engine is first
imported [B-compiled]; the handlers import what they run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hanabi_ref.base.cliargs import (EXIT_OK, InvalidGame, Subparsers, UsageError, add_command, add_compiled_option,
                                add_game_options, add_show_options, count, print_summary)

if TYPE_CHECKING:
    from hanabi_ref.engine.config import GameConfig
    from hanabi_ref.engine.state import GameState
    from hanabi_ref.players.strategy import StrategyFactory
    from hanabi_ref.formats.trace import Trace


HUMAN_PARTNER = "natural"
"""[HU-partner] the strategy of the bots beside a person when ``--strategy`` is not given."""
HUMAN_RULES = "hanab-live"
"""[HU-rules] the rules of a game with a person when ``--rules`` is not given."""


def add_play(commands: Subparsers) -> None:
    """[C-play, HU-play] ``play``."""
    play = add_command(commands, "play", command_play, help="play one seeded game and write its trace")
    add_game_options(play, bots=True, rules_default=None,
                     strategy_default="default with --human: natural")
    play.add_argument("--out", default=None, help="write the trace to this file")
    play.add_argument("--states", action="store_true", help="include the state after every action in the trace")
    play.add_argument("--human", type=count, default=None, metavar="SEAT",
                      help="take seat SEAT yourself, at the terminal; the strategy (default: natural) plays the "
                           "other seats (HU-play)")
    play.add_argument("--explain", action="store_true",
                      help="with --human: each bot says in one line what it took from each clue it received (NAT-explain)")
    play.add_argument("--html", default=None, metavar="FILE",
                      help="write the game's replay page (spec/viewer.md), titled with the strategy, rules and seed (VW-title)")
    add_show_options(play)
    add_compiled_option(play)


def add_replay(commands: Subparsers) -> None:
    """[C-replay, VW-file] ``replay``."""
    replay = add_command(commands, "replay", command_replay, help="replay a game file and print the final state")
    replay.add_argument("file", help="game file (JSON)")
    replay.add_argument("--format", choices=["trace", "hanab-live"], default="trace", help="file format")
    replay.add_argument("--rules", default=None, help="rule preset for hanab.live files (default hanab-live)")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    add_show_options(replay)
    replay.add_argument("--html", default=None, metavar="FILE",
                        help="write a self-contained page that steps through the game in a browser (VW-file)")


def add_rules(commands: Subparsers) -> None:
    """[C-rules] ``rules --list``: the rule options and the presets."""
    rules = add_command(commands, "rules", command_rules,
                        help="the rule options and presets (spec/rules.md section 10)")
    rules.add_argument("--list", action="store_true", required=True,
                       help="list every rule option and every preset")
    rules.add_argument("--json", action="store_true", help="print one JSON object")


def command_play(args: argparse.Namespace) -> int:
    """Play one game and optionally write its trace [C-play, T-trace]; ``--show`` prints
    it move by move [SH-show], ``--human SEAT`` lets a person take a seat [HU-play], beside
    the natural bot unless ``--strategy`` names another, ``--explain`` printing what the
    bots took from clues [HU-partner], under the hanab-live rules unless ``--rules`` says
    otherwise [HU-rules]."""
    from hanabi_ref.players.runner import play_game
    from hanabi_ref.tools.human import play_human
    from hanabi_ref.formats.trace import Trace
    from hanabi_ref.engine.configs import make_config
    from hanabi_ref.formats.trace import summary

    if args.rules is None:  # [HU-rules] a person plays the rules people play
        args.rules = HUMAN_RULES if args.human is not None else "thesis"
    config = make_config(args.players, preset=args.rules, variant=args.variant, hand_size=args.hand_size)
    check_show_options(args)
    if args.human is not None and args.human >= config.players:
        raise UsageError(f"hanabi-ref: --human: seat {args.human} does not exist ({config.players} players: "
                         f"seats 0..{config.players - 1})")
    if args.explain and args.human is None:
        raise UsageError("hanabi-ref: --explain: only with --human SEAT")
    if args.human is not None and args.strategy is None and not args.bot:
        args.strategy = HUMAN_PARTNER  # [HU-partner] the bot that reads clues as people give them
    factory = _play_factory(args, config)
    try:
        if args.human is not None:
            # [OUT-special] with the trace on standard output, the game is played on standard error
            record = play_human(config, factory, args.human, seed=args.seed, strategy_seed=args.strategy_seed,
                                output=sys.stderr if args.out == "-" else None, explain=args.explain,
                                order=args.hand_order)
        else:
            record = play_game(config, factory, seed=args.seed, strategy_seed=args.strategy_seed)
    except KeyboardInterrupt as stop:  # [HU-end] an abandoned game's moves are kept: it can be reviewed
        trace = getattr(stop, "trace", None)
        if args.out is not None and isinstance(trace, Trace):
            _write_trace(trace, args.out, args.states)
            _report_written(args.out)  # [OUT-report]
        raise
    finally:
        close = getattr(factory, "close", None)
        if close is not None:
            close()  # [ISO-lifecycle] every seat's process ended and reaped
    if args.out is not None:
        _write_trace(record.trace, args.out, args.states)
        _report_written(args.out)  # [OUT-report]
    if args.html is not None:  # [VW-title] the page of the game just played, its strategy named
        _write_play_viewer(args, record.trace, config)
    result = summary(record.final)
    if args.strategy_seed is not None:  # [ISO-seeds] the seeds that play this game again
        result = {**result, "seed": args.seed, "strategy_seed": args.strategy_seed}
    if args.out == "-":  # [OUT-special] the trace has standard output; the summary goes beside it
        with contextlib.redirect_stdout(sys.stderr):
            show(args, record.trace)
            print_summary(readable(result, record.final, args.json), args.json)
    else:
        show(args, record.trace)
        print_summary(readable(result, record.final, args.json), args.json)
    return EXIT_OK


def readable(result: dict[str, Any], final: GameState, as_json: bool) -> dict[str, Any]:
    """[C-play, C-replay] a summary as printed: JSON keeps the fields a list; the text shows
    them as the board does (``r5 y3 g0 b2 w1``, SH-board)."""
    from hanabi_ref.engine.show import fireworks_text

    return result if as_json else {**result, "fireworks": fireworks_text(final.config, final.fireworks)}


def check_show_options(args: argparse.Namespace) -> None:
    """[SH-show] ``--from``/``--to`` only with ``--show``, and in order."""
    if not args.show and (args.show_from is not None or args.show_to is not None):
        raise UsageError("hanabi-ref: --from/--to: only with --show")
    if args.show_from is not None and args.show_to is not None and args.show_from > args.show_to:
        raise UsageError(f"hanabi-ref: --from {args.show_from} is after --to {args.show_to}")


def show(args: argparse.Namespace, trace: Trace, states: Sequence[GameState] | None = None) -> None:
    """[SH-show] the game move by move, when ``--show`` asks."""
    if not args.show:
        return
    from hanabi_ref.engine.show import show_game
    from hanabi_ref.formats.trace import replay_states

    for line in show_game(replay_states(trace) if states is None else states, args.show_from, args.show_to,
                          args.hand_order):
        print(line)


def _play_factory(args: argparse.Namespace, config: GameConfig) -> StrategyFactory:
    """The strategy of ``play``: in this process, or with ``--isolate`` or ``--bot`` in a
    process per seat [ISO-cli]."""
    from hanabi_ref.tools.sim.chunks import GameSetup
    from hanabi_ref.tools.sim.commands import strategy_factory
    from hanabi_ref.tools.sim.simulate import BOT, check_seats, check_strategy_or_bots, seated

    spec = check_strategy_or_bots(args)
    if spec is None or args.isolate:
        setup = GameSetup.of(config.players, config.preset, args.variant, args.hand_size,
                             BOT if spec is None else spec.name, {})
        setup = seated(setup, args)
        check_seats(setup)
        return setup.factory()
    if args.move_timeout is not None:
        raise UsageError("hanabi-ref: --move-timeout: only with --isolate or --bot")
    return strategy_factory(args.strategy)


def _report_written(path: str) -> None:
    """[OUT-report] the line naming a file written (imported here: the command line starts
    without the output module)."""
    from hanabi_ref.base.atomic import report_written

    report_written(path)


def _write_trace(trace: Trace, out: str, with_states: bool) -> None:
    """[C-play, OUT-atomic, OUT-special, OUT-symlink] ``--out``: a file replaced atomically,
    ``-``, a device or a FIFO written through; an OS error is a usage error, a broken pipe on
    standard output ends the command quietly [OUT-stdout]."""
    from hanabi_ref.base.atomic import is_standard_output
    from hanabi_ref.formats.trace import save_trace

    try:
        save_trace(trace, out, with_states=with_states)
    except BrokenPipeError:
        if is_standard_output(out):
            raise
        raise UsageError(f"hanabi-ref: --out: cannot write {out}: the reader of the pipe has gone") from None
    except OSError as error:
        raise UsageError(f"hanabi-ref: --out: cannot write {out}: {error.strerror or error}") from None


def command_replay(args: argparse.Namespace) -> int:
    """Replay a trace or a hanab.live game and print the final state [C-replay, T-trace,
    T-schema]; ``--show`` prints it move by move [SH-show]; ``--html`` writes the
    browser viewer [VW-file], nothing when the file is bad."""
    from hanabi_ref.base.errors import TraceError
    from hanabi_ref.formats.hanablive import game_is_over, load_hanablive
    from hanabi_ref.engine.presets import PRESETS
    from hanabi_ref.formats.trace import load_trace, replay_states, summary

    check_show_options(args)
    if args.format == "hanab-live":
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
    show(args, trace, states)
    result = summary(states[-1])
    if args.format == "hanab-live":
        result["terminal"] = game_is_over(states[-1])  # [HL-end] the server's end, its final-round rule included
    print_summary(readable(result, states[-1], args.json), args.json)
    return EXIT_OK


def _write_play_viewer(args: argparse.Namespace, trace: Trace, config: GameConfig) -> None:
    """[VW-title, VW-file, OUT-report] ``play --html FILE``: the replay page of the game just
    played, titled with who played it (the strategy, or the bot commands), the rules, the
    variant, the players and the seed."""
    from hanabi_ref.formats.trace import replay_states
    from hanabi_ref.tools.viewer import write_viewer

    players = (f"strategy {args.strategy}" if args.strategy is not None
               else "bots " + ", ".join(args.bot or []))
    person = "" if args.human is None else f", a person at seat {args.human}"
    title = (f"Hanabi: {players}{person}, {config.preset} rules, {config.variant}, {config.players} players, "
             f"seed {args.seed}")
    try:
        write_viewer(args.html, trace, replay_states(trace), title=title)
    except OSError as error:
        raise UsageError(f"hanabi-ref: --html: cannot write {args.html}: {error.strerror or error}") from None
    _report_written(args.html)


def _write_viewer(args: argparse.Namespace, trace: Trace, states: Sequence[GameState]) -> None:
    """[VW-file, OUT-atomic] ``--html FILE``: the viewer page, replaced atomically; a
    reproduction file of ``verify`` shows the divergence [VW-divergence]."""
    from hanabi_ref.tools.viewer import read_divergence, write_viewer
    from hanabi_ref.tools.viewer.html import file_title

    divergence = read_divergence(args.file) if args.format == "trace" else None
    try:
        write_viewer(args.html, trace, states, title=file_title(Path(args.file).name, trace), divergence=divergence)
    except OSError as error:
        raise UsageError(f"hanabi-ref: --html: cannot write {args.html}: {error.strerror or error}") from None
    _report_written(args.html)  # [OUT-report]


def command_rules(args: argparse.Namespace) -> int:
    """``rules --list``: every rule option with its values, default and clauses, and every
    preset with the options it sets, its player counts and its variants [C-rules,
    P-options, P-presets]; ``--json``: one object."""
    from hanabi_ref.engine.presets import rules_listing

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
