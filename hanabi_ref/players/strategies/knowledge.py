"""What a seat knows about its own cards, as exact probabilities [S-know].

A seat's knowledge (spec/strategies.md, S-know): the composition of the deck, the cards it
sees (the other hands, the discard pile, the fields) and the knowledge set K_c of each of
its own cards.  The cards it does not see, its own hand and the stack, are a uniformly
random arrangement of the *unseen* cards: for identity x, r_x = copies of x in the deck
minus the copies it sees.  Conditioned on the knowledge sets, every assignment of
distinct unseen physical cards to the own slots with each slot's card in its K_c is
equally likely [S-posterior].

:class:`HandPosterior` counts those assignments exactly (integers, no sampling) with the
Moebius inversion over set partitions of the slots:

    #injective = sum over partitions pi of the slots of
                 prod over blocks B of (-1)^(|B|-1) (|B|-1)! c(A_B),

where A_B is the intersection of the slots' sets and c(A) the number of unseen physical
cards with identity in A.  P(slot i has an identity in E) is the count with slot i's set
cut to E, divided by the total.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Literal

import attrs

from hanabi_ref.engine.cards import all_identities, identity, suit_of, value_of
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.view import PlayerView
from hanabi_ref.engine.tables import tables_for

ClueKind = Literal["value", "colour"]


@functools.lru_cache(maxsize=64)
def composition_counts(config: GameConfig) -> tuple[int, ...]:
    """Copies of each identity in the deck, indexed by identity [2.9-cards]."""
    return tuple(count for suit in config.suits for count in suit.counts)


@attrs.frozen
class ClueTable:
    """Which hints touch each identity, read from the configuration's hint masks, so that
    a strategy tells a card only with a hint that touches it, under any variant
    [S-variants, VAR-engine-masks].

    ``own_value[x]``: the mask of the rank clue of x's own value when that clue exists
    (in ``clue_values``) and touches x, else 0; ``first_colour[x]``: the first clue
    colour whose clue touches x, or -1; ``touching[x]``: every hint (kind, subject, mask)
    that touches x, rank clues in ``clue_values`` order, then colours [S-hint-order];
    ``suit_masks[x]``: the identities of x's suit.  Under classic touch (every colour
    touches whole suits, rank clue v exactly the cards of value v) ``own_value`` is the
    value's rank mask and ``first_colour`` the least colour of the suit's ``touched_by``."""

    own_value: tuple[int, ...]
    first_colour: tuple[int, ...]
    touching: tuple[tuple[tuple[ClueKind, int, int], ...], ...]
    suit_masks: tuple[int, ...]

    def narrowing(self, card: int, known: int) -> tuple[ClueKind, int] | None:
        """The first hint (kind, subject) that touches ``card`` and shrinks its holder's
        knowledge set ``known``, or None [S-variants]."""
        for kind, subject, mask in self.touching[card]:
            if known & ~mask:
                return kind, subject
        return None


@functools.lru_cache(maxsize=64)
def clue_table(config: GameConfig) -> ClueTable:
    """The :class:`ClueTable` of a configuration, made once [S-variants]."""
    tables = tables_for(config)
    n = config.values
    size = n * config.suit_count
    clues: list[tuple[ClueKind, int, int]] = [("value", v, tables.value_masks[v - 1]) for v in tables.clue_values]
    clues += [("colour", c, mask) for c, mask in enumerate(tables.colour_masks)]
    own_value, first_colour, touching = [], [], []
    for card in all_identities(size):
        value = value_of(card, n)
        mask = tables.value_masks[value - 1] if value in tables.clue_values else 0
        own_value.append(mask if mask >> card & 1 else 0)
        first_colour.append(next((c for c, colour in enumerate(tables.colour_masks) if colour >> card & 1), -1))
        touching.append(tuple(clue for clue in clues if clue[2] >> card & 1))
    suit_masks = tuple(((1 << n) - 1) << identity(1, suit_of(card, n), n) for card in all_identities(size))
    return ClueTable(tuple(own_value), tuple(first_colour), tuple(touching), suit_masks)


CLASSIC_TOUCH_VARIANTS = ("No Variant", "6 Suits", "Rainbow (6 Suits)", "Black (6 Suits)")
"""The hanab.live variants the convention strategies play (spec/rules.md V-no-variant,
V-6-suits, V-rainbow, V-black); with "Custom" compositions and the thesis' Dutch Rainbow,
which have no variant model, these are the ones whose touch they were written for
[S-variants, H-configs, I-configs]."""


def is_classic_touch(config: GameConfig) -> bool:
    """Whether hints touch as in the thesis' Definition 2.16 [S-variants, 2.16-2a-value,
    2.16-2a-suit]: the rank clues are 1..n and clue v touches exactly the cards of value
    v, each clue colour touches whole suits and each suit is touched by one at least, no
    clue is blind (legal touching nothing) and no suit swaps play and discard
    (VAR-orange)."""
    tables = tables_for(config)
    n = config.values
    if tables.clue_values != tuple(range(1, n + 1)) or tables.value_masks != tables.rank_masks:
        return False
    if tables.free_hint_bits:
        return False
    suits = [((1 << n) - 1) << (index * n) for index in range(config.suit_count)]
    if any(mask & suit not in (0, suit) for mask in tables.colour_masks for suit in suits):
        return False
    if not all(any(mask & suit for mask in tables.colour_masks) for suit in suits):
        return False
    return tables.model is None or not any(kind.inverted for kind in tables.model.suits)


def classic_touch_problem(config: GameConfig) -> str | None:
    """Why a convention strategy does not play ``config``'s variant, as one line naming
    what it plays, or None [S-variants]: it plays classic touch (:func:`is_classic_touch`)
    in the variants of :data:`CLASSIC_TOUCH_VARIANTS` and custom compositions."""
    named = tables_for(config).model is None or config.variant in CLASSIC_TOUCH_VARIANTS
    if named and is_classic_touch(config):
        return None
    return (f"S-variants: variant {config.variant!r}: plays only variants whose hints touch as in No Variant "
            f"({', '.join(CLASSIC_TOUCH_VARIANTS)}, or a custom composition)")


def upward_stacks_problem(config: GameConfig) -> str | None:
    """Why a heuristic strategy does not play ``config``, or None [S-variants]: it reads
    a field as the height of a stack built upwards, which Up or Down's stacks are not
    (spec/variants.md VAR-engine-up-or-down): the rule set says whether they are
    (:attr:`~hanabi_ref.engine.variants.ruleset.RuleSet.upward`)."""
    if not tables_for(config).rule_set.upward:
        return (f"S-variants: variant {config.variant!r}: Up or Down is not played (the heuristics read a field as the "
                "height of a stack built upwards); the random strategy and a person play it")
    return None


def unseen_counts(view: PlayerView, composition: Sequence[int], include_hands: bool = True) -> list[int]:
    """r_x: copies of each identity the seat does not see (own hand and stack) [S-know].

    With ``include_hands=False`` the other hands are not subtracted: the counts of the
    cards outside D and F, what Definition 2.17's arguments alone tell [S-know-public]."""
    remaining = list(composition)
    if include_hands:
        for seat, cards in enumerate(view.cards):
            if seat != view.seat:
                for card in cards:
                    remaining[card] -= 1  # type: ignore[index]
    for _, card in view.discard:
        remaining[card] -= 1
    for _, card in view.played:
        remaining[card] -= 1
    return remaining


