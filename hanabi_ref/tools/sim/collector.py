"""The cyclic garbage collector while a simulation plays [SIM-gc].

A game of a strategy makes and drops many small containers; almost all of them are freed
by their reference counts, yet each 700 containers made set off a collection of the
young generation, and what survives (the strategies' caches) is scanned again and again
by the older ones.  For the information strategy that was about a tenth of a run's CPU
time.  While ``simulate``, ``sweep`` and ``crossplay`` play, the collector therefore
starts a young collection only after :data:`GAME_THRESHOLDS` [0] containers; it still
runs, so reference cycles are still freed and memory stays bounded.  The thresholds of
the process are put back when the run ends: code that imports the package and plays
games itself keeps Python's collector as it set it.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Final

GAME_THRESHOLDS: Final = (10_000, 10, 10)
"""[SIM-gc] ``gc.set_threshold`` while a run plays (Python's default: 700, 10, 10)."""


@contextmanager
def tuned_collector() -> Iterator[None]:
    """[SIM-gc] The collector's thresholds are :data:`GAME_THRESHOLDS` inside, and what
    they were before after, however the block ends.  Local worker processes started
    inside take the thresholds of this process (see
    :func:`hanabi_ref.tools.sim.executors.worker_pool`)."""
    before = gc.get_threshold()
    gc.set_threshold(*GAME_THRESHOLDS)
    try:
        yield
    finally:
        gc.set_threshold(*before)
