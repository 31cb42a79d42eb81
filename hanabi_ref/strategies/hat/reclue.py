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

from collections.abc import Mapping, Sequence

from hanabi_ref.actions import Action, Discard, Hint, Play
from hanabi_ref.game import BaseStrategy, StrategyFactory
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
        self.position = {seat: index for index, seat in enumerate(order)}
        """Each clued seat's index in ``order``."""
        if snap is None:
            snap = snapshot_of(view)
        self.fields, self.discarded = snap.fields, snap.discarded
        self.hands: list[Hand] = list(view.cards)
        self.prior = prior
        self.acted: dict[int, tuple[int, Hand]] = {}
        self.values: dict[int, int] | None = None
        self.pins: dict[int, int] = {}
        self.progress: tuple[int, ...] = self.fields
        self.pinned: dict[int, int] = {}
        self.modified: int | None = None

    def hand(self, seat: int) -> Hand:
        """The seat's hand when the clue was given (a seat's hand changes only when it
        acts, and its first action after the clue is recorded with the hand before it)."""
        if seat in self.acted:
            return self.acted[seat][1]
        return self.hands[seat]


class ReclueHatPlayer(BaseStrategy):
    """The hat player with re-cluing for one seat [H-reclue]."""

    def __init__(self, config: GameConfig, seat: int, log: DecodeLog | None = None) -> None:
        HAT_SPEC.check_config(config)  # also when built outside the command line
        self.config = config
        self.seat = seat
        self.n = config.values
        self.composition = composition_counts(config)
        self.code: ClueCode = hat_code(config)
        self.pending: list[list[Round]] = [[] for _ in range(config.players)]
        self.deferred: list[Round] = []
        self.outgoing: Round | None = None
        self.useless: int | None = None
        self.drafted: tuple[int, tuple[Round, dict[int, int], int, int]] | None = None
        self.snapped: tuple[int, Snapshot] | None = None
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

    def expected(self, clue: Round, hand: Sequence[int | None]) -> int:
        """[H-reclue-standard] the expected action: discard the lowest slot holding a
        useless card, else the lower of two equal cards, else clue."""
        for slot, card in enumerate(hand):
            if card is not None and self.is_useless(card, clue.progress, clue.discarded):
                return DISCARD + slot
        for slot, card in enumerate(hand):
            if card is not None and card in hand[slot + 1 :]:
                return DISCARD + slot
        return CLUE

    def is_wanted(self, clue: Round, card: int, position: int) -> bool:
        """[H-reclue-standard] the card is next on the clued progress and its missing
        predecessors are pinned to seats acting before the seat at ``position`` of the
        clue's order."""
        n = self.n
        suit, rank = divmod(card, n)
        if rank != clue.progress[suit]:
            return False
        return all(clue.position[clue.pinned[suit * n + r]] < position for r in range(clue.fields[suit], rank))

    def wanted(self, clue: Round, seat: int, hand: Sequence[int | None]) -> list[int]:
        """[H-reclue-standard] the slots of ``hand`` holding cards ``seat`` wants."""
        position = clue.position[seat]
        return [slot for slot, card in enumerate(hand) if card is not None and self.is_wanted(clue, card, position)]

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

    def standard(self, clue: Round, seat: int, hand: Sequence[int | None], dont_play: set[int]) -> int:
        """[H-reclue-standard] play the lowest wanted card (critical first, then lowest
        slot) no later clued seat plays, else the expected action."""
        banned = dont_play | self.excluded(clue, seat, hand)
        best: tuple[int, int, int] | None = None
        for slot in self.wanted(clue, seat, hand):
            card = hand[slot]
            assert card is not None
            if card in banned:
                continue
            key = (card % self.n, 0 if self.is_critical(card, clue.discarded) else 1, slot)
            if best is None or key < best:
                best = key
        if best is not None:
            return PLAY + best[2]
        return self.expected(clue, hand)

    # ------------------------------------------------------------------ bookkeeping

    def prepare(self, clue: Round) -> None:
        """[H-reclue-pins] the pinned seats (a play from an earlier clue they still hold),
        the clued progress and the modified seat (the first free seat)."""
        n = self.n
        progress = list(clue.fields)
        pins: dict[int, int] = {}
        pinned: dict[int, int] = {}
        for seat in clue.order:
            for earlier in clue.prior[seat]:
                assert earlier.values is not None, "an earlier clue is resolved first"
                value = earlier.values[seat]
                assert value < DISCARD or earlier.modified != seat, "Lemma 4: a modified seat acts before the next clue"
                if value < DISCARD:
                    pins[seat] = value
                    card = clue.hand(seat)[value % SLOTS]
                    assert card is not None
                    pinned[card] = seat
                    break
        for suit in range(len(progress)):  # the fields once the pinned plays are made
            while progress[suit] < n and suit * n + progress[suit] in pinned:
                progress[suit] += 1
        clue.pins, clue.pinned, clue.progress = pins, pinned, tuple(progress)
        clue.modified = next((seat for seat in clue.order if seat not in pins), None)

    def standard_values(self, clue: Round, seats: Sequence[int], values: dict[int, int]) -> None:
        """[H-reclue-standard, H-last-to-first] the standard actions of the free seats
        ``seats`` (not the modified one), from the last to the first."""
        dont_play: set[int] = set()
        for seat in reversed(seats):
            hand = clue.hand(seat)
            value = self.standard(clue, seat, hand, dont_play)
            values[seat] = value
            if value < DISCARD:
                card = hand[value % SLOTS]
                assert card is not None
                dont_play.add(card)

    def infer(self, clue: Round, seat: int) -> int:
        """[H-reclue-infer] the value a free seat that has acted got from ``clue``."""
        value, hand = clue.acted[seat]
        if seat == clue.modified:
            return value
        if value < DISCARD and value % SLOTS in self.wanted(clue, seat, hand):
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
            values[missing[0]] = recover(clue.number, list(values.values()), MODULUS)
        clue.values = values
        if self.log is not None:
            self.log.record_round(clue.turn, self.seat, values)

    def hand_before(self, view: PlayerView, event: Event) -> Hand:
        """The actor's hand (identities; the observer's own unknown except a shown card)
        before its action."""
        seat = event.player
        cards = view.cards[seat]
        action = event.action
        if isinstance(action, Hint):
            return cards
        ids = view.hands[seat]
        kept = [card for card_id, card in zip(ids, cards) if card_id != event.drawn]
        kept.insert(action.slot, event.card)
        return tuple(kept)

    def snapshot(self, view: PlayerView) -> Snapshot:
        """The public numbers of ``view`` [H-snapshot], computed once per turn (a game
        shows a seat one state per turn)."""
        if self.snapped is None or self.snapped[0] != view.turn:
            self.snapped = (view.turn, snapshot_of(view))
        return self.snapped[1]

    def order_after(self, cluer: int) -> tuple[int, ...]:
        """The seats a clue by ``cluer`` clues: every other seat, in turn order [H-reclue]."""
        players = self.config.players
        return tuple((cluer + offset) % players for offset in range(1, players))

    def observe(self, view: PlayerView, event: Event) -> None:
        """[H-common] record the action in every clue the actor held, and a new clue."""
        actor = event.player
        value = value_of_action(event.action)
        before = self.hand_before(view, event)
        for clue in self.pending[actor]:
            clue.acted[actor] = (value, before)
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
            if value < DISCARD and value % SLOTS < len(view.own_hand):
                self.deferred = held[index + 1 :]
                self.converted += 1 if last is not None else 0
                return Play(value % SLOTS)
            if DISCARD <= value < CLUE:
                self.useless = view.hands[self.seat][value % SLOTS]
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
                return self.give_clue(view) if value == CLUE else Discard(value % SLOTS)
            return self.clue_or_discard(view, None)
        return self.clue_or_discard(view, value if value != CLUE else None)

    def gamble(self, view: PlayerView) -> Action | None:
        """[H-reclue-endgame] with the stack empty, a strike to spare and a card the
        fields need that this seat sees nowhere, play its oldest card (the next oldest
        when that one is known useless)."""
        config = self.config
        if view.stack_size > 0 or (config.errors is not None and view.errors >= config.errors - 1):
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
                if seat == self.seat or value >= DISCARD:
                    continue
                card = clue.hand(seat)[value % SLOTS]
                assert card is not None
                if not possible >> card & 1 or not self.is_wanted(clue, card, position):
                    continue
                suit, rank = divmod(card, n)
                on_field = 1 if rank < view.fields[suit] else 0
                if self.composition[card] - discarded[card] - on_field - seen.count(card) > 0:
                    return False
        return True

    def clue_or_discard(self, view: PlayerView, discard: int | None) -> Action:
        """[H-reclue-turn, H-reclue-discard] a free seat without a play: discard the card
        it was told to discard or knows useless, or clue; with no token, discard that
        card or else the newest; with every token, clue."""
        size = len(view.own_hand)
        ids = view.hands[self.seat]
        known = discard % SLOTS if discard is not None else (ids.index(self.useless) if self.useless in ids else None)
        if view.hints == 0:
            newest = max(range(size), key=ids.__getitem__)
            for slot in (known, newest):
                if slot is not None and is_executable(self.config, DISCARD + slot, view.hints, size):
                    return Discard(slot)
            return Play(newest)  # neither a discard nor a clue is allowed
        if known is not None and is_executable(self.config, DISCARD + known, view.hints, size) and not self.prefers_clue(view):
            return Discard(known)
        return self.give_clue(view)

    def prefers_clue(self, view: PlayerView) -> bool:
        """[H-reclue-discard] whether a seat that may discard a useless card clues instead."""
        clue, values, first, tokens_at = self.draft(view)
        endgame = self.cards_to_play(view) - view.stack_size
        if clue.modified is not None and first < DISCARD:
            return True
        if tokens_at == 0 or endgame <= 0 or view.hints <= 1:
            return False
        return first < DISCARD or any(v < DISCARD for v in values.values())

    def cards_to_play(self, view: PlayerView) -> int:
        snap = self.snapshot(view)
        return reachable_score(self.config, snap) - sum(snap.fields)

    # ------------------------------------------------------------------ cluing

    def draft(self, view: PlayerView) -> tuple[Round, dict[int, int], int, int]:
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
        first, tokens_at = (CLUE, 0) if clue.modified is None else self.modified_value(view, clue, values)
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
        number = hat_sum([values[seat] for seat in clue.order], MODULUS)
        if not sendable >> number & 1:
            number = (sendable & -sendable).bit_length() - 1
        clue.number = number
        clue.values = values
        self.outgoing = clue
        if self.log is not None:
            self.log.encoded[view.turn] = dict(values)
        return self.code.encode(self.seat, seen, number)

    def choose_modified(self, clue: Round, values: dict[int, int], preferred: int, tokens_at: int, sendable: int) -> int:
        """[H-reclue-modified, H-reclue-infer, H-code-rainbow] the first candidate the
        modified seat can carry out, whose sum can be sent and which does not tell it to
        play an excluded card."""
        m = clue.modified
        assert m is not None
        hand = clue.hand(m)
        banned = self.excluded(clue, m, hand)
        total = sum(values.values())
        plays = [PLAY + slot for slot in self.wanted(clue, m, hand)]
        candidates = [preferred, CLUE, *plays] + [DISCARD + s for s in self.safe_slots(clue, hand)] + list(range(DISCARD, CLUE))
        for value in candidates:
            if value < DISCARD and (value % SLOTS >= len(hand) or hand[value % SLOTS] in banned):
                continue
            if not sendable >> ((total + value) % MODULUS) & 1:
                continue
            if is_executable(self.config, value, tokens_at, len(hand)):
                return value
        return preferred

    def safe_slots(self, clue: Round, hand: Hand) -> list[int]:
        slots = []
        for slot, card in enumerate(hand):
            assert card is not None
            if self.is_useless(card, clue.progress, clue.discarded) or not self.is_critical(card, clue.discarded):
                slots.append(slot)
        return slots

    def modified_value(self, view: PlayerView, clue: Round, values: dict[int, int]) -> tuple[int, int]:
        """[H-reclue-modified] the value for the modified seat (rules 1-9) and the tokens
        at its turn."""
        config = self.config
        n = self.n
        m = clue.modified
        assert m is not None
        hand = clue.hand(m)
        later = list(clue.order[clue.position[m] + 1 :])
        before = list(clue.order[: clue.position[m]])
        dont_play: set[int] = {c for s in later if values[s] < DISCARD and (c := clue.hand(s)[values[s] % SLOTS]) is not None}
        x = self.standard(clue, m, hand, dont_play)
        snap = self.snapshot(view)
        snap = Snapshot(snap.fields, snap.discarded, snap.tokens - 1, snap.stack, snap.errors)
        for seat in before:
            snap = after(config, snap, values[seat], clue.hand(seat))  # type: ignore[arg-type]
        tokens_m = snap.tokens
        future = tokens_m
        least = tokens_m
        plays = sum(1 for s in before + later if values[s] < DISCARD)
        progress = list(clue.progress)
        for seat in later:
            value = values[seat]
            if value == CLUE:
                future -= 1
                least = min(least, future)
            elif value >= DISCARD:
                future += 1
            else:
                card = clue.hand(seat)[value % SLOTS]
                assert card is not None
                if card % n == n - 1:
                    future += 1
                progress[card // n] = max(progress[card // n], card % n + 1)
        endgame = self.cards_to_play(view) - view.stack_size
        useful_discard = self.expected(clue, hand)
        if x < DISCARD:
            card = hand[x % SLOTS]
            assert card is not None
            if (least < 0 or future == 0) and card % n != n - 1:
                fives = [s for s in self.wanted(clue, m, hand) if hand[s] % n == n - 1 and hand[s] not in dont_play]  # type: ignore[operator]
                if fives:
                    return PLAY + fives[0], tokens_m
                if endgame <= 0:
                    if useful_discard != CLUE:
                        return useful_discard, tokens_m
                    alt = self.extra_discard(clue, hand)
                    if alt != CLUE:
                        return alt, tokens_m
            return x, tokens_m
        if tokens_m >= config.hints:
            return CLUE, tokens_m
        if x == CLUE:
            x = self.visible_discard(clue, m, hand, dont_play)
        if least <= 0 or future <= 1:
            action = x if x != CLUE else self.extra_discard(clue, hand)
            if action == CLUE and tokens_m <= 0:
                return DISCARD + max(range(len(hand)), key=lambda s: hand[s] % n), tokens_m  # type: ignore[operator]
            return action, tokens_m
        if plays == config.players - 2 and before and future >= 2:
            return CLUE, tokens_m
        player_of = dict(clue.pinned)
        for seat in before + later:
            if values[seat] < DISCARD:
                card = clue.hand(seat)[values[seat] % SLOTS]
                assert card is not None
                player_of[card] = seat
        for seat in later:
            if values[seat] >= DISCARD:
                other = clue.hand(seat)
                position = clue.position[seat]
                for c in other:
                    assert c is not None
                    suit, rank = divmod(c, n)
                    if rank == progress[suit] and all(
                        clue.position[player_of[suit * n + r]] < position for r in range(view.fields[suit], rank) if suit * n + r in player_of
                    ):
                        return CLUE, tokens_m
        if x != CLUE:
            if endgame <= 0 or plays == 0:
                return x, tokens_m
            if self.late_discard(view, clue, m, hand, values, plays, endgame, tokens_m):
                return x, tokens_m
        if plays <= 1 and endgame <= 0:
            return (x if x != CLUE else self.extra_discard(clue, hand)), tokens_m
        return CLUE, tokens_m

    def late_discard(self, view: PlayerView, clue: Round, m: int, hand: Hand, values: dict[int, int], plays: int, endgame: int, tokens_m: int) -> bool:
        """[H-reclue-endgame] late in the game, whether the modified seat, holding only
        cards already played and with one play in this clue, discards rather than clues:
        when the cluer does not see every card still needed and tokens are short, or when
        the tokens cannot carry clues round to the next seat holding a needed card."""
        n = self.n
        if not (plays == 1 and endgame == 1 and all(c is not None and c % n < view.fields[c // n] for c in hand)):
            return False
        snap = self.snapshot(view)
        needed = {
            suit * n + rank
            for suit, height in enumerate(view.fields)
            for rank in range(height, n)
            if not self.is_useless(suit * n + rank, view.fields, snap.discarded)
        }
        seen = {c for seat in clue.order for c in clue.hand(seat)}
        players = self.config.players
        if not needed <= seen:
            return tokens_m < players - 2
        playing = [seat for seat in clue.order if values.get(seat, CLUE) < DISCARD]
        holders = [
            seat for seat in clue.order
            if seat != m and sum(1 for c in clue.hand(seat) if c in needed) > (1 if seat in playing else 0)
        ]
        holders.sort(key=lambda seat: (seat - m) % players)
        if not holders:
            return True
        target = holders[0]
        hints = (target - m) % players
        for seat in playing:
            if 0 < (seat - m) % players < hints:
                hints -= 1
                card = clue.hand(seat)[values[seat] % SLOTS]
                if card is not None and card % n == n - 1 and (seat + 1) % players != target:
                    hints -= 1
        return tokens_m < hints

    def visible_discard(self, clue: Round, m: int, hand: Hand, dont_play: set[int]) -> int:
        """A discard that loses nothing: a card this clue has another seat play, or one
        another seat (not the cluer's own, unseen) holds."""
        for slot, card in enumerate(hand):
            if card in dont_play:
                return DISCARD + slot
        others = {card for seat in clue.order if seat != m for card in clue.hand(seat)}
        for slot, card in enumerate(hand):
            if card in others:
                return DISCARD + slot
        return CLUE

    def extra_discard(self, clue: Round, hand: Hand) -> int:
        """The least bad discard: the highest card of which no copy is discarded, not a
        five and not wanted now; else clue."""
        n = self.n
        best: tuple[int, int] | None = None
        for slot, card in enumerate(hand):
            assert card is not None
            if clue.discarded[card] or card % n == n - 1 or card % n == clue.progress[card // n]:
                continue
            if best is None or card % n > best[0]:
                best = (card % n, slot)
        return CLUE if best is None else DISCARD + best[1]


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

__all__ = ["HAT_SPEC", "HatDecodingError", "ReclueHatPlayer", "Round"]
