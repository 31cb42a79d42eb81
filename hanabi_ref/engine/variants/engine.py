"""The bridge from the variant model to the engine [VAR-engine, VAR-engine-masks].

The engine names a card by its identity ``suit * 5 + rank - 1`` (spec/rules.md
2.9-cards) and decides every hint by two tables of bitmasks over identities: for each
clue colour, the identities it touches; for each rank clue, the same.  This module builds
those tables from :func:`hanabi_ref.engine.variants.touch.touches_colour` and
:func:`~hanabi_ref.engine.variants.touch.touches_rank`, gives the engine its
:class:`~hanabi_ref.engine.cards.Suit` list, and refuses by name the parts of a variant the
engine does not play yet (:func:`engine_problem`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from hanabi_ref.engine.cards import Suit
from hanabi_ref.engine.variants.model import START_RANK, NotSupported, Variant
from hanabi_ref.engine.variants.names import parse_variant
from hanabi_ref.engine.variants.touch import touches_colour, touches_rank
from hanabi_ref.engine.variants import orange, updown
from hanabi_ref.engine.variants.ruleset import THESIS, RuleSet
from hanabi_ref.engine.variants.updown import START_VALUE

ENGINE_VALUES = 5
"""n of Definition 2.9 for a modelled variant the engine plays: ranks 1 to 5, and the
START card as value 6 under Up or Down (:func:`engine_values`)."""

NOT_YET_RULES = {
    "clue_starved": "Clue Starved",
    "alternating_clues": "Alternating Clues",
}
"""[VAR-engine] game rules of the model the engine does not play yet, with their names."""


def engine_problem(variant: Variant) -> str | None:
    """Why the engine cannot play ``variant`` yet, as one line naming the part, or None
    [VAR-engine]."""
    for flag, title in NOT_YET_RULES.items():
        if getattr(variant.rules, flag):
            return f"{title}: not supported by the engine yet (variant {variant.name!r})"
    return None


@functools.lru_cache(maxsize=512)
def engine_variant(name: str) -> Variant:
    """The model of a hanab.live name the engine plays, or :class:`NotSupported` naming
    the part it does not [VAR-names, VAR-refused, VAR-engine].  Memoized by name (a
    string key, an immutable model, at most 512 names)."""
    variant = parse_variant(name)
    problem = engine_problem(variant)
    if problem is not None:
        raise NotSupported(problem)
    return variant


def engine_values(variant: Variant) -> int:
    """n: 5, or 6 under Up or Down, where value 6 is the START card [VAR-engine-up-or-down]."""
    return START_VALUE if updown.applies(variant) else ENGINE_VALUES


def rule_set(variant: Variant) -> RuleSet:
    """The rule set of a variant's families [VAR-engine, VAR-engine-up-or-down,
    VAR-engine-orange]: Up or Down's stacks or the thesis', with the play and discard of
    its orange suits swapped (:class:`~hanabi_ref.engine.variants.orange.OrangeSuits`)."""
    stacks = updown.RULES if updown.applies(variant) else THESIS
    inverted = inverted_mask(variant)
    return orange.OrangeSuits(stacks, inverted) if inverted else stacks


def value_of_rank(rank: int) -> int:
    """The engine's value of a model rank: the rank, or 6 for START (rank 7)."""
    return START_VALUE if rank == START_RANK else rank


def identity(variant: Variant, suit_index: int, rank: int) -> int:
    """The engine's identity of (suit, rank) [2.9-cards]."""
    return suit_index * engine_values(variant) + value_of_rank(rank) - 1


def engine_suits(variant: Variant) -> tuple[tuple[Suit, ...], tuple[str, ...]]:
    """The engine's suits and clue colours [VAR-engine]: each suit with its name,
    abbreviation, copies of each value (VAR-counts; under Up or Down value 6 is START)
    and, as ``touched_by``, the clue colours that touch at least one of its cards (for a
    suit touched alike at every rank, the colours that touch it; the engine decides hints
    by :func:`colour_masks`)."""
    suits = tuple(
        Suit(
            kind.name,
            kind.abbreviation,
            tuple(variant.copies(index, rank) for rank in variant.ranks),
            frozenset(
                colour for colour in range(len(variant.colours))
                if any(touches_colour(variant, index, rank, colour) for rank in variant.ranks)
            ),
        )
        for index, kind in enumerate(variant.suits)
    )
    return suits, variant.colours


def colour_masks(variant: Variant) -> tuple[int, ...]:
    """For each clue colour, the identities it touches [VAR-engine-masks, VAR-touch]."""
    return tuple(
        _mask(variant, functools.partial(_colour_touch, variant, colour)) for colour in range(len(variant.colours))
    )


def value_masks(variant: Variant) -> tuple[int, ...]:
    """For each value hint 1 to n, the identities the rank clue of that number touches;
    0 for a rank clue the variant does not offer (VAR-clue-ranks; START has none)
    [VAR-engine-masks, VAR-touch]."""
    return tuple(
        _mask(variant, functools.partial(_rank_touch, variant, clue)) if clue in variant.clue_ranks else 0
        for clue in range(1, engine_values(variant) + 1)
    )


def _colour_touch(variant: Variant, colour: int, suit_index: int, rank: int) -> bool:
    return touches_colour(variant, suit_index, rank, colour)


def _rank_touch(variant: Variant, clue: int, suit_index: int, rank: int) -> bool:
    return touches_rank(variant, suit_index, rank, clue)


def inverted_mask(variant: Variant) -> int:
    """The identities of the orange suits, whose play and discard are swapped
    [VAR-orange, VAR-engine-orange]."""
    return sum(1 << identity(variant, index, rank) for index, kind in enumerate(variant.suits) if kind.inverted for rank in variant.ranks)


def _mask(variant: Variant, touched: Callable[[int, int], bool]) -> int:
    mask = 0
    for index in range(len(variant.suits)):
        for rank in variant.ranks:
            if touched(index, rank):
                mask |= 1 << identity(variant, index, rank)
    return mask
