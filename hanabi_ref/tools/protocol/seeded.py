"""Engines that deal from their own seed, and how ``verify`` adopts their deal [EP-seed].

Some engines cannot be handed a deck: the DeepMind environment, for one, deals every card
from its own random generator.  Such an engine says so in its ``hello`` answer
(``"deals": "seed"``); ``verify`` then starts each game with a seed instead of a deck,
and the engine reveals what it dealt: the whole stack S0 at once, or the cards dealt so
far (the starting hands, then each card as it is drawn).  ``verify`` adopts that deal:
its own game is played on a stack made of the cards revealed, in their order, followed by
the configuration's other cards in canonical order, and every card revealed later is
moved (within the cards not yet drawn) to the place where it is drawn.  The cards not yet
drawn show nowhere but in the size of the stack, so the reference game is the engine's
game, card for card, at every step.  A revealed card that the stack does not have left
is a divergence (2.16-1-deal).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol, TypeGuard

import attrs

from hanabi_ref.engine.actions import Action
from hanabi_ref.engine.cards import Identity, as_identities, suit_of, value_of
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import GameState
from hanabi_ref.tools.protocol.engine import Engine, ReferenceEngine
from hanabi_ref.engine.tables import tables_for


@attrs.frozen
class Deal:
    """What a seed-dealing engine revealed when its game started [EP-seed]: ``cards``, the
    stack S0 from its top, entire when ``complete``, else the cards dealt so far."""

    cards: tuple[int, ...]
    complete: bool


class SeedDealingEngine(Engine, Protocol):
    """An engine that may deal from its own seed [EP-seed] (``deals_from_seed`` says
    whether this one does)."""

    deals_from_seed: bool

    def new_seeded_game(self, config: GameConfig, seed: int) -> Deal:
        """Start a game of ``config`` dealt from the engine's own ``seed``; what it revealed
        of the deal (raise UnsupportedConfig for a configuration it cannot play)."""

    def drawn(self) -> tuple[int, ...]:
        """The cards dealt by the last action accepted, in the order drawn (none after a
        refused action, or when the whole stack was revealed at the start)."""

    @property
    def game_config(self) -> GameConfig:
        """The configuration of the game being played."""


def dealing_engine(engine: Engine) -> TypeGuard[SeedDealingEngine]:
    """Whether ``engine`` deals from its own seed [EP-seed]."""
    return getattr(engine, "deals_from_seed", False) is True


class NotInStack(Exception):
    """A revealed card that the stack does not have left (2.16-1-deal); one line."""


def adopted_deck(config: GameConfig, revealed: Sequence[int]) -> tuple[int, ...]:
    """[EP-seed] the stack S0 for a deal whose first cards are ``revealed``: those, then
    the configuration's other cards in canonical order."""
    tables = tables_for(config)
    left = Counter[int](tables.canonical_deck)
    for index, card in enumerate(revealed):
        if left[card] == 0:
            raise NotInStack(f"the engine dealt {_name(card, config)} as card {index} of the stack, "
                             f"but the configuration has only {tables.canonical_deck.count(card)} "
                             f"(2.16-1-deal)")
        left[card] -= 1
    rest = []
    for card in tables.canonical_deck:
        if left[card] > 0:
            rest.append(card)
            left[card] -= 1
    return (*revealed, *rest)


def adopt_drawn(state: GameState, drawn: Sequence[int]) -> GameState:
    """[EP-seed] ``state`` with the cards ``drawn`` placed, in order, at the top of its
    stack: each is moved there from among the cards not yet drawn, which nothing but the
    stack's size shows."""
    deck: list[int] = list(state.deck)
    for offset, card in enumerate(drawn):
        position = state.next_card + offset
        try:
            found = deck.index(card, position)
        except ValueError:
            raise NotInStack(f"the engine drew {_name(card, state.config)}, which the stack does not have left "
                             f"(2.16-1-deal)") from None
        deck[position], deck[found] = deck[found], deck[position]
    return attrs.evolve(state, deck=tuple(as_identities(deck))) if drawn else state


def _name(card: int, config: GameConfig) -> str:
    """A card identity as ``verify``'s reports name it (``r3``: the suit's abbreviation in
    lower case, then the value)."""
    identity = Identity(card)  # an engine's card, read as an identity of ``config``
    return f"{config.suits[suit_of(identity, config.values)].abbreviation.lower()}{value_of(identity, config.values)}"


class SeededReference(ReferenceEngine):
    """Our engine dealing from its own seed [EP-seed]: S0 is ``deck_from_seed(config,
    seed)`` (D-seed).  ``reveal="deck"`` reveals the whole stack when the game starts;
    ``reveal="drawn"`` the cards dealt to the hands, then each card as it is drawn.
    ``hanabi-ref serve --deals seed|seed-drawn`` serves it: the reference of the protocol's
    seed-dealing variant."""

    deals_from_seed = True

    def __init__(self, reveal: str = "deck") -> None:
        super().__init__()
        if reveal not in ("deck", "drawn"):
            raise ValueError(f"reveal: 'deck' or 'drawn', not {reveal!r}")
        self.reveal = reveal
        self.name = f"hanabi-ref (deals from a seed, reveals {'the deck' if reveal == 'deck' else 'cards as drawn'})"
        self._drawn: tuple[int, ...] = ()

    def new_seeded_game(self, config: GameConfig, seed: int) -> Deal:
        from hanabi_ref.engine.dealing import deck_from_seed

        deck = deck_from_seed(config, seed)
        self.new_game(config, deck)
        self._drawn = ()
        if self.reveal == "deck":
            return Deal(deck, True)
        return Deal(deck[: self.current.next_card], False)

    def apply(self, action: Action) -> str | None:
        before = self.current.next_card
        refusal = super().apply(action)
        state = self.current
        self._drawn = state.deck[before:state.next_card] if refusal is None and self.reveal == "drawn" else ()
        return refusal

    def drawn(self) -> tuple[int, ...]:
        return self._drawn

    @property
    def game_config(self) -> GameConfig:
        return self.current.config
