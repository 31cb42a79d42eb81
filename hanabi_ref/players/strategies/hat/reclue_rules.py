"""The rules of the hat player with re-cluing, as functions of what every seat records
(spec/hat.md section 5; the proof is proofs/hat_decoding.md, Part 2).

Every function here reads the same public bookkeeping (H-common): a :class:`Round` per
clue (the cluer, the number, the public numbers and the hands at the clue, the clues
each clued seat still held, the first actions of the clued seats since), the
:class:`CardFacts` of the configuration and, for the modified seat, a
:class:`ModifiedSeat`.  None of them changes what it is given; the seat of
:mod:`~hanabi_ref.players.strategies.hat.reclue` records the results.  One function per clause or
lemma, in the order of the spec:

* H-reclue-standard: :func:`is_useless`, :func:`expected_action`, :func:`is_wanted`,
  :func:`wanted_slots`, :func:`standard_action`, :func:`standard_values`;
* H-reclue-pins (Lemma 4): :func:`pins_of`;
* H-reclue-infer (Lemma 5): :func:`excluded_cards`, :func:`inferred_value`;
* H-reclue-decode (Theorem 2): :func:`resolved_values`;
* H-reclue-modified: :func:`modified_seat`, :func:`modified_action` and its rules;
  :func:`choose_modified` for the value actually given;
* H-reclue-discard: :func:`is_clue_preferred`;
* H-reclue-endgame (Lemma 6): :func:`gamble_slot`, :func:`is_gamble_readable`,
  :func:`is_late_discard`.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence

import attrs

from hanabi_ref.engine.cards import rank_table, suit_table
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.players.strategies.hat.core import recover
from hanabi_ref.players.strategies.hat.player import Snapshot, after, is_executable, snapshot_of
from hanabi_ref.players.strategies.adapt import ForeignMove
from hanabi_ref.players.strategies.hat.values import (
    CLUE_VALUE,
    DISCARD_VALUES,
    HAT_VALUES,
    IS_DISCARD,
    IS_PLAY,
    MODULUS,
    PLAY_VALUES,
    SLOT_OF,
    HatValue,
)
from hanabi_ref.players.strategies.knowledge import composition_counts
from hanabi_ref.players.strategies.thesis import is_worthless_at
from hanabi_ref.engine.view import PlayerView

Hand = tuple[int | None, ...]


@functools.lru_cache(maxsize=64)
def positions_in(order: tuple[int, ...]) -> Mapping[int, int]:
    """Each seat's index in ``order``, made once per order (callers only read it)."""
    return {seat: index for index, seat in enumerate(order)}


def hat_numbers(values: Mapping[int, HatValue]) -> dict[int, int]:
    """[H-values, H-sum] the values of a clue's seats as the integers the hat sum adds
    and the decode log records (the one place a value becomes an integer)."""
    return {seat: int(value) for seat, value in values.items()}


def clued_order(players: int, cluer: int) -> tuple[int, ...]:
    """[H-reclue] the seats a clue by ``cluer`` clues: every other seat, in turn order."""
    return tuple((cluer + offset) % players for offset in range(1, players))


# ------------------------------------------------------------------ the records


@attrs.frozen
class CardFacts:
    """What the rules read of the configuration: the deck's copies of each identity
    and each identity's suit and rank (0-based), read in the hot loops."""

    config: GameConfig
    values: int
    composition: tuple[int, ...]
    suit_of: tuple[int, ...]
    rank_of: tuple[int, ...]


@functools.lru_cache(maxsize=64)
def card_facts(config: GameConfig) -> CardFacts:
    """The :class:`CardFacts` of ``config``, made once per configuration (every seat of
    every game reads the same immutable tables)."""
    n = config.values
    composition = composition_counts(config)
    return CardFacts(config, n, composition, suit_table(n, len(composition)), rank_table(n, len(composition)))


class Pins:
    """[H-reclue-pins] what the earlier clues fix in a clue: each pinned seat's play,
    the seat each pinned card is played by, the clued progress and the modified seat
    (None when every seat is pinned).  One is made per clue resolved and per clue
    drafted: a plain class, which the compiled build makes a native class (a named
    tuple is built through an interpreted constructor).  Nothing changes one once made."""

    __slots__ = ("pins", "pinned", "progress", "modified")

    def __init__(self, pins: dict[int, HatValue], pinned: dict[int, int], progress: tuple[int, ...], modified: int | None) -> None:
        self.pins = pins
        self.pinned = pinned
        self.progress = progress
        self.modified = modified

    def _replace(self, *, modified: int | None) -> Pins:
        """A copy with another modified seat (as a named tuple's ``_replace``)."""
        return Pins(self.pins, self.pinned, self.progress, modified)


