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

from hanabi_ref.engine.actions import Hint
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.players.strategies import factory_for
from hanabi_ref.players.strategies.hat import reclue_rules as rules
from hanabi_ref.players.strategies.hat.player import DecodeLog, HatDecodingError, reachable_score, snapshot_of
from hanabi_ref.players.strategies.hat.reclue import ReclueHatPlayer
from hanabi_ref.players.strategies.hat.reclue_rules import CardFacts, ModifiedSeat, Round, card_facts, hat_numbers
from hanabi_ref.players.strategies.hat.values import CLUE, DISCARD, PLAY, HatValue
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import PlayerView, make_view
from tests.helpers import HAT_CONFIGS, card


@pytest.mark.checks("H-reclue-decode", "H-reclue-infer")
@pytest.mark.parametrize(("players", "preset", "variant"), HAT_CONFIGS)
@settings(max_examples=10, deadline=None)  # 150 more per configuration in the deep set, below
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


@pytest.mark.checks("H-reclue-decode")
@pytest.mark.deep
@pytest.mark.parametrize(("players", "preset", "variant"), HAT_CONFIGS)
def test_every_seat_resolves_every_value_the_cluer_encoded_at_length(players: int, preset: str, variant: str) -> None:
    """[H-reclue-decode] the property above, fifteen more runs (150 games per configuration)."""
    for _ in range(15):
        test_every_seat_resolves_every_value_the_cluer_encoded(players=players, preset=preset, variant=variant)


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


@pytest.mark.checks("H-decode-check")
def test_check_mode_stops_a_game_whose_inference_goes_wrong(monkeypatch: pytest.MonkeyPatch) -> None:
    """[H-decode-check] a seat that infers another value than encoded (here an inference
    made to answer "clue" always) stops the game with HatDecodingError."""
    config = make_config(4, "hanab-live", "no-variant")
    assert play_game(config, factory_for("hat", {"check": "1"}), seed=3).final.terminal
    monkeypatch.setattr(rules, "inferred_value", lambda facts, clue, seat: HatValue.CLUE)
    with pytest.raises(HatDecodingError, match="H-decode-check"):
        play_game(config, factory_for("hat", {"check": "1"}), seed=3)


@pytest.mark.checks("H-reclue-pins", "H-reclue-standard", "H-reclue-infer")
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
    facts = card_facts(config)  # what Emily (seat 4) reads of the configuration
    hands: dict[int, tuple[int | None, ...]] = {
        0: (b4, g3, w4, y4), 1: (g3, b4, w4, y4), 2: (y2, r1, b4, w4), 3: (g3, r2, g3, b4), 4: (None,) * 4,
    }

    alice = Round(0, 0, (1, 2, 3, 4), 0, view, {seat: [] for seat in (1, 2, 3, 4)})
    alice.hands = [hands[seat] for seat in range(5)]
    alice.set_pins(rules.pins_of(facts, alice))
    assert alice.modified == 1 and alice.progress == (0,) * 5
    assert rules.wanted_slots(facts, alice, 3, hands[3]) == []  # r2 is not next in Alice's clue
    assert rules.standard_action(facts, alice, 2, hands[2], set()) == PLAY + 1  # Bob: r1
    assert rules.standard_action(facts, alice, 3, hands[3], set()) == DISCARD + 0  # Donald: the lower of two g3
    alice.values = {1: HatValue.CLUE, 2: HatValue.PLAY_1, 3: HatValue.DISCARD_0, 4: HatValue.DISCARD_0}

    cathy = Round(1, 1, (2, 3, 4, 0), 0, view, {2: [alice], 3: [alice], 4: [alice], 0: []})
    cathy.hands = [hands[seat] for seat in range(5)]
    cathy.set_pins(rules.pins_of(facts, cathy))
    assert cathy.pins == {2: PLAY + 1} and cathy.modified == 3
    assert cathy.progress[0] == 1  # r1 pinned to Bob
    assert rules.wanted_slots(facts, cathy, 3, hands[3]) == [1]  # Donald now wants r2: Bob plays r1 first
    assert rules.standard_action(facts, cathy, 3, hands[3], set()) == PLAY + 1

    alice.acted[3] = (HatValue.PLAY_1, hands[3])  # Donald plays r2 on Cathy's clue
    assert rules.inferred_value(facts, alice, 3) == DISCARD + 0


