"""The thesis' own algorithms for (k, m)-playability, as printed [3.28, 3.29, 3.35, 3.36].

Algorithm 3.29 (single colour) and Algorithm 3.36 (multi colour) follow Theorems 3.28 and
3.35: find the first 1, play it, lower the rest of its colour by one, and recurse; when
the first 1 lies beyond the opening hand, try every choice of the m − 1 cards kept while
waiting for it.  Each call memoizes on (remaining sequence, p), as the thesis' "tables"
did.  They are exponential in the worst case; :mod:`hanabi_ref.tools.playability.solver` is the
fast method and the tests check the two against each other and against the exhaustive
open-game search.

Also here: the properties of Theorem 3.13 as predicates, Theorem 3.33 (sorting by colour)
and Corollary 3.34 (hand size 1 is colour by colour).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import TypeVar

from hanabi_ref.tools.playability.composition import Card
from hanabi_ref.tools.playability.formulas import contains_run

Item = TypeVar("Item", int, Card)


# ------------------------------------------------------------------ Algorithm 3.29


def is_playable_single(sequence: Sequence[int], k: int, m: int) -> bool:
    """Algorithm 3.29: is the single-colour ``sequence`` (k, m)-playable? [3.29]

    k = 0 is always playable, the base of Theorem 3.13(1) [3.13-1]: playability only
    gets harder as k grows."""
    _check_arguments(k, m)
    if k == 0:
        return True  # 3.13-1: every sequence scores at least 0
    # Step 1 (3.13-4): there are only n − m + 1 turns.
    if len(sequence) - m + 1 < k:
        return False
    memo: dict[tuple[tuple[int, ...], int], bool] = {}
    return _step_2(tuple(sequence), k, m, memo, _position_of_value_one, _lower_single)


def _position_of_value_one(sequence: tuple[int, ...]) -> int | None:
    """1-based position of the first 1 [3.29 step 2a]."""
    for position, value in enumerate(sequence, start=1):
        if value == 1:
            return position
    return None


def _lower_single(sequence: tuple[int, ...], played: int) -> tuple[int, ...]:
    """S − 1 (Notation 2.3): every value lowered by one [3.28]."""
    return tuple(value - 1 for value in sequence)


# ------------------------------------------------------------------ Algorithm 3.36


def is_playable_multi(sequence: Sequence[Card], k: int, m: int) -> bool:
    """Algorithm 3.36: is the multi-colour ``sequence`` of (value, colour) cards
    (k, m)-playable? [3.36]"""
    _check_arguments(k, m)
    if k == 0:
        return True
    if len(sequence) - m + 1 < k:
        return False
    memo: dict[tuple[tuple[Card, ...], int], bool] = {}
    return _step_2(tuple(sequence), k, m, memo, _position_of_card_one, _lower_colour)


def _position_of_card_one(sequence: tuple[Card, ...]) -> int | None:
    """1-based position of the first card of value 1, of any colour [3.36 step 2a]."""
    for position, (value, _) in enumerate(sequence, start=1):
        if value == 1:
            return position
    return None


def _lower_colour(sequence: tuple[Card, ...], colour: Card) -> tuple[Card, ...]:
    """S −_y 1 of Theorem 3.35: only the cards of the played card's colour y are lowered."""
    y = colour[1]
    return tuple((value - 1, c) if c == y else (value, c) for value, c in sequence)


# ------------------------------------------------------------------ step 2, shared


def _step_2(
    sequence: tuple[Item, ...],
    p: int,
    m: int,
    memo: dict[tuple[tuple[Item, ...], int], bool],
    first_one: Callable[[tuple[Item, ...]], int | None],
    lower: Callable[[tuple[Item, ...], Item], tuple[Item, ...]],
) -> bool:
    """Step 2 of Algorithms 3.29 / 3.36 with n = len(sequence) [3.29, 3.36]."""
    key = (sequence, p)
    if key in memo:
        return memo[key]
    n = len(sequence)
    # (a) The first 1; none left means the next value can never be played.
    i = first_one(sequence)
    if i is None:
        result = False
    elif p == 1:
        result = True
    elif n - i < p - 1:
        result = False  # after the 1 only n − i turns remain for p − 1 plays
    elif i <= m:
        # (b) The 1 is in the opening hand: play it.
        played = sequence[i - 1]
        rest = sequence[: i - 1] + sequence[i:]
        result = _step_2(lower(rest, played), p - 1, m, memo, first_one, lower)
    else:
        # (c) Discard while waiting for the 1, keeping some m − 1 cards t′ of t.
        played = sequence[i - 1]
        before, after = sequence[: i - 1], sequence[i:]
        kept_choices = dict.fromkeys(tuple(before[j] for j in chosen) for chosen in combinations(range(i - 1), m - 1))
        result = any(
            _step_2(lower(kept + after, played), p - 1, m, memo, first_one, lower) for kept in kept_choices
        )
    memo[key] = result
    return result


def _check_arguments(k: int, m: int) -> None:
    if k < 0:
        raise ValueError(f"score k must be non-negative, got {k}")
    if m < 1:
        raise ValueError(f"hand size m must be at least 1, got {m}")


# ------------------------------------------------------------------ Theorem 3.13


def has_all_values(sequence: Sequence[int], k: int) -> bool:
    """{1, …, k} ⊆ {S}: without it S is not (k, m)-playable for any m [3.13-3]."""
    return set(range(1, k + 1)) <= set(sequence)


def has_enough_turns(length: int, k: int, m: int) -> bool:
    """N − m + 1 ≥ k: without it S is not (k, m)-playable [3.13-4]."""
    return length - m + 1 >= k


contains_subsequence = contains_run
"""(1, …, k) is a subsequence of S, i.e. S is (k, 1)-playable [3.13-2]."""


# ------------------------------------------------------------------ Theorem 3.33, Corollary 3.34


def sorted_by_colour(sequence: Sequence[Card]) -> tuple[Card, ...]:
    """S′ of Theorem 3.33: S sorted stably by colour [3.33]."""
    return tuple(sorted(sequence, key=lambda card: card[1]))


def colour_values(sequence: Sequence[Card], colour: int) -> tuple[int, ...]:
    """Y_j of Corollary 3.34: the values of one colour, in order [3.34]."""
    return tuple(value for value, c in sequence if c == colour)


def best_score_hand_one(sequence: Sequence[Card]) -> int:
    """The best score with hand size 1 [3.34]: every colour independently reaches the
    longest prefix 1, 2, … of its values that occurs as a subsequence (3.13-2)."""
    score = 0
    for colour in sorted({c for _, c in sequence}):
        wanted = 1
        for value in colour_values(sequence, colour):
            if value == wanted:
                wanted += 1
        score += wanted - 1
    return score
