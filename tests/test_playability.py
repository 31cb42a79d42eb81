"""Playability (spec/playability.md): the thesis' examples, Appendix A, and the three
deciders (Algorithms 3.29/3.36, the dominance solver PL-solve, the exhaustive open-game
search 3.4-search) against each other and against brute-force counts.

Expected values are transcribed from the thesis or computed here by an independent
method (enumerating every order and deciding it with another algorithm).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.cli import main
from hanabi_ref.tools.playability.algorithms import (
    best_score_hand_one,
    contains_subsequence,
    has_all_values,
    has_enough_turns,
    is_playable_multi,
    is_playable_single,
    sorted_by_colour,
)
from hanabi_ref.tools.playability.composition import (
    Card,
    Composition,
    CompositionError,
    distinct_orders,
    multinomial,
    parse_composition,
    single_colour,
)
from hanabi_ref.tools.playability.exact import STATE_LIMIT, TooLargeError, exact_count
from hanabi_ref.tools.playability.opengame import is_sequence_playable_by_search
from hanabi_ref.tools.playability.sampling import estimate
from hanabi_ref.tools.playability.solver import PlayableCounter, count_playable, solve
from hanabi_ref.tools.playability.table import Row, appendix_a, appendix_a_counts
from tests.playability_appendix_a import APPENDIX_A
from tests.processes import run_process

# ------------------------------------------------------------------ the thesis' examples


@pytest.mark.checks("3.29", "PL-solve", "3.4-search")
def test_example_3_30_is_not_playable() -> None:
    """Example 3.30: (4, 2, 3, 1, 3, 2, 1, 1) is not (4, 2)-playable [3.29, PL-solve, 3.4-search]."""
    sequence = (4, 2, 3, 1, 3, 2, 1, 1)
    assert not is_playable_single(sequence, 4, 2)
    assert not solve(sequence, 4, 2)
    assert not is_sequence_playable_by_search(sequence, 4, 2)
    assert is_playable_single(sequence, 3, 2) == is_sequence_playable_by_search(sequence, 3, 2)


@pytest.mark.checks("3.36", "3.35", "PL-solve")
def test_example_3_37_is_playable() -> None:
    """Example 3.37: the two-colour sequence is (4, 2)-playable [3.36, 3.35, PL-solve]."""
    sequence: tuple[Card, ...] = ((2, 1), (1, 1), (3, 2), (1, 2), (3, 1), (2, 2), (1, 1))
    assert is_playable_multi(sequence, 4, 2)
    assert solve(sequence, 4, 2)
    assert is_sequence_playable_by_search(sequence, 4, 2)


@pytest.mark.checks("3.10-turns", "3.10")
def test_examples_3_11_and_3_12() -> None:
    """(4, 3, 2, 1, 1, 1, 1) is (4, 4)- but not (4, 1)-playable; (1, 2, 3, 4) the reverse [3.10-turns]."""
    assert solve((4, 3, 2, 1, 1, 1, 1), 4, 4) and not solve((4, 3, 2, 1, 1, 1, 1), 4, 1)
    assert solve((1, 2, 3, 4), 4, 1) and not solve((1, 2, 3, 4), 4, 4)
    assert is_playable_single((4, 3, 2, 1, 1, 1, 1), 4, 4) and not is_playable_single((1, 2, 3, 4), 4, 4)


@pytest.mark.checks("PL-count", "3.25", "3.34")
@pytest.mark.parametrize(
    ("counts", "playable", "total"),
    [((2, 2, 1), 11, 30), ((3, 3, 2), 387, 560), ((3, 2, 2, 2, 1), 5934, 75600)],
)
def test_hand_size_one_counts_of_the_thesis(counts: tuple[int, ...], playable: int, total: int) -> None:
    """Example 3.16, Example 3.19 and Result 3.27, by the counting recursion (not the closed
    form) and by the closed form behind ``exact_count`` [PL-count, 3.25, 3.34]."""
    composition = single_colour(counts)
    assert count_playable(composition, 1) == playable
    assert exact_count(composition, 1).playable == playable
    assert composition.total == total


# ------------------------------------------------------------------ Appendix A

# Two printed cells disagree with every method we have; each is settled below by brute force.
ERRATA = {((1, 2, 1, 4, 2), 1), ((1, 2, 2, 3, 2), 2)}


@pytest.fixture(scope="module")
def computed_table() -> tuple[Row, ...]:
    """Appendix A as ``appendix_a`` computes it, once for the tests of this module (the
    rows are frozen)."""
    return tuple(appendix_a())


@pytest.mark.checks("PL-table")
def test_appendix_a_matches_the_thesis(computed_table: tuple[Row, ...]) -> None:
    """Every cell of Appendix A, rounded to four decimals, equals the printed value, except
    the two errata [PL-table]."""
    rows = computed_table
    assert [row.counts for row in rows] == [counts for counts, _ in APPENDIX_A]
    assert len(rows) == 126 == len(appendix_a_counts())
    mismatches = set()
    for row, (counts, printed) in zip(rows, APPENDIX_A):
        assert row.total == multinomial(counts)
        for m, (fraction, cell) in enumerate(zip(row.fractions, printed), start=1):
            if f"{fraction:.4f}" != cell:
                mismatches.add((counts, m))
    assert mismatches == ERRATA


@pytest.mark.checks("3.13-2", "3.21", "3.29")
def test_appendix_a_errata_by_brute_force(computed_table: tuple[Row, ...]) -> None:
    """(1,2,1,4,2), m = 1 prints 0.0560: every order decided by the subsequence test gives
    2114 / 37800 = 0.05593, and Lemma 3.21 makes it equal the row (1,2,1,2,4), printed
    0.0559.  (1,2,2,3,2), m = 2 prints 0.3755: Algorithm 3.29 on every one of the 75600
    orders gives 28384, 0.375450 rounded from 0.3754497 [3.13-2, 3.21, 3.29]."""
    deck = [1, 2, 2, 3, 4, 4, 4, 4, 5, 5]
    by_subsequence = sum(contains_subsequence(order, 5) for order in distinct_orders(deck))  # type: ignore[arg-type]
    swapped = [1, 2, 2, 3, 4, 4, 5, 5, 5, 5]
    assert by_subsequence == sum(contains_subsequence(o, 5) for o in distinct_orders(swapped))  # type: ignore[arg-type]
    assert f"{by_subsequence / 37800:.4f}" == "0.0559"
    deck = [1, 2, 2, 3, 3, 4, 4, 4, 5, 5]
    by_algorithm = sum(is_playable_single(order, 5, 2) for order in distinct_orders(deck))  # type: ignore[arg-type]
    assert f"{by_algorithm / 75600:.4f}" == "0.3754"
    table = {row.counts: row.playable for row in computed_table}
    assert table[(1, 2, 1, 4, 2)][0] == by_subsequence
    assert table[(1, 2, 2, 3, 2)][1] == by_algorithm


@pytest.mark.checks("3.29", "PL-table")
@pytest.mark.parametrize("counts", [
    (1, 1, 1, 1, 6),
    # The classic row: 75600 orders, five times as long as the three others together.
    pytest.param((3, 2, 2, 2, 1), marks=pytest.mark.deep),
    (1, 1, 6, 1, 1),
    (6, 1, 1, 1, 1),
])
def test_appendix_a_rows_by_algorithm_3_29(counts: tuple[int, ...], computed_table: tuple[Row, ...]) -> None:
    """Whole rows recomputed the thesis' way: Algorithm 3.29 on every order [3.29, PL-table]."""
    deck = [value for value, count in enumerate(counts, start=1) for _ in range(count)]
    orders = list(distinct_orders(deck))
    expected = tuple(sum(is_playable_single(o, 5, m) for o in orders) for m in range(1, 6))  # type: ignore[arg-type]
    assert {row.counts: row.playable for row in computed_table}[counts] == expected


