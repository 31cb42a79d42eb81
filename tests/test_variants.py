"""The compositional variant model, its name parser and its touch rules (spec/variants.md).

The expected data here is transcribed by hand, never from our own output:

* ``HANAB_LIVE_ENTRIES``: suits in order, clue colours and rank clues of hanab.live's
  ``packages/game/src/json/variants.json`` entries (Hanabi-Live/hanabi-live, snapshot of
  2026-08-10); the clue colours follow hanab.live's rule that a variant's colours are
  those its suits list, in suit order (``variantsInit.ts``), worked out by hand.
* ``TOUCH_TABLES``: for each variant, for each suit and rank, the clues that touch the card,
  written from the rule text of hanab.live's ``docs/variants.md`` ("Detailed Rules per
  Variant": Rainbow, Pink, White, Brown, Omni, Null, Muddy Rainbow, Light Pink, Prism,
  Dark, Suit-Ones, Suit-Fives, Deceptive-Ones/-Fives and its worked example, "Suit-Ones
  ... with Another Special Suit" and its Null-Ones & Rainbow example, Ambiguous,
  Dual-Color, Odds and Evens, Up or Down, Funnels, Chimneys, Color/Number Blind).
"""

from __future__ import annotations

import icontract
import pytest

from hanabi_ref.engine.cards import identity
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.validation import variant_suits
from hanabi_ref.engine.variants import NotSupported, Variant, parse_variant, touches
from hanabi_ref.engine.variants.model import START_RANK
from hanabi_ref.engine.variants.touch import Clue
from hanabi_ref.engine.tables import tables_for

R5 = ("Red", "Yellow", "Green", "Blue", "Purple")

# name -> (suits in order, clue colours, rank clues), from variants.json (see module docstring).
HANAB_LIVE_ENTRIES: dict[str, tuple[tuple[str, ...], tuple[str, ...], tuple[int, ...]]] = {
    "No Variant": (R5, R5, (1, 2, 3, 4, 5)),
    "6 Suits": ((*R5, "Teal"), (*R5, "Teal"), (1, 2, 3, 4, 5)),
    "Black (6 Suits)": ((*R5, "Black"), (*R5, "Black"), (1, 2, 3, 4, 5)),
    "Rainbow (6 Suits)": ((*R5, "Rainbow"), R5, (1, 2, 3, 4, 5)),
    "Orange (3 Suits)": (("Red", "Blue", "Orange"), ("Red", "Blue", "Orange"), (1, 2, 3, 4, 5)),
    "Black (5 Suits)": (("Red", "Yellow", "Green", "Blue", "Black"), ("Red", "Yellow", "Green", "Blue", "Black"), (1, 2, 3, 4, 5)),
    "Up or Down (5 Suits)": (R5, R5, (1, 2, 3, 4, 5)),
    "Ambiguous & Null (5 Suits)": (("Tomato", "Mahogany", "Berry", "Navy", "Null"), ("Red", "Blue"), (1, 2, 3, 4, 5)),
    "Rainbow-Ones & Pink (5 Suits)": (("Red", "Yellow", "Green", "Blue", "Pink"), ("Red", "Yellow", "Green", "Blue", "Pink"), (1, 2, 3, 4, 5)),
    "Muddy-Rainbow-Ones (3 Suits)": (("Red", "Green", "Blue"), ("Red", "Green", "Blue"), (2, 3, 4, 5)),
    "Omni-Ones & White (6 Suits)": ((*R5, "White"), R5, (2, 3, 4, 5)),
    "Funnels & Dark Prism (6 Suits)": ((*R5, "Dark Prism"), R5, (1, 2, 3, 4, 5)),
    "Chimneys & Rainbow (4 Suits)": (("Red", "Green", "Blue", "Rainbow"), ("Red", "Green", "Blue"), (1, 2, 3, 4, 5)),
    "Scarce Ones & Gray (6 Suits)": ((*R5, "Gray"), R5, (1, 2, 3, 4, 5)),
    "Light-Pink-Fives & Prism (3 Suits)": (("Red", "Blue", "Prism"), ("Red", "Blue"), (1, 2, 3, 4)),
    "Deceptive-Ones & White (3 Suits)": (("Red", "Blue", "White"), ("Red", "Blue"), (2, 3, 4, 5)),
    "Dual-Color (6 Suits)": (("Tangerine", "Violet", "Maroon", "Jade", "Tan", "Cobalt"), ("Red", "Yellow", "Blue", "Black"), (1, 2, 3, 4, 5)),
    "Odds and Evens (5 Suits)": (R5, R5, (1, 2)),
}

