"""Our engine registered as the OpenSpiel game ``hanabi_ref`` (spec/rl.md section 10): its
sizes under ``hle`` are OpenSpiel's ``hanabi``'s, the other presets and variants get their
layouts' sizes, it passes OpenSpiel's own random-simulation test with serialization, its
serialization round trips, OpenSpiel's MCTS plays it, and composed with OpenSpiel's
``hanabi`` the two agree state by state (300 states here, 100,000 in the deep set).

Expected values come from OpenSpiel (its ``hanabi`` game and its own checks) or from the
formulas of spec/rl.md computed here, never from our own output."""

from __future__ import annotations

import random
import sys
from typing import Any

import numpy as np
import pytest

from tests.oracles import oracle
from tests.processes import ROOT, run_process

pyspiel = oracle("pyspiel")

from hanabi_ref.cli import main  # noqa: E402  (after the oracle: the game module needs pyspiel)
from hanabi_ref.engine.configs import make_config  # noqa: E402
from hanabi_ref.tools.bench import engine as bench  # noqa: E402
from hanabi_ref.tools.rl import openspiel_compose, openspiel_game  # noqa: E402
from hanabi_ref.tools.rl.encoders import encode  # noqa: E402
from hanabi_ref.tools.rl.errors import RLError  # noqa: E402
from hanabi_ref.tools.rl.openspiel_compose import compose, first_difference  # noqa: E402
from hanabi_ref.tools.rl.openspiel_game import Position  # noqa: E402

STANDARD_COUNTS = (3, 2, 2, 2, 1)
"""Copies of values 1..5 in a suit of the printed game (the rules)."""


def _load(**params: Any) -> Any:
    return pyspiel.load_game(openspiel_game.GAME_NAME, params)


def _play(state: Any, rng: random.Random, steps: int) -> list[int]:
    """Apply up to ``steps`` actions drawn uniformly from the legal ones (chance outcomes too)."""
    done = []
    for _ in range(steps):
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        done.append(action)
    return done


@pytest.mark.checks("RL-os-game", "RL-os-actions", "RL-os-observation")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_sizes_under_hle_are_those_of_openspiels_hanabi(players: int) -> None:
    """[RL-os-game, RL-os-actions, RL-os-observation] under ``hle`` the game's action count,
    chance outcomes, players, utilities and observation shape are OpenSpiel's ``hanabi``'s."""
    ours, theirs = _load(players=players), pyspiel.load_game("hanabi", {"players": players})
    for read in ("num_distinct_actions", "max_chance_outcomes", "num_players", "min_utility", "max_utility",
                 "observation_tensor_shape"):
        assert getattr(ours, read)() == getattr(theirs, read)(), read
    kind = ours.get_type()
    assert kind.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert kind.utility == pyspiel.GameType.Utility.IDENTICAL
    assert kind.reward_model == theirs.get_type().reward_model


def _layout_size(players: int, suits: int, values: int, hand: int, counts: tuple[int, ...]) -> int:
    """RL-layout's canonical length, written out from spec/rl.md's table."""
    cards, identities, colours = len(counts), suits * values, suits
    deck = sum(counts)
    hands = (players - 1) * hand * identities + players
    board = (deck - players * hand) + identities + 8 + 3
    last = players + 4 + players + colours + values + hand + hand + identities + 2
    assert cards == identities
    return hands + board + deck + last + players * hand * (identities + colours + values)


@pytest.mark.checks("RL-os-game", "RL-os-observation", "RL-layout")
@pytest.mark.parametrize(("params", "suits", "counts"), [
    ({"players": 1, "rules": "thesis"}, 5, STANDARD_COUNTS * 5),
    ({"players": 3, "rules": "thesis"}, 5, STANDARD_COUNTS * 5),
    ({"players": 4, "rules": "hanab-live", "variant": "black"}, 6, STANDARD_COUNTS * 5 + (1, 1, 1, 1, 1)),
    ({"players": 5, "rules": "physical", "variant": "6-suits"}, 6, STANDARD_COUNTS * 6),
])
def test_other_presets_and_variants_have_their_own_sizes(params: dict[str, Any], suits: int,
                                                         counts: tuple[int, ...]) -> None:
    """[RL-os-game, RL-os-observation] sizes from the formulas: 2h + (p - 1)(c + r) actions,
    one chance outcome per identity, t0 + 2N + k moves at most, the canonical layout."""
    game = _load(**params)
    players = params["players"]
    hand = 5 if players <= 3 else 4
    assert game.num_distinct_actions() == 2 * hand + (players - 1) * (suits + 5)
    assert game.max_chance_outcomes() == suits * 5
    assert game.max_game_length() == 8 + 2 * sum(counts) + suits
    assert game.max_utility() == suits * 5
    assert game.observation_tensor_shape() == [_layout_size(players, suits, 5, hand, counts)]


