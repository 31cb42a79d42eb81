"""The batch environment (spec/rl.md RL-batch): every game it steps is the engine's game
of its seed, observation for observation, mask for mask, reward for reward, under every
rule preset and on every deck of classic touch; illegal actions and configurations it
does not play are refused by clause."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from hanabi_ref.base.stats import outcome_at
from hanabi_ref.engine.actions import Action
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.tools.rl.actions import plain_actions
from hanabi_ref.tools.rl.check import drawn_config
from hanabi_ref.tools.rl.encoders import encode
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.layout import layout
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState, score, stop_clause
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import make_view
from tests.helpers import greedy_open_action
from tests.oracles import oracle

np = oracle("numpy")

from hanabi_ref.tools.rl import batch, batch_tables  # noqa: E402  (needs numpy)
from hanabi_ref.tools.rl.batch import BatchEnv, random_legal, shuffled_decks  # noqa: E402

HLE_OPTIONS: dict[str, Any] = {"empty_hints": False, "discard_at_max_hints": False, "draw_after_final_move": False}
"""The rule options of the hle preset, for custom decks."""
HANAB_LIVE_OPTIONS: dict[str, Any] = {"empty_hints": False, "discard_at_max_hints": False,
                                      "end_when_no_points_possible": True, "end_when_nothing_playable": True}
"""The rule options of the hanab-live preset, for custom decks."""

ENDINGS = {"2.16-3-strikeout": "lives lost", "2.16-3-R0": "deck ran out", "2.16-3-max": "fireworks complete",
           "R-1": "no points possible", "R-4": "nothing playable"}


def ending(state: GameState) -> str:
    """Why a finished game stopped, by the clause step 3 stops it under (R-4 when no
    clause of the STOP test holds: the last round's test of playable cards stopped it)."""
    clause = stop_clause(state.tables, state.deck, state.fireworks, state.discard, state.remaining, state.played)
    return ENDINGS[clause or "R-4"]


def first_difference(config: GameConfig, ours: object, theirs: object) -> str:
    """The first value where two observations differ, named by its section."""
    differing = np.nonzero(np.asarray(ours) != np.asarray(theirs))[0]
    index = int(differing[0])
    section = next(s for s in layout("canonical", config).sections if s.start <= index < s.stop)
    return f"{len(differing)} values differ, first in {section.name!r} at offset {index - section.start}"


def replay(config: GameConfig, n: int, steps: int, seed: int, random_games: int = 2) -> Counter[str]:
    """Step ``n`` games of the batch ``steps`` times, and each game alongside with the
    engine from its seed; at every step compare the acting seat, the observation, the
    mask, the reward and the end, and the seed a new game is dealt.  Games i with
    i % 3 < ``random_games`` (i % 3 == 0 and 1 unless told) choose from the batch's mask
    at random (they mostly lose their lives); the others play open and greedily
    (tests.helpers.greedy_open_action: the deck runs out, or the fireworks are
    completed).  Returns how the finished games ended."""
    plain = plain_actions(config)
    env = BatchEnv(config, n, seed)
    observation, mask = env.reset()
    assert observation.dtype == np.float32 and observation.shape == (n, layout("canonical", config).size)
    assert mask.dtype == np.int8 and mask.shape == (n, plain.size)
    assert list(env.seeds) == list(range(seed, seed + n))
    states = [initial_state(config, deck_from_seed(config, seed + game)) for game in range(n)]
    rng = np.random.default_rng(seed)
    next_seed = seed + n
    endings: Counter[str] = Counter()

    def compare(game: int, state: GameState, where: str) -> None:
        view = make_view(state, state.current_player)
        assert int(env.current_player[game]) == state.current_player, where
        expected = encode("canonical", view)
        assert np.array_equal(observation[game], expected), \
            f"{where}: {first_difference(config, observation[game], expected)}"
        assert np.array_equal(mask[game], plain.mask(view)), where

    for game, state in enumerate(states):
        compare(game, state, f"game {game} dealt")
    for step in range(steps):
        chosen = random_legal(mask, rng)
        actions: list[Action] = []
        for game, state in enumerate(states):
            action = greedy_open_action(state) if game % 3 >= random_games else plain.action(int(chosen[game]), state.current_player)
            chosen[game] = plain.index(action, state.current_player)
            actions.append(action)
        observation, mask, reward, done = env.step(chosen)
        assert reward.dtype == np.float32 and done.dtype == np.bool_
        for game, state in enumerate(states):
            where = f"step {step}, game {game} (seed {int(env.seeds[game])}, turn {state.turns})"
            after = apply(state, actions[game])
            assert reward[game] == score(after) - score(state), where
            assert bool(done[game]) == after.terminal, where
            if after.terminal:
                endings[ending(after)] += 1
                assert int(env.seeds[game]) == next_seed, where
                next_seed += 1
                after = initial_state(config, deck_from_seed(config, next_seed - 1))
            states[game] = after
            compare(game, after, where)
    return endings


HLE_CONFIGS = [(2, 5), (3, 5), (4, 4), (4, 5), (5, 4)]


@pytest.mark.checks("RL-batch", "RL-canonical", "RL-mask", "RL-reward", "RL-seed")
@pytest.mark.parametrize(("games", "steps", "random_games"),
                         [(15, 150, 1), pytest.param(30, 200, 2, marks=pytest.mark.deep)], ids=["15-games", "30-games"])
@pytest.mark.parametrize(("players", "hand_size"), HLE_CONFIGS)
def test_every_game_is_the_engines_game(players: int, hand_size: int, games: int, steps: int, random_games: int) -> None:
    """[RL-batch, RL-canonical, RL-mask, RL-reward, RL-seed] the hle preset: every step of
    every game equals the engine's, including the new games dealt when one ends; games
    end in each of the three ways: all lives lost, the deck run out, the fireworks
    complete [2.16-3-strikeout, 2.16-3-R0, 2.16-3-max].  15 games stepped 150 times, a
    third of them at random (those end soon, and often); in the deep set 30 games
    stepped 200 times, two thirds at random."""
    config = make_config(players, "hle", hand_size=hand_size)
    endings = replay(config, n=games, steps=steps, seed=100 * players + hand_size, random_games=random_games)
    assert all(endings[name] >= 1 for name in ("lives lost", "deck ran out", "fireworks complete")), endings


CUSTOM_CONFIGS = [
    # three suits of 3-2-1, unbounded lives (N + 1 life tokens), two hint tokens
    make_config(3, composition=[[3, 2, 1]] * 3, hand_size=3, hints=2, errors=None, **HLE_OPTIONS),
    # the deal takes the whole deck: the last round starts at once (E-6)
    make_config(2, composition=[[2, 1]] * 2, hand_size=3, hints=3, errors=1, **HLE_OPTIONS),
    # no hint tokens: no hints and no discards, only plays
    make_config(2, composition=[[3, 2, 2, 1]] * 2, hand_size=2, hints=0, errors=2, **HLE_OPTIONS),
    # one rank (every play of a 1 completes its suit) and six players with one card each
    make_config(6, composition=[[3]] * 4, hand_size=1, hints=4, errors=3, **HLE_OPTIONS),
]


@pytest.mark.checks("RL-batch")
@pytest.mark.parametrize("config", CUSTOM_CONFIGS, ids=["unbounded-lives", "deal-takes-deck", "no-hints", "one-rank"])
def test_custom_decks_under_the_hle_rules(config: GameConfig) -> None:
    """[RL-batch] other decks and token counts with the hle rules: the same comparison."""
    endings = replay(config, n=12, steps=60, seed=3)
    assert sum(endings.values()) >= 3, endings


@pytest.mark.checks("RL-batch", "RL-dims")
def test_drawn_configurations() -> None:
    """[RL-batch, RL-dims] configurations drawn from every parameter OpenSpiel accepts
    (1-5 colours and ranks, hand sizes up to 8, 0-10 hint and 1-5 or unbounded life
    tokens), as the encoders' own check draws them."""
    rng = random.Random(11)
    for _ in range(12):
        config = drawn_config(rng)
        replay(config, n=6, steps=40, seed=rng.randrange(1 << 32))


@pytest.mark.checks("RL-illegal")
def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    """[RL-illegal] an illegal action in one game raises RLError naming the game and the
    engine's clause, before any game changes: the environment then goes on exactly as
    one that was never given it."""
    config = make_config(3, "hle")
    env, twin = BatchEnv(config, 8, seed=5), BatchEnv(config, 8, seed=5)
    _, mask = env.reset()
    twin.reset()
    rng = np.random.default_rng(1)
    legal = random_legal(mask, rng)
    refused = legal.copy()
    refused[3] = 0  # discard slot 0 with every hint token: E-2
    with pytest.raises(RLError, match=r"^RL-illegal: game 3: action 0 \(discard 0, seat 0\) is illegal: E-2"):
        env.step(refused)
    refused[3] = plain_actions(config).size
    with pytest.raises(RLError, match=r"^RL-illegal: game 3: action \d+ is not an index"):
        env.step(refused)
    with pytest.raises(RLError, match="^RL-batch: actions must be an integer array"):
        env.step(legal[:5])
    with pytest.raises(RLError, match="^RL-batch: actions must be an integer array"):
        env.step(legal.astype(np.float64))
    for _ in range(30):
        outputs, twins = env.step(legal), twin.step(legal)
        for ours, theirs in zip(outputs, twins):
            assert np.array_equal(ours, theirs)
        legal = random_legal(outputs[1], rng)


@pytest.mark.checks("RL-illegal")
def test_a_hint_touching_no_card_is_refused_by_its_clause() -> None:
    """[RL-illegal, 2.16-2a-empty] the reason comes from the engine's legality rules."""
    config = make_config(2, "hle")
    env = BatchEnv(config, 1, seed=0)
    _, mask = env.reset()
    plain = plain_actions(config)
    hint = next(index for index in range(2 * config.hand_size, plain.size) if not mask[0, index])
    with pytest.raises(RLError, match=r"^RL-illegal: game 0: .* 2\.16-2a-empty: the hint touches no card of seat 1"):
        env.step(np.array([hint]))


@pytest.mark.checks("RL-batch")
def test_step_before_reset_is_refused() -> None:
    """[RL-batch] the games are dealt by reset()."""
    env = BatchEnv(make_config(2, "hle"), 2)
    with pytest.raises(RLError, match="^RL-batch: reset"):
        env.step(np.zeros(2, np.int64))


PRESET_NAMES = ("thesis", "hle", "hanab-live", "hanabi-rs", "physical")


@pytest.mark.checks("RL-batch", "RL-canonical", "RL-mask", "RL-reward", "P-presets")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("preset", PRESET_NAMES)
def test_every_preset_is_the_engines_game(preset: str, players: int) -> None:
    """[RL-batch, P-presets] every rule preset at 2-5 players: the same comparison, step for
    step (empty hints and discards with every token where the preset allows them, the
    strikeout's score, R-1, R-4 and the final move's draw); games end."""
    config = make_config(players, preset)
    endings = replay(config, n=9, steps=90, seed=17 * players + len(preset), random_games=2)
    assert sum(endings.values()) >= 3, endings


CLASSIC_VARIANTS = [
    ("thesis", "6 Suits", 3),
    ("hanab-live", "Black (6 Suits)", 4),
    ("hanab-live", "Black (5 Suits)", 2),
    ("physical", "Dutch Rainbow (Example 2.12)", 5),
    ("thesis", "Scarce Ones (5 Suits)", 3),
    ("hanab-live", "Critical Fours & Black (5 Suits)", 2),
    ("hanab-live", "3 Suits", 6),
]


@pytest.mark.checks("RL-batch", "RL-configs")
@pytest.mark.parametrize(("preset", "variant", "players"), CLASSIC_VARIANTS, ids=[v for _, v, _ in CLASSIC_VARIANTS])
def test_variants_of_classic_touch_are_the_engines_games(preset: str, variant: str, players: int) -> None:
    """[RL-batch, RL-configs] hanab.live's variants of classic touch (a sixth suit with its
    own colour, a dark suit of one card each, fewer suits, other counts) and the thesis'
    Dutch Rainbow: the same comparison."""
    config = make_config(players, preset, variant)
    endings = replay(config, n=8, steps=80, seed=players, random_games=2)
    assert sum(endings.values()) >= 3, endings


OPTION_CONFIGS = [
    # the deal round the table, and the newest card in slot 0 [2.16-1-deal, R-2]
    make_config(3, "thesis", deal="round-robin"),
    make_config(3, "hle", draw_position="newest-first"),
    make_config(2, "hanab-live", deal="round-robin", draw_position="newest-first"),
    # the literal reading of an empty stack after the deal: the first player moves twice [E-6]
    make_config(2, composition=[[2, 1]] * 2, hand_size=3, hints=3, errors=1, initial_stop_check=False),
    # unbounded lives, and hanabi.rs' strikeout on a deck with no hint tokens
    make_config(3, "thesis", errors=None),
    make_config(2, composition=[[3, 2, 2, 1]] * 2, hand_size=2, hints=0, errors=2, strikeout_score="fireworks"),
]


@pytest.mark.checks("RL-batch", "P-options")
@pytest.mark.parametrize("config", OPTION_CONFIGS,
                         ids=["round-robin", "newest-first", "both", "literal-empty-deal", "unbounded", "no-hints"])
def test_option_values_no_preset_sets(config: GameConfig) -> None:
    """[RL-batch, P-options] the values of the rule options that no preset sets: the same
    comparison."""
    endings = replay(config, n=9, steps=70, seed=5)
    assert sum(endings.values()) >= 3, endings


@pytest.mark.checks("RL-batch", "R-1", "R-4")
def test_the_early_ends_are_the_engines() -> None:
    """[RL-batch, R-1, R-4] games of the hanab-live rules end when no point can be scored
    any more (one copy of each card: a discard or a misplay ends a suit) and when nobody
    who still moves in the last round holds a playable card; at the step the engine ends
    them."""
    endings: Counter[str] = Counter()
    for config in (make_config(3, "hanab-live"),
                   make_config(2, composition=[[1, 1, 1]] * 3, hand_size=2, errors=2, **HANAB_LIVE_OPTIONS)):
        endings += replay(config, n=12, steps=90, seed=7, random_games=1)
    assert endings["no points possible"] >= 1 and endings["nothing playable"] >= 1, endings


@pytest.mark.checks("RL-batch", "RL-configs")
@pytest.mark.parametrize(("build", "reason"), [
    (lambda: make_config(3, "hanab-live", "Rainbow (6 Suits)"), "a clue colour touches other cards"),
    (lambda: make_config(3, "hanab-live", "Color Blind (5 Suits)"), "a clue colour touches other cards"),
    (lambda: make_config(3, "hanab-live", "Pink (5 Suits)"), "the rank clues are not 1 to n"),
    (lambda: make_config(3, "hanab-live", "Odds and Evens (5 Suits)"), "the rank clues are not 1 to n"),
    (lambda: make_config(3, "hanab-live", "Orange (5 Suits)"), "stacks are not built from 1 up"),
    (lambda: make_config(3, "thesis", self_hints=True), "self_hints=True"),
    (lambda: make_config(3, "hanab-live", deck_plays=True), "deck_plays=True"),
    (lambda: make_config(1), "at least 2 players"),
    (lambda: make_config(2, composition=[[1] * 12] * 5, hand_size=2), "at most 16 kinds of hint"),
    (lambda: make_config(2, composition=[[2, 1]] * 2, hand_size=3, **HANAB_LIVE_OPTIONS), "may end a game on its deal"),
], ids=["rainbow", "colour-blind", "pink", "odds-and-evens", "orange", "self-hints", "deck-plays", "one-player",
        "hint-kinds", "deal-ends"])
def test_configurations_it_does_not_play_are_refused_in_one_line(build: Callable[[], GameConfig], reason: str) -> None:
    """[RL-batch, RL-configs] a deck whose touch is not classic, a move the plain space
    has no index for, one player, more kinds of hint than a touch key holds, a game that
    could end on its deal: one line naming why."""
    with pytest.raises(RLError) as refused:
        BatchEnv(build(), 4)
    message = str(refused.value)
    assert message.startswith("RL-batch: ") and reason in message and "\n" not in message, message


@pytest.mark.checks("RL-batch")
@pytest.mark.parametrize("n", [0, -1, 2.5, True])
def test_the_number_of_games_is_checked(n: object) -> None:
    """[RL-batch] n is an integer >= 1."""
    with pytest.raises(RLError, match="^RL-batch: the number of games"):
        BatchEnv(make_config(2, "hle"), n)  # type: ignore[arg-type]


@pytest.mark.checks("RL-seed", "RL-batch")
def test_a_reset_deals_the_next_unused_seeds() -> None:
    """[RL-seed, RL-batch] seed, seed + 1, ... at the first reset, the next n after; up to
    the last seed, 2^64 - 1, and no further."""
    env = BatchEnv(make_config(4, "hle"), 3, seed=40)
    env.reset()
    assert list(env.seeds) == [40, 41, 42]
    env.reset()
    assert list(env.seeds) == [43, 44, 45]
    last = BatchEnv(make_config(2, "hle"), 2, seed=(1 << 64) - 3)
    last.reset()
    assert list(last.seeds) == [(1 << 64) - 3, (1 << 64) - 2]
    with pytest.raises(RLError, match="^RL-batch: the seeds have run out"):
        last.reset()


@pytest.mark.parametrize("config", [make_config(4, "hle"), CUSTOM_CONFIGS[0], CUSTOM_CONFIGS[3]])
def test_decks_dealt_as_arrays_are_deck_from_seed(config: GameConfig, monkeypatch: pytest.MonkeyPatch) -> None:
    """[D-seed] the array shuffle deals deck_from_seed's decks, up to the last seed; a
    deck meeting a rejection (forced here: every draw rejected) is dealt one by one."""
    for first, count in ((0, 40), (987_654_321, 100), ((1 << 64) - 50, 50), (12, 5)):
        expected = [deck_from_seed(config, first + index) for index in range(count)]
        assert shuffled_decks(config, first, count).tolist() == [list(deck) for deck in expected]
    monkeypatch.setattr(batch_tables, "draw_bounds",
                        lambda size: (np.arange(size, 1, -1).astype(np.uint64), np.zeros(size - 1, np.uint64)))
    assert shuffled_decks(config, 77, 40).tolist() == [list(deck_from_seed(config, 77 + i)) for i in range(40)]


@pytest.mark.checks("RL-bench")
def test_the_benchmark_runs() -> None:
    """[RL-bench] the timing function returns a rate."""
    assert batch.bench(make_config(4, "hle"), 16, 5) > 0


@pytest.mark.checks("RL-bench")
def test_openspiel_chance_nodes_are_dealt_by_one_draw_and_a_cumulative_scan() -> None:
    """[RL-bench] the cheap chance loop picks the first outcome whose cumulative
    probability exceeds the draw: with shares 1/4, 1/2, 1/4, draws in [0, 1/4) pick the
    first, [1/4, 3/4) the second, [3/4, 1) the third; shares that round below the draw
    pick the last."""
    outcomes = [(3, 0.25), (7, 0.5), (9, 0.25)]
    picks = [outcome_at(outcomes, draw) for draw in (0.0, 0.2499, 0.25, 0.7499, 0.75, 0.9999)]
    assert picks == [3, 3, 7, 7, 9, 9]
    assert outcome_at([(1, 0.3), (2, 0.3), (5, 0.3)], 0.95) == 5
