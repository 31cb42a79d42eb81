"""Closed forms for hand size 1 (hanabi_ref.tools.playability.formulas) [3.13-2, 3.15-T, 3.17,
3.18, 3.21, 3.22, 3.23, 3.24, 3.25, 3.26].

Expected numbers are the thesis' (Example 3.16, Example 3.19, Result 3.27, Corollary 3.26
at k = 4 by hand) or come from brute force: every distinct order of the cards, listed by
the generator below, tested with Python's own subsequence idiom. The exhaustive check
over all words of length <= 12 is proofs/check_closed_forms.py.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.tools.playability.formulas import (
    chi,
    chi_by_recursion,
    chi_four,
    chi_three,
    chi_two,
    contains_run,
    corollary_3_26_as_printed,
    corollary_3_26_corrected,
    multinomial,
    psi,
    psi_by_recursion,
    theorem_3_25_sum,
    total,
)

Counts = tuple[int, ...]


# ------------------------------------------------------------------ brute force


def distinct_orders(counts: Counts) -> Iterator[Counts]:
    """Every distinct sequence with counts[i] cards of value i + 1, each exactly once:
    choose the first card among the values still available, then recurse."""
    if sum(counts) == 0:
        yield ()
        return
    for index, count in enumerate(counts):
        if count:
            rest = counts[:index] + (count - 1,) + counts[index + 1 :]
            for tail in distinct_orders(rest):
                yield (index + 1,) + tail


def has_run(sequence: Sequence[int], k: int) -> bool:
    """(1, ..., k) is a subsequence: each ``in`` consumes the iterator up to the match."""
    remaining = iter(sequence)
    return all(value in remaining for value in range(1, k + 1))


def brute_playable(counts: Counts) -> set[Counts]:
    """Pl(x) of Definition 3.14, by listing Seq(x) [3.13-2]."""
    return {s for s in distinct_orders(counts) if has_run(s, len(counts))}


def brute_counts(counts: Counts) -> tuple[int, int]:
    """(chi, T) by brute force."""
    orders = list(distinct_orders(counts))
    assert len(orders) == len(set(orders))
    return sum(has_run(s, len(counts)) for s in orders), len(orders)


def small_vectors(k: int, largest: int, longest: int) -> list[Counts]:
    return [x for x in itertools.product(range(largest + 1), repeat=k) if sum(x) <= longest]


count_vectors = st.lists(st.integers(0, 3), min_size=1, max_size=5).map(tuple).filter(lambda x: sum(x) <= 9)


# ------------------------------------------------------------------ the thesis' numbers


@pytest.mark.checks("3.15-T", "3.25")
def test_example_3_16() -> None:
    """Example 3.16 [3.15-T, 3.25]: T(2,2,1) = 30, chi(2,2,1) = 11, and the eleven
    sequences printed in the thesis are exactly the playable ones."""
    printed = "11223 12123 12213 21123 21213 11232 12132 12231 21231 12312 12321".split()
    assert {tuple(int(c) for c in word) for word in printed} == brute_playable((2, 2, 1))
    assert total((2, 2, 1)) == 30 == len(set(itertools.permutations((1, 1, 2, 2, 3))))
    assert chi((2, 2, 1)) == 11 == chi_three(2, 2, 1) == chi_by_recursion((2, 2, 1))


@pytest.mark.checks("3.18", "3.25")
def test_example_3_19() -> None:
    """Example 3.19 [3.18, 3.25]: 387 of the 560 sequences of (3,3,2) are playable."""
    assert brute_counts((3, 3, 2)) == (387, 560)
    assert (chi_three(3, 3, 2), chi((3, 3, 2)), total((3, 3, 2))) == (387, 387, 560)
    assert psi((3, 3, 2)) == 560 - 387 == psi_by_recursion((3, 3, 2))


@pytest.mark.checks("3.25")
def test_result_3_27() -> None:
    """Result 3.27 [3.25]: chi(3,2,2,2,1) = 5934 of T = 75600 (classic single colour)."""
    assert (chi((3, 2, 2, 2, 1)), total((3, 2, 2, 2, 1))) == (5934, 75600)
    assert chi_by_recursion((3, 2, 2, 2, 1)) == 5934
    assert brute_counts((3, 2, 2, 2, 1)) == (5934, 75600)


# ------------------------------------------------------------------ formulas against brute force


@pytest.mark.checks("3.17", "3.18", "3.24", "3.25")
def test_printed_forms_agree_with_theorem_3_25_and_brute_force() -> None:
    """[3.17, 3.18, 3.24, 3.25] For all small counts (zeros included, as the thesis
    states 3.17, 3.18 and 3.24 for x_i >= 0) the printed forms, the general form and
    brute force agree."""
    for x in small_vectors(2, 6, 10):
        assert chi_two(*x) == chi(x) == brute_counts(x)[0], x
    for x in small_vectors(3, 4, 9):
        assert chi_three(*x) == chi(x) == brute_counts(x)[0], x
    for x in small_vectors(4, 3, 8):
        assert chi_four(*x) == chi(x) == brute_counts(x)[0], x


@pytest.mark.checks("3.15-T", "3.22", "3.23", "3.25")
@settings(max_examples=75, deadline=None)  # 225 more in the deep set
@given(x=count_vectors)
def test_theorem_3_25_and_recursions_agree_with_brute_force(x: Counts) -> None:
    """[3.15-T, 3.22, 3.23, 3.25] chi, psi, T by formula and by recursion equal the
    brute-force counts; with a zero count the printed sum still gives psi = T."""
    playable, orders = brute_counts(x)
    assert total(x) == orders == multinomial(x)
    assert chi(x) == playable == chi_by_recursion(x)
    assert psi(x) == orders - playable == psi_by_recursion(x)
    if len(x) >= 2:
        assert theorem_3_25_sum(x) == orders - playable


@pytest.mark.checks("3.21")
@settings(max_examples=50, deadline=None)  # 150 more in the deep set
@given(x=st.lists(st.integers(0, 6), min_size=1, max_size=6).map(tuple), data=st.data())
def test_chi_is_symmetric(x: Counts, data: st.DataObject) -> None:
    """Lemma 3.21 [3.21]: permuting the counts does not change chi."""
    shuffled = tuple(data.draw(st.permutations(x)))
    assert chi(x) == chi(shuffled) == chi_by_recursion(shuffled)


@pytest.mark.checks("3.13-2")
@settings(max_examples=150, deadline=None)  # 450 more in the deep set
@given(sequence=st.lists(st.integers(-1, 6), max_size=9), k=st.integers(0, 6))
def test_contains_run(sequence: list[int], k: int) -> None:
    """[3.13-2] contains_run agrees with a search over all position sets."""
    run = tuple(range(1, k + 1))
    by_positions = any(
        tuple(sequence[p] for p in positions) == run
        for positions in itertools.combinations(range(len(sequence)), k)
    )
    assert contains_run(sequence, k) == by_positions


# ------------------------------------------------------------------ Corollaries 3.20 and 3.26


@pytest.mark.checks("3.26")
def test_corollary_3_26_as_printed_is_false() -> None:
    """[3.26] As printed the identity holds for k = 1, 2, 3 and fails at k = 4 (55, not
    4! - 1 = 23, worked by hand: 81 - 32 + 6); with exponent k it holds (81 - 64 + 6)."""
    assert corollary_3_26_as_printed(4) == 3**4 - 4 * 2**3 + 6 * 1**2 == 55
    assert corollary_3_26_corrected(4) == 3**4 - 4 * 2**4 + 6 * 1**4 == 23
    for k in (1, 2, 3):
        assert corollary_3_26_as_printed(k) == math.factorial(k) - 1
    for k in range(4, 12):
        assert corollary_3_26_as_printed(k) != math.factorial(k) - 1


@pytest.mark.checks("3.25", "3.26")
def test_corollary_3_26_corrected_is_theorem_3_25_at_ones() -> None:
    """[3.25, 3.26] psi(1, ..., 1) = k! - 1 (one of the k! orders is 1 2 ... k), and the
    corrected sum is Theorem 3.25's sum at x = (1, ..., 1)."""
    for k in range(2, 9):
        ones = (1,) * k
        assert theorem_3_25_sum(ones) == corollary_3_26_corrected(k) == math.factorial(k) - 1
        if k <= 6:
            assert brute_counts(ones) == (1, math.factorial(k))