@pytest.mark.checks("RL-os-game", "RL-configs")
@pytest.mark.parametrize(("params", "fragment"), [
    ({"rules": "nope"}, "RL-os-game: preset: unknown preset 'nope'"),
    ({"players": 6}, "RL-os-game: players: preset hle admits 2..5 players, got 6"),
    ({"rules": "hle", "variant": "black"}, "RL-os-game: variant: preset hle supports No Variant"),
    ({"rules": "hanab-live", "variant": "Pink (5 Suits)"}, "RL-os-game: variant 'Pink (5 Suits)': OpenSpiel's game"),
    ({"rules": "hanab-live", "variant": "rainbow"}, "RL-configs: variant 'Rainbow (6 Suits)'"),
])
def test_bad_parameters_are_refused_naming_them(params: dict[str, Any], fragment: str) -> None:
    """[RL-os-game, RL-configs] one line naming the clause and the parameter."""
    with pytest.raises(RLError) as caught:
        _load(**params)
    assert str(caught.value).startswith(fragment) and "\n" not in str(caught.value)


@pytest.mark.checks("RL-os-game")
def test_unknown_parameters_are_refused_and_the_game_string_loads_the_game_again() -> None:
    """[RL-os-game] OpenSpiel refuses an unknown parameter naming ours; a hanab.live name
    with a short name is kept by the short name, so the game's string loads it again."""
    with pytest.raises(pyspiel.SpielError, match="Available parameters are: players, rules, terminal_rewards, variant"):
        _load(colors=3)
    game = _load(players=3, rules="hanab-live", variant="Black (6 Suits)")
    assert str(game) == "hanabi_ref(players=3,rules=hanab-live,terminal_rewards=False,variant=black)"
    again = pyspiel.load_game(str(game))
    assert str(again) == str(game) and again.observation_tensor_shape() == game.observation_tensor_shape()


RANDOM_SIM_GAMES: list[dict[str, Any]] = [
    {"players": 2},
    {"players": 2, "terminal_rewards": True},
    {"players": 1, "rules": "thesis"},
    {"players": 3, "rules": "thesis", "variant": "6-suits"},
    {"players": 4, "rules": "hanab-live", "variant": "black"},
    {"players": 6, "rules": "hanab-live"},
    {"players": 2, "rules": "hanabi-rs"},
    {"players": 3, "rules": "physical", "variant": "dutch-rainbow"},
]


@pytest.mark.checks("RL-os-checks", "RL-os-serialize", "RL-os-rewards", "RL-os-actions", "RL-os-strings")
@pytest.mark.parametrize("params", RANDOM_SIM_GAMES, ids=[str(sorted(p.items())) for p in RANDOM_SIM_GAMES])
def test_openspiels_random_simulation_test_with_serialization_passes(params: dict[str, Any]) -> None:
    """[RL-os-checks, RL-os-serialize, RL-os-rewards, RL-os-actions, RL-os-strings]
    OpenSpiel's own test: clones, legal action masks, unique action strings, rewards adding
    up to the returns, observation sizes and serialization round trips, on every preset and
    variant the game takes."""
    pyspiel.random_sim_test(_load(**params), num_sims=2, serialize=True, verbose=False)


