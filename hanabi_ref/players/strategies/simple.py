"""A simple sensible strategy: play a card known to be playable, else hint a playable
card, else discard [2.17-view].

"Known" uses only the view: a card's possible identities are those in its knowledge
set K_c of which some copy is unaccounted for by the cards the seat can see (other
hands, discard pile, fields).
"""

from __future__ import annotations

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.cards import Identity, value_of
from hanabi_ref.players.strategy import BaseStrategy
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.players.strategies.knowledge import clue_table, composition_counts, unseen_counts
from hanabi_ref.engine.view import PlayerView, view_is_legal, view_legal_actions


def unseen_mask(view: PlayerView) -> int:
    """Identities of which at least one copy is hidden from the seat [S-know]."""
    counts = unseen_counts(view, composition_counts(view.config))
    return sum(1 << card for card, count in enumerate(counts) if count > 0)


def playable_mask(view: PlayerView) -> int:
    """Identities that would extend a field stack now (Definition 4.2's playable)."""
    n = view.config.values
    return sum(1 << (suit * n + height) for suit, height in enumerate(view.fireworks) if height < n)


def useless_mask(view: PlayerView) -> int:
    """Identities already on their field stack."""
    n = view.config.values
    return sum(1 << (suit * n + v) for suit, height in enumerate(view.fireworks) for v in range(height))


class SimpleStrategy(BaseStrategy):
    """Play if sure, else hint a playable card (value first), else discard."""

    def __init__(self, config: GameConfig, seat: int, seed: int) -> None:
        self.seat = seat

    def act(self, view: PlayerView) -> Action:
        possible = unseen_mask(view)
        playable = playable_mask(view)
        own = [known & possible for known in view.own_knowledge]
        for slot, known in enumerate(own):
            if known and not known & ~playable:
                return Play(slot)
        hint = self._hint_for_playable(view, playable)
        if hint is not None:
            return hint
        useless = useless_mask(view)
        discard_slot = next((slot for slot, known in enumerate(own) if known and not known & ~useless), 0)
        if view_is_legal(view, Discard(discard_slot)):
            return Discard(discard_slot)
        return view_legal_actions(view)[0]

    def _hint_for_playable(self, view: PlayerView, playable: int) -> Hint | None:
        """A hint on the first playable card of another seat whose holder does not know
        it playable and that some hint can tell [S-variants]."""
        if view.clue_tokens < 1:
            return None
        players = view.config.players
        for offset in range(1, players):
            target = (view.seat + offset) % players
            for card, known in zip(view.cards[target], view.knowledge[target]):
                if card is not None and playable >> card & 1 and known & ~playable:
                    hint = self._informative_hint(view, target, card, known)
                    if hint is not None:
                        return hint
        return None

    @staticmethod
    def _informative_hint(view: PlayerView, target: int, card: Identity, known: int) -> Hint | None:
        """The value hint if it touches the card and the value is not yet known, else the
        first colour hint touching it, else the first touching hint that shrinks its
        knowledge set, else the value hint if it touches it; None when no hint touches it
        [S-variants].  Under classic touch: the value hint, else the suit's first colour."""
        clues = clue_table(view.config)
        value = value_of(card, view.config.values)
        mask = clues.own_value[card]
        if mask and known & ~mask:
            return Hint(target, "value", value)
        colour = clues.first_colour[card]
        if colour >= 0:
            return Hint(target, "colour", colour)
        found = clues.narrowing(card, known)
        if found is not None:
            return Hint(target, found[0], found[1])
        return Hint(target, "value", value) if mask else None
