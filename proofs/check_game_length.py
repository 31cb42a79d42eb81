"""Machine check of proofs/game_length.md [PR-length].

1. Exhaustive longest-path search (depth-first, memoised) over every legal game of tiny
   configurations, from every order of the deck: the longest game never exceeds the
   bound t0 + 2(N - p*h) + p of PR-length, nor the sharper bound of Theorem 2 of
   game_length.md; under the thesis' options the sharper bound is attained exactly,
   and the PR-length bound exactly when N = p*h and t0 = 0 (tightness).
2. The literal reading of E-6 (initial_stop_check = false) with N = p*h and t0 = 0
   has a game of p + 1 moves, one more than the bound.
3. The worked example of game_length.md, replayed move by move.
4. Theorem 3's stalling strategy: on every deck order of the tiny games, and on seeded
   classic games, it plays exactly as many moves as the sharper bound allows.
5. Hypothesis: random legal games of the standard configurations (every preset,
   variant and player count they admit) end within both bounds.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.configs import move_bound
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.presets import PRESETS
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.state import GameState
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.tables import tables_for
from hanabi_search import (
    PRESET_OPTIONS,
    Composition,
    check_knowledge_abstraction,
    distinct_orders,
    length_bound,
    longest_game,
    option_combinations,
    tiny_config,
)

Family = tuple[int, Composition, int]  # (p, composition, h)
Grid = list[tuple[int, int | None, Mapping[str, bool | str]]]  # (t0, f0, options)


def sharp_bound(config: GameConfig) -> int:
    """Theorem 2 of game_length.md: with s = N - p*h cards left after the deal,
    p moves if s = 0 (p + 1 under the literal reading of E-6); otherwise
    p + s + (t0 + s - 1) if a hint can ever be given (t0 >= 1 and a target exists:
    p >= 2 or self hints), and p + s if not."""
    p, h, t0 = config.players, config.hand_size, config.max_hints
    spare = tables_for(config).deck_size - p * h
    if spare == 0:
        return p if config.options.initial_stop_check else p + 1
    hints_possible = t0 >= 1 and (p >= 2 or config.options.self_hints)
    return p + spare + (t0 + spare - 1 if hints_possible else 0)


def is_thesis_like(options: Mapping[str, bool | str]) -> bool:
    """The options under which Theorem 2 says the sharper bound is attained: every hint
    and every discard legal, no early stop (R-1)."""
    return (
        options.get("empty_hints", True) is True
        and options.get("discard_at_max_hints", True) is True
        and options.get("end_when_no_points_possible", False) is False
    )


TWO_AND_THREE_CARDS: list[Family] = [
    (1, ((1, 1),), 1),
    (1, ((1, 1),), 2),
    (2, ((1, 1),), 1),
    (3, ((1, 1, 1),), 1),
    (1, ((1, 1, 1),), 1),
]
FOUR_CARDS: list[Family] = [
    (2, ((1, 1), (1, 1)), 1),
    (2, ((1, 1), (1, 1)), 2),
    (3, ((1, 1), (1, 1)), 1),
    (1, ((1, 1), (1, 1)), 2),
]
# The slowest searches run in the deep set only (python -m pytest -m deep): p = 3 on the
# four-card deck (p = 3 stays on the three-card deck) and the five-card decks but the
# h = 2 family (two equal cards).
FIVE_CARDS: list[object] = [
    pytest.param((2, ((2, 1), (1, 1)), 1), marks=pytest.mark.deep),
    (2, ((2, 1), (1, 1)), 2),
    pytest.param((3, ((2, 1), (1, 1)), 1), marks=pytest.mark.deep),
]
DEEP_FOUR_CARDS: list[Family] = [(3, ((1, 1), (1, 1)), 1)]


def _default_or_deep(families: list[Family]) -> list[object]:
    return [pytest.param(family, marks=pytest.mark.deep) if family in DEEP_FOUR_CARDS else family for family in families]


def grid_for(family: Family) -> Grid:
    """(t0, f0, options) per family: every option combination on the smallest decks,
    the presets' option bundles on the larger ones."""
    presets: list[Mapping[str, bool | str]] = list(PRESET_OPTIONS.values())
    if family in TWO_AND_THREE_CARDS:
        combos: list[Mapping[str, bool | str]] = list(option_combinations())
        return [(t, f, o) for t in (0, 1, 2) for f in (1, None) for o in combos]
    if family in FOUR_CARDS:
        return [(t, 2, o) for t in (0, 1, 2) for o in presets]
    return [(t, 2, o) for t in (0, 1) for o in presets]


