"""Clauses of the information strategy (spec/info.md) checked from their text: what each
type of a hint code is (I-hint-map), which question the chooser asks (I-questions), the
mixed-radix number that carries the answers (I-radix), which cards are useless
(I-useless), the decoding check that stops a game whose decoding went wrong
(I-decode-check), and the last round's gamble (I-endgame).

Expected questions and buckets are worked out by hand from the clause on built public
sets (the weights of the deck 3, 2, 2, 2, 1 per suit); the hints of a type are listed
here by trying every hint with touch sets from spec/rules.md section 6
(tests.helpers.colour_suits); the radix is computed here digit by digit from the
clause's formulas; the chances of the last round are counted here from the state's
copies.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from hanabi_ref.engine.actions import Hint
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.base.errors import HanabiError
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState
from hanabi_ref.players.strategies import info as info_package
from hanabi_ref.players.strategies.info import reading
from hanabi_ref.players.strategies.info.codes import hint_type, hints_of_type
from hanabi_ref.players.strategies.info.knowledge import Board, Weights
from hanabi_ref.engine.actions import Play
from hanabi_ref.players.strategies.info.decisions import Options
from hanabi_ref.players.strategies.info.player import InfoPlayer, Log
from hanabi_ref.players.strategies.info.questions import FirstYes, IsPlayable, Partition, choose, decode, encode
from hanabi_ref.players.strategies.info.reading import InfoError, public_sets, useless
from hanabi_ref.players.strategies.knowledge import composition_counts
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import make_view
from tests.helpers import card, colour_suits, suit_and_value
from tests.test_info import CONFIGS, play_checked
from hanabi_ref.engine.tables import tables_for

HLE = make_config(3, "hle")
RED, YELLOW, GREEN, BLUE, PURPLE = range(5)


def ids(*cards: tuple[int, int]) -> int:
    """The set of the identities (value, suit)."""
    return sum(1 << card(HLE, value, suit) for value, suit in cards)


def board(fields: dict[int, int] | None = None) -> Board:
    """The board of a game of hle whose fields are ``fields`` (nothing discarded): each
    card played leaves one public weight fewer."""
    heights = [0] * 5
    for suit, height in (fields or {}).items():
        heights[suit] = height
    weights = list(composition_counts(HLE))
    for suit, height in enumerate(heights):
        for value in range(1, height + 1):
            weights[card(HLE, value, suit)] -= 1
    return Board(HLE, tuple(heights), (0,) * 25, weights)


PLAYABLE = board().playable


# ------------------------------------------------------------------ I-questions


@pytest.mark.checks("I-questions")
def test_first_yes_asks_the_likeliest_cards_from_least_to_most_likely() -> None:
    """[I-questions] step 1, fresh board, no card surely playable: "playable?" of each
    card that may be (slot 0 unknown 15/50, slot 1 red 1 or 2 3/5, slot 3 yellow 1-3
    3/7; slot 2 cannot be); with room 10 all three, least likely first; with room 3 only
    S - 1 = 2, the likeliest kept; answer j says the j-th is the first yes."""
    sets = [tables_for(HLE).all_cards_mask, ids((1, RED), (2, RED)), ids((2, RED), (3, RED)), ids((1, YELLOW), (2, YELLOW), (3, YELLOW))]
    wide = choose(sets, 10, board())
    assert isinstance(wide, FirstYes) and wide.items == ((0, PLAYABLE), (3, PLAYABLE), (1, PLAYABLE))
    assert wide.answers == 4
    narrow = choose(sets, 3, board())
    assert isinstance(narrow, FirstYes) and narrow.items == ((3, PLAYABLE), (1, PLAYABLE))
    y1, y2, r1, r2 = (card(HLE, v, s) for v, s in ((1, YELLOW), (2, YELLOW), (1, RED), (2, RED)))
    assert [narrow.answer([0, hand[0], 0, hand[1]]) for hand in ((r1, y1), (r1, y2), (r2, y2))] == [1, 2, 0]
    after = list(sets)
    narrow.apply(after, 2)
    assert after[3] == sets[3] & ~PLAYABLE and after[1] == sets[1] & PLAYABLE


@pytest.mark.checks("I-questions")
def test_first_yes_asks_dead_after_playable() -> None:
    """[I-questions] step 1 with red at 1 (the red 1s left dead): slot 0 red 1 or 2 is
    playable 1/2 and dead 1/2, slot 1 red 1 or yellow 1 playable 3/5 and dead 2/5, slot 2
    neither; "playable?" items first, then "dead?", each from least to most likely; with
    room 4 the three kept are both "playable?" and the likelier "dead?"."""
    fields = board({RED: 1})
    playable, dead = fields.playable, fields.dead
    sets = [ids((1, RED), (2, RED)), ids((1, RED), (1, YELLOW)), ids((3, GREEN), (4, GREEN))]
    wide = choose(sets, 10, fields)
    assert isinstance(wide, FirstYes) and wide.items == ((0, playable), (1, playable), (1, dead), (0, dead))
    narrow = choose(sets, 4, fields)
    assert isinstance(narrow, FirstYes) and narrow.items == ((0, playable), (1, playable), (0, dead))


@pytest.mark.checks("I-questions")
def test_probably_playable_asks_the_card_nearest_seven_in_ten() -> None:
    """[I-questions] step 2, slot 0 surely playable: of the cards playable with
    probability in [1/2, 9/10], slot 3 (blue 1 or purple 5: 3/4) is nearest 7/10, before
    slot 1 (3/5) and slot 2 (1/2); slot 4 (1/3) is out of the range.  When slot 1 (3/5)
    and slot 2 (4/5) are both 1/10 from it, the oldest: slot 1."""
    sets = [ids((1, YELLOW)), ids((1, RED), (2, RED)), ids((1, GREEN), (2, GREEN), (5, BLUE)),
            ids((1, BLUE), (5, PURPLE)), ids((1, PURPLE), (2, PURPLE), (3, PURPLE), (2, BLUE))]
    question = choose(sets, 10, board())
    assert isinstance(question, IsPlayable) and question.slot == 3
    tied = [ids((1, YELLOW)), ids((1, RED), (2, RED)),
            ids((1, RED), (1, GREEN), (1, BLUE), (1, PURPLE), (2, GREEN), (5, GREEN)), ids((3, BLUE), (4, BLUE))]
    question = choose(tied, 10, board())
    assert isinstance(question, IsPlayable) and question.slot == 1


@pytest.mark.checks("I-questions")
def test_the_partition_deals_live_identities_in_the_sources_order() -> None:
    """[I-questions] step 3, slot 0 surely playable, slot 1 (a red 1, dead on red at 1,
    or a red 3, green 2, blue 4, purple 2, yellow 3) playable with probability 0: its
    live identities in the source's order (blue, green, red, purple, yellow) go to buckets
    in turn, S - 1 of them when a dead identity is possible, the dead one last: room 4,
    {b4, p2}, {g2, y3}, {r3}, {r1}; room 10, one bucket each.  Step 4: every card known,
    no question."""
    fields = board({RED: 1})
    sets = [ids((1, YELLOW)), ids((1, RED), (3, RED), (2, GREEN), (4, BLUE), (2, PURPLE), (3, YELLOW))]
    question = choose(sets, 4, fields)
    assert isinstance(question, Partition) and question.slot == 1
    assert question.buckets == (ids((4, BLUE), (2, PURPLE)), ids((2, GREEN), (3, YELLOW)), ids((3, RED)), ids((1, RED)))
    question = choose(sets, 10, fields)
    assert isinstance(question, Partition)
    assert question.buckets == tuple(ids(one) for one in ((4, BLUE), (2, GREEN), (3, RED), (2, PURPLE), (3, YELLOW), (1, RED)))
    assert choose([ids((1, YELLOW)), ids((4, BLUE))], 10, fields) is None


# ------------------------------------------------------------------ I-radix


def radix_encode(sets: list[int], total: int, fields: Board, hand: list[int]) -> int:
    """I-radix written out: v = x1 + a1 x2 + a1 a2 x3 + ..., S1 = T and
    S_{j+1} = floor((S_j - 1 - x_j) / a_j) + 1, questions asked while S_j >= 2."""
    room, scale, number = total, 1, 0
    while room >= 2:
        question = choose(sets, room, fields)
        if question is None:
            break
        assert 2 <= question.answers <= room
        answer = question.answer(hand)
        question.apply(sets, answer)
        number += scale * answer
        room = (room - 1 - answer) // question.answers + 1
        scale *= question.answers
    return number


def radix_decode(sets: list[int], total: int, fields: Board, number: int) -> None:
    """The decoder of I-radix: x_j = v mod a_j, then v := floor(v / a_j)."""
    room = total
    while room >= 2:
        question = choose(sets, room, fields)
        if question is None:
            break
        answer = number % question.answers
        number //= question.answers
        question.apply(sets, answer)
        room = (room - 1 - answer) // question.answers + 1
    assert number == 0


@pytest.mark.checks("I-radix")
def test_the_number_is_the_mixed_radix_of_the_answers() -> None:
    """[I-radix] for every other seat's hand in states of real games and every room T
    from 2 to 16: the number that carries the answers is the mixed-radix number of the
    clause, and decoding it leaves the public sets the answers leave."""
    compared = 0
    for players, preset, variant in CONFIGS[::3]:
        for turn in (3, 11, 23):
            state, seats, _ = play_checked(players, preset, variant, seed=turn + players, stop=turn)
            moment = seats[0].moment
            if moment is None:
                continue
            for seat in range(1, players):
                hand: list[int] = [state.deck[c] for c in state.hands[seat]]
                for total in range(2, 17):
                    ours = public_sets(seats[0].public, moment, seat)
                    number = radix_encode(ours, total, moment.board, hand)
                    theirs = public_sets(seats[0].public, moment, seat)
                    assert encode(theirs, total, moment.board, hand) == number and theirs == ours
                    read = public_sets(seats[0].public, moment, seat)
                    radix_decode(read, total, moment.board, number)
                    assert read == ours
                    compared += 1
    assert compared > 500


# ------------------------------------------------------------------ I-hint-map


def touches(config: GameConfig, hint: Hint, identity: int) -> bool:
    suit, value = suit_and_value(config, identity)
    return value == hint.subject if hint.kind == "value" else suit in colour_suits(config, hint.subject)


@pytest.mark.checks("I-hint-map")
@pytest.mark.parametrize("variant", ("no-variant", "rainbow", "black"))
def test_each_type_is_the_hint_the_clause_names(variant: str) -> None:
    """[I-hint-map] for hands of real deals, every focus slot and k = 2, 3, 4: type 0 is
    the value hint of the focus card's value; type 1 the first colour in catalogue order
    that touches it; with k = 3 type 2 every legal hint (touching a card) that leaves it
    untouched; with k = 4 type 2 those of them that are value hints and type 3 the
    colour hints.  Every legal hint is read back as its type."""
    config = make_config(4, "hanab-live", variant)
    colours = [Hint(1, "colour", c) for c in range(len(config.colours))]
    values = [Hint(1, "value", v) for v in range(1, config.values + 1)]
    checked = 0
    for seed in range(12):
        deck = deck_from_seed(config, seed)
        hand = [deck[c] for c in initial_state(config, deck).hands[1]]
        for slot, focus in enumerate(hand):
            legal = [h for h in colours + values if any(touches(config, h, x) for x in hand)]
            avoiding = [h for h in legal if not touches(config, h, focus)]
            first_colour = next(h for h in colours if touches(config, h, focus))
            expected = {
                (0, 2): [Hint(1, "value", suit_and_value(config, focus)[1])], (1, 2): [first_colour],
                (2, 3): avoiding,
                (2, 4): [h for h in avoiding if h.kind == "value"], (3, 4): [h for h in avoiding if h.kind == "colour"],
            }
            for k in (2, 3, 4):
                for kind in range(k):
                    wanted = expected[(kind, k)] if (kind, k) in expected else expected[(kind, 2)]
                    assert sorted(hints_of_type(kind, k, 1, hand, slot, config), key=repr) == sorted(wanted, key=repr)
                for hint in legal:
                    on_focus = touches(config, hint, focus)
                    if on_focus:
                        assert hint_type(hint, True, k) == (0 if hint.kind == "value" else 1)
                    elif k == 3:
                        assert hint_type(hint, False, k) == 2
                    elif k == 4:
                        assert hint_type(hint, False, k) == (2 if hint.kind == "value" else 3)
                checked += 1
    assert checked > 100


# ------------------------------------------------------------------ I-useless, I-decode-check


@pytest.mark.checks("I-useless")
def test_a_card_surely_dead_is_useless_and_a_single_determined_card_is_not() -> None:
    """[I-useless] red at 2: a card that is a red 1 or a red 2 is surely dead, so useless;
    a card determined as the yellow 3, alone of its identity in the hand, is not; two
    determined as the yellow 3 are both useless; a card that may be the red 3 is not."""
    fields = board({RED: 2})
    dead, y3, maybe = ids((1, RED), (2, RED)), ids((3, YELLOW)), ids((2, RED), (3, RED))
    assert useless([y3, dead, maybe], fields) == [1]
    assert useless([y3, maybe, y3], fields) == [0, 2]


@pytest.mark.checks("I-decode-check")
def test_a_decoding_that_goes_wrong_stops_the_game_naming_turn_and_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    """[I-decode-check] with the shared log, a seat whose decoding is made to go wrong
    (it counts one more for another seat's answers) stops the game at the first hint with
    a HanabiError naming the turn, the seat, what it decoded and what was encoded; the
    same game decodes cleanly without the fault."""
    config = make_config(3, "hle")
    state, _, log = play_checked(3, "hle", "no-variant", seed=4, stop=12)
    assert log.compared > 0
    real = reading.answer

    def one_more(*args: Any) -> tuple[int, reading.Restriction]:
        number, restriction = real(*args)
        return number + 1, restriction

    monkeypatch.setattr(reading, "answer", one_more)
    log = Log()
    seats = [InfoPlayer(config, seat, log) for seat in range(3)]
    state = initial_state(config, deck_from_seed(config, 4))
    with pytest.raises(InfoError) as caught:
        while not state.terminal:
            state = apply(state, seats[state.current_player].act(make_view(state, state.current_player)))
            for seat, player in enumerate(seats):
                player.observe(make_view(state, seat), state.history[-1])
    assert isinstance(caught.value, HanabiError) and info_package.InfoError is InfoError
    first_hint = next(event for event in state.history if isinstance(event.action, Hint))
    assert state.history[-1] is first_hint  # the first hint stopped the game
    first_to_read = min(seat for seat in range(3) if seat != first_hint.player)
    assert str(caught.value).startswith(f"I-decode-check: seat {first_to_read} decoded ")
    first_hint_turn = first_hint.turn
    assert f"from the move of turn {first_hint_turn}, which encoded " in str(caught.value)


# ------------------------------------------------------------------ I-endgame


def private_chance(state: GameState, seat: int, mask: int) -> Fraction:
    """[I-weights] the private probability that a card of set ``mask`` is playable: each
    identity weighs its copies neither played nor discarded nor seen in another hand."""
    config = state.config
    weights = list(composition_counts(config))
    for card in [state.deck[c] for c in state.discard]:
        weights[card] -= 1
    for suit, height in enumerate(state.fireworks):
        for value in range(height):
            weights[suit * config.values + value] -= 1
    for other, cards in enumerate(state.hands):
        if other != seat:
            for card_id in cards:
                weights[state.deck[card_id]] = max(weights[state.deck[card_id]] - 1, 0)
    playable = {suit * config.values + height for suit, height in enumerate(state.fireworks) if height < config.values}
    whole = sum(weights[x] for x in range(len(weights)) if mask >> x & 1)
    return Fraction(sum(weights[x] for x in playable if mask >> x & 1), whole) if whole else Fraction(0)


@pytest.mark.checks("I-endgame")
def test_the_last_round_plays_the_card_most_likely_playable() -> None:
    """[I-endgame] with the stack empty and two errors to spare, a seat with nothing sure
    to play plays under endgame=1 its card most likely playable by private probability
    (the oldest on ties) when that is above 0, else moves as the source's seat; under
    endgame=2 it does the same unless a token is left and a seat still to act holds a
    playable card it does not know playable by public knowledge, when it moves as the
    source's seat.  Gambles with both options and a hint kept for such a seat occur."""
    from tests.test_info import _last_round_states

    seen: Counter[str] = Counter()
    for state in _last_round_states(3, range(40)):
        config, seat = state.config, state.current_player
        view = make_view(state, seat)
        source = InfoPlayer(config, seat).act(view)
        player = InfoPlayer(config, seat, None, Options(endgame=1))
        turn = player.read_turn(view)
        moment, own = turn.moment, turn.own
        chances = [private_chance(state, seat, mask) for mask in own]
        sure = any(chance == 1 for chance in chances)
        gamble = None if sure or max(chances) == 0 else Play(chances.index(max(chances)))
        assert player.act(view) == (gamble or source), state.turns
        later = [(seat + offset) % config.players for offset in range(1, state.remaining or 1)]
        needs = state.clue_tokens > 0 and any(
            any(moment.board.playable >> state.deck[c] & 1 for c in state.hands[other])
            and not any(moment.board.surely(mask, moment.board.playable) for mask in public_sets(player.public, moment, other))
            for other in later)
        second = InfoPlayer(config, seat, None, Options(endgame=2)).act(view)
        assert second == (source if needs else gamble or source), state.turns
        seen["gamble"] += gamble is not None and gamble != source
        seen["kept for a hint"] += gamble is not None and needs
    assert seen["gamble"] and seen["kept for a hint"], seen


@pytest.mark.checks("I-weights")
@pytest.mark.parametrize("counts", [(), (0, 0), (1, 0, 2, 3, 1), (3, 3, 3), (0, 5, 1, 9, 2, 17), (4,), (1,) * 25,
                                    (2, 0, 1) * 9])
def test_weights_sum_like_counting_every_identity(counts: tuple[int, ...]) -> None:
    """The weight of a mask is the sum of its identities' counts, for every mask of up to
    six identities (an independent sum) and weights of every size (bit planes)."""
    weights = Weights(counts)
    assert weights.positive == sum(1 << card for card, count in enumerate(counts) if count > 0)
    for mask in range(1 << min(len(counts), 6)):
        assert weights.total(mask) == sum(counts[card] for card in range(len(counts)) if mask >> card & 1)
    whole = (1 << len(counts)) - 1
    assert weights.total(whole) == sum(counts)
    with pytest.raises(ValueError, match="I-weights"):
        Weights(counts + (-1,))
