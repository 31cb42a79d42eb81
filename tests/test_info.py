"""The information strategy [I-public, I-common, I-radix, I-questions, I-decode,
I-decode-check, I-k, I-k-exists, I-hint-map, I-configs, 2.17-view]."""

from __future__ import annotations

import copy
import math
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.actions import Discard, Hint, Play
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState, deck_size
from hanabi_ref.players.strategies import SPECS, factory_for
from hanabi_ref.players.strategies.info.codes import code_size, colours_touching, focus, goodness, hint_type, hints_of_type
from hanabi_ref.players.strategies.info.decisions import Options, private_weights
from hanabi_ref.players.strategies.info.knowledge import RATIO_BOUND, Board, BoardReader, Moment, ratio
from hanabi_ref.players.strategies.info.player import INFO_SPEC, SOURCE_INFO_SPEC, InfoPlayer, Log, options_of
from hanabi_ref.players.strategies.info.player import STRONG as STRONG_OPTIONS
from hanabi_ref.players.strategies.info.questions import choose, decode, encode
from hanabi_ref.players.strategies.info.reading import codes_of, public_sets, useless
from hanabi_ref.players.strategies.knowledge import composition_counts
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import make_view
from tests.helpers import (
    card,
    colour_suits,
    drawn_rearrangement,
    reached,
    reaches_assertion,
    stacked_deck,
    suit_and_value,
)
from hanabi_ref.engine.tables import tables_for

CONFIGS = [(players, preset, variant) for players in (2, 3, 4, 5) for preset, variant in
           (("hle", "no-variant"), ("hanab-live", "no-variant"), ("hanab-live", "6-suits"),
            ("hanab-live", "rainbow"), ("hanab-live", "black"))]


def play_checked(players: int, preset: str, variant: str, seed: int, stop: int | None = None,
                 options: Options = Options(), stack: int | None = None) -> tuple[GameState, list[InfoPlayer], Log]:
    """A game of the strategy with every seat's public knowledge compared after every
    move (I-common) and every decoded number compared with the encoded one (I-decode-check),
    played to its end, to turn ``stop`` or until the stack holds at most ``stack`` cards."""
    config = make_config(players, preset, variant)
    log = Log()
    seats = [InfoPlayer(config, seat, log, options) for seat in range(players)]
    state = initial_state(config, deck_from_seed(config, seed))
    while not state.terminal and (stop is None or state.turns < stop) and (stack is None or deck_size(state) > stack):
        state = apply(state, seats[state.current_player].act(make_view(state, state.current_player)))
        for seat, player in enumerate(seats):
            player.observe(make_view(state, seat), state.history[-1])
        first = seats[0].public
        assert all(player.public == first for player in seats), f"I-common broken after turn {state.turns}"
    return state, seats, log


OPTION_SETS = st.sampled_from([Options(), STRONG_OPTIONS])
"""The seats of `info-source` and of `info` (I-strong)."""


@pytest.mark.checks("I-common", "I-decode", "I-public")
@settings(max_examples=25, deadline=None)  # 20,000 in the deep set, below
@given(setup=st.sampled_from(CONFIGS), seed=st.integers(0, 2**64 - 1), options=OPTION_SETS)
def test_seats_agree_and_every_number_decodes(setup: tuple[int, str, str], seed: int, options: Options) -> None:
    """[I-common, I-decode, I-decode-check] in real games every seat's public knowledge
    equals every other's after every move, and every seat decodes the number the actor
    encoded for it."""
    state, seats, log = play_checked(*setup, seed, options=options)
    assert state.terminal
    assert log.compared > 0 or not any(isinstance(e.action, Hint) for e in state.history)


@pytest.mark.checks("I-common", "I-decode")
@pytest.mark.deep
@settings(max_examples=20_000, deadline=None)
@given(setup=st.sampled_from(CONFIGS), seed=st.integers(0, 2**64 - 1), options=OPTION_SETS)
def test_seats_agree_and_every_number_decodes_deep(setup: tuple[int, str, str], seed: int, options: Options) -> None:
    """[I-common, I-decode-check] the same on 20,000 games: about a thousand for each of
    the 20 configurations, so thousands for each player count and each variant, half of
    them with each option set (about 5 minutes)."""
    test_seats_agree_and_every_number_decodes.hypothesis.inner_test(setup, seed, options)


