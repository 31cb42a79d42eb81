"""The strategy API: what a seat's strategy is and how it is built [2.17-view].

A strategy is one object per seat.  After every action each seat's ``observe`` is called
with that seat's new view and the public event (so a strategy can keep memory and think
out of turn); on its own turn ``act`` chooses the action.  Nothing else is handed to a
strategy: no state, no deck, no other strategy.  :func:`hanabi_ref.players.runner.play_game` runs
them, in its own process: there a strategy written to cheat finds no game in any module
and no object shared with another seat, and with ``--sealed`` no seed that leads to the
deck, but it can still reach the game through the interpreter (stack frames, the garbage
collector): spec/isolation.md, ISO-inprocess.

This module stays a source module in the compiled build (B-compiled): strategies written
in Python subclass :class:`BaseStrategy`, and an interpreted class cannot subclass a
compiled one.
"""

from __future__ import annotations

from typing import Protocol

from hanabi_ref.engine.actions import Action
from hanabi_ref.base.errors import HanabiError
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import Event
from hanabi_ref.engine.view import PlayerView

class Strategy(Protocol):
    """What the runner asks of a seat's strategy [2.17-view]."""

    def observe(self, view: PlayerView, event: Event) -> None:
        """Called for every seat after every action, with that seat's new view."""

    def act(self, view: PlayerView) -> Action:
        """Called on the seat's own turn; returns a legal action."""


class StrategyFactory(Protocol):
    """Builds the strategy object for one seat of one game."""

    def __call__(self, config: GameConfig, seat: int, seed: int) -> Strategy: ...


class BaseStrategy:
    """A strategy that ignores observations; subclasses override ``act``."""

    def observe(self, view: PlayerView, event: Event) -> None:
        """Nothing to remember."""

    def act(self, view: PlayerView) -> Action:
        raise NotImplementedError


class StrategyError(HanabiError):
    """A strategy chose an illegal action; names the turn, the seat and the clause."""


def observes(strategy: Strategy) -> bool:
    """Whether ``strategy`` overrides ``observe`` (the runner builds views for those only)."""
    return getattr(type(strategy), "observe", None) is not BaseStrategy.observe
