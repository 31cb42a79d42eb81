"""The hat player with re-cluing: every clue reaches every other seat, and a later clue
can turn an earlier discard or clue instruction into a play [H-reclue].

This is the hat player of :mod:`~hanabi_ref.players.strategies.hat.player` with the changes the
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

The rules themselves are functions in :mod:`~hanabi_ref.players.strategies.hat.reclue_rules`,
one per clause or lemma; :class:`ReclueHatPlayer` keeps the bookkeeping and calls them.
"""

from __future__ import annotations

from collections.abc import Mapping

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.players.strategy import BaseStrategy, StrategyFactory
from hanabi_ref.players.strategies.adapt import adaptive
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import Event
from hanabi_ref.players.strategies.hat import reclue_rules as rules
from hanabi_ref.players.strategies.hat.codes import ClueCode, SeenHandsMemo, check_choice, decode_event, hat_code
from hanabi_ref.players.strategies.hat.core import hat_sum
from hanabi_ref.players.strategies.hat.player import DecodeLog, Snapshot, is_executable, reachable_score, unsupported
from hanabi_ref.players.strategies.hat.reclue_rules import CardFacts, Hand, Round, card_facts, clued_order, hat_numbers
from hanabi_ref.players.strategies.hat.values import IS_DISCARD, IS_PLAY, MODULUS, SLOT_OF, HatValue, value_of_action
from hanabi_ref.players.strategies.params import Param, StrategySpec, Value
from hanabi_ref.engine.view import PlayerView

Draft = tuple[Round, dict[int, HatValue], HatValue, int]
"""A clue this seat would give: the round (pins set), the values of every seat but the
modified one, the modified seat's preferred value and the tokens at its turn."""


