"""The public knowledge of the information strategy, the board it is read against and the
moment a seat reads [I-public, I-weights, I-public-hint, I-public-move, I-common].

Identities are bits of a mask (hanabi_ref.engine.cards).  What a hint tells about a card is the
engine's knowledge set K_c (2.14), which every view carries for every card; what the
strategy's own conventions tell (the answers of I-answers, I-no-hint-needed) is kept here
as one more mask per card id.  A card's public set is the intersection of the two with
the identities of positive public weight.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Final, NamedTuple

from hanabi_ref.engine.actions import Discard, Play
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import Event
from hanabi_ref.players.strategies.knowledge import composition_counts
from hanabi_ref.engine.view import PlayerView
from hanabi_ref.engine.tables import tables_for


def identities(mask: int) -> list[int]:
    """The identities in ``mask``, in increasing order, as a list.  The same as
    :func:`hanabi_ref.engine.cards.members`, but compiled with this package: calling that
    interpreted generator from the compiled strategy cost 6 % of its games per second."""
    cards, card = [], 0
    while mask:
        if mask & 1:
            cards.append(card)
        mask >>= 1
        card += 1
    return cards


RATIO_BOUND: Final = 1 << 24
"""Numerators and denominators of :func:`ratio` stay below this."""


def ratio(part: int, whole: int) -> float:
    """``part / whole`` as a float that compares exactly like the fraction, for
    0 <= part < 2**24 and 0 < whole < 2**24: two different such fractions a/b < c/d differ
    by at least 1/(bd), a relative gap of at least 1/(bc) > 2**-48, far above the 2**-53
    of one correctly rounded division, so their floats keep the order; equal fractions
    round to the same float.  (Exact fractions cost a tenth of the strategy's time.)"""
    return part / whole


class Weights:
    """Integer weights of the identities, summed over a mask with one population count
    per bit plane (weights are the copies of an identity, rarely above 3)."""

    __slots__ = ("counts", "planes", "positive")

    def __init__(self, counts: Sequence[int]) -> None:
        self.counts = tuple(counts)
        # One pass over the identities: the bit planes (plane b holds the identities whose
        # weight has bit b) and the identities of positive weight.  A board is made at
        # every play and discard and private weights at every turn, so this loop runs
        # hundreds of times a game: the first two planes (weights up to 3, every deck of
        # our presets) are kept in two integers, higher weights take the general loop.
        low = high = positive = most = 0
        for card, count in enumerate(self.counts):
            if count > 0:
                bit = 1 << card
                positive |= bit
                if count & 1:
                    low |= bit
                if count & 2:
                    high |= bit
                if count > most:
                    most = count
            elif count < 0:
                raise ValueError(f"I-weights: negative weight in {self.counts}")
        if most > 3:
            planes = [low, high] + [0] * (most.bit_length() - 2)
            for card, count in enumerate(self.counts):
                count >>= 2
                bit = 2
                while count:
                    if count & 1:
                        planes[bit] |= 1 << card
                    count >>= 1
                    bit += 1
            self.planes = tuple(planes)
        else:
            self.planes = (low, high)[: most.bit_length()]
        self.positive = positive

    def __getitem__(self, card: int) -> int:
        return self.counts[card]

    def total(self, mask: int) -> int:
        """The sum of the weights of the identities in ``mask``."""
        planes = self.planes
        if len(planes) == 2:
            return (mask & planes[0]).bit_count() + ((mask & planes[1]).bit_count() << 1)
        if len(planes) == 1:  # every weight 0 or 1: late in a game, a seat's private weights
            return (mask & planes[0]).bit_count()
        return sum((mask & plane).bit_count() << bit for bit, plane in enumerate(planes))


class Board:
    """The public numbers of one moment of a game that the strategy reads [I-weights]:
    the fields, the public weights (copies neither played nor discarded) and the masks of
    the playable, the dead and the dispensable identities."""

    __slots__ = ("config", "fields", "weights", "discarded", "playable", "dead", "dispensable", "values", "live",
                 "key", "hash")

    def __init__(self, config: GameConfig, fields: Sequence[int], discarded: Sequence[int], weights: Sequence[int]) -> None:
        self.config = config
        self.values = config.values
        self.fields = tuple(fields)
        self.discarded = tuple(discarded)
        self.weights = Weights(weights)
        self.live = self.weights.positive
        """The identities of positive public weight."""
        self.playable, self.dead = _playable_and_dead(config, self.fields, self.discarded)
        self.dispensable = self.dead
        """[I-turn] (step 4) the dead identities, and those whose copies not discarded (in
        hands, in the stack or played, as the source counts them) are not exactly one."""
        for card, copies in enumerate(composition_counts(config)):
            if copies - self.discarded[card] != 1:
                self.dispensable |= 1 << card
        self.key = (config, self.fields, self.discarded, self.weights.counts)
        """Everything the board holds, hashable: equal boards have equal keys."""
        self.hash = hash(self.key)
        """The key's hash, made once: boards key the strategy's caches."""

    @classmethod
    def of(cls, view: PlayerView) -> Board:
        """The board of a view: weights are the composition minus the cards played or
        discarded [I-weights].  The cards played are the ones below the fields."""
        config = view.config
        discarded = [0] * (config.values * len(config.suits))
        for _, card in view.discard:
            discarded[card] += 1
        return board_of(config, view.fireworks, tuple(discarded))

    def __eq__(self, other: object) -> bool:
        # The key's parts compared one by one, the configuration by identity first: the
        # compiled build compares a typed tuple's items with ``==``, which for two
        # equal boards of one game would compare the configuration field by field.
        if self is other:
            return True
        if not isinstance(other, Board):
            return False
        return ((self.config is other.config or self.config == other.config) and self.fields == other.fields
                and self.discarded == other.discarded and self.weights.counts == other.weights.counts)

    def __hash__(self) -> int:
        return self.hash

    def weight(self, mask: int, weights: Weights | None = None) -> int:
        """The sum of the weights of the identities in ``mask`` (public ones by default)."""
        return (self.weights if weights is None else weights).total(mask)

    def probability(self, mask: int, event: int, weights: Weights | None = None) -> Fraction:
        """P(the card's identity is in ``event``) for a card whose set is ``mask``."""
        table = self.weights if weights is None else weights
        whole = table.total(mask)
        return Fraction(table.total(mask & event), whole) if whole else Fraction(0)

    def surely(self, mask: int, event: int, weights: Weights | None = None) -> bool:
        """P(event) = 1: the card may be something, and nothing outside ``event``."""
        table = self.weights if weights is None else weights
        return table.total(mask & ~event) == 0 and table.total(mask) > 0

    def possibly(self, mask: int, event: int, weights: Weights | None = None) -> bool:
        """P(event) > 0."""
        return (self.weights if weights is None else weights).total(mask & event) > 0


class BoardReader:
    """The boards of one seat's views, one game after the other: a view whose fields and
    discard pile have not changed since the last gives the same board, and only the
    discards added since are counted (the pile only grows within a game).  The strategy's
    factory hands the seats of its games one configuration object (see
    :func:`~hanabi_ref.players.strategies.info.player.build`), so that their boards share it
    and comparing their keys never compares configurations field by field."""

    __slots__ = ("config", "fields", "seen", "discarded", "board")

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.fields: tuple[int, ...] = ()
        self.seen = 0
        self.discarded = [0] * (config.values * len(config.suits))
        self.board: Board | None = None

    def of(self, view: PlayerView) -> Board:
        """The board of ``view`` (as :meth:`Board.of`)."""
        pile = view.discard
        if self.board is not None and len(pile) == self.seen and view.fireworks == self.fields:
            return self.board
        if len(pile) < self.seen:
            self.seen, self.discarded = 0, [0] * len(self.discarded)
        for index in range(self.seen, len(pile)):
            self.discarded[pile[index][1]] += 1
        self.seen, self.fields = len(pile), view.fireworks
        self.board = board_of(self.config, view.fireworks, tuple(self.discarded))
        return self.board


@functools.lru_cache(maxsize=1024)
def board_of(config: GameConfig, fields: tuple[int, ...], discarded: tuple[int, ...]) -> Board:
    """The board with these fields and discards (made once; every seat reads the same: a
    bounded cache of a pure function of immutable arguments)."""
    weights = list(composition_counts(config))
    for card, copies in enumerate(discarded):
        weights[card] -= copies
    for suit, height in enumerate(fields):
        for value in range(height):
            weights[suit * config.values + value] -= 1
    return Board(config, fields, discarded, weights)


def _playable_and_dead(config: GameConfig, fields: Sequence[int], discarded: Sequence[int]) -> tuple[int, int]:
    """The masks of the identities playable now and of the dead ones: at or below their
    field, or at or above the first value over the field whose copies are all discarded."""
    playable = dead = 0
    values = config.values
    for suit_index, suit in enumerate(config.suits):
        height, base = fields[suit_index], suit_index * values
        blocked = values + 1
        for value in range(height + 1, values + 1):
            if discarded[base + value - 1] >= suit.counts[value - 1]:
                blocked = value
                break
        for value in range(1, values + 1):
            if value <= height or value >= blocked:
                dead |= 1 << (base + value - 1)
            elif value == height + 1:
                playable |= 1 << (base + value - 1)
    return playable, dead


class PublicKnowledge:
    """[I-public] The masks the strategy's conventions put on each card, by card id: the
    identities a card may still have by the answers of earlier hints and inferences.  A
    card with no entry is unrestricted.  Every seat holds one and applies the same events
    to it, so all are equal (I-common)."""

    __slots__ = ("limits",)

    def __init__(self) -> None:
        self.limits: dict[int, int] = {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PublicKnowledge) and self.limits == other.limits

    def __hash__(self) -> int:  # mutable: compared, never hashed
        raise TypeError("PublicKnowledge is mutable")

    def copy(self) -> PublicKnowledge:
        twin = PublicKnowledge()
        twin.limits = dict(self.limits)
        return twin

    def restrict(self, card_id: int, mask: int) -> None:
        """Keep only the identities in ``mask`` for card ``card_id`` (I-answers)."""
        self.limits[card_id] = self.limits.get(card_id, -1) & mask

    def apply(self, restrictions: Iterable[tuple[tuple[int, ...], list[int]]]) -> None:
        """Restrict each hand's cards (card ids) to their masks: what a move tells, as
        :mod:`~hanabi_ref.players.strategies.info.reading` returns it (I-answers).  The
        types are concrete (a tuple and a list), so the compiled build indexes them."""
        for card_ids, masks in restrictions:
            for card_id, mask in zip(card_ids, masks):
                self.restrict(card_id, mask)

    def forget(self, card_id: int) -> None:
        """The card left its hand (I-public-move): its entry goes."""
        self.limits.pop(card_id, None)

    def sets(self, hand: Sequence[int], knowledge: Sequence[int], board: Board) -> list[int]:
        """The public set of each card of a hand (card ids, their hint knowledge sets), in
        slot order [I-public]: the hint knowledge, the answers, and the identities of
        positive public weight."""
        limits, live = self.limits, board.live
        return [known & limits.get(card_id, -1) & live for card_id, known in zip(hand, knowledge)]


class Moment(NamedTuple):
    """The public facts of one moment as one seat sees them: the hands (card ids), the
    identities it sees, the hint knowledge, the board and the tokens.  A seat keeps the
    moment of the start of the next turn after every event; the first turn's moment is
    rebuilt from the first event (no seat sees the game before it)."""

    hands: tuple[tuple[int, ...], ...]
    cards: tuple[tuple[int | None, ...], ...]
    knowledge: tuple[tuple[int, ...], ...]
    board: Board
    hints: int

    @classmethod
    def of(cls, view: PlayerView, board: Board | None = None) -> Moment:
        """The moment of ``view``; ``board`` is its board when the caller has it."""
        return cls(view.hands, view.cards, view.knowledge, Board.of(view) if board is None else board, view.clue_tokens)

    @classmethod
    def before_first(cls, view: PlayerView, event: Event) -> Moment:
        """The start of the game, rebuilt from the view after its first event: every
        card unknown, nothing played or discarded, the actor's hand as before its move."""
        config = view.config
        hands: list[tuple[int, ...]] = list(view.hands)
        cards: list[tuple[int | None, ...]] = list(view.cards)
        if isinstance(event.action, (Play, Discard)):
            actor, slot = event.player, event.action.slot
            hand: list[int] = [card_id for card_id in hands[actor] if card_id != event.drawn]
            seen: list[int | None] = [card for card, card_id in zip(cards[actor], hands[actor]) if card_id != event.drawn]
            hand.insert(slot, event.card_id if event.card_id is not None else -1)
            seen.insert(slot, event.card if actor != view.seat else None)
            hands[actor], cards[actor] = tuple(hand), tuple(seen)
        counts = composition_counts(config)
        board = Board(config, (0,) * len(config.suits), (0,) * len(counts), counts)
        knowledge = tuple((tables_for(config).all_cards_mask,) * len(hand) for hand in hands)
        return cls(tuple(hands), tuple(cards), knowledge, board, config.max_hints)
