"""The recommendation strategy: the hat-guessing strategy of the paper the hat player
improves on, as ``hat-player-strategy.md`` ("Comparison with paper") describes it [H-rec].

Every hint *recommends* one of eight actions to every other player: play or discard
slot 0-3 (no "clue" value, H-rec-values).  Each player's recommendation depends on the
public state after the hint and its own hand only, so every other player can compute
it, and each recovers its own at once from the sum (H-rec-decode).  A hint re-clues
every other player, replacing recommendations not yet used (H-rec-code).  On its turn a
player plays a recommended play, else gives a hint, else discards (H-rec-turn).

The hat player differs exactly where the source says: a ninth value "clue", standard
actions that avoid double plays and discard better, a modified action for the next
player, and clues that skip players holding one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import attrs

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.players.strategy import BaseStrategy, StrategyFactory
from hanabi_ref.players.strategies.adapt import ForeignMove, adaptive, is_off_rule, mover_before
from hanabi_ref.engine.cards import Identity
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import Event
from hanabi_ref.players.strategies.hat.codes import (
    ClueCode, HintListCode, NewestCardCode, SeenHandsMemo, check_choice, decode_event,
)
from hanabi_ref.players.strategies.hat.core import hat_sum, recover
from hanabi_ref.players.strategies.hat.player import (
    Snapshot,
    easy_discard,
    hard_discards,
    is_executable,
    snapshot_of,
    unsupported_by,
)
from hanabi_ref.players.strategies.hat.values import DISCARD_VALUES, IS_DISCARD, IS_PLAY, PLAY_VALUES, SLOT_OF, SLOTS
from hanabi_ref.players.strategies.knowledge import composition_counts, unseen_counts
from hanabi_ref.players.strategies.params import StrategySpec, Value
from hanabi_ref.engine.tables import tables_for
from hanabi_ref.engine.view import PlayerView

MODULUS = 2 * SLOTS
"""Eight recommendations [H-rec-values]."""


def recommendation_code(config: GameConfig) -> ClueCode:
    """[H-rec-code] the code of modulus 8: with empty hints the first eight hints of the
    list; else parts (3, 3, 2) with 4 players and (2, 2, 2, 2) with 5."""
    if config.options.empty_hints:
        return HintListCode(config, MODULUS)
    if config.players == 4:
        return NewestCardCode(config, (3, 3, 2))
    if config.players == 5:
        return NewestCardCode(config, (2, 2, 2, 2))
    raise ConfigError(f"players: the recommendation code is defined for 4 and 5 players, got {config.players} [H-rec-code]")


def recommend(config: GameConfig, snap: Snapshot, hand: Sequence[Identity]) -> int:
    """[H-rec-action] the recommendation for a hand: play its playable card of lowest value
    (then lowest slot); else discard a card already played or one of two equal cards;
    else a card that is not unsafe to discard; else the last slot."""
    tables = tables_for(config)
    suit_of, rank_of, fields = tables.suit_of, tables.rank_of, snap.fields
    playable = [(rank_of[card], slot) for slot, card in enumerate(hand) if fields[suit_of[card]] == rank_of[card]]  # [4.2]
    if playable:
        return PLAY_VALUES[min(playable)[1]]
    easy = easy_discard(config, snap, hand, frozenset())
    if easy is not None:
        return DISCARD_VALUES[easy]
    safe = hard_discards(config, snap, hand)
    return DISCARD_VALUES[safe[0] if safe else len(hand) - 1]


def playable_identities(view: PlayerView) -> int:
    """[H-rec-turn] the identities playable on the fields of ``view``, as a bitmask."""
    n = view.config.values
    return sum(1 << (suit * n + height) for suit, height in enumerate(view.fireworks) if height < n)


def may_have_been_played(view: PlayerView, played: Sequence[int]) -> bool:
    """[H-rec-turn] whether one of the identities ``played`` (cards played since a
    recommendation that were playable when it was given) may have been the recommended
    card's: one of them still has a copy the seat of ``view`` does not see (S-know)."""
    if not played:
        return False
    unseen = unseen_counts(view, composition_counts(view.config))
    return any(unseen[card] > 0 for card in played)


