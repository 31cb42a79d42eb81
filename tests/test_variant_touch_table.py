"""Every hint of every family against a touch table written from spec/variants.md
[VAR-touch, VAR-engine-masks, VAR-counts, VAR-max-score, VAR-colours, VAR-clue-ranks].

The oracle here is a separate reading of spec/variants.md, written without looking at
``hanabi_ref/engine/variants/touch.py``: each suit is a property string (the clue colours that
touch it, or ``*`` for every colour, ``-`` for none, ``prism``; ``=`` for the rank clue
of its own rank, ``*`` every rank clue, ``-`` none; ``dark`` for one copy of each rank),
each family lists its suits, its clue colours and rank clues (worked out by hand), and
its rank modifier or game rule; prism colours and deceptive ranks are written out per
family.  From these, for each card, the set of colour names and the set of rank clues
that touch it are derived, and for all (suit, rank 1-5, clue) triples the engine's
masks (``Tables.colour_masks`` / ``value_masks``) and the model's ``touches`` must
agree.  The copies of each rank follow VAR-counts and the deck sizes are written out.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

import pytest

from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.variants import touches
from hanabi_ref.tools.vectors import run_case
from hanabi_ref.tools.vectors.cases_variants import REFUSED_NAMES
from hanabi_ref.engine.tables import tables_for

R4 = ("Red", "Yellow", "Green", "Blue")
R5 = (*R4, "Purple")

# [VAR-suit, VAR-own-colour, VAR-all-colours, VAR-no-colours, VAR-all-ranks, VAR-no-ranks,
# VAR-prism, VAR-dark, VAR-ambiguous, VAR-dual-colour, VAR-matryoshka] colour|rank[|dark]
SUIT_PROPERTIES: dict[str, str] = {
    "Red": "Red|=", "Yellow": "Yellow|=", "Green": "Green|=", "Blue": "Blue|=", "Purple": "Purple|=", "Teal": "Teal|=",
    "Black": "Black|=|dark",
    "Rainbow": "*|=", "Pink": "Pink|*", "White": "-|=", "Brown": "Brown|-",
    "Omni": "*|*", "Null": "-|-", "Muddy Rainbow": "*|-", "Light Pink": "-|*", "Prism": "prism|=",
    "Dark Rainbow": "*|=|dark", "Dark Pink": "Pink|*|dark", "Gray": "-|=|dark", "Dark Brown": "Brown|-|dark",
    "Dark Omni": "*|*|dark", "Dark Null": "-|-|dark", "Cocoa Rainbow": "*|-|dark", "Gray Pink": "-|*|dark",
    "Dark Prism": "prism|=|dark",
    "Tomato": "Red|=", "Mahogany": "Red|=", "Carrot": "Red|=", "Emerald": "Green|=", "Olive": "Green|=",
    "Berry": "Blue|=", "Navy": "Blue|=", "Sky": "Blue|=",
    "Ice": "Blue|=", "Aqua": "Blue|=", "Ocean": "Blue|=",
    "Tangerine": "Red+Yellow|=", "Lime": "Yellow+Green|=", "Cyan": "Green+Blue|=", "Indigo": "Blue+Purple|=",
    "Cardinal": "Purple+Red|=", "Violet": "Red+Blue|=", "Maroon": "Red+Black|=", "Jade": "Yellow+Blue|=",
    "Tan": "Yellow+Black|=", "Cobalt": "Blue+Black|=",
    "Ruby": "Red|=", "Yam": "Red+Yellow|=", "Geas": "Red+Yellow+Green|=", "Beatnik": "Red+Yellow+Green+Blue|=",
    "Plum": "Red+Yellow+Green+Blue+Purple|=",
}


@dataclass(frozen=True)
class Family:
    """A representative variant: suits, clue colours, rank clues and deck size by hand;
    ``special`` is (rank, colour touch, rank touch) of a rank modifier with ``*`` every,
    ``-`` none, ``=`` as the suit; ``prism`` maps rank to clue colour; ``deceptive`` maps
    suit to its 1s' (5s') rank clue; ``rule`` names a game rule."""

    name: str
    suits: tuple[str, ...]
    colours: tuple[str, ...]
    deck_size: int
    ranks: tuple[int, ...] = (1, 2, 3, 4, 5)
    special: tuple[int, str, str] | None = None
    prism: dict[int, str] = field(default_factory=dict)
    deceptive: dict[str, int] = field(default_factory=dict)
    rule: str = ""


PRISM_4 = {1: "Red", 2: "Yellow", 3: "Green", 4: "Blue", 5: "Red"}  # four colours: the 5 wraps to Red
FAMILIES = (
    Family("Black (5 Suits)", (*R4, "Black"), (*R4, "Black"), 45),
    Family("Rainbow (5 Suits)", (*R4, "Rainbow"), R4, 50),
    Family("Pink (5 Suits)", (*R4, "Pink"), (*R4, "Pink"), 50),
    Family("White (5 Suits)", (*R4, "White"), R4, 50),
    Family("Brown (5 Suits)", (*R4, "Brown"), (*R4, "Brown"), 50),
    Family("Omni (5 Suits)", (*R4, "Omni"), R4, 50),
    Family("Null (5 Suits)", (*R4, "Null"), R4, 50),
    Family("Muddy Rainbow (5 Suits)", (*R4, "Muddy Rainbow"), R4, 50),
    Family("Light Pink (5 Suits)", (*R4, "Light Pink"), R4, 50),
    Family("Prism (5 Suits)", (*R4, "Prism"), R4, 50, prism=PRISM_4),
    Family("Prism (6 Suits)", (*R5, "Prism"), R5, 60, prism={1: "Red", 2: "Yellow", 3: "Green", 4: "Blue", 5: "Purple"}),
    Family("Dark Rainbow (5 Suits)", (*R4, "Dark Rainbow"), R4, 45),
    Family("Dark Pink (5 Suits)", (*R4, "Dark Pink"), (*R4, "Pink"), 45),
    Family("Gray (5 Suits)", (*R4, "Gray"), R4, 45),
    Family("Dark Brown (5 Suits)", (*R4, "Dark Brown"), (*R4, "Brown"), 45),
    Family("Dark Omni (5 Suits)", (*R4, "Dark Omni"), R4, 45),
    Family("Dark Null (5 Suits)", (*R4, "Dark Null"), R4, 45),
    Family("Cocoa Rainbow (5 Suits)", (*R4, "Cocoa Rainbow"), R4, 45),
    Family("Gray Pink (5 Suits)", (*R4, "Gray Pink"), R4, 45),
    Family("Dark Prism (5 Suits)", (*R4, "Dark Prism"), R4, 45, prism=PRISM_4),
    Family("Dark Prism (4 Suits)", ("Red", "Green", "Blue", "Dark Prism"), ("Red", "Green", "Blue"), 35,
           prism={1: "Red", 2: "Green", 3: "Blue", 4: "Red", 5: "Green"}),
    Family("Ambiguous (6 Suits)", ("Tomato", "Mahogany", "Emerald", "Olive", "Berry", "Navy"), ("Red", "Green", "Blue"), 60),
    Family("Ambiguous & Rainbow (5 Suits)", ("Tomato", "Mahogany", "Berry", "Navy", "Rainbow"), ("Red", "Blue"), 50),
    Family("Very Ambiguous (6 Suits)", ("Tomato", "Mahogany", "Carrot", "Berry", "Navy", "Sky"), ("Red", "Blue"), 60),
    Family("Extremely Ambiguous (5 Suits)", ("Ice", "Aqua", "Sky", "Berry", "Navy"), ("Blue",), 50),
    Family("Dual-Color (5 Suits)", ("Tangerine", "Lime", "Cyan", "Indigo", "Cardinal"), R5, 50),
    Family("Dual-Color (6 Suits)", ("Tangerine", "Violet", "Maroon", "Jade", "Tan", "Cobalt"), ("Red", "Yellow", "Blue", "Black"), 60),
    Family("Matryoshka (5 Suits)", ("Ruby", "Yam", "Geas", "Beatnik", "Plum"), R5, 50),
    Family("Special Mix (5 Suits)", ("Black", "Rainbow", "Pink", "White", "Brown"), ("Black", "Pink", "Brown"), 45),
    Family("Valentine Mix (5 Suits)", ("Red", "Pink", "White", "Light Pink", "Cocoa Rainbow"), ("Red", "Pink"), 45),
    Family("Rainbow-Ones (5 Suits)", R5, R5, 50, special=(1, "*", "=")),
    Family("Pink-Fives (5 Suits)", R5, R5, 50, (1, 2, 3, 4), special=(5, "=", "*")),
    Family("White-Ones (5 Suits)", R5, R5, 50, special=(1, "-", "=")),
    Family("Brown-Fives (5 Suits)", R5, R5, 50, (1, 2, 3, 4), special=(5, "=", "-")),
    Family("Omni-Ones (5 Suits)", R5, R5, 50, (2, 3, 4, 5), special=(1, "*", "*")),
    Family("Null-Fives (5 Suits)", R5, R5, 50, (1, 2, 3, 4), special=(5, "-", "-")),
    Family("Muddy-Rainbow-Ones (5 Suits)", R5, R5, 50, (2, 3, 4, 5), special=(1, "*", "-")),
    Family("Light-Pink-Fives (5 Suits)", R5, R5, 50, (1, 2, 3, 4), special=(5, "-", "*")),
    # [VAR-special-rank] the suit's own all / none property wins over the modifier's.
    Family("Null-Ones & Rainbow (6 Suits)", (*R5, "Rainbow"), R5, 60, (2, 3, 4, 5), special=(1, "-", "-")),
    # [VAR-special-rank] a prism card's colour by rank gives way to the modifier's.
    Family("Rainbow-Ones & Prism (5 Suits)", (*R4, "Prism"), R4, 50, special=(1, "*", "="), prism=PRISM_4),
    Family("White-Fives & Prism (5 Suits)", (*R4, "Prism"), R4, 50, special=(5, "-", "="), prism=PRISM_4),
    Family("Pink-Ones & Brown (5 Suits)", (*R4, "Brown"), (*R4, "Brown"), 50, (2, 3, 4, 5), special=(1, "=", "*")),
    # [VAR-deceptive] the rank clues 2-5 (1-4) dealt to the suits in turn, wrapping round.
    Family("Deceptive-Ones (5 Suits)", R5, R5, 50, (2, 3, 4, 5), special=(1, "=", "deceptive"),
           deceptive={"Red": 2, "Yellow": 3, "Green": 4, "Blue": 5, "Purple": 2}),
    Family("Deceptive-Fives (5 Suits)", R5, R5, 50, (1, 2, 3, 4), special=(5, "=", "deceptive"),
           deceptive={"Red": 1, "Yellow": 2, "Green": 3, "Blue": 4, "Purple": 1}),
    Family("Deceptive-Ones & Pink (5 Suits)", (*R4, "Pink"), (*R4, "Pink"), 50, (2, 3, 4, 5), special=(1, "=", "deceptive"),
           deceptive={"Red": 2, "Yellow": 3, "Green": 4, "Blue": 5}),
    Family("Funnels (5 Suits)", R5, R5, 50, rule="funnels"),
    Family("Funnels & Pink (5 Suits)", (*R4, "Pink"), (*R4, "Pink"), 50, rule="funnels"),
    Family("Chimneys (5 Suits)", R5, R5, 50, rule="chimneys"),
    Family("Chimneys & Null (5 Suits)", (*R4, "Null"), R4, 50, rule="chimneys"),
    Family("Scarce Ones (5 Suits)", R5, R5, 45, rule="scarce ones"),
    Family("Scarce Ones & Black (5 Suits)", (*R4, "Black"), (*R4, "Black"), 41, rule="scarce ones"),
    Family("Critical Fours (5 Suits)", R5, R5, 45, rule="critical fours"),
    Family("Critical Fours & Black (5 Suits)", (*R4, "Black"), (*R4, "Black"), 41, rule="critical fours"),
    Family("Odds and Evens (5 Suits)", R5, R5, 50, (1, 2), rule="odds and evens"),
    Family("Odds and Evens & Brown (5 Suits)", (*R4, "Brown"), (*R4, "Brown"), 50, (1, 2), rule="odds and evens"),
    Family("Color Blind (5 Suits)", R5, R5, 50, rule="color blind"),
    Family("Number Blind (5 Suits)", R5, R5, 50, rule="number blind"),
    Family("Totally Blind (5 Suits)", R5, R5, 50, rule="color blind, number blind"),
    Family("Color Mute (5 Suits)", R5, (), 50, rule="color mute"),
    Family("Number Mute (5 Suits)", R5, R5, 50, (), rule="number mute"),
)
IDS = [family.name for family in FAMILIES]


# ------------------------------------------------------------------ the oracle


def properties(suit: str) -> tuple[str, str, bool]:
    """(colour touch, rank touch, dark) of a suit, from its property string."""
    parts = SUIT_PROPERTIES[suit].split("|")
    return parts[0], parts[1], parts[2:] == ["dark"]


def colour_names(family: Family, suit: str, rank: int) -> set[str]:
    """[VAR-touch] the names of the clue colours that touch the card."""
    if "color blind" in family.rule:
        return set()
    colour, _, _ = properties(suit)
    if colour == "*":
        return set(family.colours)
    if colour == "-":
        return set()
    if family.special is not None and family.special[0] == rank and family.special[1] in "*-":
        return set(family.colours) if family.special[1] == "*" else set()
    if colour == "prism":
        return {family.prism[rank]}
    return set(colour.split("+")) & set(family.colours)


def rank_clues(family: Family, suit: str, rank: int) -> set[int]:
    """[VAR-touch] the rank clues (of those the family has) that touch the card."""
    _, touch, _ = properties(suit)
    if "number blind" in family.rule or touch == "-":
        return set()
    if touch == "*":
        return set(family.ranks)
    if family.rule == "funnels":
        wanted = set(range(rank, 6))
    elif family.rule == "chimneys":
        wanted = set(range(1, rank + 1))
    elif family.rule == "odds and evens":
        wanted = {1 if rank % 2 else 2}  # Odd is clue 1, Even clue 2
    elif family.special is not None and family.special[0] == rank and family.special[2] != "=":
        how = family.special[2]
        wanted = {family.deceptive[suit]} if how == "deceptive" else set(family.ranks) if how == "*" else set()
    else:
        wanted = {rank}
    return wanted & set(family.ranks)


def copies(family: Family, suit: str) -> tuple[int, ...]:
    """[VAR-counts, VAR-dark, VAR-scarce-ones, VAR-critical-fours] ranks 1-5."""
    if properties(suit)[2]:
        return (1, 1, 1, 1, 1)
    ones = 2 if family.rule == "scarce ones" else 3
    fours = 1 if family.rule == "critical fours" else 2
    return (ones, 2, 2, fours, 1)


def card_bit(suit_index: int, rank: int) -> int:
    """[2.9-cards] the engine's identity of a card is suit * 5 + rank - 1."""
    return 1 << (suit_index * 5 + rank - 1)


