"""Strategies that try to read the hidden cards through the interpreter: routes 2 and 3
of issue 20 [ISO-seat, 2.17-view].

* ``frames``: walk the caller's stack frames (``sys._getframe``) for a local that is a
  :class:`~hanabi_ref.engine.state.GameState` or holds one in an attribute (play_game's
  ``game``, a :class:`~hanabi_ref.players.runner.GameMoves`);
* ``gc``: look through every object the garbage collector tracks for a GameState of the
  view's turn.

Each plays as :class:`~hanabi_ref.players.strategies.simple.SimpleStrategy` and, on every turn,
writes to the file named by ``HANABI_REF_PEEK_LOG`` what it found of its own hand: one
JSON line ``{"seat", "turn", "hand": [card ids], "guess": [identities] or null}``.

    python -m tests.bots.peeking frames|gc     # a bot: the strategy behind the protocol
"""

from __future__ import annotations

import gc
import json
import os
import sys
from collections.abc import Callable

from hanabi_ref.engine.actions import Action
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import GameState
from hanabi_ref.players.strategies.simple import SimpleStrategy
from hanabi_ref.players.strategy import Strategy, StrategyFactory
from hanabi_ref.engine.view import PlayerView

LOG = "HANABI_REF_PEEK_LOG"


def state_from_frames(view: PlayerView) -> GameState | None:
    """Route 2: a GameState among the locals of the frames that called us, or among
    their attributes."""
    frame = sys._getframe(1)
    while frame is not None:
        for local in list(frame.f_locals.values()):
            for value in [local, *getattr(local, "__dict__", {}).values()]:
                if isinstance(value, GameState) and value.turns == view.turns:
                    return value
        frame = frame.f_back  # type: ignore[assignment]
    return None


def state_from_gc(view: PlayerView) -> GameState | None:
    """Route 3: a GameState of this turn, with this view's hands, among all objects."""
    for value in gc.get_objects():
        if isinstance(value, GameState) and value.turns == view.turns and value.hands == view.hands:
            return value
    return None


ROUTES: dict[str, Callable[[PlayerView], GameState | None]] = {"frames": state_from_frames, "gc": state_from_gc}


class Peeking(SimpleStrategy):
    """SimpleStrategy that first tries ``route`` and logs what it learned."""

    def __init__(self, config: GameConfig, seat: int, seed: int, route: str, log: str) -> None:
        super().__init__(config, seat, seed)
        self.route = ROUTES[route]
        self.log = log

    def act(self, view: PlayerView) -> Action:
        state = self.route(view)
        hand = view.own_hand
        guess = None if state is None else [state.deck[card] for card in hand]
        with open(self.log, "a", encoding="ascii") as log:
            log.write(json.dumps({"seat": view.seat, "turn": view.turns, "hand": list(hand), "guess": guess}) + "\n")
        return super().act(view)


def factory(route: str, log: str) -> StrategyFactory:
    """The factory of :class:`Peeking` strategies trying ``route``, logging to ``log``."""

    def build(config: GameConfig, seat: int, seed: int) -> Strategy:
        return Peeking(config, seat, seed, route, log)

    return build


if __name__ == "__main__":
    from hanabi_ref.tools.isolation.seat import serve

    sys.exit(serve(factory(sys.argv[1], os.environ[LOG]), f"peeking {sys.argv[1]}"))
