"""Closed forms for hand size 1: the thesis' §3.4 (spec/playability.md §2).

With one card in hand and no passes, a single-colour sequence is (k, 1)-playable exactly
when it contains (1, 2, ..., k) as a subsequence [3.13-2]. For counts x = (x_1, ..., x_k)
(x_i cards of value i, N cards in all) this module computes, with exact integers:

* T(x), the number of distinct sequences [3.15-T];
* chi(x) and psi(x) = T(x) - chi(x), the numbers of playable and unplayable ones, by
  the printed closed forms [3.17, 3.18, 3.24, 3.25] and by the recursions [3.22, 3.23];
  both are symmetric in x [3.21];
* both sides of Corollary 3.26, as printed and corrected [3.26].

Proofs, including why the printed Corollary 3.26 is false, are in
proofs/playability_closed_forms.md; proofs/check_closed_forms.py checks every function
here against exhaustive enumeration.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from functools import lru_cache

__all__ = [
    "chi",
    "chi_by_recursion",
    "chi_four",
    "chi_three",
    "chi_two",
    "contains_run",
    "corollary_3_26_as_printed",
    "corollary_3_26_corrected",
    "multinomial",
    "psi",
    "psi_by_recursion",
    "theorem_3_25_sum",
    "total",
]


# ------------------------------------------------------------------ arguments


def _checked_counts(counts: Sequence[int], *, allow_empty: bool = False) -> tuple[int, ...]:
    """The counts as a tuple; a one-line ValueError if one is negative or not an integer,
    or if there are none (unless ``allow_empty``)."""
    result = tuple(counts)
    for position, count in enumerate(result):
        if isinstance(count, bool) or not isinstance(count, int):
            raise ValueError(f"counts[{position}] = {count!r} is not an integer")
        if count < 0:
            raise ValueError(f"counts[{position}] = {count} is negative")
    if not result and not allow_empty:
        raise ValueError("counts is empty: at least one value is needed")
    return result


def _checked_count(name: str, value: int) -> int:
    """One count passed as a separate argument (the fixed-k formulas)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} = {value!r} is not an integer")
    if value < 0:
        raise ValueError(f"{name} = {value} is negative")
    return value


# ------------------------------------------------------------------ integer helpers


def _power(base: int, exponent: int) -> int:
    """base ** exponent for exponent >= 0, typed as an int (0 ** 0 = 1)."""
    result: int = base**exponent
    return result


def _sign(ell: int) -> int:
    """(-1) ** ell."""
    return -1 if ell % 2 else 1


# ------------------------------------------------------------------ counting sequences


def multinomial(counts: Sequence[int]) -> int:
    """The multinomial coefficient (c_1 + ... + c_r)! / (c_1! ... c_r!) [3.15-T].

    It counts the words with c_i letters of kind i; the empty sequence gives 0!/1 = 1.
    """
    parts = _checked_counts(counts, allow_empty=True)
    result = math.factorial(sum(parts))
    for part in parts:
        result //= math.factorial(part)
    return result


def total(counts: Sequence[int]) -> int:
    """T(x_1, ..., x_k) = N! / (x_1! ... x_k!), Eq. 3.4.1 [3.15-T]: the number of distinct
    sequences with x_i cards of value i."""
    return multinomial(_checked_counts(counts))


def contains_run(sequence: Sequence[int], k: int) -> bool:
    """Whether (1, 2, ..., k) is a subsequence of ``sequence`` [3.13-2].

    Greedy scan: taking the first usable occurrence of each next value never hurts, so
    ``matched`` is the longest prefix 1..j of the run found so far. Values outside 1..k
    (zero and negative ones included) are never used. k = 0 is always contained.
    """
    if isinstance(k, bool) or not isinstance(k, int) or k < 0:
        raise ValueError(f"k = {k!r} must be a non-negative integer")
    matched = 0
    for value in sequence:
        if matched < k and value == matched + 1:
            matched += 1
    return matched == k


# ------------------------------------------------------------------ k = 2, 3, 4 as printed


