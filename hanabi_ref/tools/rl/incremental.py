"""Encoding the views of a game move by move [RL-incremental, RL-encode].

:func:`~hanabi_ref.tools.rl.encoders.encode` reads a view from scratch: it replays the
whole public history for the revealed bits and the tokens before the last move, and writes
every card one by one, so a game of T moves costs O(T^2).  A :class:`GameEncoder` gives
the same vectors, bit for bit, for the views of a game as it goes on: it keeps one
*board* of the game in absolute seats (every hand, the missing bits, the deck, fireworks,
tokens, discards, the last action and every card's knowledge or belief) and updates it by
the events a view's history has beyond the last one it read; a seat's vector is then one
gather from the board, the seats rotated so that the observer comes first.

The board holds no more than the views it was fed: each hand's identities come from a view
that shows them, and a seat's vector never reads its own hand's block (``canonical`` and
``minimal`` have none; in ``v0`` and ``notes`` it is read as zeros).  A view of another
game, or of an earlier state of this one, starts the board anew (its history does not
extend the events read so far, compared by identity), so any sequence of views is encoded
correctly; only the views of one line of play are cheap.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from hanabi_ref.engine.actions import Hint
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import Event
from hanabi_ref.engine.tables import Tables
from hanabi_ref.engine.view import PlayerView
from hanabi_ref.tools.rl.encoders import (Vector, last_action_ones, mask_bits, note_revealed, offsets, tokens_after)
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.layout import ENCODINGS, layout

Index = npt.NDArray[np.intp]

ROWS_LIMIT = 1 << 16
"""The most card rows (a knowledge mask with its revealed colour and rank) an encoder keeps."""


class GameEncoder:
    """[RL-incremental] ``encode(encoding, view)`` for the views of one configuration, one
    game after another, each view's vector computed from the events since the last view.

    ``encode(view)`` equals :func:`~hanabi_ref.tools.rl.encoders.encode` of the same view
    for every view (tests/test_rl_encoders.py compares them along whole games, seat by
    seat, under every encoding)."""

    def __init__(self, encoding: str, config: GameConfig) -> None:
        if encoding not in ENCODINGS:
            raise RLError("RL-encodings", f"unknown encoding {encoding!r} (known: {', '.join(ENCODINGS)})")
        lay = layout(encoding, config)  # refuses the configuration [RL-configs, RL-notes]
        self.config, self.encoding, self.at = config, encoding, offsets(lay)
        dims = self.dims = lay.dims
        p, h, b = dims.players, dims.hand_size, dims.identities
        self.per = b + dims.colours + dims.ranks
        self.has_cards = encoding != "minimal"
        self.belief = self.at.own_hand
        # the board: every hand's block, the p missing bits, the layout from the deck to the
        # last action (seats absolute), every hand's card section, one zero at the end
        self.hands_at = 0
        self.missing_at = p * h * b
        self.tail_at = self.missing_at + p
        self.cards_at = self.tail_at + (self.at.cards - self.at.deck)
        card_values = p * h * self.per if self.has_cards else 0
        self.zero_at = self.cards_at + card_values
        self.board: Vector = np.zeros(self.zero_at + 1, np.float32)
        self.gathers = [self.gather(seat, lay.size) for seat in range(p)]
        self.rows: dict[tuple[int, int, int], Vector] = {}
        """a card's B + c + r values (identity bits, revealed colour, revealed rank) by
        (knowledge mask, revealed colour, revealed rank), -1 for none revealed"""
        self.know: Vector = (self.board[self.cards_at: self.zero_at].reshape(p, h, self.per)
                             if self.has_cards and not self.belief else np.zeros((p, h, self.per), np.float32))
        """the knowledge section in absolute seats: the board's own (canonical), or the
        belief's identity bits beside it (v0, notes)"""
        self.restart()

    def gather(self, seat: int, size: int) -> Index:
        """Where each value of ``seat``'s vector lies on the board: the seats rotated so
        that relative seat k is seat (seat + k) mod p [RL-encode]."""
        dims, at = self.dims, self.at
        p, h, b = dims.players, dims.hand_size, dims.identities
        index = np.full(size, self.zero_at, np.intp)
        first = 0 if at.own_hand else 1
        for rel in range(first, p):  # [RL-hands] the observer's own block (v0, notes) stays zero
            if rel == 0:
                continue
            start, source = at.hands + (rel - first) * h * b, self.hands_at + ((seat + rel) % p) * h * b
            index[start: start + h * b] = np.arange(source, source + h * b)
        for rel in range(p):  # [RL-missing]
            index[at.missing + rel] = self.missing_at + (seat + rel) % p
        index[at.deck: at.cards] = np.arange(self.tail_at, self.tail_at + at.cards - at.deck)
        for part in (at.actor, at.target):  # [RL-last-action] the actor and the target, relative
            for rel in range(p):
                index[part + rel] = self.tail_at + part - at.deck + (seat + rel) % p
        if self.has_cards:
            per = h * self.per
            for rel in range(p):  # [RL-knowledge, RL-v0-belief]
                start, source = at.cards + rel * per, self.cards_at + ((seat + rel) % p) * per
                index[start: start + per] = np.arange(source, source + per)
        return index

    def restart(self) -> None:
        """Forget the game: the next view is read from the start of its history."""
        p = self.dims.players
        self.board[:] = 0
        self.know[:] = 0
        self.events = 0
        self.last_event: Event | None = None
        self.revealed: dict[int, list[int]] = {}
        self.tokens = self.before = self.config.max_hints
        self.discarded = [0] * self.dims.identities
        self.discards_read = 0
        self.public = np.array(self.dims.counts, np.float32)
        """[RL-v0-belief] the public count of each identity"""
        self.cards: list[tuple[int | None, ...] | None] = [None] * p
        self.hands: list[tuple[int, ...] | None] = [None] * p
        self.knowledge: list[tuple[int, ...] | None] = [None] * p
        self.dirty = set(range(p))
        self.written: list[list[tuple[int, int, int] | None]] = [[None] * self.dims.hand_size for _ in range(p)]
        """per hand, the key of :attr:`rows` each slot's card values were written from"""
        self.last_ones: list[int] = []
        """the board's ones in the last action"""
        self.hand_ones: list[list[int]] = [[] for _ in range(p)]
        """the board's ones in each hand's block"""
        self.shown: tuple[int, int, int, tuple[int, ...]] | None = None
        """the deck size, information and life tokens and fireworks the board shows"""

    def encode(self, view: PlayerView) -> Vector:
        """The vector of the encoding for ``view`` [RL-encode, RL-incremental]: a new
        float32 array."""
        if view.config is not self.config and view.config != self.config:
            raise RLError("RL-incremental", f"a view of another configuration ({view.config.players} players, "
                          f"variant {view.config.variant!r}) given to an encoder of {self.config.players} players")
        self.follow(view)
        self.show_hands(view)
        return self.board.take(self.gathers[view.seat])

    # ------------------------------------------------------------ the public part

    def follow(self, view: PlayerView) -> None:
        """Bring the board's public part to ``view``'s state: read the events it has
        beyond those read (after a restart when its history does not extend them)."""
        history = view.history
        known, length = self.events, len(history)
        if length < known or (known and history[known - 1] is not self.last_event):
            self.restart()
            known = 0
        elif length == known and known:
            return  # the state the board shows (at the deal, the hands are compared below)
        tables = view.tables
        for index in range(known, length):
            self.read(history[index], tables)
        self.events = length
        self.last_event = history[length - 1] if length else None
        self.show_public(view, last=known < length)

    def read(self, event: Event, tables: Tables) -> None:
        """One event: the revealed bits [RL-knowledge], the tokens replayed [RL-last-action]
        and the hand it changed."""
        self.before = self.tokens
        self.tokens = tokens_after(tables, self.tokens, event)
        action = event.action
        if isinstance(action, Hint):
            note_revealed(self.revealed, event)
            self.dirty.add(action.target)
        else:
            self.dirty.add(event.player)

    def show_public(self, view: PlayerView, last: bool) -> None:
        """The deck, tokens, fireworks, discards, last action, missing bits and cards of
        ``view``'s state on the board."""
        board, at, tail = self.board, self.at, self.tail_at - self.at.deck
        dims = self.dims
        deck, tokens, lives, fireworks = view.deck_size, view.clue_tokens, dims.lives - view.strikes, view.fireworks
        shown = self.shown or (0, 0, 0, (0,) * dims.colours)
        thermometer(board, tail + at.deck, shown[0], deck)  # [RL-deck]
        thermometer(board, tail + at.information, shown[1], tokens)  # [RL-tokens]
        thermometer(board, tail + at.lives, shown[2], lives)
        counts_changed = self.read_discards(view)
        if shown[3] != fireworks:  # [RL-fireworks]
            for colour, (old, new) in enumerate(zip(shown[3], fireworks)):
                if old != new:
                    start = tail + at.fireworks + colour * dims.ranks
                    if old > 0:
                        board[start + old - 1] = 0
                    if new > 0:
                        board[start + new - 1] = 1
            counts_changed = True
        if counts_changed:
            self.public_counts(view)
        if last or self.shown is None:  # [RL-last-action] seats absolute (origin 0)
            ones = [tail + one for one in last_action_ones(dims, at, view, 0, self.before)]
            self.last_ones = replace_ones(board, self.last_ones, ones)
        self.shown = (deck, tokens, lives, fireworks)
        self.show_cards(view, counts_changed)

    def read_discards(self, view: PlayerView) -> bool:
        """[RL-discards] the thermometer bits of the cards discarded since the last view;
        whether any was."""
        discard = view.discard
        if self.discards_read == len(discard):
            return False
        base = self.tail_at - self.at.deck
        for _, card in discard[self.discards_read:]:
            self.board[base + self.at.discard_starts[card] + self.discarded[card]] = 1
            self.discarded[card] += 1
        self.discards_read = len(discard)
        return True

    def public_counts(self, view: PlayerView) -> None:
        """[RL-v0-belief] copies minus those discarded and those on the fireworks."""
        if not self.belief:
            return
        dims = self.dims
        counts = np.array(dims.counts, np.float32)
        counts -= np.array(self.discarded, np.float32)
        for colour, height in enumerate(view.fireworks):
            counts[colour * dims.ranks: colour * dims.ranks + height] -= 1
        self.public = counts

    # ------------------------------------------------------------ the cards

    def show_cards(self, view: PlayerView, counts_changed: bool) -> None:
        """The missing bits [RL-missing] and the card section of every hand that changed
        (RL-knowledge, or RL-v0-belief for every hand when the public counts changed)."""
        h = self.dims.hand_size
        changed = False
        for seat, (hand, knowledge) in enumerate(zip(view.hands, view.knowledge)):
            if seat in self.dirty or hand is not self.hands[seat] or knowledge is not self.knowledge[seat]:
                self.board[self.missing_at + seat] = 1 if len(hand) < h else 0
                if self.has_cards:
                    self.write_knowledge(seat, hand, knowledge)
                self.hands[seat], self.knowledge[seat] = hand, knowledge
                changed = True
        self.dirty.clear()
        if self.belief and (changed or counts_changed):
            self.write_belief()

    def write_knowledge(self, seat: int, hand: Sequence[int], knowledge: Sequence[int]) -> None:
        """[RL-knowledge] one hand's identity bits and revealed colour and rank, each card
        whose values changed (a card moved to another slot, or a hint changed it)."""
        block, written, revealed = self.know[seat], self.written[seat], self.revealed
        for slot, (card_id, mask) in enumerate(zip(hand, knowledge)):
            named = revealed.get(card_id)
            key = (mask, -1, -1) if named is None else (mask, named[0], named[1])
            if written[slot] != key:
                row = self.rows.get(key)
                if row is None:
                    if len(self.rows) >= ROWS_LIMIT:
                        self.rows.clear()
                    row = self.rows[key] = self.card_row(*key)
                block[slot] = row
                written[slot] = key
        for slot in range(len(hand), len(written)):
            if written[slot] is not None:
                block[slot] = 0
                written[slot] = None

    def card_row(self, mask: int, colour: int, rank: int) -> Vector:
        """A card's B + c + r values: its identity bits, then its revealed colour and rank."""
        b, c = self.dims.identities, self.dims.colours
        row = np.zeros(self.per, np.float32)
        row[list(mask_bits(mask))] = 1
        if colour >= 0:
            row[b + colour] = 1
        if rank >= 0:
            row[b + c + rank] = 1
        return row

    def write_belief(self) -> None:
        """[RL-v0-belief] every card's identity bits times the public counts, divided by
        their sum in float32 (a sum of small integers, exact in any order), then the
        revealed bits unchanged."""
        b = self.dims.identities
        know = self.know
        weights = know[:, :, :b] * self.public
        sums = weights.sum(axis=2, dtype=np.float32, keepdims=True)
        belief = np.zeros_like(know)
        np.divide(weights, sums, out=belief[:, :, :b], where=sums != 0)
        belief[:, :, b:] = know[:, :, b:]
        self.board[self.cards_at: self.zero_at] = belief.reshape(-1)

    # ------------------------------------------------------------ the hands

    def show_hands(self, view: PlayerView) -> None:
        """[RL-hands] the block of every hand ``view`` shows whose cards changed."""
        h, b = self.dims.hand_size, self.dims.identities
        for seat, cards in enumerate(view.cards):
            if seat == view.seat or cards is self.cards[seat]:
                continue
            if cards != self.cards[seat]:
                start = self.hands_at + seat * h * b
                ones = [start + slot * b + card for slot, card in enumerate(cards) if card is not None]
                self.hand_ones[seat] = replace_ones(self.board, self.hand_ones[seat], ones)
            self.cards[seat] = cards


def thermometer(board: Vector, start: int, old: int, new: int) -> None:
    """A thermometer from ``start`` showing ``old`` changed to show ``new`` (one value
    at a time: a move changes a count by one, and a slice costs more)."""
    for index in range(start + new, start + old):
        board[index] = 0
    for index in range(start + old, start + new):
        board[index] = 1


def replace_ones(board: Vector, old: list[int], new: list[int]) -> list[int]:
    """Zero the indices ``old``, set the indices ``new`` to one; ``new``."""
    for index in old:
        board[index] = 0
    for index in new:
        board[index] = 1
    return new
