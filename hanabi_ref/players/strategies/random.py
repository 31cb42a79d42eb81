"""Uniformly random legal moves (the random rule of Example 2.18, restricted to legal
actions) [2.16-actions]."""

from __future__ import annotations

from hanabi_ref.engine.actions import Action
from hanabi_ref.engine.dealing import SplitMix64
from hanabi_ref.players.strategy import BaseStrategy
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.view import PlayerView, view_legal_actions


class RandomStrategy(BaseStrategy):
    """Chooses uniformly among the legal actions, from its own seeded generator."""

    def __init__(self, config: GameConfig, seat: int, seed: int) -> None:
        self.rng = SplitMix64(seed)

    def act(self, view: PlayerView) -> Action:
        return self.rng.choice(view_legal_actions(view))
