"""Machine check of proofs/info_codes.md [I-k, I-k-exists, I-hint-map].

Expected facts come from the proof, not from the code: whether a hint avoiding the focus
card exists (and of which kinds) is found by trying every hint, with touch sets built
here from the variant table of spec/rules.md section 6 (``tests.helpers``), independent
of ``GameConfig``'s masks.  Hands are a focus identity and a multiset of other
identities within the deck's copies: every hand of up to three cards in the default run
(6 Suits only in the deep set), up to four in the deep set, and Hypothesis hands of up
to five cards with public sets between the exact and the blank ones.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.actions import Hint
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.players.strategies.info.codes import code_size, hint_type, hints_of_type
from hanabi_ref.players.strategies.info.knowledge import Board
from hanabi_ref.players.strategies.knowledge import composition_counts
from tests.helpers import card, colour_suits, suit_and_value
from hanabi_ref.engine.tables import tables_for

VARIANTS = ("no-variant", "6-suits", "rainbow", "black")


@cache
def config_of(variant: str) -> GameConfig:
    return make_config(2, "hanab-live", variant)  # hands of five cards


def full_board(config: GameConfig) -> Board:
    counts = composition_counts(config)
    return Board(config, (0,) * len(config.suits), (0,) * len(counts), counts)


def is_touched(config: GameConfig, kind: str, subject: int, identity: int) -> bool:
    """spec/rules.md section 6, transcribed: a value hint touches its value, a colour hint
    the suits of its colour (with Rainbow, the rainbow suit too)."""
    suit, value = suit_and_value(config, identity)
    if kind == "value":
        return value == subject
    return suit in colour_suits(config, subject)


@cache
def touched_identities(config: GameConfig) -> dict[tuple[str, int], frozenset[int]]:
    """For every hint (kind, subject), the identities it touches by :func:`is_touched`."""
    identities = range(config.suit_count * config.values)
    return {(hint.kind, hint.subject): frozenset(i for i in identities if is_touched(config, hint.kind, hint.subject, i))
            for hint in every_hint(config)}


def touches(config: GameConfig, hint: Hint, identity: int) -> bool:
    """Whether ``hint`` touches a card of ``identity`` (:func:`is_touched`)."""
    return identity in touched_identities(config)[(hint.kind, hint.subject)]


def every_hint(config: GameConfig) -> list[Hint]:
    return [Hint(1, "colour", c) for c in range(len(config.colours))] + [Hint(1, "value", v) for v in range(1, config.values + 1)]


def avoiding(config: GameConfig, focus: int, others: Sequence[int]) -> tuple[bool, bool]:
    """(a legal value hint avoids the focus, a legal colour hint avoids it), by trying
    every hint: legal means touching some card (no empty hints)."""
    found = {"value": False, "colour": False}
    for hint in every_hint(config):
        if not touches(config, hint, focus) and any(touches(config, hint, other) for other in others):
            found[hint.kind] = True
    return found["value"], found["colour"]


def hands(config: GameConfig, others_count: int) -> Iterator[tuple[int, tuple[int, ...]]]:
    """Every (focus identity, sorted other identities) within the deck's copies."""
    counts = composition_counts(config)
    cards = [identity for identity, count in enumerate(counts) if count]
    for focus in cards:
        for others in itertools.combinations_with_replacement(cards, others_count):
            used = Counter(others)
            used[focus] += 1
            if all(used[identity] <= counts[identity] for identity in used):
                yield focus, others


def check_hand(config: GameConfig, focus: int, others: Sequence[int], sets: Sequence[int], exact: bool,
               board: Board | None = None) -> int:
    """The claim for one hand with public ``sets`` (focus first), on ``board`` (by default
    the full deck's); returns k."""
    board = board or full_board(config)
    hand = [focus, *others]
    k = code_size(sets, 0, board)
    for kind in range(k):
        choices = hints_of_type(kind, k, 1, hand, 0, config)
        assert choices, (config.variant, hand, k, kind)
        for hint in choices:
            assert any(touches(config, hint, identity) for identity in hand), ("empty hint", hint, hand)
            assert hint_type(hint, touches(config, hint, focus), k) == kind, (hint, hand, k, kind)
    if exact:
        value, colour = avoiding(config, focus, others)
        assert k == (4 if value and colour else 3 if value or colour else 2), (config.variant, hand, k, value, colour)
    return k


