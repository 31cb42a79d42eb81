"""The measure of tests/helpers.reaches_assertion: a Hypothesis test whose examples mostly
stop before its assertion fails, one whose examples reach it passes, with the counts."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from tests.helpers import reached, reaches_assertion


def test_a_test_that_mostly_returns_early_fails() -> None:
    """Two values in ten reach the assertion: the measure fails the test, naming the counts."""

    @reaches_assertion()
    @settings(max_examples=50, database=None, derandomize=True)
    @given(st.integers(0, 9))
    def mostly_early(value: int) -> None:
        if value >= 2:
            return
        reached()
        assert value < 2

    with pytest.raises(AssertionError, match=r"only \d+ of \d+ examples reached the assertion"):
        mostly_early()
    assert 0 < mostly_early.reach.reached < mostly_early.reach.runs / 2  # type: ignore[attr-defined]


def test_assumed_away_examples_count_as_runs() -> None:
    """An example ``assume`` rejects ran but did not reach the assertion."""

    @reaches_assertion()
    @settings(max_examples=50, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(st.integers(0, 9))
    def mostly_assumed(value: int) -> None:
        assume(value == 0)
        reached()

    with pytest.raises(AssertionError, match=r"only \d+ of \d+ examples reached the assertion"):
        mostly_assumed()
    assert mostly_assumed.reach.reached < mostly_assumed.reach.runs / 2  # type: ignore[attr-defined]


def test_a_test_whose_examples_reach_the_assertion_passes() -> None:
    """Every example reaches it: the measure passes and counts each run (Hypothesis stops
    after the ten values)."""

    @reaches_assertion()
    @settings(max_examples=30, database=None, derandomize=True)
    @given(st.integers(0, 9))
    def always(value: int) -> None:
        reached()
        assert 0 <= value <= 9

    always()
    assert always.reach.reached == always.reach.runs >= 10  # type: ignore[attr-defined]
