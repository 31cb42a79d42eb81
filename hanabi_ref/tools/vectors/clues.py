"""Which clue touches which card under a hanab.live variant, restated for the vector
checks [VAR-touch, VAR-clue-ranks, VAR-blind, VAR-mute].

The checks of :mod:`hanabi_ref.tools.vectors.checks` decide a hint's effect on the JSON of a
state without the engine's masks: for the variants of spec/rules.md section 6 they use
that section's table; for every other variant the engine plays they use this module, a
second reading of spec/variants.md written from the clauses' text.  It takes the parsed
variant (its suits' touch properties, special rank and rules; VAR-model) and works out,
card by card, the set of clues that touch it, so it shares no code with
:mod:`hanabi_ref.engine.variants.touch`, which decides one (card, clue) pair at a time.
"""

from __future__ import annotations

from typing import Final

from hanabi_ref.engine.actions import Hint
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.variants.model import Variant
from hanabi_ref.engine.tables import tables_for

SECTION_6: Final = frozenset({"No Variant", "6 Suits", "Black (6 Suits)", "Rainbow (6 Suits)", "Dutch Rainbow (Example 2.12)"})
"""The variants spec/rules.md section 6 describes itself (V-no-variant .. V-dutch-rainbow)."""

RANKS: Final = (1, 2, 3, 4, 5)
START_VALUE: Final = 6
"""[VAR-engine-up-or-down] a START card's value in a configuration (n = 6)."""
START_RANK: Final = 7
"""[VAR-up-or-down] a START card's rank, as hanab.live numbers it: no rank clue names it."""


def variant_of(config: GameConfig) -> Variant | None:
    """The variant model whose touch rules decide the configuration's hints, or None when
    spec/rules.md section 6 (or a custom composition, 2.9-composition) decides them
    [VAR-engine, VAR-existing]."""
    if config.variant in SECTION_6:
        return None
    return tables_for(config).model


def rank_clues(variant: Variant) -> tuple[int, ...]:
    """[VAR-clue-ranks, VAR-mute, VAR-odds-and-evens] none under Number Mute, Odd (1) and
    Even (2) under Odds and Evens, 1 to 5 without the special rank when that rank is
    touched by every rank clue, by none or deceptively, else 1 to 5."""
    rules, special = variant.rules, variant.special_rank
    if rules.number_mute:
        return ()
    if rules.odds_and_evens:
        return (1, 2)
    if special is not None and special.rank_touch in ("all", "none", "deceptive"):
        return tuple(rank for rank in RANKS if rank != special.rank)
    return RANKS


def rank_of(variant: Variant, value: int) -> int:
    """The rank of a card of this value: the value, or START's rank 7 for value 6 under
    Up or Down [VAR-engine-up-or-down]."""
    return START_RANK if variant.rules.up_or_down and value == START_VALUE else value


def colours_touching(variant: Variant, suit: int, rank: int) -> frozenset[int]:
    """The clue colours (indices) that touch the card (suit, rank) [VAR-touch,
    VAR-blind, VAR-all-colours, VAR-no-colours, VAR-special-rank, VAR-prism,
    VAR-own-colour]; a START card is touched like its suit, a prism START by the last
    clue colour [VAR-up-or-down]."""
    every = frozenset(range(len(variant.colours)))
    kind, special = variant.suits[suit], variant.special_rank
    if variant.rules.colour_blind or kind.colour_touch == "none":
        return frozenset()
    if kind.colour_touch == "all":
        return every
    if special is not None and special.rank == rank and special.colour_touch != "normal":
        return every if special.colour_touch == "all" else frozenset()
    if kind.colour_touch == "prism":
        # [VAR-prism] rank r takes the r-th clue colour, counting round the list; START the last.
        if not every:
            return frozenset()
        return frozenset({len(every) - 1 if rank == START_RANK else (rank - 1) % len(every)})
    return frozenset(index for index, colour in enumerate(variant.colours) if colour in kind.colours)


def ranks_touching(variant: Variant, suit: int, rank: int) -> frozenset[int]:
    """The rank clues that touch the card (suit, rank) [VAR-touch, VAR-blind,
    VAR-all-ranks, VAR-no-ranks, VAR-funnels, VAR-chimneys, VAR-odds-and-evens,
    VAR-special-rank, VAR-deceptive]; no rank clue names a START card (rank 7), so only
    an every-rank suit's clues touch it [VAR-up-or-down]."""
    clues = rank_clues(variant)
    kind, rules, special = variant.suits[suit], variant.rules, variant.special_rank
    if rules.number_blind or kind.rank_touch == "none":
        return frozenset()
    if kind.rank_touch == "all":
        return frozenset(clues)
    if rules.funnels:
        return frozenset(clue for clue in clues if clue >= rank)
    if rules.chimneys:
        return frozenset(clue for clue in clues if clue <= rank)
    if rules.odds_and_evens:
        return frozenset(clue for clue in clues if clue % 2 == rank % 2)
    if special is not None and special.rank == rank and special.rank_touch != "normal":
        if special.rank_touch == "deceptive":
            # [VAR-deceptive] the suits take the rank clues in turn, wrapping round.
            return frozenset({clues[suit % len(clues)]})
        return frozenset(clues) if special.rank_touch == "all" else frozenset()
    return frozenset(clues) & {rank}


def is_touched_by(variant: Variant, hint: Hint, suit: int, value: int) -> bool:
    """Whether the hint touches a card of this suit and value [VAR-touch]."""
    rank = rank_of(variant, value)
    if hint.kind == "colour":
        return hint.subject in colours_touching(variant, suit, rank)
    return hint.subject in ranks_touching(variant, suit, rank)


def is_free(variant: Variant, hint: Hint) -> bool:
    """[VAR-blind] under Color Blind (Number Blind) a colour (rank) clue is legal even
    when it touches no card of the target."""
    rules = variant.rules
    return rules.colour_blind if hint.kind == "colour" else rules.number_blind
