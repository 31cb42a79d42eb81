"""The PettingZoo and Gymnasium environments (spec/rl.md, RL-aec, RL-gym, RL-seed,
RL-reward, RL-illegal): the checkers pass, an episode is the engine's game of its seed
move for move, every observation is the encoded view of the engine's state and nothing
else, rewards add up to the score, and bad requests are refused by clause."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest

from tests.oracles import oracle

oracle("pettingzoo")
oracle("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test  # noqa: E402
import gymnasium  # noqa: E402

from hanabi_ref.engine.actions import Discard, Play  # noqa: E402
from hanabi_ref.engine.dealing import deck_from_seed, derive_seed  # noqa: E402
from hanabi_ref.base.errors import ConfigError  # noqa: E402
from hanabi_ref.players.runner import play_game  # noqa: E402
from hanabi_ref.tools.rl.actions import plain_actions  # noqa: E402
from hanabi_ref.tools.rl.encoders import encode  # noqa: E402
from hanabi_ref.tools.rl import envs  # noqa: E402
from hanabi_ref.tools.rl.env import HanabiAECEnv, HanabiGymEnv, Observation  # noqa: E402
from hanabi_ref.tools.rl.errors import RLError  # noqa: E402
from hanabi_ref.engine.config import GameConfig  # noqa: E402
from hanabi_ref.engine.configs import make_config  # noqa: E402
from hanabi_ref.engine.state import GameState, score  # noqa: E402
from hanabi_ref.players.strategies import factory_for  # noqa: E402
from hanabi_ref.players.strategy import Strategy  # noqa: E402
from hanabi_ref.engine.transition import apply, initial_state  # noqa: E402
from hanabi_ref.engine.view import make_view  # noqa: E402


def masked_choice(rng: np.random.Generator, mask: npt.NDArray[np.int8]) -> int:
    """A uniformly drawn legal index of ``mask``."""
    return int(rng.choice(np.flatnonzero(mask)))


def seat_of(agent: str) -> int:
    """The seat of agent ``player_k``."""
    return int(agent.removeprefix("player_"))


def assert_is_view(observation: Observation, encoding: str, state: GameState, seat: int) -> None:
    """[RL-aec, RL-gym] ``observation`` is exactly ``seat``'s encoded view of ``state`` and its mask."""
    view = make_view(state, seat)
    assert observation["observation"].dtype == np.float32
    assert np.array_equal(observation["observation"], encode(encoding, view))
    assert np.array_equal(observation["action_mask"], plain_actions(state.config).mask(view))


def engine_state(config: GameConfig, seed: int) -> GameState:
    """The engine's deal of ``seed`` [RL-seed]."""
    return initial_state(config, deck_from_seed(config, seed))


# ----------------------------------------------------------------- the checkers


@pytest.mark.checks("RL-aec")
@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_api_and_seed_tests_pass(players: int) -> None:
    """[RL-aec] PettingZoo's api_test and seed_test, 2 and 4 players."""
    api_test(HanabiAECEnv(players=players), num_cycles=200)
    seed_test(lambda: HanabiAECEnv(players=players), num_cycles=200)


@pytest.mark.checks("RL-aec")
def test_pettingzoo_api_test_passes_with_terminate_and_render() -> None:
    """[RL-aec, RL-illegal] the checker also passes in terminate mode with ansi rendering,
    on another preset and encoding."""
    api_test(HanabiAECEnv(players=3, preset="hanab-live", encoding="v0", render_mode="ansi",
                          illegal_action="terminate"), num_cycles=200)


@pytest.mark.checks("RL-gym", "RL-illegal")
@pytest.mark.parametrize("kwargs", [{}, {"seat": 0, "others": "thesis"}, {"players": 3, "seat": 1, "others": "simple"},
                                    {"players": 4, "seat": 2, "others": "hat"}],
                         ids=["self-play", "seat0-thesis", "seat1-simple", "seat2-hat"])
def test_gymnasium_check_env_passes_with_the_default_settings(kwargs: dict[str, Any]) -> None:
    """[RL-gym, RL-illegal] Gymnasium's check_env (which steps unmasked random actions)
    passes with the default settings, rendering checked too, beside any partner (the
    convention strategies leave their convention when the checker's moves break it)."""
    check_env(HanabiGymEnv(**kwargs))
    check_env(HanabiGymEnv(render_mode="ansi", **kwargs))


