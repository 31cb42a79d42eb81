"""The hat player with re-cluing: every clue reaches every other seat, and a later clue
can turn an earlier discard or clue instruction into a play [H-reclue].

This is the hat player of :mod:`~hanabi_ref.strategies.hat.player` with the changes the
source lists for March 2019 (spec/hat.md section 5):

* A clue clues every other seat.  A seat that already holds a *play* from an earlier
  clue keeps it: the new clue gives it that same play (it is *pinned*).  Every other
  seat is *free*: the first free seat gets the modified action, the others their
  standard action, computed last-to-first on the *clued progress* (the fields once
  every pinned play is made) [H-reclue-pins].
* A seat carries out the first play any of its clues gives it; without one, the value
  of its newest clue [H-reclue-turn].
* The standard action of a free seat is a play (a card next on the clued progress whose
  missing predecessors are pinned to seats acting before it), else its *expected*
  action: discard a useless card, else one of two equal cards, else clue.  The expected
  action depends only on the seat's hand and public numbers, so every other seat can
  compute it [H-reclue-standard].
* Hence a free seat given a discard may clue instead, and a seat given a clue with no
  token may discard: the others still know which value the clue gave it.  From a free
  seat's action the others recover its value: a play of a card it would have wanted is
  that play, anything else is its expected action.  A later clue never gives a free
  seat a play of such a card [H-reclue-infer].

All bookkeeping is common to the seats (H-common): the pending clues of each seat, the
clue numbers, the public numbers at each clue and the actions taken since.  A seat
resolves its pending clues, oldest first, at its own turn [H-reclue-decode].
"""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping, Sequence
from enum import IntEnum
from typing import Final

import attrs

from hanabi_ref.actions import Action, Discard, Hint, Play
from hanabi_ref.strategy import BaseStrategy, StrategyFactory
from hanabi_ref.rules import GameConfig
from hanabi_ref.state import Event
from hanabi_ref.strategies.hat.codes import ClueCode, decode_event, hat_code, seen_hands
from hanabi_ref.strategies.hat.core import hat_sum, recover
from hanabi_ref.strategies.hat.player import (
    CLUE,
    DISCARD,
    MODULUS,
    PLAY,
    SLOTS,
    DecodeLog,
    HatDecodingError,
    Snapshot,
    after,
    is_executable,
    reachable_score,
    snapshot_of,
    unsupported,
    value_of_action,
)
from hanabi_ref.strategies.knowledge import composition_counts
from hanabi_ref.strategies.params import Param, StrategySpec, Value
from hanabi_ref.strategies.thesis import is_worthless
from hanabi_ref.view import PlayerView

Hand = tuple[int | None, ...]


class HatValue(IntEnum):
    """One of the nine hat values [H-values]: play a slot, discard a slot, or clue.  A
    member's integer is the hat value of H-values (``player.PLAY + s``,
    ``player.DISCARD + s``, ``player.CLUE``), so the hat sum and the shared helpers of
    :mod:`.player` read it as it is; an integer becomes a member only through
    :meth:`from_number`."""

    PLAY_0 = 0
    PLAY_1 = 1
    PLAY_2 = 2
    PLAY_3 = 3
    DISCARD_0 = 4
    DISCARD_1 = 5
    DISCARD_2 = 6
    DISCARD_3 = 7
    CLUE = 8

    @staticmethod
    def from_number(number: int) -> HatValue:
        """[H-values, H-recover] the value a number in range(9) names: a recovered clue
        share or an observed action (the one place an integer becomes a value)."""
        return HAT_VALUES[number]

    @staticmethod
    def play(slot: int) -> HatValue:
        """[H-values] play ``slot``."""
        return HAT_VALUES[PLAY + slot]

    @staticmethod
    def discard(slot: int) -> HatValue:
        """[H-values] discard ``slot``."""
        return HAT_VALUES[DISCARD + slot]

    @property
    def is_play(self) -> bool:
        return self < DISCARD

    @property
    def is_discard(self) -> bool:
        return DISCARD <= self < CLUE

    @property
    def slot(self) -> int:
        """The slot a play or a discard names."""
        return self % SLOTS


HAT_VALUES: tuple[HatValue, ...] = tuple(HatValue)
"""The members by their integer (they are declared in the order of H-values)."""

# The same facts as module-level tables, for the hot paths: reading an enum member or
# property costs far more in CPython than indexing a tuple.
PLAY_VALUES: tuple[HatValue, ...] = HAT_VALUES[PLAY:DISCARD]
"""``PLAY_VALUES[s]`` is :meth:`HatValue.play` of slot s."""
DISCARD_VALUES: tuple[HatValue, ...] = HAT_VALUES[DISCARD:CLUE]
"""``DISCARD_VALUES[s]`` is :meth:`HatValue.discard` of slot s."""
CLUE_VALUE: Final = HatValue.CLUE
IS_PLAY: tuple[bool, ...] = tuple(value.is_play for value in HAT_VALUES)
"""``IS_PLAY[v]`` is ``v.is_play``."""
IS_DISCARD: tuple[bool, ...] = tuple(value.is_discard for value in HAT_VALUES)
"""``IS_DISCARD[v]`` is ``v.is_discard``."""
SLOT_OF: tuple[int, ...] = tuple(value.slot for value in HAT_VALUES)
"""``SLOT_OF[v]`` is ``v.slot``."""


