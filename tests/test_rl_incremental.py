"""The encoders move by move (spec/rl.md RL-incremental): a GameEncoder gives, for every
view it is fed, in any order, exactly the vector the from-scratch encoder computes from
that view alone; the environments observe through it."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.state import GameState
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import PlayerView, ViewMaker, make_view
from hanabi_ref.tools.peers.choosers import DriverChooser
from hanabi_ref.tools.rl.check import drawn_config
from hanabi_ref.tools.rl.encoders import encode
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.incremental import GameEncoder
from hanabi_ref.tools.rl.layout import ENCODINGS, layout
from tests.helpers import Run, reached, reaches_assertion, runs


def _encodings(config: GameConfig) -> list[str]:
    """The encodings that take ``config`` (notes only its fixed dimensions)."""
    names = []
    for name in ENCODINGS:
        try:
            layout(name, config)
        except RLError:
            continue
        names.append(name)
    return names


def _game(config: GameConfig, seed: int, random_rate: float) -> list[GameState]:
    """Every state of one game played by the peers' driver (hints, plays and discards)."""
    state = initial_state(config, deck_from_seed(config, seed))
    chooser = DriverChooser(seed, random_rate=random_rate, probe_rate=0.0)
    states = [state]
    while not state.terminal:
        state = apply(state, chooser.choose(state, legal_actions(state)))
        states.append(state)
    return states


def _configs() -> list[GameConfig]:
    """The hle preset at 2-5 players and hand size 5 at 4 (the notes' layout), the thesis
    preset (hints touching nothing, discards at the maximum), variants with a sixth suit,
    and drawn configurations of every OpenSpiel parameter."""
    rng = random.Random(7)
    return ([make_config(players, "hle") for players in range(2, 6)] + [make_config(4, "hle", hand_size=5)]
            + [make_config(3, "thesis"), make_config(2, "hanab-live", "6 Suits"),
               make_config(5, "hanab-live", "Black (6 Suits)")]
            + [drawn_config(rng) for _ in range(12)])


def _compare(encoders: dict[str, GameEncoder], views: list[PlayerView], where: str) -> int:
    """Each view's vector from each encoder against ``encode``'s; the vectors compared."""
    for view in views:
        for name, encoder in encoders.items():
            ours, oracle = encoder.encode(view), encode(name, view)
            assert ours.dtype == oracle.dtype and ours.shape == oracle.shape
            assert np.array_equal(ours, oracle), (name, where, view.turns, view.seat,
                                                  np.nonzero(ours != oracle)[0][:8].tolist())
    return len(views) * len(encoders)


def _along_games(games: int, seed: int) -> int:
    """Compare the encoders along ``games`` games of each configuration of :func:`_configs`."""
    rng = random.Random(seed)
    compared = 0
    for index, config in enumerate(_configs()):
        encoders = {name: GameEncoder(name, config) for name in _encodings(config)}
        maker = ViewMaker(config)
        for game in range(games):
            for state in _game(config, seed * 10_000 + 100 * index + game, random_rate=0.3 if game % 2 else 1.0):
                if state.turns and rng.random() < 0.3 and not state.terminal:
                    continue
                seats = rng.sample(range(config.players), rng.randint(1, config.players))
                compared += _compare(encoders, maker.views(state, seats), f"config {index} game {game}")
    return compared


@pytest.mark.checks("RL-incremental", "RL-encode", "RL-hands", "RL-missing", "RL-deck", "RL-fireworks", "RL-tokens",
                    "RL-discards", "RL-last-action", "RL-knowledge", "RL-v0-belief")
def test_move_by_move_equals_from_scratch_along_games() -> None:
    """[RL-incremental] along whole games of 20 configurations, under every encoding that
    takes them, the views of some seats of some states (so that one view may bring
    several events), through a game's sealed view maker: each vector equals the
    from-scratch encoder's of the same view (many more games in the deep set)."""
    assert _along_games(1, seed=3) > 1_500


@pytest.mark.checks("RL-incremental")
@pytest.mark.deep
def test_move_by_move_equals_from_scratch_along_many_games() -> None:
    """[RL-incremental] the same along 40 games of each configuration."""
    assert _along_games(40, seed=4) > 60_000


@pytest.mark.checks("RL-incremental")
def test_any_order_of_views_restarts_where_it_must() -> None:
    """[RL-incremental] views out of order (an earlier state, a branch of the game, another
    game, the same state again, views made one by one): still the from-scratch vectors."""
    config = make_config(3, "hle")
    first, second = _game(config, 1, 0.2), _game(config, 2, 0.2)
    branch = apply(first[10], next(a for a in legal_actions(first[10]) if a != first[11].history[-1].action))
    order = [first[12], first[12], first[5], first[6], second[0], first[0], first[11], branch, first[13],
             second[20], second[21], second[30], first[-1], second[-1], first[-2]]
    encoders = {name: GameEncoder(name, config) for name in _encodings(config)}
    for state in order:
        _compare(encoders, [make_view(state, seat) for seat in range(config.players)], "out of order")