@pytest.mark.checks("H-configs")
def test_the_refused_configurations_name_what_is_supported() -> None:
    """[H-reclue, H-configs] 3 players are refused when the seat is built."""
    with pytest.raises(ConfigError, match="supports 4 or 5 players"):
        ReclueHatPlayer(make_config(3, "hanab-live", "no-variant"), 0)


@pytest.mark.checks("H-values")
def test_the_hat_values_are_the_nine_values_of_h_values() -> None:
    """[H-values] 0-3 play slot 0-3, 4-7 discard slot 0-3, 8 gives a clue; the members
    are those integers, both ways, and the integers are the player module's codes."""
    for slot in range(4):
        assert HatValue.play(slot) == slot == PLAY + slot and HatValue.play(slot).is_play
        assert HatValue.discard(slot) == 4 + slot == DISCARD + slot and HatValue.discard(slot).is_discard
        assert HatValue.play(slot).slot == HatValue.discard(slot).slot == slot
    assert int(HatValue.CLUE) == 8 == CLUE and not HatValue.CLUE.is_play and not HatValue.CLUE.is_discard
    assert [HatValue.from_number(number) for number in range(9)] == list(HatValue)
    numbers = hat_numbers({1: HatValue.CLUE, 2: HatValue.DISCARD_3})
    assert numbers == {1: 8, 2: 7} and all(type(number) is int for number in numbers.values())


# ------------------------------------------------------------------ H-reclue-modified
# Seat 0 clues seats 1-4 of a 5-player game at the start (no card played or discarded,
# 30 cards in the stack, so there is no endgame) after ``8 - tokens`` hints; the hands
# are set as the source's example sets them.  Suit s rank v is written (v, s).

FIVE = make_config(5, "hanab-live", "no-variant")
OTHERS = (1, 2, 3, 4)
NOTHING_TO_DO = ((2, 1), (3, 2), (4, 3), (5, 4))
"""A hand with no playable, useless or repeated card: its seat clues."""


def hand(*cards: tuple[int, int]) -> tuple[int | None, ...]:
    return tuple(card(FIVE, value, suit) for value, suit in cards)


def view_with_tokens(tokens: int) -> PlayerView:
    """Seat 0's view after the first legal hints of a seeded game leave ``tokens``."""
    state = initial_state(FIVE, deck_from_seed(FIVE, 0))
    while state.clue_tokens > tokens:
        state = apply(state, next(action for action in legal_actions(state) if isinstance(action, Hint)))
    return make_view(state, 0)


def modified_seat(
    hands: dict[int, tuple[int | None, ...]], tokens: int = 8, pins: dict[int, HatValue] | None = None
) -> tuple[CardFacts, ModifiedSeat]:
    """Seat 0's draft of a clue to seats 1-4 holding ``hands``: the pins of an earlier
    clue (by seat 4, every pinned seat told to play), the standard values of the free
    seats after the modified one, and what H-reclue-modified reads."""
    view = view_with_tokens(tokens)
    facts = card_facts(FIVE)
    earlier = Round(view.turns, 4, (0, 1, 2, 3), 0, view, {seat: [] for seat in (0, 1, 2, 3)})
    earlier.values, earlier.modified = dict(pins or {}), 0
    clue = Round(view.turns, 0, OTHERS, 0, view, {seat: [earlier] if seat in (pins or {}) else [] for seat in OTHERS})
    clue.hands = [(None,) * 4] + [hands[seat] for seat in OTHERS]
    clue.set_pins(rules.pins_of(facts, clue))
    values = dict(clue.pins)
    values.update(rules.standard_values(facts, clue, [seat for seat in OTHERS if seat not in values and seat != clue.modified]))
    now = snapshot_of(view)
    endgame = reachable_score(FIVE, now) - sum(now.fields) - now.stack
    return facts, rules.modified_seat(facts, clue, values, now, endgame)


def modified_value(hands: dict[int, tuple[int | None, ...]], tokens: int = 8, pins: dict[int, HatValue] | None = None) -> HatValue:
    facts, seat = modified_seat(hands, tokens, pins)
    return rules.modified_action(facts, seat)


