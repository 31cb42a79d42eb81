"""HLE's texts written from our states and views [RL-os-strings].

DeepMind's Hanabi Learning Environment (OpenSpiel's ``hanabi``) shows a game as text:
``HanabiState::ToString`` (every card face up), ``HanabiObservation::ToString`` (what one
player sees, its own hand first) and ``HanabiMove::ToString`` (``(Play 0)``, ``(Reveal
player +1 color R)``, ``(Deal R1)``).  :mod:`hanabi_ref.tools.peers.hle_observation` reads the
observation text; this module writes all three, so that our engine registered in OpenSpiel
(:mod:`hanabi_ref.tools.rl.openspiel_game`) shows the very strings OpenSpiel's ``hanabi`` shows.

The colour letters are HLE's (``R Y G W B``: our Blue is HLE's W, our Purple its B) under No
Variant, and our suits' abbreviations under every other variant, which HLE cannot play.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import attrs

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.cards import Identity, suit_of, value_of
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.show import knowledge_parts
from hanabi_ref.tools.peers.hle_rules import COLOUR_LETTERS


@attrs.frozen
class CardText:
    """What one card line shows: the identity (None: hidden, ``XX``), the knowledge set,
    and the colour and the rank (from 0) a hint named while touching the card (None: none)."""

    identity: int | None
    knowledge: int
    colour: int | None
    rank: int | None


@attrs.frozen
class TableText:
    """Everything HLE's state and observation texts show, hands already in the order shown
    (seat order for the state, the observer's own hand first for an observation)."""

    lives: int
    clue_tokens: int
    fireworks: tuple[int, ...]
    hands: tuple[tuple[CardText, ...], ...]
    marked: int | None
    """the hand shown after ``Cur player`` (None: no such line)"""
    deck_size: int
    discard: tuple[int, ...]


def colour_letters(config: GameConfig) -> tuple[str, ...]:
    """[RL-os-strings] the letter of each suit: HLE's under No Variant, else our abbreviations."""
    if config.variant == "No Variant":
        return tuple(COLOUR_LETTERS[: config.suit_count])
    return tuple(suit.abbreviation.upper() for suit in config.suits)


def rank_char(rank: int) -> str:
    """HLE's ``RankIndexToChar``: rank r (from 0) is the digit r + 1."""
    return chr(ord("1") + rank)


@functools.lru_cache(maxsize=4096)
def card_text(config: GameConfig, identity: int) -> str:
    """A card as HLE writes it: its colour letter and its rank, ``R1``."""
    card = Identity(identity)
    return colour_letters(config)[suit_of(card, config.values)] + rank_char(value_of(card, config.values) - 1)


@functools.lru_cache(maxsize=4096)
def knowledge_text(config: GameConfig, card: CardText) -> str:
    """HLE's ``CardKnowledge::ToString``: the hinted colour and rank (``X`` for none), a
    bar, then the colours and the ranks still plausible, ``RX|RYG12``.  A knowledge set that
    is not a product of colours and ranks (no hint of a standard variant makes one) lists
    its cards.  (Cached: a game shows the same few lines again and again.)"""
    letters = colour_letters(config)
    hinted = (letters[card.colour] if card.colour is not None else "X") + (
        rank_char(card.rank) if card.rank is not None else "X")
    parts = knowledge_parts(config, card.knowledge)
    if parts is None:
        cards = [index for index in range(config.suit_count * config.values) if card.knowledge >> index & 1]
        return f"{hinted}|" + ",".join(card_text(config, index) for index in cards)
    suits, values = parts
    return f"{hinted}|" + "".join(letters[suit] for suit in suits) + "".join(rank_char(value - 1) for value in values)


def table_text(config: GameConfig, table: TableText) -> str:
    """HLE's ``HanabiState::ToString`` / ``HanabiObservation::ToString`` of ``table``."""
    letters = colour_letters(config)
    lines = [f"Life tokens: {table.lives}", f"Info tokens: {table.clue_tokens}",
             "Fireworks: " + "".join(f"{letters[suit]}{height} " for suit, height in enumerate(table.fireworks)),
             "Hands:"]
    for index, hand in enumerate(table.hands):
        if index > 0:
            lines.append("-----")
        if index == table.marked:
            lines.append("Cur player")
        for card in hand:
            shown = "XX" if card.identity is None else card_text(config, card.identity)
            lines.append(f"{shown} || {knowledge_text(config, card)}")
    lines.append(f"Deck size: {table.deck_size}")
    return "\n".join(lines) + "\nDiscards:" + "".join(f" {card_text(config, card)}" for card in table.discard)


def move_text(config: GameConfig, action: Action, actor: int) -> str:
    """HLE's ``HanabiMove::ToString`` of ``action`` made by seat ``actor``: ``(Play 0)``,
    ``(Discard 0)``, ``(Reveal player +1 color R)``, ``(Reveal player +1 rank 1)``."""
    if isinstance(action, Play):
        return f"(Play {action.slot})"
    if isinstance(action, Discard):
        return f"(Discard {action.slot})"
    assert isinstance(action, Hint)
    offset = (action.target - actor) % config.players
    if action.kind == "colour":
        return f"(Reveal player +{offset} color {colour_letters(config)[action.subject]})"
    return f"(Reveal player +{offset} rank {rank_char(action.subject - 1)})"


def deal_text(config: GameConfig, identity: int) -> str:
    """HLE's text of a chance outcome, the card dealt: ``(Deal R1)``."""
    return f"(Deal {card_text(config, identity)})"


def seat_order(hands: Sequence[tuple[CardText, ...]], first: int) -> tuple[tuple[CardText, ...], ...]:
    """The hands round the table from seat ``first`` (an observation shows its own hand first)."""
    return tuple(hands[(first + offset) % len(hands)] for offset in range(len(hands)))
