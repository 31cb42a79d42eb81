"""The hat core and the clue codes (spec/hat.md) [H-hat, H-sum, H-recover, H-code,
H-newest, H-code-9, H-code-5p, H-code-rainbow, H-code-end, H-code-empty, H-code-select,
H-code-k, H-code-k-public, H-code-error].

Expected values come from the definitions in spec/hat.md evaluated independently: the
number of a hint is worked out here from its target, kind and the cards it touches
(masks from tests.helpers.reference_hint_mask), and the part sizes a public guarantee
allows are found by enumerating every hand the public information admits.  Game states
are reached by legal play.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Any

import icontract
import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.actions import Discard, Hint, Play
from hanabi_ref.engine.dealing import SplitMix64, deck_from_seed
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.cards import Suit, identity
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.presets import RuleOptions
from hanabi_ref.engine.state import GameState
from hanabi_ref.players.strategies.hat import (
    CodeError,
    HatClue,
    HintListCode,
    NewestCardCode,
    SeenHand,
    SeenHandsMemo,
    decode_event,
    give_clue,
    hat_code,
    hat_sum,
    k_code,
    nine_code,
    public_part_size,
    public_sizes,
    recover,
    seen_hand,
    seen_hands,
)
from hanabi_ref.players.strategies.hat.codes import public_capacities
from hanabi_ref.players.strategies.knowledge import composition_counts
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import make_view
from tests.helpers import HANAB_LIVE_VARIANTS, Run, reached, reaches_assertion, reference_hint_mask, runs, stacked_deck
from hanabi_ref.engine.tables import tables_for

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
MANY = settings(max_examples=100, deadline=None)
# The deep set runs each property test that uses them three more times (test_properties_at_length).
RAINBOW_SUIT = 5


# ------------------------------------------------------------------ the core


@pytest.mark.checks("H-sum", "H-recover")
@MANY
@given(st.integers(1, 60).flatmap(lambda m: st.tuples(st.just(m), st.lists(st.integers(0, m - 1), min_size=1, max_size=6))))
def test_every_clued_player_recovers_its_value(case: tuple[int, list[int]]) -> None:
    """[H-sum, H-recover] the cluer sends the sum mod m; each clued player, knowing the
    others' values, recovers its own, and no other value in range(m) fits."""
    modulus, values = case
    number = hat_sum(values, modulus)
    assert number == sum(values) % modulus
    for i, value in enumerate(values):
        others = values[:i] + values[i + 1 :]
        assert recover(number, others, modulus) == value
        fitting = [c for c in range(modulus) if (sum(others) + c) % modulus == number]
        assert fitting == [value]


@pytest.mark.checks("H-recover")
@MANY
@given(st.integers(2, 30), st.data())
def test_values_can_be_subtracted_in_any_order(modulus: int, data: st.DataObject) -> None:
    """[H-recover] thinking out of turn: a player subtracts the others' values one at a
    time, in whatever order it learns them, and ends with its own."""
    clued = data.draw(st.permutations(range(1, 5)))
    values = data.draw(st.lists(st.integers(0, modulus - 1), min_size=4, max_size=4))
    clue = give_clue(0, clued, values, modulus)
    for i, seat in enumerate(clued):
        others = {s: v for s, v in zip(clued, values) if s != seat}
        assert clue.value_of(seat, others) == values[i]
        order = data.draw(st.permutations(sorted(others)))
        residue = clue.number
        for other in order:
            residue = recover(residue, [others[other]], modulus)
        assert residue == values[i]


@pytest.mark.checks("H-hat")
def test_core_rejects_bad_input() -> None:
    """[H-hat, H-sum, H-recover] values outside range(m), a clued cluer, a repeated seat
    and an incomplete list of the others' values are contract violations."""
    with pytest.raises(icontract.ViolationError, match="H-hat"):
        hat_sum([3, 9], 9)
    with pytest.raises(icontract.ViolationError, match="H-hat"):
        hat_sum([1], 0)
    with pytest.raises(icontract.ViolationError, match="H-sum"):
        recover(9, [1], 9)
    with pytest.raises(icontract.ViolationError, match="H-hat"):
        HatClue(0, (0, 1), 9, 3)
    with pytest.raises(icontract.ViolationError, match="H-hat"):
        HatClue(0, (1, 1), 9, 3)
    with pytest.raises(icontract.ViolationError, match="H-sum"):
        HatClue(0, (1, 2), 9, 9)
    clue = give_clue(0, (1, 2, 3), (4, 5, 6), 9)
    assert clue.number == 15 % 9
    with pytest.raises(icontract.ViolationError, match="H-recover"):
        clue.value_of(1, {2: 5})
    with pytest.raises(icontract.ViolationError, match="H-recover"):
        clue.value_of(0, {1: 4, 2: 5, 3: 6})


