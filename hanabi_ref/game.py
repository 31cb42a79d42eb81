"""Playing strategies seat by seat [2.17-view, 2.17-history].

:func:`play_game` deals, hands every seat its view after every move and the acting seat
its turn, applies the actions and records the trace.  In-process play guarantees what
spec/isolation.md says (ISO-inprocess): no module holds the game, no two seats share an
object of their views, and strategy seeds may be drawn apart from the decks' (the attacks
of ISO-attacks fail); a strategy can still reach the game through the interpreter (stack
frames, the garbage collector), which only isolated seats prevent.  The strategy API lives in
:mod:`hanabi_ref.strategy`, the trace records in :mod:`hanabi_ref.trace` and the move
bound in :mod:`hanabi_ref.rules`; their names are re-exported here for code written
against earlier versions.
"""

from __future__ import annotations

from collections.abc import Sequence

import icontract

from hanabi_ref.actions import Action, Discard, Hint, Play, describe
from hanabi_ref.contracts import ENABLED
from hanabi_ref.dealing import derive_seed
from hanabi_ref.errors import IllegalActionError
from hanabi_ref.rules import GameConfig, move_bound
from hanabi_ref.strategy import BaseStrategy, Strategy, StrategyError, StrategyFactory, observes
from hanabi_ref.trace import GameRecord, Trace
from hanabi_ref.transition import apply, initial_state, new_game
from hanabi_ref.view import PlayerView, ViewMaker

__all__ = [
    "play_game",
    "BaseStrategy",
    "Strategy",
    "StrategyError",
    "StrategyFactory",
    "GameRecord",
    "Trace",
    "move_bound",
]


@icontract.ensure(lambda config, result: result.final.turn <= move_bound(config), "PR-length: the game ended within t0 + 2(N - p*h) + p moves", enabled=ENABLED)
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
    that plays many games of one configuration (its seats' copies of the configuration
    then keep their action memos); a new one by default.  ``strategy_seed``: seat j's
    strategy is seeded from (``strategy_seed``, j) instead, a seed drawn apart from the
    deck's, so that the strategy's seed tells nothing of the deck [ISO-seeds]; recorded in
    the trace."""
    dealt_from_seed = deck is None
    root = seed if strategy_seed is None else strategy_seed
    strategies = [factory(config, seat, derive_seed(root, seat + 1)) for seat in range(config.players)]
    observers = [(seat, s) for seat, s in enumerate(strategies) if observes(s)]
    observer_seats = [seat for seat, _ in observers]
    state = new_game(config, seed) if deck is None else initial_state(config, deck)
    maker = ViewMaker(config) if views is None else views  # [ISO-views, ISO-memo] each seat's objects its own
    actions: list[Action] = []
    observed: dict[int, PlayerView] = {}  # the views of ``state`` its observers were given
    while not state.terminal:
        seat = state.current
        view = observed.get(seat)  # the seat's view of this state, as its observe call got it
        action = strategies[seat].act(maker.views(state, (seat,))[0] if view is None else view)
        try:
            state = apply(state, action)  # apply checks legality [2.16-2]
        except IllegalActionError as error:
            shown = describe(action) if isinstance(action, (Hint, Discard, Play)) else repr(action)
            raise StrategyError(
                f"turn {state.turn}, seat {seat} ({type(strategies[seat]).__name__}): {shown} is illegal: {error}"
            ) from None
        actions.append(action)
        if not observers:
            continue  # no seat remembers anything: no view is built until the next turn
        event = state.history[-1]
        seen = maker.views(state, observer_seats)
        observed = dict(zip(observer_seats, seen))
        for (_, strategy), view in zip(observers, seen):
            strategy.observe(view, event)
    # [T-trace] the trace names a seed only if the deck came from it.
    return GameRecord(Trace(config, state.deck, tuple(actions), seed if dealt_from_seed else None,
                            strategy_seed=strategy_seed), state)
