"""Machine check of proofs/clue_codes.md [H-avoid, H-code-9, H-code-5p, H-code-rainbow,
H-code-end, H-code-local, H-code-choice].

Expected facts come from the proof, not from the code:

* which hands are *broken* (no legal hint avoids the newest card) is computed three
  ways: by the closed forms of Corollaries 2-4 of clue_codes.md, by brute force over
  every hint with masks built here from the variant table of spec/rules.md section 6
  (independent of ``GameConfig``), and by the code; all three must agree on every hand;
* the numbers of broken hands are the counts derived by hand in the proof;
* which numbers of the 4- and 5-player 9-codes are sendable follows from Lemma 5.

Part A enumerates every hand of 1 to 4 cards (a newest card and the multiset of the
others, within the copy counts of each variant's deck) and checks the code's per-hand
function, the one :meth:`NewestCardCode.encode` applies to each target
[H-code-local]: every class's hint is legal under hanab-live rules, lies in its class,
is the first such hint in catalogue order, and decodes back; a class has no hint
exactly when the proof says.  Part B runs the public ``encode``/``decode``/``sendable``
of the 4- and 5-player codes, contracts included, for every cluer on tables of hands
that realise every pattern of broken and unbroken targets, and on a sample of Part A's
hands at every target position.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from functools import cache

import pytest

from hanabi_ref.engine.actions import Hint
from hanabi_ref.engine.cards import identity, members
from hanabi_ref.engine.legality import action_problem, touch_key
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.players.strategies.hat.codes import (
    AVOID,
    COLOUR_AVOID,
    COLOUR_NEWEST,
    PARTS,
    VALUE_AVOID,
    VALUE_NEWEST,
    CodeError,
    NewestCardCode,
    SeenHand,
    class_of,
    hint_tables,
    nine_code,
    seen_hand,
)
from hanabi_ref.engine.tables import tables_for

VARIANTS = ("No Variant", "6 Suits", "Black (6 Suits)", "Rainbow (6 Suits)")
RAINBOW = 5  # the sixth suit of Rainbow (6 Suits)
CLASSIC = (3, 2, 2, 2, 1)

Card = tuple[int, int]  # (value, suit), suit from 0


# ------------------------------------------------------------------ the variant table


@cache
def copies(variant: str) -> dict[Card, int]:
    """Copies of each card, from spec/rules.md section 6 (V-no-variant, V-6-suits,
    V-black, V-rainbow)."""
    suits = 5 if variant == "No Variant" else 6
    table = {}
    for suit in range(suits):
        counts = (1, 1, 1, 1, 1) if variant == "Black (6 Suits)" and suit == 5 else CLASSIC
        for value in range(1, 6):
            table[(value, suit)] = counts[value - 1]
    return table


@cache
def colour_suits(variant: str) -> tuple[frozenset[int], ...]:
    """The suits each clue colour touches [H-touch]: colour c touches suit c; in Rainbow
    (6 Suits) there are five colours and each also touches the rainbow suit."""
    if variant == "Rainbow (6 Suits)":
        return tuple(frozenset({c, RAINBOW}) for c in range(5))
    return tuple(frozenset({c}) for c in range(5 if variant == "No Variant" else 6))


@cache
def reference_hints(variant: str) -> tuple[tuple[str, int], ...]:
    """Every hint as (kind, value) in catalogue order: colours by index, then values."""
    colours = tuple(("colour", c) for c in range(len(colour_suits(variant))))
    return colours + tuple(("value", v) for v in range(1, 6))


def touches(variant: str, kind: str, value: int, card: Card) -> bool:
    """Whether a hint touches a card [2.16-2a-value, 2.16-2a-suit, H-touch]."""
    if kind == "value":
        return card[0] == value
    return card[1] in colour_suits(variant)[value]


# ------------------------------------------------------------------ the proof's facts


def avoid_suits(variant: str, suit: int) -> set[int]:
    """A(s): the suits touched by some colour that does not touch suit s (Lemma 1)."""
    result: set[int] = set()
    for touched in colour_suits(variant):
        if suit not in touched:
            result |= touched
    return result


def is_broken(variant: str, newest: Card, others: Sequence[Card]) -> bool:
    """Corollaries 2-4: no legal hint avoids the newest card iff every card equals the
    newest (ordinary newest card), or every card has its value (rainbow newest card)."""
    value, suit = newest
    if variant == "Rainbow (6 Suits)" and suit == RAINBOW:
        return all(card[0] == value for card in others)
    return all(card == newest for card in others)


def has_colour_avoid(variant: str, newest: Card, others: Sequence[Card]) -> bool:
    """Lemma 1, colour half: some other card's suit is in A(s)."""
    suits = avoid_suits(variant, newest[1])
    return any(card[1] in suits for card in others)