# ------------------------------------------------------------------ independent hint numbers


def touched_ids(state: GameState, hint: Hint) -> list[int]:
    mask = reference_hint_mask(state.config, hint)
    return [c for c in state.hands[hint.target] if mask >> state.deck[c] & 1]


def reference_number(state: GameState, cluer: int, hint: Hint) -> int:
    """H-code-9 / H-code-5p written out: the target's offset after the cluer, the kind,
    and whether the card drawn last (highest card id) is touched."""
    p = state.config.players
    offset = (hint.target - cluer) % p
    on_newest = max(state.hands[hint.target]) in touched_ids(state, hint)
    if p == 4:
        return 3 * (offset - 1) + (2 if not on_newest else 0 if hint.kind == "colour" else 1)
    if not on_newest:
        return 8
    return 2 * (offset - 1) + (0 if hint.kind == "colour" else 1)


def legal_hints(state: GameState) -> list[Hint]:
    """The hints the player to move may give, with a token assumed if none is left."""
    if state.clue_tokens == 0:
        # Same legality but for the token count: ask with the token rule satisfied.
        state = attrs.evolve(state, clue_tokens=1)
    return [a for a in legal_actions(state) if isinstance(a, Hint)]


def ongoing(run: Run, tokens: bool = False) -> st.SearchStrategy[GameState]:
    """One of the states of a run in which the game goes on (the later ones favoured:
    the last of them half of the time); with ``tokens``, one with a clue token left
    (the first state has them all)."""
    states = [state for state in run.states if not state.terminal and (state.clue_tokens or not tokens)]
    return st.one_of(st.just(states[-1]), st.sampled_from(states))


def hanab_live_states(players: int, tokens: bool = False, **options: Any) -> st.SearchStrategy[GameState]:
    """A state reached by legal play under hanab-live rules, in any of its variants,
    in which the game goes on (and, with ``tokens``, a hint may be given)."""
    return st.sampled_from(HANAB_LIVE_VARIANTS).flatmap(
        lambda variant: runs(max_moves=120, config=make_config(players, "hanab-live", variant, **options))
    ).flatmap(lambda run: ongoing(run, tokens))


def check_nine_code(state: GameState) -> None:
    """In ``state``, the cluer being the player to move: sendable numbers are exactly
    the reference numbers of the legal hints; each sendable number's hint is legal,
    decodes right in every other seat's view after it is given, and the others are
    refused [H-code-9, H-code-5p, H-code, H-code-error]."""
    assert not state.terminal
    config, cluer = state.config, state.current_player
    code = hat_code(config)
    seen = seen_hands(make_view(state, cluer))
    expected = {reference_number(state, cluer, hint) for hint in legal_hints(state)}
    assert code.sendable(cluer, seen) == sum(1 << x for x in expected)
    for number in range(9):
        if number not in expected:
            with pytest.raises(CodeError, match="H-code-error"):
                code.encode(cluer, seen, number)
            continue
        hint = code.encode(cluer, seen, number)
        assert hint in legal_hints(state)
        assert reference_number(state, cluer, hint) == number
        if state.clue_tokens:
            after = apply(state, hint)
            event = after.history[-1]
            for seat in range(config.players):
                if seat != cluer:
                    view = make_view(after, seat)
                    assert decode_event(code, event, view.hands[hint.target]) == number


@pytest.mark.checks("H-code-9", "H-code", "H-newest")
@SETTINGS
@given(hanab_live_states(4))
def test_nine_code_four_players_in_real_play(state: GameState) -> None:
    """[H-code-9, H-newest] 4 players, hanab-live rules, every variant."""
    check_nine_code(state)