@pytest.mark.checks("RL-os-chance")
def test_the_deal_and_every_draw_are_chance_nodes_with_the_stacks_shares() -> None:
    """[RL-os-chance] p*h chance nodes, each outcome a card identity left with its copies
    over the cards left; then seat 0 moves; a discard with cards left is followed by one
    chance node and the mover's hand is one short there (its observation)."""
    state, rng = _load(players=3).new_initial_state(), random.Random(5)
    left = {suit * 5 + value: count for suit in range(5) for value, count in enumerate(STANDARD_COUNTS)}
    for _ in range(15):
        assert state.is_chance_node()
        total = sum(left.values())
        assert state.chance_outcomes() == [(card, count / total) for card, count in sorted(left.items()) if count]
        card = rng.choice(state.legal_actions())
        left[card] -= 1
        state.apply_action(card)
    assert state.current_player() == 0
    discard = 0  # discard slot 0 needs a token spent first: hint, then the next seat discards
    hint = next(action for action in state.legal_actions() if action >= 10)
    state.apply_action(hint)
    assert state.current_player() == 1
    state.apply_action(discard)
    assert state.is_chance_node()
    hand_lines = state.observation_string(1).split("Hands:\n")[1].split("-----")[0]
    assert hand_lines.count(" || ") == 4  # the observer's own hand, still waiting for its card
    outcome = state.legal_actions()[0]
    state.apply_action(outcome)
    assert state.current_player() == 2
    assert state.observation_string(1).split("Hands:\n")[1].split("-----")[0].count(" || ") == 5


@pytest.mark.checks("RL-os-actions", "RL-os-chance")
def test_illegal_actions_and_outcomes_are_refused_and_change_nothing() -> None:
    """[RL-os-actions, RL-os-chance] a card not in the stack, an illegal move (a discard
    with every token under hle) and an index outside the space are refused."""
    state = _load(players=2).new_initial_state()
    card = 24  # the single five of the last suit
    state.apply_action(card)
    with pytest.raises(RLError, match="^RL-os-chance: chance outcome 24 is not a card left in the stack"):
        state.apply_action(card)
    _play(state, random.Random(1), 9)
    before = str(state)
    with pytest.raises(RLError, match=r"^RL-os-actions: action 0 \(\(Discard 0\)\) is illegal: "):
        state.apply_action(0)
    with pytest.raises(RLError, match="^RL-plain: action 99 is not an index"):
        state.apply_action(99)
    assert str(state) == before and len(state.history()) == 10


def _serialized_again(game: Any, state: Any) -> Any:
    text = pyspiel.serialize_game_and_state(game, state)
    again_game, again = pyspiel.deserialize_game_and_state(text)
    assert str(again_game) == str(game)
    return again


@pytest.mark.checks("RL-os-serialize")
def test_serialization_round_trips_at_every_kind_of_state_and_play_goes_on_alike() -> None:
    """[RL-os-serialize] during the deal, at a move, at a draw's chance node and at the end:
    the state read back has the same string, history and position, and the same actions
    keep them equal; the text holds the configuration and the actions, not the state."""
    game, rng = _load(players=2, rules="thesis"), random.Random(7)
    state, kinds = game.new_initial_state(), set()
    while True:
        again = _serialized_again(game, state)
        assert (str(again), again.history(), again.position) == (str(state), state.history(), state.position)
        kinds.add("end" if state.is_terminal() else "draw" if state.position.pending is not None
                  else "deal" if state.is_chance_node() else "move")
        if state.is_terminal():
            break
        action = rng.choice(state.legal_actions())
        state.apply_action(action)
        again.apply_action(action)
        assert str(again) == str(state)
    assert kinds == {"deal", "move", "draw", "end"}
    maker, (config_text, actions) = state.position.__reduce__()
    assert maker is openspiel_game.replayed and actions == tuple(state.history())
    assert '"preset": "thesis"' in config_text


@pytest.mark.checks("RL-os-serialize")
def test_a_clone_shares_the_position_and_moves_on_alone() -> None:
    """[RL-os-serialize] a clone starts with the same (immutable) position; acting on it
    leaves the original as it was."""
    state = _load(players=2).new_initial_state()
    _play(state, random.Random(2), 12)
    clone = state.clone()
    assert clone.position is state.position
    before = str(state)
    _play(clone, random.Random(3), 5)
    assert str(state) == before and str(clone) != before


