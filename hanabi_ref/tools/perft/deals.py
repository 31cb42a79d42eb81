"""The position a perft count starts from: a configuration, a deck and the moves made
since the deal [PF-cli, PF-vectors].

The deck is fixed before the count starts, by a seed (D-seed) or given card by card
(D-explicit), so the tree of moves has no chance nodes: every draw is the next card of
the deck.  A deck file holds a JSON list of cards (``{"suit": y, "value": x}``, top card
first) or an object with such a list as its ``deck`` (a trace, a perft vector, the
output of ``perft --json``; its other members are not read).
"""

from __future__ import annotations

from collections.abc import Sequence

from hanabi_ref.base.errors import ConfigError, HanabiError, IllegalActionError, TraceError
from hanabi_ref.engine.actions import Action
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.show import action_text, parse_action
from hanabi_ref.engine.state import GameState
from hanabi_ref.engine.tables import tables_for
from hanabi_ref.engine.transition import apply, check_deck, initial_state
from hanabi_ref.formats.trace import card_from_json, read_json_file


def deck_from_file(path: str, config: GameConfig) -> tuple[int, ...]:
    """[PF-cli, D-explicit] the deck a file holds, as identities of ``config``.  An
    unreadable file is a :class:`~hanabi_ref.base.errors.FileReadError` (exit 2); a file
    that is not JSON, holds no list of cards, or a deck of the wrong size or not the
    configuration's composition, a :class:`~hanabi_ref.base.errors.TraceError` (exit 1),
    one line naming the file and the place."""
    data = read_json_file(path)
    where = "deck" if isinstance(data, dict) else "$"
    cards = data.get("deck") if isinstance(data, dict) else data
    if not isinstance(cards, list):
        raise TraceError(f"{path}: expected a list of cards, top card first, or an object with one as its deck")
    size = tables_for(config).deck_size
    if len(cards) != size:
        raise TraceError(f"{path}: {where}: {len(cards)} cards, but the configuration's deck has {size} "
                         f"({config.variant}, D-explicit)")
    deck = tuple(card_from_json(card, f"{path}: {where}[{index}]", config) for index, card in enumerate(cards))
    try:
        check_deck(config, deck)
    except ConfigError as error:
        raise TraceError(f"{path}: {error} (D-explicit)") from None
    return deck


def parse_moves(config: GameConfig, texts: Sequence[str], where: str = "--moves") -> tuple[Action, ...]:
    """[PF-cli, SH-parse] moves as people write them (``hint 1 red``, ``play 0``); a
    text that is no move is a :class:`~hanabi_ref.base.errors.TraceError` naming it."""
    moves = []
    for index, text in enumerate(texts):
        try:
            moves.append(parse_action(config, text))
        except HanabiError as error:
            raise TraceError(f"{where}[{index}] {text.strip()!r}: {error}") from None
    return tuple(moves)


def position(config: GameConfig, deck: Sequence[int], moves: Sequence[Action], where: str = "moves") -> GameState:
    """[PF-cli, PF-vectors] the state after the deal of ``deck`` and ``moves``; an
    illegal move is a :class:`~hanabi_ref.base.errors.TraceError` naming it and the rule
    it breaks."""
    state = initial_state(config, deck)
    for index, move in enumerate(moves):
        try:
            state = apply(state, move)
        except IllegalActionError as error:
            raise TraceError(f"{where}[{index}] {action_text(config, move)!r}: {error}") from None
    return state