class CardWeights:
    """c(A) = sum of r_x over x in A, for bitmasks A, via bit planes of the counts.

    Built from the counts r_x, or (``counts`` empty) from the two planes of counts that
    are at most 3: bit 0 of every r_x in ``low``, bit 1 in ``high``."""

    __slots__ = ("planes", "low", "high", "counts")

    def __init__(self, counts: Sequence[int] = (), low: int = 0, high: int = 0) -> None:
        top = 0
        if counts:
            low = high = 0
            for x, r in enumerate(counts):
                if r:
                    if r & 1:
                        low |= 1 << x
                    if r & 2:
                        high |= 1 << x
                    if r > top:
                        top = r
            top = top.bit_length()
        else:
            top = 2 if high else 1 if low else 0
        self.counts = tuple(counts)
        # The usual decks have at most 3 copies of a card: two planes, no loop.
        if top <= 2:
            self.planes: tuple[tuple[int, int], ...] = ((0, low), (1, high))[:top]
        else:
            self.planes = tuple(
                (bit, sum(1 << x for x, r in enumerate(counts) if r >> bit & 1)) for bit in range(top)
            )
        self.low, self.high = low, high

    def __call__(self, mask: int) -> int:
        if len(self.planes) <= 2:
            return (mask & self.low).bit_count() + ((mask & self.high).bit_count() << 1)
        return sum((mask & plane).bit_count() << bit for bit, plane in self.planes)

    def without(self, cards: Iterable[int | None]) -> CardWeights:
        """The weights with one copy of each of ``cards`` taken away (each must have one).

        With two planes a copy is taken away by a two-bit decrement of that identity's
        count; no list of counts is built."""
        if len(self.planes) > 2:
            counts = list(self.counts)
            for card in cards:
                counts[card] -= 1  # type: ignore[index]
            return CardWeights(counts)
        low, high = _take(self.low, self.high, cards)
        return CardWeights(low=low, high=high)

    def without_hands(self, hands: Sequence[Sequence[int | None]], seat: int) -> CardWeights:
        """:meth:`without` the cards of every hand but ``seat``'s: the other hands a seat
        sees [S-know]."""
        if len(self.planes) > 2:
            return self.without([card for other, cards in enumerate(hands) if other != seat for card in cards])
        low, high = self.low, self.high
        for other, cards in enumerate(hands):
            if other != seat:
                low, high = _take(low, high, cards)
        return CardWeights(low=low, high=high)

    @property
    def support(self) -> int:
        """The identities with r_x > 0 (a bitmask)."""
        support = 0
        for _, plane in self.planes:
            support |= plane
        return support