# ----------------------------------------------------------------- the engine's game


@pytest.mark.checks("RL-aec", "RL-seed", "RL-reward")
@pytest.mark.parametrize(("players", "encoding", "hand_size"), [
    (2, "canonical", None), (3, "minimal", None), (4, "v0", None), (4, "notes", 5), (5, "canonical", None),
])
@pytest.mark.parametrize("seed", [11, 12, 13])
def test_aec_episode_is_the_engines_game(players: int, encoding: str, hand_size: int | None, seed: int) -> None:
    """[RL-aec, RL-seed, RL-reward] masked random play: every agent's observation after
    every move is its encoded view of the engine's state reached by the same actions from
    the same deal, turn and end agree, and the rewards add up to the engine's score."""
    config = make_config(players, "hle", hand_size=hand_size)
    env = HanabiAECEnv(players=players, encoding=encoding, hand_size=hand_size)
    env.reset(seed=seed)
    state, rng, returned = engine_state(config, seed), np.random.default_rng(seed), 0.0
    for agent in env.agent_iter():
        observation, _, terminated, _, info = env.last()
        assert terminated == state.terminal and info["score"] == score(state)
        for other in env.agents:
            assert_is_view(env.observe(other), encoding, state, seat_of(other))
        if terminated:
            env.step(None)
            continue
        assert seat_of(agent) == state.current_player
        index = masked_choice(rng, observation["action_mask"])
        state = apply(state, plain_actions(config).action(index, state.current_player))
        env.step(np.int64(index))
        returned += env.rewards["player_0"]
    assert state.terminal and not env.agents
    assert returned == score(state)


def play_aec_with(env: HanabiAECEnv, config: GameConfig, name: str, seed: int) -> tuple[list[float], GameState]:
    """Play ``env`` (canonical encoding) from ``seed`` with strategy ``name`` (non-observing)
    choosing from each seat's view of a mirror of the game, checking the acting agent's
    observation against the mirror; player_0's rewards and the mirror's end."""
    strategies = [factory_for(name)(config, seat, derive_seed(seed, seat + 1)) for seat in range(config.players)]
    env.reset(seed=seed)
    state = engine_state(config, seed)
    rewards: list[float] = []
    for agent in env.agent_iter():
        if env.terminations[agent]:
            env.step(None)
            continue
        assert_is_view(env.observe(agent), "canonical", state, state.current_player)
        action = strategies[state.current_player].act(make_view(state, state.current_player))
        env.step(plain_actions(config).index(action, state.current_player))
        state = apply(state, action)
        rewards.append(env.rewards["player_0"])
    return rewards, state


@pytest.mark.checks("RL-reward", "RL-seed")
def test_rewards_add_up_to_the_score_of_play_game() -> None:
    """[RL-reward, RL-seed] the simple strategy driving the AEC env plays play_game's game
    of the same seed, and every agent's rewards add up to its (positive) final score."""
    config = make_config(2, "hle")
    rewards, state = play_aec_with(HanabiAECEnv(), config, "simple", 5)
    final = play_game(config, factory_for("simple"), seed=5).final
    assert state == final and final.remaining != -1 and score(final) > 0
    assert sum(rewards) == score(final)


@pytest.mark.checks("RL-reward")
def test_a_game_lost_to_errors_gives_back_its_score_under_hle() -> None:
    """[RL-reward] under hle a game lost to errors scores 0: the rewards, positive on the
    way, add up to 0, the last one taking everything back."""
    config = make_config(2, "hle")
    for seed in range(60):
        rewards, state = play_aec_with(HanabiAECEnv(), config, "random", seed)
        if state.remaining == -1 and max(rewards) > 0:
            break
    else:
        pytest.fail("no random game scored and then struck out in 60 seeds")
    assert sum(rewards) == 0 and rewards[-1] < 0


