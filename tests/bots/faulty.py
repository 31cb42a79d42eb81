"""A bot that plays many games at once and fails once, on purpose: the failure tests of
ISO-games.

    python -m tests.bots.faulty illegal|refuse|hang GAME MARKER

plays as :class:`~hanabi_ref.players.strategies.simple.SimpleStrategy` behind the bot protocol
(``games: many``), except in the GAME-th game its process starts (from 0), where its
first act is an illegal play (``illegal``), a strategy that raises (``refuse``: the seat
answers ``ok: false``) or never answered (``hang``).  The failure happens once: it
creates the file MARKER, and a process that finds MARKER plays every game well.  With
``HANABI_REF_BOT_PIDS`` set, it adds its process id to that file as it starts.
"""

from __future__ import annotations

import os
import sys
import time

from hanabi_ref.engine.actions import Action, Play
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.players.strategies.simple import SimpleStrategy
from hanabi_ref.players.strategy import Strategy, StrategyFactory
from hanabi_ref.engine.view import PlayerView


class Faulty(SimpleStrategy):
    """SimpleStrategy whose first act fails as ``mode`` says."""

    def __init__(self, config: GameConfig, seat: int, seed: int, mode: str, marker: str) -> None:
        super().__init__(config, seat, seed)
        self.mode = mode
        self.marker = marker

    def act(self, view: PlayerView) -> Action:
        if self.mode and not os.path.exists(self.marker):
            open(self.marker, "w", encoding="ascii").close()
            if self.mode == "illegal":
                return Play(9)
            if self.mode == "hang":
                time.sleep(3600)
            raise RuntimeError("the faulty bot refuses")
        return super().act(view)


def factory(mode: str, game: int, marker: str) -> StrategyFactory:
    """Simple strategies; the ``game``-th one built fails as ``mode`` says."""
    started = [0]

    def build(config: GameConfig, seat: int, seed: int) -> Strategy:
        started[0] += 1
        return Faulty(config, seat, seed, mode if started[0] == game + 1 else "", marker)

    return build


if __name__ == "__main__":
    from hanabi_ref.tools.isolation.seat import serve

    if "HANABI_REF_BOT_PIDS" in os.environ:
        with open(os.environ["HANABI_REF_BOT_PIDS"], "a", encoding="ascii") as pids:
            pids.write(f"{os.getpid()}\n")

    sys.exit(serve(factory(sys.argv[1], int(sys.argv[2]), sys.argv[3]), "faulty"))