class Round:
    """One clue as every seat records it [H-common, H-reclue-decode]: the cluer, the
    seats it clues in acting order, the number, the public numbers when it was given,
    the hands the recording seat saw, the clues each clued seat still held, the actions
    of the clued seats since (value and hand before the action) and, once resolved, its
    :class:`Pins` and the value of every clued seat.

    What the clue was is fixed when it is recorded; the seat adds the first action of
    each clued seat as it sees it, and the pins and values once it resolves the clue
    (:meth:`set_pins`, ``values``)."""

    __slots__ = (
        "turn", "cluer", "order", "position", "number", "fields", "discarded", "hands", "prior",
        "acted", "values", "pins", "progress", "pinned", "modified",
    )

    def __init__(
        self,
        turn: int,
        cluer: int,
        order: tuple[int, ...],
        number: int,
        view: PlayerView,
        prior: dict[int, list[Round]],
        snap: Snapshot | None = None,
    ) -> None:
        self.turn, self.cluer, self.order, self.number = turn, cluer, order, number
        self.position = positions_in(order)
        """Each clued seat's index in ``order`` (shared by the rounds of one order: read only)."""
        if snap is None:
            snap = snapshot_of(view)
        self.fields, self.discarded = snap.fields, snap.discarded
        self.hands: Sequence[Hand] = view.cards
        self.prior = prior
        self.acted: dict[int, tuple[HatValue, Hand]] = {}
        self.values: dict[int, HatValue] | None = None
        self.pins: dict[int, HatValue] = {}
        self.progress: tuple[int, ...] = self.fields
        self.pinned: dict[int, int] = {}
        self.modified: int | None = None

    def hand(self, seat: int) -> Hand:
        """The seat's hand when the clue was given (a seat's hand changes only when it
        acts, and its first action after the clue is recorded with the hand before it)."""
        if seat in self.acted:
            return self.acted[seat][1]
        return self.hands[seat]

    def set_pins(self, pins: Pins) -> None:
        """Record what :func:`pins_of` found (kept flat: the hot loops read them)."""
        self.pins, self.pinned, self.progress, self.modified = pins.pins, pins.pinned, pins.progress, pins.modified


class ModifiedSeat:
    """The modified seat of a clue being drafted and what the rules of H-reclue-modified
    read about it (a plain class, not attrs: the compiled build makes it a native class,
    whose construction, once per clue drafted or resolved, costs a fraction of attrs'
    interpreted ``__init__``).  Nothing changes it once made.

    ``values``: the values of the other clued seats.  ``before``, ``later``: the clued
    seats acting before and after the modified seat.  ``dont_play``: the cards the later
    seats play.  ``standard``: x, the seat's standard action, playing no card a later
    seat plays.  ``tokens``: T, the tokens at the seat's turn.  ``final_tokens``,
    ``least_tokens``: F and L, the tokens from T along the later seats' values, the last
    count and the least.  ``plays``: how many other clued seats play.  ``progress``: the
    clued progress once the later seats' plays are made too.  ``endgame``: how many more
    cards are still to play than the stack holds (at most 0: no endgame)."""

    __slots__ = ("clue", "seat", "hand", "values", "before", "later", "dont_play", "standard", "tokens",
                 "final_tokens", "least_tokens", "plays", "progress", "fields", "endgame")

    def __init__(self, *, clue: Round, seat: int, hand: Hand, values: dict[int, HatValue], before: list[int],
                 later: list[int], dont_play: set[int], standard: HatValue, tokens: int, final_tokens: int,
                 least_tokens: int, plays: int, progress: tuple[int, ...], fields: tuple[int, ...],
                 endgame: int) -> None:
        self.clue = clue
        self.seat = seat
        self.hand = hand
        self.values = values
        self.before = before
        self.later = later
        self.dont_play = dont_play
        self.standard = standard
        self.tokens = tokens
        self.final_tokens = final_tokens
        self.least_tokens = least_tokens
        self.plays = plays
        self.progress = progress
        self.fields = fields
        self.endgame = endgame


# ------------------------------------------------------------------ H-reclue-standard