@pytest.mark.checks("RL-gym", "RL-reward")
def test_gym_self_play_is_the_engines_game() -> None:
    """[RL-gym, RL-reward] self-play, two episodes on one env: the agent acts for the seat
    to act and sees that seat's view of the engine's game; rewards add up to the score."""
    config = make_config(3, "hle")
    env = HanabiGymEnv(players=3, encoding="v0")
    for seed in (21, 22):
        observation, info = env.reset(seed=seed)
        state, rng, returned, terminated = engine_state(config, seed), np.random.default_rng(seed), 0.0, False
        while not terminated:
            assert info["seat"] == state.current_player
            assert_is_view(observation, "v0", state, state.current_player)
            index = masked_choice(rng, observation["action_mask"])
            state = apply(state, plain_actions(config).action(index, state.current_player))
            observation, reward, terminated, truncated, info = env.step(index)
            returned += reward
            assert not truncated and terminated == state.terminal
        assert returned == score(state) == info["score"]


def catch_up(mirror: GameState, played: GameState, seat: int, agent: Strategy) -> GameState:
    """Replay on ``mirror`` the moves ``played`` has made since, telling ``agent`` each
    event with its view of the state it made, as play_game does [2.17-history]."""
    for event in played.history[len(mirror.history):]:
        mirror = apply(mirror, event.action)
        agent.observe(make_view(mirror, seat), mirror.history[-1])
    return mirror


@pytest.mark.checks("RL-gym", "RL-reward")
@pytest.mark.parametrize("name", ["info", "random"])
@pytest.mark.parametrize("seat", [0, 1, 2])
def test_gym_seat_beside_strategies_is_play_games_game(seat: int, name: str) -> None:
    """[RL-gym, RL-reward] seat k played by strategy NAME through the Gym env, the others
    by the env's NAME strategies (seeded as play_game seeds them): the game is play_game's
    of the same seed, the agent's observation is its own view only, and its rewards add
    up to the final score."""
    config, env = make_config(3, "hle"), HanabiGymEnv(players=3, seat=seat, others=name)
    for seed in (8, 9):  # two episodes on one env
        agent = factory_for(name)(config, seat, derive_seed(seed, seat + 1))
        returned, info, state = play_seat(env, config, agent, seed)
        final = play_game(config, factory_for(name), seed=seed).final
        assert state == env.table.state == final
        assert returned == score(final) == info["score"]


def play_seat(
    env: HanabiGymEnv, config: GameConfig, agent: Strategy, seed: int
) -> tuple[float, dict[str, Any], GameState]:
    """One episode of ``env``'s seat played by ``agent`` from views of a mirror of the game,
    checking every observation against it; the return, the last info, the mirror's end."""
    seat = env.seat
    assert seat is not None
    observation, info = env.reset(seed=seed)
    mirror, returned, terminated = engine_state(config, seed), 0.0, False
    while not terminated:
        mirror = catch_up(mirror, env.table.state, seat, agent)
        assert_is_view(observation, "canonical", mirror, seat)
        action = agent.act(make_view(mirror, seat))
        observation, reward, terminated, _, info = env.step(plain_actions(config).index(action, seat))
        returned += reward
    return returned, info, catch_up(mirror, env.table.state, seat, agent)


# ----------------------------------------------------------------- seeds


@pytest.mark.checks("RL-seed")
def test_aec_seeds_deal_the_engines_decks_and_unseeded_resets_follow() -> None:
    """[RL-seed] reset(seed=S) deals deck_from_seed(config, S); the resets without a seed
    that follow are the same in two environments seeded alike."""
    config = make_config(2, "hle")
    first, second = HanabiAECEnv(), HanabiAECEnv()
    for env in (first, second):
        env.reset(seed=77)
        assert env.table.state.deck == deck_from_seed(config, 77)
    decks = []
    for env in (first, second):
        env.reset()
        decks.append(env.table.state.deck)
    assert decks[0] == decks[1] != deck_from_seed(config, 77)


@pytest.mark.checks("RL-seed")
def test_gym_seeds_deal_the_engines_decks_and_unseeded_resets_follow() -> None:
    """[RL-seed] the same for the Gym env, whose unseeded resets draw from np_random."""
    config, env = make_config(2, "hle"), HanabiGymEnv()
    runs = []
    for _ in range(2):
        observation, _ = env.reset(seed=123)
        assert env.table.state.deck == deck_from_seed(config, 123)
        runs.append((observation["observation"], env.reset()[0]["observation"], env.table.state.deck))
    assert np.array_equal(runs[0][0], runs[1][0]) and np.array_equal(runs[0][1], runs[1][1])
    assert runs[0][2] == runs[1][2] != deck_from_seed(config, 123)


