"""The hat spaces of the RL notes (spec/rl.md section 5): every receiver recovers its own
hat in real games, in every space, embedding and player count; sizes, masks, refusals,
and the two hats on hand-built positions."""

from __future__ import annotations

import random

import numpy as np
import pytest

from hanabi_ref.engine.actions import Hint, Play
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import is_legal
from hanabi_ref.tools.rl.encoders import Vector, recommendation_observation
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.hat import HatCode, decoded_hats, most_playable_slot, recommend
from hanabi_ref.tools.rl.layout import layout
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import make_view
from tests.helpers import stacked_deck
from tests.oracles import oracle


def public_offset(observation: Vector) -> int:
    """An offset that depends on the whole public observation (a stand-in for a model)."""
    return int(np.nonzero(observation)[0].sum()) + int(observation.sum() * 64)


TABLES = ((2, 5), (3, 5), (4, 5), (4, 4), (5, 4))
EMBEDDINGS = ("constant", "permutation", "public", "modular")


ENOUGH = 20
"""By default a case starts no new game once it has checked this many reveals."""


def by_default(players: int, hand: int, preset: str, space: str, embedding: str) -> bool:
    """Each table (players and hand size) with each embedding in each space it has, under
    one preset, the presets alternating so that every table, every embedding and every
    space meets both presets (a pairwise cover: half the cases)."""
    turn = TABLES.index((players, hand)) + EMBEDDINGS.index(embedding) + (space == "information")
    return preset == ("hle", "thesis")[turn % 2]


EVERY_CASE = [
    (players, hand, preset, space, embedding)
    for players, hand in TABLES
    for preset in ("hle", "thesis")
    for space in ("recommendation", "information")
    for embedding in EMBEDDINGS
    if space == "recommendation" or players >= 4
]
CASES = [pytest.param(*case, ENOUGH) for case in EVERY_CASE if by_default(*case)] + \
    [pytest.param(*case, None, marks=pytest.mark.deep) for case in EVERY_CASE]
"""The pairwise half up to ``ENOUGH`` reveals by default; every case, every game, in the
deep set."""


@pytest.mark.checks("RL-hat-decode", "RL-hat-sum", "RL-hat-embed", "RL-hat-offsets", "RL-hat-spaces", "RL-hat-observations")
@pytest.mark.parametrize(("players", "hand", "preset", "space", "embedding", "enough"), CASES)
def test_every_receiver_recovers_its_own_hat(players: int, hand: int, preset: str, space: str, embedding: str,
                                             enough: int | None) -> None:
    """[RL-hat-decode, RL-hat-sum, RL-hat-embed, RL-hat-offsets, RL-hat-spaces,
    RL-hat-recommendation, RL-hat-information, RL-hat-observations] in games of random
    legal hat actions (sending whenever it may, half the time), each receiver decodes from
    its own view before the reveal exactly the hat the sender computed for it.  By
    default half the cases (:func:`by_default`), each until ``enough`` reveals are
    checked; in the deep set every case and every game."""
    config = make_config(players, preset, hand_size=hand)
    code = HatCode(config, space, embedding, offset=7, seed=11, offset_function=public_offset)
    rng = random.Random(players * 100 + hand)
    sent = 0
    for seed in range(10 if players < 4 else 5):  # games of 4 and 5 send more often
        if enough is not None and sent >= enough:
            break
        state = initial_state(config, deck_from_seed(config, seed))
        while not state.terminal:
            view = make_view(state, state.current_player)
            mask = code.mask(view)
            legal = [int(index) for index in np.nonzero(mask)[0]]
            index = code.send if mask[code.send] and rng.random() < 0.5 else rng.choice(legal)
            action = code.action(index, view)
            if index == code.send:
                assert isinstance(action, Hint)
                _, hats = code.message(view)
                views = [make_view(state, seat) for seat in range(players)]  # each receiver's, before the reveal
                assert decoded_hats(code, views, state.current_player, action) == hats
                sent += 1
            state = apply(state, action)
    assert sent >= 10


