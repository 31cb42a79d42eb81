"""Playing strategies seat by seat [2.17-view, 2.17-history].

A strategy is one object per seat.  After every action each seat's ``observe`` is called
with that seat's new view and the public event (so a strategy can keep memory and think
out of turn); on its own turn ``act`` chooses the action.  Nothing else reaches a
strategy: no state, no deck, no other strategy.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import attrs
import icontract

from hanabi_ref.actions import Action, Discard, Hint, Play, describe
from hanabi_ref.contracts import ENABLED
from hanabi_ref.dealing import deck_from_seed, derive_seed
from hanabi_ref.errors import HanabiError, IllegalActionError
from hanabi_ref.rules import GameConfig
from hanabi_ref.state import Event, GameState, score
from hanabi_ref.transition import apply, initial_state
from hanabi_ref.view import PlayerView, make_view, make_views


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


@attrs.frozen
class Trace:
    """A replayable record: config, the full deck S0 and the actions [T-trace], and
    optionally the expected state after the deal and after each action [T-states]."""

    config: GameConfig
    deck: tuple[int, ...]
    actions: tuple[Action, ...]
    seed: int | None = None
    states: tuple[dict[str, Any], ...] | None = None


@attrs.frozen
class GameRecord:
    """A finished game: its trace and final state."""

    trace: Trace
    final: GameState

    @property
    def score(self) -> int:
        """The score step 3 returned [2.16-3]."""
        return score(self.final)


def move_bound(config: GameConfig) -> int:
    """[PR-length] no game lasts more than t0 + 2(N - p*h) + p moves (one more under the
    literal reading of E-6 when the deal empties the stack); see proofs/game_length.md."""
    bound = config.hints + 2 * (config.deck_size - config.players * config.hand_size) + config.players
    return bound + 1 if config.is_literal_empty_deal else bound


def _observes(strategy: Strategy) -> bool:
    return getattr(type(strategy), "observe", None) is not BaseStrategy.observe


@icontract.ensure(lambda config, result: result.final.turn <= move_bound(config), "PR-length: the game ended within t0 + 2(N - p*h) + p moves", enabled=ENABLED)
def play_game(
    config: GameConfig,
    factory: StrategyFactory,
    *,
    seed: int,
    deck: Sequence[int] | None = None,
) -> GameRecord:
    """Play one game: deck from ``seed`` unless given, seat j's strategy seeded from
    (seed, j); returns the trace and final state [2.17-view, D-seed]."""
    dealt_from_seed = deck is None
    deck = deck_from_seed(config, seed) if deck is None else tuple(deck)
    strategies = [factory(config, seat, derive_seed(seed, seat + 1)) for seat in range(config.players)]
    observers = [(seat, s) for seat, s in enumerate(strategies) if _observes(s)]
    observer_seats = [seat for seat, _ in observers]
    state = initial_state(config, deck)
    actions: list[Action] = []
    observed: dict[int, PlayerView] = {}  # the views of ``state`` its observers were given
    while not state.terminal:
        seat = state.current
        view = observed.get(seat)  # views are immutable: the seat's view of this state is reused
        action = strategies[seat].act(make_view(state, seat) if view is None else view)
        try:
            state = apply(state, action)  # apply checks legality [2.16-2]
        except IllegalActionError as error:
            shown = describe(action) if isinstance(action, (Hint, Discard, Play)) else repr(action)
            raise StrategyError(
                f"turn {state.turn}, seat {seat} ({type(strategies[seat]).__name__}): {shown} is illegal: {error}"
            ) from None
        actions.append(action)
        event = state.history[-1]
        views = make_views(state, observer_seats)
        observed = dict(zip(observer_seats, views))
        for (_, strategy), view in zip(observers, views):
            strategy.observe(view, event)
    # [T-trace] the trace names a seed only if the deck came from it.
    return GameRecord(Trace(config, tuple(deck), tuple(actions), seed if dealt_from_seed else None), state)
