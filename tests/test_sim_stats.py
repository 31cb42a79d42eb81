"""Statistics helpers of hanabi_ref.base.stats against values computed by hand or published."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hanabi_ref.cli import main
from hanabi_ref.base.stats import histogram, mean, mean_interval, standard_error, wilson_interval

# The textbook sample: mean 5, sum of squared deviations 32, so s² = 32 / 7.
SAMPLE = [2, 4, 4, 4, 5, 5, 7, 9]


def test_mean_and_standard_error_by_hand() -> None:
    assert mean(SAMPLE) == 5
    assert standard_error(SAMPLE) == pytest.approx(math.sqrt(32 / 7 / 8))
    assert standard_error([3]) == 0.0
    with pytest.raises(ValueError):
        mean([])
    with pytest.raises(ValueError):
        standard_error([])


def test_mean_interval_by_hand() -> None:
    low, high = mean_interval(SAMPLE)
    half = 1.959963984540054 * math.sqrt(32 / 7 / 8)
    assert (low, high) == pytest.approx((5 - half, 5 + half))


def test_wilson_interval_published_values() -> None:
    """Wilson 95%: 5/10 → (0.2366, 0.7634), 0/10 → (0, 0.2775) (Wilson 1927; Newcombe 1998)."""
    assert [round(x, 4) for x in wilson_interval(5, 10)] == [0.2366, 0.7634]
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and round(high, 4) == 0.2775
    for bad in [(3, 2), (-1, 5), (0, 0)]:
        with pytest.raises(ValueError):
            wilson_interval(*bad)


@given(st.integers(1, 5000), st.data())
def test_wilson_interval_is_symmetric_and_covers_the_rate(trials: int, data: st.DataObject) -> None:
    successes = data.draw(st.integers(0, trials))
    low, high = wilson_interval(successes, trials)
    assert 0 <= low <= successes / trials <= high <= 1
    mirrored = wilson_interval(trials - successes, trials)
    assert (1 - mirrored[1], 1 - mirrored[0]) == pytest.approx((low, high))


def test_histogram() -> None:
    assert histogram([0, 2, 2, 5], 5) == [1, 0, 2, 0, 0, 1]
    with pytest.raises(ValueError):
        histogram([6], 5)


def test_simulate_json_reports_intervals(capsys: pytest.CaptureFixture[str]) -> None:
    """`simulate --json` adds 95% intervals for the mean score and the perfect-game rate."""
    assert main(["simulate", "--strategy", "simple", "--players", "3", "--games", "30", "--seed", "4", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    scores = [s for s, n in enumerate(result["score_histogram"]) for _ in range(n)]
    low, high = result["mean_score_ci95"]
    assert low <= result["mean_score"] <= high
    assert (low, high) == pytest.approx(mean_interval(scores))
    perfect = result["score_histogram"][-1]
    assert result["perfect_rate_ci95"] == list(wilson_interval(perfect, 30))