@pytest.mark.checks("RL-incremental")
@reaches_assertion()
@settings(max_examples=10, deadline=None)
@given(run=runs(max_moves=None), data=st.data())
def test_move_by_move_on_drawn_games(run: Run, data: st.DataObject) -> None:
    """[RL-incremental] games of drawn configurations (presets, variants, custom decks; those
    an encoding refuses are skipped), seats and steps drawn: the from-scratch vectors."""
    names = _encodings(run.config) if run.config.players >= 2 else []
    assume(names)
    reached()
    encoders = {name: GameEncoder(name, run.config) for name in names}
    maker = ViewMaker(run.config)
    index = 0
    while index < len(run.states):
        seat = data.draw(st.integers(0, run.config.players - 1))
        _compare(encoders, maker.views(run.states[index], [seat]), "drawn")
        index += data.draw(st.integers(1, 3))


@pytest.mark.checks("RL-incremental", "RL-errors")
def test_an_encoder_refuses_another_configuration_and_unknown_names() -> None:
    """[RL-incremental, RL-errors] a view of another configuration, an unknown encoding and
    a configuration the encoding cannot take are refused by clause id."""
    encoder = GameEncoder("canonical", make_config(2, "hle"))
    other = make_config(3, "hle")
    with pytest.raises(RLError, match="^RL-incremental: a view of another configuration"):
        encoder.encode(make_view(initial_state(other, deck_from_seed(other, 0)), 0))
    with pytest.raises(RLError, match="^RL-encodings"):
        GameEncoder("public", other)
    with pytest.raises(RLError, match="^RL-notes"):
        GameEncoder("notes", other)


@pytest.mark.checks("RL-incremental", "RL-aec", "RL-mask")
@pytest.mark.parametrize("encoding", ["canonical", "minimal", "v0", "notes"])
def test_the_environment_observes_what_the_oracles_compute(encoding: str) -> None:
    """[RL-incremental, RL-aec, RL-mask] in the AEC environment, every agent's observation
    after every step equals ``encode`` of that seat's view of the game, and its mask lists
    exactly the engine's legal actions of the seat to act (none for the others)."""
    from hanabi_ref.tools.rl.actions import plain_actions
    from hanabi_ref.tools.rl.env import HanabiAECEnv

    config = make_config(4, "hle", hand_size=5)
    env = HanabiAECEnv(config=config, encoding=encoding)
    space = plain_actions(config)
    rng = random.Random(5)
    steps = 0
    for seed in range(6):
        env.reset(seed=seed)
        while env.agents:
            state = env.table.state
            for agent in rng.sample(env.agents, min(2, len(env.agents))):
                seat = env.seats[agent]
                observation = env.observe(agent)
                assert np.array_equal(observation["observation"], encode(encoding, make_view(state, seat)))
                legal = {space.index(action, seat) for action in legal_actions(state)} if (
                    seat == state.current_player and not state.terminal) else set()
                assert set(np.flatnonzero(observation["action_mask"]).tolist()) == legal
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            steps += 1
    assert steps > 100


@pytest.mark.checks("RL-mask")
def test_a_copied_action_space_gives_the_same_masks() -> None:
    """[RL-mask] an action space pickled or deep-copied after use (its memo of action
    objects left behind) gives the masks of the engine's legal actions."""
    import copy
    import pickle

    from hanabi_ref.tools.rl.actions import PlainActions

    config = make_config(3, "hle")
    space = PlainActions(config)
    states = _game(config, 4, 0.5)
    for state in states[:5]:
        space.mask(make_view(state, state.current_player))
    for other in (pickle.loads(pickle.dumps(space)), copy.deepcopy(space)):
        assert not any(other.index_of)
        for state in states:
            seat = state.current_player
            expected = {space.index(action, seat) for action in legal_actions(state)} if not state.terminal else set()
            assert set(np.flatnonzero(other.mask(make_view(state, seat))).tolist()) == expected


@pytest.mark.checks("RL-mask")
def test_masks_from_the_touch_keys_are_the_masks_of_the_legal_actions() -> None:
    """[RL-mask] the mask assembled from its parts (the moves of the tokens and hand
    size, the hints of each other hand's touch key, each part kept from an earlier
    state) equals the engine's legal actions at every seat of every state, under every
    preset's options, variants with other touches and drawn configurations; a space
    with no parts kept yet learns them from the first states."""
    from hanabi_ref.tools.rl.actions import PlainActions

    configs = [*_configs(), make_config(3, "hanab-live", "Pink (5 Suits)"), make_config(4, "physical"),
               make_config(2, "hanabi-rs"), make_config(5, "hanab-live", "Null (5 Suits)")]
    compared = 0
    for config in configs:
        space = PlainActions(config)
        for seed in range(3):
            for state in _game(config, seed, 0.6):
                for seat in range(config.players):
                    expected = ({space.index(action, seat) for action in legal_actions(state)}
                                if seat == state.current_player and not state.terminal else set())
                    found = space.keyed_bytes(make_view(state, seat), state.touch_keys)
                    assert {index for index, legal in enumerate(found) if legal} == expected
                    assert len(found) == space.size
                    compared += 1
    assert compared > 2000 and space.hint_parts and space.moves