@pytest.mark.checks("RL-hat-spaces", "RL-hat-observations", "RL-hat-embed", "RL-hat-sum")
def test_sizes_of_the_notes() -> None:
    """[RL-hat-spaces, RL-hat-observations, RL-hat-embed] at 4 players with hand size 5:
    11 actions, 30 reveal encodings, a recommendation observation of 1001 values, hats of
    10 and 25 values."""
    config = make_config(4, "hle", hand_size=5)
    recommendation, information = HatCode(config, "recommendation"), HatCode(config, "information")
    assert recommendation.size == information.size == 11 and recommendation.reveals == 30
    assert (recommendation.alphabet, information.alphabet) == (10, 25)
    assert layout("recommendation", config).size == 1001


@pytest.mark.checks("RL-hat-embed", "RL-hat-spaces", "RL-hat-offsets", "RL-errors")
def test_refusals_name_their_clause() -> None:
    """[RL-hat-embed, RL-hat-spaces, RL-hat-offsets, RL-errors] information hats at 2 and
    3 players (25 values, 10 and 20 reveals), unknown names, and out-of-range actions."""
    for players in (2, 3):
        with pytest.raises(RLError, match="^RL-hat-embed: information hats take 25 values"):
            HatCode(make_config(players, "hle"), "information")
    config = make_config(4, "hle", hand_size=5)
    with pytest.raises(RLError, match="^RL-hat-spaces: unknown hat space 'hat'"):
        HatCode(config, "hat")
    with pytest.raises(RLError, match="^RL-hat-offsets: unknown offset 'learned'"):
        HatCode(config, "recommendation", "learned")
    with pytest.raises(RLError, match="^RL-hat-offsets: the 'public' offset needs"):
        HatCode(config, "recommendation", "public")
    view = make_view(initial_state(config, deck_from_seed(config, 0)), 0)
    with pytest.raises(RLError, match="^RL-hat-spaces: action 11 "):
        HatCode(config, "recommendation").action(11, view)


@pytest.mark.checks("RL-hat-mask")
def test_send_is_masked_without_a_token_or_a_legal_reveal() -> None:
    """[RL-hat-mask] with empty hints allowed "send" needs only a token; under hle it
    also needs its one reveal to touch a card, and that differs between states."""
    rng = random.Random(5)
    seen: dict[str, set[tuple[bool, bool, int]]] = {"hle": set(), "thesis": set()}
    for preset in seen:
        config = make_config(4, preset, hand_size=5)
        code = HatCode(config, "recommendation")
        for seed in range(2):
            state = initial_state(config, deck_from_seed(config, seed))
            while not state.terminal:
                view = make_view(state, state.current_player)
                mask = code.mask(view)
                reveal = code.reveal(code.message(view)[0], state.current_player)
                touches = view.clue_tokens > 0 and is_legal(state, reveal)
                seen[preset].add((view.clue_tokens > 0, touches, int(mask[code.send])))
                if view.clue_tokens == 0 or preset == "thesis":
                    assert mask[code.send] == int(view.clue_tokens > 0)
                else:
                    assert mask[code.send] == int(touches)
                discards = [int(i) for i in np.nonzero(mask[:code.hand_size])[0]]
                index = code.send if mask[code.send] and rng.random() < 0.8 else rng.choice(
                    discards or [int(i) for i in np.nonzero(mask)[0]])
                state = apply(state, code.action(index, view))
    assert (True, False, 0) in seen["hle"] and (True, True, 1) in seen["hle"] and (False, False, 0) in seen["hle"]


