"""The collector while a simulation plays [SIM-gc]: tuned inside a run, put back after
it, taken by local workers, and still collecting reference cycles."""

from __future__ import annotations

import gc
from typing import Any

import pytest

from hanabi_ref.tools.sim import simulate
from hanabi_ref.tools.sim.collector import GAME_THRESHOLDS, tuned_collector
from hanabi_ref.tools.sim.executors import worker_pool

PYTHON_DEFAULT = (700, 10, 10)
"""Python's own thresholds (the gc module's documentation)."""
OTHER = (1234, 5, 6)
"""Thresholds a program that imports hanabi_ref might have set."""


@pytest.fixture
def thresholds_kept() -> Any:
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


@pytest.mark.checks("SIM-gc")
def test_the_thresholds_are_the_documented_ones() -> None:
    assert GAME_THRESHOLDS == (10_000, 10, 10)


class _Closed:
    closed = False

    def close(self) -> None:
        self.closed = True


@pytest.mark.checks("SIM-gc")
@pytest.mark.parametrize("fails", [False, True])
def test_a_run_plays_with_the_tuned_collector_and_puts_it_back(fails: bool, monkeypatch: pytest.MonkeyPatch,
                                                                thresholds_kept: None) -> None:
    seen: list[tuple[int, int, int]] = []

    def fake_run_cells(*args: Any, **kwargs: Any) -> str:
        seen.append(gc.get_threshold())
        if fails:
            raise KeyboardInterrupt
        return "result"

    monkeypatch.setattr(simulate, "run_cells", fake_run_cells)
    gc.set_threshold(*OTHER)
    executor = _Closed()
    if fails:
        with pytest.raises(KeyboardInterrupt):
            simulate.run([], executor, None)  # type: ignore[arg-type]
    else:
        assert simulate.run([], executor, None) == "result"  # type: ignore[arg-type, comparison-overlap]
    assert seen == [GAME_THRESHOLDS]
    assert gc.get_threshold() == OTHER
    assert executor.closed


@pytest.mark.checks("SIM-gc")
def test_local_workers_take_the_thresholds_of_their_parent(thresholds_kept: None) -> None:
    gc.set_threshold(*OTHER)
    with worker_pool(1) as pool:
        assert pool.submit(gc.get_threshold).result() == OTHER
    with tuned_collector(), worker_pool(1) as pool:
        assert pool.submit(gc.get_threshold).result() == GAME_THRESHOLDS
    assert gc.get_threshold() == OTHER


class _Cycle:
    """An object in a reference cycle with itself; counts the ones freed."""

    freed = 0

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        _Cycle.freed += 1


@pytest.mark.checks("SIM-gc")
def test_cycles_are_still_freed_without_an_explicit_collection(thresholds_kept: None) -> None:
    gc.collect()
    _Cycle.freed = 0
    made = 5 * GAME_THRESHOLDS[0]
    with tuned_collector():
        assert gc.isenabled()
        for _ in range(made):
            _Cycle()
        freed = _Cycle.freed
    assert freed >= made - 2 * GAME_THRESHOLDS[0]