@pytest.mark.checks("I-public", "I-answers")
def test_public_knowledge_holds_the_true_card() -> None:
    """[I-public, I-answers] the answers never remove a card's true identity: at the end of
    real games every card in every hand is still in its public set."""
    for players, preset, variant in CONFIGS[::3]:
        state, seats, _ = play_checked(players, preset, variant, seed=players * 7, stop=40)
        for seat in range(players):
            view = make_view(state, seat)
            sets = public_sets(seats[seat].public, seats[seat].moment or pytest.fail("no moment"), seat)
            for card_id, mask in zip(view.hands[seat], sets):
                assert mask >> state.deck[card_id] & 1


# ------------------------------------------------------------------ questions and numbers


@pytest.mark.checks("I-radix", "I-answers")
@reaches_assertion()
@settings(max_examples=75, deadline=None)  # 225 more in the deep set (test_properties_at_length)
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
    reached()
    for seat in range(1, state.config.players):
        sets = public_sets(player.public, moment, seat)
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


@pytest.mark.checks("I-radix")
def test_every_number_has_its_own_answers() -> None:
    """[I-radix] brute force: on one hand, the numbers 0..T-1 decode to pairwise different
    public sets or leave a remainder, so no two hands that answer differently share a
    number (the code is injective on answers)."""
    config = make_config(4, "hle")
    state, seats, _ = play_checked(4, "hle", "no-variant", seed=11, stop=6)
    moment = seats[0].moment
    assert moment is not None
    sets = public_sets(seats[0].public, moment, 1)
    seen: dict[tuple[int, ...], int] = {}
    for number in range(12):
        decoded = list(sets)
        if decode(decoded, 12, moment.board, number) == 0:
            key = tuple(decoded)
            assert key not in seen, (number, seen[key])
            seen[key] = number
    assert len(seen) >= 2 and config.players == 4


# ------------------------------------------------------------------ codes


@pytest.mark.checks("I-k-exists")
def test_code_sizes_are_sound() -> None:
    """[I-k, I-k-exists] in every state of real games and for every slot taken as the
    focus, every type of every seat's code has a hint for the seat's actual cards (so
    every number the actor may need is a hint it can give)."""
    for players, preset, variant in CONFIGS[::2]:  # every player count and every variant
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


@pytest.mark.checks("I-k", "I-k-exists")
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
    assert code_size([tables_for(config).all_cards_mask] * 4, 0, board) == 2
    plain = make_config(4, "hanab-live", "6-suits")
    board = Board(plain, (0,) * 6, (0,) * 30, [3, 2, 2, 2, 1] * 6)
    assert code_size([tables_for(plain).all_cards_mask] * 4, 0, board) == 3


# ------------------------------------------------------------------ views and configurations


@reaches_assertion()
@settings(max_examples=40, deadline=None)
@given(setup=st.sampled_from(CONFIGS), seed=st.integers(0, 2**64 - 1), stop=st.integers(0, 40), data=st.data(),
       options=OPTION_SETS)
def test_the_info_strategy_chooses_from_its_view_alone(setup: tuple[int, str, str], seed: int, stop: int,
                                                      data: st.DataObject, options: Options) -> None:
    """[2.17-view, I-public] after observing the same game, the seat to move chooses the
    same action in the state and in any rearrangement of the cards it cannot see (seats of
    `info-source` and of `info`)."""
    state, seats, _ = play_checked(*setup, seed, stop=stop, options=options)
    if state.terminal:
        return
    reached()
    seat = state.current_player
    rearranged = drawn_rearrangement(state, data)
    twin = copy.deepcopy(seats[seat])
    assert seats[seat].act(make_view(state, seat)) == twin.act(make_view(rearranged, seat))


@pytest.mark.checks("I-configs")
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


@pytest.mark.checks("I-answers")
def test_every_hint_carries_a_number_for_every_other_seat() -> None:
    """[I-answers] after a hint, the public sets of every seat but the actor are no larger
    than before (each got its answers), and some got smaller."""
    state, seats, _ = play_checked(4, "hle", "no-variant", seed=5, stop=1)
    assert isinstance(state.history[0].action, Hint)
    narrowed = [card_id for card_id, mask in seats[1].public.limits.items() if mask != -1]
    assert narrowed


# ------------------------------------------------------------------ weights and public sets


