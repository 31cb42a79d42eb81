"""The interface every engine under test is driven through [EP-protocol].

An engine is anything that can start a game from a configuration and a full deck,
apply actions, report its state as the JSON object of ``spec/trace.md`` (T-state) and
list the legal actions; it may also show what each seat sees (T-view, EP-observe).
Our own engine, the built-in peer adapters and external processes speaking the
JSON-lines protocol all implement :class:`Engine`.
"""

from __future__ import annotations

from typing import Any, Protocol, TypeVar

from hanabi_ref.engine.actions import Action
from hanabi_ref.base.errors import HanabiError, IllegalActionError, TraceError
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.formats.serial import state_to_json, view_state_to_json
from hanabi_ref.engine.state import GameState
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import make_view
from hanabi_ref.tools.perft.count import PerftCount, count_nodes, divide_nodes


class VerifyUsageError(HanabiError):
    """A bad ``verify``/``serve`` argument, ``--engine`` naming no command that can be
    started among them (exit code 2, C-exit)."""


class EngineFailure(HanabiError):
    """The engine under test hung, crashed, or answered outside the protocol."""


class Engine(Protocol):
    """What ``hanabi-ref verify`` asks of an engine [EP-protocol]."""

    name: str
    shows_views: bool
    """[EP-observe] whether :meth:`observe` shows views (else it returns ``None``)"""

    def unsupported(self, config: GameConfig) -> str | None:
        """``None`` if the engine can play this configuration, else the reason it cannot."""

    def new_game(self, config: GameConfig, deck: tuple[int, ...]) -> None:
        """Start a game whose stack S0 is ``deck`` (card identities, top first); raise
        :class:`UnsupportedConfig` for a configuration the engine cannot play."""

    def apply(self, action: Action) -> str | None:
        """Apply ``action``; ``None`` if accepted, else the engine's reason for refusing it."""

    def state(self) -> dict[str, Any]:
        """The current state as a T-state object (fields the engine cannot report omitted)."""

    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move (empty once the game is over)."""

    def observe(self, seat: int) -> dict[str, Any] | None:
        """What the engine shows ``seat`` now, as a T-view object [EP-observe]; ``None``
        from an engine that shows no views (``shows_views`` false; its views are then not
        checked, EP-views)."""

    def close(self) -> None:
        """Release the engine (end its process)."""


class ReferenceEngine:
    """hanabi_ref itself behind the :class:`Engine` interface."""

    name = "hanabi-ref"
    shows_views = True
    counts_perft = True
    """[EP-perft] it answers perft (:class:`~hanabi_ref.tools.protocol.counting.CountingEngine`)"""

    def __init__(self) -> None:
        self._state: GameState | None = None

    def unsupported(self, config: GameConfig) -> str | None:
        return None

    def new_game(self, config: GameConfig, deck: tuple[int, ...]) -> None:
        self._state = initial_state(config, deck)

    def apply(self, action: Action) -> str | None:
        try:
            self._state = apply(self.current, action)
        except IllegalActionError as error:
            return str(error)
        return None

    def state(self) -> dict[str, Any]:
        return state_to_json(self.current)

    def legal_actions(self) -> list[Action]:
        return list(legal_actions(self.current))

    def observe(self, seat: int) -> dict[str, Any] | None:
        """[EP-observe, T-view] our view of ``seat``, from :func:`~hanabi_ref.engine.view.make_view`."""
        players = self.current.config.players
        if not 0 <= seat < players:
            raise TraceError(f"seat: {seat} is not a seat of this game (0..{players - 1})")
        return view_state_to_json(make_view(self.current, seat))

    def close(self) -> None:
        self._state = None

    def perft(self, depth: int, divide: bool) -> PerftCount:
        """[EP-perft, PF-count, PF-divide] the count from the current state, walking
        this engine's own :meth:`legal_actions` and :meth:`apply` (a subclass that changes
        them counts its own tree); its attributes are as before afterwards."""
        saved, root = dict(self.__dict__), self.current

        def moves(state: GameState) -> list[Action]:
            self._state = state
            return self.legal_actions()

        def child(state: GameState, action: Action) -> GameState:
            self._state = state
            refusal = self.apply(action)
            if refusal is not None:
                raise EngineFailure(f"{self.name}: refuses {action} while counting perft, which it listed: {refusal}")
            return self.current

        try:
            if divide and depth >= 1:
                split = tuple(divide_nodes(root, depth, moves, child))
                return PerftCount(depth, sum(nodes for _, nodes in split), split)
            return PerftCount(depth, count_nodes(root, depth, moves, child))
        finally:
            self.__dict__.update(saved)

    @property
    def current(self) -> GameState:
        """The game state (a game must have been started)."""
        return started(self._state, self.name)


class UnsupportedConfig(HanabiError):
    """The engine cannot play this configuration (it said so); verification skips it."""


T = TypeVar("T")


def started(value: T | None, engine: str) -> T:
    """``value`` (a game's config or state), or an EngineFailure if no game was started."""
    if value is None:
        raise EngineFailure(f"{engine}: no game started")
    return value


def check_supported(engine: Engine, config: GameConfig) -> None:
    """[EP-requests] raise UnsupportedConfig if ``engine`` says it cannot play ``config``,
    so that verification skips and counts the case instead of failing."""
    reason = engine.unsupported(config)
    if reason is not None:
        raise UnsupportedConfig(f"{engine.name}: cannot play this configuration: {reason}")