def is_useless(facts: CardFacts, card: int, progress: Sequence[int], discarded: Sequence[int]) -> bool:
    """The card can never be played: its rank is reached, or a lower card of its suit
    has no copy left [H-reclue-standard]; Definition 4.3's worthless card, with
    ``progress`` as the fields."""
    return is_worthless_at(facts.composition, progress, discarded, facts.values, facts.suit_of[card], facts.rank_of[card])


def is_critical(facts: CardFacts, card: int, discarded: Sequence[int]) -> bool:
    """[H-reclue-standard] one copy of the card is left."""
    return facts.composition[card] - discarded[card] <= 1


def expected_action(facts: CardFacts, clue: Round, hand: Sequence[int | None]) -> HatValue:
    """[H-reclue-standard] the expected action: discard the lowest slot holding a
    useless card, else the lower of two equal cards, else clue."""
    composition, progress, discarded, n = facts.composition, clue.progress, clue.discarded, facts.values
    suit_of, rank_of = facts.suit_of, facts.rank_of
    for slot, card in enumerate(hand):  # is_useless, its arguments read once
        if card is not None and is_worthless_at(composition, progress, discarded, n, suit_of[card], rank_of[card]):
            return DISCARD_VALUES[slot]
    for slot, card in enumerate(hand):
        if card is not None and card in hand[slot + 1 :]:
            return DISCARD_VALUES[slot]
    return CLUE_VALUE


def is_wanted(facts: CardFacts, clue: Round, card: int, position: int) -> bool:
    """[H-reclue-standard] the card is next on the clued progress and its missing
    predecessors are pinned to seats acting before the seat at ``position`` of the
    clue's order."""
    suit, rank = facts.suit_of[card], facts.rank_of[card]
    if rank != clue.progress[suit]:
        return False
    base = card - rank
    for predecessor in range(base + clue.fields[suit], card):  # usually none
        if clue.position[clue.pinned[predecessor]] >= position:
            return False
    return True


def wanted_slots(facts: CardFacts, clue: Round, seat: int, hand: Sequence[int | None]) -> list[int]:
    """[H-reclue-standard] the slots of ``hand`` holding cards ``seat`` wants."""
    position = clue.position[seat]
    progress, suit_of, rank_of = clue.progress, facts.suit_of, facts.rank_of
    return [
        slot
        for slot, card in enumerate(hand)
        # is_wanted's first test inline: most cards are not next on the progress
        if card is not None and rank_of[card] == progress[suit_of[card]] and is_wanted(facts, clue, card, position)
    ]


def standard_action(facts: CardFacts, clue: Round, seat: int, hand: Sequence[int | None], dont_play: set[int]) -> HatValue:
    """[H-reclue-standard, H-reclue-infer] play the lowest wanted card (critical first,
    then lowest slot) that no later clued seat plays and that H-reclue-infer does not
    exclude, else the expected action."""
    slots = wanted_slots(facts, clue, seat, hand)
    if slots:
        banned = excluded_cards(facts, clue, seat, hand) if clue.prior[seat] else None
        best: tuple[int, int, int] | None = None
        for slot in slots:
            card = hand[slot]
            if card is None:
                raise unseen()
            if card in dont_play or (banned is not None and card in banned):
                continue
            critical = facts.composition[card] - clue.discarded[card] <= 1  # is_critical
            key = (facts.rank_of[card], 0 if critical else 1, slot)
            if best is None or key < best:
                best = key
        if best is not None:
            return PLAY_VALUES[best[2]]
    return expected_action(facts, clue, hand)


def standard_values(facts: CardFacts, clue: Round, seats: Sequence[int]) -> dict[int, HatValue]:
    """[H-reclue-standard, H-last-to-first] the standard actions of the free seats
    ``seats`` (not the modified one), computed from the last to the first."""
    values: dict[int, HatValue] = {}
    dont_play: set[int] = set()
    for seat in reversed(seats):
        hand = clue.hand(seat)
        value = standard_action(facts, clue, seat, hand, dont_play)
        values[seat] = value
        if IS_PLAY[value]:
            card = hand[SLOT_OF[value]]
            if card is None:
                raise unseen()
            dont_play.add(card)
    return values


def unseen() -> ForeignMove:
    """[S-foreign-detect] a reading that an honest team's clues never lead to: it needs a
    card this seat cannot see, a clue not yet resolved, or a seat the clue left free."""
    return ForeignMove("H-reclue-decode", "the clues held lead to a reading no honest team's clues give")


# ------------------------------------------------------------------ H-reclue-pins (Lemma 4)


