"""``hanabi-ref perft``: count the move sequences of length D from a fixed deal
[PF-cli, PF-count, PF-divide].

Like every ``commands`` module this one imports no game at load time: ``hanabi-ref
--help`` stays cheap; the handler imports what it runs.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from hanabi_ref.base.cliargs import EXIT_OK, InvalidGame, Subparsers, UsageError, add_command, count, positive, seed
from hanabi_ref.base.errors import ConfigError, FileReadError, TraceError


def add_perft(commands: Subparsers) -> None:
    """[PF-cli] ``perft``."""
    perft = add_command(commands, "perft", command_perft,
                        help="count the move sequences of length D from a fixed deal (spec/perft.md)")
    deal = perft.add_mutually_exclusive_group(required=True)
    deal.add_argument("--seed", type=seed, help="deal the deck from this seed (D-seed)")
    deal.add_argument("--deck", metavar="FILE", help="the deck: a JSON list of cards, top first, or an object with a deck")
    perft.add_argument("--players", type=positive, required=True, help="number of players p")
    perft.add_argument("--rules", default="thesis", help="rule preset (default thesis)")
    perft.add_argument("--variant", default="no-variant", help="variant slug or hanab.live name")
    perft.add_argument("--hand-size", type=positive, default=None, help="hand size h (default by p)")
    perft.add_argument("--hints", type=count, default=8, help="hint tokens t0 (default 8)")
    perft.add_argument("--errors", type=errors_allowed, default=3, help="errors f0 that end the game, or none (default 3)")
    perft.add_argument("--composition", type=composition, default=None, metavar="COUNTS",
                       help="a custom deck instead of --variant: cards per value, suits separated by /, e.g. 3,2,1/3,2,1")
    perft.add_argument("--option", type=rule_option, action="append", default=[], metavar="NAME=VALUE",
                       help="a rule option on top of the preset (repeatable; hanabi-ref rules --list shows them)")
    perft.add_argument("--moves", default="", metavar="MOVES",
                       help="count from the position after these moves, comma-separated: 'hint 1 red, play 0'")
    perft.add_argument("--depth", type=count, required=True, help="the length D of the move sequences counted")
    perft.add_argument("--divide", action="store_true", help="also the count under each first move")
    perft.add_argument("--json", action="store_true", help="print one JSON object")


def errors_allowed(text: str) -> int | None:
    """``--errors``: f0 >= 1, or ``none`` for no bound (2.9-f0)."""
    return None if text == "none" else positive(text)


def composition(text: str) -> list[list[int]]:
    """``--composition 3,2,1/3,2,1``: one list of counts per suit (2.9-composition)."""
    try:
        return [[int(part) for part in suit.split(",")] for suit in text.split("/")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be counts such as 3,2,1/3,2,1, got {text!r}") from None


def rule_option(text: str) -> tuple[str, bool | str]:
    """[P-options] ``--option NAME=VALUE``: a known rule option and one of its values."""
    from hanabi_ref.engine.presets import parse_rule_option

    try:
        return parse_rule_option(text)
    except ConfigError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def command_perft(args: argparse.Namespace) -> int:
    """[PF-cli] the count (and divide) of the position the arguments name.  Bad
    arguments and an unreadable file are usage errors (exit 2); a deck file that is not
    a deck of this configuration, or a move that is no legal move, is invalid input
    (exit 1)."""
    from hanabi_ref.engine.configs import config_to_json
    from hanabi_ref.engine.dealing import deck_from_seed
    from hanabi_ref.tools.perft.count import perft_count
    from hanabi_ref.tools.perft.deals import deck_from_file, parse_moves, position

    if args.composition is not None and args.variant != "no-variant":
        raise UsageError("hanabi-ref: perft: --composition is a custom deck: give it without --variant")
    config = _config(args)
    try:
        deck = deck_from_seed(config, args.seed) if args.deck is None else deck_from_file(args.deck, config)
        texts = [text for text in args.moves.split(",") if text.strip()] if args.moves else []
        moves = parse_moves(config, texts)
        start = position(config, deck, moves, "--moves")
    except FileReadError:
        raise  # unreadable: a usage error (exit 2)
    except TraceError as error:
        raise InvalidGame(f"hanabi-ref: perft: {error}") from None
    result = perft_count(start, args.depth, args.divide)
    answer = perft_json(config_to_json(config), config, deck, args.seed, moves, result)
    print(json.dumps(answer, sort_keys=True) if args.json else "\n".join(perft_lines(answer)))
    return EXIT_OK


def _config(args: argparse.Namespace) -> Any:
    """The configuration of the arguments [2.9, P-presets, P-options]; an invalid one is
    a usage error (exit 2) naming what is wrong."""
    from hanabi_ref.engine.configs import make_config

    options = dict(args.option)
    if len(options) != len(args.option):
        raise UsageError("hanabi-ref: perft: --option: an option is given twice")
    try:
        return make_config(args.players, preset=args.rules, variant=args.variant, hand_size=args.hand_size,
                           hints=args.hints, errors=args.errors, composition=args.composition, **options)
    except ConfigError as error:
        raise UsageError(f"hanabi-ref: perft: {error}") from None


def perft_json(config_json: dict[str, Any], config: Any, deck: tuple[int, ...], seed: int | None,
               moves: tuple[Any, ...], result: Any) -> dict[str, Any]:
    """[PF-cli, PF-vectors] a count as the members of a perft vector: the
    configuration, the deck, the seed it came from (none for a deck file), the moves
    before the count, the depth, the count and, if asked for, the divide."""
    from hanabi_ref.engine.actions import action_to_json
    from hanabi_ref.engine.cards import as_identities
    from hanabi_ref.formats.serial import card_to_json
    from hanabi_ref.tools.perft.vectors import divide_json

    answer: dict[str, Any] = {
        "config": config_json, "deck": [card_to_json(card, config) for card in as_identities(deck)],
        "moves": [action_to_json(move) for move in moves], "depth": result.depth, "nodes": result.nodes,
    }
    if seed is not None:
        answer["seed"] = seed
    if result.divide is not None:
        answer["divide"] = divide_json(config, result.divide)
    return answer


def perft_lines(answer: dict[str, Any]) -> list[str]:
    """[PF-cli, PF-divide] the count as text: what was counted, then with a divide
    one line ``MOVE: COUNT`` per first move (moves as SH-parse reads them), then the
    total."""
    config = answer["config"]
    dealt = f"deck of seed {answer['seed']}" if "seed" in answer else "deck from the file"
    after = f", after {len(answer['moves'])} moves" if answer["moves"] else ""
    lines = [f"{config['preset']}, {config['players']} players, {config['variant']}, {dealt}{after}, depth {answer['depth']}"]
    if "divide" in answer:
        lines += [f"{entry['move']}: {entry['nodes']}" for entry in answer["divide"]]
        lines.append(f"moves {len(answer['divide'])}, nodes {answer['nodes']}")
    else:
        lines.append(f"nodes {answer['nodes']}")
    return lines