def _take(low: int, high: int, cards: Iterable[int | None]) -> tuple[int, int]:
    """The two bit planes ``low``, ``high`` of counts at most 3 with one copy of each of
    ``cards`` taken away: a two-bit decrement of that identity's count."""
    for card in cards:
        bit = 1 << card  # type: ignore[operator]
        if low & bit:
            low ^= bit  # 1 -> 0 or 3 -> 2
        else:
            low |= bit  # 2 -> 1
            high ^= bit
    return low, high


def _blocks_with(subset: int, bit: int) -> tuple[tuple[int, int, int], ...]:
    """The blocks B of ``subset`` that contain slot bit ``bit``, each as (B, the Moebius
    coefficient (-1)^(|B|-1) (|B|-1)!, ``subset`` without B)."""
    rest = subset ^ bit
    entries = []
    sub = rest
    while True:
        block = sub | bit
        k = block.bit_count()
        entries.append((block, (-1) ** (k - 1) * _factorial(k - 1), subset ^ block))
        if sub == 0:
            break
        sub = (sub - 1) & rest
    return tuple(entries)


@functools.lru_cache(maxsize=16)
def _blocks(size: int) -> tuple[tuple[tuple[int, int, int], ...], ...]:
    """For every subset T of range(size) (as a bitmask): the blocks of T that contain
    T's lowest slot (a bounded cache of a pure function of the hand size)."""
    return ((),) + tuple(_blocks_with(subset, subset & -subset) for subset in range(1, 1 << size))


@functools.lru_cache(maxsize=256)
def _containing(size: int, slot: int) -> tuple[tuple[int, int, int], ...]:
    """The blocks of range(size) that contain ``slot`` (a bounded cache of a pure function
    of the hand size and a slot)."""
    return _blocks_with((1 << size) - 1, 1 << slot)


def _factorial(k: int) -> int:
    result = 1
    for i in range(2, k + 1):
        result *= i
    return result


class HandPosterior:
    """Exact counts of the own-hand assignments consistent with the seat's knowledge
    [S-posterior].

    ``masks[i]`` is slot i's knowledge set K_c; ``counts[x]`` is r_x.  ``total`` is the
    number of consistent assignments of distinct unseen physical cards to the slots;
    :meth:`count` the number in which slot i's card has an identity in ``event``."""

    def __init__(self, masks: Sequence[int], counts: Sequence[int]) -> None:
        self.weights = weight = CardWeights(counts)
        self.size = size = len(masks)
        self.masks = tuple(masks)
        full = 1 << size
        inter = [-1] * full
        weights = [0] * full
        for subset in range(1, full):
            low = subset & -subset
            common = inter[subset ^ low] & self.masks[low.bit_length() - 1]
            inter[subset] = common
            weights[subset] = weight(common)
        self.inter = inter
        ways = [1] * full
        for subset, entries in enumerate(_blocks(size)):
            if subset:
                total = 0
                for block, coef, rest in entries:
                    total += coef * weights[block] * ways[rest]
                ways[subset] = total
        self.ways = ways
        self.total = ways[-1]

    def count(self, slot: int, event: int) -> int:
        """Assignments in which slot ``slot`` holds an identity in ``event`` (a bitmask)."""
        inter, ways, weight = self.inter, self.ways, self.weights
        total = 0
        for block, coef, rest in _containing(self.size, slot):
            total += coef * weight(inter[block] & event) * ways[rest]
        return total


