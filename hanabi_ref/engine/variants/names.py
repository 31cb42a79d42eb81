"""hanab.live variant names parsed into the variant model [VAR-names, VAR-basic,
VAR-suit-table, VAR-ambiguous, VAR-dual-colour, VAR-matryoshka, VAR-mixes, VAR-rules].

The names follow a small grammar (spec/variants.md): ``No Variant``, ``N Suits``,
``<Suit> (N Suits)``, ``<Suit> & <Suit> (N Suits)``, ``<Suit>-Ones`` / ``-Fives``,
``Deceptive-Ones`` / ``-Fives``, a rule prefix (``Up or Down``, ``Funnels`` ...) with at
most one special suit, the ambiguous, dual-colour and Matryoshka families and the named
mixes.  The suits of each name and their order are the ones hanab.live deals.  A name
outside the grammar, or a family we do not model, is refused with one line naming the
part [VAR-refused].
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from hanabi_ref.engine.variants.model import (
    BASIC_RANKS,
    GameRules,
    NotSupported,
    SpecialColourTouch,
    SpecialRank,
    SuitKind,
    Variant,
)


def _own(name: str, abbreviation: str, **kind: object) -> SuitKind:
    """A suit touched by the clue colour of its own name [VAR-own-colour]."""
    return SuitKind(name, abbreviation, "listed", (name,), **kind)  # type: ignore[arg-type]


def _listed(name: str, abbreviation: str, *colours: str) -> SuitKind:
    """A suit touched by the listed clue colours: ambiguous, dual-colour [VAR-own-colour]."""
    return SuitKind(name, abbreviation, "listed", colours)


# [VAR-basic] the ordinary suits, each touched by its own colour.
BASIC_SUITS = {
    name: _own(name, name[0]) for name in ("Red", "Yellow", "Green", "Blue", "Purple", "Teal")
}

# [VAR-suit-table] the special suits that name variants, in hanab.live's order (the order
# decides which of "A & B" and "B & A" is the name of a combination).  Colour touch,
# rank touch, one of each (dark) and inverted (orange), from the variant descriptions.
SPECIAL_SUITS = {
    kind.name: kind
    for kind in (
        _own("Black", "K", one_of_each=True),
        SuitKind("Rainbow", "M", "all"),
        _own("Pink", "I", rank_touch="all"),
        SuitKind("White", "W", "none"),
        _own("Brown", "N", rank_touch="none"),
        SuitKind("Omni", "O", "all", rank_touch="all"),
        SuitKind("Null", "U", "none", rank_touch="none"),
        SuitKind("Muddy Rainbow", "M", "all", rank_touch="none"),
        SuitKind("Light Pink", "I", "none", rank_touch="all"),
        SuitKind("Prism", "I", "prism"),
        _own("Orange", "O", inverted=True),
        SuitKind("Dark Rainbow", "M", "all", one_of_each=True),
        SuitKind("Dark Pink", "I", "listed", ("Pink",), "all", one_of_each=True),
        SuitKind("Gray", "A", "none", one_of_each=True),
        SuitKind("Dark Brown", "N", "listed", ("Brown",), "none", one_of_each=True),
        SuitKind("Dark Omni", "O", "all", rank_touch="all", one_of_each=True),
        SuitKind("Dark Null", "U", "none", rank_touch="none", one_of_each=True),
        SuitKind("Cocoa Rainbow", "M", "all", rank_touch="none", one_of_each=True),
        SuitKind("Gray Pink", "I", "none", rank_touch="all", one_of_each=True),
        SuitKind("Dark Prism", "I", "prism", one_of_each=True),
        SuitKind("Dark Orange", "O", "listed", ("Orange",), one_of_each=True, inverted=True),
    )
}

# [VAR-ambiguous, VAR-dual-colour, VAR-matryoshka] suits that share or mix clue colours.
OTHER_SUITS = {
    kind.name: kind
    for kind in (
        _listed("Tomato", "T", "Red"), _listed("Mahogany", "M", "Red"), _listed("Carrot", "C", "Red"),
        _listed("Emerald", "E", "Green"), _listed("Olive", "O", "Green"),
        _listed("Berry", "B", "Blue"), _listed("Navy", "N", "Blue"), _listed("Sky", "S", "Blue"),
        _listed("Ice EA", "I", "Blue"), _listed("Aqua EA", "A", "Blue"), _listed("Sky EA", "S", "Blue"),
        _listed("Berry EA", "B", "Blue"), _listed("Navy EA", "N", "Blue"), _listed("Ocean EA", "O", "Blue"),
        _listed("Tangerine", "T", "Red", "Yellow"), _listed("Peach", "P", "Red", "Yellow"),
        _listed("Ruby", "R", "Red"), _listed("Yam", "Y", "Red", "Yellow"),
        _listed("Geas", "G", "Red", "Yellow", "Green"), _listed("Beatnik", "B", "Red", "Yellow", "Green", "Blue"),
        _listed("Plum", "P", "Red", "Yellow", "Green", "Blue", "Purple"),
        _listed("Taupe", "T", "Red", "Yellow", "Green", "Blue", "Purple", "Teal"),
        _listed("Gold", "G", "Red", "Green"), _listed("Violet", "V", "Red", "Blue"),
        _listed("Magenta", "M", "Red", "Blue"), _listed("Cardinal", "C", "Red", "Purple"),
        _listed("Maroon", "M", "Red", "Black"), _listed("Lime", "L", "Yellow", "Green"),
        _listed("Jungle", "J", "Yellow", "Green"), _listed("Jade", "J", "Yellow", "Blue"),
        _listed("Tan", "T", "Yellow", "Black"), _listed("Cyan", "C", "Green", "Blue"),
        _listed("Indigo", "I", "Blue", "Purple"), _listed("Cobalt", "C", "Blue", "Black"),
    )
}

ALL_SUITS = {**BASIC_SUITS, **SPECIAL_SUITS, **OTHER_SUITS}

# [VAR-basic] the ordinary suits of a game of n suits, before special suits are added.
BASIC_SUIT_LISTS = {
    0: (), 1: ("Red",), 2: ("Red", "Blue"), 3: ("Red", "Green", "Blue"),
    4: ("Red", "Yellow", "Green", "Blue"), 5: ("Red", "Yellow", "Green", "Blue", "Purple"),
    6: ("Red", "Yellow", "Green", "Blue", "Purple", "Teal"),
}

# [VAR-ambiguous] base suits by suit count; the counts with "& X" are the base plus one.
AMBIGUOUS = {2: ("Tomato", "Mahogany"), 4: ("Tomato", "Mahogany", "Berry", "Navy"),
             6: ("Tomato", "Mahogany", "Emerald", "Olive", "Berry", "Navy")}
VERY_AMBIGUOUS = {3: ("Berry", "Navy", "Sky"), 6: ("Tomato", "Mahogany", "Carrot", "Berry", "Navy", "Sky")}
EXTREMELY_AMBIGUOUS = {n: ("Ice EA", "Aqua EA", "Sky EA", "Berry EA", "Navy EA", "Ocean EA")[:n] for n in (4, 5, 6)}
# [VAR-dual-colour]
DUAL_COLOUR = {3: ("Tangerine", "Violet", "Jade"), 5: ("Tangerine", "Lime", "Cyan", "Indigo", "Cardinal"),
               6: ("Tangerine", "Violet", "Maroon", "Jade", "Tan", "Cobalt")}
# [VAR-matryoshka]
MATRYOSHKA = ("Ruby", "Yam", "Geas", "Beatnik", "Plum", "Taupe")
# Suits whose "& X" variant would repeat another ambiguous variant: hanab.live omits them.
AMBIGUOUS_DUPLICATES = frozenset({"Rainbow", "Prism", "Dark Prism"})

# [VAR-mixes] the named mixes, suit by suit.
MIXES = {
    "Special Mix (5 Suits)": ("Black", "Rainbow", "Pink", "White", "Brown"),
    "Special Mix (6 Suits)": ("Black", "Rainbow", "Pink", "White", "Brown", "Null"),
    "Ambiguous Mix": ("Tomato", "Mahogany", "Sky", "Navy", "Black", "White"),
    "Dual-Color Mix": ("Tangerine", "Violet", "Jade", "Black", "Rainbow", "White"),
    "Ambiguous & Dual-Color Mix": ("Peach", "Tangerine", "Magenta", "Violet", "Lime", "Jungle"),
    "Candy Corn Mix (5 Suits)": ("Red", "Tangerine", "Yellow", "White", "Brown"),
    "Candy Corn Mix (6 Suits)": ("Red", "Tangerine", "Yellow", "White", "Brown", "Cocoa Rainbow"),
    "Holiday Mix (5 Suits)": ("Dark Pink", "Green", "White", "Sky", "Navy"),
    "Holiday Mix (6 Suits)": ("Light Pink", "Red", "Green", "White", "Sky", "Navy"),
    "Valentine Mix (5 Suits)": ("Red", "Pink", "White", "Light Pink", "Cocoa Rainbow"),
    "Valentine Mix (6 Suits)": ("Red", "Pink", "White", "Light Pink", "Cocoa Rainbow", "Null"),
    "RGB Mix (6 Suits)": ("Red", "Gold", "Green", "Cyan", "Blue", "Violet"),
}

# [VAR-rules] rule prefixes that may be followed by "& <special suit>".
RULE_PREFIXES = {
    "Up or Down": GameRules(up_or_down=True),
    "Funnels": GameRules(funnels=True),
    "Chimneys": GameRules(chimneys=True),
    "Scarce Ones": GameRules(scarce_ones=True),
    "Critical Fours": GameRules(critical_fours=True),
    "Clue Starved": GameRules(clue_starved=True),
    "Odds and Evens": GameRules(odds_and_evens=True),
    "Alternating Clues": GameRules(alternating_clues=True),
}
# [VAR-blind, VAR-mute] rule names that stand alone, with the ordinary suits only.
LONE_RULES = {
    "Color Blind": GameRules(colour_blind=True),
    "Number Blind": GameRules(number_blind=True),
    "Totally Blind": GameRules(colour_blind=True, number_blind=True),
    "Color Mute": GameRules(colour_mute=True),
    "Number Mute": GameRules(number_mute=True),
}
# [VAR-refused] families whose rules we do not model yet (spec/variants.md "Not yet").
REFUSED_PREFIXES = ("Synesthesia", "Sudoku", "Throw It in a Hole", "Cow & Pig", "Duck", "Reversed")

NO_RULES = GameRules()
RANK_WORDS = {"Ones": 1, "Fives": 5}
SUITS_RE = re.compile(r"^(?P<head>.+) \((?P<count>\d+) Suits\)$")
SPECIAL_RANK_RE = re.compile(r"^(?P<source>[A-Za-z-]+)-(?P<word>Ones|Fives)$")


def parse_variant(name: str) -> Variant:
    """The variant a hanab.live name denotes, or :class:`NotSupported` naming the part
    [VAR-names, VAR-refused]."""
    if name == "No Variant":
        return make_variant(name, BASIC_SUIT_LISTS[5])
    if name in MIXES:
        return make_variant(name, MIXES[name])
    if name in ("3 Suits", "4 Suits", "6 Suits"):
        return make_variant(name, BASIC_SUIT_LISTS[int(name[0])])
    match = SUITS_RE.match(name)
    if match is None:
        raise NotSupported(f"{name}: not a variant name we know (expected '<family> (N Suits)')")
    head, count = match["head"], int(match["count"])
    if not 3 <= count <= 6:
        raise NotSupported(f"{count} Suits: not supported (variant {name!r}; 3 to 6 suits)")
    _refuse_unmodelled(name, head)
    for parse in (_parse_ambiguous_family, _parse_lone_rule, _parse_rule_prefix, _parse_special_rank):
        variant = parse(name, head, count)
        if variant is not None:
            return variant
    return _parse_special_suits(name, head, count)


def _refuse_unmodelled(name: str, head: str) -> None:
    """[VAR-refused] a family in spec/variants.md "Not yet" is refused by its name."""
    for prefix in REFUSED_PREFIXES:
        if head == prefix or head.startswith((prefix + " ", prefix + "-")):
            raise NotSupported(f"{prefix}: not supported (variant {name!r})")
    if " Reversed" in head:
        raise NotSupported(f"Reversed: not supported (variant {name!r})")


def _parse_ambiguous_family(name: str, head: str, count: int) -> Variant | None:
    """[VAR-ambiguous, VAR-dual-colour, VAR-matryoshka] families with their own base suits."""
    family, _, extra = head.partition(" & ")
    tables: dict[str, tuple[dict[int, tuple[str, ...]], Iterable[int], frozenset[str]]] = {
        "Ambiguous": (AMBIGUOUS, (3, 5), AMBIGUOUS_DUPLICATES),
        "Very Ambiguous": (VERY_AMBIGUOUS, (4,), AMBIGUOUS_DUPLICATES),
        "Extremely Ambiguous": (EXTREMELY_AMBIGUOUS, (5, 6), AMBIGUOUS_DUPLICATES),
        "Dual-Color": (DUAL_COLOUR, (4, 6), frozenset()),
        "Matryoshka": ({n: MATRYOSHKA[:n] for n in range(3, 7)}, range(3, 7), frozenset()),
    }
    if family not in tables:
        return None
    bases, counts_with_extra, excluded = tables[family]
    if not extra:
        if count not in bases:
            raise NotSupported(f"{family} ({count} Suits): not a variant (variant {name!r})")
        return make_variant(name, bases[count])
    suit = _special_suit(name, extra)
    base = bases.get(count - 1) if family != "Matryoshka" else MATRYOSHKA[: count - 1]
    if count not in counts_with_extra or base is None or (suit in excluded and (family != "Ambiguous" or count == 3)):
        raise NotSupported(f"{family} & {suit} ({count} Suits): not a variant (variant {name!r})")
    return make_variant(name, (*base, suit))


def _parse_lone_rule(name: str, head: str, count: int) -> Variant | None:
    """[VAR-blind, VAR-mute] a rule that comes with the ordinary suits only."""
    if head not in LONE_RULES:
        return None
    return make_variant(name, BASIC_SUIT_LISTS[count], rules=LONE_RULES[head])


def _parse_rule_prefix(name: str, head: str, count: int) -> Variant | None:
    """[VAR-rules] ``<Rule> (N Suits)`` or ``<Rule> & <special suit> (N Suits)``."""
    rule, _, extra = head.partition(" & ")
    if rule not in RULE_PREFIXES:
        return None
    suits = BASIC_SUIT_LISTS[count] if not extra else (*BASIC_SUIT_LISTS[count - 1], _special_suit(name, extra))
    return make_variant(name, suits, rules=RULE_PREFIXES[rule])


def _parse_special_rank(name: str, head: str, count: int) -> Variant | None:
    """[VAR-special-rank, VAR-deceptive] ``<Suit>-Ones`` / ``-Fives``, alone or ``& <suit>``."""
    modifier, _, extra = head.partition(" & ")
    match = SPECIAL_RANK_RE.match(modifier)
    if match is None:
        return None
    special = special_rank(name, match["source"].replace("-", " "), RANK_WORDS[match["word"]])
    suits = BASIC_SUIT_LISTS[count] if not extra else (*BASIC_SUIT_LISTS[count - 1], _special_suit(name, extra))
    return make_variant(name, suits, special=special)


def special_rank(name: str, source: str, rank: int) -> SpecialRank:
    """The rank modifier named by a suit (or ``Deceptive``) and a rank [VAR-special-rank,
    VAR-deceptive]: the suit's colour and rank touch carry over to the rank; a dark,
    prism or orange suit names no modifier."""
    if source == "Deceptive":
        return SpecialRank(rank, f"Deceptive-{_word(rank)}", "normal", "deceptive")
    kind = SPECIAL_SUITS.get(source)
    if kind is None or kind.one_of_each or kind.colour_touch == "prism" or kind.inverted:
        raise NotSupported(f"{source.replace(' ', '-')}-{_word(rank)}: not a rank modifier (variant {name!r})")
    colour: SpecialColourTouch = "all" if kind.colour_touch == "all" else "none" if kind.colour_touch == "none" else "normal"
    return SpecialRank(rank, f"{source.replace(' ', '-')}-{_word(rank)}", colour, kind.rank_touch)


def _word(rank: int) -> str:
    return next(word for word, value in RANK_WORDS.items() if value == rank)


def _parse_special_suits(name: str, head: str, count: int) -> Variant:
    """[VAR-single-suit, VAR-two-suits] ``<Suit> (N Suits)`` or ``<A> & <B> (N Suits)``."""
    parts = head.split(" & ")
    if len(parts) == 1:
        return make_variant(name, (*BASIC_SUIT_LISTS[count - 1], _special_suit(name, parts[0])))
    if len(parts) != 2:
        raise NotSupported(f"{head}: not a variant name we know (variant {name!r})")
    first, second = (_special_suit(name, part) for part in parts)
    order = list(SPECIAL_SUITS)
    if order.index(first) >= order.index(second):
        raise NotSupported(f"{head}: not a variant (hanab.live names it '{second} & {first}')")
    if _alike(SPECIAL_SUITS[first], SPECIAL_SUITS[second]):
        raise NotSupported(f"{head}: not a variant (the two suits are touched alike)")
    if count == 3 and _needs_two_clueable(first, second):
        raise NotSupported(f"{head} (3 Suits): not a variant (too few suits with their own colour)")
    return make_variant(name, (*BASIC_SUIT_LISTS[count - 2], first, second))


def _alike(first: SuitKind, second: SuitKind) -> bool:
    """Two special suits hanab.live does not combine: same colour and rank touch."""
    return (first.colour_touch, first.rank_touch) == (second.colour_touch, second.rank_touch)


def _needs_two_clueable(first: str, second: str) -> bool:
    """Rainbow and Prism with 3 suits need two other suits that a colour names."""
    for one, other in ((first, second), (second, first)):
        if one in ("Rainbow", "Prism") and SPECIAL_SUITS[other].colour_touch in ("all", "none"):
            return True
    return False


def _special_suit(name: str, part: str) -> str:
    if part not in SPECIAL_SUITS:
        raise NotSupported(f"{part}: not a special suit we know (variant {name!r})")
    return part


def make_variant(
    name: str,
    suit_names: Iterable[str],
    *,
    rules: GameRules = NO_RULES,
    special: SpecialRank | None = None,
) -> Variant:
    """A variant from its suit names, with the clue colours and rank clues that follow
    [VAR-colours, VAR-clue-ranks, VAR-mute]."""
    suits = tuple(ALL_SUITS[suit] for suit in suit_names)
    colours = () if rules.colour_mute else derive_colours(suits)
    return Variant(name, suits, colours, clue_ranks(rules, special), special, rules)


def derive_colours(suits: Iterable[SuitKind]) -> tuple[str, ...]:
    """[VAR-colours] every colour some suit lists, in the order of first appearance; an
    all-colour suit adds none of its own."""
    colours: list[str] = []
    for suit in suits:
        if suit.colour_touch == "listed":
            colours.extend(colour for colour in suit.colours if colour not in colours)
    return tuple(colours)


def clue_ranks(rules: GameRules, special: SpecialRank | None) -> tuple[int, ...]:
    """[VAR-clue-ranks] the rank clues that exist: 1-5, none under Number Mute, Odd and Even
    (1, 2) under Odds and Evens, and without the special rank when it is touched by every
    rank, by none or deceptively."""
    if rules.number_mute:
        return ()
    if rules.odds_and_evens:
        return (1, 2)
    if special is not None and special.rank_touch != "normal":
        return tuple(rank for rank in BASIC_RANKS if rank != special.rank)
    return BASIC_RANKS
