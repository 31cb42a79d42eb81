"""Card identities, suits and deck composition [2.9-cards].

A card *identity* is an element ``(value, suit)`` of Cards(H) = {1..n} x {1..k}
(Definition 2.9).  Internally an identity is the integer ``suit * n + (value - 1)`` with the
suit counted from 0, so a knowledge set K_c (Definition 2.14) is a bitmask over
Cards(H).  A physical card is named by its *card id*: its index in the initial stack S0,
which is also the order in which cards are dealt and drawn (hanab.live calls it "order").

The two are different types, :data:`CardId` and :data:`Identity`, so that ``mypy --strict``
catches one used as the other; the decoders below (and the tables made of them,
:func:`suit_table`, :func:`rank_table`) are the only place an identity is divided into its
suit and value.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from typing import NewType, cast

import attrs

CardId = NewType("CardId", int)
"""A physical card: its index in the initial stack S0 (hanab.live's "order") [2.9-cards]."""
Identity = NewType("Identity", int)
"""A card identity (value, suit) as the integer ``suit * n + (value - 1)`` [2.9-cards].

Calling a ``NewType`` costs a Python call per value; where many integers become identities
at once the functions below ``cast`` the whole sequence instead."""


@attrs.frozen
class Suit:
    """One suit: its name, its copies per value and the clue colours that touch it [V-suit].

    ``counts[v - 1]`` is the number of copies of value v.  ``touched_by`` holds indices into
    the configuration's clue colours; a rainbow suit is touched by all of them, a suit
    with its own colour by exactly that one.
    """

    name: str
    abbreviation: str
    counts: tuple[int, ...]
    touched_by: frozenset[int]


def identity(value: int, suit: int, values: int) -> Identity:
    """The integer identity of card (value, suit), value 1-based, suit 0-based [2.9-cards]."""
    return cast(Identity, suit * values + (value - 1))


def value_of(card: Identity, values: int) -> int:
    """The value (1-based) of an integer identity [2.9-cards]."""
    return card % values + 1


def suit_of(card: Identity, values: int) -> int:
    """The suit (0-based) of an integer identity [2.9-cards]."""
    return card // values


def rank_of(card: Identity, values: int) -> int:
    """The rank of an integer identity: its value less one, the height its field has
    when the card is the next to play on it [2.9-cards]."""
    return card % values


def suit_table(values: int, size: int) -> tuple[int, ...]:
    """``suit_of`` of every identity below ``size``, as a table for hot loops [2.9-cards]."""
    return tuple(suit_of(card, values) for card in all_identities(size))


def rank_table(values: int, size: int) -> tuple[int, ...]:
    """``rank_of`` of every identity below ``size``, as a table for hot loops [2.9-cards]."""
    return tuple(rank_of(card, values) for card in all_identities(size))


def all_identities(size: int) -> Sequence[Identity]:
    """Every identity below ``size`` (n times the number of suits), in increasing order."""
    return cast("Sequence[Identity]", range(size))


def as_identities(cards: Sequence[int]) -> Sequence[Identity]:
    """Integers read from a source that does not type its identities yet (a state's
    deck S0, a trace's deck): the same sequence, seen as identities (no copy)."""
    return cast("Sequence[Identity]", cards)


def mask_of(cards: Iterable[Identity]) -> int:
    """The bitmask of a set of identities."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def members(mask: int) -> Iterator[Identity]:
    """The identities in a bitmask, in increasing order."""
    return cast("Iterator[Identity]", _bits(mask))


def _bits(mask: int) -> Iterator[int]:
    card = 0
    while mask:
        if mask & 1:
            yield card
        mask >>= 1
        card += 1


def canonical_deck(suits: tuple[Suit, ...], values: int) -> tuple[Identity, ...]:
    """Every card of the composition once, suit by suit, value by value [D-canonical]."""
    deck: list[Identity] = []
    for suit_index, suit in enumerate(suits):
        for value in range(1, values + 1):
            deck.extend([identity(value, suit_index, values)] * suit.counts[value - 1])
    return tuple(deck)


@functools.lru_cache(maxsize=1 << 14)
def knowledge_suits_values(mask: int, n: int, suit_count: int) -> tuple[tuple[int, ...], tuple[int, ...], bool]:
    """[2.14] the suits (indices) and values of the identities in a knowledge set of n
    values and ``suit_count`` suits, and whether the set is their product; computed once
    per mask (a game shows the same few knowledge sets over and over).  The one reading
    of a mask as suits and values: the trace's JSON, the readable text (SH-knowledge)
    and the viewer (VW-data) all take it from here.  The memo's keys and values are
    integers and tuples of integers, at most 16,384 of them: nothing of a game, and
    bounded."""
    cards = [c for c in all_identities(n * suit_count) if mask >> c & 1]
    suits = tuple(sorted({suit_of(c, n) for c in cards}))
    values = tuple(sorted({value_of(c, n) for c in cards}))
    return suits, values, len(cards) == len(suits) * len(values)