def has_value_avoid(newest: Card, others: Sequence[Card]) -> bool:
    """Lemma 1, value half: some other card has another value."""
    return any(card[0] != newest[0] for card in others)


# Numbers of broken hands (newest card, multiset of the others) derived in the proof
# (section "Counting the broken hands").
BROKEN_COUNTS = {
    ("No Variant", 4): 0,
    ("6 Suits", 4): 0,
    ("Black (6 Suits)", 4): 0,
    ("Rainbow (6 Suits)", 4): 200,
    ("No Variant", 3): 5,
    ("6 Suits", 3): 6,
    ("Black (6 Suits)", 3): 5,
    ("Rainbow (6 Suits)", 3): 96,
}


# ------------------------------------------------------------------ enumerating hands


def hands(variant: str, size: int) -> Iterator[tuple[Card, tuple[Card, ...]]]:
    """Every hand of ``size`` cards as (newest card, sorted other cards), each once,
    within the deck's copy counts."""
    table = copies(variant)
    cards = sorted(table)
    for newest in cards:
        left = dict(table)
        left[newest] -= 1
        for others in multisets(cards, left, size - 1, 0):
            yield newest, others


def multisets(cards: Sequence[Card], left: dict[Card, int], size: int, start: int) -> Iterator[tuple[Card, ...]]:
    """Every sorted tuple of ``size`` cards of ``cards[start:]``, each card at most
    ``left[card]`` times, in the order of ``itertools.combinations_with_replacement``."""
    if size == 0:
        yield ()
        return
    for index in range(start, len(cards)):
        card = cards[index]
        if left[card] == 0:
            continue
        left[card] -= 1
        for rest in multisets(cards, left, size - 1, index):
            yield (card, *rest)
        left[card] += 1


def config_for(variant: str, players: int) -> GameConfig:
    return make_config(players, "hanab-live", variant)


def ident(card: Card) -> int:
    return identity(card[0], card[1], 5)


def seen_of(newest: Card, others: Sequence[Card]) -> SeenHand:
    mask = 0
    for card in others:
        mask |= 1 << ident(card)
    return SeenHand(ident(newest), mask)


def hand_mask(newest: Card, others: Sequence[Card]) -> int:
    return seen_of(newest, others).others | 1 << ident(newest)


TouchKeys = dict[int, int]


def touch_keys(config: GameConfig, target_mask: dict[int, int]) -> TouchKeys:
    """The target hands' identity masks as the touch keys the engine's legality reads
    (:func:`~hanabi_ref.engine.legality.touch_key`)."""
    return {seat: touch_key(tables_for(config).touch_bits, members(mask)) for seat, mask in target_mask.items()}


def is_legal_hint(config: GameConfig, cluer: int, keys: TouchKeys, hint: Hint) -> bool:
    """Legality under hanab-live rules, asked of the engine, with one hint token left;
    ``keys`` are the target hands' :func:`touch_keys`."""
    return action_problem(tables_for(config), 1, cluer, 4, lambda seat: keys.get(seat), hint) is None


# ------------------------------------------------------------------ Part A: every hand


def expected_classes(variant: str, newest: Card, others: Sequence[Card]) -> dict[int, bool]:
    """Which classes hold a legal hint, by Lemma 1 and Corollaries 2-4."""
    return {
        COLOUR_NEWEST: True,
        VALUE_NEWEST: True,
        AVOID: not is_broken(variant, newest, others),
        COLOUR_AVOID: has_colour_avoid(variant, newest, others),
        VALUE_AVOID: has_value_avoid(newest, others),
    }


def in_class(cls: int, kind: str, touches_newest: bool) -> bool:
    if cls == COLOUR_NEWEST:
        return kind == "colour" and touches_newest
    if cls == VALUE_NEWEST:
        return kind == "value" and touches_newest
    if cls == AVOID:
        return not touches_newest
    return kind == ("colour" if cls == COLOUR_AVOID else "value") and not touches_newest


@cache
def touched_cards(variant: str) -> tuple[frozenset[Card], ...]:
    """For each hint of :func:`reference_hints`, the cards of the deck it touches."""
    return tuple(frozenset(card for card in copies(variant) if touches(variant, kind, value, card))
                 for kind, value in reference_hints(variant))


@cache
def classes_of(kind: str, touches_newest: bool) -> tuple[int, ...]:
    """The classes a hint of ``kind`` lies in, touching the newest card or not."""
    return tuple(cls for cls in range(5) if in_class(cls, kind, touches_newest))


def brute_force_classes(
    variant: str, newest: Card, others: Sequence[Card]
) -> dict[int, list[int]]:
    """For each class, the catalogue indices of its legal hints (touching some card)."""
    result: dict[int, list[int]] = {cls: [] for cls in range(5)}
    for index, ((kind, _), touched) in enumerate(zip(reference_hints(variant), touched_cards(variant))):
        on_newest = newest in touched
        if not on_newest and touched.isdisjoint(others):
            continue  # [2.16-2a-empty] touches no card: illegal under hanab-live
        for cls in classes_of(kind, on_newest):
            result[cls].append(index)
    return result