def chi_two(x1: int, x2: int) -> int:
    """Theorem 3.17: chi(x_1, x_2) = C(N, x_1) - 1 [3.17].

    The thesis states it for x_1, x_2 >= 0; with a count 0 it gives 1 - 1 = 0, which is
    right (3.13-3).
    """
    n = _checked_count("x1", x1) + _checked_count("x2", x2)
    return math.comb(n, x1) - 1


def _binomial_prefix_sum(n: int, upper: int) -> int:
    """Sum of C(n, i) for 0 <= i < upper (empty when upper <= 0)."""
    return sum(math.comb(n, i) for i in range(upper))


def chi_three(x1: int, x2: int, x3: int) -> int:
    """Theorem 3.18: chi = T - 2^N + sum over j of sum_{i < x_j} C(N, i) [3.18]."""
    counts = (_checked_count("x1", x1), _checked_count("x2", x2), _checked_count("x3", x3))
    n = sum(counts)
    result = multinomial(counts) - _power(2, n)
    for count in counts:
        result += _binomial_prefix_sum(n, count)
    return result


def chi_four(x1: int, x2: int, x3: int, x4: int) -> int:
    """Theorem 3.24 [3.24]: chi = T - 3^N + sum_j sum_{i < x_j} C(N, i) 2^(N - i)
    - sum over the six pairs t < u of sum_{i < x_t, j < x_u} N! / (i! j! (N - i - j)!).

    The printed "- ... -" between the first and the last double sum stands for all six
    pairs of values; Theorem 3.25 with k = 4 has exactly these terms.
    """
    counts = tuple(_checked_count(f"x{i}", x) for i, x in enumerate((x1, x2, x3, x4), start=1))
    n = sum(counts)
    result = multinomial(counts) - _power(3, n)
    for count in counts:
        result += sum(math.comb(n, i) * _power(2, n - i) for i in range(count))
    for first, second in itertools.combinations(counts, 2):
        for i in range(first):
            for j in range(second):
                result -= multinomial((i, j, n - i - j))
    return result


# ------------------------------------------------------------------ general k (Theorem 3.25)


def theorem_3_25_sum(counts: Sequence[int]) -> int:
    """The alternating sum of Theorem 3.25 (Eq. 3.4.2), evaluated as printed [3.25].

    Sum over l = 0, ..., k - 2 of (-1)^l times the sum over vectors I <= x with exactly
    l positive entries of C(N, I) (k - l - 1)^(N - sigma(I)), where sigma(I) is the sum of
    (i_t - 1) over the positive entries and C(N, I) = N! / (prod (i_t - 1)! (N - sigma(I))!).

    Theorem 3.25 says this is psi(x) when k >= 2 and every x_i >= 1. No convention is
    applied here: proofs/playability_closed_forms.md shows it is also psi(x) = T(x) when
    some x_i = 0, and the machine check confirms that.
    """
    x = _checked_counts(counts)
    k, n = len(x), sum(x)
    factorial = [math.factorial(m) for m in range(n + 1)]
    result = 0
    # I ranges over the box 0 <= i_t <= x_t; the box is a product of ranges.
    for vector in itertools.product(*(range(count + 1) for count in x)):
        lowered = [entry - 1 for entry in vector if entry > 0]  # i_t - 1 for i_t > 0
        ell = len(lowered)  # |I|
        if ell > k - 2:
            continue
        sigma = sum(lowered)  # sigma(I) <= N - |I|, so C(N, I) is well defined
        c_n_i = factorial[n] // (math.prod(factorial[e] for e in lowered) * factorial[n - sigma])
        result += _sign(ell) * c_n_i * _power(k - ell - 1, n - sigma)
    return result


def psi(counts: Sequence[int]) -> int:
    """psi(x), the number of sequences that are not (k, 1)-playable, by Theorem 3.25 [3.25].

    Conventions of spec [3.25]: a count 0 means no sequence is playable, so psi = T
    [3.13-3]; k = 1 with x_1 >= 1 has its one sequence playable, so psi = 0.
    """
    x = _checked_counts(counts)
    if 0 in x:
        return total(x)
    if len(x) == 1:
        return 0
    return theorem_3_25_sum(x)


