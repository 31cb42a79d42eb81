"""Convention bots beside partners who do not keep their convention (spec/strategies.md
section 6, S-foreign): they never raise, the team leaves the code on a public break,
the guard stops impossible plays, and self-play is the unwrapped bots' game for game.

The partners and seeds below are ones on which the bots raised before S-foreign (an
``AssertionError`` "Lemma 4", a ``CodeError`` or a ``ValueError`` out of ``play_game``), or
before the hint choice of the information strategy learnt to see a card's public knowledge
lose the card (a ``ZeroDivisionError``, seeds 446 and 401, found by ``crossplay``);
the self-play comparisons play the bots' own classes without the wrapper.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.history import Event
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.view import PlayerView, make_view
from hanabi_ref.players.runner import play_game
from hanabi_ref.players.strategies import factory_for, strategy_spec
from hanabi_ref.players.strategies.adapt import Adaptive, ForeignMove, is_guarded, is_public_break, is_surely_unplayable
from hanabi_ref.players.strategies.hat.codes import CodeError, UndecodableHint
from hanabi_ref.players.strategies.hat.recommendation import recommendation_code
from hanabi_ref.players.strategy import BaseStrategy, Strategy, StrategyFactory

CONVENTIONS = ("hat", "hat-classic", "recommendation", "info", "info-source", "learned-recommendation")


def team(partner: str, bot: str, partner_seats: int = 1) -> tuple[StrategyFactory, list[Adaptive]]:
    """Seats 0 .. partner_seats - 1 play ``partner``, the others ``bot``; the bot's seats
    (wrapped) are collected."""
    made: list[Adaptive] = []
    own, other = factory_for(bot), factory_for(partner)

    def factory(config: GameConfig, seat: int, seed: int) -> Strategy:
        if seat < partner_seats:
            return other(config, seat, seed)
        strategy = own(config, seat, seed)
        assert isinstance(strategy, Adaptive)
        made.append(strategy)
        return strategy

    return factory, made


def unwrapped(bot: str) -> tuple[StrategyFactory, list[Adaptive]]:
    """The bot's own strategies, without the wrapper (the wrappers are collected)."""
    made: list[Adaptive] = []
    wrapped = factory_for(bot)

    def factory(config: GameConfig, seat: int, seed: int) -> Strategy:
        strategy = wrapped(config, seat, seed)
        assert isinstance(strategy, Adaptive)
        made.append(strategy)
        return strategy.convention

    return factory, made


RAISED_BEFORE = [
    ("hat", "random", (4, 7, 9)),
    ("recommendation", "random", (2, 4, 7)),
    ("recommendation", "thesis", (0, 2, 3)),
    ("info", "random", (14, 15, 446)),
    ("info", "thesis", (1, 6)),
    ("info", "hat-classic", (401,)),
]


@pytest.mark.checks("S-foreign", "S-foreign-detect", "H-code-error")
@pytest.mark.parametrize("bot, partner, seeds", RAISED_BEFORE)
def test_no_bot_raises_where_it_raised_before(bot: str, partner: str, seeds: tuple[int, ...]) -> None:
    config = make_config(4, "hanab-live")
    for seed in seeds:
        factory, made = team(partner, bot)
        record = play_game(config, factory, seed=seed)
        assert record.final.terminal
        # each game broke the code: some seat of the bot left it, and said why
        assert any(seat.left is not None for seat in made)


@pytest.mark.checks("S-foreign")
@pytest.mark.parametrize("bot", CONVENTIONS)
def test_every_bot_plays_on_beside_every_kind_of_partner(bot: str) -> None:
    config = make_config(4, "hanab-live")
    for partner in ("random", "simple", "thesis", *(name for name in CONVENTIONS if name != bot)):
        factory, _ = team(partner, bot, partner_seats=2 if partner == "random" else 1)
        assert play_game(config, factory, seed=3).final.terminal


@pytest.mark.checks("S-foreign-selfplay", "S-foreign-team", "S-foreign-guard")
@pytest.mark.parametrize("bot, players", [(name, p) for name in CONVENTIONS for p in (4, 5)
                                          if not (name == "learned-recommendation" and p == 5)])