@pytest.mark.checks("H-code-5p", "H-code", "H-newest")
@SETTINGS
@given(hanab_live_states(5))
def test_nine_code_five_players_in_real_play(state: GameState) -> None:
    """[H-code-5p, H-newest] 5 players, hanab-live rules, every variant."""
    check_nine_code(state)


@pytest.mark.checks("H-newest")
@SETTINGS
@given(st.integers(4, 5).flatmap(lambda p: hanab_live_states(p, draw_position="newest-first")))
def test_nine_code_with_newest_card_first(state: GameState) -> None:
    """[H-newest] with the newest card in slot 0 (R-2) the code reads the same card: the
    one with the highest card id."""
    assert all(max(hand) == hand[0] for hand in state.hands if hand)
    check_nine_code(state)


@pytest.mark.checks("H-sum", "H-recover", "H-code")
@reaches_assertion()
@SETTINGS
@given(hanab_live_states(4, tokens=True), st.data())
def test_hat_clue_round_trip_in_real_play(state: GameState, data: st.DataObject) -> None:
    """[H-sum, H-recover, H-code] the whole protocol: the cluer picks hat values for the
    other players (the last so that their sum is a number the code can send), sends
    the sum through the code, and each clued player recovers its own value from its
    own view and the others' values."""
    assert state.clue_tokens > 0
    config, cluer = state.config, state.current_player
    p = config.players
    clued = [(cluer + offset) % p for offset in range(1, p)]
    code = hat_code(config)
    seen = seen_hands(make_view(state, cluer))
    sendable = [number for number in range(code.modulus) if code.sendable(cluer, seen) >> number & 1]
    if not sendable:
        return
    # Values for all but the last clued seat, and the last one's value chosen so that
    # their sum is a number the cluer can send.
    number = data.draw(st.sampled_from(sendable))
    values = data.draw(st.lists(st.integers(0, code.modulus - 1), min_size=p - 2, max_size=p - 2))
    values.append((number - sum(values)) % code.modulus)
    clue = give_clue(cluer, clued, values, code.modulus)
    assert clue.number == number
    reached()
    after = apply(state, code.encode(cluer, seen, clue.number))
    for seat, value in zip(clued, values):
        view = make_view(after, seat)
        event = view.history[-1]
        assert isinstance(event.action, Hint)
        number = decode_event(code, event, view.hands[event.action.target])
        others = [v for s, v in zip(clued, values) if s != seat]
        assert recover(number, others, code.modulus) == value


# ------------------------------------------------------------------ hands built by hand


def dealt(config: GameConfig, hands: Sequence[Sequence[tuple[int, int]]]) -> GameState:
    """The state after the deal with the given (value, suit) cards, seat by seat, each
    hand's last card dealt last (so it is the newest)."""
    top = [card for hand in hands for card in hand]
    return initial_state(config, stacked_deck(config, top))


@pytest.mark.checks("H-code-rainbow", "H-code-error")
def test_rainbow_broken_hand_refuses_its_number() -> None:
    """[H-code-rainbow, H-code-error] 4 players, Rainbow: seat 1 holds four 2s with a
    rainbow 2 drawn last, so every hint to it touches its newest card; number 2 ("a
    hint to seat 1 not touching its newest card") cannot be sent, all others can."""
    config = make_config(4, "hanab-live", "rainbow")
    state = dealt(config, [[(1, 0), (1, 1), (1, 2), (1, 3)], [(2, 0), (2, 1), (2, 2), (2, RAINBOW_SUIT)],
                           [(3, 0), (4, 1), (5, 2), (3, 3)], [(4, 0), (3, 1), (4, 2), (5, 3)]])
    code = nine_code(config)
    seen = seen_hands(make_view(state, 0))
    assert code.sendable(0, seen) == 0x1FF & ~(1 << 2)
    with pytest.raises(CodeError, match=r"number 2 \(a hint to seat 1 not touching its newest card\)"):
        code.encode(0, seen, 2)
    # Seen from seat 3, seat 1 is offset 2: its number is 5.
    seen = seen_hands(make_view(state, 3))
    assert code.sendable(3, seen) == 0x1FF & ~(1 << 5)
    check_nine_code(state)