# The special-rank and rule facts of the same entries (variants.json fields, by hand).
HANAB_LIVE_SPECIAL = {
    "Rainbow-Ones & Pink (5 Suits)": (1, "all", "normal"),
    "Muddy-Rainbow-Ones (3 Suits)": (1, "all", "none"),
    "Omni-Ones & White (6 Suits)": (1, "all", "all"),
    "Light-Pink-Fives & Prism (3 Suits)": (5, "none", "all"),
    "Deceptive-Ones & White (3 Suits)": (1, "normal", "deceptive"),
}
HANAB_LIVE_RULES = {
    "Up or Down (5 Suits)": ("up_or_down",),
    "Funnels & Dark Prism (6 Suits)": ("funnels",),
    "Chimneys & Rainbow (4 Suits)": ("chimneys",),
    "Scarce Ones & Gray (6 Suits)": ("scarce_ones",),
    "Odds and Evens (5 Suits)": ("odds_and_evens",),
}

# variant -> (one letter per clue colour, in clue order; {suit: clues touching rank 1, 2, ...}).
# A cell lists the letters of the colour clues and the digits of the rank clues that touch
# the card; the sixth cell, where present, is the START card of Up or Down.
TOUCH_TABLES: dict[str, tuple[str, dict[str, tuple[str, ...]]]] = {
    # Rainbow: "All color clues will touch the rainbow suit."
    "Rainbow (6 Suits)": ("RYGBP", {
        "Red": ("R1", "R2", "R3", "R4", "R5"), "Purple": ("P1", "P2", "P3", "P4", "P5"),
        "Rainbow": ("RYGBP1", "RYGBP2", "RYGBP3", "RYGBP4", "RYGBP5"),
    }),
    # Black: clued by black clues; one of each.
    "Black (6 Suits)": ("RYGBPK", {"Black": ("K1", "K2", "K3", "K4", "K5"), "Blue": ("B1", "B2", "B3", "B4", "B5")}),
    # Pink: all rank clues touch it; Brown: no rank clue touches it (both keep their colour).
    "Pink & Brown (5 Suits)": ("RGBIN", {
        "Red": ("R1", "R2", "R3", "R4", "R5"),
        "Pink": ("I12345",) * 5,
        "Brown": ("N",) * 5,
    }),
    # Omni: all colours and all ranks; Null: no clue at all.
    "Omni & Null (5 Suits)": ("RGB", {"Omni": ("RGB12345",) * 5, "Null": ("",) * 5, "Blue": ("B1", "B2", "B3", "B4", "B5")}),
    # Muddy Rainbow: all colours, no rank; Light Pink: all ranks, no colour.
    "Muddy Rainbow & Light Pink (5 Suits)": ("RGB", {"Muddy Rainbow": ("RGB",) * 5, "Light Pink": ("12345",) * 5}),
    # Dark versions are touched like the light ones.
    "Dark Omni & Dark Null (6 Suits)": ("RYGB", {"Dark Omni": ("RYGB12345",) * 5, "Dark Null": ("",) * 5}),
    # Prism: 1 by the left-most colour, 2 by the next ..., wrapping round with 4 colours.
    "Prism (5 Suits)": ("RYGB", {"Prism": ("R1", "Y2", "G3", "B4", "R5"), "Green": ("G1", "G2", "G3", "G4", "G5")}),
    # Rainbow-Ones & Pink: "the pink 1 is touched by all colors and touched by all ranks".
    "Rainbow-Ones & Pink (5 Suits)": ("RYGBI", {
        "Red": ("RYGBI1", "R2", "R3", "R4", "R5"),
        "Pink": ("RYGBI12345", "I12345", "I12345", "I12345", "I12345"),
    }),
    # Omni-Ones: ones touched by every colour and every rank; White keeps "no colour".
    "Omni-Ones & White (6 Suits)": ("RYGBP", {
        "Yellow": ("RYGBP2345", "Y2", "Y3", "Y4", "Y5"),
        "White": ("2345", "2", "3", "4", "5"),
    }),
    # Null-Ones & Rainbow: "the rainbow 1 is touched by all colors and touched by no ranks".
    "Null-Ones & Rainbow (5 Suits)": ("RYGB", {
        "Red": ("", "R2", "R3", "R4", "R5"),
        "Rainbow": ("RYGB", "RYGB2", "RYGB3", "RYGB4", "RYGB5"),
    }),
    # Muddy-Rainbow-Ones: ones touched by all colours and by no rank.
    "Muddy-Rainbow-Ones (3 Suits)": ("RGB", {"Green": ("RGB", "G2", "G3", "G4", "G5")}),
    # Light-Pink-Fives: fives touched by no colour (not even the prism's) and by every rank.
    "Light-Pink-Fives & Prism (3 Suits)": ("RB", {
        "Red": ("R1", "R2", "R3", "R4", "1234"),
        "Prism": ("R1", "B2", "R3", "B4", "1234"),
    }),
    # Deceptive-Ones: first suit's 1 by a 2 clue, second by 3, third by 4.
    "Deceptive-Ones & White (3 Suits)": ("RB", {
        "Red": ("R2", "R2", "R3", "R4", "R5"),
        "Blue": ("B3", "B2", "B3", "B4", "B5"),
        "White": ("4", "2", "3", "4", "5"),
    }),
    # Deceptive-Fives: by 1, 2, 3, 4, and the fifth suit by 1 again.
    "Deceptive-Fives (5 Suits)": ("RYGBP", {
        "Red": ("R1", "R2", "R3", "R4", "R1"), "Yellow": ("Y1", "Y2", "Y3", "Y4", "Y2"),
        "Green": ("G1", "G2", "G3", "G4", "G3"), "Blue": ("B1", "B2", "B3", "B4", "B4"),
        "Purple": ("P1", "P2", "P3", "P4", "P1"),
    }),
    # Brown-Ones & Omni: red 1 by no rank; the omni suit keeps "every rank" on its 1.
    "Brown-Ones & Omni (5 Suits)": ("RYGB", {"Red": ("R", "R2", "R3", "R4", "R5"), "Omni": ("RYGB2345",) * 5}),
    # Funnels: a rank clue also touches all lower ranks.
    "Funnels & Dark Prism (6 Suits)": ("RYGBP", {
        "Red": ("R12345", "R2345", "R345", "R45", "R5"),
        "Dark Prism": ("R12345", "Y2345", "G345", "B45", "P5"),
    }),
    # Chimneys: a rank clue also touches all higher ranks.
    "Chimneys & Rainbow (4 Suits)": ("RGB", {
        "Red": ("R1", "R12", "R123", "R1234", "R12345"),
        "Rainbow": ("RGB1", "RGB12", "RGB123", "RGB1234", "RGB12345"),
    }),
    # Odds and Evens: clue 1 (odd) touches 1, 3, 5; clue 2 (even) touches 2, 4.
    "Odds and Evens (5 Suits)": ("RYGBP", {"Green": ("G1", "G2", "G1", "G2", "G1")}),
    "Color Blind (4 Suits)": ("RYGB", {"Red": ("1", "2", "3", "4", "5")}),
    "Number Blind (3 Suits)": ("RGB", {"Blue": ("B", "B", "B", "B", "B")}),
    # Ambiguous: two suits share a colour.
    "Ambiguous & Null (5 Suits)": ("RB", {
        "Tomato": ("R1", "R2", "R3", "R4", "R5"), "Mahogany": ("R1", "R2", "R3", "R4", "R5"),
        "Berry": ("B1", "B2", "B3", "B4", "B5"), "Navy": ("B1", "B2", "B3", "B4", "B5"), "Null": ("",) * 5,
    }),
    # Dual-Color (6 Suits): each suit touched by two colours.
    "Dual-Color (6 Suits)": ("RYBK", {
        "Tangerine": ("RY1", "RY2", "RY3", "RY4", "RY5"), "Violet": ("RB1", "RB2", "RB3", "RB4", "RB5"),
        "Maroon": ("RK1", "RK2", "RK3", "RK4", "RK5"), "Jade": ("YB1", "YB2", "YB3", "YB4", "YB5"),
        "Tan": ("YK1", "YK2", "YK3", "YK4", "YK5"), "Cobalt": ("BK1", "BK2", "BK3", "BK4", "BK5"),
    }),
    # Up or Down: START touched by its suit's colour and no rank; a prism START by the last colour.
    "Up or Down & Prism (5 Suits)": ("RYGB", {
        "Red": ("R1", "R2", "R3", "R4", "R5", "R"),
        "Prism": ("R1", "Y2", "G3", "B4", "R5", "B"),
    }),
}