# ------------------------------------------------------------------ three deciders agree

SMALL_SINGLE = [
    (2, 2, 1), (1, 2, 2), (2, 1, 1, 1), (1, 1, 2, 1), (3, 1, 2), (1, 1, 1, 1),
    # Six cards in four values, like (1, 1, 1, 3) below, with 180 orders instead of 120.
    pytest.param((2, 2, 1, 1), marks=pytest.mark.deep),
    (1, 1, 1, 3),
]
SMALL_MULTI = ["1,1/1,1", "2,1/1,1", "2,1/2,1", "1,1,1/1", "2,1/1", "1,2/1,1"]


@pytest.mark.checks("3.29", "3.28", "PL-solve", "3.4-search", "PL-count")
@pytest.mark.parametrize("counts", SMALL_SINGLE)
def test_single_colour_deciders_agree_on_every_order(counts: tuple[int, ...]) -> None:
    """Alg 3.29, PL-solve and the exhaustive search decide every order alike, for every
    target and hand size; PL-count equals the brute-force count [3.29, PL-solve, 3.4-search, PL-count]."""
    composition = single_colour(counts)
    deck = [value for value, _ in composition.deck]
    for m in range(1, len(deck) + 1):
        for k in range(0, len(counts) + 1):
            playable = 0
            for order in distinct_orders(deck):
                sequence: Sequence[int] = order  # type: ignore[assignment]
                by_search = is_sequence_playable_by_search(sequence, k, m)
                assert is_playable_single(sequence, k, m) == by_search, (order, k, m)
                assert solve(sequence, k, m) == by_search, (order, k, m)
                playable += by_search
            if k == len(counts):
                assert count_playable(composition, m) == playable