# The four-card hands of the six-suit variants (about 20 s together) run in the deep set
# only (python -m pytest -m deep); every smaller hand and No Variant's four-card hands
# run in the default suite.
EVERY_HAND = [
    pytest.param(variant, size, marks=pytest.mark.deep) if size == 4 and variant != "No Variant"
    else pytest.param(variant, size)
    for variant in VARIANTS for size in (1, 2, 3, 4)
]


@pytest.mark.checks("H-avoid", "H-code-choice", "H-code-rainbow", "H-code-end")
@pytest.mark.parametrize(("variant", "size"), EVERY_HAND)
def test_every_hand(variant: str, size: int) -> None:
    """[H-avoid, H-code-local, H-code-choice] every hand of ``size`` cards (1 to 4): the
    proof's closed forms, brute force and the code agree; the code's hints are legal, in
    class, first in catalogue order, and decode to their class; broken hands are counted."""
    config = config_for(variant, 4)
    tables = hint_tables(config)
    assert tables.masks == hint_tables(config_for(variant, 5)).masks
    catalogue = tables_for(config).action_catalogue.hints
    hints = reference_hints(variant)
    checked: set[SeenHand] = set()
    broken = 0
    for newest, others in hands(variant, size):
        expected = expected_classes(variant, newest, others)
        brute = brute_force_classes(variant, newest, others)
        assert {cls: bool(found) for cls, found in brute.items()} == expected, (variant, newest, others)
        broken += not expected[AVOID]
        seen = seen_of(newest, others)
        if seen in checked:
            continue  # the code sees the same (newest, other identities) as before
        checked.add(seen)
        target = 1 + len(checked) % 3  # the cluer is seat 0
        keys = touch_keys(config, {target: hand_mask(newest, others)})
        for cls in range(5):
            index = tables.class_hint(seen.newest, seen.others, cls)
            if index is None:
                assert not brute[cls], (variant, newest, others, cls)
                continue
            assert brute[cls] and index == brute[cls][0], (variant, newest, others, cls, index)
            hint = catalogue[target][index][0]
            assert (hint.kind, hint.subject) == hints[index]
            assert is_legal_hint(config, 0, keys, hint), (variant, newest, others, hint)
            on_newest = touches(variant, hint.kind, hint.subject, newest)
            for size_of_part, classes in PARTS.items():
                if cls in classes:
                    assert class_of(hint.kind, on_newest, size_of_part) == cls
    if size >= 3:
        assert broken == BROKEN_COUNTS[(variant, size)], (variant, size, broken)
    if size == 1:
        assert broken == sum(1 for count in copies(variant).values() if count)


@pytest.mark.checks("H-code-k")
def test_every_hint_has_one_class() -> None:
    """[H-code-9, H-code-5p, H-code-k] decoding partitions the hints to a target: by
    kind and whether the newest card is touched, each (kind, touched) pair lies in
    exactly one class of each part size that has a class for it."""
    for size, classes in PARTS.items():
        for kind in ("colour", "value"):
            for touched in (False, True):
                members = [cls for cls in classes if in_class(cls, kind, touched)]
                assert len(members) <= 1
                assert class_of(kind, touched, size) == (members[0] if members else None)
                assert members or (size == 2 and not touched)


# ------------------------------------------------------------------ Part B: the public code


Hand = tuple[Card, tuple[Card, ...]]


def broken_families(variant: str) -> list[list[Hand]]:
    """Broken hands, each family dealable together with UNBROKEN: three copies of R1,
    Y1, G1, B1 (Corollaries 2 and 3, three cards), and in Rainbow also four-card hands of
    one value 1..4 with a rainbow newest card (Corollary 4)."""
    triples: list[Hand] = [((1, suit), ((1, suit), (1, suit))) for suit in range(4)]
    if variant != "Rainbow (6 Suits)":
        return [triples]
    fours: list[Hand] = [((value, RAINBOW), ((value, 0), (value, 1), (value, 2))) for value in (1, 2, 3, 4)]
    return [triples, fours]


UNBROKEN: list[Hand] = [
    ((2, 0), ((3, 1), (4, 2), (5, 3))),
    ((2, 1), ((3, 2), (4, 3), (5, 0))),
    ((2, 2), ((3, 3), (4, 0), (5, 1))),
    ((2, 3), ((3, 0), (4, 1), (5, 2))),
]


