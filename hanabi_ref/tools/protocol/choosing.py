"""Choosing the moves of a compared game: the legal moves a chooser picks from and the
illegal ones it may probe an engine with [EP-compare, EP-random].

``verify`` plays each compared game with a :class:`Chooser`; the peer adapters' own
choosers (``hanabi_ref.tools.peers.choosers``) offer the same illegal probes.
"""

from __future__ import annotations

import functools
import random

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import GameState


class Chooser:
    """Picks the moves of a compared game; ``probe`` may offer an illegal action."""

    def choose(self, state: GameState, legal: list[Action]) -> Action:
        raise NotImplementedError

    def probe(self, state: GameState, legal: list[Action]) -> Action | None:
        return None


class RandomChooser(Chooser):
    """Uniformly random legal moves, and every fifth turn or so an illegal probe."""

    def __init__(self, seed: int, probe_rate: float = 0.2) -> None:
        self._random = random.Random(seed)
        self._probe_rate = probe_rate

    def choose(self, state: GameState, legal: list[Action]) -> Action:
        return legal[self._random.randrange(len(legal))]

    def probe(self, state: GameState, legal: list[Action]) -> Action | None:
        if self._random.random() >= self._probe_rate:
            return None
        illegal = illegal_candidates(state, legal)
        return illegal[self._random.randrange(len(illegal))] if illegal else None


def candidate_actions(config: GameConfig) -> list[Action]:
    """Every action an engine could be asked to take: hints to every seat (the player's
    own included) with every value and clue colour, plays and discards of every slot and
    of the slot just past a full hand."""
    actions: list[Action] = []
    for target in range(config.players):
        actions += [Hint(target, "colour", c) for c in range(len(config.colours))]
        actions += [Hint(target, "value", v) for v in range(1, config.values + 1)]
    for slot in range(config.hand_size + 1):
        actions += [Discard(slot), Play(slot)]
    return actions


def illegal_candidates(state: GameState, legal: list[Action]) -> list[Action]:
    """The candidate actions the reference refuses in ``state``, whose legal actions are
    ``legal``: a candidate is refused exactly when it is not among them (2.16-actions;
    tests/test_verify.py checks the two against :func:`illegality`)."""
    allowed = set(legal)
    return [a for a in _candidates(state.config) if a not in allowed]


@functools.lru_cache(maxsize=64)
def _candidates(config: GameConfig) -> tuple[Action, ...]:
    return tuple(candidate_actions(config))