def config_of(family: Family) -> GameConfig:
    return make_config(2, "hanab-live", family.name)


# ------------------------------------------------------------------ the tests


def test_at_least_twenty_four_families() -> None:
    """[VAR-names] the table covers the families of the issue."""
    assert len(FAMILIES) >= 24
    assert len({name.split(" (")[0].split(" & ")[0] for name in IDS}) >= 24


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
@pytest.mark.checks("VAR-suit-table")
def test_suits_colours_and_rank_clues(family: Family) -> None:
    """[VAR-colours, VAR-clue-ranks, VAR-engine, VAR-suit-table] the engine's suits, clue
    colours and rank clues are the hand-written ones."""
    config = config_of(family)
    names = [suit.name.removesuffix(" EA") for suit in config.suits]
    assert names == list(family.suits)
    assert config.colours == family.colours
    assert tables_for(config).clue_values == family.ranks


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
@pytest.mark.checks("VAR-suit")
def test_deck_composition_and_max_score(family: Family) -> None:
    """[VAR-counts, VAR-dark, VAR-scarce-ones, VAR-critical-fours, VAR-max-score] copies
    of each rank per suit by the counts rule, the deck size as written, 5 per suit."""
    config = config_of(family)
    tables = tables_for(config)
    assert [suit.counts for suit in config.suits] == [copies(family, suit) for suit in family.suits]
    assert tables.deck_size == family.deck_size == sum(sum(copies(family, suit)) for suit in family.suits)
    assert tables.max_score == 5 * len(family.suits)
    assert tables.model is not None and tables.model.max_score == tables.max_score


