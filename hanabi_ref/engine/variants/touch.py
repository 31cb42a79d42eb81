"""Which clue touches which card under a variant [VAR-touch].

A clue is ``("colour", c)`` with c an index into the variant's clue colours, or
``("rank", r)`` with r one of its rank clues (under Odds and Evens, 1 is "odd" and 2 is
"even").  The order of the checks is the precedence of spec/variants.md VAR-touch: a rule
that blinds a clue type first, then the suit's own all / none property, then the game
rule or the special rank, then the suit's ordinary touch.
"""

from __future__ import annotations

from typing import Literal

import icontract

from hanabi_ref.base.contracts import ENABLED
from hanabi_ref.engine.variants.model import START_RANK, Variant

Clue = tuple[Literal["colour", "rank"], int]


def is_clue_of(variant: Variant, clue: Clue) -> bool:
    """[VAR-colours, VAR-clue-ranks] the clue is one the variant lets a player give."""
    kind, value = clue
    if kind == "colour":
        return 0 <= value < len(variant.colours)
    return kind == "rank" and value in variant.clue_ranks


def is_card_of(variant: Variant, suit_index: int, rank: int) -> bool:
    """[VAR-counts] (suit, rank) is a card the deck holds."""
    return 0 <= suit_index < len(variant.suits) and variant.copies(suit_index, rank) > 0


@icontract.require(lambda variant, clue: is_clue_of(variant, clue), "VAR-touch: a clue the variant offers", enabled=ENABLED)
@icontract.require(
    lambda variant, suit_index, rank: is_card_of(variant, suit_index, rank), "VAR-touch: a card of the variant", enabled=ENABLED
)
def touches(variant: Variant, suit_index: int, rank: int, clue: Clue) -> bool:
    """Whether the clue touches a card of this suit and rank [VAR-touch]."""
    kind, value = clue
    if kind == "colour":
        return touches_colour(variant, suit_index, rank, value)
    return touches_rank(variant, suit_index, rank, value)


def touches_colour(variant: Variant, suit_index: int, rank: int, colour: int) -> bool:
    """A colour clue [VAR-touch, VAR-blind, VAR-all-colours, VAR-no-colours,
    VAR-special-rank, VAR-prism, VAR-own-colour]."""
    suit = variant.suits[suit_index]
    special = variant.special_rank
    if variant.rules.colour_blind:
        return False
    # [VAR-all-colours, VAR-no-colours] the suit's own property wins over a special rank.
    if suit.colour_touch in ("all", "none"):
        return suit.colour_touch == "all"
    if special is not None and rank == special.rank and special.colour_touch != "normal":
        return special.colour_touch == "all"
    if suit.colour_touch == "prism":
        return colour == prism_colour(variant, rank)
    return variant.colours[colour] in suit.colours


def prism_colour(variant: Variant, rank: int) -> int:
    """[VAR-prism] the clue colour of a prism card: rank 1 the first colour, rank 2 the
    second ..., wrapping round when there are fewer colours; START the last colour."""
    count = len(variant.colours)
    if count == 0:
        return -1  # no colour clue exists, so none touches it
    return count - 1 if rank == START_RANK else (rank - 1) % count


def touches_rank(variant: Variant, suit_index: int, rank: int, clue_rank: int) -> bool:
    """A rank clue [VAR-touch, VAR-blind, VAR-all-ranks, VAR-no-ranks, VAR-funnels,
    VAR-chimneys, VAR-odds-and-evens, VAR-special-rank, VAR-deceptive, VAR-up-or-down]."""
    suit = variant.suits[suit_index]
    rules = variant.rules
    if rules.number_blind:
        return False
    # [VAR-all-ranks, VAR-no-ranks] the suit's own property wins over everything below.
    if suit.rank_touch != "normal":
        return suit.rank_touch == "all"
    if rules.funnels:
        return rank <= clue_rank
    if rules.chimneys:
        return rank >= clue_rank
    if rules.odds_and_evens:
        return rank % 2 == clue_rank % 2 and rank != START_RANK
    special = variant.special_rank
    if special is not None and rank == special.rank and special.rank_touch != "normal":
        if special.rank_touch == "deceptive":
            return clue_rank == deceptive_rank(variant, suit_index)
        return special.rank_touch == "all"
    return rank == clue_rank  # a START card matches no rank clue


def deceptive_rank(variant: Variant, suit_index: int) -> int:
    """[VAR-deceptive] the one rank clue that touches a deceptive card: the suits take the
    variant's rank clues in turn (first suit the first clue, ...), wrapping round."""
    return variant.clue_ranks[suit_index % len(variant.clue_ranks)]