def component(masks: Sequence[int], slot: int, active: int = -1) -> int:
    """The slots (a bitmask over slot indices, within ``active``) connected to ``slot``
    through shared identities [S-components].

    Slots in different components draw from disjoint sets of unseen cards, so the
    posterior of one component does not depend on the others."""
    return _reach(masks, slot, active)[0]


def _reach(masks: Sequence[int], slot: int, active: int) -> tuple[int, int]:
    """(:func:`component` of ``slot``, the union of its slots' sets)."""
    members = 1 << slot
    reach = masks[slot]
    grew = True
    while grew:
        grew = False
        for other, mask in enumerate(masks):
            if mask & reach and not members >> other & 1 and active >> other & 1:
                members |= 1 << other
                reach |= mask
                grew = True
    return members, reach


def slot_probability(masks: Sequence[int], slot: int, event: int, weight: CardWeights, active: int = -1) -> Fraction:
    """P(slot ``slot`` holds an identity in ``event``), exactly [S-posterior, S-peel]; see
    :func:`slot_ratio`."""
    num, den = slot_ratio(masks, slot, event, weight, active)
    return Fraction(num, den)


def slot_ratio(masks: Sequence[int], slot: int, event: int, weight: CardWeights, active: int = -1) -> tuple[int, int]:
    """P(slot ``slot`` holds an identity in ``event``) as an unreduced integer ratio
    (num, den), den > 0 [S-posterior, S-peel].

    ``masks`` are the slots' sets restricted to unseen identities; only the slots in
    ``active`` (a bitmask) take part.  Three exact reductions come before the general
    count: other components are dropped (S-components); a slot whose set contains the
    sets of all the other slots of the component is dropped, since whatever they hold it
    has the same number of choices (S-peel); and a component of equal sets is uniform."""
    mask = masks[slot]
    while True:
        members, union = _reach(masks, slot, active)
        if members == 1 << slot:
            return weight(mask & event), weight(mask)
        # A set that contains the sets of all the other slots of the component is their
        # union (S-peel): the first such slot other than ``slot`` is dropped.
        peel = -1
        for k, other_mask in enumerate(masks):
            if other_mask == union and k != slot and members >> k & 1:
                peel = k
                break
        if peel < 0:
            break
        active &= ~(1 << peel)
    group = [k for k in range(len(masks)) if members >> k & 1]
    others = union  # the union of the whole group
    if others == mask and all(masks[k] == mask for k in group):
        return weight(mask & event), weight(mask)
    if others == mask:
        # The slot's set contains all the others: they hold m - 1 distinct cards of it,
        # the slot is uniform over the rest.
        rest = members & ~(1 << slot)
        num, den = 0, 1
        for k in group:
            if k != slot:
                k_num, k_den = slot_ratio(masks, k, event, weight, rest)
                num, den = num * k_den + k_num * den, den * k_den
        return weight(mask & event) * den - num, den * (weight(mask) - (len(group) - 1))
    local = group.index(slot)
    return exact_count(tuple(masks[k] for k in group), local, event, weight)


def exact_count(masks: tuple[int, ...], local: int, event: int, weights: CardWeights) -> tuple[int, int]:
    """(assignments with slot ``local``'s card in ``event``, all assignments) for the slot
    sets ``masks``; memoized on the masks, the event and the counts of the identities the
    masks allow (the only counts the answer depends on)."""
    union = 0
    for mask in masks:
        union |= mask
    return _exact_count(masks, local, event & union, tuple(plane & union for _, plane in weights.planes))


@functools.lru_cache(maxsize=1 << 16)
def _exact_count(masks: tuple[int, ...], local: int, event: int, planes: tuple[int, ...]) -> tuple[int, int]:
    posterior = _posterior(masks, planes)
    return posterior.count(local, event), posterior.total


@functools.lru_cache(maxsize=1 << 12)
def _posterior(masks: tuple[int, ...], planes: tuple[int, ...]) -> HandPosterior:
    size = max((plane.bit_length() for plane in planes), default=0)
    counts = [sum((plane >> x & 1) << bit for bit, plane in enumerate(planes)) for x in range(size)]
    return HandPosterior(masks, counts)