def pins_of(facts: CardFacts, clue: Round) -> Pins:
    """[H-reclue-pins] the pinned seats (a play from an earlier clue they still hold,
    the first such clue), the clued progress (the fields extended by the pinned plays)
    and the modified seat (the first free seat). The earlier clues are resolved."""
    n = facts.values
    pins: dict[int, HatValue] = {}
    pinned: dict[int, int] = {}
    for seat in clue.order:
        for earlier in clue.prior[seat]:
            if earlier.values is None:
                raise unseen()
            value = earlier.values[seat]
            if not IS_PLAY[value] and earlier.modified == seat:
                # Lemma 4: an honest team's modified seat acts before the next clue.
                raise ForeignMove("H-reclue-pins", f"seat {seat}, modified by the clue of turn {earlier.turn}, "
                                  "still holds it at a later clue (Lemma 4)")
            if IS_PLAY[value]:
                pins[seat] = value
                card = clue.hand(seat)[SLOT_OF[value]]
                if card is None:
                    raise unseen()
                pinned[card] = seat
                break
    progress = clue.fields
    if pinned:
        grown = list(progress)
        for suit in range(len(grown)):  # a pinned card counts once its predecessors do
            while grown[suit] < n and suit * n + grown[suit] in pinned:
                grown[suit] += 1
        progress = tuple(grown)
    for seat in clue.order:
        if seat not in pins:
            return Pins(pins, pinned, progress, seat)
    return Pins(pins, pinned, progress, None)


# ------------------------------------------------------------------ H-reclue-infer (Lemma 5)


def excluded_cards(facts: CardFacts, clue: Round, seat: int, hand: Sequence[int | None]) -> set[int]:
    """[H-reclue-infer] cards a free seat must not be told to play: those an earlier
    clue it still holds would have let it play (the others would read the play as
    that clue's)."""
    cards: set[int] = set()
    for earlier in clue.prior[seat]:
        for slot in wanted_slots(facts, earlier, seat, hand):
            card = hand[slot]
            if card is None:
                raise unseen()
            cards.add(card)
    return cards


def inferred_value(facts: CardFacts, clue: Round, seat: int) -> HatValue:
    """[H-reclue-infer] the value a free seat that has acted got from ``clue``: the
    modified seat's action; any other seat's action if it plays a card the seat wanted,
    else its expected action."""
    value, hand = clue.acted[seat]
    if seat == clue.modified:
        return value
    if IS_PLAY[value] and SLOT_OF[value] in wanted_slots(facts, clue, seat, hand):
        return value
    return expected_action(facts, clue, hand)


# ------------------------------------------------------------------ H-reclue-decode (Theorem 2)


def resolved_values(facts: CardFacts, clue: Round, resolver: int) -> dict[int, HatValue]:
    """[H-reclue-decode, H-recover] the value of every seat the clue clues, as seat
    ``resolver`` finds it (the clue's pins set): pins, the values inferred from the
    seats that acted, the standard actions of those still to act, and the one value
    left unknown from the number."""
    values = dict(clue.pins)
    waiting = []
    for seat in clue.order:
        if seat in values or seat == resolver:
            continue
        if seat in clue.acted:
            values[seat] = inferred_value(facts, clue, seat)
        elif seat != clue.modified:
            waiting.append(seat)
    values.update(standard_values(facts, clue, waiting))
    missing = [seat for seat in clue.order if seat not in values]
    if len(missing) > 1:  # an honest team leaves at most the resolver's own value unknown
        raise ForeignMove("H-reclue-decode", f"the clue of turn {clue.turn} leaves the values of seats {missing} unknown")
    if missing:
        others = list(values.values())  # a HatValue is its hat number
        values[missing[0]] = HAT_VALUES[recover(clue.number, others, MODULUS)]  # HatValue.from_number
    return values


# ------------------------------------------------------------------ H-reclue-modified


def modified_seat(facts: CardFacts, clue: Round, values: dict[int, HatValue], now: Snapshot, endgame: int) -> ModifiedSeat:
    """[H-reclue-modified] what the rules read about the clue's modified seat: its
    standard action x (no card a later seat plays), T, F, L and the plays; ``now`` is
    the public numbers when the clue is given and ``endgame`` the cards still to play
    beyond the stack."""
    m = clue.modified
    if m is None:
        raise unseen()
    hand = clue.hand(m)
    before = list(clue.order[: clue.position[m]])
    later = list(clue.order[clue.position[m] + 1 :])
    later_plays = [clue.hand(seat)[SLOT_OF[values[seat]]] for seat in later if IS_PLAY[values[seat]]]
    dont_play = {card for card in later_plays if card is not None}
    tokens = tokens_at_modified(facts, clue, before, values, now)
    final_tokens, least_tokens = tokens_along(facts, clue, later, values, tokens)
    return ModifiedSeat(
        clue=clue,
        seat=m,
        hand=hand,
        values=values,
        before=before,
        later=later,
        dont_play=dont_play,
        standard=standard_action(facts, clue, m, hand, dont_play),
        tokens=tokens,
        final_tokens=final_tokens,
        least_tokens=least_tokens,
        plays=sum(1 for other in before + later if IS_PLAY[values[other]]),
        progress=progress_after(facts, clue, later, values),
        fields=now.fields,
        endgame=endgame,
    )