class ReclueHatPlayer(BaseStrategy):
    """The hat player with re-cluing for one seat [H-reclue]: it records every clue and
    the clued seats' actions (H-common) and asks :mod:`.reclue_rules` what they mean
    and what to do."""

    def __init__(self, config: GameConfig, seat: int, log: DecodeLog | None = None) -> None:
        HAT_SPEC.check_config(config)  # also when built outside the command line
        self.config = config
        self.seat = seat
        self.facts: CardFacts = card_facts(config)
        self.code: ClueCode = hat_code(config)
        self.sight = SeenHandsMemo()
        """What this seat sees of every hand, kept from turn to turn [H-code-local]."""
        self.pending: list[list[Round]] = [[] for _ in range(config.players)]
        """The clues each seat holds, oldest first (H-common)."""
        self.deferred: list[Round] = []
        self.outgoing: Round | None = None
        self.useless: int | None = None
        self.drafted: tuple[int, Draft] | None = None
        self.snapped: tuple[int, Snapshot] | None = None
        self.counted: tuple[int, tuple[int, ...], tuple[int, int] | None] = (0, (0,) * len(self.facts.composition), None)
        """The discarded copies of each identity: how many cards of the discard pile were
        counted, the counts, and the last card counted (the pile only grows)."""
        self.reached: tuple[tuple[int, ...], tuple[int, ...], int] | None = None
        """The fields, the discarded counts and the reachable score of them (:meth:`cards_to_play`)."""
        self.orders = tuple(clued_order(config.players, cluer) for cluer in range(config.players))
        """The seats a clue by each seat clues, in acting order."""
        self.log = log
        self.converted = 0
        """Plays this seat made on a later clue after an earlier one gave it no play."""

    # ------------------------------------------------------------------ the record

    def resolve(self, clue: Round) -> None:
        """[H-reclue-decode] resolve a held clue: its pins, then every clued seat's value."""
        clue.set_pins(rules.pins_of(self.facts, clue))
        values = clue.values = rules.resolved_values(self.facts, clue, self.seat)
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
        kept: list[int | None] = list(cards)
        if event.drawn is not None:  # the drawn card was not in the hand before
            del kept[view.hands[seat].index(event.drawn)]
        kept.insert(action.slot, event.card)
        return tuple(kept)

    def snapshot(self, view: PlayerView) -> Snapshot:
        """The public numbers of ``view`` [H-snapshot], computed once per turn (a game
        shows a seat one state per turn); equal to ``snapshot_of(view)``."""
        snapped = self.snapped
        if snapped is not None and snapped[0] == view.turns:
            return snapped[1]
        snap = Snapshot(view.fireworks, self.discard_counts(view), view.clue_tokens, view.deck_size, view.strikes)
        self.snapped = (view.turns, snap)
        return snap

    def discard_counts(self, view: PlayerView) -> tuple[int, ...]:
        """The copies of each identity in ``view``'s discard pile, counted on from the
        cards counted at an earlier turn (a game's discard pile only grows)."""
        discard = view.discard
        done, counts, last = self.counted
        if done == len(discard) and (done == 0 or discard[done - 1] == last):
            return counts
        if not (done < len(discard) and (done == 0 or discard[done - 1] == last)):
            done, counts = 0, (0,) * len(self.facts.composition)  # another pile: count afresh
        grown = list(counts)
        for _, card in discard[done:]:
            grown[card] += 1
        counts = tuple(grown)
        self.counted = (len(discard), counts, discard[-1])
        return counts

    def cards_to_play(self, view: PlayerView) -> int:
        """The cards still to play for the reachable score; the score is computed again
        only when the fields or the discarded counts change."""
        snap = self.snapshot(view)
        reached = self.reached
        if reached is None or reached[1] is not snap.discarded or reached[0] != snap.fields:
            reached = self.reached = (snap.fields, snap.discarded, reachable_score(self.config, snap))
        return reached[2] - sum(snap.fields)

    def observe(self, view: PlayerView, event: Event) -> None:
        """[H-common] record the action in every clue the actor held, and a new clue."""
        actor = event.player
        held = self.pending[actor]
        if held:
            value = value_of_action(event.action)
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
                if event.action.target != self.seat:
                    check_choice(self.code, event, number, self.sight.of(view))  # [S-foreign-detect]
                prior = {seat: list(self.pending[seat]) for seat in order}
                clue = Round(event.turn, actor, order, number, view, prior, self.snapshot(view))
            for seat in clue.order:
                self.pending[seat].append(clue)

    # ------------------------------------------------------------------ the turn

    def act(self, view: PlayerView) -> Action:
        """[H-reclue-turn] the first play a held clue gives; else the gamble; else the
        newest clue's value, a discard possibly replaced by a clue; unclued, clue."""
        held = self.pending[self.seat]
        last: Round | None = None
        for index, clue in enumerate(held):
            if clue.values is None:
                self.resolve(clue)
            if clue.values is None:
                raise rules.unseen()
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
        if last.values is None:
            raise rules.unseen()
        value = last.values[self.seat]
        if last.modified == self.seat:
            if is_executable(self.config, value, view.clue_tokens, len(view.own_hand)):
                return self.give_clue(view) if value is HatValue.CLUE else Discard(value.slot)
            return self.clue_or_discard(view, None)
        return self.clue_or_discard(view, value if value is not HatValue.CLUE else None)

    def gamble(self, view: PlayerView) -> Action | None:
        """[H-reclue-endgame] the gamble, when its conditions hold and the others still
        read this seat's values right after it."""
        if view.deck_size > 0:  # the first condition, before any counting
            return None
        discarded = self.snapshot(view).discarded
        slot = rules.gamble_slot(self.facts, view, self.seat, discarded, self.useless)
        if slot is None:
            return None
        seen = rules.seen_elsewhere(view, self.seat)
        readable = rules.is_gamble_readable(
            self.facts, self.pending[self.seat], self.seat, view.own_knowledge[slot], view.fireworks, seen, discarded
        )
        return Play(slot) if readable else None

    def clue_or_discard(self, view: PlayerView, discard: HatValue | None) -> Action:
        """[H-reclue-turn, H-reclue-discard] a free seat without a play: discard the card
        it was told to discard or knows useless, or clue; with no token, discard that
        card or else the newest; with every token, clue."""
        size = len(view.own_hand)
        ids = view.hands[self.seat]
        known = discard.slot if discard is not None else (ids.index(self.useless) if self.useless in ids else None)
        if view.clue_tokens == 0:
            newest = max(range(size), key=ids.__getitem__)
            for slot in (known, newest):
                if slot is not None and is_executable(self.config, HatValue.discard(slot), view.clue_tokens, size):
                    return Discard(slot)
            return Play(newest)  # neither a discard nor a clue is allowed
        if known is not None and is_executable(self.config, HatValue.discard(known), view.clue_tokens, size) and not self.prefers_clue(view):
            return Discard(known)
        return self.give_clue(view)

    def prefers_clue(self, view: PlayerView) -> bool:
        """[H-reclue-discard] whether a seat that may discard a useless card clues instead."""
        clue, values, first, tokens_at = self.draft(view)
        endgame = self.cards_to_play(view) - view.deck_size
        return rules.is_clue_preferred(clue, values, first, tokens_at, endgame, view.clue_tokens)

    # ------------------------------------------------------------------ cluing

    def draft(self, view: PlayerView) -> Draft:
        """The clue this seat would give now [H-reclue-pins, H-reclue-standard,
        H-reclue-modified] (:func:`.reclue_rules.drafted_values`). Computed once per
        turn: weighing a discard against a clue (H-reclue-discard) and giving the clue
        read the same."""
        if self.drafted is not None and self.drafted[0] == view.turns:
            return self.drafted[1]
        order = self.orders[self.seat]
        snap = self.snapshot(view)
        clue = Round(view.turns, self.seat, order, 0, view, {seat: list(self.pending[seat]) for seat in order}, snap)
        clue.set_pins(rules.pins_of(self.facts, clue))
        endgame = self.cards_to_play(view) - view.deck_size if clue.modified is not None else 0
        values, first, tokens_at = rules.drafted_values(self.facts, clue, snap, endgame)
        self.drafted = (view.turns, (clue, values, first, tokens_at))
        return clue, values, first, tokens_at

    def give_clue(self, view: PlayerView) -> Hint:
        """[H-reclue-pins, H-modified] clue every other seat."""
        clue, standard, preferred, tokens_at = self.draft(view)
        values = dict(standard)
        seen = self.sight.of(view)
        sendable = self.code.sendable(self.seat, seen)
        if clue.modified is not None:
            values[clue.modified] = rules.choose_modified(self.facts, clue, values, preferred, tokens_at, sendable)
        numbers = hat_numbers(values)
        number = hat_sum([numbers[seat] for seat in clue.order], MODULUS)
        if not sendable >> number & 1:
            number = (sendable & -sendable).bit_length() - 1
        clue.number = number
        clue.values = values
        self.outgoing = clue
        if self.log is not None:
            self.log.encoded[view.turns] = numbers
        return self.code.encode(self.seat, seen, number)


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

    return factory if check else adaptive(factory)  # [S-foreign]; check mode reports, never adapts


HAT_SPEC = StrategySpec(
    "hat",
    "the hat player: nine-action hat clues to every seat; later clues can turn discards and clues into plays",
    (Param("check", "int", 0, "1: stop a game when a seat resolves another value than encoded [H-decode-check]", choices=(0, 1)),),
    build,
    unsupported,
)

__all__ = ["HAT_SPEC", "ReclueHatPlayer"]
