"""Playing strategies seat by seat [2.17-view, 2.17-history].

:func:`play_game` deals, hands every seat its view after every move and the acting seat
its turn, applies the actions and records the trace.  In-process play guarantees what
spec/isolation.md says (ISO-inprocess): no module holds the game, no two seats share an
object of their views, and strategy seeds may be drawn apart from the decks' (the attacks
of ISO-attacks fail); a strategy can still reach the game through the interpreter (stack
frames, the garbage collector), which only isolated seats prevent.  The strategy API lives in
:mod:`hanabi_ref.players.strategy`, the trace records in :mod:`hanabi_ref.formats.trace` and the move
bound in :mod:`hanabi_ref.engine.configs`; their names are re-exported here for code written
against earlier versions.
"""

from __future__ import annotations

from collections.abc import Sequence

import icontract

from hanabi_ref.engine.actions import Action, Discard, Hint, Play, describe
from hanabi_ref.base.contracts import ENABLED
from hanabi_ref.engine.dealing import derive_seed
from hanabi_ref.base.errors import IllegalActionError
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import move_bound
from hanabi_ref.players.strategy import BaseStrategy, Strategy, StrategyError, StrategyFactory, observes
from hanabi_ref.formats.trace import GameRecord, Trace
from hanabi_ref.engine.transition import apply, initial_state, new_game
from hanabi_ref.engine.view import PlayerView, ViewMaker

__all__ = [
    "play_game",
    "play_games",
    "GameMoves",
    "BaseStrategy",
    "Strategy",
    "StrategyError",
    "StrategyFactory",
    "GameRecord",
    "Trace",
    "move_bound",
]


@icontract.ensure(lambda config, result: result.final.turns <= move_bound(config), "PR-length: the game ended within t0 + 2(N - p*h) + p moves", enabled=ENABLED)
def play_game(
    config: GameConfig,
    factory: StrategyFactory,
    *,
    seed: int,
    deck: Sequence[int] | None = None,
    views: ViewMaker | None = None,
    strategy_seed: int | None = None,
) -> GameRecord:
    """Play one game: deck from ``seed`` unless given, seat j's strategy seeded from
    (seed, j); returns the trace and final state [2.17-view, D-seed].  ``views``: the
    maker of the seats' views (sealed, ISO-views), kept from game to game by a runner
    that plays many games of one configuration (its seats' copies of the configuration's
    tables then keep their action memos); a new one by default.  ``strategy_seed``: seat j's
    strategy is seeded from (``strategy_seed``, j) instead, a seed drawn apart from the
    deck's, so that the strategy's seed tells nothing of the deck [ISO-seeds]; recorded in
    the trace."""
    game = GameMoves(config, factory, seed=seed, deck=deck, views=views, strategy_seed=strategy_seed)
    strategies = game.strategies
    turn = game.turn
    while turn is not None:
        turn = game.send(strategies[turn[0]].act(turn[1]))
    return game.record()


class GameMoves:
    """One game as a sequence of turns [2.17-view, 2.17-history]: :attr:`turn` is the
    seat that acts and its view, :meth:`send` applies that seat's action (telling every
    observing seat) and gives the next turn, None once the game is over, and
    :meth:`record` is the trace and final state.  :func:`play_game` asks the acting
    seat's strategy at once; a runner of seats in other processes asks the seats of many
    games together [ISO-games] and plays each game exactly as :func:`play_game` would."""

    def __init__(
        self,
        config: GameConfig,
        factory: StrategyFactory,
        *,
        seed: int,
        deck: Sequence[int] | None = None,
        views: ViewMaker | None = None,
        strategy_seed: int | None = None,
    ) -> None:
        self._config = config
        self._seed = seed if deck is None else None  # [T-trace] the trace names a seed only if the deck came from it
        self._strategy_seed = strategy_seed
        root = seed if strategy_seed is None else strategy_seed
        self.strategies = [factory(config, seat, derive_seed(root, seat + 1)) for seat in range(config.players)]
        self._observers = [(seat, s) for seat, s in enumerate(self.strategies) if observes(s)]
        self._observer_seats = [seat for seat, _ in self._observers]
        self._state = new_game(config, seed) if deck is None else initial_state(config, deck)
        self._views = ViewMaker(config) if views is None else views  # [ISO-views, ISO-memo] each seat's objects its own
        self._actions: list[Action] = []
        self.turn: tuple[int, PlayerView] | None = None
        """the seat that acts and its view; None once the game is over"""
        self._next_turn({})

    def _next_turn(self, observed: dict[int, PlayerView]) -> None:
        state = self._state
        if state.terminal:
            self.turn = None
            return
        seat = state.current_player
        view = observed.get(seat)  # the seat's view of this state, as its observe call got it
        self.turn = seat, self._views.views(state, (seat,))[0] if view is None else view

    def send(self, action: Action) -> tuple[int, PlayerView] | None:
        """Apply the acting seat's ``action`` (:class:`StrategyError` if illegal), let every
        observing seat observe the move, and return the next turn (None: the game is over)."""
        state = self._state
        assert self.turn is not None, "the game is over"
        seat = self.turn[0]
        try:
            state = self._state = apply(state, action)  # apply checks legality [2.16-2]
        except IllegalActionError as error:
            shown = describe(action) if isinstance(action, (Hint, Discard, Play)) else repr(action)
            raise StrategyError(
                f"turn {state.turns}, seat {seat} ({type(self.strategies[seat]).__name__}): {shown} is illegal: {error}"
            ) from None
        self._actions.append(action)
        observed: dict[int, PlayerView] = {}
        if self._observers:  # else no seat remembers anything: no view is built until the next turn
            event = state.history[-1]
            seen = self._views.views(state, self._observer_seats)
            observed = dict(zip(self._observer_seats, seen))
            for (_, strategy), view in zip(self._observers, seen):
                strategy.observe(view, event)
        self._next_turn(observed)
        return self.turn

    def trace_so_far(self) -> Trace:
        """The trace of the moves made so far, over or not (an abandoned game, HU-end)."""
        return Trace(self._config, self._state.deck, tuple(self._actions), self._seed, strategy_seed=self._strategy_seed)

    def record(self) -> GameRecord:
        """The trace and final state of the game, once it is over."""
        state = self._state
        assert state.terminal, "the game is not over"
        return GameRecord(Trace(self._config, state.deck, tuple(self._actions), self._seed,
                                strategy_seed=self._strategy_seed), state)


def play_games(
    config: GameConfig,
    factory: StrategyFactory,
    games: Sequence[tuple[int, int | None]],
    *,
    views: ViewMaker | None = None,
) -> list[GameRecord | Exception]:
    """Play the games ``(seed, strategy_seed)`` of ``games``, each as :func:`play_game`
    plays it; the record of each, or the exception that ended it (a game that fails does
    not stop the others).  A factory with a ``play_games`` method of its own (seats in
    other processes that take many games at once, ISO-games) plays them together."""
    maker = ViewMaker(config) if views is None else views
    together = getattr(factory, "play_games", None)
    if together is not None:
        results: list[GameRecord | Exception] = together(config, games, maker)
        return results
    return [game_outcome(config, factory, seed, strategy_seed, maker) for seed, strategy_seed in games]


def game_outcome(config: GameConfig, factory: StrategyFactory, seed: int, strategy_seed: int | None,
                 views: ViewMaker) -> GameRecord | Exception:
    """The record of the game :func:`play_game` plays, or the exception that ended it."""
    try:
        return play_game(config, factory, seed=seed, views=views, strategy_seed=strategy_seed)
    except Exception as error:  # a strategy or engine bug, a failed seat: the game's outcome
        return error