def colour_mismatches(family: Family, config: GameConfig) -> list[str]:
    """Every (suit, rank, clue colour) where the engine's mask or the model's touches
    differs from the oracle, and every suit whose touched_by differs."""
    tables = tables_for(config)
    assert tables.model is not None
    found = []
    for suit_index, suit in enumerate(family.suits):
        for rank in range(1, 6):
            expected = colour_names(family, suit, rank)
            for colour, name in enumerate(family.colours):
                masked = bool(tables.colour_masks[colour] & card_bit(suit_index, rank))
                modelled = touches(tables.model, suit_index, rank, ("colour", colour))
                if masked != (name in expected) or modelled != (name in expected):
                    found.append(f"{suit} {rank}, {name} clue: mask {masked}, touches {modelled}")
        touching = {c for c, name in enumerate(family.colours) if any(name in colour_names(family, suit, r) for r in range(1, 6))}
        if config.suits[suit_index].touched_by != touching:
            found.append(f"{suit}: touched_by {sorted(config.suits[suit_index].touched_by)}, not {sorted(touching)}")
    return found


def rank_mismatches(family: Family, config: GameConfig) -> list[str]:
    """Every (suit, rank, rank clue 1-5) where the engine's mask (0 for a clue the variant
    lacks) or the model's touches differs from the oracle."""
    tables = tables_for(config)
    assert tables.model is not None
    found = []
    for suit_index, suit in enumerate(family.suits):
        for rank in range(1, 6):
            expected = rank_clues(family, suit, rank)
            for clue in range(1, 6):
                masked = bool(tables.value_masks[clue - 1] & card_bit(suit_index, rank))
                modelled = touches(tables.model, suit_index, rank, ("rank", clue)) if clue in family.ranks else masked
                if masked != (clue in expected) or modelled != (clue in expected):
                    found.append(f"{suit} {rank}, rank clue {clue}: mask {masked}, touches {modelled}")
    return found


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
@pytest.mark.checks("VAR-suit")
def test_colour_clues_touch_as_the_table_says(family: Family) -> None:
    """[VAR-touch, VAR-engine-masks, VAR-prism, VAR-special-rank, VAR-blind] every clue
    colour, every suit, ranks 1-5: the engine's mask and the model's touches agree with
    the oracle; a suit's touched_by is the colours touching some card of it."""
    mismatches = colour_mismatches(family, config_of(family))
    assert not mismatches, f"{family.name}:\n  " + "\n  ".join(mismatches)