def tokens_at_modified(facts: CardFacts, clue: Round, before: Sequence[int], values: dict[int, HatValue], now: Snapshot) -> int:
    """[H-reclue-modified, H-reclue-pins] T: the tokens now, less the clue, after the
    (pinned) seats acting before the modified seat."""
    snap = Snapshot(now.fields, now.discarded, now.tokens - 1, now.stack, now.errors)
    for seat in before:
        snap = after(facts.config, snap, values[seat], clue.hand(seat))  # type: ignore[arg-type]
    return snap.tokens


def tokens_along(facts: CardFacts, clue: Round, later: Sequence[int], values: dict[int, HatValue], tokens: int) -> tuple[int, int]:
    """[H-reclue-modified] F and L: the tokens from T along the later seats' values (a
    clue -1, a discard +1, a played five +1), the last count and the least (T
    included)."""
    n = facts.values
    final = least = tokens
    for seat in later:
        value = values[seat]
        if value is CLUE_VALUE:
            final -= 1
            least = min(least, final)
        elif IS_DISCARD[value]:
            final += 1
        else:
            card = clue.hand(seat)[SLOT_OF[value]]
            if card is None:
                raise unseen()
            if facts.rank_of[card] == n - 1:
                final += 1
    return final, least


def progress_after(facts: CardFacts, clue: Round, later: Sequence[int], values: dict[int, HatValue]) -> tuple[int, ...]:
    """[H-reclue-modified rule 6] the clued progress once the later seats' plays are
    made too."""
    progress = list(clue.progress)
    for seat in later:
        if IS_PLAY[values[seat]]:
            card = clue.hand(seat)[SLOT_OF[values[seat]]]
            if card is None:
                raise unseen()
            suit = facts.suit_of[card]
            progress[suit] = max(progress[suit], facts.rank_of[card] + 1)
    return tuple(progress)


def modified_action(facts: CardFacts, seat: ModifiedSeat) -> HatValue:
    """[H-reclue-modified] the value of the first of rules 1-9 that decides (rule 3
    only turns a clue x into a discard for the rules after it)."""
    if seat.standard.is_play:  # rule 1
        return modified_play(facts, seat)
    if seat.tokens >= facts.config.max_hints:  # rule 2: every token is there
        return HatValue.CLUE
    x = visible_discard(seat)  # rule 3
    if is_short_of_tokens(seat):  # rule 4
        return discard_when_short(facts, seat, x)
    if is_clue_for_the_plays(facts, seat):  # rule 5
        return HatValue.CLUE
    if is_clue_for_a_later_play(facts, seat):  # rule 6
        return HatValue.CLUE
    if x is not HatValue.CLUE and keeps_discard(facts, seat):  # rule 7
        return x
    if is_discard_for_few_plays(seat):  # rule 8
        return least_bad_discard(facts, seat, x)
    return HatValue.CLUE  # rule 9


def modified_play(facts: CardFacts, seat: ModifiedSeat) -> HatValue:
    """A modified seat whose standard action plays [H-reclue-modified rule 1]: short
    of tokens (L < 0 or F = 0) and not playing a five, it plays a wanted five no later
    seat plays, else with no endgame discards (expected action, else rule 4's least
    bad discard); otherwise it plays x."""
    n = facts.values
    clue, hand, x = seat.clue, seat.hand, seat.standard
    card = hand[x.slot]
    if card is None:
        raise unseen()
    if not (seat.least_tokens < 0 or seat.final_tokens == 0) or facts.rank_of[card] == n - 1:
        return x
    for slot in wanted_slots(facts, clue, seat.seat, hand):
        five = hand[slot]
        if five is None:
            raise unseen()
        if facts.rank_of[five] == n - 1 and five not in seat.dont_play:
            return HatValue.play(slot)
    if seat.endgame <= 0:
        useful = expected_action(facts, clue, hand)
        if useful is not HatValue.CLUE:
            return useful
        least_bad = extra_discard(facts, clue, hand)
        if least_bad is not HatValue.CLUE:
            return least_bad
    return x


