"""Strategies: each is a factory ``(config, seat, seed) -> Strategy`` [2.17-view].

``random`` plays uniformly random legal actions; ``simple`` plays a card it knows to be
playable, else hints a playable card, else discards.
"""

from __future__ import annotations

from collections.abc import Mapping

from hanabi_ref.game import StrategyFactory
from hanabi_ref.strategies.random import RandomStrategy
from hanabi_ref.strategies.simple import SimpleStrategy

STRATEGIES: Mapping[str, StrategyFactory] = {
    "random": RandomStrategy,
    "simple": SimpleStrategy,
}