def three_red_ones(config: GameConfig, opening_hints: int) -> GameState | None:
    """Play until seat 1 holds only its three red 1s and another seat is to move: seat
    1 always discards its newest card, the others their oldest; a hint (the first legal
    one) is given when a discard is illegal and on the first ``opening_hints`` turns."""
    red_one = (1, 0)
    hands = [[(2, 0), (2, 1), (2, 2), (2, 3)], [red_one, red_one, red_one, (5, 4)],
             [(3, 0), (3, 1), (3, 2), (3, 3)], [(4, 0), (4, 1), (4, 2), (4, 3)]]
    state = dealt(config, hands)
    while not state.terminal:
        if len(state.hands[1]) == 3 and state.current_player != 1:
            return state
        seat = state.current_player
        discard = Discard(len(state.hands[seat]) - 1 if seat == 1 else 0)
        if state.turns < opening_hints or discard not in legal_actions(state):
            state = apply(state, legal_hints(state)[0])
        else:
            state = apply(state, discard)
    return None


@pytest.mark.checks("H-code-end", "H-code-error")
def test_three_equal_cards_refuse_their_number() -> None:
    """[H-code-end] No Variant, last round: a hand of three red 1s has no hint that
    avoids its newest card, so its number is refused; reached by legal play (the stack
    runs out and the holder discards its fourth card)."""
    config = make_config(4, "hanab-live", "no-variant")
    reached = [s for s in (three_red_ones(config, hints) for hints in range(4)) if s is not None]
    assert reached
    state = reached[0]
    red_one = identity(1, 0, 5)
    assert [state.deck[c] for c in state.hands[1]] == [red_one] * 3
    cluer = state.current_player
    code = nine_code(config)
    seen = seen_hands(make_view(state, cluer))
    number = 3 * ((1 - cluer) % 4 - 1) + 2
    assert code.sendable(cluer, seen) == 0x1FF & ~(1 << number)
    with pytest.raises(CodeError, match="H-code-error"):
        code.encode(cluer, seen, number)
    check_nine_code(state)


@pytest.mark.checks("H-code-error", "H-code-k")
def test_decoding_bad_hints() -> None:
    """[H-code-error] a hint no number maps to is refused with one line naming it."""
    config = make_config(4, "hanab-live")
    code = nine_code(config)
    with pytest.raises(CodeError, match="target 0 is not a seat other than the cluer 0"):
        code.decode(0, Hint(0, "value", 1), True)
    with pytest.raises(CodeError, match="target 4 is not a seat"):
        code.decode(0, Hint(4, "value", 1), True)
    with pytest.raises(CodeError, match="colour 5 is not a colour"):
        code.decode(0, Hint(1, "colour", 5), True)
    with pytest.raises(CodeError, match="value 0 is not a value"):
        code.decode(0, Hint(1, "value", 0), True)
    with pytest.raises(CodeError, match="kind 'suit'"):
        code.decode(0, Hint(1, "suit", 1), True)  # type: ignore[arg-type]
    with pytest.raises(CodeError, match="not a hint"):
        code.decode(0, "hint", True)  # type: ignore[arg-type]
    state = initial_state(config, deck_from_seed(config, 0))
    hinted = apply(state, Hint(1, "value", state.deck[state.hands[1][0]] % 5 + 1))
    assert decode_event(code, hinted.history[-1], hinted.hands[1]) in (1, 2)
    after = apply(hinted, Play(0))
    with pytest.raises(CodeError, match="turn 1: seat 1 did not give a hint"):
        decode_event(code, after.history[-1], after.hands[1])
    with pytest.raises(icontract.ViolationError, match="H-newest"):
        decode_event(code, after.history[0], after.hands[1])  # seat 1's hand has changed
    # A part of size 2 has no number for a hint avoiding the newest card.
    small = NewestCardCode(config, (2, 3, 4))
    with pytest.raises(CodeError, match="part has size 2"):
        small.decode(0, Hint(1, "value", 2), False)
    assert small.decode(0, Hint(2, "value", 2), False) == 2 + 2
    assert small.decode(0, Hint(3, "colour", 2), False) == 5 + 2
    assert small.decode(0, Hint(3, "value", 2), False) == 5 + 3