@pytest.mark.checks("I-weights")
def test_board_weights_count_the_unrevealed_cards() -> None:
    """[I-weights] in real games: the public weight of an identity is the number of its
    physical cards in the hands and the stack (counted card by card from the state), a
    seat's private weight those in its own hand and the stack, and every probability is
    the share of those physical cards."""
    for players, preset, variant in CONFIGS[::4]:
        state, seats, _ = play_checked(players, preset, variant, seed=players * 13, stop=30)
        view = make_view(state, 0)
        board = Board.of(view)
        unrevealed = [c for hand in state.hands for c in hand] + list(range(state.next_card, len(state.deck)))
        unseen = list(state.hands[0]) + list(range(state.next_card, len(state.deck)))
        size = state.config.values * len(state.config.suits)
        for identity in range(size):
            assert board.weights[identity] == sum(state.deck[c] == identity for c in unrevealed)
        private = private_weights(board, view.cards, 0)
        for identity in range(size):
            assert private[identity] == sum(state.deck[c] == identity for c in unseen)
        mask, event = state.tables.all_cards_mask & 0x5A5A5A5, board.playable
        physical = [state.deck[c] for c in unrevealed if mask >> state.deck[c] & 1]
        assert board.probability(mask, event) == Fraction(sum(event >> x & 1 for x in physical), len(physical))


@pytest.mark.checks("I-weights")
def test_a_seats_board_reader_gives_the_board_of_every_view() -> None:
    """[I-weights] the board a seat reads incrementally equals the board built afresh from
    the view, at every move of real games; a reader moved on to a new game (its discard
    pile shorter) starts over."""
    for players, preset, variant in CONFIGS[1::4]:
        config = make_config(players, preset, variant)
        reader = BoardReader(config)
        for seed in (players, players + 100):
            state = initial_state(config, deck_from_seed(config, seed))
            seats = [InfoPlayer(config, seat) for seat in range(players)]
            while not state.terminal:
                view = make_view(state, 1)
                assert reader.of(view) == Board.of(view), f"seed {seed}, turn {state.turns}"
                state = apply(state, seats[state.current_player].act(make_view(state, state.current_player)))
                for seat, player in enumerate(seats):
                    player.observe(make_view(state, seat), state.history[-1])
            assert state.discard, "the test needs games with discards"


@pytest.mark.checks("I-weights")
def test_ratios_order_exactly_like_fractions() -> None:
    """[I-weights] the float ratios the decisions compare order every pair of fractions
    with small denominators as exact fractions do, equal floats for equal fractions only
    (checked on the whole sorted list: adjacent pairs decide every pair of a total order)."""
    pairs = sorted({(part, whole) for whole in range(1, 61) for part in range(0, 3 * whole + 1)},
                   key=lambda pair: Fraction(*pair))
    for (a, b), (c, d) in zip(pairs, pairs[1:]):
        assert (ratio(a, b) < ratio(c, d)) == (Fraction(a, b) < Fraction(c, d)), (a, b, c, d)
        assert ratio(a, b) <= ratio(c, d)


@pytest.mark.checks("I-weights")
@reaches_assertion()
@settings(max_examples=500, deadline=None)  # 1,500 more in the deep set (test_properties_at_length)
@given(b=st.integers(2, RATIO_BOUND - 1), d=st.integers(2, RATIO_BOUND - 1), scale=st.integers(1, 64))
def test_ratios_order_exactly_up_to_their_bound(b: int, d: int, scale: int) -> None:
    """[I-weights] the same at the bound's hardest: for coprime b and d, the fractions
    a/b and c/d with ad - bc = 1 are as close as two such fractions get (1/bd apart), and
    still compare right; a fraction and its multiple give one float."""
    if math.gcd(b, d) != 1:
        d += 1
    if math.gcd(b, d) != 1 or d >= RATIO_BOUND:
        return
    reached()
    a = pow(d, -1, b)
    c = (a * d - 1) // b
    assert a * d - b * c == 1 and Fraction(a, b) > Fraction(c, d)
    assert ratio(a, b) > ratio(c, d)
    if a * scale < RATIO_BOUND and b * scale < RATIO_BOUND:
        assert ratio(a * scale, b * scale) == ratio(a, b)


