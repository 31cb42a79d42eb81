"""Move choosers for differential games against peer engines [PE-differential].

Uniformly random legal moves reach strikeouts quickly but rarely the end of the stack,
a 5 played with every hint token, or a long game; a *cheating* driver that sees the
whole reference state (its own cards included) plays on to the last round.  A
:class:`DriverChooser` mixes both, move by move, and probes the engine with illegal
actions as :class:`~hanabi_ref.tools.protocol.choosing.RandomChooser` does.
"""

from __future__ import annotations

import random

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.cards import suit_of, value_of
from hanabi_ref.engine.legality import hint_mask
from hanabi_ref.engine.state import GameState
from hanabi_ref.tools.protocol.choosing import Chooser, illegal_candidates


def is_playable(state: GameState, card_id: int) -> bool:
    """[2.16-2c-success] the card would succeed if played now."""
    card, n = state.deck[card_id], state.config.values
    return value_of(card, n) == state.fireworks[suit_of(card, n)] + 1


def is_useless(state: GameState, card_id: int) -> bool:
    """The card's value is already on its field stack, so it can never be played."""
    card, n = state.deck[card_id], state.config.values
    return value_of(card, n) <= state.fireworks[suit_of(card, n)]


def touched_count(state: GameState, hint: Hint) -> int:
    """How many cards of the target's hand the hint touches [2.16-2a-value, 2.16-2a-suit]."""
    mask = hint_mask(state.tables, hint)
    return sum(1 for card_id in state.hands[hint.target] if mask >> state.deck[card_id] & 1)


class DriverChooser(Chooser):
    """With probability ``random_rate`` a uniformly random legal move, otherwise the
    cheating driver [PE-differential]; an illegal probe with probability ``probe_rate``.

    The driver plays a playable card if it holds one; otherwise, with probability
    ``hint_rate``, gives a hint touching as many cards as any legal hint does; otherwise
    discards (a useless card if it holds one, else any); and when it may not discard
    (t = t0 in the hle and hanab-live presets), hints, or as a last resort plays a
    random card (an error)."""

    def __init__(self, seed: int, random_rate: float = 0.1, hint_rate: float = 0.3, probe_rate: float = 0.2) -> None:
        self._random = random.Random(seed)
        self.random_rate, self.hint_rate, self.probe_rate = random_rate, hint_rate, probe_rate

    def choose(self, state: GameState, legal: list[Action]) -> Action:
        if self._random.random() < self.random_rate:
            return self._pick(legal)
        return self.drive(state, legal)

    def drive(self, state: GameState, legal: list[Action]) -> Action:
        """The cheating driver's move (always one of ``legal``)."""
        hand = state.hands[state.current_player]
        playable = [Play(slot) for slot, card_id in enumerate(hand) if is_playable(state, card_id)]
        hints = [action for action in legal if isinstance(action, Hint)]
        discards = [action for action in legal if isinstance(action, Discard)]
        if playable:
            return self._pick(playable)
        if hints and (self._random.random() < self.hint_rate or not discards):
            return self._widest(state, hints)
        if discards:
            useless = [d for d in discards if is_useless(state, hand[d.slot])]
            return self._pick(useless or discards)
        return self._pick([action for action in legal if isinstance(action, Play)])

    def _widest(self, state: GameState, hints: list[Hint]) -> Action:
        counts = [touched_count(state, hint) for hint in hints]
        return self._pick([hint for hint, count in zip(hints, counts) if count == max(counts)])

    def _pick(self, actions: list[Action] | list[Play] | list[Discard] | list[Hint]) -> Action:
        return actions[self._random.randrange(len(actions))]

    def probe(self, state: GameState, legal: list[Action]) -> Action | None:
        """An action the reference refuses, now and then, to check the engine refuses it too."""
        if self._random.random() >= self.probe_rate:
            return None
        illegal = illegal_candidates(state, legal)
        return self._pick(illegal) if illegal else None