@pytest.mark.parametrize("family", FAMILIES, ids=IDS)
@pytest.mark.checks("VAR-suit")
def test_rank_clues_touch_as_the_table_says(family: Family) -> None:
    """[VAR-touch, VAR-engine-masks, VAR-funnels, VAR-chimneys, VAR-odds-and-evens,
    VAR-deceptive, VAR-all-ranks, VAR-no-ranks, VAR-clue-ranks] every rank clue 1-5,
    every suit and rank: the engine's mask (0 for a clue the variant lacks) and the
    model's touches agree with the oracle."""
    config = config_of(family)
    mismatches = rank_mismatches(family, config)
    assert not mismatches, f"{family.name}:\n  " + "\n  ".join(mismatches)
    assert all(tables_for(config).value_masks[clue - 1] == 0 for clue in range(1, 6) if clue not in family.ranks)


def test_oracle_can_fail() -> None:
    """[VAR-touch, VAR-prism, VAR-deceptive, VAR-funnels] the comparison is not vacuous:
    a table with Prism's 5 blue, Deceptive-Ones' purple 1 on the 3 clue, or Funnels read
    as Chimneys disagrees with the engine at exactly those cards."""
    prism = FAMILIES[IDS.index("Prism (5 Suits)")]
    wrong_prism = replace(prism, prism={**PRISM_4, 5: "Blue"})
    assert colour_mismatches(wrong_prism, config_of(prism)) == [
        "Prism 5, Red clue: mask True, touches True", "Prism 5, Blue clue: mask False, touches False",
    ]
    deceptive = FAMILIES[IDS.index("Deceptive-Ones (5 Suits)")]
    wrong_deceptive = replace(deceptive, deceptive={**deceptive.deceptive, "Purple": 3})
    assert len(rank_mismatches(wrong_deceptive, config_of(deceptive))) == 2
    funnels = FAMILIES[IDS.index("Funnels (5 Suits)")]
    assert len(rank_mismatches(replace(funnels, rule="chimneys"), config_of(funnels))) == 5 * 20