@pytest.mark.checks("I-public-hint", "I-public-move")
def test_public_sets_follow_hints_and_moves() -> None:
    """[I-public-hint, I-public-move] in real games: after a hint, each card of the hinted
    seat has a public set inside what the hint says of it (the touched cards inside the
    hint's identities, the others outside, by the variant table); a card that left a hand
    has no entry; a drawn card starts with every identity of positive weight."""
    for players, preset, variant in CONFIGS[1::4]:
        config = make_config(players, preset, variant)
        seats = [InfoPlayer(config, seat) for seat in range(players)]
        state = initial_state(config, deck_from_seed(config, players))
        while not state.terminal:
            state = apply(state, seats[state.current_player].act(make_view(state, state.current_player)))
            event = state.history[-1]
            for seat, player in enumerate(seats):
                player.observe(make_view(state, seat), event)
            moment = seats[0].moment
            assert moment is not None
            if isinstance(event.action, Hint):
                target, hint = event.action.target, event.action
                touched = {identity for identity in range(config.values * len(config.suits))
                           if _touches(config, hint, identity)}
                for card_id, mask in zip(state.hands[target], public_sets(seats[0].public, moment, target)):
                    inside = {identity for identity in range(mask.bit_length()) if mask >> identity & 1}
                    assert inside <= touched if card_id in event.touched else not inside & touched
            else:
                assert event.card_id not in seats[0].public.limits
                if event.drawn is not None:
                    assert seats[0].public.limits.get(event.drawn, -1) == -1
                    slot = state.hands[event.player].index(event.drawn)
                    assert public_sets(seats[0].public, moment, event.player)[slot] == moment.board.live


def _touches(config: GameConfig, hint: Hint, identity: int) -> bool:
    suit, value = suit_and_value(config, identity)
    return value == hint.subject if hint.kind == "value" else suit in colour_suits(config, hint.subject)


# ------------------------------------------------------------------ focus, map, goodness


@pytest.mark.checks("I-focus")
def test_focus_takes_the_least_known_card_oldest_first() -> None:
    """[I-focus] scores by the clause: 0 for a determined or surely dead card, else 1 +
    (suit unknown) + (value unknown); the highest, the oldest on ties."""
    config = make_config(3, "hle")
    board = Board(config, (0,) * 5, (0,) * 25, composition_counts(config))
    r1, r2, y1 = card(config, 1, 0), card(config, 2, 0), card(config, 1, 1)
    determined, one_suit, one_value, blank = 1 << r1, (1 << r1) | (1 << r2), (1 << r1) | (1 << y1), tables_for(config).all_cards_mask
    assert focus([determined, one_suit, one_value, determined], board) == 1  # scores 0, 2, 2, 0
    assert focus([determined, one_suit, blank, blank], board) == 2  # 0, 2, 3, 3
    assert focus([determined, determined], board) == 0  # all 0: slot 0


@pytest.mark.checks("I-hint-map")
def test_every_number_names_one_hint_and_back() -> None:
    """[I-hint-map] in states of real games, for every number s < T the actor's mapping
    gives a hint to the seat whose codes cover s (the seats in turn order after the
    actor), and a seat reading that hint gets s back; the types of one seat are 0..k-1."""
    for players, preset, variant in CONFIGS[::3]:
        state, seats, _ = play_checked(players, preset, variant, seed=players * 3, stop=12)
        actor = state.current_player
        player = seats[actor]
        moment = player.moment
        assert moment is not None
        codes = codes_of(player.public, moment, actor)
        assert [seat for seat, _, _ in codes] == [(actor + i) % players for i in range(1, players)]
        number = 0
        for seat, slot, k in codes:
            hand = [state.deck[c] for c in state.hands[seat]]
            for kind in range(k):
                for hint in hints_of_type(kind, k, seat, hand, slot, state.config):
                    touched = _touches(state.config, hint, hand[slot])
                    before = sum(size for other, _, size in codes[: codes.index((seat, slot, k))])
                    assert before + hint_type(hint, touched, k) == number + kind
            number += k
        assert number == sum(k for _, _, k in codes)


@pytest.mark.checks("I-hint-choice")
def test_goodness_counts_what_a_hint_tells_beyond_its_number() -> None:
    """[I-hint-choice] a hand of two unknown cards, a red 1 and a yellow 2, on a fresh
    board: the red hint leaves the first card among the 10 red cards (of 50) and the
    second among the 40 others; the value hint 2 leaves the second among the 10 twos and
    the first among the 40 others; weights multiply (50/10)(50/40) either way, and no card
    becomes determined: both score 25/4."""
    config = make_config(3, "hle")
    board = Board(config, (0,) * 5, (0,) * 25, composition_counts(config))
    blank = tables_for(config).all_cards_mask
    hand = [card(config, 1, 0), card(config, 2, 1)]
    assert goodness(Hint(1, "colour", 0), [blank, blank], hand, board) == Fraction(50, 10) * Fraction(50, 40)
    assert goodness(Hint(1, "value", 2), [blank, blank], hand, board) == Fraction(50, 10) * Fraction(50, 40)
    r1_or_r2 = (1 << card(config, 1, 0)) | (1 << card(config, 2, 0))
    # a card known red 1 or 2: the value hint 1 makes it determined (3 of 5 copies), doubled
    assert goodness(Hint(1, "value", 1), [r1_or_r2], hand[:1], board) == Fraction(5, 3) * 2