def chi(counts: Sequence[int]) -> int:
    """chi(x), the number of (k, 1)-playable sequences, by Theorem 3.25: T - psi [3.25].

    With a count 0 it is 0 [3.13-3]; with k = 1 and x_1 >= 1 it is 1. The result does
    not depend on the order of the counts [3.21] (Lemma 3.21; the formula's sum over
    I <= x is symmetric too).
    """
    x = _checked_counts(counts)
    return total(x) - psi(x)


# ------------------------------------------------------------------ recursions


def chi_by_recursion(counts: Sequence[int]) -> int:
    """chi(x) by the recursion of Lemma 3.22 [3.22], memoized.

    Base cases: chi = 0 as soon as some count is 0 (that value is missing, 3.13-3), and
    chi(x_1) = 1 for a single value x_1 >= 1 (the only sequence is 1 1 ... 1).
    """
    return _chi_recursive(_checked_counts(counts))


@lru_cache(maxsize=1 << 16)
def _chi_recursive(x: tuple[int, ...]) -> int:
    """chi(x), memoized in a bounded cache (a pure function of a tuple of counts)."""
    if 0 in x:
        return 0
    if len(x) == 1:
        return 1
    # First card 1: the other x_1 - 1 ones may sit anywhere in the N - 1 later places and
    # never matter again; the remaining cards must (not) hold the run 2..k.
    first_card_one = math.comb(sum(x) - 1, x[0] - 1) * _chi_recursive(x[1:])
    return first_card_one + _first_card_not_a_one(x, _chi_recursive)


def psi_by_recursion(counts: Sequence[int]) -> int:
    """psi(x) by the recursion of Corollary 3.23 [3.23], memoized.

    Base cases: psi = T as soon as some count is 0 (no sequence is playable, 3.13-3), and
    psi(x_1) = 0 for a single value x_1 >= 1.
    """
    return _psi_recursive(_checked_counts(counts))


@lru_cache(maxsize=1 << 16)
def _psi_recursive(x: tuple[int, ...]) -> int:
    """psi(x), memoized in a bounded cache (a pure function of a tuple of counts)."""
    if 0 in x:
        return multinomial(x)
    if len(x) == 1:
        return 0
    # First card 1: the other x_1 - 1 ones may sit anywhere in the N - 1 later places and
    # never matter again; the remaining cards must (not) hold the run 2..k.
    first_card_one = math.comb(sum(x) - 1, x[0] - 1) * _psi_recursive(x[1:])
    return first_card_one + _first_card_not_a_one(x, _psi_recursive)


def _first_card_not_a_one(x: tuple[int, ...], count: Callable[[tuple[int, ...]], int]) -> int:
    """The terms of Lemma 3.22 / Corollary 3.23 for a sequence whose first card is some
    value i >= 2: that card can never be used, so the rest is counted with x_i lowered."""
    return sum(count(x[:i] + (x[i] - 1,) + x[i + 1 :]) for i in range(1, len(x)))


# ------------------------------------------------------------------ Corollary 3.26


def _checked_k(k: int) -> int:
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise ValueError(f"k = {k!r} must be a positive integer")
    return k


def corollary_3_26_as_printed(k: int) -> int:
    """Left side of Corollary 3.26 as printed [3.26]:
    sum over l = 0, ..., k - 2 of (-1)^l C(k, l) (k - l - 1)^(k - l).

    It equals k! - 1 only for k <= 3 (k = 4 gives 55, not 23).
    """
    k = _checked_k(k)
    return sum(_sign(ell) * math.comb(k, ell) * _power(k - ell - 1, k - ell) for ell in range(k - 1))


def corollary_3_26_corrected(k: int) -> int:
    """Left side of Corollary 3.26 corrected to exponent k [3.26]:
    sum over l = 0, ..., k - 2 of (-1)^l C(k, l) (k - l - 1)^k.

    This is what Theorem 3.25 gives at x = (1, ..., 1), and it is k! - 1 for every k >= 1.
    """
    k = _checked_k(k)
    return sum(_sign(ell) * math.comb(k, ell) * _power(k - ell - 1, k) for ell in range(k - 1))