def _check_table(name: str) -> None:
    """Compare touches() with the hand-written table over every (suit, rank, clue)."""
    letters, table = TOUCH_TABLES[name]
    variant = parse_variant(name)
    assert len(letters) == len(variant.colours), f"{name}: colours {variant.colours}"
    clues: list[tuple[str, Clue]] = [(letters[c], ("colour", c)) for c in range(len(variant.colours))]
    clues += [(str(r), ("rank", r)) for r in variant.clue_ranks]
    names = [suit.name for suit in variant.suits]
    for suit_name, cells in table.items():
        assert len(cells) == len(variant.ranks), f"{name}: {suit_name} has ranks {variant.ranks}"
        for rank, cell in zip(variant.ranks, cells):
            for symbol, clue in clues:
                got = touches(variant, names.index(suit_name), rank, clue)
                assert got == (symbol in cell), f"{name}: {suit_name} {rank} clue {clue}: {got}"


# ------------------------------------------------------------------ parsing


@pytest.mark.parametrize("name", sorted(HANAB_LIVE_ENTRIES))
@pytest.mark.checks("VAR-model", "VAR-basic", "VAR-two-suits", "VAR-suit-table")
def test_issue_names_match_hanab_live(name: str) -> None:
    """[VAR-names, VAR-basic, VAR-single-suit, VAR-two-suits, VAR-ambiguous,
    VAR-dual-colour, VAR-colours, VAR-clue-ranks, VAR-model] every variant name of issue 24
    parses to hanab.live's suits in order, its clue colours and its rank clues."""
    suits, colours, ranks = HANAB_LIVE_ENTRIES[name]
    variant = parse_variant(name)
    assert tuple(suit.name for suit in variant.suits) == suits
    assert variant.colours == colours
    assert variant.clue_ranks == ranks
    assert variant.name == name


