"""What ``playability count`` counts [PL-playable]: the sequences of a composition that
can be played up to K = Σ n_c, every colour to its highest *listed* value.

The expected counts come from a brute force written here from the definitions alone:
every distinct order of the deck is played out by a one-player open game (Definition
3.32: hand m, no hints, no errors allowed), trying every play of a playable card and every
discard, with N − m + 1 turns (one per card drawn, and the one more turn after the last
draw, 2.16-3-last-round).
"""

from __future__ import annotations

import itertools
from functools import cache

import pytest

from hanabi_ref.tools.playability.composition import Card, parse_composition
from hanabi_ref.tools.playability.exact import exact_count


def can_reach(sequence: tuple[Card, ...], hand_size: int, target: int) -> bool:
    """Whether the open game on ``sequence`` can score ``target`` (brute force)."""
    colours = max(colour for _, colour in sequence)

    @cache
    def search(position: int, hand: tuple[Card, ...], fields: tuple[int, ...], turns: int) -> bool:
        if sum(fields) >= target:
            return True
        if turns == 0:
            return False
        drawn = sequence[position : position + 1]
        for index, (value, colour) in enumerate(hand):
            rest = tuple(sorted(hand[:index] + hand[index + 1 :] + drawn))
            grown = fields
            if fields[colour - 1] == value - 1:
                grown = fields[: colour - 1] + (value,) + fields[colour:]
            if search(position + len(drawn), rest, grown, turns - 1):
                return True
            if grown != fields and search(position + len(drawn), rest, fields, turns - 1):
                return True  # the same card discarded instead
        return False

    turns = len(sequence) - hand_size + 1
    return search(hand_size, tuple(sorted(sequence[:hand_size])), (0,) * colours, turns)


def brute_force(text: str, hand_size: int) -> tuple[int, int]:
    """(playable, total) distinct orders of the composition ``text``, K = Σ n_c counted
    from the listed values."""
    colours = [[int(count) for count in part.split(",")] for part in text.split("/")]
    target = sum(len(counts) for counts in colours)
    deck = [(value, colour) for colour, counts in enumerate(colours, start=1)
            for value, count in enumerate(counts, start=1) for _ in range(count)]
    orders = set(itertools.permutations(deck))
    return sum(can_reach(order, hand_size, target) for order in orders), len(orders)


@pytest.mark.checks("PL-playable")
@pytest.mark.parametrize(
    ("text", "hand_size", "unplayable"),
    [
        ("2,1,1", 1, False),
        ("2,1,1", 2, False),
        ("3,2,1", 2, False),
        ("2,1/1,1", 2, False),
        ("1,1/1,1", 1, False),
        ("1,1,1/2,1", 2, False),
        ("1,1,1/2,1", 3, True),
        ("1,0,1", 2, True),
        ("2,1,0", 1, True),
    ],
)
def test_playable_means_every_colour_up_to_its_highest_listed_value(text: str, hand_size: int, unplayable: bool) -> None:
    """[PL-playable] the count of playable sequences and the number T of distinct
    sequences agree with the brute force; a listed value without copies (1,0,1 and
    2,1,0) still counts in K, so such a composition has no playable sequence, and
    neither has one with fewer turns than K (1,1,1/2,1 with m = 3: 4 turns, K = 5)."""
    playable, total = brute_force(text, hand_size)
    counted = exact_count(parse_composition(text), hand_size)
    assert (counted.playable, counted.total) == (playable, total)
    assert counted.fraction == playable / total
    assert (playable == 0) if unplayable else (0 < playable <= total)


@pytest.mark.checks("PL-playable")
def test_the_target_is_the_number_of_listed_values() -> None:
    """[PL-playable] K = Σ n_c: 3 + 2 listed values for 2,1,1/1,1; a trailing 0 is listed."""
    assert parse_composition("2,1,1/1,1").target == 5
    assert parse_composition("2,1,0").target == 3
