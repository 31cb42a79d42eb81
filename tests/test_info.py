"""The information strategy [I-public, I-common, I-radix, I-questions, I-decode,
I-decode-check, I-k, I-k-exists, I-hint-map, I-configs, 2.17-view]."""

from __future__ import annotations

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.actions import Hint
from hanabi_ref.dealing import deck_from_seed
from hanabi_ref.errors import ConfigError
from hanabi_ref.game import play_game
from hanabi_ref.rules import make_config
from hanabi_ref.state import GameState, stack_size
from hanabi_ref.strategies import SPECS, factory_for
from hanabi_ref.strategies.info.codes import code_size, colours_touching, hints_of_type
from hanabi_ref.strategies.info.knowledge import Board
from hanabi_ref.strategies.info.player import InfoPlayer, Log
from hanabi_ref.strategies.info.questions import choose, decode, encode
from hanabi_ref.transition import apply, initial_state
from hanabi_ref.view import make_view
from tests.helpers import hidden_rearrangement, with_deck

CONFIGS = [(players, preset, variant) for players in (2, 3, 4, 5) for preset, variant in
           (("hle", "no-variant"), ("hanab-live", "no-variant"), ("hanab-live", "6-suits"),
            ("hanab-live", "rainbow"), ("hanab-live", "black"))]


def play_checked(players: int, preset: str, variant: str, seed: int, stop: int | None = None
                 ) -> tuple[GameState, list[InfoPlayer], Log]:
    """A game of the strategy with every seat's public knowledge compared after every
    move (I-common) and every decoded number compared with the encoded one (I-decode-check)."""
    config = make_config(players, preset, variant)
    log = Log()
    seats = [InfoPlayer(config, seat, log) for seat in range(players)]
    state = initial_state(config, deck_from_seed(config, seed))
    while not state.terminal and (stop is None or state.turn < stop):
        state = apply(state, seats[state.current].act(make_view(state, state.current)))
        for seat, player in enumerate(seats):
            player.observe(make_view(state, seat), state.history[-1])
        first = seats[0].public
        assert all(player.public == first for player in seats), f"I-common broken after turn {state.turn}"
    return state, seats, log


@settings(max_examples=40, deadline=None)
@given(setup=st.sampled_from(CONFIGS), seed=st.integers(0, 2**64 - 1))
def test_seats_agree_and_every_number_decodes(setup: tuple[int, str, str], seed: int) -> None:
    """[I-common, I-decode, I-decode-check] in real games every seat's public knowledge
    equals every other's after every move, and every seat decodes the number the actor
    encoded for it."""
    state, seats, log = play_checked(*setup, seed)
    assert state.terminal
    assert log.compared > 0 or not any(isinstance(e.action, Hint) for e in state.history)


@pytest.mark.deep
@settings(max_examples=4000, deadline=None)
@given(setup=st.sampled_from(CONFIGS), seed=st.integers(0, 2**64 - 1))
def test_seats_agree_and_every_number_decodes_deep(setup: tuple[int, str, str], seed: int) -> None:
    """[I-common, I-decode-check] the same on thousands of games."""
    test_seats_agree_and_every_number_decodes.hypothesis.inner_test(setup, seed)  # type: ignore[attr-defined]


def test_public_knowledge_holds_the_true_card() -> None:
    """[I-public, I-answers] the answers never remove a card's true identity: at the end of
    real games every card in every hand is still in its public set."""
    for players, preset, variant in CONFIGS[::3]:
        state, seats, _ = play_checked(players, preset, variant, seed=players * 7, stop=40)
        for seat in range(players):
            view = make_view(state, seat)
            sets = seats[seat].sets(seats[seat].moment or pytest.fail("no moment"), seat)
            for card_id, mask in zip(view.hands[seat], sets):
                assert mask >> state.deck[card_id] & 1


# ------------------------------------------------------------------ questions and numbers


@settings(max_examples=150, deadline=None)
@given(setup=st.sampled_from(CONFIGS), seed=st.integers(0, 2**32), turn=st.integers(0, 50), total=st.integers(2, 16))
def test_decoding_undoes_encoding(setup: tuple[int, str, str], seed: int, turn: int, total: int) -> None:
    """[I-radix, I-questions, I-answers] for the hands of real games: the number that
    carries a hand's answers is in range(total); decoding it asks the same questions,
    leaves nothing over and reaches the same public sets; every question fits the room it
    was asked in."""
    state, seats, _ = play_checked(*setup, seed, stop=turn)
    player = seats[0]
    moment = player.moment
    if moment is None:
        return
    for seat in range(1, state.config.players):
        sets = player.sets(moment, seat)
        hand = [state.deck[card_id] for card_id in state.hands[seat]]
        encoded_sets = list(sets)
        number = encode(encoded_sets, total, moment.board, hand)
        assert 0 <= number < total
        decoded_sets = list(sets)
        assert decode(decoded_sets, total, moment.board, number) == 0
        assert decoded_sets == encoded_sets
        assert all(mask >> card & 1 for mask, card in zip(encoded_sets, hand))
        question = choose(list(sets), total, moment.board)
        assert question is None or 2 <= question.answers <= total


