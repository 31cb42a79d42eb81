"""The compositional variant model: suits with touch properties, a special rank and game
rules [VAR-model].

A variant is data: its suits (each a :class:`SuitKind`), the clue colours and clue ranks
players may give, an optional :class:`SpecialRank` (the ``X-Ones`` / ``X-Fives`` and
``Deceptive-`` modifiers) and its :class:`GameRules`.  Which clue touches which card is
:mod:`hanabi_ref.engine.variants.touch`; how a hanab.live name becomes a variant is
:mod:`hanabi_ref.engine.variants.names`.  Nothing here is wired into the engine yet: the bridge
to today's engine is :meth:`Variant.to_suits`, which refuses by name every part today's
:class:`hanabi_ref.engine.cards.Suit` cannot express.
"""

from __future__ import annotations

from typing import Literal

import attrs
import icontract

from hanabi_ref.engine.cards import Suit
from hanabi_ref.base.contracts import ENABLED
from hanabi_ref.base.errors import ConfigError

ColourTouch = Literal["listed", "none", "all", "prism"]
RankTouch = Literal["normal", "all", "none"]
SpecialColourTouch = Literal["normal", "all", "none"]
SpecialRankTouch = Literal["normal", "all", "none", "deceptive"]

START_RANK = 7
"""[VAR-up-or-down] The rank hanab.live's files give a START card."""

BASIC_RANKS = (1, 2, 3, 4, 5)
CLASSIC_COPIES = {1: 3, 2: 2, 3: 2, 4: 2, 5: 1}


class NotSupported(ConfigError):
    """A variant name, or a part of a variant, that we do not model or cannot play; the
    one-line message names the part ("Synesthesia: not supported") [VAR-refused]."""


@attrs.frozen
class SuitKind:
    """One suit and the clues that touch its cards as a rule [VAR-suit].

    ``colour_touch``: ``listed`` (the clue colours in ``colours`` touch it: an ordinary
    suit, an ambiguous or a dual-colour one) [VAR-own-colour]; ``all`` (every clue colour)
    [VAR-all-colours]; ``none`` [VAR-no-colours]; ``prism`` (the colour depends on the
    rank) [VAR-prism].  ``rank_touch``: ``normal`` (the clue of the card's rank),
    ``all`` [VAR-all-ranks] or ``none`` [VAR-no-ranks].  ``one_of_each``: a dark suit with
    one copy of each rank [VAR-dark].  ``inverted``: orange, whose play and discard are
    swapped [VAR-orange].
    """

    name: str
    abbreviation: str
    colour_touch: ColourTouch = "listed"
    colours: tuple[str, ...] = ()
    rank_touch: RankTouch = "normal"
    one_of_each: bool = False
    inverted: bool = False


@attrs.frozen
class SpecialRank:
    """A rank modifier [VAR-special-rank]: the cards of ``rank`` (1 or 5) in every suit
    get the colour and rank behaviour of the suit named ``source`` (``Rainbow-Ones``:
    every colour; ``Pink-Fives``: every rank), or, for ``Deceptive-``, are touched by one
    other rank chosen by their suit [VAR-deceptive]."""

    rank: int
    source: str
    colour_touch: SpecialColourTouch = "normal"
    rank_touch: SpecialRankTouch = "normal"


@attrs.frozen
class GameRules:
    """The game rules a variant name adds, as named flags [VAR-up-or-down, VAR-funnels,
    VAR-chimneys, VAR-scarce-ones, VAR-critical-fours, VAR-clue-starved, VAR-blind,
    VAR-mute, VAR-odds-and-evens, VAR-alternating-clues]."""

    up_or_down: bool = False
    funnels: bool = False
    chimneys: bool = False
    scarce_ones: bool = False
    critical_fours: bool = False
    clue_starved: bool = False
    colour_blind: bool = False
    number_blind: bool = False
    colour_mute: bool = False
    number_mute: bool = False
    odds_and_evens: bool = False
    alternating_clues: bool = False

    def names(self) -> tuple[str, ...]:
        """The flags that are set, in declaration order (for messages)."""
        return tuple(field.name for field in attrs.fields(GameRules) if getattr(self, field.name))