class RecommendationPlayer(BaseStrategy):
    """The recommendation strategy for one seat [H-rec]."""

    def __init__(self, config: GameConfig, seat: int) -> None:
        RECOMMENDATION_SPEC.check_config(config)  # also when built outside the command line
        self.config = config
        self.seat = seat
        self.code = recommendation_code(config)
        self.sight = SeenHandsMemo()
        """What this seat sees of every hand, kept from turn to turn [H-code-local]."""
        self.own = Told()
        """[H-rec-turn] this seat's recommendation, the identities playable when it was given
        and those of them played since."""
        self.told: dict[int, Told] = {}
        """What every other seat was last recommended, as this seat computed it [S-foreign-order]."""
        self.unknown: set[int] = set()
        """The seats whose recommendation this seat cannot tell until they move [S-foreign-order]."""
        self.before: PlayerView | None = None
        """This seat's view after the last move (before the next one)."""

    def observe(self, view: PlayerView, event: Event) -> None:
        """[H-rec-decode] a hint recommends: this seat's own value is the number minus the
        others' recommendations, from the state right after the hint.  Every other seat's
        recommendation is kept too, and a move its rule could not give raises ForeignMove
        [S-foreign-order]."""
        before, self.before = self.before, view
        if event.player != self.seat and event.player not in self.unknown:
            hand, tokens = (before.hands[event.player], before.clue_tokens) if before is not None else mover_before(view, event)
            self.check_move(hand, tokens, event)
        self.unknown.discard(event.player)
        self.own.note(self.seat, event)  # [H-rec-turn] used once; a card played may have been this seat's
        for seat, told in self.told.items():
            told.note(seat, event)
        if not isinstance(event.action, Hint):
            return
        others = self.others(view, event.player)
        playable = playable_identities(view)
        number = decode_event(self.code, event, view.hands[event.action.target])
        # [H-rec-turn] a seat that may discard sends its number; one that may not, with the
        # number unsendable, sends the nearest sendable one, which nobody meant
        message = is_executable(self.config, DISCARD_VALUES[0], view.clue_tokens + 1, len(view.hands[event.player]))
        self.remember(event.player, number, others, playable, message)
        if event.player == self.seat:
            return
        if event.action.target != self.seat:
            check_choice(self.code, event, number, self.sight.of(view))  # [S-foreign-detect]
        self.own = Told(recover(number, list(others.values()), MODULUS), playable)  # [H-recover]

    def remember(self, cluer: int, number: int, values: dict[int, int], playable: int, message: bool) -> None:
        """[S-foreign-order] what every other seat clued by ``cluer``'s hint (``number``) now
        holds: its recommendation (``values``) when the hint sent the cluer's number; when
        this seat gave it, what the seat decodes from it (this seat knows every value); when
        another seat that may not discard gave it, unknown until that seat moves."""
        for seat, value in values.items():
            self.unknown.discard(seat)
            if cluer == self.seat:
                others = [other for receiver, other in values.items() if receiver != seat]
                self.told[seat] = Told(recover(number, others, MODULUS), playable)
            elif message:
                self.told[seat] = Told(value, playable)
            else:
                self.unknown.add(seat)

    def check_move(self, hand: Sequence[int], tokens: int, event: Event) -> None:
        """[S-foreign-order] ForeignMove if another seat's move is none that H-rec-turn gives
        it, from the recommendation it was given (as this seat computed it), its card ids
        ``hand`` and the clue ``tokens`` before the move (public)."""
        mover = event.player
        told = self.told.get(mover, Told())
        size, value = len(hand), told.received
        play = SLOT_OF[value] if value is not None and IS_PLAY[value] and SLOT_OF[value] < size else None
        newest = max(range(size), key=hand.__getitem__) if hand else 0
        if value is not None and IS_DISCARD[value] and is_executable(self.config, value, tokens, size):
            discard: int | None = SLOT_OF[value]
        elif size and is_executable(self.config, DISCARD_VALUES[newest], tokens, size):
            discard = newest
        else:
            discard = None
        last_play = newest if discard is None and tokens == 0 else None
        if is_off_rule(event.action, play, not told.played_since, discard, tokens > 0, last_play):
            raise ForeignMove("S-foreign-order", f"turn {event.turn}: seat {mover}'s {event.action} is no move of "
                              f"H-rec-turn for its recommendation {value}")

    def act(self, view: PlayerView) -> Action:
        """[H-rec-turn] a recommended play, unless a card played since may have had its
        identity; else a hint; else the recommended discard, or the newest card."""
        size = len(view.own_hand)
        value = self.own.received
        if value is not None and IS_PLAY[value] and SLOT_OF[value] < size and not self.maybe_played(view):
            return Play(SLOT_OF[value])
        number = self.number(view) if view.clue_tokens > 0 else None
        seen = self.sight.of(view) if number is not None else ()
        sendable = self.code.sendable(self.seat, seen) if number is not None else 0
        if number is not None and sendable >> number & 1:
            return self.code.encode(self.seat, seen, number)
        if value is not None and IS_DISCARD[value] and is_executable(self.config, value, view.clue_tokens, size):
            return Discard(SLOT_OF[value])
        newest = max(range(size), key=view.own_hand.__getitem__)
        if is_executable(self.config, DISCARD_VALUES[newest], view.clue_tokens, size):
            return Discard(newest)
        if number is not None:  # [H-rec-code] all tokens and the number cannot be sent
            nearest = min((x for x in range(MODULUS) if sendable >> x & 1), key=lambda x: (x - number) % MODULUS)
            return self.code.encode(self.seat, seen, nearest)
        return Play(newest)

    def maybe_played(self, view: PlayerView) -> bool:
        """[H-rec-turn] whether a card played since the recommendation may have had the
        identity of the recommended card (:func:`may_have_been_played`)."""
        return may_have_been_played(view, self.own.played_since)

    @property
    def recommended(self) -> int | None:
        """[H-rec-turn] this seat's standing recommendation (None once it moved)."""
        return self.own.received

    def number(self, view: PlayerView) -> int:
        """[H-rec-code, H-sum] the number that recommends to every other seat: the sum of
        their recommendations for the state after this hint."""
        snap = snapshot_of(view)
        return hat_sum(list(self.others(view, self.seat, snap._replace(tokens=snap.tokens - 1)).values()), MODULUS)

    def others(self, view: PlayerView, cluer: int, snap: Snapshot | None = None) -> dict[int, int]:
        """The recommendation of every seat but this one and the cluer, by seat."""
        snap = snapshot_of(view) if snap is None else snap
        return {
            seat: recommend(self.config, snap, [card for card in cards if card is not None])
            for seat, cards in enumerate(view.cards)
            if seat not in (self.seat, cluer)
        }