@pytest.mark.checks("H-code-error", "H-touch")
def test_code_construction_errors() -> None:
    """[H-code-9, H-code-5p, H-code-k, H-code-empty] codes refuse configurations they
    are not defined for, with one line naming the field."""
    with pytest.raises(ConfigError, match="4 and 5 players"):
        nine_code(make_config(3, "hanab-live"))
    with pytest.raises(ConfigError, match="sizes"):
        NewestCardCode(make_config(4, "hanab-live"), (3, 3))
    with pytest.raises(ConfigError, match="sizes"):
        NewestCardCode(make_config(4, "hanab-live"), (3, 3, 5))
    with pytest.raises(ConfigError, match="pooled"):
        NewestCardCode(make_config(4, "hanab-live"), (3, 2, 2), pooled=True)
    with pytest.raises(ConfigError, match="empty_hints"):
        HintListCode(make_config(4, "hanab-live"), 9)
    with pytest.raises(ConfigError, match="modulus"):
        HintListCode(make_config(2), 11)
    with pytest.raises(icontract.ViolationError, match="H-code"):
        nine_code(make_config(4, "hanab-live")).encode(0, (None,) * 4, 9)
    # [H-touch] a suit that no clue colour touches: no colour hint can touch its cards.
    uncoloured = GameConfig(
        values=2,
        suits=(Suit("A", "A", (1, 1), frozenset({0})), Suit("B", "B", (1, 1), frozenset())),
        colours=("A",),
        players=4,
        hand_size=1,
        max_hints=8,
        max_errors=3,
        options=RuleOptions(empty_hints=False),
    )
    with pytest.raises(ConfigError, match="no clue colour touches suit 'B'"):
        NewestCardCode(uncoloured, (3, 3, 3))


@pytest.mark.checks("H-code-select")
def test_code_selection() -> None:
    """[H-code-select] empty hints allowed: a list of 9 hints; otherwise the 9-code."""
    assert isinstance(hat_code(make_config(4)), HintListCode)
    assert isinstance(hat_code(make_config(5, "hle")), NewestCardCode)
    code = hat_code(make_config(5, "hanab-live", "rainbow"))
    assert isinstance(code, NewestCardCode) and code.pooled and code.sizes == (2, 2, 2, 2)
    code = hat_code(make_config(4, "hanab-live", "black"))
    assert isinstance(code, NewestCardCode) and not code.pooled and code.sizes == (3, 3, 3)


# ------------------------------------------------------------------ the list code


@pytest.mark.checks("H-code-empty")
@pytest.mark.parametrize("players", (2, 3, 4, 5, 6))
@pytest.mark.parametrize("variant", ("no-variant", "rainbow", "black", "6-suits"))
def test_hint_list_code(players: int, variant: str) -> None:
    """[H-code-empty] with empty hints every one of the first m hints (other players in
    seat order after the cluer, colours then values) is legal and decodes to its
    position; the rest are refused."""
    config = make_config(players, "thesis", variant)
    per_target = len(config.colours) + 5
    code = HintListCode(config, min(9, (players - 1) * per_target))
    state = initial_state(config, deck_from_seed(config, players))
    for cluer in range(players):
        if cluer:
            state = apply(state, Hint(cluer, "value", 1))  # the previous seat passes the turn on
        assert state.current_player == cluer
        legal = set(legal_actions(state))
        order = [
            hint
            for offset in range(1, players)
            for target in [(cluer + offset) % players]
            for hint in [Hint(target, "colour", c) for c in range(len(config.colours))] + [Hint(target, "value", v) for v in range(1, 6)]
        ]
        assert code.sendable(cluer, ()) == (1 << code.modulus) - 1
        for number, hint in enumerate(order):
            if number < code.modulus:
                assert code.encode(cluer, (), number) == hint and hint in legal
                assert code.decode(cluer, hint, False) == number
            else:
                with pytest.raises(CodeError, match="beyond the code"):
                    code.decode(cluer, hint, False)


# ------------------------------------------------------------------ k-codes and public sizes