@pytest.mark.checks("3.36", "3.35", "3.32", "PL-solve", "3.4-search", "PL-count", "3.34")
@pytest.mark.parametrize("text", SMALL_MULTI)
def test_multi_colour_deciders_agree_on_every_order(text: str) -> None:
    """Alg 3.36, PL-solve and the exhaustive search on every order of small two-colour
    decks; PL-count and the hand-size-1 product formula equal the brute-force count
    [3.36, 3.32, PL-solve, 3.4-search, PL-count, 3.34]."""
    composition = parse_composition(text)
    for m in range(1, composition.size + 1):
        playable = 0
        for order in distinct_orders(composition.deck):
            sequence: Sequence[Card] = order  # type: ignore[assignment]
            by_search = is_sequence_playable_by_search(sequence, composition.target, m)
            assert is_playable_multi(sequence, composition.target, m) == by_search, (order, m)
            assert solve(sequence, composition.target, m) == by_search, (order, m)
            playable += by_search
        assert count_playable(composition, m) == playable
        if m == 1:
            assert exact_count(composition, 1).playable == playable


@pytest.mark.checks("3.4-no-end")
def test_no_end_reading_agrees_with_the_search() -> None:
    """Without the last round (3.4-no-end) the solver and the counter agree with the search."""
    for counts in [(1, 1, 1, 1), (2, 1, 1), (1, 2, 1, 1)]:
        composition = single_colour(counts)
        deck = [value for value, _ in composition.deck]
        for m in range(1, len(deck) + 1):
            playable = 0
            for order in distinct_orders(deck):
                sequence: Sequence[int] = order  # type: ignore[assignment]
                by_search = is_sequence_playable_by_search(sequence, len(counts), m, end_on_empty_stack=False)
                assert solve(sequence, len(counts), m, end_on_empty_stack=False) == by_search, (order, m)
                playable += by_search
            assert count_playable(composition, m, end_on_empty_stack=False) == playable


values = st.integers(min_value=-1, max_value=6)


@pytest.mark.checks("3.10", "3.29", "PL-solve")
@settings(max_examples=150, deadline=None)  # 450 more in the deep set
@given(st.lists(values, min_size=1, max_size=11), st.integers(0, 6), st.integers(1, 5))
def test_solver_equals_algorithm_3_29_on_integer_sequences(sequence: list[int], k: int, m: int) -> None:
    """Sequences in ℤ (values ≤ 0 or above k never play, but fill hand and stack) [3.10, 3.29, PL-solve]."""
    assert solve(sequence, k, m) == is_playable_single(sequence, k, m)


cards = st.tuples(st.integers(1, 3), st.integers(1, 3))