@functools.lru_cache(maxsize=64)
def positions_in(order: tuple[int, ...]) -> Mapping[int, int]:
    """Each seat's index in ``order``, made once per order (callers only read it)."""
    return {seat: index for index, seat in enumerate(order)}


def hat_numbers(values: Mapping[int, HatValue]) -> dict[int, int]:
    """[H-values, H-sum] the values of a clue's seats as the integers the hat sum adds
    and the decode log records (the one place a value becomes an integer)."""
    return {seat: int(value) for seat, value in values.items()}


class Round:
    """One clue as every seat records it [H-common, H-reclue-decode]: the cluer, the
    seats it clues in acting order, the number, the public numbers when it was given,
    the hands the recording seat saw, the clues each clued seat still held, the actions
    of the clued seats since (value and hand before the action) and, once resolved, the
    value of every clued seat."""

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


@attrs.frozen(kw_only=True)
class ModifiedSeat:
    """The modified seat of a clue being drafted and what the rules of H-reclue-modified
    read about it."""

    clue: Round
    seat: int
    hand: Hand
    values: dict[int, HatValue]
    """The values of the other clued seats."""
    before: list[int]
    later: list[int]
    """The clued seats acting before and after the modified seat."""
    dont_play: set[int]
    """The cards the later seats play."""
    standard: HatValue
    """x: the seat's standard action, playing no card a later seat plays."""
    tokens: int
    """T: the tokens at the seat's turn."""
    final_tokens: int
    least_tokens: int
    """F and L: the tokens from T along the later seats' values, the last count and the least."""
    plays: int
    """How many other clued seats play."""
    progress: tuple[int, ...]
    """The clued progress once the later seats' plays are made too."""
    fields: tuple[int, ...]
    endgame: int
    """How many more cards are still to play than the stack holds (at most 0: no endgame)."""

