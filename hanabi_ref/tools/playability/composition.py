"""Deck compositions for playability questions [PL-composition, PL-playable].

A composition lists, for every colour, how many cards of each value the deck holds:
``((3, 2, 2, 2, 1),)`` is the single colour of classic Hanabi, ``((2, 1, 1), (2, 1, 1))``
two colours of four cards.  Cards are written (value, colour) as in §3 of the thesis,
colours counted from 1.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

import attrs

from hanabi_ref.base.errors import ConfigError
from hanabi_ref.tools.playability.formulas import multinomial

__all__ = ["Card", "Composition", "CompositionError", "distinct_orders", "multinomial", "parse_composition", "single_colour"]

Card = tuple[int, int]
"""A card of a multi-colour sequence: (value, colour), as in Definition 3.32."""

_COUNT = re.compile(r"[0-9]+")


class CompositionError(ConfigError):
    """[PL-composition] A malformed composition; the message names colour and position."""


@attrs.frozen
class Composition:
    """A deck given by its counts per colour and value [PL-composition]."""

    colours: tuple[tuple[int, ...], ...]

    def __attrs_post_init__(self) -> None:
        check_counts(self.colours)

    @property
    def cards(self) -> tuple[Card, ...]:
        """Every card identity (value, colour), colour by colour, value by value."""
        return tuple(
            (value, colour)
            for colour, counts in enumerate(self.colours, start=1)
            for value in range(1, len(counts) + 1)
        )

    @property
    def counts(self) -> tuple[int, ...]:
        """The number of copies of each identity, in the order of :attr:`cards`."""
        return tuple(count for counts in self.colours for count in counts)

    @property
    def size(self) -> int:
        """N, the number of cards."""
        return sum(self.counts)

    @property
    def target(self) -> int:
        """K = Σ n_c: the score of playing every colour up to its highest value [PL-playable]."""
        return sum(len(counts) for counts in self.colours)

    @property
    def total(self) -> int:
        """T: the number of distinct sequences of this deck [3.15-T]."""
        return multinomial(self.counts)

    @property
    def deck(self) -> tuple[Card, ...]:
        """One sequence of this composition (sorted), to be shuffled or permuted."""
        return tuple(card for card, count in zip(self.cards, self.counts) for _ in range(count))

    def describe(self) -> str:
        """The composition in the command line's notation, e.g. ``2,1,1/2,1,1``."""
        return "/".join(",".join(str(count) for count in counts) for counts in self.colours)


def check_counts(colours: Sequence[Sequence[int]]) -> None:
    """Raise CompositionError unless ``colours`` is a valid composition [PL-composition]."""
    if not colours:
        raise CompositionError("composition: no colours given")
    for colour, counts in enumerate(colours, start=1):
        if not counts:
            raise CompositionError(f"composition: colour {colour} has no values")
        for value, count in enumerate(counts, start=1):
            if isinstance(count, bool) or not isinstance(count, int) or count < 0:
                raise CompositionError(
                    f"composition: colour {colour}, value {value}: count must be a non-negative integer, got {count!r}"
                )
    if not any(count for counts in colours for count in counts):
        raise CompositionError("composition: no cards (every count is 0)")



def parse_composition(text: str) -> Composition:
    """Read ``3,2,2,2,1`` or ``2,1,1/2,1,1`` [PL-composition]; one-line errors."""
    if not text.strip():
        raise CompositionError("--counts: empty composition")
    colours = []
    for colour, part in enumerate(text.split("/"), start=1):
        items = part.split(",")
        counts = []
        for value, item in enumerate(items, start=1):
            item = item.strip()
            if not item:
                raise CompositionError(f"--counts: colour {colour}, value {value}: empty count")
            if not _COUNT.fullmatch(item):
                raise CompositionError(
                    f"--counts: colour {colour}, value {value}: {item!r} is not a non-negative integer"
                )
            counts.append(int(item))
        colours.append(tuple(counts))
    return Composition(tuple(colours))


def single_colour(counts: Sequence[int]) -> Composition:
    """The one-colour composition with these counts of values 1, 2, …"""
    return Composition((tuple(counts),))


def distinct_orders(items: Sequence[Card] | Sequence[int]) -> Iterator[tuple[object, ...]]:
    """Every distinct order of a multiset, each exactly once, in lexicographic order of its
    sorted distinct items (the brute-force side of the tests and of PL-count's checks)."""
    kinds = sorted(set(items))  # type: ignore[type-var]
    remaining = [list(items).count(kind) for kind in kinds]
    prefix: list[object] = []

    def extend(left: int) -> Iterator[tuple[object, ...]]:
        if left == 0:
            yield tuple(prefix)
            return
        for index, kind in enumerate(kinds):
            if remaining[index]:
                remaining[index] -= 1
                prefix.append(kind)
                yield from extend(left - 1)
                prefix.pop()
                remaining[index] += 1

    yield from extend(len(items))
