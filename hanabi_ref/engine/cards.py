"""Card identities, suits and deck composition [2.9-cards].

A card *identity* is an element ``(value, suit)`` of Cards(H) = {1..n} x {1..k}
(Definition 2.9).  Internally an identity is the integer ``suit * n + (value - 1)`` with the
suit counted from 0, so a knowledge set K_c (Definition 2.14) is a bitmask over
Cards(H).  A physical card is named by its *card id*: its index in the initial stack S0,
which is also the order in which cards are dealt and drawn (hanab.live calls it "order").
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator

import attrs


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


def identity(value: int, suit: int, values: int) -> int:
    """The integer identity of card (value, suit), value 1-based, suit 0-based [2.9-cards]."""
    return suit * values + (value - 1)


def value_of(card: int, values: int) -> int:
    """The value (1-based) of an integer identity [2.9-cards]."""
    return card % values + 1


def suit_of(card: int, values: int) -> int:
    """The suit (0-based) of an integer identity [2.9-cards]."""
    return card // values


def mask_of(cards: Iterable[int]) -> int:
    """The bitmask of a set of identities."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def members(mask: int) -> Iterator[int]:
    """The identities in a bitmask, in increasing order."""
    card = 0
    while mask:
        if mask & 1:
            yield card
        mask >>= 1
        card += 1


def canonical_deck(suits: tuple[Suit, ...], values: int) -> tuple[int, ...]:
    """Every card of the composition once, suit by suit, value by value [D-canonical]."""
    deck: list[int] = []
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
    cards = [c for c in range(n * suit_count) if mask >> c & 1]
    suits = tuple(sorted({c // n for c in cards}))
    values = tuple(sorted({c % n + 1 for c in cards}))
    return suits, values, len(cards) == len(suits) * len(values)