def check_exhaustively(variant: str, largest: int) -> Counter[int]:
    """Every hand of 1 to ``largest`` cards, exact and blank sets; with four cards also
    Corollary 3 of clue_codes.md through I-k: k = 2 for no four-card hand without
    Rainbow, and with Rainbow exactly for a Rainbow focus with three cards of its value."""
    config = config_of(variant)
    blank = tables_for(config).all_cards_mask
    board = full_board(config)
    sizes: Counter[int] = Counter()
    for others_count in range(largest):
        for focus, others in hands(config, others_count):
            k = check_hand(config, focus, others, [1 << c for c in (focus, *others)], exact=True, board=board)
            sizes[k] += 1
            check_hand(config, focus, others, [blank] * (1 + others_count), exact=False, board=board)
            if others_count == 3:
                suit, value = suit_and_value(config, focus)
                broken = variant == "rainbow" and suit == 5 and all(suit_and_value(config, o)[1] == value for o in others)
                assert (k == 2) == broken, (variant, focus, others)
    return sizes


# 6 Suits has No Variant's touch sets with a sixth colour, which Black (six colours, one
# suit of single copies) has too: its hands of up to three cards are checked in the deep
# set only, within its hands of up to four cards.
@pytest.mark.checks("I-k", "I-k-exists")
@pytest.mark.parametrize("variant", [variant for variant in VARIANTS if variant != "6-suits"])
def test_every_type_has_a_hint_on_hands_of_up_to_three_cards(variant: str) -> None:
    """[I-k-exists, I-k] every hand of one to three cards: with exact sets k is what the
    brute force allows and every type below it has a legal hint of its class; with blank
    sets the smaller k is still sound.  The check reaches k = 2, 3 and 4."""
    sizes = check_exhaustively(variant, 3)
    assert set(sizes) == {2, 3, 4}, sizes


@pytest.mark.checks("I-k-exists")
@pytest.mark.deep
@pytest.mark.parametrize("variant", VARIANTS)
def test_every_type_has_a_hint_on_hands_of_up_to_four_cards(variant: str) -> None:
    """[I-k-exists] the same on every hand of up to four cards, and Corollary 3's
    four-card hands (the deep set, about 15 s of CPU time a variant)."""
    sizes = check_exhaustively(variant, 4)
    assert sizes[2] > 0 and sizes[4] > 0


@st.composite
def hands_with_sets(draw: st.DrawFn) -> tuple[GameConfig, int, tuple[int, ...], list[int]]:
    config = config_of(draw(st.sampled_from(VARIANTS)))
    counts = composition_counts(config)
    left = Counter({identity: count for identity, count in enumerate(counts) if count})
    size = draw(st.integers(1, 5))
    hand = []
    for _ in range(size):
        identity = draw(st.sampled_from(sorted(c for c in left if left[c] > 0)))
        left[identity] -= 1
        hand.append(identity)
    extra = st.integers(0, tables_for(config).all_cards_mask)
    sets = [(1 << identity) | (draw(extra) & draw(extra)) for identity in hand]
    return config, hand[0], tuple(hand[1:]), sets


@pytest.mark.checks("I-k-exists")
@settings(max_examples=400, deadline=None)
@given(hands_with_sets())
def test_every_type_has_a_hint_with_any_public_sets(case: tuple[GameConfig, int, tuple[int, ...], list[int]]) -> None:
    """[I-k-exists] public sets between the exact and the blank ones (the truth plus
    random identities): every type below k has a legal hint of its class."""
    config, focus, others, sets = case
    check_hand(config, focus, others, sets, exact=False)


def test_touch_sets_agree_with_the_variant_table() -> None:
    """The transcribed touch sets are those of spec/rules.md section 6 as the engine has
    them (a check of the transcription, not of the claim)."""
    for variant in VARIANTS:
        config = config_of(variant)
        for hint in every_hint(config):
            mask = tables_for(config).value_masks[hint.subject - 1] if hint.kind == "value" else tables_for(config).colour_masks[hint.subject]
            for value in range(1, config.values + 1):
                for suit in range(len(config.suits)):
                    identity = card(config, value, suit)
                    assert touches(config, hint, identity) == bool(mask >> identity & 1)