@pytest.mark.parametrize("name", sorted(HANAB_LIVE_SPECIAL))
def test_special_rank_fields(name: str) -> None:
    """[VAR-special-rank, VAR-deceptive] the rank modifier of hanab.live's entry: its rank and
    its colour and rank behaviour."""
    special = parse_variant(name).special_rank
    assert special is not None
    assert (special.rank, special.colour_touch, special.rank_touch) == HANAB_LIVE_SPECIAL[name]


@pytest.mark.parametrize("name", sorted(HANAB_LIVE_RULES))
def test_rule_flags(name: str) -> None:
    """[VAR-rules] the rule prefix becomes its named flag and nothing else."""
    assert parse_variant(name).rules.names() == HANAB_LIVE_RULES[name]


def test_mixes_and_matryoshka() -> None:
    """[VAR-mixes, VAR-matryoshka, VAR-suit-table] fixed suit lists (hanab.live's docs)."""
    special = parse_variant("Special Mix (6 Suits)")
    assert [s.name for s in special.suits] == ["Black", "Rainbow", "Pink", "White", "Brown", "Null"]
    assert special.colours == ("Black", "Pink", "Brown")
    nested = parse_variant("Matryoshka (4 Suits)")
    assert [s.name for s in nested.suits] == ["Ruby", "Yam", "Geas", "Beatnik"]
    assert nested.colours == ("Red", "Yellow", "Green", "Blue")
    assert [s.name for s in parse_variant("Matryoshka & Rainbow (3 Suits)").suits] == ["Ruby", "Yam", "Rainbow"]


