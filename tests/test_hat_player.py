"""The classic hat player [H-player] (`--strategy hat-classic`): every clue decodes to the action vector the cluer encoded,
the player reads only its views, its standard action follows the source's rules, and
configurations it cannot play are refused before any game.

Expected standard actions are transcribed from the rules of ``hat-player-strategy.md``
("Standard action", "Difficulties"); the decoding property compares what each clued
seat recovers with what its cluer encoded, in real games.
"""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.cli import main
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.players.strategies import SPECS, factory_for
from hanabi_ref.engine.actions import Hint
from hanabi_ref.players.strategies.hat.codes import seen_hands
from hanabi_ref.players.strategies.hat.player import DecodeLog, HatDecodingError, HatPlayer, Snapshot, snapshot_of, standard_values
from hanabi_ref.players.strategies.hat.values import CLUE, DISCARD, PLAY
from hanabi_ref.players.strategies.hat.recommendation import RecommendationPlayer, recommend, recommendation_code
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import make_view
from tests.helpers import HAT_CONFIGS, card, drawn_rearrangement, reached, reaches_assertion


# ------------------------------------------------------------------ decoding


@pytest.mark.checks("H-decode", "H-cluing", "H-predict", "H-feasible")
@pytest.mark.parametrize(("players", "preset", "variant"), HAT_CONFIGS)
@settings(max_examples=8, deadline=None)  # 120 more per configuration in the deep set, below
@given(seed=st.integers(0, 2**64 - 1))
def test_every_clue_decodes_to_the_intended_actions(players: int, preset: str, variant: str, seed: int) -> None:
    """[H-decode, H-cluing, H-last-to-first, H-budget, H-feasible, H-predict] in real games, every
    clued seat recovers, from its own view, exactly the action its cluer encoded for it,
    and no seat is ever left with an action it cannot carry out."""
    config = make_config(players, preset, variant)
    log = DecodeLog(strict=False)
    seats: list[HatPlayer] = []

    def factory(config: GameConfig, seat: int, seed: int) -> HatPlayer:
        player = HatPlayer(config, seat, log)
        seats.append(player)
        return player

    play_game(config, factory, seed=seed)
    checked = 0
    for turn, decoded in log.decoded.items():
        for seat, value in decoded.items():
            assert value == log.encoded[turn][seat], (turn, seat)
            checked += 1
    assert checked > 0
    assert sum(player.infeasible for player in seats) == 0


@pytest.mark.checks("H-decode")
@pytest.mark.deep
@pytest.mark.parametrize(("players", "preset", "variant"), HAT_CONFIGS)
def test_every_clue_decodes_to_the_intended_actions_at_length(players: int, preset: str, variant: str) -> None:
    """[H-decode] the property above, fifteen more runs (120 games per configuration)."""
    for _ in range(15):
        test_every_clue_decodes_to_the_intended_actions(players=players, preset=preset, variant=variant)


@pytest.mark.checks("H-decode-check")
def test_check_mode_stops_a_game_whose_decoding_goes_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """[H-decode-check] with check=1, a seat that recovers another action than encoded
    stops the game with HatDecodingError (here a decoder made to subtract one too many)."""
    config = make_config(4, "hanab-live", "no-variant")
    assert play_game(config, factory_for("hat-classic", {"check": "1"}), seed=3).final.terminal
    real = HatPlayer.decode

    def off_by_one(self: HatPlayer, view: object, clue: object) -> int:
        return (real(self, view, clue) + 1) % 9  # type: ignore[arg-type]

    monkeypatch.setattr(HatPlayer, "decode", off_by_one)
    with pytest.raises(HatDecodingError, match="H-decode-check"):
        play_game(config, factory_for("hat-classic", {"check": "1"}), seed=3)


# ------------------------------------------------------------------ hidden information


@pytest.mark.checks("H-player")
@reaches_assertion()
@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**64 - 1),
    setup=st.sampled_from(HAT_CONFIGS),
    stop=st.floats(0.0, 1.0),
    name=st.sampled_from(["hat", "hat-classic", "recommendation"]),
    data=st.data(),
)
def test_the_hat_strategies_choose_from_their_views_alone(
    seed: int, setup: tuple[int, str, str], stop: float, name: str, data: st.DataObject
) -> None:
    """[2.17-view, H-common, H-rec, H-reclue-decode] after observing the same game, the seat to move
    chooses the same action in the state and in any rearrangement of the cards it cannot
    see (its own hand and the stack) consistent with its knowledge."""
    config = make_config(*setup)
    state = initial_state(config, deck_from_seed(config, seed))
    factory = factory_for(name)
    players = [factory(config, seat, 0) for seat in range(config.players)]
    turn = int(stop * 40)
    while not state.terminal and state.turns < turn:
        action = players[state.current_player].act(make_view(state, state.current_player))
        state = apply(state, action)
        for seat, player in enumerate(players):
            player.observe(make_view(state, seat), state.history[-1])
    if state.terminal:
        return
    reached()
    seat = state.current_player
    rearranged = drawn_rearrangement(state, data)
    twin = copy.deepcopy(players[seat])
    assert players[seat].act(make_view(state, seat)) == twin.act(make_view(rearranged, seat))