def _family_id(family: Family) -> str:
    p, composition, h = family
    return f"p{p}-{'+'.join(''.join(map(str, suit)) for suit in composition)}-h{h}"


@pytest.mark.parametrize("family", TWO_AND_THREE_CARDS + _default_or_deep(FOUR_CARDS) + FIVE_CARDS, ids=_family_id)
def test_longest_game_is_within_the_bound(family: Family) -> None:
    """[PR-length] exhaustive maximum <= sharp bound <= t0 + 2(N - p*h) + p, with
    equality in the sharp bound under the thesis' options."""
    players, composition, hand_size = family
    attained_stated = False
    for hints, errors, options in grid_for(family):
        config = tiny_config(players, composition, hand_size, hints, errors, options)
        longest = longest_game(config)
        where = f"t0={hints} f0={errors} options={dict(options)}: {longest}"
        assert sharp_bound(config) <= length_bound(config), where
        assert longest.moves <= sharp_bound(config), f"[PR-length] above the sharp bound, {where}"
        assert longest.moves <= length_bound(config), f"[PR-length] above the bound, {where}"
        assert move_bound(config) == length_bound(config)
        if is_thesis_like(options):
            assert longest.moves == sharp_bound(config), f"[PR-length] sharp bound not attained, {where}"
            stated_tight = tables_for(config).deck_size == players * hand_size and hints == 0
            assert (longest.moves == length_bound(config)) == stated_tight, where
            attained_stated |= stated_tight
    if sum(map(sum, composition)) == players * hand_size:
        assert attained_stated


def test_literal_reading_allows_one_move_more() -> None:
    """[E-6, PR-length] Without the initial stop check and with N = p*h, t0 = 0 the
    longest game has p + 1 moves, one more than t0 + 2(N - p*h) + p = p; the engine's
    move_bound allows for it."""
    for players, composition, hand_size in [(1, ((1, 1),), 2), (2, ((1, 1), (1, 1)), 2), (1, ((1, 1, 1),), 3)]:
        config = tiny_config(players, composition, hand_size, 0, 2, {"initial_stop_check": False})
        longest = longest_game(config)
        assert longest.moves == players + 1 == length_bound(config) + 1
        assert move_bound(config) == players + 1


@pytest.mark.parametrize("family", [
    (2, ((1, 1),), 1, 2),
    (3, ((1, 1, 1),), 1, 1),
    (2, ((1, 1), (1, 0)), 1, 1),  # two suits, so colour hints tell cards apart
    pytest.param((2, ((1, 1), (1, 1)), 1, 1), marks=pytest.mark.deep),
], ids=str)
def test_knowledge_abstraction(family: tuple[int, Composition, int, int]) -> None:
    """The searches leave the knowledge sets out of the state key; on small games the
    search with them reaches the same states and the same longest game."""
    players, composition, hand_size, hints = family
    for options in PRESET_OPTIONS.values():
        check_knowledge_abstraction(tiny_config(players, composition, hand_size, hints, 2, options))


def test_worked_example() -> None:
    """game_length.md, "Worked example": p = 2, h = 1, two suits of values 1 and 2, t0 = 2.
    Bound 2 + 2*(4 - 2) + 2 = 8; Theorem 2 gives 2 + 2 + (2 + 2 - 1) = 7, and this game
    of 7 moves attains it."""
    config = tiny_config(2, ((1, 1), (1, 1)), 1, 2, 3, {})
    assert length_bound(config) == 8 and sharp_bound(config) == 7
    deck = (0, 1, 2, 3)  # seat 0: the 1 of suit 0, seat 1: the 2 of suit 0; stack: 1, 2 of suit 1
    moves: list[Action] = [
        Hint(1, "value", 2),  # t 2 -> 1
        Hint(0, "value", 1),  # t 1 -> 0
        Discard(0),  # seat 0: t 0 -> 1, draws the 1 of suit 1
        Hint(0, "colour", 1),  # seat 1: t 1 -> 0
        Discard(0),  # seat 0: t 0 -> 1, draws the last card: R := 2
        Discard(0),  # seat 1, last round: t 1 -> 2, R := 1
        Discard(0),  # seat 0, last round: R := 0, the game stops
    ]
    state = initial_state(config, deck)
    for move in moves:
        assert not state.terminal
        state = apply(state, move)
    assert state.terminal and state.turns == 7 == longest_game(config).moves