@pytest.mark.checks("H-reclue-modified")
def test_rule_1_a_modified_seat_short_of_tokens_discards_rather_than_play() -> None:
    """[H-reclue-modified rule 1] seat 1 may play (1, 0); with T = 1 and seats 2-4 all
    cluing (F = L = -2), it discards the lower of its two (2, 2) (its expected action)
    instead; with T = 7 the tokens do not run short and it plays."""
    hands = {1: hand((1, 0), (2, 2), (2, 2), (3, 3)), 2: hand(*NOTHING_TO_DO), 3: hand(*NOTHING_TO_DO), 4: hand(*NOTHING_TO_DO)}
    facts, seat = modified_seat(hands, tokens=2)
    assert (seat.standard, seat.tokens, seat.final_tokens, seat.least_tokens) == (HatValue.PLAY_0, 1, -2, -2)
    assert rules.modified_action(facts, seat) == HatValue.DISCARD_1
    assert modified_value(hands) == HatValue.PLAY_0


@pytest.mark.checks("H-reclue-modified")
def test_rule_2_a_modified_seat_clues_when_every_token_is_there() -> None:
    """[H-reclue-modified rule 2] seat 1 is told to discard one of two equal cards; with
    T at all 8 tokens it clues instead (with T = 7, rule 7 keeps the discard)."""
    hands = {1: hand((3, 1), (3, 1), (2, 2), (4, 3)), 2: hand(*NOTHING_TO_DO), 3: hand(*NOTHING_TO_DO), 4: hand(*NOTHING_TO_DO)}
    facts, seat = modified_seat(hands)
    assert seat.standard == HatValue.DISCARD_0 and rules.modified_action(facts, seat) == HatValue.DISCARD_0
    assert rules.modified_action(facts, _with_tokens(seat, FIVE.max_hints)) == HatValue.CLUE


@pytest.mark.checks("H-reclue-modified")
def test_rule_3_a_clue_becomes_the_discard_of_a_card_seen_elsewhere() -> None:
    """[H-reclue-modified rules 3 and 7] seat 1 would clue; it discards instead its
    (1, 0) that seat 2 plays in this clue, else its (4, 3) that seat 3 holds."""
    unseen = hand((2, 1), (3, 2), (5, 4), (4, 0))
    others = {3: hand((4, 3), (2, 1), (3, 2), (5, 4)), 4: unseen}
    played = {1: hand((3, 1), (4, 3), (1, 0), (2, 4)), 2: hand((1, 0), (2, 1), (3, 2), (5, 2)), **others}
    assert modified_value(played) == HatValue.DISCARD_2
    seen = {1: hand((3, 1), (4, 3), (4, 2), (2, 4)), 2: unseen, **others}
    assert modified_value(seen) == HatValue.DISCARD_1


@pytest.mark.checks("H-reclue-modified")
def test_rule_4_a_modified_seat_short_of_tokens_discards_the_least_bad_card() -> None:
    """[H-reclue-modified rule 4] seat 1 would clue with T = 1 and three seats cluing
    after it: it discards its highest card, not a five, of which no copy is discarded,
    (4, 1) in slot 1. Holding only fives it clues, but with T = 0 it discards the
    highest card (the lowest slot of equal ranks)."""
    later = {2: hand(*NOTHING_TO_DO), 3: hand(*NOTHING_TO_DO), 4: hand(*NOTHING_TO_DO)}
    assert modified_value({1: hand((3, 0), (4, 1), (2, 3), (3, 4)), **later}, tokens=2) == HatValue.DISCARD_1
    fives = hand((5, 0), (5, 1), (5, 2), (5, 3))
    assert modified_value({1: fives, **later}, tokens=2) == HatValue.CLUE
    assert modified_value({1: fives, **later}, tokens=1) == HatValue.DISCARD_0