# ----------------------------------------------------------------- illegal actions


def discard_index(config: GameConfig) -> int:
    """Discard slot 0: illegal at the deal under hle (8 hint tokens)."""
    return plain_actions(config).index(Discard(0), 0)


@pytest.mark.checks("RL-illegal")
def test_aec_illegal_action_raises_and_changes_nothing() -> None:
    """[RL-illegal] the error names the clause, the action and the engine's reason; the
    env is as it was and a legal action still works."""
    env = HanabiAECEnv(illegal_action="raise")
    env.reset(seed=3)
    before, selected = env.observe("player_0"), env.agent_selection
    with pytest.raises(RLError) as caught:
        env.step(discard_index(env.table.config))
    assert str(caught.value).startswith("RL-illegal") and "discard 0" in str(caught.value)
    assert caught.value.clause == "RL-illegal" and "E-2: discarding is not allowed" in str(caught.value)
    assert env.agent_selection == selected and env.table.state.turns == 0
    assert np.array_equal(env.observe("player_0")["observation"], before["observation"])
    env.step(masked_choice(np.random.default_rng(0), before["action_mask"]))
    assert env.table.state.turns == 1


@pytest.mark.checks("RL-illegal", "RL-reward")
def test_aec_illegal_action_terminates_with_a_zero_return() -> None:
    """[RL-illegal, RL-reward] terminate mode: the game ends for every agent with
    illegal_action set, and each agent's rewards add up to 0."""
    env = HanabiAECEnv(illegal_action="terminate")
    for seed in range(40):
        rewards, state = play_until_scored(env, seed)
        if state is not None:
            break
    else:
        pytest.fail("no game scored in 40 seeds")
    env.step(forbidden_index(env))
    rewards.append(env.rewards["player_0"])
    assert all(env.terminations.values()) and all(info["illegal_action"] for info in env.infos.values())
    assert sum(rewards) == 0 and rewards[-1] < 0
    assert not env.observe("player_0")["action_mask"].any()


def play_until_scored(env: HanabiAECEnv, seed: int) -> tuple[list[float], GameState | None]:
    """Masked random play from ``seed`` until the score is positive (then the state), or the end (None)."""
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    rewards: list[float] = []
    while not env.terminations[env.agent_selection]:
        if env.table.score() > 0:
            return rewards, env.table.state
        env.step(masked_choice(rng, env.observe(env.agent_selection)["action_mask"]))
        rewards.append(env.rewards["player_0"])
    return rewards, None


def forbidden_index(env: HanabiAECEnv) -> int:
    """An index the acting agent's mask forbids (an illegal action)."""
    return int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"] == 0)[0])


@pytest.mark.checks("RL-illegal")
def test_gym_illegal_action_raises_or_terminates() -> None:
    """[RL-illegal] with illegal_action="raise" the Gym env raises and changes nothing; by
    default (terminate) the episode ends with info["illegal_action"] and a return of 0; a
    step after the end is refused."""
    env = HanabiGymEnv(illegal_action="raise")
    observation, _ = env.reset(seed=4)
    with pytest.raises(RLError, match=r"^RL-illegal: seat 0: action 0 \(discard 0\) is illegal"):
        env.step(discard_index(env.table.config))
    _, _, terminated, _, _ = env.step(masked_choice(np.random.default_rng(0), observation["action_mask"]))
    assert not terminated and env.table.state.turns == 1
    ending = HanabiGymEnv()
    ending.reset(seed=4)
    _, reward, terminated, truncated, info = ending.step(discard_index(ending.table.config))
    assert terminated and not truncated and info["illegal_action"] and reward == 0.0
    with pytest.raises(RLError, match="^RL-gym"):
        ending.step(0)


# ----------------------------------------------------------------- refusals and rendering