class ReclueHatPlayer(BaseStrategy):
    """The hat player with re-cluing for one seat [H-reclue]."""

    def __init__(self, config: GameConfig, seat: int, log: DecodeLog | None = None) -> None:
        HAT_SPEC.check_config(config)  # also when built outside the command line
        self.config = config
        self.seat = seat
        self.n = n = config.values
        self.composition = composition_counts(config)
        self.suit_of = tuple(card // n for card in range(len(self.composition)))
        self.rank_of = tuple(card % n for card in range(len(self.composition)))
        """A card's suit and rank (0-based) by identity, read in the hot loops."""
        self.code: ClueCode = hat_code(config)
        self.pending: list[list[Round]] = [[] for _ in range(config.players)]
        self.deferred: list[Round] = []
        self.outgoing: Round | None = None
        self.useless: int | None = None
        self.drafted: tuple[int, tuple[Round, dict[int, HatValue], HatValue, int]] | None = None
        self.snapped: tuple[int, Snapshot] | None = None
        self.counted: tuple[int, tuple[int, ...], tuple[int, int] | None] = (0, (0,) * len(self.composition), None)
        """The discarded copies of each identity: how many cards of the discard pile were
        counted, the counts, and the last card counted (the pile only grows)."""
        self.reached: tuple[tuple[int, ...], tuple[int, ...], int] | None = None
        """The fields, the discarded counts and the reachable score of them (:meth:`cards_to_play`)."""
        self.orders = tuple(self.order_after(cluer) for cluer in range(config.players))
        """The seats a clue by each seat clues, in acting order."""
        self.log = log
        self.converted = 0
        """Plays this seat made on a later clue after an earlier one gave it no play."""

    # ------------------------------------------------------------------ card facts

    def is_useless(self, card: int, progress: Sequence[int], discarded: Sequence[int]) -> bool:
        """The card can never be played: its rank is reached, or a lower card of its suit
        has no copy left [H-reclue-standard]; Definition 4.3's worthless card, with
        ``progress`` as the fields."""
        return is_worthless(self.config, self.composition, progress, discarded, card)

    def is_critical(self, card: int, discarded: Sequence[int]) -> bool:
        return self.composition[card] - discarded[card] <= 1

    def expected(self, clue: Round, hand: Sequence[int | None]) -> HatValue:
        """[H-reclue-standard] the expected action: discard the lowest slot holding a
        useless card, else the lower of two equal cards, else clue."""
        config, composition, progress, discarded = self.config, self.composition, clue.progress, clue.discarded
        for slot, card in enumerate(hand):  # is_useless, its arguments read once
            if card is not None and is_worthless(config, composition, progress, discarded, card):
                return DISCARD_VALUES[slot]
        for slot, card in enumerate(hand):
            if card is not None and card in hand[slot + 1 :]:
                return DISCARD_VALUES[slot]
        return CLUE_VALUE

    def is_wanted(self, clue: Round, card: int, position: int) -> bool:
        """[H-reclue-standard] the card is next on the clued progress and its missing
        predecessors are pinned to seats acting before the seat at ``position`` of the
        clue's order."""
        suit, rank = self.suit_of[card], self.rank_of[card]
        if rank != clue.progress[suit]:
            return False
        base = card - rank
        for predecessor in range(base + clue.fields[suit], card):  # usually none
            if clue.position[clue.pinned[predecessor]] >= position:
                return False
        return True

    def wanted(self, clue: Round, seat: int, hand: Sequence[int | None]) -> list[int]:
        """[H-reclue-standard] the slots of ``hand`` holding cards ``seat`` wants."""
        position = clue.position[seat]
        progress, suit_of, rank_of = clue.progress, self.suit_of, self.rank_of
        return [
            slot
            for slot, card in enumerate(hand)
            # is_wanted's first test inline: most cards are not next on the progress
            if card is not None and rank_of[card] == progress[suit_of[card]] and self.is_wanted(clue, card, position)
        ]

    def excluded(self, clue: Round, seat: int, hand: Sequence[int | None]) -> set[int]:
        """[H-reclue-infer] cards a free seat must not be told to play: those an earlier
        clue it still holds would have let it play (the others would read the play as
        that clue's)."""
        cards: set[int] = set()
        for earlier in clue.prior[seat]:
            for slot in self.wanted(earlier, seat, hand):
                card = hand[slot]
                assert card is not None
                cards.add(card)
        return cards

    def standard(self, clue: Round, seat: int, hand: Sequence[int | None], dont_play: set[int]) -> HatValue:
        """[H-reclue-standard] play the lowest wanted card (critical first, then lowest
        slot) no later clued seat plays, else the expected action."""
        slots = self.wanted(clue, seat, hand)
        if slots:
            banned = self.excluded(clue, seat, hand) if clue.prior[seat] else None
            best: tuple[int, int, int] | None = None
            for slot in slots:
                card = hand[slot]
                assert card is not None
                if card in dont_play or (banned is not None and card in banned):
                    continue
                critical = self.composition[card] - clue.discarded[card] <= 1  # is_critical
                key = (self.rank_of[card], 0 if critical else 1, slot)
                if best is None or key < best:
                    best = key
            if best is not None:
                return PLAY_VALUES[best[2]]
        return self.expected(clue, hand)

    # ------------------------------------------------------------------ bookkeeping

    def prepare(self, clue: Round) -> None:
        """[H-reclue-pins] the pinned seats (a play from an earlier clue they still hold),
        the clued progress and the modified seat (the first free seat)."""
        n = self.n
        progress = list(clue.fields)
        pins: dict[int, HatValue] = {}
        pinned: dict[int, int] = {}
        for seat in clue.order:
            for earlier in clue.prior[seat]:
                assert earlier.values is not None, "an earlier clue is resolved first"
                value = earlier.values[seat]
                assert IS_PLAY[value] or earlier.modified != seat, "Lemma 4: a modified seat acts before the next clue"
                if IS_PLAY[value]:
                    pins[seat] = value
                    card = clue.hand(seat)[SLOT_OF[value]]
                    assert card is not None
                    pinned[card] = seat
                    break
        if pinned:
            for suit in range(len(progress)):  # the fields once the pinned plays are made
                while progress[suit] < n and suit * n + progress[suit] in pinned:
                    progress[suit] += 1
            clue.progress = tuple(progress)
        else:
            clue.progress = clue.fields
        clue.pins, clue.pinned = pins, pinned
        clue.modified = None
        for seat in clue.order:
            if seat not in pins:
                clue.modified = seat
                break

    def standard_values(self, clue: Round, seats: Sequence[int], values: dict[int, HatValue]) -> None:
        """[H-reclue-standard, H-last-to-first] the standard actions of the free seats
        ``seats`` (not the modified one), from the last to the first."""
        dont_play: set[int] = set()
        for seat in reversed(seats):
            hand = clue.hand(seat)
            value = self.standard(clue, seat, hand, dont_play)
            values[seat] = value
            if IS_PLAY[value]:
                card = hand[SLOT_OF[value]]
                assert card is not None
                dont_play.add(card)

    def infer(self, clue: Round, seat: int) -> HatValue:
        """[H-reclue-infer] the value a free seat that has acted got from ``clue``."""
        value, hand = clue.acted[seat]
        if seat == clue.modified:
            return value
        if IS_PLAY[value] and SLOT_OF[value] in self.wanted(clue, seat, hand):
            return value
        return self.expected(clue, hand)

    def resolve(self, clue: Round) -> None:
        """[H-reclue-decode] the value of every seat the clue clues: pins, the recorded
        actions of the seats that acted, the standard actions of those still to act, and
        the one value left unknown from the number [H-recover]."""
        self.prepare(clue)
        values = dict(clue.pins)
        waiting = []
        for seat in clue.order:
            if seat in values or seat == self.seat:
                continue
            if seat in clue.acted:
                values[seat] = self.infer(clue, seat)
            elif seat != clue.modified:
                waiting.append(seat)
        self.standard_values(clue, waiting, values)
        missing = [seat for seat in clue.order if seat not in values]
        assert len(missing) <= 1, "at most one clued seat's value is unknown"
        if missing:
            others = list(values.values())  # a HatValue is its hat number
            values[missing[0]] = HAT_VALUES[recover(clue.number, others, MODULUS)]  # HatValue.from_number
        clue.values = values
        if self.log is not None:
            self.log.record_round(clue.turn, self.seat, hat_numbers(values))

    def hand_before(self, view: PlayerView, event: Event) -> Hand:
        """The actor's hand (identities; the observer's own unknown except a shown card)
        before its action."""
        seat = event.player
        cards = view.cards[seat]
        action = event.action
        if isinstance(action, Hint):
            return cards
        kept = list(cards)
        if event.drawn is not None:  # the drawn card was not in the hand before
            del kept[view.hands[seat].index(event.drawn)]
        kept.insert(action.slot, event.card)
        return tuple(kept)

    def snapshot(self, view: PlayerView) -> Snapshot:
        """The public numbers of ``view`` [H-snapshot], computed once per turn (a game
        shows a seat one state per turn); equal to ``snapshot_of(view)``."""
        snapped = self.snapped
        if snapped is not None and snapped[0] == view.turn:
            return snapped[1]
        snap = Snapshot(view.fields, self.discard_counts(view), view.hints, view.stack_size, view.errors)
        self.snapped = (view.turn, snap)
        return snap

    def discard_counts(self, view: PlayerView) -> tuple[int, ...]:
        """The copies of each identity in ``view``'s discard pile, counted on from the
        cards counted at an earlier turn (a game's discard pile only grows)."""
        discard = view.discard
        done, counts, last = self.counted
        if done == len(discard) and (done == 0 or discard[done - 1] == last):
            return counts
        if not (done < len(discard) and (done == 0 or discard[done - 1] == last)):
            done, counts = 0, (0,) * len(self.composition)  # another pile: count afresh
        grown = list(counts)
        for _, card in discard[done:]:
            grown[card] += 1
        counts = tuple(grown)
        self.counted = (len(discard), counts, discard[-1])
        return counts

    def order_after(self, cluer: int) -> tuple[int, ...]:
        """The seats a clue by ``cluer`` clues: every other seat, in turn order [H-reclue]."""
        players = self.config.players
        return tuple((cluer + offset) % players for offset in range(1, players))

    def observe(self, view: PlayerView, event: Event) -> None:
        """[H-common] record the action in every clue the actor held, and a new clue."""
        actor = event.player
        held = self.pending[actor]
        if held:
            value = HAT_VALUES[value_of_action(event.action)]  # HatValue.from_number
            if actor == self.seat:  # this seat's own hand, with the card it showed
                before = self.hand_before(view, event)
                for clue in held:
                    clue.acted[actor] = (value, before)
            else:  # another seat's hand: as each clue saw it, for only the actor changes it
                for clue in held:
                    clue.acted[actor] = (value, clue.hands[actor])
            self.pending[actor] = []
        if actor == self.seat:
            for clue in self.deferred:  # clues held behind the play just made
                self.resolve(clue)
            self.deferred = []
        if isinstance(event.action, Hint):
            if actor == self.seat and self.outgoing is not None:
                clue = self.outgoing
                self.outgoing = None
            else:
                order = self.orders[actor]
                number = decode_event(self.code, event, view.hands[event.action.target])
                prior = {seat: list(self.pending[seat]) for seat in order}
                clue = Round(event.turn, actor, order, number, view, prior, self.snapshot(view))
            for seat in clue.order:
                self.pending[seat].append(clue)

    # ------------------------------------------------------------------ the turn

    def act(self, view: PlayerView) -> Action:
        """[H-reclue-turn] the first play a held clue gives; else the newest clue's value,
        a discard possibly replaced by a clue; unclued, clue."""
        held = self.pending[self.seat]
        last: Round | None = None
        for index, clue in enumerate(held):
            if clue.values is None:
                self.resolve(clue)
            assert clue.values is not None
            value = clue.values[self.seat]
            if IS_PLAY[value] and SLOT_OF[value] < len(view.own_hand):
                self.deferred = held[index + 1 :]
                self.converted += 1 if last is not None else 0
                return Play(SLOT_OF[value])
            if IS_DISCARD[value]:
                self.useless = view.hands[self.seat][SLOT_OF[value]]
            last = clue
        yolo = self.gamble(view)
        if yolo is not None:
            return yolo
        if last is None:
            return self.clue_or_discard(view, None)
        assert last.values is not None
        value = last.values[self.seat]
        if last.modified == self.seat:
            if is_executable(self.config, value, view.hints, len(view.own_hand)):
                return self.give_clue(view) if value is HatValue.CLUE else Discard(value.slot)
            return self.clue_or_discard(view, None)
        return self.clue_or_discard(view, value if value is not HatValue.CLUE else None)

    def gamble(self, view: PlayerView) -> Action | None:
        """[H-reclue-endgame] with the stack empty, a strike to spare and a card the
        fields need that this seat sees nowhere, play its oldest card (the next oldest
        when that one is known useless)."""
        config = self.config
        if view.stack_size > 0 or (config.max_errors is not None and view.errors >= config.max_errors - 1):
            return None
        n = self.n
        seen = [card for seat, cards in enumerate(view.cards) if seat != self.seat for card in cards]
        snap = self.snapshot(view)
        missing = False
        for suit, height in enumerate(view.fields):
            if height >= n:
                continue
            card = suit * n + height
            if card in seen or snap.discarded[card] >= self.composition[card]:
                continue
            missing = True
        if not missing:
            return None
        ids = view.hands[self.seat]
        order = sorted(range(len(ids)), key=ids.__getitem__)
        slot = order[1] if len(order) > 1 and ids[order[0]] == self.useless else order[0]
        return Play(slot) if self.gamble_is_readable(view, slot, seen, snap.discarded) else None

    def gamble_is_readable(self, view: PlayerView, slot: int, seen: Sequence[int | None], discarded: Sequence[int]) -> bool:
        """[H-reclue-endgame] whether the others still read this seat's values right
        after it gambles ``slot``: a gambled card is misread only when it is a card this
        seat wanted in a clue it holds but left to another seat of that clue. So the
        gamble waits while another seat plays there a card this seat wanted and the card
        in ``slot`` may be a copy of it (its knowledge allows it and a copy is unseen)."""
        n = self.n
        possible = view.own_knowledge[slot]
        for clue in self.pending[self.seat]:
            assert clue.values is not None
            position = clue.position[self.seat]
            for seat, value in clue.values.items():
                if seat == self.seat or not value.is_play:
                    continue
                card = clue.hand(seat)[value.slot]
                assert card is not None
                if not possible >> card & 1 or not self.is_wanted(clue, card, position):
                    continue
                suit, rank = divmod(card, n)
                on_field = 1 if rank < view.fields[suit] else 0
                if self.composition[card] - discarded[card] - on_field - seen.count(card) > 0:
                    return False
        return True

    def clue_or_discard(self, view: PlayerView, discard: HatValue | None) -> Action:
        """[H-reclue-turn, H-reclue-discard] a free seat without a play: discard the card
        it was told to discard or knows useless, or clue; with no token, discard that
        card or else the newest; with every token, clue."""
        size = len(view.own_hand)
        ids = view.hands[self.seat]
        known = discard.slot if discard is not None else (ids.index(self.useless) if self.useless in ids else None)
        if view.hints == 0:
            newest = max(range(size), key=ids.__getitem__)
            for slot in (known, newest):
                if slot is not None and is_executable(self.config, HatValue.discard(slot), view.hints, size):
                    return Discard(slot)
            return Play(newest)  # neither a discard nor a clue is allowed
        if known is not None and is_executable(self.config, HatValue.discard(known), view.hints, size) and not self.prefers_clue(view):
            return Discard(known)
        return self.give_clue(view)

    def prefers_clue(self, view: PlayerView) -> bool:
        """[H-reclue-discard] whether a seat that may discard a useless card clues instead."""
        clue, values, first, tokens_at = self.draft(view)
        endgame = self.cards_to_play(view) - view.stack_size
        if clue.modified is not None and IS_PLAY[first]:
            return True
        if tokens_at == 0 or endgame <= 0 or view.hints <= 1:
            return False
        return IS_PLAY[first] or any(IS_PLAY[v] for v in values.values())

    def cards_to_play(self, view: PlayerView) -> int:
        """The cards still to play for the reachable score; the score is computed again
        only when the fields or the discarded counts change."""
        snap = self.snapshot(view)
        reached = self.reached
        if reached is None or reached[1] is not snap.discarded or reached[0] != snap.fields:
            reached = self.reached = (snap.fields, snap.discarded, reachable_score(self.config, snap))
        return reached[2] - sum(snap.fields)

    # ------------------------------------------------------------------ cluing

    def draft(self, view: PlayerView) -> tuple[Round, dict[int, HatValue], HatValue, int]:
        """The clue this seat would give now [H-reclue-pins, H-reclue-standard,
        H-reclue-modified]: the round with its pins, the values of every seat but the
        modified one, the modified seat's preferred value and the tokens at its turn
        (CLUE and 0 when every seat is pinned). Computed once per turn: weighing a
        discard against a clue (H-reclue-discard) and giving the clue read the same."""
        if self.drafted is not None and self.drafted[0] == view.turn:
            return self.drafted[1]
        order = self.orders[self.seat]
        clue = Round(view.turn, self.seat, order, 0, view, {seat: list(self.pending[seat]) for seat in order}, self.snapshot(view))
        self.prepare(clue)
        values = dict(clue.pins)
        free = [seat for seat in clue.order if seat not in values and seat != clue.modified]
        self.standard_values(clue, free, values)
        first, tokens_at = (CLUE_VALUE, 0) if clue.modified is None else self.modified_value(view, clue, values)
        self.drafted = (view.turn, (clue, values, first, tokens_at))
        return clue, values, first, tokens_at

    def give_clue(self, view: PlayerView) -> Hint:
        """[H-reclue-pins, H-modified] clue every other seat."""
        clue, standard, preferred, tokens_at = self.draft(view)
        values = dict(standard)
        seen = seen_hands(view)
        sendable = self.code.sendable(self.seat, seen)
        if clue.modified is not None:
            values[clue.modified] = self.choose_modified(clue, values, preferred, tokens_at, sendable)
        numbers = hat_numbers(values)
        number = hat_sum([numbers[seat] for seat in clue.order], MODULUS)
        if not sendable >> number & 1:
            number = (sendable & -sendable).bit_length() - 1
        clue.number = number
        clue.values = values
        self.outgoing = clue
        if self.log is not None:
            self.log.encoded[view.turn] = numbers
        return self.code.encode(self.seat, seen, number)

    def choose_modified(
        self, clue: Round, values: dict[int, HatValue], preferred: HatValue, tokens_at: int, sendable: int
    ) -> HatValue:
        """[H-reclue-modified, H-reclue-infer, H-code-rainbow] the first candidate the
        modified seat can carry out, whose sum can be sent and which does not tell it to
        play an excluded card."""
        m = clue.modified
        assert m is not None
        hand = clue.hand(m)
        banned: set[int] | None = None  # computed when a play comes up
        total = sum(values.values())  # a HatValue is its hat number
        for value in self.modified_candidates(clue, m, hand, preferred):
            if IS_PLAY[value]:
                if banned is None:
                    banned = self.excluded(clue, m, hand)
                if SLOT_OF[value] >= len(hand) or hand[SLOT_OF[value]] in banned:
                    continue
            if not sendable >> ((total + value) % MODULUS) & 1:
                continue
            if is_executable(self.config, value, tokens_at, len(hand)):
                return value
        return preferred

    def modified_candidates(self, clue: Round, m: int, hand: Hand, preferred: HatValue) -> Iterator[HatValue]:
        """[H-reclue-modified] the modified seat's values in the order they are tried:
        the preferred one, clue, the wanted plays, the safe discards, every discard
        (made as they are tried: the first one usually serves)."""
        yield preferred
        yield CLUE_VALUE
        for slot in self.wanted(clue, m, hand):
            yield PLAY_VALUES[slot]
        for slot in self.safe_slots(clue, hand):
            yield DISCARD_VALUES[slot]
        yield from DISCARD_VALUES

    def safe_slots(self, clue: Round, hand: Hand) -> list[int]:
        slots = []
        for slot, card in enumerate(hand):
            assert card is not None
            if self.is_useless(card, clue.progress, clue.discarded) or not self.is_critical(card, clue.discarded):
                slots.append(slot)
        return slots

    # ------------------------------------------------------------------ the modified action

    def modified_value(self, view: PlayerView, clue: Round, values: dict[int, HatValue]) -> tuple[HatValue, int]:
        """The modified seat's preferred value and the tokens T at its turn
        [H-reclue-modified]."""
        seat = self.modified_seat(view, clue, values)
        return self.modified_action(view, seat), seat.tokens

    def modified_action(self, view: PlayerView, seat: ModifiedSeat) -> HatValue:
        """[H-reclue-modified] the value of the first of rules 1-9 that decides (rule 3
        only turns a clue x into a discard for the rules after it)."""
        if seat.standard.is_play:  # rule 1
            return self.modified_play(seat)
        if seat.tokens >= self.config.max_hints:  # rule 2: every token is there
            return HatValue.CLUE
        x = self.visible_discard(seat)  # rule 3
        if self.is_short_of_tokens(seat):  # rule 4
            return self.discard_when_short(seat, x)
        if self.is_clue_for_the_plays(seat):  # rule 5
            return HatValue.CLUE
        if self.is_clue_for_a_later_play(seat):  # rule 6
            return HatValue.CLUE
        if x is not HatValue.CLUE and self.keeps_discard(view, seat):  # rule 7
            return x
        if self.is_discard_for_few_plays(seat):  # rule 8
            return self.least_bad_discard(seat, x)
        return HatValue.CLUE  # rule 9

    def modified_seat(self, view: PlayerView, clue: Round, values: dict[int, HatValue]) -> ModifiedSeat:
        """[H-reclue-modified] what the rules read about the clue's modified seat: its
        standard action x (no card a later seat plays), T, F, L and the plays."""
        m = clue.modified
        assert m is not None
        hand = clue.hand(m)
        before = list(clue.order[: clue.position[m]])
        later = list(clue.order[clue.position[m] + 1 :])
        later_plays = [clue.hand(seat)[SLOT_OF[values[seat]]] for seat in later if IS_PLAY[values[seat]]]
        dont_play = {card for card in later_plays if card is not None}
        tokens = self.tokens_at_modified(view, clue, before, values)
        final_tokens, least_tokens = self.tokens_along(clue, later, values, tokens)
        return ModifiedSeat(
            clue=clue,
            seat=m,
            hand=hand,
            values=values,
            before=before,
            later=later,
            dont_play=dont_play,
            standard=self.standard(clue, m, hand, dont_play),
            tokens=tokens,
            final_tokens=final_tokens,
            least_tokens=least_tokens,
            plays=sum(1 for other in before + later if IS_PLAY[values[other]]),
            progress=self.progress_after(clue, later, values),
            fields=view.fields,
            endgame=self.cards_to_play(view) - view.stack_size,
        )

    def tokens_at_modified(self, view: PlayerView, clue: Round, before: Sequence[int], values: dict[int, HatValue]) -> int:
        """[H-reclue-modified, H-reclue-pins] T: the tokens now, less the clue, after the
        (pinned) seats acting before the modified seat."""
        snap = self.snapshot(view)
        snap = Snapshot(snap.fields, snap.discarded, snap.tokens - 1, snap.stack, snap.errors)
        for seat in before:
            snap = after(self.config, snap, values[seat], clue.hand(seat))  # type: ignore[arg-type]
        return snap.tokens

    def tokens_along(self, clue: Round, later: Sequence[int], values: dict[int, HatValue], tokens: int) -> tuple[int, int]:
        """[H-reclue-modified] F and L: the tokens from T along the later seats' values (a
        clue -1, a discard +1, a played five +1), the last count and the least (T
        included)."""
        n = self.n
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
                assert card is not None
                if card % n == n - 1:
                    final += 1
        return final, least

    def progress_after(self, clue: Round, later: Sequence[int], values: dict[int, HatValue]) -> tuple[int, ...]:
        """[H-reclue-modified rule 6] the clued progress once the later seats' plays are
        made too."""
        n = self.n
        progress = list(clue.progress)
        for seat in later:
            if IS_PLAY[values[seat]]:
                card = clue.hand(seat)[SLOT_OF[values[seat]]]
                assert card is not None
                progress[card // n] = max(progress[card // n], card % n + 1)
        return tuple(progress)

    def modified_play(self, seat: ModifiedSeat) -> HatValue:
        """A modified seat whose standard action plays [H-reclue-modified rule 1]: short
        of tokens (L < 0 or F = 0) and not playing a five, it plays a wanted five no later
        seat plays, else with no endgame discards (expected action, else rule 4's least
        bad discard); otherwise it plays x."""
        n = self.n
        clue, hand, x = seat.clue, seat.hand, seat.standard
        card = hand[x.slot]
        assert card is not None
        if not (seat.least_tokens < 0 or seat.final_tokens == 0) or card % n == n - 1:
            return x
        for slot in self.wanted(clue, seat.seat, hand):
            five = hand[slot]
            assert five is not None
            if five % n == n - 1 and five not in seat.dont_play:
                return HatValue.play(slot)
        if seat.endgame <= 0:
            useful = self.expected(clue, hand)
            if useful is not HatValue.CLUE:
                return useful
            least_bad = self.extra_discard(clue, hand)
            if least_bad is not HatValue.CLUE:
                return least_bad
        return x

    def visible_discard(self, seat: ModifiedSeat) -> HatValue:
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

    def is_short_of_tokens(self, seat: ModifiedSeat) -> bool:
        """[H-reclue-modified rule 4] the tokens run out along the later seats (L <= 0)
        or end at one at most (F <= 1)."""
        return seat.least_tokens <= 0 or seat.final_tokens <= 1

    def discard_when_short(self, seat: ModifiedSeat, x: HatValue) -> HatValue:
        """The discard of a modified seat short of tokens [H-reclue-modified rule 4]: x,
        else the least bad discard, else with no token the highest card; with a token
        and no such discard, clue."""
        value = self.least_bad_discard(seat, x)
        if value is HatValue.CLUE and seat.tokens <= 0:
            return self.highest_discard(seat.hand)
        return value

    def least_bad_discard(self, seat: ModifiedSeat, x: HatValue) -> HatValue:
        """[H-reclue-modified rules 4 and 8] x when it discards, else the least bad
        discard (:meth:`extra_discard`), else clue."""
        return x if x is not HatValue.CLUE else self.extra_discard(seat.clue, seat.hand)

    def is_clue_for_the_plays(self, seat: ModifiedSeat) -> bool:
        """[H-reclue-modified rule 5] every other clued seat plays, some before the
        modified seat, and F >= 2: the modified seat clues."""
        return seat.plays == self.config.players - 2 and bool(seat.before) and seat.final_tokens >= 2

    def is_clue_for_a_later_play(self, seat: ModifiedSeat) -> bool:
        """[H-reclue-modified rule 6] a later seat that does not play holds a card next
        on the progress once this clue's plays are made, its predecessors above the
        fields played by seats acting before it: the modified seat clues (its clue can
        make that card a play)."""
        n = self.n
        clue = seat.clue
        player_of = self.players_of_cards(seat)
        for other in seat.later:
            if seat.values[other].is_play:
                continue
            position = clue.position[other]
            for card in clue.hand(other):
                assert card is not None
                suit, rank = divmod(card, n)
                if rank != seat.progress[suit]:
                    continue
                lower = [suit * n + r for r in range(seat.fields[suit], rank)]
                if all(clue.position[player_of[c]] < position for c in lower if c in player_of):
                    return True
        return False

    def players_of_cards(self, seat: ModifiedSeat) -> dict[int, int]:
        """[H-reclue-modified rule 6] the seat that plays each card this clue has played:
        the pinned cards and the plays of the other clued seats."""
        clue, values = seat.clue, seat.values
        player_of = dict(clue.pinned)
        for other in seat.before + seat.later:
            if values[other].is_play:
                card = clue.hand(other)[values[other].slot]
                assert card is not None
                player_of[card] = other
        return player_of

    def keeps_discard(self, view: PlayerView, seat: ModifiedSeat) -> bool:
        """[H-reclue-modified rule 7] a modified seat whose x discards keeps it when there
        is no endgame, when nobody in the clue plays, or when the late-game discard holds
        (H-reclue-endgame)."""
        return seat.endgame <= 0 or seat.plays == 0 or self.late_discard(view, seat)

    def is_discard_for_few_plays(self, seat: ModifiedSeat) -> bool:
        """[H-reclue-modified rule 8] at most one other clued seat plays and there is no
        endgame: the modified seat discards rather than clues."""
        return seat.plays <= 1 and seat.endgame <= 0

    def late_discard(self, view: PlayerView, seat: ModifiedSeat) -> bool:
        """[H-reclue-endgame, H-reclue-modified rule 7] late in the game, whether the
        modified seat, holding only cards already played and with one play in this clue,
        discards rather than clues: when the cluer does not see every card still needed
        and tokens are short, or when the tokens cannot carry clues round to the next
        seat holding a needed card."""
        n = self.n
        clue, m, hand, values = seat.clue, seat.seat, seat.hand, seat.values
        if not (seat.plays == 1 and seat.endgame == 1 and all(c is not None and c % n < view.fields[c // n] for c in hand)):
            return False
        snap = self.snapshot(view)
        needed = {
            suit * n + rank
            for suit, height in enumerate(view.fields)
            for rank in range(height, n)
            if not self.is_useless(suit * n + rank, view.fields, snap.discarded)
        }
        seen = {c for other in clue.order for c in clue.hand(other)}
        players = self.config.players
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
                if card is not None and card % n == n - 1 and (other + 1) % players != target:
                    hints -= 1
        return seat.tokens < hints

    def highest_discard(self, hand: Hand) -> HatValue:
        """[H-reclue-modified rule 4] with no token and no other discard: discard the
        card of highest rank (the lowest such slot)."""
        n = self.n
        best = 0
        for slot, card in enumerate(hand):
            assert card is not None
            top = hand[best]
            assert top is not None
            if card % n > top % n:
                best = slot
        return HatValue.discard(best)

    def extra_discard(self, clue: Round, hand: Hand) -> HatValue:
        """The least bad discard [H-reclue-modified rule 4]: the highest card of which no
        copy is discarded, not a five and not next on the clued progress; else clue."""
        n = self.n
        best: tuple[int, int] | None = None
        for slot, card in enumerate(hand):
            assert card is not None
            if clue.discarded[card] or card % n == n - 1 or card % n == clue.progress[card // n]:
                continue
            if best is None or card % n > best[0]:
                best = (card % n, slot)
        return HatValue.CLUE if best is None else HatValue.discard(best[1])


def build(params: Mapping[str, Value]) -> StrategyFactory:
    """The factory of :class:`ReclueHatPlayer`; ``check=1`` stops a game at the first
    value a seat resolves otherwise than its cluer encoded it [H-decode-check]."""
    check = bool(params.get("check", 0))
    logs: list[DecodeLog] = []

    def factory(config: GameConfig, seat: int, seed: int) -> ReclueHatPlayer:
        if not check:
            return ReclueHatPlayer(config, seat)
        if seat == 0 or not logs:
            logs[:] = [DecodeLog(strict=True)]
        return ReclueHatPlayer(config, seat, logs[0])

    return factory


HAT_SPEC = StrategySpec(
    "hat",
    "the hat player: nine-action hat clues to every seat; later clues can turn discards and clues into plays",
    (Param("check", "int", 0, "1: stop a game when a seat resolves another value than encoded [H-decode-check]", choices=(0, 1)),),
    build,
    unsupported,
)

__all__ = ["HAT_SPEC", "HatDecodingError", "HatValue", "ModifiedSeat", "ReclueHatPlayer", "Round", "hat_numbers"]