# ------------------------------------------------------------------ the vectors of the families


@pytest.mark.checks("VEC-variants")
def test_variant_vectors_cover_the_families() -> None:
    """[VEC-variants, VAR-clue-ranks, VAR-mute, VAR-blind] under hanab-live at least 24
    families each have a config vector and hint transitions; a missing rank clue and a
    colour clue under Color Mute are refused under their clauses; under Color Blind a
    colour clue touching nothing is a legal transition; hle refuses every family's name;
    every preset refuses the unsupported names."""
    vectors = run_case("variant_families", "hanab-live")
    configs = {v.data["input"]["variant"] for v in vectors if v.kind == "config" and "error" not in v.data}
    hinted = {v.data["config"]["variant"] for v in vectors if v.kind == "transition" and "post" in v.data}
    assert len(configs) >= 24 and configs <= hinted
    errors = {(v.data["config"]["variant"], v.data["error"]["clause"]) for v in vectors if v.kind == "transition" and "error" in v.data}
    assert {("Odds and Evens (5 Suits)", "VAR-clue-ranks"), ("Color Mute (5 Suits)", "VAR-mute"),
            ("Pink-Fives (5 Suits)", "VAR-clue-ranks"), ("Number Mute (5 Suits)", "VAR-clue-ranks")} <= errors
    blind = [v for v in vectors if v.kind == "transition" and v.data["config"]["variant"] == "Color Blind (5 Suits)"
             and v.data["action"]["kind"] == "colour"]
    assert blind and all("post" in v.data and v.data["post"]["knowledge"] == v.data["pre"]["knowledge"] for v in blind)
    refused_here = {v.data["input"]["variant"] for v in vectors if v.kind == "config" and "error" in v.data}
    assert refused_here == set(REFUSED_NAMES)
    hle = {v.data["input"]["variant"] for v in run_case("variant_families", "hle") if "error" in v.data}
    assert configs | set(REFUSED_NAMES) == hle
    thesis = run_case("variant_families", "thesis")
    assert {v.data["input"]["variant"] for v in thesis if v.data["error"] == {"field": "$.variant"}} == set(REFUSED_NAMES)
