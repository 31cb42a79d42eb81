"""The engine driven by Hypothesis' stateful testing beside a small independent model of
Algorithm 2.16's counters: tokens t, errors f, field heights F, stack size |S|, discard
count M, R, C, the move count, hand sizes, whether the game stopped and its score
[2.16, 2.16-1, 2.16-2-next, 2.16-2-R, 2.16-2a-cost, 2.16-2b-token, 2.16-2c-success,
2.16-2c-five, 2.16-2c-fail, 2.16-2c-strikeout, 2.16-3, 2.16-3-strikeout, 2.16-3-R0,
2.16-3-max, 2.16-3-last-round, E-5, E-6, R-1, R-3]."""

from __future__ import annotations

from collections import Counter

import attrs
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import GameState, score, deck_size
from hanabi_ref.engine.transition import apply, initial_state
from tests.helpers import card, configs, expected_counts, is_playable


@attrs.define
class Model:
    """The counters of Algorithm 2.16, updated by the thesis' rules written out afresh."""

    config: GameConfig
    tokens: int
    errors: int
    fields: list[int]
    stack: int
    discarded: Counter[tuple[int, int]]
    remaining: int | None
    current: int
    turn: int
    hand_sizes: list[int]
    terminal: bool = False

    @classmethod
    def start(cls, config: GameConfig, held: list[list[tuple[int, int]]]) -> Model:
        """Step 1, then step 3 once (E-6) unless the literal reading is chosen; ``held``
        the dealt hands' cards (suit, value)."""
        size = sum(map(sum, expected_counts(config)))
        model = cls(
            config=config,
            tokens=config.max_hints,
            errors=0,
            fields=[0] * config.suit_count,
            stack=size - config.players * config.hand_size,
            discarded=Counter(),
            remaining=None,
            current=0,
            turn=0,
            hand_sizes=[config.hand_size] * config.players,
        )
        if config.options.initial_stop_check:
            model.stop_check(held)
        return model

    def attainable(self) -> int:
        """[R-1] per suit: climb while a copy of the next value is not discarded."""
        counts = expected_counts(self.config)
        total = 0
        for suit, height in enumerate(self.fields):
            while height < self.config.values and self.discarded[(suit, height + 1)] < counts[suit][height]:
                height += 1
            total += height
        return total

    def stops(self) -> bool:
        """Step 3's STOP conditions, in the spec's order."""
        if self.remaining in (-1, 0) or sum(self.fields) == self.config.values * self.config.suit_count:
            return True
        return self.config.options.end_when_no_points_possible and self.attainable() == sum(self.fields)

    def stop_check(self, held: list[list[tuple[int, int]]] | None = None) -> None:
        """Step 3: stop, or start the last round when the stack is empty; then (R-4) stop
        if in the last round no seat still to move holds the next card of a field, given
        what each seat ``held`` (suit, value) after the move."""
        if self.stops():
            self.terminal = True
        elif self.remaining is None and self.stack == 0:
            self.remaining = self.config.players
        if not self.terminal and self.config.options.end_when_nothing_playable and held is not None \
                and self.remaining is not None and self.remaining >= 1:
            movers = [(self.current + step) % self.config.players for step in range(self.remaining)]
            self.terminal = not any(self.fields[suit] == value - 1 for seat in movers for suit, value in held[seat])

    def move(self, action: Action, card: tuple[int, int] | None, held: list[list[tuple[int, int]]]) -> None:
        """Step 2 for ``action``; ``card`` is (suit, value) of the card played or discarded,
        ``held`` the seats' cards after the move."""
        t0, f0 = self.config.max_hints, self.config.max_errors
        if isinstance(action, Hint):
            self.tokens -= 1
        else:
            assert card is not None
            suit, value = card
            if isinstance(action, Discard):
                self.discarded[card] += 1
                self.tokens = min(self.tokens + 1, t0)
            elif self.fields[suit] == value - 1:
                self.fields[suit] = value
                if value == self.config.values and self.tokens < t0:
                    self.tokens += 1
            else:
                self.discarded[card] += 1
                self.errors += 1
                if f0 is not None and self.errors == f0:
                    self.remaining = -1
            skip_draw = not self.config.options.draw_after_final_move and self.stops()
            if self.stack > 0 and not skip_draw:
                self.stack -= 1
            else:
                self.hand_sizes[self.current] -= 1
        self.current = (self.current + 1) % self.config.players
        self.turn += 1
        if self.remaining is not None and self.remaining > 0:
            self.remaining -= 1
        self.stop_check(held)

    def score(self) -> int:
        if self.remaining == -1 and self.config.options.strikeout_score == "zero":
            return 0
        return sum(self.fields)


