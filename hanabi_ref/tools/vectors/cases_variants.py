"""Case functions for hanab.live's variant families: one representative name per family,
its configuration and the hints that show how its clues touch cards [VEC-variants,
VAR-engine, VAR-engine-masks, VAR-touch, VAR-refused].

Every expected value here is transcribed from spec/variants.md, not taken from the
engine: each family's suits, their copies of each rank (VAR-counts), the clue colours
(VAR-colours) and those that touch each suit, the deck size, the rank clues
(VAR-clue-ranks), and for each hint the slots of the target it touches.  The builder
checks every recorded hint's knowledge update with :mod:`hanabi_ref.tools.vectors.clues`, a
second reading of VAR-touch.

A state object writes a card's knowledge as a product of suits and values (T-state of
spec/trace.md), and a rank clue under Pink (say) touches every pink card and the cards
of its rank, which no such product holds.  So where a family's clue would leave a
knowledge set outside that form, the scenario first gives the target the clues that
separate the special cards (a Pink colour clue before the rank clues of Pink; rank clues
1 and 5 before a Prism red clue), as a player would: then each hint's effect is a
product again, and the vector shows the touch rule and the negative information.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from typing import Final

import attrs

from hanabi_ref.engine.actions import Hint, HintKind
from hanabi_ref.engine.cards import identity, knowledge_suits_values, suit_of, value_of
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState
from hanabi_ref.tools.vectors.build import Maker
from hanabi_ref.tools.vectors.model import CaseFailure, Run, Vector, expect
from hanabi_ref.tools.vectors.scenario import BLUE, GREEN, PURPLE, RED, YELLOW, Card, start
from hanabi_ref.engine.tables import tables_for

REFUSED_NAMES: Final = (
    "Synesthesia (5 Suits)",
    "Sudoku (5 Suits)",
    "Cow & Pig (5 Suits)",
    "Mauve (5 Suits)",
)
"""[VAR-refused] names every preset refuses at ``$.variant``: families of "Not yet" and a
suit the grammar does not know.  One list, so that a family the engine learns to play
leaves it in one place."""

X: Final = 4  # the special suit of "<Suit> (5 Suits)": after Red, Yellow, Green, Blue
CLASSIC: Final = (3, 2, 2, 2, 1)  # [VAR-counts]
DARK: Final = (1, 1, 1, 1, 1)  # [VAR-dark]
RYGB: Final = ("Red", "Yellow", "Green", "Blue")
RYGBP: Final = (*RYGB, "Purple")
HINT_CLAUSES: Final = ("2.16-2a", "2.14", "E-19", "2.16-2a-cost", "VAR-touch", "VAR-engine-masks")

Clue = tuple[HintKind, int]  # ("colour", clue colour index) or ("value", rank clue)


@attrs.frozen
class Scenario:
    """One target hand (the last seat's), the clues it is given first to sort its
    knowledge, the clues shown from there with the slots each touches (VAR-touch), and
    the clues refused there with the clause refusing them."""

    label: str
    hand: tuple[Card, ...]
    prefix: tuple[Clue, ...] = ()
    shown: tuple[tuple[Clue, tuple[int, ...]], ...] = ()
    refused: tuple[tuple[Clue, str], ...] = ()


@attrs.frozen
class Family:
    """One family's representative, as spec/variants.md describes it: suit names,
    copies of ranks 1-5 per suit, clue colours, the clue colours touching each suit
    (VAR-engine), the deck size, the rank clues, the clauses and the scenarios."""

    name: str
    suits: tuple[str, ...]
    counts: tuple[tuple[int, ...], ...]
    colours: tuple[str, ...]
    touched_by: tuple[tuple[int, ...], ...]
    deck_size: int
    rank_clues: tuple[int, ...]
    clauses: tuple[str, ...]
    scenarios: tuple[Scenario, ...]


def own(count: int) -> tuple[tuple[int, ...], ...]:
    """Suit i touched by clue colour i alone [VAR-own-colour]."""
    return tuple((index,) for index in range(count))


def every(count: int, colours: int) -> tuple[tuple[int, ...], ...]:
    """Every suit touched by every clue colour (Rainbow-Ones, Omni-Ones) [VAR-special-rank]."""
    return tuple(tuple(range(colours)) for _ in range(count))


def special(
    suit: str, colours: tuple[str, ...], touched: tuple[int, ...], dark: bool, deck_size: int,
    clauses: tuple[str, ...], scenarios: tuple[Scenario, ...],
) -> Family:
    """``<Suit> (5 Suits)``: Red, Yellow, Green, Blue, then the special suit [VAR-single-suit]."""
    return Family(
        f"{suit} (5 Suits)", (*RYGB, suit), (CLASSIC,) * 4 + (DARK if dark else CLASSIC,), colours,
        (*own(4), touched), deck_size, (1, 2, 3, 4, 5), ("VAR-single-suit", *clauses), scenarios,
    )


def ordinary(
    name: str, deck_size: int = 50, counts: tuple[int, ...] = CLASSIC, colours: tuple[str, ...] = RYGBP,
    touched_by: tuple[tuple[int, ...], ...] | None = None, rank_clues: tuple[int, ...] = (1, 2, 3, 4, 5),
    clauses: tuple[str, ...] = (), scenarios: tuple[Scenario, ...] = (),
) -> Family:
    """A rank modifier or game rule on the five ordinary suits of No Variant [VAR-basic]."""
    return Family(name, RYGBP, (counts,) * 5, colours, own(5) if touched_by is None else touched_by,
                  deck_size, rank_clues, clauses, scenarios)


# ------------------------------------------------------------------ scenarios

# The target holds two special cards (a 2 and a 5) and a red 2, a yellow 3, a green 1.
SPECIAL_HAND: Final[tuple[Card, ...]] = ((2, X), (2, RED), (3, YELLOW), (1, GREEN), (5, X))
# One special card and one of each other suit, so four colour clues leave it alone.
LONE_HAND: Final[tuple[Card, ...]] = ((2, X), (2, RED), (3, YELLOW), (1, GREEN), (4, BLUE))
LONE_FIVE: Final[tuple[Card, ...]] = ((5, X), (2, RED), (3, YELLOW), (1, GREEN), (4, BLUE))
RUN: Final[tuple[Card, ...]] = ((1, RED), (2, YELLOW), (3, GREEN), (4, BLUE), (5, PURPLE))
FOUR_COLOURS: Final[tuple[Clue, ...]] = (("colour", 0), ("colour", 1), ("colour", 2), ("colour", 3))


def own_colour_suit(colour: int) -> tuple[Scenario, ...]:
    """Black / Dark: its colour touches its cards, a rank clue its rank [VAR-own-colour]."""
    return (Scenario("hints", SPECIAL_HAND, (), ((("colour", colour), (0, 4)), (("value", 2), (0, 1)), (("value", 5), (4,)))),)


def all_colour_suit() -> tuple[Scenario, ...]:
    """Rainbow: every colour touches it; blue touches only the rainbow cards here [VAR-all-colours]."""
    return (Scenario("hints", SPECIAL_HAND, (), ((("colour", 0), (0, 1, 4)), (("colour", 3), (0, 4)), (("value", 2), (0, 1)))),)


def all_rank_suit(colour: int) -> tuple[Scenario, ...]:
    """Pink: after its own colour clue, every rank clue touches both pink cards [VAR-all-ranks]."""
    return (
        Scenario("colour", SPECIAL_HAND, (), ((("colour", colour), (0, 4)), (("colour", 0), (1,)))),
        Scenario("rank", SPECIAL_HAND, (("colour", colour),), ((("value", 3), (0, 2, 4)), (("value", 4), (0, 4)), (("value", 1), (0, 3, 4)))),
    )


def no_colour_suit() -> tuple[Scenario, ...]:
    """White: no colour touches it; blue then touches nothing and is refused [VAR-no-colours]."""
    return (Scenario("hints", SPECIAL_HAND, (), ((("colour", 0), (1,)), (("value", 2), (0, 1))), ((("colour", 3), "2.16-2a-empty"),)),)


def no_rank_suit(colour: int) -> tuple[Scenario, ...]:
    """Brown: after its colour clue, the 2 touches the red 2 only; the 5 touches nothing [VAR-no-ranks]."""
    return (
        Scenario("colour", SPECIAL_HAND, (), ((("colour", colour), (0, 4)),)),
        Scenario("rank", SPECIAL_HAND, (("colour", colour),), ((("value", 2), (1,)), (("value", 3), (2,))), ((("value", 5), "2.16-2a-empty"),)),
    )


def omni_suit() -> tuple[Scenario, ...]:
    """Omni: every clue touches it; after red and yellow the omni cards are known, and
    the 4 touches them [VAR-all-colours, VAR-all-ranks]."""
    return (
        Scenario("colour", SPECIAL_HAND, (), ((("colour", 0), (0, 1, 4)), (("colour", 3), (0, 4)))),
        Scenario("rank", SPECIAL_HAND, (("colour", 0), ("colour", 1)), ((("value", 4), (0, 4)), (("value", 1), (0, 3, 4)))),
    )


def null_suit() -> tuple[Scenario, ...]:
    """Null: no clue touches it; once four colours leave it alone, the 5 touches nothing [VAR-no-colours, VAR-no-ranks]."""
    return (
        Scenario("colour", LONE_FIVE, (), ((("colour", 0), (1,)),)),
        Scenario("rank", LONE_FIVE, FOUR_COLOURS, ((("value", 2), (1,)), (("value", 4), (4,))), ((("value", 5), "2.16-2a-empty"),)),
    )


def muddy_suit() -> tuple[Scenario, ...]:
    """Muddy Rainbow: every colour, no rank clue [VAR-all-colours, VAR-no-ranks]."""
    return (
        Scenario("colour", SPECIAL_HAND, (), ((("colour", 0), (0, 1, 4)),)),
        Scenario("rank", SPECIAL_HAND, (("colour", 0), ("colour", 1)), ((("value", 2), (1,)),), ((("value", 5), "2.16-2a-empty"),)),
    )


def light_pink_suit() -> tuple[Scenario, ...]:
    """Light Pink: no colour, every rank clue [VAR-no-colours, VAR-all-ranks]."""
    return (
        Scenario("colour", LONE_HAND, (), ((("colour", 0), (1,)),)),
        Scenario("rank", LONE_HAND, FOUR_COLOURS, ((("value", 5), (0,)), (("value", 2), (0, 1)))),
    )


def prism_suit() -> tuple[Scenario, ...]:
    """Prism: a 2 is yellow (the second colour); with four colours a 5 is red again [VAR-prism]."""
    return (
        Scenario("rank", SPECIAL_HAND, (), ((("value", 2), (0, 1)),)),
        Scenario("yellow", SPECIAL_HAND, (("value", 2),), ((("colour", 1), (0, 2)),)),
        Scenario("red", SPECIAL_HAND, (("value", 1), ("value", 5)), ((("colour", 0), (1, 4)),)),
    )


SPECIAL_FAMILIES: Final = (
    special("Black", (*RYGB, "Black"), (4,), True, 45, ("VAR-own-colour", "VAR-dark"), own_colour_suit(4)),
    special("Rainbow", RYGB, (0, 1, 2, 3), False, 50, ("VAR-all-colours",), all_colour_suit()),
    special("Pink", (*RYGB, "Pink"), (4,), False, 50, ("VAR-own-colour", "VAR-all-ranks"), all_rank_suit(4)),
    special("White", RYGB, (), False, 50, ("VAR-no-colours",), no_colour_suit()),
    special("Brown", (*RYGB, "Brown"), (4,), False, 50, ("VAR-own-colour", "VAR-no-ranks"), no_rank_suit(4)),
    special("Omni", RYGB, (0, 1, 2, 3), False, 50, ("VAR-all-colours", "VAR-all-ranks"), omni_suit()),
    special("Null", RYGB, (), False, 50, ("VAR-no-colours", "VAR-no-ranks"), null_suit()),
    special("Muddy Rainbow", RYGB, (0, 1, 2, 3), False, 50, ("VAR-all-colours", "VAR-no-ranks"), muddy_suit()),
    special("Light Pink", RYGB, (), False, 50, ("VAR-no-colours", "VAR-all-ranks"), light_pink_suit()),
    special("Prism", RYGB, (0, 1, 2, 3), False, 50, ("VAR-prism", "VAR-colours"), prism_suit()),
    special("Dark Rainbow", RYGB, (0, 1, 2, 3), True, 45, ("VAR-all-colours", "VAR-dark"), all_colour_suit()),
    special("Dark Pink", (*RYGB, "Pink"), (4,), True, 45, ("VAR-own-colour", "VAR-all-ranks", "VAR-dark"), all_rank_suit(4)),
    special("Gray", RYGB, (), True, 45, ("VAR-no-colours", "VAR-dark"), no_colour_suit()),
    special("Dark Brown", (*RYGB, "Brown"), (4,), True, 45, ("VAR-own-colour", "VAR-no-ranks", "VAR-dark"), no_rank_suit(4)),
    special("Dark Omni", RYGB, (0, 1, 2, 3), True, 45, ("VAR-all-colours", "VAR-all-ranks", "VAR-dark"), omni_suit()),
    special("Dark Null", RYGB, (), True, 45, ("VAR-no-colours", "VAR-no-ranks", "VAR-dark"), null_suit()),
    special("Cocoa Rainbow", RYGB, (0, 1, 2, 3), True, 45, ("VAR-all-colours", "VAR-no-ranks", "VAR-dark"), muddy_suit()),
    special("Gray Pink", RYGB, (), True, 45, ("VAR-no-colours", "VAR-all-ranks", "VAR-dark"), light_pink_suit()),
    special("Dark Prism", RYGB, (0, 1, 2, 3), True, 45, ("VAR-prism", "VAR-dark"), prism_suit()),
)

SHARED_FAMILIES: Final = (
    Family(
        "Ambiguous (6 Suits)", ("Tomato", "Mahogany", "Emerald", "Olive", "Berry", "Navy"), (CLASSIC,) * 6,
        ("Red", "Green", "Blue"), ((0,), (0,), (1,), (1,), (2,), (2,)), 60, (1, 2, 3, 4, 5), ("VAR-ambiguous", "VAR-own-colour"),
        (Scenario("hints", ((1, 0), (2, 1), (3, 2), (1, 4), (4, 5)), (),
                  ((("colour", 0), (0, 1)), (("colour", 1), (2,)), (("colour", 2), (3, 4)), (("value", 1), (0, 3)))),),
    ),
    Family(
        "Very Ambiguous (6 Suits)", ("Tomato", "Mahogany", "Carrot", "Berry", "Navy", "Sky"), (CLASSIC,) * 6,
        ("Red", "Blue"), ((0,), (0,), (0,), (1,), (1,), (1,)), 60, (1, 2, 3, 4, 5), ("VAR-ambiguous", "VAR-own-colour"),
        (Scenario("hints", ((1, 0), (2, 2), (3, 3), (1, 5), (4, 1)), (), ((("colour", 0), (0, 1, 4)), (("colour", 1), (2, 3)))),),
    ),
    Family(
        "Extremely Ambiguous (5 Suits)", ("Ice", "Aqua", "Sky", "Berry", "Navy"), (CLASSIC,) * 5,
        ("Blue",), ((0,),) * 5, 50, (1, 2, 3, 4, 5), ("VAR-ambiguous", "VAR-own-colour"),
        (Scenario("hints", ((1, 0), (2, 1), (3, 2), (1, 3), (4, 4)), (), ((("colour", 0), (0, 1, 2, 3, 4)), (("value", 1), (0, 3))),
                  ((("colour", 1), "2.16-2a-suit"),)),),
    ),
    Family(
        "Dual-Color (5 Suits)", ("Tangerine", "Lime", "Cyan", "Indigo", "Cardinal"), (CLASSIC,) * 5,
        RYGBP, ((0, 1), (1, 2), (2, 3), (3, 4), (0, 4)), 50, (1, 2, 3, 4, 5), ("VAR-dual-colour", "VAR-own-colour", "VAR-colours"),
        (Scenario("hints", ((1, 0), (2, 1), (3, 2), (4, 3), (1, 4)), (),
                  tuple((("colour", c), (c - 1, c) if c else (0, 4)) for c in range(5))),),
    ),
    Family(
        "Matryoshka (5 Suits)", ("Ruby", "Yam", "Geas", "Beatnik", "Plum"), (CLASSIC,) * 5,
        RYGBP, ((0,), (0, 1), (0, 1, 2), (0, 1, 2, 3), (0, 1, 2, 3, 4)), 50, (1, 2, 3, 4, 5), ("VAR-matryoshka", "VAR-own-colour"),
        (Scenario("hints", ((1, 0), (2, 1), (3, 2), (4, 3), (5, 4)), (),
                  tuple((("colour", c), tuple(range(c, 5))) for c in range(5))),),
    ),
    Family(
        "Special Mix (5 Suits)", ("Black", "Rainbow", "Pink", "White", "Brown"), (DARK,) + (CLASSIC,) * 4,
        ("Black", "Pink", "Brown"), ((0,), (0, 1, 2), (1,), (), (2,)), 45, (1, 2, 3, 4, 5), ("VAR-mixes", "VAR-colours", "VAR-dark"),
        (Scenario("hints", ((2, 0), (2, 1), (3, 2), (1, 3), (4, 4)), (), ((("colour", 0), (0, 1)), (("colour", 1), (1, 2)), (("colour", 2), (1, 4)))),),
    ),
)

# A 1 or 5 in slot 0 and another of the special rank in slot 2.
ONES: Final[tuple[Card, ...]] = ((1, YELLOW), (2, RED), (1, BLUE), (3, GREEN), (4, PURPLE))
FIVES: Final[tuple[Card, ...]] = ((5, YELLOW), (2, RED), (1, BLUE), (3, GREEN), (4, PURPLE))
SPREAD: Final[tuple[Card, ...]] = ((1, YELLOW), (2, RED), (3, BLUE), (4, GREEN), (5, PURPLE))
FIVE_RED: Final[tuple[Card, ...]] = ((5, RED), (2, RED), (1, BLUE), (3, GREEN), (4, PURPLE))
NO_ONE: Final = (2, 3, 4, 5)
NO_FIVE: Final = (1, 2, 3, 4)

RANK_FAMILIES: Final = (
    ordinary("Rainbow-Ones (5 Suits)", touched_by=every(5, 5), clauses=("VAR-special-rank",), scenarios=(
        Scenario("rank", ONES, (), ((("value", 1), (0, 2)),)),
        Scenario("colour", ONES, (("value", 1),), ((("colour", 0), (0, 1, 2)), (("colour", 2), (0, 2, 3)))),
    )),
    ordinary("Pink-Fives (5 Suits)", rank_clues=NO_FIVE, clauses=("VAR-special-rank", "VAR-clue-ranks"), scenarios=(
        Scenario("hints", FIVES, (), ((("value", 2), (0, 1)), (("value", 1), (0, 2)), (("colour", 1), (0,))), ((("value", 5), "VAR-clue-ranks"),)),
    )),
    ordinary("White-Ones (5 Suits)", clauses=("VAR-special-rank",), scenarios=(
        Scenario("colour", ((1, RED), (2, RED), (1, BLUE), (3, GREEN), (4, PURPLE)), (("value", 1),),
                 ((("colour", 0), (1,)),), ((("colour", 3), "2.16-2a-empty"),)),
    )),
    ordinary("Brown-Fives (5 Suits)", rank_clues=NO_FIVE, clauses=("VAR-special-rank", "VAR-clue-ranks"), scenarios=(
        Scenario("hints", ((5, RED), (2, RED), (4, BLUE), (3, GREEN), (4, PURPLE)), (),
                 ((("value", 4), (2, 4)), (("colour", 0), (0, 1))), ((("value", 5), "VAR-clue-ranks"),)),
    )),
    ordinary("Omni-Ones (5 Suits)", touched_by=every(5, 5), rank_clues=NO_ONE, clauses=("VAR-special-rank", "VAR-clue-ranks"), scenarios=(
        Scenario("rank", SPREAD, (), ((("value", 4), (0, 3)),), ((("value", 1), "VAR-clue-ranks"),)),
        Scenario("colour", SPREAD, (("value", 2), ("value", 3)), ((("colour", 0), (0, 1)), (("colour", 4), (0, 4)))),
    )),
    ordinary("Null-Fives (5 Suits)", rank_clues=NO_FIVE, clauses=("VAR-special-rank", "VAR-clue-ranks"), scenarios=(
        Scenario("rank", FIVE_RED, (), ((("value", 2), (1,)),), ((("value", 5), "VAR-clue-ranks"),)),
        Scenario("colour", FIVE_RED, (("value", 1), ("value", 2), ("value", 3), ("value", 4)), ((("colour", 0), (1,)),)),
    )),
    ordinary("Muddy-Rainbow-Ones (5 Suits)", touched_by=every(5, 5), rank_clues=NO_ONE, clauses=("VAR-special-rank", "VAR-clue-ranks"), scenarios=(
        Scenario("rank", SPREAD, (), ((("value", 2), (1,)),), ((("value", 1), "VAR-clue-ranks"),)),
        Scenario("colour", SPREAD, (("value", 2), ("value", 3), ("value", 4), ("value", 5)), ((("colour", 0), (0, 1)),)),
    )),
    ordinary("Light-Pink-Fives (5 Suits)", rank_clues=NO_FIVE, clauses=("VAR-special-rank", "VAR-clue-ranks"), scenarios=(
        Scenario("rank", FIVES, (), ((("value", 3), (0, 3)),)),
        Scenario("colour", FIVES, (("value", 1), ("value", 2)), ((("colour", 0), (1,)),), ((("colour", 1), "2.16-2a-empty"),)),
    )),
    ordinary("Deceptive-Ones (5 Suits)", rank_clues=NO_ONE, clauses=("VAR-deceptive", "VAR-clue-ranks"), scenarios=(
        Scenario("rank", ((1, RED), (1, YELLOW), (2, GREEN), (1, PURPLE), (3, BLUE)), FOUR_COLOURS,
                 ((("value", 2), (0, 2, 3)), (("value", 3), (1, 4))), ((("value", 1), "VAR-clue-ranks"),)),
    )),
)

RULE_FAMILIES: Final = (
    ordinary("Funnels (5 Suits)", clauses=("VAR-rules", "VAR-funnels"), scenarios=(
        Scenario("hints", RUN, (), ((("value", 3), (0, 1, 2)), (("value", 1), (0,)), (("value", 5), (0, 1, 2, 3, 4)))),
    )),
    ordinary("Chimneys (5 Suits)", clauses=("VAR-rules", "VAR-chimneys"), scenarios=(
        Scenario("hints", RUN, (), ((("value", 3), (2, 3, 4)), (("value", 5), (4,)), (("value", 1), (0, 1, 2, 3, 4)))),
    )),
    ordinary("Scarce Ones (5 Suits)", 45, (2, 2, 2, 2, 1), clauses=("VAR-rules", "VAR-scarce-ones", "VAR-counts"), scenarios=(
        Scenario("hints", ((1, RED), (1, RED), (2, YELLOW), (3, GREEN), (4, BLUE)), (), ((("value", 1), (0, 1)),)),
    )),
    ordinary("Critical Fours (5 Suits)", 45, (3, 2, 2, 1, 1), clauses=("VAR-rules", "VAR-critical-fours", "VAR-counts"), scenarios=(
        Scenario("hints", ((4, RED), (4, YELLOW), (2, YELLOW), (3, GREEN), (5, BLUE)), (), ((("value", 4), (0, 1)),)),
    )),
    ordinary("Odds and Evens (5 Suits)", rank_clues=(1, 2), clauses=("VAR-rules", "VAR-odds-and-evens", "VAR-clue-ranks"), scenarios=(
        Scenario("hints", RUN, (), ((("value", 1), (0, 2, 4)), (("value", 2), (1, 3))), ((("value", 3), "VAR-clue-ranks"),)),
    )),
    ordinary("Color Blind (5 Suits)", touched_by=((),) * 5, clauses=("VAR-blind",), scenarios=(
        Scenario("hints", RUN, (), ((("colour", 0), ()), (("value", 2), (1,)))),
    )),
    ordinary("Number Blind (5 Suits)", clauses=("VAR-blind",), scenarios=(
        Scenario("hints", RUN, (), ((("value", 2), ()), (("colour", 0), (0,)))),
    )),
    ordinary("Totally Blind (5 Suits)", touched_by=((),) * 5, clauses=("VAR-blind",), scenarios=(
        Scenario("hints", RUN, (), ((("colour", 0), ()), (("value", 2), ()))),
    )),
    ordinary("Color Mute (5 Suits)", colours=(), touched_by=((),) * 5, clauses=("VAR-mute",), scenarios=(
        Scenario("hints", RUN, (), ((("value", 2), (1,)),), ((("colour", 0), "VAR-mute"),)),
    )),
    ordinary("Number Mute (5 Suits)", rank_clues=(), clauses=("VAR-mute", "VAR-clue-ranks"), scenarios=(
        Scenario("hints", RUN, (), ((("colour", 0), (0,)),), ((("value", 1), "VAR-clue-ranks"),)),
    )),
)

FAMILIES: Final = (*SPECIAL_FAMILIES, *SHARED_FAMILIES, *RANK_FAMILIES, *RULE_FAMILIES)


def family_slug(name: str) -> str:
    """A vector label from a variant name: lower case, words joined by hyphens."""
    return "-".join("".join(ch if ch.isalnum() else " " for ch in name.lower()).split())


# ------------------------------------------------------------------ the case


def variant_families(out: Maker) -> Iterator[Vector]:
    """[VEC-variants, VAR-engine, VAR-refused, VAR-names, VAR-counts, VAR-colours, VAR-touch,
    VAR-engine-masks, VAR-clue-ranks, P-presets] under hanab-live, one name per family:
    its configuration (suits, copies, clue colours, N) and hints showing its touch rule
    and the knowledge they leave, with the clue a variant lacks refused; under hle, which
    admits No Variant only, the same names refused; under every preset, the names of
    REFUSED_NAMES refused at ``$.variant``."""
    for family in FAMILIES:
        if out.preset == "hanab-live":
            yield family_config(out, family)
            for scenario in family.scenarios:
                yield from scenario_vectors(out, family, scenario)
        elif out.preset == "hle":
            given = {"preset": out.preset, "players": 2, "variant": family.name}
            yield out.config(family_slug(family.name), ("P-presets", "VAR-engine"), given, f"hle admits No Variant only, not {family.name}", "$.variant")
    for name in REFUSED_NAMES:
        given = {"preset": out.preset, "players": 2, "variant": name}
        yield out.config(f"refused-{family_slug(name)}", ("VAR-refused", "VAR-names"), given, f"{name} is not played", "$.variant")


def family_config(out: Maker, family: Family) -> Vector:
    """[VAR-engine, VAR-counts, VAR-colours, VAR-max-score, VAR-clue-ranks, 2.9-composition]
    the name resolves to the family's suits, copies, clue colours and N, as transcribed."""
    given = {"preset": out.preset, "players": 2, "variant": family.name}
    clauses = ("VAR-engine", "VAR-names", "VAR-counts", "VAR-colours", "VAR-max-score", "2.9-composition", "2.9-k", *family.clauses)
    vector = out.config(family_slug(family.name), clauses, given, f"{family.name}: suits, copies, clue colours and N")
    derived = vector.data["derived"]
    names = [suit["name"] for suit in derived["suits"]]
    # [VAR-suit-table] the suit table writes the extremely ambiguous suits "Ice EA", "Sky EA", ...
    expect([name.removesuffix(" EA") for name in names] == list(family.suits), f"VAR-names: the suits of {family.name}")
    expect([tuple(suit["counts"]) for suit in derived["suits"]] == list(family.counts), "VAR-counts: copies of ranks 1-5")
    expect(tuple(derived["colours"]) == family.colours, "VAR-colours: the clue colours in order")
    expect([tuple(suit["touched_by"]) for suit in derived["suits"]] == list(family.touched_by), "VAR-engine: the colours touching each suit")
    expect(derived["deck_size"] == family.deck_size == sum(map(sum, family.counts)), "VAR-counts: N")
    config = vector.config()
    expect(tables_for(config).clue_values == family.rank_clues, "VAR-clue-ranks: the rank clues")
    expect(tables_for(config).max_score == 5 * len(family.suits), "VAR-max-score: five per suit")
    return vector


# ------------------------------------------------------------------ hints


def scenario_vectors(out: Maker, family: Family, scenario: Scenario) -> Iterator[Vector]:
    """[VAR-touch, VAR-engine-masks, 2.16-2a] the scenario's shown hints, each touching the
    slots transcribed for it, and its refused hints."""
    config = make_config(2 if len(scenario.prefix) <= 3 else 3, out.preset, family.name)
    run = prepared(config, scenario)
    target = config.players - 1
    label = f"{family_slug(family.name)}-{scenario.label}"
    clauses = (*HINT_CLAUSES, *family.clauses)
    for (kind, subject), slots in scenario.shown:
        hint = Hint(target, kind, subject)
        step = "2.16-2a-suit" if kind == "colour" else "2.16-2a-value"
        text = f"{family.name}: {describe_clue(config, hint)} touches slots {list(slots)}"
        vector = out.transition(f"{label}-{kind}-{subject}", (*clauses, step), run, hint, text)
        touched = run.then(hint).state.history[-1].touched
        expect(touched == tuple(run.state.hands[target][slot] for slot in slots), f"VAR-touch: {text}")
        yield vector
    for (kind, subject), clause in scenario.refused:
        hint = Hint(target, kind, subject)
        yield out.refusal(f"{label}-{kind}-{subject}-refused", clauses, run, hint, clause, f"{family.name}: {describe_clue(config, hint)} is refused")


def describe_clue(config: GameConfig, hint: Hint) -> str:
    """The clue in words: its colour's name, or the rank."""
    if hint.kind == "colour":
        return f"{config.colours[hint.subject]} clue" if hint.subject < len(config.colours) else f"clue colour {hint.subject}"
    return f"rank clue {hint.subject}"


def prepared(config: GameConfig, scenario: Scenario) -> Run:
    """The game where the last seat holds the scenario's hand and has been given its
    prefix clues by the other seats in turn; whenever it is to move itself, it gives the
    first hint to seat 0 whose result a state object can write (T-state)."""
    target = config.players - 1
    run = start(config, *filler_hands(config, scenario.hand), scenario.hand)
    queue = list(scenario.prefix)
    while queue or run.state.current_player == target:
        if run.state.current_player == target:
            run = idle(run, target)
            continue
        kind, subject = queue.pop(0)
        run = run.then(Hint(target, kind, subject))
        expect(is_written(run.state), f"T-state: the prefix clue {kind} {subject} leaves knowledge a state object can write")
    return run


def filler_hands(config: GameConfig, hand: tuple[Card, ...]) -> list[list[Card]]:
    """The other seats' hands: the first cards of the canonical order left after the
    target's hand [D-canonical]."""
    tables = tables_for(config)
    n = config.values
    rest = Counter(tables.canonical_deck)
    rest.subtract(identity(value, suit, n) for value, suit in hand)
    cards: list[Card] = []
    for card in tables.canonical_deck:
        if rest[card] > 0:
            rest[card] -= 1
            cards.append((value_of(card, n), suit_of(card, n)))
    size = config.hand_size
    return [cards[seat * size:(seat + 1) * size] for seat in range(config.players - 1)]


def idle(run: Run, target: int) -> Run:
    """The target's move: the first legal hint to another seat that leaves every
    knowledge set writable (T-state)."""
    for action in legal_actions(run.state):
        if isinstance(action, Hint) and action.target != target:
            after = run.then(action)
            if is_written(after.state):
                return after
    raise CaseFailure("T-state: the target has no hint to give that a state object can write")


def is_written(state: GameState) -> bool:
    """[T-state, 2.14] every knowledge set is a product of suits and values."""
    n, k = state.config.values, state.config.suit_count
    return all(knowledge_suits_values(mask, n, k)[2] for known in state.knowledge for mask in known)


CASES: Final = (variant_families,)
"""The case functions of this module, in the order of generation [VEC-cases]."""