def test_self_play_is_the_unwrapped_bots_game_for_game(bot: str, players: int) -> None:
    presets = [preset for preset in ("thesis", "hle", "hanab-live")
               if strategy_spec(bot).unsupported is None or strategy_spec(bot).unsupported(make_config(players, preset)) is None]  # type: ignore[misc]
    assert "hanab-live" in presets
    for preset in presets:
        config = make_config(players, preset)
        for seed in range(3):
            ours, seats = team(bot, bot, partner_seats=0)
            theirs, _ = unwrapped(bot)
            assert play_game(config, ours, seed=seed).trace == play_game(config, theirs, seed=seed).trace
            assert all(seat.left is None and seat.guarded == 0 for seat in seats)


def test_python_O_plays_the_same_games() -> None:
    """[S-foreign] no protocol condition is an ``assert``: under ``python -O`` the games on
    which the hat bots once failed an assertion are the same, move for move."""
    script = (
        "from hanabi_ref.players.runner import play_game\n"
        "from hanabi_ref.engine.configs import make_config\n"
        "from tests.test_foreign import team\n"
        "config = make_config(4, 'hanab-live')\n"
        "for seed in (4, 7, 9):\n"
        "    print(play_game(config, team('random', 'hat')[0], seed=seed).trace.actions)\n"
    )
    runs = [subprocess.run([sys.executable, *flags, "-c", script], capture_output=True, text=True, check=True).stdout
            for flags in ([], ["-O"])]
    assert runs[0] == runs[1] and runs[0].count("\n") == 3


# ------------------------------------------------------------------ the wrapper, unit by unit


class Scripted(BaseStrategy):
    """A stand-in convention: plays the given actions, raising what it is told to raise."""

    def __init__(self, actions: list[Action | Exception], on_observe: Exception | None = None) -> None:
        self.actions = actions
        self.on_observe = on_observe
        self.observed = 0

    def observe(self, view: PlayerView, event: Event) -> None:
        self.observed += 1
        if self.on_observe is not None:
            raise self.on_observe

    def act(self, view: PlayerView) -> Action:
        action = self.actions.pop(0)
        if isinstance(action, Exception):
            raise action
        return action


class Fixed(BaseStrategy):
    """A fallback that always makes one move."""

    def __init__(self, action: Action) -> None:
        self.action = action

    def act(self, view: PlayerView) -> Action:
        return self.action


def position(config: GameConfig, moves: list[Action], seed: int = 1) -> tuple[PlayerView, Event]:
    """The view of the seat to move after ``moves``, and the last move's event."""
    state = initial_state(config, deck_from_seed(config, seed))
    for move in moves:
        state = apply(state, move)
    return make_view(state, state.current_player), state.history[-1]


@pytest.mark.checks("S-foreign-guard")
def test_the_guard_replaces_a_play_the_knowledge_rules_out() -> None:
    config = make_config(2, "hle")
    state = initial_state(config, deck_from_seed(config, 1))
    # a value hint on a card of value v >= 2 tells its holder it cannot be played on empty fields
    slot, card = next((slot, card) for slot, card in enumerate(state.hands[1]) if state.deck[card] % config.values != 0)
    view, _ = position(config, [Hint(1, "value", state.deck[card] % config.values + 1)])
    assert view.seat == 1 and view.deck_size > 0
    assert is_guarded(view, slot)
    ones = [s for s, c in enumerate(state.hands[1]) if state.deck[c] % config.values == 0 and s != slot]
    fallback = Discard(0)
    seat = Adaptive(Scripted([Play(slot)]), lambda: Fixed(fallback))
    assert seat.act(view) == fallback
    assert seat.guarded == 1 and seat.left is None  # the seat keeps its convention
    if ones:  # a card its holder knows nothing of may be playable: it is not guarded
        assert not is_guarded(view, ones[0]) or view.own_knowledge[ones[0]] != view.tables.all_cards_mask