@attrs.define
class Told:
    """[H-rec-turn, S-foreign-order] a seat's last recommendation (None once it moved), the
    identities playable when it was given, and those of them played since: what a seat
    keeps of its own, what every seat keeps of every other seat's, and (as
    :class:`~hanabi_ref.tools.rl.train.team.SeatMemory`) what a learned seat keeps."""

    received: int | None = None
    playable_then: int = 0
    played_since: list[int] = attrs.Factory(list)

    def note(self, seat: int, event: Event) -> None:
        """``seat``'s recommendation after ``event``: spent by its own move; a card played
        that was playable when it was given may have been the recommended one."""
        if event.player == seat:
            self.received = None
        elif event.success and event.card is not None and self.playable_then >> event.card & 1:
            self.played_since.append(event.card)


def unsupported(config: GameConfig) -> str | None:
    """Why the recommendation strategy cannot play ``config``, or None [H-rec]: the
    limits of the hat player, classic touch included [H-configs, S-variants]."""
    return unsupported_by(config, recommendation_code, "hints")


def build(params: Mapping[str, Value]) -> StrategyFactory:
    """The factory of :class:`RecommendationPlayer`."""

    def factory(config: GameConfig, seat: int, seed: int) -> RecommendationPlayer:
        return RecommendationPlayer(config, seat)

    return adaptive(factory)  # [S-foreign]


RECOMMENDATION_SPEC = StrategySpec(
    "recommendation",
    "the paper's hat strategy: every hint recommends a play or discard to every other player",
    (),
    build,
    unsupported,
)
