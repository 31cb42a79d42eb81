"""Hint codes of size k: a number names a hint, a hint names a number [I-focus, I-k,
I-hint-map, I-hint-choice, I-k-exists].

Each seat other than the actor has a code of size k (2, 3 or 4) built from public
knowledge only, around its *focus card*; the codes of the seats in turn order after the
actor, one after the other, cover range(T).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from fractions import Fraction

from hanabi_ref.players.strategies.adapt import ForeignMove
from hanabi_ref.engine.actions import Hint
from hanabi_ref.engine.cards import rank_table, suit_table
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.players.strategies.info.knowledge import Board, identities
from hanabi_ref.players.strategies.info.questions import is_determined
from hanabi_ref.engine.tables import tables_for

VALUE, COLOUR, OTHER, OTHER_COLOUR = 0, 1, 2, 3
"""[I-hint-map] the types: the value of the focus card, a colour touching it, a hint not
touching it (with k = 4: a value hint), a colour hint not touching it (k = 4 only)."""


class Tables:
    """Masks of a configuration the codes read, made once per configuration."""

    __slots__ = ("touchers", "colour_shadow", "suit_of", "rank_of", "value_masks", "suit_masks", "shadow")

    def __init__(self, config: GameConfig) -> None:
        size = config.values * len(config.suits)
        self.touchers = tuple(colours_touching(config, card) for card in range(size))
        """The clue colours whose hint touches each identity, as bits."""
        self.suit_of, self.rank_of = suit_table(config.values, size), rank_table(config.values, size)
        """The suit and the rank (value less one) of each identity [2.9-cards]."""
        self.value_masks = tables_for(config).value_masks
        self.suit_masks = tuple(((1 << config.values) - 1) << (suit * config.values) for suit in range(len(config.suits)))
        self.colour_shadow = tuple(
            sum(1 << other for other in range(size) if self.touchers[other] & ~self.touchers[card] == 0) for card in range(size)
        )
        """For each identity f, the identities every colour hint touching them also touches f."""
        self.shadow = tuple(self.colour_shadow[card] & self.value_masks[self.rank_of[card]] for card in range(size))
        """For each identity f, the identities no hint touches without touching f."""


@functools.lru_cache(maxsize=16)
def tables(config: GameConfig) -> Tables:
    return Tables(config)


def focus(sets: Sequence[int], board: Board) -> int:
    """[I-focus] the slot the seat's code is built around."""
    return _focus(tuple(sets), board)


@functools.lru_cache(maxsize=4096)
def _focus(sets: tuple[int, ...], board: Board) -> int:
    table = tables(board.config)
    best, best_score = 0, -1
    for slot, mask in enumerate(sets):
        if is_determined(mask) or board.surely(mask, board.dead):
            score = 0
        else:
            low = (mask & -mask).bit_length() - 1
            one_suit = mask & ~table.suit_masks[table.suit_of[low]] == 0
            one_value = mask & ~table.value_masks[table.rank_of[low]] == 0
            score = 1 + (not one_suit) + (not one_value)
        if score > best_score:
            best, best_score = slot, score
    return best


def colours_touching(config: GameConfig, card: int) -> int:
    """The clue colours whose hint touches identity ``card``, as a bit set."""
    bits = 0
    for colour, mask in enumerate(tables_for(config).colour_masks):
        if mask >> card & 1:
            bits |= 1 << colour
    return bits


def code_size(sets: Sequence[int], slot: int, board: Board) -> int:
    """[I-k, I-k-exists] k of a seat whose focus is ``slot``: 4 when a value hint and a
    colour hint that leave the focus card untouched exist whatever the cards are (by the
    public sets), else 3 when some hint leaving it untouched surely exists, else 2."""
    return _code_size(tuple(sets), slot, board)