def expected_sendable(players: int, broken: Sequence[bool]) -> int:
    """Lemma 5: 4 players: all but 3(i-1)+2 for each broken target i; 5 players: 0..7,
    and 8 unless every other hand is broken."""
    if players == 4:
        return sum(1 << x for x in range(9) if not (x % 3 == 2 and broken[x // 3]))
    return 0xFF | (0 if all(broken) else 1 << 8)


def check_table(code: NewestCardCode, variant: str, cluer: int, table: Sequence[Hand]) -> int:
    """Every number through the public code for one cluer and one hand per other seat
    (in seat order after the cluer); returns the sendable mask it found."""
    config = code.config
    p = config.players
    seen: list[SeenHand | None] = [None] * p
    masks: dict[int, int] = {}
    newest_of: dict[int, Card] = {}
    for offset, (newest, others) in enumerate(table, start=1):
        seat = (cluer + offset) % p
        seen[seat] = seen_of(newest, others)
        masks[seat] = hand_mask(newest, others)
        newest_of[seat] = newest
    keys = touch_keys(config, masks)
    broken = [is_broken(variant, newest, others) for newest, others in table]
    mask = code.sendable(cluer, seen)
    assert mask == expected_sendable(p, broken), (variant, p, cluer, broken, bin(mask))
    given = set()
    for number in range(9):
        if not mask >> number & 1:
            with pytest.raises(CodeError, match="H-code-error"):
                code.encode(cluer, seen, number)
            continue
        hint = code.encode(cluer, seen, number)
        assert is_legal_hint(config, cluer, keys, hint), (variant, cluer, number, hint)
        assert code.decode(cluer, hint, touches(variant, hint.kind, hint.subject, newest_of[hint.target])) == number
        given.add(hint)
    assert len(given) == mask.bit_count()  # distinct numbers, distinct hints
    # The partition is total: every legal hint of the cluer has a number, and exactly
    # the sendable numbers are hit.
    hit = 0
    for seat in masks:
        for hint, _ in tables_for(config).action_catalogue.hints[seat]:
            if is_legal_hint(config, cluer, keys, hint):
                hit |= 1 << code.decode(cluer, hint, touches(variant, hint.kind, hint.subject, newest_of[seat]))
    assert hit == mask
    return mask


@pytest.mark.checks("H-code-9", "H-code-5p", "H-code-rainbow", "H-code-end", "H-code-error", "H-code")
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", (4, 5))
def test_codes_on_every_pattern(variant: str, players: int) -> None:
    """[H-code-9, H-code-5p, H-code-rainbow, H-code-end, H-code-error] every cluer, every
    pattern of broken and unbroken targets: the sendable numbers are Lemma 5's, each
    round-trips through a legal hint, the others are refused."""
    code = nine_code(config_for(variant, players))
    assert code.modulus == 9
    unsendable_seen = 0
    for broken in broken_families(variant):
        assert all(is_broken(variant, *hand) for hand in broken)
        assert not any(is_broken(variant, *hand) for hand in UNBROKEN)
        for pattern in itertools.product((False, True), repeat=players - 1):
            table = [broken[i] if is_broken_target else UNBROKEN[i] for i, is_broken_target in enumerate(pattern)]
            for cluer in range(players):
                unsendable_seen += check_table(code, variant, cluer, table) != 0x1FF
    assert unsendable_seen > 0  # the refusals were exercised


def check_slot_orders(newest: Card, others: Sequence[Card]) -> None:
    """[H-newest] in every slot order, with card ids that make ``newest`` the card drawn
    last, the code reads the same hand."""
    cards = [newest, *others]
    for order in itertools.permutations(range(len(cards))):
        identities = [ident(cards[i]) for i in order]
        ids = [100 if i == 0 else 10 * slot + i for slot, i in enumerate(order)]
        assert seen_hand(ids, identities) == seen_of(newest, others)


# One in 499 of the three- and four-card hands by default (150 to 310 a variant, each at
# a target position and with a cluer in turn), one in 61 (about 2,500) in the deep set.
SAMPLING = [pytest.param(499, id="1-in-499"), pytest.param(61, id="1-in-61", marks=pytest.mark.deep)]


@pytest.mark.checks("H-newest", "H-code-9", "H-code-5p")
@pytest.mark.parametrize("every", SAMPLING)
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", (4, 5))
def test_codes_on_sampled_hands(variant: str, players: int, every: int) -> None:
    """[H-code-local, H-newest] one in ``every`` of the three- and four-card hands, at
    each target position in turn and with every cluer, unbroken hands elsewhere, through
    the public code; and the newest card read from card ids in every slot order."""
    code = nine_code(config_for(variant, players))
    count = 0
    for size in (3, 4):
        for index, hand in enumerate(hands(variant, size)):
            if index % every:
                continue
            position = count % (players - 1)
            table = [hand if i == position else UNBROKEN[i] for i in range(players - 1)]
            check_table(code, variant, count % players, table)
            check_slot_orders(*hand)
            count += 1
    assert count > 100