def visible_discard(seat: ModifiedSeat) -> HatValue:
    """x for rules 4-8 [H-reclue-modified rule 3]: a standard action that clues becomes
    a discard that loses nothing, the first card a later seat of this clue plays, else
    the first card another clued seat holds (the cluer's own hand is unseen); else it
    stays a clue."""
    x = seat.standard
    if x is not HatValue.CLUE:
        return x
    for slot, card in enumerate(seat.hand):
        if card in seat.dont_play:
            return HatValue.discard(slot)
    clue = seat.clue
    others = {card for other in clue.order if other != seat.seat for card in clue.hand(other)}
    for slot, card in enumerate(seat.hand):
        if card in others:
            return HatValue.discard(slot)
    return HatValue.CLUE


def is_short_of_tokens(seat: ModifiedSeat) -> bool:
    """[H-reclue-modified rule 4] the tokens run out along the later seats (L <= 0)
    or end at one at most (F <= 1)."""
    return seat.least_tokens <= 0 or seat.final_tokens <= 1


def discard_when_short(facts: CardFacts, seat: ModifiedSeat, x: HatValue) -> HatValue:
    """The discard of a modified seat short of tokens [H-reclue-modified rule 4]: x,
    else the least bad discard, else with no token the highest card; with a token
    and no such discard, clue."""
    value = least_bad_discard(facts, seat, x)
    if value is HatValue.CLUE and seat.tokens <= 0:
        return highest_discard(facts, seat.hand)
    return value


def least_bad_discard(facts: CardFacts, seat: ModifiedSeat, x: HatValue) -> HatValue:
    """[H-reclue-modified rules 4 and 8] x when it discards, else the least bad
    discard (:func:`extra_discard`), else clue."""
    return x if x is not HatValue.CLUE else extra_discard(facts, seat.clue, seat.hand)


def is_clue_for_the_plays(facts: CardFacts, seat: ModifiedSeat) -> bool:
    """[H-reclue-modified rule 5] every other clued seat plays, some before the
    modified seat, and F >= 2: the modified seat clues."""
    return seat.plays == facts.config.players - 2 and bool(seat.before) and seat.final_tokens >= 2


def is_clue_for_a_later_play(facts: CardFacts, seat: ModifiedSeat) -> bool:
    """[H-reclue-modified rule 6] a later seat that does not play holds a card next
    on the progress once this clue's plays are made, its predecessors above the
    fields played by seats acting before it: the modified seat clues (its clue can
    make that card a play)."""
    n = facts.values
    clue = seat.clue
    player_of = players_of_cards(seat)
    for other in seat.later:
        if seat.values[other].is_play:
            continue
        position = clue.position[other]
        for card in clue.hand(other):
            if card is None:
                raise unseen()
            suit, rank = facts.suit_of[card], facts.rank_of[card]
            if rank != seat.progress[suit]:
                continue
            lower = [suit * n + r for r in range(seat.fields[suit], rank)]
            if all(clue.position[player_of[c]] < position for c in lower if c in player_of):
                return True
    return False


def players_of_cards(seat: ModifiedSeat) -> dict[int, int]:
    """[H-reclue-modified rule 6] the seat that plays each card this clue has played:
    the pinned cards and the plays of the other clued seats."""
    clue, values = seat.clue, seat.values
    player_of = dict(clue.pinned)
    for other in seat.before + seat.later:
        if values[other].is_play:
            card = clue.hand(other)[values[other].slot]
            if card is None:
                raise unseen()
            player_of[card] = other
    return player_of


def keeps_discard(facts: CardFacts, seat: ModifiedSeat) -> bool:
    """[H-reclue-modified rule 7] a modified seat whose x discards keeps it when there
    is no endgame, when nobody in the clue plays, or when the late-game discard holds
    (H-reclue-endgame)."""
    return seat.endgame <= 0 or seat.plays == 0 or is_late_discard(facts, seat)


def is_discard_for_few_plays(seat: ModifiedSeat) -> bool:
    """[H-reclue-modified rule 8] at most one other clued seat plays and there is no
    endgame: the modified seat discards rather than clues."""
    return seat.plays <= 1 and seat.endgame <= 0