# ------------------------------------------------------------------ the standard action


@pytest.mark.checks("H-standard", "H-last-to-first")
def test_standard_actions_follow_the_sources_rules() -> None:
    """[H-standard, H-last-to-first, H-values] the rules of "Standard action", on hand-built hands
    with empty fields, 3 tokens, 30 cards in the stack."""
    config = make_config(4, "hanab-live", "no-variant")
    y1, r1, r2, g3, b4, w5 = (card(config, v, s) for v, s in ((1, 1), (1, 0), (2, 0), (3, 2), (4, 3), (5, 4)))
    empty = Snapshot((0,) * 5, (0,) * 25, 3, 30, 0)
    # "Difficulties": both hold a yellow 1; the later player plays it, the earlier does not
    # play it, and discards it instead (rule 6).
    first, second = [r2, y1, g3, b4], [g3, b4, y1, w5]
    assert standard_values(config, empty, [first, second], 1) == [DISCARD + 1, PLAY + 2]
    # Rule 1: the lowest value first, then the lowest slot.
    grown = Snapshot((1, 0, 0, 0, 0), (0,) * 25, 3, 30, 0)
    assert standard_values(config, grown, [[b4, y1, r2, y1]], 1) == [PLAY + 1]
    # Rule 2: nothing playable and at least 6 tokens: clue.
    assert standard_values(config, empty._replace(tokens=6), [[r2, g3, b4, w5]], 1) == [CLUE]
    # Rule 3: d - u < (h - 1)/3: 1 card in the stack, 25 still to play, 2 tokens.
    assert standard_values(config, empty._replace(tokens=2, stack=1), [[r2, g3, b4, w5]], 1) == [CLUE]
    # Rule 4: a card already played; rule 5: two equal cards; rule 7: otherwise clue.
    assert standard_values(config, grown, [[g3, b4, r1, w5]], 1) == [DISCARD + 2]
    assert standard_values(config, empty, [[r2, g3, b4, g3]], 1) == [DISCARD + 1]
    assert standard_values(config, empty, [[r2, g3, b4, w5]], 1) == [CLUE]


@pytest.mark.checks("H-budget")
def test_budgets_replace_clues_without_tokens_and_discards_at_the_limit() -> None:
    """[H-budget] with no token, nothing is told to clue (a safe card is discarded); with
    the tokens at the limit for its position, nothing is told to discard."""
    config = make_config(5, "hanab-live", "no-variant")
    r2, g3, b4, w5, r3 = (card(config, v, s) for v, s in ((2, 0), (3, 2), (4, 3), (5, 4), (3, 0)))
    none = Snapshot((0,) * 5, (0,) * 25, 0, 30, 0)
    values = standard_values(config, none, [[r2, g3, b4, w5]] * 3, 1)
    assert CLUE not in values and all(DISCARD <= v < CLUE for v in values)
    one = none._replace(tokens=1)
    assert standard_values(config, one, [[r2, g3, b4, w5]] * 3, 1).count(CLUE) == 1
    # 5 tokens: the seat at position 3 (three seats before it) may not discard.
    dup = [r3, g3, r3, b4]
    five = none._replace(tokens=5)
    assert standard_values(config, five, [dup, dup, dup], 1) == [DISCARD + 0, DISCARD + 0, CLUE]


# ------------------------------------------------------------------ configurations


@pytest.mark.checks("H-configs")
@pytest.mark.parametrize("players", [2, 3, 6])
def test_unsupported_player_counts_are_refused_before_any_game(players: int, capsys: pytest.CaptureFixture[str]) -> None:
    """[H-configs] one line naming what is supported, exit code 2."""
    code = main(["simulate", "--strategy", "hat", "--players", str(players), "--rules", "hanab-live", "--games", "5"])
    assert code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "supports 4 or 5 players" in error
    with pytest.raises(ConfigError, match="supports 4 or 5 players"):
        HatPlayer(make_config(players, "hanab-live", "no-variant"), 0)