def test_every_number_has_its_own_answers() -> None:
    """[I-radix] brute force: on one hand, the numbers 0..T-1 decode to pairwise different
    public sets or leave a remainder, so no two hands that answer differently share a
    number (the code is injective on answers)."""
    config = make_config(4, "hle")
    state, seats, _ = play_checked(4, "hle", "no-variant", seed=11, stop=6)
    moment = seats[0].moment
    assert moment is not None
    sets = seats[0].sets(moment, 1)
    seen: dict[tuple[int, ...], int] = {}
    for number in range(12):
        decoded = list(sets)
        if decode(decoded, 12, moment.board, number) == 0:
            key = tuple(decoded)
            assert key not in seen, (number, seen[key])
            seen[key] = number
    assert len(seen) >= 2 and config.players == 4


# ------------------------------------------------------------------ codes


def test_code_sizes_are_sound() -> None:
    """[I-k, I-k-exists] in every state of real games and for every slot taken as the
    focus, every type of every seat's code has a hint for the seat's actual cards (so
    every number the actor may need is a hint it can give)."""
    for players, preset, variant in CONFIGS:
        state, _, _ = play_checked(players, preset, variant, seed=players + 100)
        config = state.config
        replay = initial_state(config, state.deck)
        for event in state.history:
            view = make_view(replay, 0)
            board = Board.of(view)
            for seat in range(1, players):
                hand = [replay.deck[c] for c in replay.hands[seat]]
                sets = [mask & board.live for mask in view.knowledge[seat]]
                for slot in range(len(hand)):
                    k = code_size(sets, slot, board)
                    for kind in range(k):
                        assert hints_of_type(kind, k, seat, hand, slot, config), (kind, k, hand)
            replay = apply(replay, event.action)


def test_a_rainbow_focus_card_has_no_colour_hint_avoiding_it() -> None:
    """[I-k, I-k-exists] a Rainbow card is touched by every colour hint, so a hand of
    unknown cards may hold no hint that leaves its focus untouched (a Rainbow 1 and three
    other 1s): k = 2.  Without Rainbow the same hand gets k = 3: no identity has four
    copies, so some hint leaves the focus untouched, but all four cards may share a
    colour (so not k = 4)."""
    config = make_config(4, "hanab-live", "rainbow")
    rainbow = 5 * config.values  # the sixth suit's 1
    assert colours_touching(config, rainbow) == (1 << len(config.colours)) - 1
    board = Board(config, (0,) * 6, (0,) * 30, [3, 2, 2, 2, 1] * 6)
    assert code_size([config.all_cards_mask] * 4, 0, board) == 2
    plain = make_config(4, "hanab-live", "6-suits")
    board = Board(plain, (0,) * 6, (0,) * 30, [3, 2, 2, 2, 1] * 6)
    assert code_size([plain.all_cards_mask] * 4, 0, board) == 3


# ------------------------------------------------------------------ views and configurations


@settings(max_examples=40, deadline=None)
@given(setup=st.sampled_from(CONFIGS), seed=st.integers(0, 2**64 - 1), stop=st.integers(0, 40), data=st.data())
def test_the_info_strategy_chooses_from_its_view_alone(setup: tuple[int, str, str], seed: int, stop: int,
                                                      data: st.DataObject) -> None:
    """[2.17-view, I-public] after observing the same game, the seat to move chooses the
    same action in the state and in any rearrangement of the cards it cannot see."""
    state, seats, _ = play_checked(*setup, seed, stop=stop)
    if state.terminal:
        return
    seat = state.current
    order = data.draw(st.permutations(range(len(state.hands[seat]) + stack_size(state))))
    rearranged = with_deck(state, hidden_rearrangement(state, seat, order))
    twin = copy.deepcopy(seats[seat])
    assert seats[seat].act(make_view(state, seat)) == twin.act(make_view(rearranged, seat))


@pytest.mark.parametrize("players, preset, variant, fragment", [
    (6, "hanab-live", "no-variant", "6 players"),
    (3, "thesis", "no-variant", "preset 'thesis'"),
    (3, "thesis", "dutch-rainbow", "preset 'thesis'"),
])
def test_unsupported_configurations_are_refused(players: int, preset: str, variant: str, fragment: str) -> None:
    """[I-configs] one line naming what the strategy supports, before a game starts."""
    config = make_config(players, preset, variant)
    with pytest.raises(ConfigError) as error:
        SPECS["info"].check_config(config)
    assert fragment in str(error.value) and "it plays 2 to 5 players" in str(error.value)
    with pytest.raises(ConfigError):
        play_game(config, factory_for("info"), seed=0)


def test_every_hint_carries_a_number_for_every_other_seat() -> None:
    """[I-answers] after a hint, the public sets of every seat but the actor are no larger
    than before (each got its answers), and some got smaller."""
    state, seats, _ = play_checked(4, "hle", "no-variant", seed=5, stop=1)
    assert isinstance(state.history[0].action, Hint)
    narrowed = [card_id for card_id, mask in seats[1].public.limits.items() if mask != -1]
    assert narrowed