def hint_masks(config: GameConfig) -> list[tuple[Hint, int]]:
    """Every hint to one hand, colours then values, with its reference mask."""
    hints = [Hint(1, "colour", c) for c in range(len(config.colours))] + [Hint(1, "value", v) for v in range(1, config.values + 1)]
    return [(hint, reference_hint_mask(config, hint)) for hint in hints]


def classes_present(config: GameConfig, hand: Sequence[int], masks: Sequence[tuple[Hint, int]]) -> set[str]:
    """Which classes hold a legal hint to a hand of identities (last = newest), from
    reference masks (:func:`hint_masks`): 'avoid', 'colour-avoid', 'value-avoid'."""
    present = set()
    newest = hand[-1]
    for hint, mask in masks:
        if mask >> newest & 1:
            continue
        if config.options.empty_hints or any(mask >> x & 1 for x in hand[:-1]):
            present |= {"avoid", f"{hint.kind}-avoid"}
    return present


def brute_part_size(config: GameConfig, knowledge: Sequence[int], capacities: Sequence[int]) -> int:
    """The largest part size whose classes hold a hint for every hand consistent with
    the knowledge sets and capacities, by enumeration (newest card = last slot)."""
    options = [[x for x in range(len(capacities)) if known >> x & 1 and capacities[x]] for known in knowledge]
    common = {"avoid", "colour-avoid", "value-avoid"}
    masks = hint_masks(config)
    for hand in itertools.product(*options):
        if all(count <= capacities[x] for x, count in Counter(hand).items()):
            common &= classes_present(config, hand, masks)
    if {"colour-avoid", "value-avoid"} <= common:
        return 4
    return 3 if "avoid" in common else 2


@st.composite
def public_positions(draw: st.DrawFn) -> tuple[GameConfig, list[int], list[int]]:
    """A configuration, knowledge sets for 2-4 cards (each a few identities, or a product
    of values and suits as hints make them) and capacities."""
    variant = draw(st.sampled_from(HANAB_LIVE_VARIANTS))
    config = make_config(4, draw(st.sampled_from(("hanab-live", "thesis"))), variant)
    identities = config.values * config.suit_count
    knowledge = []
    for _ in range(draw(st.integers(2, 4))):
        if draw(st.booleans()):
            cards = draw(st.sets(st.integers(0, identities - 1), min_size=1, max_size=4))
            knowledge.append(sum(1 << x for x in cards))
        else:
            values = draw(st.sets(st.integers(1, 5), min_size=1, max_size=2))
            suits = draw(st.sets(st.integers(0, config.suit_count - 1), min_size=1, max_size=2))
            knowledge.append(sum(1 << identity(v, s, 5) for v in values for s in suits))
    composition = composition_counts(config)
    capacities = [draw(st.integers(0, count)) for count in composition]
    # The real hand exists: give every card at least one copy of some identity it allows.
    for known in knowledge:
        x = (known & -known).bit_length() - 1
        capacities[x] = max(capacities[x], 1)
    if sum(min(c, 1) for c in capacities) == 0:
        capacities[0] = 1
    return config, knowledge, capacities


@pytest.mark.checks("H-code-k-public")
@reaches_assertion()
@settings(max_examples=100, deadline=None)  # 300 more in the deep set (test_properties_at_length)
@given(public_positions())
def test_public_part_size_by_enumeration(case: tuple[GameConfig, list[int], list[int]]) -> None:
    """[H-code-k-public] the size is the largest whose classes are non-empty for every
    hand the knowledge sets and capacities allow (found by enumerating the hands)."""
    config, knowledge, capacities = case
    hand = list(range(len(knowledge)))  # card ids: the last card is the newest
    options = [[x for x in range(len(capacities)) if known >> x & 1 and capacities[x]] for known in knowledge]
    consistent = any(
        all(n <= capacities[x] for x, n in Counter(h).items()) for h in itertools.product(*options)
    )
    if not consistent:
        return
    reached()
    assert public_part_size(config, knowledge, hand, capacities) == brute_part_size(config, knowledge, capacities)