def test_corollary_3_20_trends() -> None:
    """Corollary 3.20 numerically [3.18, 3.25]: chi/T tends to 1/2 for (1, 1, n) and to
    1 for (1, n, n) and (n, n, n); the distance to the limit shrinks as n grows."""
    cases: list[tuple[Callable[[int], Counts], Fraction]] = [
        (lambda n: (1, 1, n), Fraction(1, 2)),
        (lambda n: (1, n, n), Fraction(1)),
        (lambda n: (n, n, n), Fraction(1)),
    ]
    for shape, limit in cases:
        gaps = [abs(Fraction(chi(shape(n)), total(shape(n))) - limit) for n in (2, 4, 8, 16, 24)]
        assert gaps == sorted(gaps, reverse=True) and gaps[-1] < gaps[0] / 4, gaps
        far = shape(400)
        assert abs(Fraction(chi_three(*far), total(far)) - limit) < Fraction(1, 100)


# ------------------------------------------------------------------ arguments


@pytest.mark.parametrize(
    "call",
    [
        lambda: chi([2, -1, 1]),
        lambda: psi([]),
        lambda: chi([]),
        lambda: total([]),
        lambda: total([1, -2]),
        lambda: multinomial([-1]),
        lambda: chi_by_recursion([1, 1, -1]),
        lambda: psi_by_recursion([]),
        lambda: theorem_3_25_sum([-3, 2]),
        lambda: chi([1, 2.5]),  # type: ignore[list-item]
        lambda: chi_two(-1, 2),
        lambda: chi_three(1, 2, -1),
        lambda: chi_four(1, 1, 1, -1),
        lambda: contains_run([1, 2], -1),
        lambda: corollary_3_26_as_printed(0),
        lambda: corollary_3_26_corrected(-2),
    ],
)
def test_bad_arguments_raise_value_error(call: object) -> None:
    """Negative or non-integer counts and empty count vectors are refused with one line."""
    assert callable(call)
    with pytest.raises(ValueError) as raised:
        call()
    assert "\n" not in str(raised.value)


@pytest.mark.deep
@pytest.mark.parametrize("test", [test_theorem_3_25_and_recursions_agree_with_brute_force, test_chi_is_symmetric, test_contains_run], ids=lambda test: test.__name__.removeprefix("test_"))
def test_properties_at_length(test: Any) -> None:
    """Each property test above, three more runs."""
    for _ in range(3):
        test()
