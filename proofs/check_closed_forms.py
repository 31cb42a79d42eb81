"""Machine check of proofs/playability_closed_forms.md [3.15-T, 3.17, 3.18, 3.21, 3.22,
3.23, 3.24, 3.25, 3.26].

The reference is exhaustive enumeration, which shares no code with
hanabi_ref.tools.playability.formulas:

1. Every word of length N <= 12 over the values 1..5 (305 175 781 words) is generated and
   run through the greedy automaton of the subsequence test [3.13-2] (state j = the
   longest prefix 1..j of the run matched so far); each word is binned by its count
   vector and final state. A value vector x with k <= 5 entries is the 5-vector
   (x, 0, ..., 0); its words are playable when the final state is k. The enumeration
   counts its work (words, automaton steps, Python-level prefixes) and the check asserts
   those counts, derived from the words' combinatorics, instead of a wall-clock time.
2. From these bins: T [3.15-T], Theorem 3.25 for every count vector with N <= 12 and
   k <= 5 (1585 vectors with all x_i >= 1), its extension to zero counts, the recursions
   of Lemma 3.22 and Corollary 3.23, the printed forms of Theorems 3.17, 3.18 and 3.24
   (also with zero counts, as the thesis states them for x_i >= 0), the symmetry of
   Lemma 3.21, the thesis' worked numbers and the closed forms behind Corollary 3.20.
3. Lemma 3.21's swap bijection, implemented as in the proof and checked to map Pl(x)
   one-to-one onto Pl(sigma x) for every count vector with N <= 8 and every transposition.
4. Corollary 3.26 as printed against k! - 1 and against the corrected identity, k <= 30,
   and the inequalities of the proof that the printed form fails for every k >= 4.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt
import pytest

from hanabi_ref.tools.playability.formulas import (
    chi,
    chi_by_recursion,
    chi_four,
    chi_three,
    chi_two,
    corollary_3_26_as_printed,
    corollary_3_26_corrected,
    psi,
    psi_by_recursion,
    theorem_3_25_sum,
    total,
)

LETTERS = 5  # words over the values 1..5
LONGEST = 12  # every word of length 0..12
SUFFIX_LENGTH = 8  # words are enumerated as a fixed prefix times an array of all suffixes
STATES = LETTERS + 1  # automaton states 0..5
RADIX = LONGEST + 1  # a count vector c is coded as sum c_t * RADIX**t (additive)

Counts = tuple[int, ...]


# ------------------------------------------------------------------ the enumeration


@dataclass(frozen=True)
class Work:
    """What the enumeration did for one word length, counted as it went."""

    words: int  # words binned
    steps: int  # automaton steps taken: one per value read, in Python or in numpy
    prefixes: int  # iterations of the Python loop over prefixes (each a numpy pass)


@dataclass(frozen=True)
class Enumeration:
    """Number of words per (count vector of the values 1..5, final automaton state)."""

    bins: dict[Counts, tuple[int, ...]]  # 5-vector -> words ending in state 0..5
    work: tuple[Work, ...]  # for N = 0..12

    @property
    def words_per_length(self) -> tuple[int, ...]:
        """Words generated for N = 0..12."""
        return tuple(work.words for work in self.work)

    def row(self, x: Counts) -> tuple[int, ...]:
        padded = x + (0,) * (LETTERS - len(x))
        return self.bins.get(padded, (0,) * STATES)

    def total(self, x: Counts) -> int:
        """Number of words with counts x (values above len(x) absent)."""
        return sum(self.row(x))

    def playable(self, x: Counts) -> int:
        """Number of those words whose run reaches state k = len(x): (1..k) is a
        subsequence [3.13-2]. Without values above k the state cannot pass k."""
        return sum(self.row(x)[len(x) :])


def final_state(word: Counts, start: int = 0) -> int:
    """The greedy automaton of the subsequence test [3.13-2]: from state j, reading the
    value j + 1 moves to j + 1, any other value leaves j unchanged."""
    state = start
    for value in word:
        if state < LETTERS and value == state + 1:
            state += 1
    return state


def all_words(length: int) -> npt.NDArray[np.uint8]:
    """Every word of ``length`` values in 1..5, one per row (5**length rows)."""
    rows = np.arange(LETTERS**length, dtype=np.int64)[:, None]
    digits = (rows // LETTERS ** np.arange(length, dtype=np.int64)) % LETTERS
    return (digits + 1).astype(np.uint8)


def count_code(word: Counts) -> int:
    return sum(RADIX ** (value - 1) for value in word)


def bin_words_of_length(length: int, bins: npt.NDArray[np.int64], lookup: npt.NDArray[np.int64]) -> Work:
    """Add every word of ``length`` to ``bins`` (rows indexed by ``lookup`` of the count
    code); returns the work done, counted as it is done.

    A word is prefix + suffix. For each prefix (a Python tuple) the automaton state is
    carried into the array of all suffixes, which is run column by column, so every word
    gets its own final state; the words are then binned by (suffix counts, final state),
    and the prefix's counts are added to place them under the word's own count vector.
    """
    suffix_length = min(length, SUFFIX_LENGTH)
    suffixes = all_words(suffix_length)
    columns = np.ascontiguousarray(suffixes.T)
    suffix_counts = (suffixes[:, :, None] == np.arange(1, LETTERS + 1, dtype=np.uint8)).sum(axis=1)
    suffix_codes = suffix_counts.astype(np.int64) @ (RADIX ** np.arange(LETTERS, dtype=np.int64))
    distinct_codes, which = np.unique(suffix_codes, return_inverse=True)
    base_keys = which.astype(np.int64).reshape(-1) * STATES
    generated = steps = prefixes = 0
    for prefix in itertools.product(range(1, LETTERS + 1), repeat=length - suffix_length):
        state = np.full(len(suffixes), final_state(prefix), dtype=np.uint8)
        steps += len(prefix)
        for column in columns:
            state += column == state + 1  # the automaton step, on every word at once
            steps += len(state)
        per_bin = np.bincount(base_keys + state, minlength=len(distinct_codes) * STATES)
        bins[lookup[count_code(prefix) + distinct_codes]] += per_bin.reshape(-1, STATES)
        generated += int(per_bin.sum())
        prefixes += 1
    return Work(generated, steps, prefixes)


@cache
def enumeration() -> Enumeration:
    """Every word of length N <= 12 over 1..5, binned by (count vector, final state)."""
    vectors = [c for c in itertools.product(range(LONGEST + 1), repeat=LETTERS) if sum(c) <= LONGEST]
    codes = np.array(vectors, dtype=np.int64) @ (RADIX ** np.arange(LETTERS, dtype=np.int64))
    lookup = np.full(RADIX**LETTERS, -1, dtype=np.int64)
    lookup[codes] = np.arange(len(vectors))
    bins = np.zeros((len(vectors), STATES), dtype=np.int64)
    work = tuple(bin_words_of_length(length, bins, lookup) for length in range(LONGEST + 1))
    table = {vector: tuple(int(n) for n in bins[index]) for index, vector in enumerate(vectors)}
    return Enumeration(table, work)


def count_vectors(k: int, *, positive: bool) -> Iterator[Counts]:
    """Every vector of k counts with sum <= 12 (all >= 1 if ``positive``)."""
    lowest = 1 if positive else 0
    for x in itertools.product(range(lowest, LONGEST + 1), repeat=k):
        if sum(x) <= LONGEST:
            yield x


def with_a_zero(k: int) -> Iterator[Counts]:
    return (x for x in count_vectors(k, positive=False) if 0 in x)


# ------------------------------------------------------------------ the checks


@pytest.mark.checks("3.15-T")
def test_enumeration_generates_every_word_once() -> None:
    """All 5**N words of each length were generated and binned; each count vector holds
    N!/prod(x_i!) words [3.15-T] (math.factorial, not our code)."""
    data = enumeration()
    assert data.words_per_length == tuple(LETTERS**n for n in range(LONGEST + 1))
    binned = [0] * (LONGEST + 1)
    for vector, row in data.bins.items():
        binned[sum(vector)] += sum(row)
        expected = math.factorial(sum(vector)) // math.prod(math.factorial(c) for c in vector)
        assert sum(row) == expected == total(vector), vector
    assert binned == list(data.words_per_length)
    assert sum(binned) == (LETTERS ** (LONGEST + 1) - 1) // (LETTERS - 1) == 305_175_781


def test_enumeration_does_the_work_of_reading_each_word_once() -> None:
    """The work, not the time: a word of length N = p + s (s = min(N, 8)) is a prefix of
    p values, one of 5**p, read once in Python, times a suffix read in numpy. So length N
    takes exactly p * 5**p + s * 5**N automaton steps and 5**p Python iterations, at most
    N steps per word and 5**4 = 625 iterations for N = 12: no word is read twice, and
    the Python loop never runs once per word (789 iterations for 305 175 781 words)."""
    data = enumeration()
    for length, work in enumerate(data.work):
        suffix = min(length, SUFFIX_LENGTH)
        prefix = length - suffix
        assert (work.steps, work.prefixes) == (prefix * LETTERS**prefix + suffix * LETTERS**length, LETTERS**prefix), length
        assert work.steps <= length * work.words
    assert sum(work.prefixes for work in data.work) == (SUFFIX_LENGTH + 1) + 5 + 25 + 125 + 625 == 789


def test_enumeration_matches_a_word_by_word_count() -> None:
    """For N <= 7 the bins equal a plain Python count, word by word, without the
    prefix/suffix split (so the vectorised binning is checked too)."""
    recount: dict[tuple[Counts, int], int] = {}
    for length in range(8):
        for word in itertools.product(range(1, LETTERS + 1), repeat=length):
            vector = tuple(word.count(v) for v in range(1, LETTERS + 1))
            key = (vector, final_state(word))
            recount[key] = recount.get(key, 0) + 1
    data = enumeration()
    for vector, row in data.bins.items():
        if sum(vector) <= 7:
            assert row == tuple(recount.get((vector, state), 0) for state in range(STATES)), vector


@pytest.mark.checks("3.25")
def test_theorem_3_25_on_every_count_vector() -> None:
    """[3.25] chi and psi of Theorem 3.25 equal the enumerated counts for every x with
    k <= 5 values, all x_i >= 1, N <= 12 (k = 1 by the spec's convention)."""
    data = enumeration()
    checked = 0
    for k in range(1, LETTERS + 1):
        for x in count_vectors(k, positive=True):
            assert chi(x) == data.playable(x), x
            assert psi(x) == data.total(x) - data.playable(x), x
            if k >= 2:
                assert theorem_3_25_sum(x) == psi(x), x
            checked += 1
    # Independent count: sum over N = k..12 of C(N - 1, k - 1) = C(12, k) (hockey stick).
    assert checked == sum(math.comb(LONGEST, k) for k in range(1, LETTERS + 1)) == 1585


@pytest.mark.checks("3.25", "3.13-3")
def test_theorem_3_25_with_zero_counts() -> None:
    """[3.25, 3.13-3] With a count 0 nothing is playable; the printed sum of Theorem 3.25
    then still equals psi = T (proof, section 2), and chi/psi follow the convention."""
    data = enumeration()
    checked = 0
    for k in range(1, LETTERS + 1):
        for x in with_a_zero(k):
            assert data.playable(x) == 0 == chi(x), x
            assert psi(x) == data.total(x), x
            if k >= 2:
                assert theorem_3_25_sum(x) == data.total(x), x
            checked += 1
    # Vectors in N_0^k with sum <= 12 number C(12 + k, k); C(12, k) of them are positive.
    assert checked == sum(math.comb(LONGEST + k, k) - math.comb(LONGEST, k) for k in range(1, LETTERS + 1)) == 6982


@pytest.mark.checks("3.22", "3.23")
def test_recursions_of_lemma_3_22_and_corollary_3_23() -> None:
    """[3.22, 3.23] Both recursions give the enumerated chi and psi for every vector,
    zero counts included."""
    data = enumeration()
    for k in range(1, LETTERS + 1):
        for x in count_vectors(k, positive=False):
            assert chi_by_recursion(x) == data.playable(x), x
            assert psi_by_recursion(x) == data.total(x) - data.playable(x), x


@pytest.mark.checks("3.17", "3.18", "3.24")
def test_printed_forms_for_two_three_and_four_values() -> None:
    """[3.17, 3.18, 3.24] The printed formulas equal the enumerated chi for every vector
    with N <= 12, zero counts included (the thesis states them for x_i >= 0)."""
    data = enumeration()
    for x in count_vectors(2, positive=False):
        assert chi_two(*x) == data.playable(x), x
    for x in count_vectors(3, positive=False):
        assert chi_three(*x) == data.playable(x), x
    for x in count_vectors(4, positive=False):
        assert chi_four(*x) == data.playable(x), x


@pytest.mark.checks("3.25")
def test_thesis_numbers() -> None:
    """Example 3.16, Example 3.19 and Result 3.27 [3.25], from the enumeration alone."""
    data = enumeration()
    assert (data.playable((2, 2, 1)), data.total((2, 2, 1))) == (11, 30)
    assert (data.playable((3, 3, 2)), data.total((3, 3, 2))) == (387, 560)
    assert (data.playable((3, 2, 2, 2, 1)), data.total((3, 2, 2, 2, 1))) == (5934, 75600)


@pytest.mark.checks("3.18")
def test_corollary_3_20_closed_forms() -> None:
    """The exact forms behind Corollary 3.20 (proof, section 6): chi(1,1,n) = n(n+1)/2
    and psi(1,n,n) = 2 C(2n+1, n) - 1, against the enumeration and Theorem 3.18."""
    data = enumeration()
    for n in range(1, LONGEST - 1):
        assert data.playable((1, 1, n)) == n * (n + 1) // 2 == chi_three(1, 1, n)
    for n in range(1, (LONGEST - 1) // 2 + 1):
        assert data.total((1, n, n)) - data.playable((1, n, n)) == 2 * math.comb(2 * n + 1, n) - 1
    for n in range(1, 200):
        assert chi_three(1, 1, n) == n * (n + 1) // 2
        assert total((1, n, n)) - chi_three(1, n, n) == 2 * math.comb(2 * n + 1, n) - 1
        # psi(n, n, n) <= 2^(3n) and T(n, n, n) >= 3^(3n) / (3n + 1)^2, so psi/T -> 0.
        assert total((n, n, n)) - chi_three(n, n, n) <= 2 ** (3 * n)
        assert total((n, n, n)) * (3 * n + 1) ** 2 >= 3 ** (3 * n)


# ------------------------------------------------------------------ Lemma 3.21


@pytest.mark.checks("3.21")
def test_symmetry_in_the_enumeration() -> None:
    """[3.21] The enumerated chi is the same for every permutation of a count vector."""
    data = enumeration()
    for k in range(2, LETTERS + 1):
        for x in count_vectors(k, positive=True):
            if list(x) == sorted(x):
                values = {data.playable(p) for p in itertools.permutations(x)}
                assert len(values) == 1, (x, values)


def split_at_the_run(word: Counts, k: int) -> tuple[list[Counts], list[int]]:
    """Lemma 3.21's decomposition s = s_1 1 s_2 2 ... s_k k s_(k+1): the blocks and the
    positions of the greedy run 1..k (block s_t holds no t)."""
    run: list[int] = []
    for position, value in enumerate(word):
        if len(run) < k and value == len(run) + 1:
            run.append(position)
    assert len(run) == k, f"[3.21] {word} is not playable"
    starts = [0] + [position + 1 for position in run]
    ends = run + [len(word)]
    return [word[a:b] for a, b in zip(starts, ends)], run


def swapped_blocks(word: Counts, k: int, i: int, j: int) -> list[Counts]:
    """The blocks of f(s) in Lemma 3.21: exchange the values i and j inside every block,
    then exchange the blocks s_i and s_j."""
    blocks, _ = split_at_the_run(word, k)
    exchange = {i: j, j: i}
    swapped = [tuple(exchange.get(v, v) for v in block) for block in blocks]
    swapped[i - 1], swapped[j - 1] = swapped[j - 1], swapped[i - 1]
    return swapped


def swap_map(word: Counts, k: int, i: int, j: int) -> Counts:
    """The bijection f of Lemma 3.21 for the transposition of the values i < j: the
    swapped blocks, with the run 1, ..., k between them as before."""
    result: list[int] = []
    blocks = swapped_blocks(word, k, i, j)
    for value, block in enumerate(blocks[:k], start=1):
        result.extend(block)
        result.append(value)
    result.extend(blocks[k])
    return tuple(result)


def playable_words(k: int, length: int) -> dict[Counts, set[Counts]]:
    """Pl(x) for every x with k positive counts summing to ``length``, by listing all
    words over 1..k."""
    found: dict[Counts, set[Counts]] = {}
    for word in itertools.product(range(1, k + 1), repeat=length):
        counts = tuple(word.count(v) for v in range(1, k + 1))
        if 0 not in counts and final_state(word) == k:
            found.setdefault(counts, set()).add(word)
    return found


def check_swap_bijection(longest: int) -> int:
    """[3.21] For every x with k <= 5 and N <= ``longest`` and every transposition (i j),
    f maps Pl(x) injectively onto Pl(sigma x) and is its own inverse; the greedy
    decomposition of f(s) consists of the swapped blocks.  Returns the images checked."""
    images = 0
    for k in range(2, LETTERS + 1):
        for length in range(k, longest + 1):
            playable = playable_words(k, length)
            for x, words in playable.items():
                for i, j in itertools.combinations(range(1, k + 1), 2):
                    swapped_x = list(x)
                    swapped_x[i - 1], swapped_x[j - 1] = x[j - 1], x[i - 1]
                    image = {swap_map(word, k, i, j) for word in words}
                    assert len(image) == len(words), (x, i, j)
                    assert image == playable.get(tuple(swapped_x), set()), (x, i, j)
                    for word in words:
                        assert swap_map(swap_map(word, k, i, j), k, i, j) == word
                        # The greedy decomposition of f(s) is the swapped one (why f is an involution).
                        assert split_at_the_run(swap_map(word, k, i, j), k)[0] == swapped_blocks(word, k, i, j)
                    images += len(words)
    return images


@pytest.mark.checks("3.21")
def test_swap_bijection() -> None:
    """[3.21] The swap bijection for N <= 7 (N = 8, five times as many images, is in the
    deep set)."""
    assert check_swap_bijection(7) > 15_000  # the check reached the large cases (about 15 800 images)


@pytest.mark.deep
@pytest.mark.checks("3.21")
def test_swap_bijection_deep() -> None:
    """[3.21] The swap bijection for N <= 8."""
    assert check_swap_bijection(8) > 100_000  # the check reached the large cases (about 112 000 images)


# ------------------------------------------------------------------ Corollary 3.26


@pytest.mark.checks("3.26", "3.25")
def test_corollary_3_26_printed_and_corrected() -> None:
    """[3.26] As printed, the identity holds for k <= 3 and fails for every 4 <= k <= 30
    (k = 4: 55, not 23); with exponent k it holds for every k <= 30, as the forward
    difference argument says; and it is Theorem 3.25 at x = (1, ..., 1)."""
    failing = [k for k in range(1, 31) if corollary_3_26_as_printed(k) != math.factorial(k) - 1]
    assert failing == list(range(4, 31))
    assert (corollary_3_26_as_printed(4), math.factorial(4) - 1) == (55, 23)
    for k in range(4, 31):
        # Proof, section 5: the terms u_m = C(k, m)(m - 1)^m (m = k - l) shrink as m
        # falls, so the printed sum is at least u_k - u_(k-1) >= (k - 1)^k / 2 > k!.
        terms = [math.comb(k, m) * (m - 1) ** m for m in range(2, k + 1)]
        assert terms == sorted(terms) and len(set(terms)) == len(terms)
        assert 2 * corollary_3_26_as_printed(k) >= 2 * (terms[-1] - terms[-2]) >= (k - 1) ** k > 2 * math.factorial(k)
    for k in range(1, 31):
        assert corollary_3_26_corrected(k) == math.factorial(k) - 1, k
        # The k-th backward difference of y^k at any point is k! (proof, section 5).
        for point in (-3, 0, k - 1, 2 * k + 5):
            assert sum((-1) ** ell * math.comb(k, ell) * (point - ell) ** k for ell in range(k + 1)) == math.factorial(k)
    data = enumeration()
    for k in range(2, LETTERS + 1):
        ones = (1,) * k
        assert theorem_3_25_sum(ones) == corollary_3_26_corrected(k) == data.total(ones) - data.playable(ones)