# ------------------------------------------------------------------ decisions, on built hands


def scenario(hands: Sequence[Sequence[tuple[int, int]]], known: dict[tuple[int, int], Sequence[tuple[int, int]]],
             hints: int = 8, players: int = 3) -> tuple[GameState, GameConfig]:
    """A 3-player hle state at turn 0 with these hands ((value, suit) per slot, seat 0
    first), the knowledge of some cards narrowed to the listed identities, and ``hints``
    tokens."""
    config = make_config(players, "hle")
    deck = stacked_deck(config, [pair for hand in hands for pair in hand])
    state = initial_state(config, deck)
    knowledge = [list(row) for row in state.knowledge]
    for (seat, slot), pairs in known.items():
        knowledge[seat][slot] = sum(1 << card(config, v, s) for v, s in pairs)
    return attrs.evolve(state, knowledge=tuple(tuple(row) for row in knowledge), clue_tokens=hints), config


HANDS = [[(2, 0), (3, 1), (4, 2), (4, 3), (5, 4)], [(3, 0), (4, 1), (2, 2), (4, 2), (3, 3)],
         [(2, 1), (3, 2), (2, 3), (5, 0), (4, 4)]]
"""No 1 anywhere: no seat holds a playable card on the fresh board."""


def decide(state: GameState, config: GameConfig) -> object:
    return InfoPlayer(config, 0).act(make_view(state, 0))


@pytest.mark.checks("I-turn")
def test_a_card_known_playable_is_played_by_its_score() -> None:
    """[I-turn] (step 1) two cards known playable, a yellow 1 (another seat holds a yellow 1
    too: score 9/2) and a red 1 (held nowhere else: 9): the red 1 is played though it is
    newer; with no copy elsewhere the tie goes to the oldest."""
    hands = [[(2, 0), (1, 1), (4, 2), (1, 0), (5, 4)], [(1, 1), (4, 1), (2, 2), (4, 2), (3, 3)], HANDS[2]]
    state, config = scenario(hands, {(0, 1): [(1, 1)], (0, 3): [(1, 0)]}, hints=3)
    assert decide(state, config) == Play(3)
    hands[1][0] = (3, 4)
    state, config = scenario(hands, {(0, 1): [(1, 1)], (0, 3): [(1, 0)]}, hints=3)
    assert decide(state, config) == Play(1)


@pytest.mark.checks("I-turn")
def test_hint_when_tokens_are_full_or_someone_needs_one() -> None:
    """[I-turn] (step 3) with all 8 tokens the seat hints; with 3, it hints when another seat
    holds a playable card it does not know, and when that seat knows it (rule (c): a
    playable card is in sight), but not when no playable card is in sight and it knows a
    useless card (it discards: rule (b)), nor with 4 tokens and nothing in sight (rule
    (d) needs more than half the tokens), while with 5 it hints."""
    assert isinstance(decide(*scenario(HANDS, {}, hints=8)), Hint)
    needs = [HANDS[0], [(1, 0), *HANDS[1][1:]], HANDS[2]]
    assert isinstance(decide(*scenario(needs, {}, hints=3)), Hint)
    assert isinstance(decide(*scenario(needs, {(1, 0): [(1, 0)]}, hints=3)), Hint)
    duplicates = [[(2, 0), (3, 1), (4, 2), (3, 1), (5, 4)], HANDS[1], HANDS[2]]
    assert isinstance(decide(*scenario(duplicates, {(0, 1): [(3, 1)], (0, 3): [(3, 1)]}, hints=3)), Discard)
    assert isinstance(decide(*scenario(HANDS, {}, hints=4)), Discard)
    assert isinstance(decide(*scenario(HANDS, {}, hints=5)), Hint)