@pytest.mark.parametrize(
    ("name", "part"),
    [
        ("Synesthesia (5 Suits)", "Synesthesia"),
        ("Synesthesia & Black (5 Suits)", "Synesthesia"),
        ("Sudoku (4 Suits)", "Sudoku"),
        ("Throw It in a Hole & Rainbow (6 Suits)", "Throw It in a Hole"),
        ("Cow & Pig (5 Suits)", "Cow & Pig"),
        ("Duck (3 Suits)", "Duck"),
        ("Reversed (5 Suits)", "Reversed"),
        ("White Reversed & Rainbow (6 Suits)", "Reversed"),
        ("Purple Rain (5 Suits)", "Purple Rain"),
        ("Rainbow (7 Suits)", "7 Suits"),
        ("Rainbow & Black (6 Suits)", "Rainbow & Black"),
        ("Black & Orange (5 Suits)", "Black & Orange"),
        ("Black-Ones (5 Suits)", "Black-Ones"),
        ("Ambiguous (5 Suits)", "Ambiguous (5 Suits)"),
        ("Very Ambiguous & Rainbow (4 Suits)", "Very Ambiguous & Rainbow"),
        ("no variant", "no variant"),
    ],
)
@pytest.mark.checks("VAR-two-suits")
def test_refused_families(name: str, part: str) -> None:
    """[VAR-refused] a family we do not model, or a name outside the grammar, is refused with
    one line that starts with the part; nothing is guessed."""
    with pytest.raises(NotSupported) as caught:
        parse_variant(name)
    message = str(caught.value)
    assert message.startswith((part + ":", part + " (")), message
    assert "\n" not in message


# ------------------------------------------------------------------ touch tables


def test_touch_own_and_all_colours() -> None:
    """[VAR-touch, VAR-own-colour, VAR-all-colours] ordinary, black and rainbow suits."""
    _check_table("Rainbow (6 Suits)")
    _check_table("Black (6 Suits)")


def test_touch_all_and_no_ranks() -> None:
    """[VAR-touch, VAR-all-ranks, VAR-no-ranks, VAR-no-colours, VAR-all-colours] pink,
    brown, omni, null, muddy rainbow, light pink."""
    for name in ("Pink & Brown (5 Suits)", "Omni & Null (5 Suits)", "Muddy Rainbow & Light Pink (5 Suits)"):
        _check_table(name)


@pytest.mark.checks("VAR-suit")
def test_touch_dark() -> None:
    """[VAR-dark, VAR-suit, VAR-touch] dark suits touch like their light versions, one of each rank."""
    _check_table("Dark Omni & Dark Null (6 Suits)")
    variant = parse_variant("Dark Omni & Dark Null (6 Suits)")
    assert variant.counts(4) == variant.counts(5) == (1, 1, 1, 1, 1)
    assert variant.counts(0) == (3, 2, 2, 2, 1)


def test_touch_prism() -> None:
    """[VAR-prism, VAR-touch] colour by rank position, wrapping round."""
    _check_table("Prism (5 Suits)")


def test_touch_special_ranks() -> None:
    """[VAR-special-rank, VAR-touch, VAR-clue-ranks] suit-ones and suit-fives, with the
    suit's own property winning a conflict."""
    for name in (
        "Rainbow-Ones & Pink (5 Suits)", "Omni-Ones & White (6 Suits)", "Null-Ones & Rainbow (5 Suits)",
        "Muddy-Rainbow-Ones (3 Suits)", "Light-Pink-Fives & Prism (3 Suits)", "Brown-Ones & Omni (5 Suits)",
    ):
        _check_table(name)


def test_touch_deceptive() -> None:
    """[VAR-deceptive, VAR-touch] the deceptive rank by suit position, wrapping round."""
    _check_table("Deceptive-Ones & White (3 Suits)")
    _check_table("Deceptive-Fives (5 Suits)")


def test_touch_funnels_and_chimneys() -> None:
    """[VAR-funnels, VAR-chimneys, VAR-touch] rank clues reach lower / higher ranks."""
    _check_table("Funnels & Dark Prism (6 Suits)")
    _check_table("Chimneys & Rainbow (4 Suits)")


def test_touch_odds_evens_and_blind() -> None:
    """[VAR-odds-and-evens, VAR-blind, VAR-touch] parity clues; blind clue types."""
    _check_table("Odds and Evens (5 Suits)")
    _check_table("Color Blind (4 Suits)")
    _check_table("Number Blind (3 Suits)")


def test_touch_ambiguous_and_dual_colour() -> None:
    """[VAR-ambiguous, VAR-dual-colour, VAR-own-colour, VAR-touch] shared and double colours."""
    _check_table("Ambiguous & Null (5 Suits)")
    _check_table("Dual-Color (6 Suits)")


def test_touch_up_or_down_start() -> None:
    """[VAR-up-or-down, VAR-prism, VAR-touch] START cards and their counts."""
    _check_table("Up or Down & Prism (5 Suits)")
    variant = parse_variant("Up or Down (5 Suits)")
    assert variant.ranks == (1, 2, 3, 4, 5, START_RANK)
    assert variant.counts(0) == (1, 2, 2, 2, 1, 1)
    assert parse_variant("Up or Down & Black (6 Suits)").counts(5) == (1, 1, 1, 1, 1, 1)