def is_late_discard(facts: CardFacts, seat: ModifiedSeat) -> bool:
    """[H-reclue-endgame, H-reclue-modified rule 7] late in the game, whether the
    modified seat, holding only cards already played and with one play in this clue,
    discards rather than clues: when the cluer does not see every card still needed
    and tokens are short, or when the tokens cannot carry clues round to the next
    seat holding a needed card."""
    n = facts.values
    clue, m, hand, values, fields = seat.clue, seat.seat, seat.hand, seat.values, seat.fields
    if not (seat.plays == 1 and seat.endgame == 1 and all(c is not None and facts.rank_of[c] < fields[facts.suit_of[c]] for c in hand)):
        return False
    needed = {
        suit * n + rank
        for suit, height in enumerate(fields)
        for rank in range(height, n)
        if not is_useless(facts, suit * n + rank, fields, clue.discarded)
    }
    seen = {c for other in clue.order for c in clue.hand(other)}
    players = facts.config.players
    if not needed <= seen:
        return seat.tokens < players - 2
    playing = [other for other in clue.order if other in values and values[other].is_play]
    holders = [
        other for other in clue.order
        if other != m and sum(1 for c in clue.hand(other) if c in needed) > (1 if other in playing else 0)
    ]
    holders.sort(key=lambda other: (other - m) % players)
    if not holders:
        return True
    target = holders[0]
    hints = (target - m) % players
    for other in playing:
        if 0 < (other - m) % players < hints:
            hints -= 1
            card = clue.hand(other)[values[other].slot]
            if card is not None and facts.rank_of[card] == n - 1 and (other + 1) % players != target:
                hints -= 1
    return seat.tokens < hints


def highest_discard(facts: CardFacts, hand: Hand) -> HatValue:
    """[H-reclue-modified rule 4] with no token and no other discard: discard the
    card of highest rank (the lowest such slot)."""
    best = 0
    for slot, card in enumerate(hand):
        if card is None:
            raise unseen()
        top = hand[best]
        if top is None:
            raise unseen()
        if facts.rank_of[card] > facts.rank_of[top]:
            best = slot
    return HatValue.discard(best)


def extra_discard(facts: CardFacts, clue: Round, hand: Hand) -> HatValue:
    """The least bad discard [H-reclue-modified rule 4]: the highest card of which no
    copy is discarded, not a five and not next on the clued progress; else clue."""
    n = facts.values
    best: tuple[int, int] | None = None
    for slot, card in enumerate(hand):
        if card is None:
            raise unseen()
        rank = facts.rank_of[card]
        if clue.discarded[card] or rank == n - 1 or rank == clue.progress[facts.suit_of[card]]:
            continue
        if best is None or rank > best[0]:
            best = (rank, slot)
    return HatValue.CLUE if best is None else HatValue.discard(best[1])


# ------------------------------------------------------------------ the clue given


def drafted_values(facts: CardFacts, clue: Round, now: Snapshot, endgame: int) -> tuple[dict[int, HatValue], HatValue, int]:
    """[H-reclue-pins, H-reclue-standard, H-reclue-modified] the clue a seat would give
    (its pins set): the values of every seat but the modified one, the modified seat's
    preferred value and the tokens at its turn (CLUE and 0 when every seat is pinned)."""
    values = dict(clue.pins)
    free = [seat for seat in clue.order if seat not in values and seat != clue.modified]
    values.update(standard_values(facts, clue, free))
    if clue.modified is None:
        return values, CLUE_VALUE, 0
    seat = modified_seat(facts, clue, values, now, endgame)
    return values, modified_action(facts, seat), seat.tokens


def choose_modified(
    facts: CardFacts, clue: Round, values: dict[int, HatValue], preferred: HatValue, tokens_at: int, sendable: int
) -> HatValue:
    """[H-reclue-modified, H-reclue-infer, H-code-rainbow] the first candidate the
    modified seat can carry out, whose sum can be sent and which does not tell it to
    play an excluded card."""
    m = clue.modified
    if m is None:
        raise unseen()
    hand = clue.hand(m)
    banned: set[int] | None = None  # computed when a play comes up
    total = sum(values.values())  # a HatValue is its hat number
    for value in modified_candidates(facts, clue, m, hand, preferred):
        if IS_PLAY[value]:
            if banned is None:
                banned = excluded_cards(facts, clue, m, hand)
            if SLOT_OF[value] >= len(hand) or hand[SLOT_OF[value]] in banned:
                continue
        if not sendable >> ((total + value) % MODULUS) & 1:
            continue
        if is_executable(facts.config, value, tokens_at, len(hand)):
            return value
    return preferred