# ------------------------------------------ Theorem 3: the stalling strategy


def stalling_move(state: GameState) -> Action:
    """Theorem 3's strategy: hint while a token is left, else discard (else play)."""
    actions = legal_actions(state)
    for kind in (Hint, Discard, Play):
        for action in actions:
            if isinstance(action, kind):
                return action
    raise AssertionError("[PR-legal-action] no legal action")


def stalled_length(config: GameConfig, deck: tuple[int, ...]) -> int:
    """The number of moves of the stalling strategy's game on ``deck``."""
    state = initial_state(config, deck)
    while not state.terminal:
        state = apply(state, stalling_move(state))
    return state.turns


@pytest.mark.parametrize("family", TWO_AND_THREE_CARDS + FOUR_CARDS + FIVE_CARDS, ids=_family_id)
def test_stalling_attains_the_sharp_bound_on_every_deck(family: Family) -> None:
    """Theorem 3: under the thesis' options the stalling strategy makes exactly as many
    moves as Theorem 2 allows, whatever the order of the deck."""
    players, composition, hand_size = family
    for hints in (0, 1, 2):
        for options in ({}, {"self_hints": True}):
            config = tiny_config(players, composition, hand_size, hints, 1, options)
            for deck in distinct_orders(tables_for(config).canonical_deck):
                assert stalled_length(config, deck) == sharp_bound(config), (hints, options, deck)


@pytest.mark.parametrize("preset", ["thesis", "hle"])
def test_standard_games_last_one_move_less_than_the_bound(preset: str) -> None:
    """Theorem 3 on the classic game: t0 = 8, N = 50, so the longest game has
    8 + 2 (50 - p h) + p - 1 moves (89, 80, 79, 72 for p = 2..5), one less than the
    PR-length bound, and the stalling strategy plays such a game on any deck."""
    expected = {2: 89, 3: 80, 4: 79, 5: 72}  # 2s + t0 + p - 1 with s = 40, 35, 34, 30
    for players, moves in expected.items():
        config = make_config(players, preset)
        assert moves == sharp_bound(config) == length_bound(config) - 1
        for seed in (0, 1):
            assert stalled_length(config, deck_from_seed(config, seed)) == moves


# ------------------------------------------------------ random standard games


def standard_configs() -> list[GameConfig]:
    """Every preset with every variant and player count it admits (the thesis preset
    from 1 to 6 players)."""
    configs = []
    for name, preset in PRESETS.items():
        variants = preset.variants or ("No Variant", "6 Suits", "Black (6 Suits)", "Rainbow (6 Suits)", "Dutch Rainbow (Example 2.12)")
        top = preset.max_players or 6
        for variant in variants:
            for players in range(preset.min_players, top + 1):
                configs.append(make_config(players, name, variant))
    return configs


STANDARD = standard_configs()


RANDOM_GAME = {"config": st.sampled_from(STANDARD), "seed": st.integers(0, 2**64 - 1), "cautious": st.booleans(),
               "data": st.data()}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**RANDOM_GAME)
def test_random_games_end_within_the_bound(config: GameConfig, seed: int, cautious: bool, data: st.DataObject) -> None:
    """[PR-length, PR-legal-action] a random legal game of a standard configuration
    ends within the bounds, the player to move always having a legal action (40 games;
    120 more in the deep set)."""
    play_random_game(config, seed, cautious, data)


@pytest.mark.deep
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(**RANDOM_GAME)
def test_more_random_games_end_within_the_bound(config: GameConfig, seed: int, cautious: bool, data: st.DataObject) -> None:
    """[PR-length, PR-legal-action] the same on 120 random games."""
    play_random_game(config, seed, cautious, data)


def play_random_game(config: GameConfig, seed: int, cautious: bool, data: st.DataObject) -> None:
    """One random legal game, asserting the bounds after every move.  "Cautious" games
    never play while a hint or discard is legal, which keeps them going towards the
    bound; the others choose among all legal actions."""
    state = initial_state(config, deck_from_seed(config, seed))
    while not state.terminal:
        actions = legal_actions(state)
        assert actions, "[PR-legal-action] no legal action in a standard game"
        if cautious:
            actions = [a for a in actions if not isinstance(a, Play)] or actions
        state = apply(state, data.draw(st.sampled_from(actions)))
        assert state.turns <= sharp_bound(config) <= length_bound(config)