@functools.lru_cache(maxsize=4096)
def _code_size(sets: tuple[int, ...], slot: int, board: Board) -> int:
    # Keyed by the board, whose hash is made once (a key tuple holding the configuration
    # was hashed again, the configuration field by field, at every call).
    table = tables(board.config)
    others = sets[:slot] + sets[slot + 1:]
    value_avoidable = colour_avoidable = bool(others)
    for card in identities(sets[slot]):
        if value_avoidable and all(mask & table.value_masks[table.rank_of[card]] for mask in others):
            value_avoidable = False
        if colour_avoidable and all(mask & table.colour_shadow[card] for mask in others):
            colour_avoidable = False
        if not (value_avoidable or colour_avoidable):
            break
    if value_avoidable and colour_avoidable:
        return 4
    return 3 if _surely_avoidable(sets[slot], others, table, board.weights.counts) else 2


def _surely_avoidable(focus_set: int, others: Sequence[int], table: Tables, weights: tuple[int, ...]) -> bool:
    """Whether every hand the public sets and weights allow holds a card that some hint
    touches without touching the focus card [I-k-exists]: no identity f of the focus card
    lets every other card be *shadowed* by f (its value f's, and no colour touching it
    that does not touch f) within the copies left."""
    if not others:
        return False
    for card in identities(focus_set):
        shadow = table.shadow[card]
        if not all(mask & shadow for mask in others):
            continue
        left = list(weights)
        left[card] -= 1
        if _fits(others, identities(shadow), left):
            return False
    return True


def _fits(masks: Sequence[int], shadows: Sequence[int], left: list[int]) -> bool:
    """Whether the cards with sets ``masks`` can all take identities among ``shadows``,
    each identity at most as often as ``left`` allows (a small search)."""
    if not masks:
        return True
    first, rest = masks[0], masks[1:]
    for card in shadows:
        if first >> card & 1 and left[card] > 0:
            left[card] -= 1
            fits = _fits(rest, shadows, left)
            left[card] += 1
            if fits:
                return True
    return False


def hints_of_type(kind: int, k: int, target: int, hand: Sequence[int], slot: int, config: GameConfig) -> list[Hint]:
    """[I-hint-map] the hints of one type to a seat whose identities are ``hand`` and whose
    focus is ``slot``, in catalogue order (colours, then values)."""
    table = tables(config)
    rank_of, focus_card = table.rank_of, hand[slot]
    if kind == VALUE:
        return [Hint(target, "value", rank_of[focus_card] + 1)]
    touchers = table.touchers
    focus_colours = touchers[focus_card]
    if kind == COLOUR:
        first = (focus_colours & -focus_colours).bit_length() - 1
        return [Hint(target, "colour", first)] if focus_colours else []
    colour_hints: set[int] = set()
    value_hints: set[int] = set()
    for card in hand:
        colour_hints.update(c for c in range(len(config.colours)) if touchers[card] >> c & 1
                            and not focus_colours >> c & 1)
        if rank_of[card] != rank_of[focus_card]:
            value_hints.add(rank_of[card] + 1)
    colours = [Hint(target, "colour", c) for c in sorted(colour_hints)]
    ranks = [Hint(target, "value", v) for v in sorted(value_hints)]
    if k == 4:
        return ranks if kind == OTHER else colours
    return colours + ranks


def hint_type(hint: Hint, touched_focus: bool, k: int) -> int:
    """[I-hint-map] the type a seat reads from a hint to it."""
    if touched_focus:
        return VALUE if hint.kind == "value" else COLOUR
    if k == 4:
        return OTHER if hint.kind == "value" else OTHER_COLOUR
    return OTHER


def goodness(hint: Hint, sets: Sequence[int], hand: Sequence[int], board: Board) -> Fraction:
    """[I-hint-choice] how much a hint tells the recipient beyond its number."""
    tables = tables_for(board.config)
    mask = tables.value_masks[hint.subject - 1] if hint.kind == "value" else tables.colour_masks[hint.subject]
    above, below = 1, 1
    for card, before in zip(hand, sets):
        if is_determined(before) or board.surely(before, board.dead):
            continue
        after = before & mask if mask >> card & 1 else before & ~mask
        above *= board.weight(before)
        below *= board.weight(after)
        if is_determined(after) or board.surely(after, board.dead):
            above *= 2
    if below == 0:  # a public set without the card's identity: never so in an honest team
        raise ForeignMove("I-questions", "a card's public knowledge no longer holds the card (I-hint-choice)")
    return Fraction(above, below)