@pytest.mark.checks("H-code-k-public")
@pytest.mark.parametrize(
    ("variant", "size", "expected"),
    [("no-variant", 4, 3), ("6-suits", 4, 3), ("black", 4, 3), ("rainbow", 4, 2),
     ("no-variant", 3, 2), ("black", 3, 2), ("rainbow", 3, 2)],
)
def test_public_part_size_of_fresh_hands(variant: str, size: int, expected: int) -> None:
    """[H-code-k-public, H-avoid] no hint given, all copies unaccounted for: 4-card
    hands guarantee the avoid class without rainbow cards (Corollary 2 of
    proofs/clue_codes.md) and not with them (Corollary 4); 3-card hands may be three
    equal 1s (Corollary 3)."""
    config = make_config(4, "hanab-live", variant)
    fresh = [tables_for(config).all_cards_mask] * size
    capacities = composition_counts(config)
    assert public_part_size(config, fresh, list(range(size)), capacities) == expected
    if size == 3:
        # With at most two copies of every 1 left, no three equal cards remain: but
        # rainbow hands of one value still break the avoid class.
        fewer = [min(c, 2) for c in capacities]
        assert public_part_size(config, fresh, [0, 1, 2], fewer) == (2 if variant == "rainbow" else 3)


@pytest.mark.checks("H-code-k-public")
def test_public_part_size_counts_the_newest_cards_copy() -> None:
    """[H-code-k-public] the newest card's identity uses up a copy: with one rainbow 1
    left and another card that can only be that rainbow 1, the newest card must be the
    red 2, so a colour hint can avoid it (empty hints allowed, Rainbow) and the part
    has size 4; with a second rainbow 1 left it could be rainbow, and no colour avoids
    a rainbow card."""
    config = make_config(4, "thesis", "rainbow")
    rainbow_one, red_two = identity(1, RAINBOW_SUIT, 5), identity(2, 0, 5)
    knowledge = [1 << rainbow_one, 1 << rainbow_one | 1 << red_two]
    capacities = [0] * 30
    capacities[rainbow_one] = capacities[red_two] = 1
    assert public_part_size(config, knowledge, [0, 1], capacities) == 4
    capacities[rainbow_one] = 2
    assert public_part_size(config, knowledge, [0, 1], capacities) == 3
    assert brute_part_size(config, knowledge, capacities) == 3


@pytest.mark.checks("H-code-k", "H-code-k-public")
@SETTINGS
@given(st.integers(4, 5).flatmap(hanab_live_states))
def test_k_code_in_real_play(state: GameState) -> None:
    """[H-code-k, H-code-k-public] every player builds the same k-code from its own view;
    the public sizes are a guarantee, so every number is sendable, and each round-trips
    through the engine to every other player."""
    config, cluer = state.config, state.current_player
    views = [make_view(state, seat) for seat in range(config.players)]
    codes = [k_code(view, cluer) for view in views]
    assert len({code.sizes for code in codes}) == 1
    code = codes[cluer]
    assert code.modulus == sum(code.sizes) >= 2 * (config.players - 1)
    assert public_capacities(views[0]) == public_capacities(views[-1])
    assert public_sizes(views[0], cluer) == code.sizes
    seen = seen_hands(views[cluer])
    assert code.sendable(cluer, seen) == (1 << code.modulus) - 1
    for number in range(code.modulus):
        hint = code.encode(cluer, seen, number)
        assert hint in legal_hints(state)
        if state.clue_tokens:
            after = apply(state, hint)
            for seat in range(config.players):
                if seat != cluer:
                    view = make_view(after, seat)
                    number_seen = decode_event(k_code(make_view(state, seat), cluer), after.history[-1], view.hands[hint.target])
                    assert number_seen == number


# ------------------------------------------------------------------ the newest card


@pytest.mark.checks("H-newest")
@MANY
@given(st.lists(st.integers(0, 59), min_size=1, max_size=5, unique=True), st.data())
def test_seen_hand_reads_the_highest_card_id(ids: list[int], data: st.DataObject) -> None:
    """[H-newest] whatever the slot order, the newest card is the highest card id and
    the others are the rest."""
    identities = data.draw(st.lists(st.integers(0, 29), min_size=len(ids), max_size=len(ids)))
    hand = seen_hand(ids, identities)
    newest = ids.index(max(ids))
    others = [x for slot, x in enumerate(identities) if slot != newest]
    assert hand == SeenHand(identities[newest], sum(1 << x for x in set(others)))


