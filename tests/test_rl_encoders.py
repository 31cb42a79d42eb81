"""The observation encoders and the plain action space (spec/rl.md): bit for bit equal to
OpenSpiel on games our engine plays, equal to golden vectors of the SAD fork, refusals by
clause, and blind to what the view hides."""

from __future__ import annotations

import json
from typing import Any
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.actions import Hint, Play
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.tools.peers.choosers import DriverChooser
from hanabi_ref.tools.rl.actions import plain_actions
from hanabi_ref.tools.rl.check import check_against_openspiel, drawn_config
from hanabi_ref.tools.rl.encoders import encode
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.layout import layout
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import make_view
from tests.helpers import drawn_rearrangement, reached, reaches_assertion, stacked_deck
from tests.oracles import needs, oracle


def _equal_to_openspiel(states: int) -> None:
    """``rl check`` over at least ``states`` states: no difference, at least 20 drawn
    configurations, and at least 5 of each situation a wrong bit would hide in."""
    report = check_against_openspiel(states, seed=1)
    assert report.difference is None, report.difference.describe()
    assert report.states >= states
    assert report.configs >= 20
    for situation in ("terminal states", "states with a short hand", "last move a successful play",
                      "last move completed a suit", "last move a misplay"):
        assert report.coverage[situation] >= 5, (situation, report.coverage)


@pytest.mark.checks("RL-check", "RL-canonical", "RL-minimal", "RL-encode", "RL-hands", "RL-missing", "RL-deck", "RL-fireworks", "RL-tokens", "RL-discards", "RL-last-action", "RL-knowledge", "RL-dims")
@needs("pyspiel")
def test_canonical_and_minimal_equal_openspiel_on_three_thousand_states() -> None:
    """[RL-check, RL-canonical, RL-minimal, RL-encode, RL-hands, RL-missing, RL-deck,
    RL-fireworks, RL-tokens, RL-discards, RL-last-action, RL-knowledge, RL-dims] every seat
    at every decision and terminal state of games played move for move by our engine and
    OpenSpiel: the two vectors are equal, and the situations a wrong bit would hide in
    occurred (ten thousand states in the deep set)."""
    _equal_to_openspiel(3_000)


@pytest.mark.checks("RL-check", "RL-canonical", "RL-minimal", "RL-encode", "RL-hands", "RL-missing", "RL-deck", "RL-fireworks", "RL-tokens", "RL-discards", "RL-last-action", "RL-knowledge", "RL-dims")
@pytest.mark.deep
@needs("pyspiel")
def test_canonical_and_minimal_equal_openspiel_on_ten_thousand_states() -> None:
    """[RL-check, RL-canonical, RL-minimal, RL-encode, RL-hands, RL-missing, RL-deck,
    RL-fireworks, RL-tokens, RL-discards, RL-last-action, RL-knowledge, RL-dims] the same
    on ten thousand states."""
    _equal_to_openspiel(10_000)


@pytest.mark.checks("RL-layout", "RL-dims")
def test_layout_lengths_are_openspiels_shapes() -> None:
    """[RL-layout, RL-dims] the formulas give OpenSpiel's tensor shape for the presets and
    for drawn configurations of every parameter."""
    import random

    pyspiel = oracle("pyspiel")

    rng = random.Random(7)
    configs = [make_config(players, "hle") for players in range(2, 6)] + [make_config(4, "hle", hand_size=5)]
    configs += [drawn_config(rng) for _ in range(40)]
    from hanabi_ref.tools.peers.hle_rules import hle_parameters

    for config in configs:
        for encoding, kind in (("canonical", "card_knowledge"), ("minimal", "minimal")):
            game = pyspiel.load_game("hanabi", {**hle_parameters(config), "observation_type": kind})
            assert layout(encoding, config).size == game.observation_tensor_shape()[0]


@pytest.mark.checks("RL-layout", "RL-notes")
def test_the_default_sizes_are_the_published_ones() -> None:
    """[RL-layout, RL-notes] 658 / 956 / 1041 / 1280 canonical values for 2-5 players at
    HLE's defaults, and the notes' 1379 = 504 + 66 + 50 + 59 + 700 at 4 players, hand 5."""
    assert [layout("canonical", make_config(p, "hle")).size for p in range(2, 6)] == [658, 956, 1041, 1280]
    notes = layout("notes", make_config(4, "hle", hand_size=5))
    parts = {s.name: s.length for s in notes.sections}
    assert notes.size == 1379
    assert parts["hands"] + parts["missing"] == 504
    assert sum(parts[name] for name in ("deck", "fireworks", "information tokens", "life tokens")) == 66
    assert parts["discards"] == 50 and parts["belief"] == 700
    assert sum(length for name, length in parts.items() if name.startswith("last")) == 59