@pytest.mark.checks("I-useless", "I-useless-hat", "I-no-hint-needed")
def test_useless_cards_and_the_discard_that_carries_answers() -> None:
    """[I-useless, I-useless-hat, I-decode-check, I-no-hint-needed] two cards determined
    as the same identity are both useless; discarding one of two publicly useless cards
    carries a number of modulus 2: the seat discards one of them and every other seat
    decodes its answer as encoded; and, a token being left, each other seat that knows no
    playable card loses the playable identities (every 1 on this board) from all its cards."""
    duplicates = [[(2, 0), (3, 1), (4, 2), (3, 1), (5, 4)], HANDS[1], HANDS[2]]
    state, config = scenario(duplicates, {(0, 1): [(3, 1)], (0, 3): [(3, 1)]}, hints=3)
    assert useless([1 << card(config, 3, 1), 3, 1 << card(config, 3, 1)], Board.of(make_view(state, 0))) == [0, 2]
    log = Log()
    seats = [InfoPlayer(config, seat, log) for seat in range(3)]
    for seat, player in enumerate(seats):  # as if they had watched the game to this state
        player.moment = Moment.of(make_view(state, seat))
    action = seats[0].act(make_view(state, 0))
    assert action in (Discard(1), Discard(3))
    state = apply(state, action)
    for seat, player in enumerate(seats):
        player.observe(make_view(state, seat), state.history[-1])
    assert log.compared == 2
    ones = sum(1 << card(config, 1, suit) for suit in range(5))
    for seat in (1, 2):
        moment = seats[seat].moment
        assert moment is not None
        assert all(mask & ones == 0 for mask in public_sets(seats[seat].public, moment, seat))


@pytest.mark.checks("I-turn")
def test_the_least_valuable_card_is_discarded() -> None:
    """[I-turn] (step 4) nothing useless, 3 tokens, no playable card in sight: the card known to
    be a green 4 whose twin another seat holds (20 for seen elsewhere + 10 dispensable + 4)
    outscores every unknown card, so it is discarded."""
    hands = [[(2, 0), (4, 2), (3, 1), (4, 3), (5, 4)], HANDS[1], HANDS[2]]  # seat 1 holds the other green 4
    assert decide(*scenario(hands, {(0, 1): [(4, 2)]}, hints=3)) == Discard(1)


# ------------------------------------------------------------------ the source's rules


@pytest.mark.checks("I-preset")
def test_the_sources_preset() -> None:
    """[I-preset] ``hanabi-rs``: a game lost by its third error scores its fireworks (1
    here: a red 1 played, then three misplays), where ``hle`` scores 0; hints must touch a
    card and a discard with every token is illegal, as under ``hle``; 2 to 5 players, No
    Variant only."""
    from hanabi_ref.engine.legality import is_legal
    from hanabi_ref.engine.state import score

    top = [(1, 0), (3, 1), (4, 2), (4, 3), (5, 4), (3, 0), (4, 1), (2, 2), (4, 4), (3, 3)]
    finals = {}
    for preset in ("hanabi-rs", "hle"):
        config = make_config(2, preset)
        state = initial_state(config, stacked_deck(config, top))
        assert not is_legal(state, Discard(0))  # 8 tokens
        assert not is_legal(state, Hint(1, "value", 1))  # seat 1 holds no 1
        for action in (Play(0), Play(0), Play(0), Play(1)):  # red 1, then three misplays
            state = apply(state, action)
        assert state.terminal and state.strikes == 3
        finals[preset] = score(state)
    assert finals == {"hanabi-rs": 1, "hle": 0}
    for players, variant in ((6, "no-variant"), (3, "rainbow")):
        with pytest.raises(ConfigError):
            make_config(players, "hanabi-rs", variant)


@pytest.mark.checks("I-turn")
def test_a_risky_play_needs_three_chances_in_four() -> None:
    """[I-turn] (step 2) after a red 1 was played, a card that is a red 1 (dead now) or a
    playable 1 of green, yellow or blue, with no 1 in sight elsewhere, is playable with
    probability 9/11 (3 copies each of three playable 1s against the 2 red 1s left): more
    than 3/4, so it is played; a card that is a red 1 or a green 1 (3/5) is not."""
    hands = [[(1, 0), (2, 0), (1, 2), (4, 3), (5, 4)], HANDS[1], HANDS[2]]
    state, config = scenario(hands, {}, hints=8)
    for action in (Play(0), Hint(2, "value", 2), Hint(1, "value", 3)):
        state = apply(state, action)
    assert state.current_player == 0 and state.fireworks[0] == 1 and state.strikes == 0
    chosen = {name: InfoPlayer(config, 0).act(make_view(narrowed, 0)) for name, narrowed in _risky_states().items()}
    assert chosen["wide"] == Play(1)
    assert chosen["narrow"] != Play(1)