@pytest.mark.checks("RL-os-rewards")
def test_terminal_rewards_give_the_score_only_at_the_end() -> None:
    """[RL-os-rewards] the terminal reward model: returns 0 until the end, then the score,
    which is the returns of the same game with rewards after every move."""
    every, final = _load(players=2), _load(players=2, terminal_rewards=True)
    assert final.get_type().reward_model == pyspiel.GameType.RewardModel.TERMINAL
    ours, theirs, rng = every.new_initial_state(), final.new_initial_state(), random.Random(4)
    total = 0.0
    while not ours.is_terminal():
        assert theirs.returns() == [0.0, 0.0] and theirs.rewards() == [0.0, 0.0]
        if not ours.is_chance_node():
            total += ours.rewards()[0]
        action = rng.choice(ours.legal_actions())
        ours.apply_action(action)
        theirs.apply_action(action)
    total += ours.rewards()[0]
    assert theirs.returns() == ours.returns() == [total, total]


@pytest.mark.checks("RL-os-checks")
@pytest.mark.parametrize("moves", [2, pytest.param(None, marks=pytest.mark.deep)])
def test_openspiels_mcts_bot_plays_the_game(moves: int | None) -> None:
    """[RL-os-checks] OpenSpiel's Python MCTSBot (random rollouts) chooses legal moves of
    the game with terminal rewards: a few moves here, a whole game in the deep set."""
    from open_spiel.python.algorithms import mcts

    game = _load(players=2, terminal_rewards=True)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=4, evaluator=mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
                       random_state=np.random.RandomState(0))
    state, rng, played = game.new_initial_state(), random.Random(0), 0
    while not state.is_terminal() and (moves is None or played < moves):
        if state.is_chance_node():
            state.apply_action(openspiel_compose.chance_outcome(state, rng))
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        played += 1
    assert played == moves or state.is_terminal()


@pytest.mark.checks("RL-os-observation", "RL-minimal")
def test_observer_parameters_choose_another_encoding() -> None:
    """[RL-os-observation, RL-minimal] ``encoding=minimal`` is OpenSpiel's minimal tensor;
    the sections are named; another observation type or parameter is refused."""
    from open_spiel.python.observation import make_observation

    game = _load(players=3)
    observation = make_observation(game, None, {"encoding": "minimal"})
    theirs_game = pyspiel.load_game("hanabi", {"players": 3, "observation_type": "minimal"})
    ours, theirs = game.new_initial_state(), theirs_game.new_initial_state()
    for action in _play(ours, random.Random(6), 30):
        theirs.apply_action(action)
    observation.set_from(ours, 1)
    assert np.array_equal(observation.tensor, np.asarray(theirs.observation_tensor(1), np.float32))
    assert list(observation.dict)[:4] == ["hands", "missing", "deck", "fireworks"]
    with pytest.raises(RLError, match="^RL-os-observation: only the default observation type"):
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    with pytest.raises(RLError, match="^RL-os-observation: unknown observer parameter 'colour'"):
        make_observation(game, None, {"colour": 1})


def _assert_agrees(states: int, minimum: int) -> None:
    report = compose(states, seed=3)
    assert report.divergence is None, report.divergence.describe()
    assert report.states >= states
    for situation in ("chance nodes of the deal", "chance nodes of a draw", "terminal states", "states after a misplay",
                      "states after a completed suit", "states of the last round"):
        assert report.coverage[situation] >= minimum, (situation, report.coverage)


@pytest.mark.checks("RL-os-compose", "RL-os-chance", "RL-os-actions", "RL-os-observation", "RL-os-strings",
                    "RL-os-rewards")
def test_composed_with_openspiels_hanabi_the_two_agree_on_300_states() -> None:
    """[RL-os-compose, ...] every state of games given the same actions: player, chance
    outcomes and probabilities, legal actions and their strings, rewards, returns, the
    state string and every seat's observation string and tensor."""
    _assert_agrees(300, 1)


@pytest.mark.deep
@pytest.mark.checks("RL-os-compose")
def test_composed_with_openspiels_hanabi_the_two_agree_on_100000_states() -> None:
    """[RL-os-compose] the full count of the issue (about 8 CPU minutes with contracts on)."""
    _assert_agrees(100_000, 100)


