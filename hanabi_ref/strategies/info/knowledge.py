"""The public knowledge of the information strategy, and the board it is read against
[I-public, I-weights, I-public-hint, I-public-move, I-common].

Identities are bits of a mask (hanabi_ref.cards).  What a hint tells about a card is the
engine's knowledge set K_c (2.14), which every view carries for every card; what the
strategy's own conventions tell (the answers of I-answers, I-no-hint-needed) is kept here
as one more mask per card id.  A card's public set is the intersection of the two with
the identities of positive public weight.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from hanabi_ref.rules import GameConfig
from hanabi_ref.strategies.knowledge import composition_counts
from hanabi_ref.view import PlayerView


class Board:
    """The public numbers of one moment of a game that the strategy reads [I-weights]:
    the fields, the public weights (copies neither played nor discarded) and the masks of
    the playable and the dead identities."""

    __slots__ = ("config", "fields", "weights", "discarded", "playable", "dead", "values")

    def __init__(self, config: GameConfig, fields: Sequence[int], discarded: Sequence[int], weights: Sequence[int]) -> None:
        self.config = config
        self.values = config.values
        self.fields = tuple(fields)
        self.discarded = tuple(discarded)
        self.weights = tuple(weights)
        self.playable, self.dead = _playable_and_dead(config, self.fields, self.discarded)

    @classmethod
    def of(cls, view: PlayerView) -> Board:
        """The board of a view: weights are the composition minus the cards played or
        discarded [I-weights]."""
        counts = composition_counts(view.config)
        discarded = [0] * len(counts)
        weights = list(counts)
        for _, card in view.discard:
            discarded[card] += 1
            weights[card] -= 1
        for _, card in view.played:
            weights[card] -= 1
        return cls(view.config, view.fields, discarded, weights)

    @property
    def live(self) -> int:
        """The identities of positive public weight."""
        mask = 0
        for card, weight in enumerate(self.weights):
            if weight > 0:
                mask |= 1 << card
        return mask

    def weight(self, mask: int, weights: Sequence[int] | None = None) -> int:
        """The sum of the weights of the identities in ``mask`` (public ones by default)."""
        table = self.weights if weights is None else weights
        total, card = 0, 0
        while mask:
            if mask & 1:
                total += table[card]
            mask >>= 1
            card += 1
        return total

    def probability(self, mask: int, event: int, weights: Sequence[int] | None = None) -> Fraction:
        """P(the card's identity is in ``event``) for a card whose set is ``mask``."""
        whole = self.weight(mask, weights)
        return Fraction(self.weight(mask & event, weights), whole) if whole else Fraction(0)


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

    def forget(self, card_id: int) -> None:
        """The card left its hand (I-public-move): its entry goes."""
        self.limits.pop(card_id, None)

    def sets(self, view: PlayerView, seat: int, board: Board) -> list[int]:
        """The public set of each card of ``seat``'s hand, in slot order [I-public]: the
        hint knowledge, the answers, and the identities of positive public weight."""
        live = board.live
        return [knowledge & self.limits.get(card_id, -1) & live
                for card_id, knowledge in zip(view.hands[seat], view.knowledge[seat])]