@icontract.invariant(
    lambda self: 1 <= len(self.suits) <= 6, "VAR-model: a variant has 1 to 6 suits (3 to 6 by name)", enabled=ENABLED
)
@attrs.frozen(slots=False)
class Variant:
    """A variant: its hanab.live name, suits in hanab.live's suit order, clue colours in
    hanab.live's clue order, the rank clues that exist, a special rank and game rules
    [VAR-model, VAR-colours, VAR-clue-ranks]."""

    name: str
    suits: tuple[SuitKind, ...]
    colours: tuple[str, ...]
    clue_ranks: tuple[int, ...]
    special_rank: SpecialRank | None = None
    rules: GameRules = GameRules()

    @property
    def ranks(self) -> tuple[int, ...]:
        """The ranks a card may have: 1-5, and START under Up or Down [VAR-up-or-down]."""
        return (*BASIC_RANKS, START_RANK) if self.rules.up_or_down else BASIC_RANKS

    @property
    def max_score(self) -> int:
        """Five cards per suit, whatever the rules [VAR-max-score]."""
        return 5 * len(self.suits)

    def copies(self, suit_index: int, rank: int) -> int:
        """How many cards of (suit, rank) the deck holds [VAR-counts, VAR-dark,
        VAR-critical-fours, VAR-scarce-ones, VAR-up-or-down]."""
        if rank not in self.ranks:
            return 0
        if self.suits[suit_index].one_of_each:
            return 1  # a dark suit: one of each rank, and one START card under Up or Down
        if rank == START_RANK or (rank == 4 and self.rules.critical_fours):
            return 1
        if rank == 1 and self.rules.up_or_down:
            return 1  # two of the three ones make room for the START card
        if rank == 1 and self.rules.scarce_ones:
            return 2
        return CLASSIC_COPIES[rank]

    def counts(self, suit_index: int) -> tuple[int, ...]:
        """The copies of each rank of :attr:`ranks` in one suit [VAR-counts]."""
        return tuple(self.copies(suit_index, rank) for rank in self.ranks)

    @property
    def deck_size(self) -> int:
        """The number of cards in the deck [VAR-counts]."""
        return sum(sum(self.counts(index)) for index in range(len(self.suits)))

    def to_suits(self) -> tuple[tuple[Suit, ...], tuple[str, ...]]:
        """Today's engine suits and clue colours for a variant they can express
        [VAR-to-suits, VAR-existing]: colour touch by a fixed set of clue colours, each rank clue
        touching exactly its rank, the classic or one-of-each counts and no game rule.
        Anything else raises :class:`NotSupported` naming the part."""
        self._check_expressible()
        suits = tuple(
            Suit(kind.name, kind.abbreviation, self.counts(index), self._touched_by(kind))
            for index, kind in enumerate(self.suits)
        )
        return suits, self.colours

    def _touched_by(self, kind: SuitKind) -> frozenset[int]:
        if kind.colour_touch == "all":
            return frozenset(range(len(self.colours)))
        return frozenset(index for index, colour in enumerate(self.colours) if colour in kind.colours)

    def _check_expressible(self) -> None:
        where = self.name
        if self.rules.names():
            raise NotSupported(f"{where}: rule {self.rules.names()[0]} is not supported by the engine yet")
        if self.special_rank is not None:
            raise NotSupported(f"{where}: {self.special_rank.source} is not supported by the engine yet")
        if self.clue_ranks != BASIC_RANKS:
            raise NotSupported(f"{where}: rank clues {list(self.clue_ranks)} are not supported by the engine yet")
        for kind in self.suits:
            reason = _inexpressible(kind)
            if reason:
                raise NotSupported(f"{where}: suit {kind.name} ({reason}) is not supported by the engine yet")


def _inexpressible(kind: SuitKind) -> str:
    """Why today's Suit cannot hold this suit kind, or "" when it can [VAR-to-suits]."""
    if kind.colour_touch == "prism":
        return "its clue colour depends on the rank"
    if kind.rank_touch == "all":
        return "every rank clue touches it"
    if kind.rank_touch == "none":
        return "no rank clue touches it"
    if kind.inverted:
        return "play and discard are swapped"
    return ""