@pytest.mark.checks("RL-os-compose", "RL-os-observation", "RL-os-strings")
def test_composition_catches_a_wrong_tensor_and_a_wrong_string(monkeypatch: pytest.MonkeyPatch) -> None:
    """[RL-os-compose] a game whose encoder sets one more bit, or whose texts never mark the
    player to move, is caught at once."""
    def one_bit_more(name: str, view: Any) -> Any:
        vector = encode(name, view)
        vector[-1] = 1 - vector[-1]
        return vector

    monkeypatch.setattr(openspiel_game, "encode", one_bit_more)
    found = compose(20, seed=0).divergence
    assert found is not None and found.what.startswith("observation tensor of seat 0")
    monkeypatch.setattr(openspiel_game, "encode", encode)
    monkeypatch.setattr(openspiel_game, "marked_seat", lambda position: None)
    found = compose(20, seed=0).divergence
    assert found is not None and found.what.startswith("state string: ours 'Life tokens: 3")
    assert len(found.actions) == 10  # right after the deal, the first state a seat is marked in


@pytest.mark.checks("RL-os-compose")
def test_first_difference_names_the_field() -> None:
    """[RL-os-compose] two states one chance outcome apart differ first in their history."""
    game = pyspiel.load_game("hanabi", {"players": 2})
    ours, theirs = _load(players=2).new_initial_state(), game.new_initial_state()
    ours.apply_action(0)
    theirs.apply_action(1)
    assert first_difference(ours, theirs, 2) == "history: ours [0], OpenSpiel's [1]"


@pytest.mark.checks("RL-os-compose")
def test_rl_compose_prints_the_count_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    """[RL-os-compose] ``hanabi-ref rl compose``: text and JSON."""
    assert main(["rl", "compose", "--states", "10"]) == 0
    out = capsys.readouterr().out
    assert "hanabi_ref beside OpenSpiel's hanabi (hle, 2-5 players): " in out and ": 0 differences" in out
    assert main(["rl", "compose", "--states", "10", "--json", "--seed", "2"]) == 0
    assert '"difference": null' in capsys.readouterr().out


@pytest.mark.checks("RL-os-game", "C-extras")
def test_without_open_spiel_the_import_names_the_extra() -> None:
    """[RL-os-game, C-extras] importing the game module without pyspiel is one ImportError
    naming the package and the extra's ``pip install``."""
    code = ("import sys; sys.modules['pyspiel'] = None\n"
            "try:\n    import hanabi_ref.tools.rl.openspiel_game\n"
            "except ImportError as error:\n    print(type(error).__name__, error)\n")
    done = run_process([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("MissingExtraImport the OpenSpiel game (hanabi_ref.tools.rl.openspiel_game) "
                                  "needs pyspiel: pip install ")
    assert "[openspiel]" in done.stdout and done.stdout.count("\n") == 1


@pytest.mark.checks("RL-os-bench")
def test_the_speed_loop_counts_steps_and_moves_alike_for_both_games() -> None:
    """[RL-os-bench] the loop of ``bench openspiel-game``, run in this process: steps are the
    chance outcomes and moves applied (every card dealt is a step), for both games."""
    for name in ("hanabi", "hanabi_ref"):
        run = bench.measure_openspiel_game(name, 2, 0.01, 0)
        assert run["games"] >= 1 and run["steps"] > run["moves"] > 0
        assert run["steps"] - run["moves"] >= 10 * run["games"]  # at least the deal of each game
        assert run["cpu_seconds"] >= 0.01
    assert run["engine"] == bench.OUR_GAME and run["contracts"] is True


@pytest.mark.checks("RL-os-bench")
@pytest.mark.parametrize(("arguments", "fragment"), [
    (["--players", "6"], "OpenSpiel's hanabi plays 2 to 5"),
    (["--against", "openspiel"], "--against and --rules do not apply"),
])
def test_bench_openspiel_game_refuses_bad_arguments(arguments: list[str], fragment: str,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """[RL-os-bench] one-line usage errors, exit 2."""
    assert main(["bench", "openspiel-game", *arguments]) == 2
    err = capsys.readouterr().err
    assert fragment in err and err.count("\n") == 1


@pytest.mark.checks("RL-os-game")
def test_configuration_of_the_default_game_is_the_hle_preset() -> None:
    """[RL-os-game] the defaults: two players, ``hle``, No Variant, rewards after every move."""
    config, kept = openspiel_game.game_config({})
    assert config == make_config(2, "hle")
    assert kept == {"players": 2, "rules": "hle", "variant": "no-variant", "terminal_rewards": False}
    assert Position(config).current_player() == pyspiel.PlayerId.CHANCE