@pytest.mark.checks("H-code-local", "H-newest")
@pytest.mark.parametrize("players", [4, 5])
def test_the_kept_sight_equals_what_each_seat_sees_along_whole_games(players: int) -> None:
    """[H-code-local] a seat's SeenHandsMemo gives, at every state of random legal games,
    what the seat sees of every hand, worked out here from the state (the newest card
    is the highest card id, the others a bitmask), also when the views of one memo come
    from another game or another seat."""
    import random

    config = make_config(players, "physical")
    memos = [SeenHandsMemo() for _ in range(players)]
    stranger = SeenHandsMemo()
    rng = random.Random(players)
    checked = 0
    for game in range(3):
        state = initial_state(config, deck_from_seed(config, 1000 + game))
        while True:
            for seat in range(players):
                expected: list[SeenHand | None] = [None] * players
                for other, hand in enumerate(state.hands):
                    if other != seat and hand:
                        newest = max(hand)
                        mask = 0
                        for card_id in hand:
                            if card_id != newest:
                                mask |= 1 << state.deck[card_id]
                        expected[other] = SeenHand(state.deck[newest], mask)
                view = make_view(state, seat)
                assert memos[seat].of(view) == tuple(expected)
                assert stranger.of(view) == tuple(expected)  # another seat's views each time
                checked += 1
            if state.terminal:
                break
            state = apply(state, rng.choice(legal_actions(state)))
    assert checked > players * 30


# Each variant once and each code (4 and 5 players) twice by default, seven games each; every
# pair with ten games in the deep set.
WHOLE_GAMES = [(4, "no-variant"), (5, "6-suits"), (4, "rainbow"), (5, "black")]


@pytest.mark.checks("H-code-9", "H-code-5p", "H-code-rainbow", "H-code-end")
@pytest.mark.parametrize(("players", "variant", "games"), [
    *((players, variant, 7) for players, variant in WHOLE_GAMES),
    *(pytest.param(players, variant, 10, marks=pytest.mark.deep)
      for players in (4, 5) for variant in HANAB_LIVE_VARIANTS),
])
def test_nine_code_along_whole_games(players: int, variant: str, games: int) -> None:
    """[H-code-9, H-code-5p, H-code-rainbow, H-code-end] whole games of seeded random
    legal moves (plays one time in thirty, so that games last into the last round and
    its three-card hands): in every state the player to move could send exactly the
    reference numbers of its legal hints, each through a hint with that number."""
    config = make_config(players, "hanab-live", variant)
    code = hat_code(config)
    states = short_hands = 0
    for seed in range(games):
        rng = SplitMix64(seed)
        state = initial_state(config, deck_from_seed(config, seed))
        while not state.terminal:
            cluer = state.current_player
            seen = seen_hands(make_view(state, cluer))
            hints = legal_hints(state)
            expected = {reference_number(state, cluer, hint) for hint in hints}
            assert code.sendable(cluer, seen) == sum(1 << x for x in expected)
            for number in expected:
                assert reference_number(state, cluer, code.encode(cluer, seen, number)) == number
            states += 1
            short_hands += any(len(hand) < config.hand_size for hand in state.hands)
            actions = legal_actions(state)
            quiet = [action for action in actions if not isinstance(action, Play)]
            state = apply(state, rng.choice(actions if rng.below(30) == 0 or not quiet else quiet))
    assert states > 500 and short_hands > 10


@pytest.mark.deep
@pytest.mark.parametrize("test", [
    test_every_clued_player_recovers_its_value, test_values_can_be_subtracted_in_any_order,
    test_nine_code_four_players_in_real_play, test_nine_code_five_players_in_real_play,
    test_nine_code_with_newest_card_first, test_hat_clue_round_trip_in_real_play,
    test_public_part_size_by_enumeration, test_k_code_in_real_play, test_seen_hand_reads_the_highest_card_id,
], ids=lambda test: test.__name__.removeprefix("test_"))
def test_properties_at_length(test: Any) -> None:
    """Each property test above, three more runs."""
    for _ in range(3):
        test()