@pytest.mark.checks("RL-hands", "RL-deck", "RL-fireworks", "RL-tokens", "RL-last-action", "RL-knowledge")
def test_a_play_and_a_hint_bit_by_bit() -> None:
    """[RL-hands, RL-fireworks, RL-tokens, RL-last-action, RL-knowledge] two moves of a
    2-player game, every expected index worked out by hand from the spec's section table
    (hands 0-124, missing 125-126, deck 127-166, fireworks 167-191, information 192-199,
    lives 200-202, discards 203-252, actor 253, type 255, target 259, colour 261, rank 266,
    outcome 271, position 276, card 281, scored 306, token 307, knowledge 308)."""
    config = make_config(2, "hle")
    # seat 0: r1 y1 r2 b5 g3; seat 1: r1 y1 p4 g2 b1; the next card is the third r1
    top = [(1, 0), (1, 1), (2, 0), (5, 3), (3, 2), (1, 0), (1, 1), (4, 4), (2, 2), (1, 3)]
    state = initial_state(config, stacked_deck(config, top))
    state = apply(state, Play(0))
    seen_by_1 = encode("canonical", make_view(state, 1))
    r1, y1, r2, b5, g3 = 0, 5, 1, 19, 12
    expected = {slot * 25 + card for slot, card in enumerate((y1, r2, b5, g3, r1))}  # seat 0's new hand
    expected |= set(range(127, 127 + 39))  # 50 - 10 dealt - 1 drawn
    expected |= {167, *range(192, 200), 200, 201, 202}  # red firework at 1; 8 and 3 tokens
    expected |= {253 + 1, 255 + 0, 276 + 0, 281 + r1, 306}  # seat 0 (relative 1) played slot 0: r1, scored
    knowledge = seen_by_1[308:]
    assert set(np.nonzero(seen_by_1[:308])[0]) == expected
    assert knowledge.reshape(10, 35)[:, :25].all() and not knowledge.reshape(10, 35)[:, 25:].any()

    state = apply(state, Hint(0, "colour", 1))  # seat 1: "yellow" to seat 0, touching slot 0 only
    seen_by_0 = encode("canonical", make_view(state, 0))
    last = set(np.nonzero(seen_by_0[253:308])[0] + 253)
    assert last == {253 + 1, 255 + 2, 259 + 0, 261 + 1, 271 + 0}
    assert set(np.nonzero(seen_by_0[192:200])[0]) == set(range(7))
    own_first = seen_by_0[308:308 + 35]
    assert set(np.nonzero(own_first)[0]) == {5, 6, 7, 8, 9, 25 + 1}  # yellow 1-5 possible, yellow revealed
    own_second = seen_by_0[308 + 35:308 + 70]
    assert own_second[25:].sum() == 0 and own_second[5:10].sum() == 0 and own_second[:5].all()


@pytest.mark.checks("RL-v0-belief", "RL-v0")
def test_v0_belief_is_public_counts_times_plausibility() -> None:
    """[RL-v0-belief, RL-v0, RL-hands] in real games every present card's belief is the
    public count of each identity its knowledge allows, normalised (sums to 1), the own
    hand block is zero, and the revealed bits are those of the canonical knowledge."""
    config = make_config(3, "hle")
    state = initial_state(config, deck_from_seed(config, 5))
    chooser = DriverChooser(5, random_rate=0.3, probe_rate=0.0)
    lay, canon = layout("v0", config), layout("canonical", config)
    belief, knowledge = lay.section("belief"), canon.section("knowledge")
    checked = 0
    while not state.terminal:
        view = make_view(state, state.current_player)
        vector, plain = encode("v0", view), encode("canonical", view)
        assert not vector[:5 * 25].any()
        cards = vector[belief.start:].reshape(3 * 5, 35)
        bits = plain[knowledge.start:].reshape(3 * 5, 35)
        counts = np.array([3, 2, 2, 2, 1] * 5, np.float64)
        for _, card in view.discard:
            counts[card] -= 1
        for colour, height in enumerate(view.fireworks):
            counts[colour * 5: colour * 5 + height] -= 1
        for row in range(15):
            if not bits[row].any():
                assert not cards[row].any()
                continue
            weights = bits[row, :25] * counts
            assert np.allclose(cards[row, :25], weights / weights.sum(), atol=1e-7)
            assert np.array_equal(cards[row, 25:], bits[row, 25:])
            checked += 1
        state = apply(state, chooser.choose(state, legal_actions(state)))
    assert checked > 500


GOLDEN = Path(__file__).parent / "fixtures" / "rl" / "sad_v0_golden.npz"


@pytest.mark.checks("RL-v0", "RL-notes", "RL-v0-belief", "RL-check")
def test_v0_and_notes_equal_the_sad_forks_golden_vectors() -> None:
    """[RL-v0, RL-notes, RL-v0-belief, RL-hands, RL-check] every seat of every state of the
    40 games the SAD fork encoded (tests/fixtures/rl/README.md: 5 configurations, 3,999
    vectors): our ``v0`` vector, replayed from the stored deck and moves, equals the fork's
    float32 for float32; at 4 players with hand size 5 so does ``notes``."""
    data = np.load(GOLDEN)
    configs = [make_config(**json.loads(str(text))["make_config"]) for text in data["configs"]]
    compared = 0
    for text in data["games"]:
        game = json.loads(str(text))
        config = configs[game["config"]]
        space = plain_actions(config)
        deck = tuple(int(card) for card in data[f"{game['key']}_deck"])
        assert deck == deck_from_seed(config, game["seed"])
        vectors = data[f"{game['key']}_vectors"]
        state = initial_state(config, deck)
        moves = [int(uid) for uid in data[f"{game['key']}_moves"]]
        assert vectors.shape[0] == len(moves) + 1
        for index in range(len(moves) + 1):
            for seat in range(config.players):
                view = make_view(state, seat)
                assert np.array_equal(encode("v0", view), vectors[index, seat]), (game["key"], index, seat)
                if config.players == 4 and config.hand_size == 5:
                    assert np.array_equal(encode("notes", view), vectors[index, seat])
                compared += 1
            if index < len(moves):
                state = apply(state, space.action(moves[index], state.current_player))
        assert state.terminal
    assert compared == 3999


