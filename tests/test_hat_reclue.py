"""The hat player with the March-2019 improvements [H-reclue]: every value of every clue,
as each seat resolves it from its own view, equals what the cluer encoded; the source's
example of a later clue turning a discard into a play; configurations refused.

Expected values come from the source's "Improvements in March 2019" example and from
the rules of spec/hat.md section 5 applied by hand; the decoding property compares each
seat's resolution with the cluer's encoding in real games.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.dealing import deck_from_seed
from hanabi_ref.errors import ConfigError
from hanabi_ref.game import play_game
from hanabi_ref.rules import GameConfig, make_config
from hanabi_ref.strategies import factory_for
from hanabi_ref.strategies.hat.player import CLUE, DISCARD, PLAY, DecodeLog, HatDecodingError
from hanabi_ref.strategies.hat.reclue import ReclueHatPlayer, Round
from hanabi_ref.transition import initial_state
from hanabi_ref.view import make_view
from tests.helpers import HAT_CONFIGS, card


@pytest.mark.parametrize(("players", "preset", "variant"), HAT_CONFIGS)
@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**64 - 1))
def test_every_seat_resolves_every_value_the_cluer_encoded(players: int, preset: str, variant: str, seed: int) -> None:
    """[H-reclue-decode, H-reclue-infer, H-reclue-pins, H-reclue-standard, H-reclue-turn,
    H-reclue-endgame, H-reclue-modified, H-reclue-discard] in real games (where the
    modified values and the discard-or-clue choices of H-reclue-modified and
    H-reclue-discard are made), every value every seat resolves for every seat of
    every clue equals the value the cluer encoded (a strict log raises at the first
    difference)."""
    config = make_config(players, preset, variant)
    log = DecodeLog(strict=True)
    play_game(config, lambda config, seat, seed: ReclueHatPlayer(config, seat, log), seed=seed)
    assert log.compared > 0


def test_later_clues_turn_earlier_non_plays_into_plays() -> None:
    """[H-reclue] the improvement is used: in 30 games some seat plays on a later clue
    after an earlier clue it held gave it no play."""
    config = make_config(5, "hanab-live", "no-variant")
    seats: list[ReclueHatPlayer] = []

    def factory(config: GameConfig, seat: int, seed: int) -> ReclueHatPlayer:
        seats.append(ReclueHatPlayer(config, seat))
        return seats[-1]

    for seed in range(30):
        play_game(config, factory, seed=seed)
    assert sum(seat.converted for seat in seats) > 0


def test_check_mode_stops_a_game_whose_inference_goes_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """[H-decode-check] a seat that infers another value than encoded (here an inference
    made to answer "clue" always) stops the game with HatDecodingError."""
    config = make_config(4, "hanab-live", "no-variant")
    assert play_game(config, factory_for("hat", {"check": "1"}), seed=3).final.terminal
    monkeypatch.setattr(ReclueHatPlayer, "infer", lambda self, clue, seat: CLUE)
    with pytest.raises(HatDecodingError, match="H-decode-check"):
        play_game(config, factory_for("hat", {"check": "1"}), seed=3)


def test_the_sources_example_of_a_later_clue_turning_a_discard_into_a_play() -> None:
    """[H-reclue-pins, H-reclue-standard, H-reclue-infer] the source's example with Bob
    and Cathy swapped (5 players): Alice (seat 0) clues Cathy (1) to clue, Bob (2) to
    play r1, Donald (3) and Emily (4) to discard. Alice cannot tell Donald to play r2
    (r1 is not on the fields and not pinned). Cathy's clue can: Bob is pinned to r1 and
    acts before Donald. Emily, seeing Donald play r2, reads Alice's value for Donald as
    his discard, because he did not want r2 in Alice's clue."""
    config = make_config(5, "hanab-live", "no-variant")
    r1, r2, g3, b4, w4, y2, y4 = (card(config, v, s) for v, s in ((1, 0), (2, 0), (3, 2), (4, 3), (4, 4), (2, 1), (4, 1)))
    view = make_view(initial_state(config, deck_from_seed(config, 0)), 4)
    emily = ReclueHatPlayer(config, 4)
    hands: dict[int, tuple[int | None, ...]] = {
        0: (b4, g3, w4, y4), 1: (g3, b4, w4, y4), 2: (y2, r1, b4, w4), 3: (g3, r2, g3, b4), 4: (None,) * 4,
    }

    alice = Round(0, 0, (1, 2, 3, 4), 0, view, {seat: [] for seat in (1, 2, 3, 4)})
    alice.hands = [hands[seat] for seat in range(5)]
    emily.prepare(alice)
    assert alice.modified == 1 and alice.progress == (0,) * 5
    assert emily.wanted(alice, 3, hands[3]) == []  # r2 is not next in Alice's clue
    assert emily.standard(alice, 2, hands[2], set()) == PLAY + 1  # Bob: r1
    assert emily.standard(alice, 3, hands[3], set()) == DISCARD + 0  # Donald: the lower of two g3
    alice.values = {1: CLUE, 2: PLAY + 1, 3: DISCARD + 0, 4: DISCARD + 0}

    cathy = Round(1, 1, (2, 3, 4, 0), 0, view, {2: [alice], 3: [alice], 4: [alice], 0: []})
    cathy.hands = [hands[seat] for seat in range(5)]
    emily.prepare(cathy)
    assert cathy.pins == {2: PLAY + 1} and cathy.modified == 3
    assert cathy.progress[0] == 1  # r1 pinned to Bob
    assert emily.wanted(cathy, 3, hands[3]) == [1]  # Donald now wants r2: Bob plays r1 first
    assert emily.standard(cathy, 3, hands[3], set()) == PLAY + 1

    alice.acted[3] = (PLAY + 1, hands[3])  # Donald plays r2 on Cathy's clue
    assert emily.infer(alice, 3) == DISCARD + 0


def test_the_refused_configurations_name_what_is_supported() -> None:
    """[H-reclue, H-configs] 3 players are refused when the seat is built."""
    with pytest.raises(ConfigError, match="supports 4 or 5 players"):
        ReclueHatPlayer(make_config(3, "hanab-live", "no-variant"), 0)