def modified_candidates(facts: CardFacts, clue: Round, m: int, hand: Hand, preferred: HatValue) -> Iterator[HatValue]:
    """[H-reclue-modified] the modified seat's values in the order they are tried:
    the preferred one, clue, the wanted plays, the safe discards, every discard
    (made as they are tried: the first one usually serves)."""
    yield preferred
    yield CLUE_VALUE
    for slot in wanted_slots(facts, clue, m, hand):
        yield PLAY_VALUES[slot]
    for slot in safe_slots(facts, clue, hand):
        yield DISCARD_VALUES[slot]
    yield from DISCARD_VALUES


def safe_slots(facts: CardFacts, clue: Round, hand: Hand) -> list[int]:
    """[H-reclue-modified] the slots holding a useless card or one that is not the
    last copy."""
    slots = []
    for slot, card in enumerate(hand):
        if card is None:
            raise unseen()
        if is_useless(facts, card, clue.progress, clue.discarded) or not is_critical(facts, card, clue.discarded):
            slots.append(slot)
    return slots


# ------------------------------------------------------------------ H-reclue-discard


def is_clue_preferred(clue: Round, values: dict[int, HatValue], first: HatValue, tokens_at: int, endgame: int, tokens: int) -> bool:
    """[H-reclue-discard] whether a seat that may discard a useless card clues instead,
    given the clue it would give (its values, the modified seat's value ``first`` and
    the tokens at its turn): yes when the clue hands the modified seat a play; no when
    the modified seat would have no token, with no endgame or with at most one token;
    else yes when the clue makes somebody play."""
    if clue.modified is not None and IS_PLAY[first]:
        return True
    if tokens_at == 0 or endgame <= 0 or tokens <= 1:
        return False
    return IS_PLAY[first] or any(IS_PLAY[v] for v in values.values())


# ------------------------------------------------------------------ H-reclue-endgame (Lemma 6)


def gamble_slot(facts: CardFacts, view: PlayerView, seat: int, discarded: Sequence[int], useless: int | None) -> int | None:
    """[H-reclue-endgame] the slot ``seat`` gambles, if the gamble's conditions hold:
    the stack empty, a strike to spare and a card the fields need that the seat sees
    in no other hand and that is not dead; its oldest card (the next oldest when that
    one is the card ``useless`` it knows useless)."""
    config = facts.config
    if view.deck_size > 0 or (config.max_errors is not None and view.strikes >= config.max_errors - 1):
        return None
    n = facts.values
    seen = seen_elsewhere(view, seat)
    missing = False
    for suit, height in enumerate(view.fireworks):
        if height >= n:
            continue
        card = suit * n + height
        if card in seen or discarded[card] >= facts.composition[card]:
            continue
        missing = True
    if not missing:
        return None
    ids = view.hands[seat]
    order = sorted(range(len(ids)), key=ids.__getitem__)
    return order[1] if len(order) > 1 and ids[order[0]] == useless else order[0]


def seen_elsewhere(view: PlayerView, seat: int) -> list[int | None]:
    """[H-reclue-endgame] the cards of every hand but ``seat``'s."""
    return [card for other, cards in enumerate(view.cards) if other != seat for card in cards]


def is_gamble_readable(
    facts: CardFacts,
    held: Sequence[Round],
    seat: int,
    possible: int,
    fields: Sequence[int],
    seen: Sequence[int | None],
    discarded: Sequence[int],
) -> bool:
    """[H-reclue-endgame] whether the others still read ``seat``'s values in the clues
    it holds (``held``, resolved) right after it gambles a slot of which it knows
    ``possible`` (a bit per identity): a gambled card is misread only when it is a card
    this seat wanted in a clue it holds but left to another seat of that clue. So the
    gamble waits while another seat plays there a card this seat wanted and the gambled
    card may be a copy of it (its knowledge allows it and a copy is unseen)."""
    for clue in held:
        if clue.values is None:
            raise unseen()
        position = clue.position[seat]
        for other, value in clue.values.items():
            if other == seat or not value.is_play:
                continue
            card = clue.hand(other)[value.slot]
            if card is None:
                raise unseen()
            if not possible >> card & 1 or not is_wanted(facts, clue, card, position):
                continue
            suit, rank = facts.suit_of[card], facts.rank_of[card]
            on_field = 1 if rank < fields[suit] else 0
            if facts.composition[card] - discarded[card] - on_field - seen.count(card) > 0:
                return False
    return True