@pytest.mark.checks("RL-plain", "RL-mask")
@needs("pyspiel")
def test_plain_actions_and_masks_are_openspiels() -> None:
    """[RL-plain, RL-mask] on games of 2-5 players the mask of the seat to act lists
    exactly OpenSpiel's legal move ids, each index maps to the action whose OpenSpiel id it
    is, and the other seats' masks are empty."""
    from hanabi_ref.tools.peers.openspiel import OpenSpielEngine

    engine = OpenSpielEngine()
    for players in range(2, 6):
        config = make_config(players, "hle")
        space = plain_actions(config)
        for seed in range(3):
            deck = deck_from_seed(config, seed)
            engine.new_game(config, deck)
            state = initial_state(config, deck)
            chooser = DriverChooser(seed, random_rate=0.5, probe_rate=0.0)
            while not state.terminal:
                mask = space.mask(make_view(state, state.current_player))
                assert set(np.nonzero(mask)[0]) == set(engine.game_state.legal_actions())
                for index in np.nonzero(mask)[0]:
                    assert engine.action_id(space.action(int(index), state.current_player)) == index
                other = (state.current_player + 1) % players
                assert not space.mask(make_view(state, other)).any()
                action = chooser.choose(state, legal_actions(state))
                assert space.action(space.index(action, state.current_player), state.current_player) == action
                state = apply(state, action)
                assert engine.apply(action) is None
    with pytest.raises(RLError, match="^RL-plain"):
        plain_actions(make_config(2, "hle")).action(20, 0)


@pytest.mark.checks("RL-plain")
@pytest.mark.parametrize("option", ["self_hints", "deck_plays"])
def test_the_plain_space_refuses_moves_it_has_no_index_for(option: str) -> None:
    """[RL-plain] a hint to one's own hand (self_hints) or a play of the stack's last card
    (deck_plays) has no index in the peers' layout: with deck_plays, ``Play(h)`` would be
    written as index 2h, the first colour reveal's, and read back as that reveal.  Such
    configurations are refused in one line naming the option."""
    options: dict[str, Any] = {option: True, **({"empty_hints": True} if option == "self_hints" else {})}
    config = make_config(3, "hle", **options)
    with pytest.raises(RLError, match=f"^RL-plain.*{option}=True"):
        plain_actions(config)


@pytest.mark.checks("RL-encode")
@reaches_assertion()
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), moves=st.integers(0, 60), data=st.data())
def test_encodings_see_nothing_the_view_hides(seed: int, moves: int, data: st.DataObject) -> None:
    """[RL-encode] rearranging the cards the acting seat cannot see (its own hand and the
    stack, consistently with its knowledge) changes none of its encodings."""
    config = make_config(4, "hle", hand_size=5)
    state = initial_state(config, deck_from_seed(config, seed))
    chooser = DriverChooser(seed, random_rate=0.3, probe_rate=0.0)
    for _ in range(moves):  # the last position before the game would end, at most ``moves`` in
        after = apply(state, chooser.choose(state, legal_actions(state)))
        if after.terminal:
            break
        state = after
    reached()
    rearranged = drawn_rearrangement(state, data)
    for name in ("canonical", "minimal", "v0", "notes"):
        seat = state.current_player
        assert np.array_equal(encode(name, make_view(state, seat)), encode(name, make_view(rearranged, seat)))


@pytest.mark.checks("RL-errors", "RL-encodings", "RL-notes", "RL-configs")
def test_refusals_name_their_clause() -> None:
    """[RL-errors, RL-encodings, RL-notes, RL-configs] an unknown name, the notes' layout on
    another configuration and a colour clue touching two suits are refused by clause id."""
    view = make_view(initial_state(make_config(2, "hle"), deck_from_seed(make_config(2, "hle"), 0)), 0)
    with pytest.raises(RLError, match="^RL-encodings: unknown encoding 'sad'"):
        encode("sad", view)
    with pytest.raises(RLError, match="^RL-notes: .*2 players, hand size 5"):
        encode("notes", view)
    rainbow = make_config(3, "hanab-live", "Rainbow (6 Suits)")
    with pytest.raises(RLError, match="^RL-configs: variant 'Rainbow"):
        layout("canonical", rainbow)
    assert layout("v0", make_config(3, "hanab-live", "Black (6 Suits)")).size > 0