@pytest.mark.checks("S-foreign-guard")
def test_the_guard_lets_a_free_miss_through() -> None:
    """With the deck empty and strikes to spare, a card known dead may be played; on the
    last strike it may not."""
    config = make_config(3, "hle")
    found = 0
    for seed in range(20):
        record = play_game(config, factory_for("thesis"), seed=seed)
        state = initial_state(config, deck_from_seed(config, seed))
        for action in record.trace.actions:
            if state.deck_size == 0 or state.terminal:
                break
            state = apply(state, action)
        if state.terminal or state.deck_size > 0:
            continue
        view = make_view(state, state.current_player)
        for slot in range(len(view.own_hand)):
            if is_surely_unplayable(view, slot):
                found += 1
                assert is_guarded(view, slot) == (state.strikes + 1 >= config.max_errors)  # type: ignore[operator]
    assert found > 0


@pytest.mark.checks("S-foreign-detect", "S-foreign-fallback")
def test_a_foreign_move_makes_the_seat_leave_for_good() -> None:
    config = make_config(2, "hle")
    view, event = position(config, [Hint(1, "value", 1)])
    fallback = Fixed(Hint(0, "value", 2))
    seat = Adaptive(Scripted([Discard(0)], on_observe=ForeignMove("Q-test", "a move no honest cluer makes")),
                    lambda: fallback)
    seat.observe(view, event)
    assert seat.left is not None and "Q-test" in seat.left
    assert seat.act(view) == fallback.action  # the convention is not asked again
    assert seat.convention.actions == [Discard(0)]  # type: ignore[attr-defined]


@pytest.mark.checks("S-foreign-detect")
def test_an_act_that_finds_the_code_broken_falls_back_at_once() -> None:
    config = make_config(2, "hle")
    view, _ = position(config, [Hint(1, "value", 1)])
    seat = Adaptive(Scripted([ForeignMove("Q-test", "no reading")]), lambda: Fixed(Discard(1)))
    assert seat.act(view) == Discard(1) and seat.left is not None


@pytest.mark.checks("S-foreign")
def test_a_bug_of_the_bot_is_not_taken_for_a_foreign_move() -> None:
    config = make_config(2, "hle")
    view, _ = position(config, [Hint(1, "value", 1)])
    seat = Adaptive(Scripted([ValueError("a bug")]), lambda: Fixed(Discard(1)))
    with pytest.raises(ValueError, match="a bug"):
        seat.act(view)


@pytest.mark.checks("S-foreign-team")
def test_a_failed_play_with_cards_left_breaks_the_code_for_everyone() -> None:
    config = make_config(3, "hle")
    state = initial_state(config, deck_from_seed(config, 5))
    slot = next(slot for slot, card in enumerate(state.hands[0]) if state.deck[card] % config.values != 0)
    state = apply(state, Play(slot))
    event = state.history[-1]
    assert event.success is False and event.drawn is not None
    seats = [Adaptive(Scripted([]), lambda: Fixed(Discard(0))) for _ in range(3)]
    for seat, strategy in enumerate(seats):
        strategy.observe(make_view(state, seat), event)
    assert all(strategy.left is not None and "S-foreign-team" in strategy.left for strategy in seats)
    assert all(strategy.convention.observed == 0 for strategy in seats)  # type: ignore[attr-defined]
    # a convention that may miss honestly is not broken by it
    assert not is_public_break(make_view(state, 1), event, lambda view, event: True)


@pytest.mark.checks("H-code-error", "S-foreign-detect")
def test_an_undecodable_hint_is_a_foreign_move_and_a_code_error() -> None:
    code = recommendation_code(make_config(4, "hanab-live"))
    sizes = getattr(code, "sizes")
    offset = sizes.index(2) + 1  # a part of size 2 has no class for a hint avoiding the newest card
    with pytest.raises(UndecodableHint) as caught:
        code.decode(0, Hint(offset, "value", 1), False)
    assert isinstance(caught.value, CodeError) and isinstance(caught.value, ForeignMove)