@pytest.mark.checks("3.32", "3.36", "PL-solve", "3.4-search")
@settings(max_examples=75, deadline=None)  # 225 more in the deep set
@given(st.lists(cards, min_size=1, max_size=8), st.integers(1, 3))
def test_solver_equals_search_on_random_multi_colour_sequences(sequence: list[Card], m: int) -> None:
    """Random multi-colour sequences, full target of Definition 3.32 [3.32, 3.36, PL-solve, 3.4-search]."""
    n = max(value for value, _ in sequence)
    c = max(colour for _, colour in sequence)
    for k in range(0, n * c + 1, max(1, n * c // 3)):
        by_search = is_sequence_playable_by_search(sequence, k, m)
        assert solve(sequence, k, m) == by_search
        assert is_playable_multi(sequence, k, m) == by_search


# ------------------------------------------------------------------ Theorem 3.13, 3.33, 3.34


@pytest.mark.checks("3.13-1", "3.13-2", "3.13-3", "3.13-4")
@settings(max_examples=100, deadline=None)  # 300 more in the deep set
@given(st.lists(st.integers(1, 5), min_size=1, max_size=10), st.integers(1, 5), st.integers(1, 4))
def test_theorem_3_13(sequence: list[int], k: int, m: int) -> None:
    """The four properties of Theorem 3.13, on the solver [3.13-1, 3.13-2, 3.13-3, 3.13-4]."""
    playable = solve(sequence, k, m)
    if playable:
        assert all(solve(sequence, lower, m) for lower in range(k))
    assert solve(sequence, k, 1) == contains_subsequence(sequence, k)
    # The subsequence test itself, against the definition by index choice.
    assert contains_subsequence(sequence, k) == _has_increasing_positions(sequence, k)
    if not has_all_values(sequence, k) or not has_enough_turns(len(sequence), k, m):
        assert not playable


def _has_increasing_positions(sequence: Sequence[int], k: int) -> bool:
    positions = [[i for i, v in enumerate(sequence) if v == value] for value in range(1, k + 1)]
    last = -1
    for options in positions:
        later = [i for i in options if i > last]
        if not later:
            return False
        last = later[0]
    return True


@pytest.mark.checks("3.33", "3.34")
@settings(max_examples=75, deadline=None)  # 225 more in the deep set
@given(st.lists(cards, min_size=1, max_size=8))
def test_theorem_3_33_and_corollary_3_34(sequence: list[Card]) -> None:
    """Sorting by colour keeps (k, 1)-playability; hand size 1 plays each colour apart [3.33, 3.34]."""
    best = best_score_hand_one(sequence)
    for k in range(0, best + 2):
        by_search = is_sequence_playable_by_search(sequence, k, 1)
        assert by_search == (k <= best)
        assert is_sequence_playable_by_search(sorted_by_colour(sequence), k, 1) == by_search
        assert solve(sorted_by_colour(sequence), k, 1) == by_search


@pytest.mark.checks("3.34", "PL-count")
def test_hand_size_one_product_formula_on_three_colours() -> None:
    """The interleaving product of 3.34 against a brute-force count [3.34, PL-count]."""
    composition = parse_composition("2,1/1,1/1,2")
    brute = sum(contains_all(order) for order in distinct_orders(composition.deck))  # type: ignore[arg-type]
    assert exact_count(composition, 1).playable == brute == count_playable(composition, 1)


def contains_all(order: Sequence[Card]) -> bool:
    return all(contains_subsequence([v for v, c in order if c == colour], 2) for colour in (1, 2, 3))


# ------------------------------------------------------------------ limits and sampling


@pytest.mark.checks("PL-limit")
def test_exact_counting_refuses_large_decks() -> None:
    """PL-limit: refused before any work, pointing to --samples; hand size 1 stays exact."""
    classic = parse_composition("/".join(["3,2,2,2,1"] * 5))
    with pytest.raises(TooLargeError, match="--samples"):
        exact_count(classic, 2)
    assert exact_count(classic, 1).playable == multinomial([10] * 5) * 5934**5
    assert STATE_LIMIT >= 216**2  # two colours of the classic deck are counted exactly


@pytest.mark.checks("PL-sample")
def test_sampled_estimate_covers_the_exact_fraction() -> None:
    """A seeded estimate is reproducible and its interval covers the exact count [PL-sample]."""
    composition = parse_composition("2,2,1/2,2,1")
    exact = exact_count(composition, 3)
    first = estimate(composition, 3, 1500, seed=7)
    assert first == estimate(composition, 3, 1500, seed=7)
    assert first.low <= exact.fraction <= first.high
    assert first.low < first.fraction < first.high


@pytest.mark.checks("PL-composition")
def test_composition_parsing() -> None:
    """[PL-composition] The notation, and one-line errors naming colour and value."""
    assert parse_composition("2,1,1/2,1,1").colours == ((2, 1, 1), (2, 1, 1))
    assert parse_composition("3, 2 ,2").colours == ((3, 2, 2),)
    for text, where in [("3,-1", "colour 1, value 2"), ("1,1/2,x", "colour 2, value 2"), ("1,,1", "value 2"),
                        ("2.5", "value 1"), ("1/", "colour 2"), ("", "empty"), ("0,0", "no cards")]:
        with pytest.raises(CompositionError, match=where):
            parse_composition(text)
    with pytest.raises(CompositionError):
        Composition(((1, -1),))


# ------------------------------------------------------------------ command line


def run_cli(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.checks("PL-cli")
def test_cli_count_json(capsys: pytest.CaptureFixture[str]) -> None:
    """[PL-cli] `count --json` prints exactly playable, total and fraction (Appendix A's
    classic row, m = 5: 0.8778 in the thesis)."""
    code, out, _ = run_cli(["playability", "count", "--counts", "3,2,2,2,1", "--hand-size", "5", "--json"], capsys)
    report = json.loads(out)
    assert code == 0 and set(report) == {"playable", "total", "fraction"}
    assert report["total"] == 75600 and f"{report['fraction']:.4f}" == "0.8778"
    assert report["playable"] / report["total"] == report["fraction"]


@pytest.mark.checks("PL-cli", "PL-sample")
def test_cli_sampled(capsys: pytest.CaptureFixture[str]) -> None:
    """[PL-cli, PL-sample] `--samples N --seed S` reports the estimate and its interval."""
    argv = ["playability", "count", "--counts", "2,1,1/2,1,1", "--hand-size", "2", "--samples", "300", "--seed", "3", "--json"]
    code, out, _ = run_cli(argv, capsys)
    report = json.loads(out)
    assert code == 0 and report["samples"] == 300 and report["seed"] == 3
    low, high = report["ci95"]
    assert low <= report["fraction"] <= high


@pytest.mark.checks("PL-cli")
@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["count", "--counts", "3,-2", "--hand-size", "1"], "value 2"),
        (["count", "--counts", "3,a", "--hand-size", "1"], "value 2"),
        (["count", "--counts", "", "--hand-size", "1"], "empty"),
        (["count", "--counts", "1,1", "--hand-size", "0"], "--hand-size"),
        (["count", "--counts", "1,1", "--hand-size", "x"], "--hand-size"),
        (["count", "--counts", "1,1", "--hand-size", "1", "--seed", "2"], "--seed"),
        (["count", "--counts", "1,1", "--hand-size", "1", "--samples", "0"], "--samples"),
        (["count", "--hand-size", "1"], "--counts"),
        (["count", "--counts", "/".join(["3,2,2,2,1"] * 3), "--hand-size", "2"], "--samples"),
        (["nonsense"], "invalid choice"),
    ],
)
def test_cli_bad_input(argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    """[PL-cli] Bad input: exit 2, one line on stderr naming the problem, nothing on stdout."""
    code, out, err = run_cli(["playability", *argv], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err


@pytest.mark.checks("PL-cli", "PL-table")
def test_cli_table_json_in_a_subprocess() -> None:
    """[PL-cli, PL-table] `playability table --json` from the installed entry point."""
    done = run_process(
        [sys.executable, "-m", "hanabi_ref.cli", "playability", "table", "--json"],
        capture_output=True, text=True, check=False, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert len(rows) == 126
    printed = dict(APPENDIX_A)
    classic = next(row for row in rows if row["counts"] == [3, 2, 2, 2, 1])
    assert [f"{f:.4f}" for f in classic["fractions"]] == list(printed[(3, 2, 2, 2, 1)])


@pytest.mark.checks("PL-count")
def test_counter_is_shared_across_compositions() -> None:
    """One PlayableCounter serves several compositions of the same card types with the same
    results as fresh ones [PL-count]."""
    shared = PlayableCounter([(v, 1) for v in range(1, 4)], 2, 3)
    for counts in [(2, 2, 1), (1, 2, 2), (3, 1, 1)]:
        assert shared.count(counts) == count_playable(single_colour(counts), 2)


def test_permutations_helper_is_complete() -> None:
    """distinct_orders lists each distinct order once (it is the brute-force side above)."""
    deck = [1, 1, 2, 3]
    assert sorted(distinct_orders(deck)) == sorted(set(permutations(deck)))


@pytest.mark.checks("PL-bench")
def test_bench_playability_table_reports_runs(capsys: pytest.CaptureFixture[str]) -> None:
    """[PL-bench] The benchmark reports every run and their median (no timing asserted)."""
    code, out, _ = run_cli(["bench", "playability-table", "--repeats", "1", "--json"], capsys)
    report = json.loads(out)
    assert code == 0 and report["rows"] == 126 and len(report["runs_seconds"]) == 1
    assert report["median_seconds"] == report["runs_seconds"][0] > 0


def test_the_counter_has_one_name() -> None:
    """[PL-count] the counter is ``PlayableCounter``; the old name ``Counter`` (it shadowed
    collections.Counter) is gone."""
    import hanabi_ref.tools.playability.solver as solver

    assert not hasattr(solver, "Counter") and solver.PlayableCounter is PlayableCounter


@pytest.mark.deep
@pytest.mark.parametrize("test", [
    test_solver_equals_algorithm_3_29_on_integer_sequences, test_solver_equals_search_on_random_multi_colour_sequences,
    test_theorem_3_13, test_theorem_3_33_and_corollary_3_34,
], ids=lambda test: test.__name__.removeprefix("test_"))
def test_properties_at_length(test: Any) -> None:
    """Each property test above, three more runs."""
    for _ in range(3):
        test()