@pytest.mark.checks("RL-errors", "RL-encodings")
@pytest.mark.parametrize("make", [HanabiAECEnv, HanabiGymEnv])
def test_bad_names_are_refused_by_name(make: Callable[..., object]) -> None:
    """[RL-errors, RL-encodings] an unknown encoding, preset, variant, mode or render mode
    is refused naming it, never replaced by a default."""
    with pytest.raises(RLError, match="^RL-encodings: unknown encoding 'canon'"):
        make(encoding="canon")
    with pytest.raises(RLError, match="^RL-notes"):
        make(encoding="notes")
    with pytest.raises(ConfigError, match="'nope'"):
        make(preset="nope")
    with pytest.raises(ConfigError, match="Nope Suits"):
        make(variant="Nope Suits")
    with pytest.raises(RLError, match="^RL-illegal: unknown illegal_action 'ignore'"):
        make(illegal_action="ignore")
    with pytest.raises(RLError, match="unknown render_mode 'human'"):
        make(render_mode="human")


@pytest.mark.checks("RL-gym")
def test_gym_seat_and_strategy_are_checked() -> None:
    """[RL-gym] an unknown strategy, a strategy refusing the game, a seat outside it, and
    a seat without others are refused when the env is built; step before reset too."""
    with pytest.raises(ConfigError, match="'nope'"):
        HanabiGymEnv(seat=0, others="nope")
    with pytest.raises(ConfigError, match="hat"):
        HanabiGymEnv(seat=0, others="hat")
    with pytest.raises(RLError, match="^RL-gym: seat 2 is not a seat"):
        HanabiGymEnv(seat=2, others="simple")
    with pytest.raises(RLError, match="^RL-gym: seat and others go together"):
        HanabiGymEnv(seat=0)
    with pytest.raises(RLError, match="^RL-seed"):
        HanabiGymEnv().step(0)


def test_render_shows_the_board_as_the_seat_sees_it() -> None:
    """[RL-aec] ansi rendering: fireworks, tokens, the seat's own cards hidden, the last move."""
    env = HanabiAECEnv(render_mode="ansi")
    env.reset(seed=3)
    env.step(plain_actions(env.table.config).index(Play(0), 0))
    text = env.render()
    assert text is not None
    assert "fireworks R" in text and "hints 8/8" in text and "last seat 0: play 0" in text
    assert "seat 1: ?? ?? ?? ?? ??" in text and "seat 0: ??" not in text
    with pytest.warns(UserWarning, match="render_mode"):
        assert HanabiAECEnv().render() is None
    env.close()


@pytest.mark.checks("RL-gym-partner", "S-foreign")
@pytest.mark.parametrize("name", ["hat", "recommendation", "info"])
def test_gym_partners_never_raise_beside_a_random_agent(name: str) -> None:
    """[RL-gym-partner] a random agent (legal moves only) beside convention strategies: every
    episode ends by the rules, none truncated, nothing raised out of step (these partners
    raised in about one episode in twenty before S-foreign)."""
    env = HanabiGymEnv(players=4, preset="hanab-live", seat=0, others=name)
    rng = np.random.default_rng(5)
    for seed in range(12):
        observation, info = env.reset(seed=seed)
        terminated = truncated = False
        while not (terminated or truncated):
            legal = np.flatnonzero(observation["action_mask"])
            observation, _, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert terminated and not truncated and info["partner_error"] is None


@pytest.mark.checks("RL-gym-partner")
@pytest.mark.parametrize("failure", ["raise", "illegal"])
def test_gym_partner_bug_truncates_the_episode(failure: str) -> None:
    """[RL-gym-partner] a partner that raises, or that makes an illegal move, ends the
    episode as truncated with ``info["partner_error"]``; the next step needs a reset."""
    from hanabi_ref.players.strategies import SPECS, StrategySpec
    from hanabi_ref.players.strategy import BaseStrategy

    class Broken(BaseStrategy):
        def __init__(self, config: GameConfig, seat: int, seed: int) -> None:
            pass

        def act(self, view: Any) -> Any:
            if failure == "raise":
                raise KeyError("a bug of the partner")
            return Play(len(view.own_hand) + 3)

    SPECS["broken-for-test"] = StrategySpec("broken-for-test", "a partner with a bug", (), lambda values: Broken)
    try:
        env = HanabiGymEnv(players=2, preset="hle", seat=0, others="broken-for-test")
        observation, _ = env.reset(seed=1)
        legal = int(np.flatnonzero(observation["action_mask"])[0])
        _, _, terminated, truncated, info = env.step(legal)
        assert (terminated, truncated) == (False, True)
        expected = "seat 1 failed choosing its move: " + ("KeyError: 'a bug of the partner'" if failure == "raise"
                                                           else "StrategyError: turn 1: ")
        assert info["partner_error"].startswith(expected)
        with pytest.raises(RLError, match="^RL-gym: the episode is over"):
            env.step(legal)
        env.reset(seed=2)  # a reset starts afresh: the partner fails again at its first move
    finally:
        del SPECS["broken-for-test"]