def test_touch_rejects_a_clue_the_variant_lacks() -> None:
    """[VAR-touch, VAR-clue-ranks] a rank clue removed by the modifier is not a clue: the
    contract names the clause."""
    variant = parse_variant("Omni-Ones & White (6 Suits)")
    with pytest.raises(icontract.ViolationError, match="VAR-touch"):
        touches(variant, 0, 1, ("rank", 1))


# ------------------------------------------------------------------ counts, rules, score


def test_counts_and_max_score() -> None:
    """[VAR-counts, VAR-scarce-ones, VAR-critical-fours, VAR-max-score] copies per rank."""
    scarce = parse_variant("Scarce Ones & Gray (6 Suits)")
    assert scarce.counts(0) == (2, 2, 2, 2, 1) and scarce.counts(5) == (1, 1, 1, 1, 1)
    assert scarce.deck_size == 5 * 9 + 5 and scarce.max_score == 30
    assert parse_variant("Critical Fours (4 Suits)").counts(3) == (3, 2, 2, 1, 1)
    assert parse_variant("Orange (3 Suits)").max_score == 15


def test_other_rule_flags() -> None:
    """[VAR-clue-starved, VAR-alternating-clues, VAR-mute, VAR-blind, VAR-orange] flags and
    the clue lists they change."""
    assert parse_variant("Clue Starved & Pink (5 Suits)").rules.clue_starved
    assert parse_variant("Alternating Clues (3 Suits)").rules.alternating_clues
    assert parse_variant("Color Mute (5 Suits)").colours == ()
    assert parse_variant("Number Mute (4 Suits)").clue_ranks == ()
    assert parse_variant("Totally Blind (6 Suits)").rules.names() == ("colour_blind", "number_blind")
    orange = parse_variant("Orange (3 Suits)").suits[2]
    assert orange.inverted and orange.colours == ("Orange",)


# ------------------------------------------------------------------ bridge to the engine


@pytest.mark.parametrize("name", ["No Variant", "6 Suits", "Black (6 Suits)", "Rainbow (6 Suits)"])
@pytest.mark.checks("VAR-to-suits", "VAR-existing")
def test_existing_variants_unchanged(name: str) -> None:
    """[VAR-existing, VAR-to-suits] the four variants of spec/rules.md give exactly today's
    suits, clue colours, colour masks and value masks."""
    suits, colours = parse_variant(name).to_suits()
    assert (suits, colours) == variant_suits(name)
    config = make_config(3, variant=name)
    variant = parse_variant(name)
    for colour, mask in enumerate(tables_for(config).colour_masks):
        assert mask == _mask(variant, ("colour", colour))
    for value, mask in enumerate(tables_for(config).value_masks, start=1):
        assert mask == _mask(variant, ("rank", value))


def _mask(variant: Variant, clue: Clue) -> int:
    """The identities a clue touches, computed by touches()."""
    return sum(
        1 << identity(rank, suit, 5)
        for suit in range(len(variant.suits))
        for rank in range(1, 6)
        if touches(variant, suit, rank, clue)
    )


@pytest.mark.checks("VAR-to-suits")
def test_to_suits_expressible_and_refused() -> None:
    """[VAR-to-suits, VAR-refused] white and ambiguous suits fit today's Suit; pink, prism,
    orange, special ranks and rules are refused naming the part."""
    suits, colours = parse_variant("Ambiguous (4 Suits)").to_suits()
    assert colours == ("Red", "Blue") and [s.touched_by for s in suits] == [frozenset({0})] * 2 + [frozenset({1})] * 2
    white, _ = parse_variant("White (3 Suits)").to_suits()
    assert white[2].touched_by == frozenset()
    for name, part in (
        ("Pink (5 Suits)", "suit Pink"), ("Prism (5 Suits)", "suit Prism"), ("Orange (3 Suits)", "suit Orange"),
        ("Rainbow-Ones (5 Suits)", "Rainbow-Ones"), ("Up or Down (5 Suits)", "up_or_down"),
        ("Odds and Evens (5 Suits)", "odds_and_evens"),
    ):
        with pytest.raises(NotSupported, match=part):
            parse_variant(name).to_suits()