def _risky_states() -> dict[str, GameState]:
    """The states of the risky-play test: seat 0's slot 1 playable with probability 9/11
    ("wide") or 3/5 ("narrow"), else dead."""
    hands = [[(1, 0), (2, 0), (1, 2), (4, 3), (5, 4)], HANDS[1], HANDS[2]]
    state, config = scenario(hands, {}, hints=8)
    for action in (Play(0), Hint(2, "value", 2), Hint(1, "value", 3)):
        state = apply(state, action)
    ones = {"wide": [(1, 0), (1, 2), (1, 1), (1, 3)], "narrow": [(1, 0), (1, 2)]}
    states = {}
    for name, pairs in ones.items():
        knowledge = [list(row) for row in state.knowledge]
        knowledge[0][1] = sum(1 << card(config, v, s) for v, s in pairs)
        states[name] = attrs.evolve(state, knowledge=tuple(tuple(row) for row in knowledge))
    return states


# ------------------------------------------------------------------ our options


STRONG = {"endgame": 2, "dispensable_weight": 100, "critical_hint": 0.1, "risky": 0.6, "hint_above": 3}
"""Every option of I-options away from the source's value."""


@pytest.mark.checks("I-options", "I-strong")
def test_options_default_to_the_source() -> None:
    """[I-options, I-strong] `info-source` defaults to the source's constants (the numbers
    of the source documents: risky plays above 3/4, the discard weight 10, hints above 4 of
    8 tokens), `info` to the best combination of I-strong, and a real parameter is read as
    the fraction of its decimal text."""
    assert options_of(SOURCE_INFO_SPEC.resolve({})) == Options()
    assert Options().risky == Fraction(3, 4) and Options().dispensable_weight == 10 and Options().hint_above == -1
    assert options_of(INFO_SPEC.resolve({})) == Options(endgame=2, dispensable_weight=100,
                                                        critical_hint=Fraction(1, 10))
    chosen = options_of(INFO_SPEC.resolve({key: str(value) for key, value in STRONG.items()}))
    assert chosen == Options(2, 100, Fraction(1, 10), Fraction(3, 5), 3)


@pytest.mark.checks("I-options", "I-strong")
def test_the_two_names_play_the_same_seat_with_their_defaults() -> None:
    """[I-options, I-strong] `info-source` plays the games of `info` with the source's values
    given, and `info` those of `info-source` with the best combination given."""
    config = make_config(3, "hle")
    source = {"endgame": 0, "dispensable_weight": 10, "critical_hint": 1.0}
    strong = {"endgame": 2, "dispensable_weight": 100, "critical_hint": 0.1}
    for seed in range(4):
        pairs = [(factory_for("info", source), factory_for("info-source", {})),
                 (factory_for("info", {}), factory_for("info-source", strong))]
        for one, other in pairs:
            assert play_game(config, one, seed=seed).trace.actions == play_game(config, other, seed=seed).trace.actions


@pytest.mark.checks("I-options", "I-common")
def test_every_number_decodes_with_every_option_on() -> None:
    """[I-options, I-decode-check, I-common] the options change only decisions, never what a
    move tells: with all of them on, every seat decodes the number the actor encoded, in
    games of every player count, and every game ends."""
    options = options_of(INFO_SPEC.resolve(STRONG))
    for players, preset, variant in CONFIGS[::3]:
        for seed in range(3):
            state, _, log = play_checked(players, preset, variant, seed, options=options)
            assert state.terminal and log.compared > 0


def _five_hand() -> tuple[GameState, GameConfig]:
    """Seat 0 knows slot 0 is a red 2 (two copies: dispensable, 10 + 2 by I-turn step 4),
    slot 1 is a blue 5 or a yellow 4 (another seat holds the other yellow 4: 20/2 for seen
    elsewhere + 10/2 dispensable + 4.5 = 19.5, critical with probability 1/2), and its
    other cards are known 5s (5 each); 3 tokens, no playable card anywhere."""
    hands = [[(2, 0), (5, 2), (5, 1), (5, 3), (5, 4)], HANDS[1], HANDS[2]]
    known: dict[tuple[int, int], Sequence[tuple[int, int]]] = {(0, 0): [(2, 0)], (0, 1): [(5, 2), (4, 1)], (0, 2): [(5, 1)], (0, 3): [(5, 3)], (0, 4): [(5, 4)]}
    return scenario(hands, known, hints=3)


def decide_with(state: GameState, config: GameConfig, **params: float) -> object:
    """Seat 0's move with the source's options except ``params``."""
    return InfoPlayer(config, 0, None, options_of(SOURCE_INFO_SPEC.resolve(params))).act(make_view(state, 0))