@pytest.mark.checks("H-configs")
def test_other_hand_sizes_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """[H-configs] hands of another size than 4."""
    assert main(["simulate", "--strategy", "hat", "--players", "4", "--hand-size", "5", "--games", "5"]) == 2
    assert "hands of 4 cards" in capsys.readouterr().err


@pytest.mark.checks("H-configs")
@pytest.mark.parametrize("variant", ["rainbow", "Rainbow (6 Suits)", "black", "Black (6 Suits)", "6-suits", "no-variant"])
def test_variants_by_slug_and_by_hanab_live_name(variant: str, capsys: pytest.CaptureFixture[str]) -> None:
    """[H-configs, C-simulate] the command line takes both names."""
    assert main(["simulate", "--strategy", "hat", "--players", "4", "--rules", "hanab-live", "--variant", variant,
                 "--games", "3", "--jobs", "1", "--json"]) == 0
    assert '"games_completed": 3' in capsys.readouterr().out


@pytest.mark.checks("H-configs")
def test_strategy_specs_report_unsupported_configurations() -> None:
    """[H-configs] the registry exposes the check the command line uses."""
    assert SPECS["hat"].unsupported is not None
    assert SPECS["hat"].unsupported(make_config(3, "hanab-live", "no-variant")) is not None
    assert SPECS["hat"].unsupported(make_config(5, "hanab-live", "black")) is None


# ------------------------------------------------------------------ the recommendation strategy


@pytest.mark.checks("H-rec", "H-rec-decode")
@pytest.mark.parametrize(("players", "preset", "variant"), HAT_CONFIGS)
@settings(max_examples=5, deadline=None)  # 40 more per configuration in the deep set, below
@given(seed=st.integers(0, 2**64 - 1))
def test_every_recommendation_is_recovered(players: int, preset: str, variant: str, seed: int) -> None:
    """[H-rec, H-rec-decode, H-rec-code, H-rec-values] after every hint, each player but
    the cluer holds the recommendation H-rec-action gives its true hand in the state
    after the hint (a number that could not be sent excepted, H-rec-code)."""
    config = make_config(players, preset, variant)
    state = initial_state(config, deck_from_seed(config, seed))
    seats = [RecommendationPlayer(config, seat) for seat in range(players)]
    checked = 0
    while not state.terminal:
        action = seats[state.current_player].act(make_view(state, state.current_player))
        before = state
        state = apply(state, action)
        for seat, player in enumerate(seats):
            player.observe(make_view(state, seat), state.history[-1])
        if isinstance(action, Hint):
            snap = snapshot_of(make_view(state, before.current_player))
            intended = {s: recommend(config, snap, [state.deck[c] for c in state.hands[s]]) for s in range(players) if s != before.current_player}
            code = recommendation_code(config)
            sendable = code.sendable(before.current_player, seen_hands(make_view(before, before.current_player)))
            if sendable >> (sum(intended.values()) % 8) & 1:
                assert {s: seats[s].recommended for s in intended} == intended
                checked += 1
    assert checked > 0


@pytest.mark.deep
@pytest.mark.parametrize(("players", "preset", "variant"), HAT_CONFIGS)
def test_every_recommendation_is_recovered_at_length(players: int, preset: str, variant: str) -> None:
    """The property above, eight more runs (40 games per configuration)."""
    for _ in range(8):
        test_every_recommendation_is_recovered(players=players, preset=preset, variant=variant)


def test_a_recommended_play_waits_when_a_card_played_since_may_have_been_its_own() -> None:
    """[H-rec-turn] rule 1: the recommendation strategy never misplays a recommended card
    (checked on 40 games: every error would be one)."""
    config = make_config(4, "hanab-live", "no-variant")
    for seed in range(40):
        assert play_game(config, factory_for("recommendation"), seed=seed).final.strikes == 0


@pytest.mark.checks("H-rec")
def test_recommendation_refuses_what_it_cannot_play(capsys: pytest.CaptureFixture[str]) -> None:
    """[H-rec] the configurations of H-configs."""
    assert main(["simulate", "--strategy", "recommendation", "--players", "3", "--games", "5"]) == 2
    assert "supports 4 or 5 players" in capsys.readouterr().err


def test_a_held_back_play_is_never_discarded_at_all_tokens() -> None:
    """[H-rec-turn] rule 3 discards only a recommended *discard*: seed 7274 (rainbow, 4
    players) once discarded a held-back play with all tokens, which is illegal."""
    config = make_config(4, "hanab-live", "rainbow")
    assert play_game(config, factory_for("recommendation"), seed=7274).final.terminal