def card_names(config: GameConfig) -> dict[int, tuple[int, int]]:
    """(suit, value) of every identity, by going over Cards(H) pair by pair (as
    ``suit_and_value`` does, once for all the identities)."""
    return {card(config, value, suit): (suit, value)
            for suit in range(config.suit_count) for value in range(1, config.values + 1)}


def held_cards(state: GameState, names: dict[int, tuple[int, int]]) -> list[list[tuple[int, int]]]:
    """Each seat's cards as (suit, value) (``names``: :func:`card_names`), read from the
    engine's hands."""
    return [[names[state.deck[card_id]] for card_id in hand] for hand in state.hands]


KINDS = ("any", "hint", "discard", "play", "playable", "hint", "discard", "playable")


class EngineBesideModel(RuleBasedStateMachine):
    """Legal moves on the engine and on the model; their counters must agree."""

    def __init__(self) -> None:
        super().__init__()
        self.state: GameState | None = None
        self.model: Model | None = None
        self.names: dict[int, tuple[int, int]] = {}
        self.games = 0

    def _start(self, config: GameConfig, seed: int) -> None:
        self.state = initial_state(config, deck_from_seed(config, seed))
        self.names = card_names(config)
        self.model = Model.start(config, held_cards(self.state, self.names))
        self.games += 1

    @initialize(config=configs(), seed=st.integers(0, 2**64 - 1))
    def first_game(self, config: GameConfig, seed: int) -> None:
        self._start(config, seed)

    @rule(data=st.data())
    def step(self, data: st.DataObject) -> None:
        """One legal move; once the game has stopped, a new game instead (so that a rule is
        enabled at game end and no filtering of rules is needed)."""
        assert self.state is not None and self.model is not None
        if self.state.terminal:
            self._start(data.draw(configs()), data.draw(st.integers(0, 2**64 - 1)))
            return
        state = self.state
        legal = legal_actions(state)
        kind = data.draw(st.sampled_from(KINDS))
        pools: dict[str, list[Action]] = {
            "any": legal,
            "hint": [a for a in legal if isinstance(a, Hint)],
            "discard": [a for a in legal if isinstance(a, Discard)],
            "play": [a for a in legal if isinstance(a, Play)],
            "playable": [a for a in legal if isinstance(a, Play) and is_playable(state, a.slot)],
        }
        pool = pools[kind] or legal
        action = data.draw(st.sampled_from(pool))
        moved = None
        if isinstance(action, (Play, Discard)):
            moved = self.names[state.deck[state.hands[state.current_player][action.slot]]]
        self.state = apply(state, action)
        self.model.move(action, moved, held_cards(self.state, self.names))

    @invariant()
    def counters_agree(self) -> None:
        if self.state is None or self.model is None:
            return
        state, model = self.state, self.model
        assert state.clue_tokens == model.tokens
        assert state.strikes == model.errors
        assert list(state.fireworks) == model.fields
        assert deck_size(state) == model.stack
        assert len(state.discard) == sum(model.discarded.values())
        assert state.remaining == model.remaining
        assert state.current_player == model.current and state.turns == model.turn
        assert [len(hand) for hand in state.hands] == model.hand_sizes
        assert state.terminal == model.terminal
        assert score(state) == model.score()


EngineBesideModel.TestCase.settings = settings(
    max_examples=16,
    stateful_step_count=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
TestEngineBesideModel = EngineBesideModel.TestCase


class TestEngineBesideModelDeep(EngineBesideModel.TestCase):  # type: ignore[misc,valid-type]
    """The same machine over 25 times as many runs (the deep set)."""

    settings = settings(
        max_examples=400,
        stateful_step_count=150,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
    )
    pytestmark = [pytest.mark.deep]