@pytest.mark.checks("H-reclue-modified")
def test_rule_5_a_modified_seat_clues_when_every_other_seat_plays() -> None:
    """[H-reclue-modified rule 5] seat 1 is pinned to play (1, 0), so seat 2 is the
    modified seat; seats 3 and 4 play (2, 0) and (1, 2): every other clued seat plays
    and seat 2 clues although told to discard. If seat 4 does not play, rule 7 keeps
    the discard."""
    pins = {1: HatValue.PLAY_0}
    hands = {
        1: hand((1, 0), (2, 1), (3, 2), (4, 3)),
        2: hand((3, 3), (3, 3), (2, 4), (4, 1)),
        3: hand((2, 0), (3, 1), (4, 2), (5, 3)),
        4: hand((1, 2), (4, 4), (3, 1), (5, 1)),
    }
    facts, seat = modified_seat(hands, pins=pins)
    assert (seat.seat, seat.before, seat.plays) == (2, [1], 3)
    assert rules.modified_action(facts, seat) == HatValue.CLUE
    assert modified_value({**hands, 4: hand((4, 4), (3, 1), (5, 1), (4, 2))}, pins=pins) == HatValue.DISCARD_0


@pytest.mark.checks("H-reclue-modified")
def test_rule_6_a_modified_seat_clues_for_a_card_the_plays_make_next() -> None:
    """[H-reclue-modified rule 6] seat 2 plays (1, 0); seat 3, after it, holds (2, 0),
    next once the clue's plays are made: seat 1 clues although told to discard. When
    (1, 0) is played by seat 4, after seat 3, rule 7 keeps the discard."""
    nothing = hand(*NOTHING_TO_DO)
    holder = hand((2, 0), (3, 1), (4, 2), (5, 3))
    discarder = hand((3, 3), (3, 3), (2, 4), (4, 1))
    plays_first = hand((1, 0), (4, 4), (3, 2), (5, 1))
    assert modified_value({1: discarder, 2: plays_first, 3: holder, 4: nothing}) == HatValue.CLUE
    assert modified_value({1: discarder, 2: nothing, 3: holder, 4: plays_first}) == HatValue.DISCARD_0


@pytest.mark.checks("H-reclue-modified")
def test_rule_7_a_modified_seat_told_to_discard_discards_with_no_endgame() -> None:
    """[H-reclue-modified rule 7] seat 1 is told to discard one of two equal cards while
    seats 2 and 3 play (1, 0) and (1, 2); there is no endgame, so it discards (rule 8,
    at most one play, does not apply)."""
    hands = {
        1: hand((3, 3), (3, 3), (2, 4), (4, 1)),
        2: hand((1, 0), (2, 1), (3, 0), (5, 2)),
        3: hand((1, 2), (3, 0), (4, 4), (5, 0)),
        4: hand((4, 4), (3, 0), (5, 1), (4, 2)),
    }
    facts, seat = modified_seat(hands)
    assert (seat.standard, seat.plays, seat.endgame <= 0) == (HatValue.DISCARD_0, 2, True)
    assert rules.modified_action(facts, seat) == HatValue.DISCARD_0


@pytest.mark.checks("H-reclue-modified")
def test_rules_8_and_9_a_modified_seat_without_a_discard_discards_for_few_plays() -> None:
    """[H-reclue-modified rules 8 and 9] seat 1 would clue and sees none of its cards
    elsewhere; with no other seat playing it discards its highest card, not a five, of
    which no copy is discarded, (4, 3) in slot 1; when seats 2 and 3 play, it clues."""
    mine = hand((3, 2), (4, 3), (2, 4), (3, 1))
    nothing = hand((2, 1), (3, 0), (4, 4), (5, 0))
    assert modified_value({1: mine, 2: nothing, 3: nothing, 4: nothing}) == HatValue.DISCARD_1
    players = {2: hand((1, 0), (2, 1), (3, 0), (5, 2)), 3: hand((1, 2), (3, 0), (4, 4), (5, 0))}
    assert modified_value({1: mine, **players, 4: hand((4, 4), (3, 0), (5, 1), (4, 2))}) == HatValue.CLUE



def _with_tokens(seat: rules.ModifiedSeat, tokens: int) -> rules.ModifiedSeat:
    """``seat`` with T = ``tokens`` (a plain class: no ``attrs.evolve``)."""
    return rules.ModifiedSeat(clue=seat.clue, seat=seat.seat, hand=seat.hand, values=seat.values, before=seat.before,
                              later=seat.later, dont_play=seat.dont_play, standard=seat.standard, tokens=tokens,
                              final_tokens=seat.final_tokens, least_tokens=seat.least_tokens, plays=seat.plays,
                              progress=seat.progress, fields=seat.fields, endgame=seat.endgame)