@pytest.mark.checks("I-discard-weight")
def test_a_heavier_dispensable_weight_keeps_the_possible_five() -> None:
    """[I-discard-weight] by the source's weights the seat discards slot 1 (19.5 against 12),
    a blue 5 half the time; with weight 100 the sure red 2 scores 102 against 64.5, so it
    goes instead."""
    state, config = _five_hand()
    assert decide_with(state, config) == Discard(1)
    assert decide_with(state, config, dispensable_weight=100.0) == Discard(0)


@pytest.mark.checks("I-critical-hint")
def test_a_likely_critical_discard_becomes_a_hint() -> None:
    """[I-critical-hint] the card the seat would discard is critical with probability 1/2:
    above a bound of 1/10 (or 0.49) the seat hints instead, a token being left; at or below
    the bound 1/2, or with no token, it discards as before."""
    state, config = _five_hand()
    assert isinstance(decide_with(state, config, critical_hint=0.1), Hint)
    assert isinstance(decide_with(state, config, critical_hint=0.49), Hint)
    assert decide_with(state, config, critical_hint=0.5) == Discard(1)


@pytest.mark.checks("I-risky")
def test_the_risky_bound_is_an_option() -> None:
    """[I-risky] the bound of a risky play is strict: the 3/5 card is played with a bound
    of 0.5 but not of 0.6 (nor the source's 3/4), the 9/11 card not with a bound of 0.85."""
    states = _risky_states()
    narrow, wide = states["narrow"], states["wide"]
    assert decide_with(narrow, narrow.config, risky=0.5) == Play(1)
    assert decide_with(narrow, narrow.config, risky=0.6) != Play(1)
    assert decide_with(wide, wide.config, risky=0.8) == Play(1)
    assert decide_with(wide, wide.config, risky=0.85) != Play(1)


@pytest.mark.checks("I-hint-above")
def test_the_token_bound_of_the_last_hint_rule_is_an_option() -> None:
    """[I-hint-above] with nothing playable in sight and no card known useless, the seat
    hints when more tokens than the bound are left: 4 tokens discard by the source's bound
    (half of 8) but hint with a bound of 3; 5 tokens hint by the source's bound but discard
    with a bound of 5."""
    four, config = scenario(HANDS, {}, hints=4)
    five, _ = scenario(HANDS, {}, hints=5)
    assert isinstance(decide_with(four, config), Discard)
    assert isinstance(decide_with(four, config, hint_above=3), Hint)
    assert isinstance(decide_with(five, config), Hint)
    assert isinstance(decide_with(five, config, hint_above=5), Discard)


def _last_round_states(players: int, seeds: range) -> list[GameState]:
    """The states of default games after their stack ran out, with a token left and at
    most one error made."""
    found = []
    for seed in seeds:
        state, _, _ = play_checked(players, "hle", "no-variant", seed)
        config = make_config(players, "hle")
        replay = initial_state(config, state.deck)
        for event in state.history:
            if deck_size(replay) == 0 and replay.strikes <= 1 and not replay.terminal:
                found.append(replay)
            replay = apply(replay, event.action)
    return found


def test_the_last_round_plays_the_likeliest_card() -> None:
    """[I-endgame] with the stack empty and two errors left, a seat with endgame=1 that
    does not play a known card plays one it may hold playable, which the source's seat does
    not always do; with endgame=2 it hints instead when a seat still to act holds a playable
    card it does not know (a token being left), and otherwise acts as with endgame=1."""
    changed = 0
    for state in _last_round_states(4, range(30)):
        seat, config = state.current_player, state.config
        view = make_view(state, seat)
        default = InfoPlayer(config, seat).act(view)
        first = InfoPlayer(config, seat, None, Options(endgame=1)).act(view)
        second = InfoPlayer(config, seat, None, Options(endgame=2)).act(view)
        assert isinstance(first, Play) or not isinstance(default, Play)
        changed += first != default
        later = [(seat + offset) % config.players for offset in range(1, (state.remaining or 1))]
        needs = any(any(state.deck[card_id] in _playable(state) for card_id in state.hands[other])
                    for other in later)
        if second != first:
            assert isinstance(second, Hint) and needs and state.clue_tokens > 0
    assert changed > 0


def _playable(state: GameState) -> set[int]:
    config = state.config
    return {card(config, height + 1, suit) for suit, height in enumerate(state.fireworks) if height < config.values}


@pytest.mark.deep
@pytest.mark.parametrize("test", [test_decoding_undoes_encoding, test_ratios_order_exactly_up_to_their_bound],
                         ids=lambda test: test.__name__.removeprefix("test_"))
def test_properties_at_length(test: Any) -> None:
    """Each property test above, three more runs."""
    for _ in range(3):
        test()