# ----------------------------------------------------------------- the ecosystem's factories


@pytest.mark.checks("RL-factories", "RL-aec")
@pytest.mark.parametrize("players", [2, 4])
def test_pettingzoo_factories_pass_the_api_and_seed_tests(players: int) -> None:
    """[RL-factories] env(), raw_env() and parallel_env() pass PettingZoo's own tests."""
    api_test(envs.env(players=players), num_cycles=200)
    api_test(envs.raw_env(players=players), num_cycles=200)
    parallel_api_test(envs.parallel_env(players=players), num_cycles=200)
    parallel_seed_test(lambda: envs.parallel_env(players=players), num_cycles=100)
    assert isinstance(envs.raw_env(), HanabiAECEnv)


@pytest.mark.checks("RL-factories")
def test_the_parallel_env_plays_the_aec_game_move_for_move() -> None:
    """[RL-factories] each parallel step plays the mover's action, as the AEC game does."""
    rng = np.random.default_rng(5)
    parallel, aec = envs.parallel_env(players=3), HanabiAECEnv(players=3)
    observations, infos = parallel.reset(seed=9)
    aec.reset(seed=9)
    total = 0.0
    while parallel.agents:
        mover = next(agent for agent in parallel.agents if infos[agent]["to_move"])
        assert mover == aec.agent_selection
        assert not any(observations[agent]["action_mask"].any() for agent in parallel.agents if agent != mover)
        choice = masked_choice(rng, observations[mover]["action_mask"])
        actions = {agent: (choice if agent == mover else 0) for agent in parallel.agents}
        observations, rewards, terminations, _, infos = parallel.step(actions)
        aec.step(choice)
        total += rewards[mover]
        assert np.array_equal(observations[mover]["observation"], aec.observe(mover)["observation"])
        assert set(rewards.values()) == {aec.rewards[mover]}
    assert total == aec.table.score()


@pytest.mark.checks("RL-factories")
def test_gymnasium_make_finds_the_environment() -> None:
    """[RL-factories] the registered id, and the module form that imports the module first
    (run in a fresh interpreter, where nothing has registered it yet)."""
    made = gymnasium.make(envs.GYM_ID, players=3)
    assert isinstance(made.unwrapped, HanabiGymEnv) and made.unwrapped.table.config.players == 3
    script = ("import gymnasium\n"
              "env = gymnasium.make('hanabi_ref.tools.rl.envs:hanabi_ref/Hanabi-v0', players=4)\n"
              "print(type(env.unwrapped).__name__, env.unwrapped.table.config.players)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["HanabiGymEnv", "4"]


@pytest.mark.checks("C-extras")
@pytest.mark.parametrize("module", ["hanabi_ref.tools.rl.env", "hanabi_ref.tools.rl.envs"])
@pytest.mark.parametrize("absent", ["gymnasium", "pettingzoo"])
def test_importing_the_environments_without_the_extra_names_it_in_one_line(module: str, absent: str) -> None:
    """[C-extras] without the rl extra's packages the import fails with one ImportError
    that names the missing package and the pip install of the extra."""
    script = (f"import sys\nsys.modules[{absent!r}] = None\n"
              f"try:\n    import {module}\nexcept ImportError as error:\n    print(type(error).__name__, '|', error)\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout.strip()
    assert out.count("\n") == 0, out
    kind, message = out.split(" | ")
    assert kind == "MissingExtraImport"
    assert f"needs {absent}" in message and "pip install '" in message and "[rl]'" in message