@pytest.mark.checks("RL-hat-recommendation")
def test_the_hand_coded_recommendation() -> None:
    """[RL-hat-recommendation] on a hand-built 4-player position, from seat 0's view:
    seat 1 holds two playable cards (play the lower value), seat 2 holds a dead
    card after red 1 is played (discard it), seat 3 holds only last copies but one
    (discard the one that is not)."""
    config = make_config(4, "hle", hand_size=5)
    r1, y1, r5, y5, g5, p5 = (1, 0), (1, 1), (5, 0), (5, 1), (5, 2), (5, 4)
    top = [r1, (2, 1), (2, 2), (2, 3), (2, 4),   # seat 0 plays r1 first
           (3, 0), (3, 1), y1, (2, 0), (3, 2),   # seat 1: y1 (playable) and r2 (playable after r1)
           (4, 1), (1, 0), (4, 2), (4, 3), (4, 4),  # seat 2: r1 (dead once r1 is played)
           r5, y5, g5, (3, 3), p5]                 # seat 3: four 5s and b3 (two copies left)
    state = apply(initial_state(config, stacked_deck(config, top)), Play(0))
    view = make_view(state, 0)
    policy = recommend(config)
    assert policy(recommendation_observation(view, 1)) == 5 + 2  # play y1 (value 1) before r2
    assert policy(recommendation_observation(view, 2)) == 1      # discard the dead r1 in slot 1
    assert policy(recommendation_observation(view, 3)) == 3      # b3: the only card not a last copy


@pytest.mark.checks("RL-hat-information")
def test_the_most_playable_card_follows_the_public_belief() -> None:
    """[RL-hat-information] at the deal every card is alike (the oldest is chosen); after
    "ones" touches slot 2 of seat 1 (and only it), slot 2 is the most playable."""
    config = make_config(4, "hle", hand_size=5)
    top = [(3, 0), (3, 1), (3, 2), (3, 3), (3, 4), (2, 0), (2, 1), (1, 2), (2, 2), (2, 3)]
    state = initial_state(config, stacked_deck(config, top))
    view = make_view(state, 0)
    assert most_playable_slot(view, 1) == 0
    state = apply(state, Hint(1, "value", 1))
    assert most_playable_slot(make_view(state, 2), 1) == 2


@pytest.mark.checks("RL-hat-observations", "RL-hat-decode")
@pytest.mark.parametrize(("preset", "space"), [("hle", "recommendation"), ("thesis", "information"),
                                               ("hle", "information")])
def test_the_environments_deliver_each_receiver_its_hat(preset: str, space: str) -> None:
    """[RL-hat-spaces, RL-hat-observations, RL-hat-decode, RL-aec] the PettingZoo
    environment in a hat space: after every "send", each receiver's observation ends with
    the one-hot of exactly the hat an independent code computed for it from the sender's
    view, the sender's own slot is cleared, and PettingZoo's api_test passes."""
    oracle("pettingzoo")
    from pettingzoo.test import api_test

    from hanabi_ref.tools.rl.env import HanabiAECEnv

    options = {"embedding": "permutation", "seed": 4}
    env = HanabiAECEnv(players=4, hand_size=5, preset=preset, encoding="notes", actions=space, hat_options=options)
    twin = HatCode(make_config(4, preset, hand_size=5), space, **options)  # type: ignore[arg-type]
    rng = random.Random(9)
    checked = 0
    for seed in range(4):
        env.reset(seed=seed)
        while env.agents:
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            mask = observation["action_mask"]
            sender = env.table.state.current_player
            sending = bool(mask[twin.send]) and rng.random() < 0.7
            if sending:
                _, hats = twin.message(make_view(env.table.state, sender))
            discards = [int(i) for i in np.nonzero(mask[:twin.hand_size])[0]]
            index = twin.send if sending else rng.choice(discards or [int(i) for i in np.nonzero(mask)[0]])
            env.step(index)
            if sending and env.agents:
                for seat, hat in hats.items():
                    tail = env.observe(f"player_{seat}")["observation"][-twin.alphabet:]
                    assert list(np.nonzero(tail)[0]) == [hat]
                    checked += 1
                assert not env.observe(f"player_{sender}")["observation"][-twin.alphabet:].any()
    assert checked >= 30
    api_test(HanabiAECEnv(players=4, hand_size=5, actions=space, hat_options=options), num_cycles=200)


@pytest.mark.checks("RL-hat-spaces", "RL-gym")
def test_the_gymnasium_checker_passes_in_a_hat_space() -> None:
    """[RL-hat-spaces, RL-gym] check_env on the self-play wrapper with information hats."""
    oracle("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from hanabi_ref.tools.rl.env import HanabiGymEnv

    env = HanabiGymEnv(players=5, actions="information", illegal_action="terminate")
    assert env.table.action_count == 9 and env.table.observation_size == 1280 + 25
    check_env(env)
