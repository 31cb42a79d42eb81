"""Running cells of seeded games on an executor and summarizing them [SIM-jobs,
SIM-progress, SIM-crash, SIM-trace-hash, SIM-resume].

A *cell* is one setup (configuration, strategy and parameters) played on seeds
S .. S+N-1.  ``simulate`` runs one cell; ``sweep`` runs one per point of its grid, all
on the same seeds and all in one pool so that workers stay busy across cells.  Results
are put back in seed order before anything is summed, so the statistics are the same
for every executor, number of workers and chunk size; only the timing differs.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import closing
from typing import Any, TextIO

import attrs

from hanabi_ref.tools.sim.chunks import Chunk, ChunkResult, Failure, GameSetup, chunk_size_for, split_games
from hanabi_ref.tools.sim.executors import Executor
from hanabi_ref.base.stats import histogram, mean, mean_interval, standard_error, wilson_interval
from hanabi_ref.tools.sim.trace_hash import run_hash
from hanabi_ref.engine.tables import tables_for


@attrs.frozen
class Cell:
    """One setup played on seeds ``seed`` .. ``seed + games - 1``."""

    setup: GameSetup
    seed: int
    games: int


@attrs.frozen
class CellResult:
    """The games of one cell in seed order: scores and strikeouts of the finished ones,
    the failures [SIM-crash], the trace hash of all of them [SIM-trace-hash] and the hash
    of their outcomes [SIM-outcome-hash]."""

    cell: Cell
    max_score: int
    scores: tuple[int, ...]
    strikeouts: int
    failures: tuple[Failure, ...]
    trace_sha256: str
    outcome_sha256: str
    """[SIM-outcome-hash] the hash of the outcomes reported here, game by game in seed order"""

    @property
    def failed_seeds(self) -> list[int]:
        """The seeds of the games that did not finish, ascending."""
        return [failure.seed for failure in self.failures]

    def statistics(self) -> dict[str, Any]:
        """Mean score with its standard error and 95% interval, perfect-game rate with its
        Wilson interval, strikeout rate, lowest and highest score and score histogram, over the finished games
        [C-simulate]; ``None`` where no game finished."""
        finished = len(self.scores)
        counts = histogram(self.scores, self.max_score)
        if finished == 0:
            empty = {key: None for key in ("mean_score", "std_error", "mean_score_ci95", "perfect_rate",
                                           "perfect_rate_ci95", "strikeout_rate", "lowest_score", "highest_score")}
            return {**empty, "score_histogram": counts, "games_completed": 0}
        return {
            "mean_score": mean(self.scores),
            "std_error": standard_error(self.scores),
            "mean_score_ci95": list(mean_interval(self.scores)),
            "perfect_rate": counts[self.max_score] / finished,
            "perfect_rate_ci95": list(wilson_interval(counts[self.max_score], finished)),
            "strikeout_rate": self.strikeouts / finished,
            "lowest_score": min(self.scores),
            "highest_score": max(self.scores),
            "score_histogram": counts,
            "games_completed": finished,
        }


@attrs.frozen
class RunResult:
    """The results of every cell, in the order of the cells, the wall-clock time and the
    CPU time of the processes that played them [SIM-speed]."""

    cells: tuple[CellResult, ...]
    seconds: float
    chunk_size: int
    workers: int
    games_played: int
    """Games played by this run (not those kept from a checkpoint) [SIM-resume]."""
    cpu_seconds: float = 0.0
    """The CPU time the processes that played this run's games spent playing them [SIM-speed]."""

    @property
    def failures(self) -> list[Failure]:
        return [failure for cell in self.cells for failure in cell.failures]


PROGRESS_ENV = "HANABI_REF_PROGRESS"
"""[SIM-progress] seconds between two progress lines when standard error is not a terminal
(default 10); ``0`` or ``off``: none."""


def progress_interval() -> float | None:
    """[SIM-progress] the seconds between progress lines off a terminal, None for none."""
    text = os.environ.get(PROGRESS_ENV, "10").strip().lower()
    if text in ("0", "off", "no", "false"):
        return None
    try:
        value = float(text)
    except ValueError:
        return 10.0
    return value if value > 0 and math.isfinite(value) else None


class Progress:
    """[SIM-progress] A tqdm bar on stderr with the games per second and the running mean
    score of the games finished so far; where stderr is not a terminal (a pipe, a job, a
    log file), one plain line every :func:`progress_interval` seconds instead."""

    def __init__(self, total: int, stream: TextIO | None = None, enabled: bool | None = None) -> None:
        from tqdm import tqdm

        class Bar(tqdm):  # type: ignore[type-arg]
            monitor_interval = 0  # no monitor thread: worker processes are forked after this

        self.stream = stream or sys.stderr
        self.total = total
        terminal = _is_terminal(self.stream)
        self.bar = Bar(total=total, unit="game", file=self.stream, delay=0 if enabled else 1.0,
                       disable=None if enabled is None else not enabled, smoothing=0.1)
        self.interval = progress_interval() if enabled is None and not terminal else None
        self.started = self.printed = time.perf_counter()
        self.done = 0
        self.games = 0
        self.total_score = 0

    def add(self, result: ChunkResult, games: int) -> None:
        """Count a finished chunk of ``games`` games."""
        self.games += len(result.scores)
        self.total_score += sum(result.scores)
        self.done += games
        if self.games:
            self.bar.set_postfix_str(f"mean {self.total_score / self.games:.3f}", refresh=False)
        self.bar.update(games)
        now = time.perf_counter()
        if self.interval is not None and now - self.printed >= self.interval and self.done < self.total:
            self.printed = now
            rate = self.done / (now - self.started) if now > self.started else 0.0
            mean = f", mean {self.total_score / self.games:.3f}" if self.games else ""
            try:
                self.stream.write(f"hanabi-ref: {self.done:,} of {self.total:,} games "
                                  f"({100 * self.done / self.total:.0f} %), {rate:,.1f} games per second (wall){mean}\n")
                self.stream.flush()
            except (OSError, ValueError):
                self.interval = None  # a closed or broken stderr: no more lines

    def close(self) -> None:
        self.bar.close()


def _is_terminal(stream: TextIO) -> bool:
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty is not None and isatty())
    except (OSError, ValueError):
        return False


Finished = tuple[int, Chunk, ChunkResult]
"""A chunk that was played already (kept in a checkpoint), with the number of its cell."""


def plan(cells: Sequence[Cell], chunk_size: int, finished: Sequence[Finished] = ()) -> list[tuple[int, Chunk]]:
    """Every cell's seeds that ``finished`` does not hold, in chunks, as (cell index,
    chunk), cell by cell in seed order [SIM-resume]."""
    return [(number, chunk) for number, cell in enumerate(cells)
            for start, stop in _gaps(cell, [chunk for n, chunk, _ in finished if n == number])
            for chunk in split_games(cell.setup, start, stop - start, chunk_size)]


def _gaps(cell: Cell, done: Sequence[Chunk]) -> list[tuple[int, int]]:
    """The ranges [start, stop) of the cell's seeds that no chunk of ``done`` covers."""
    gaps, start = [], cell.seed
    for chunk in sorted(done, key=lambda chunk: chunk.first_seed):
        if chunk.first_seed > start:
            gaps.append((start, chunk.first_seed))
        start = max(start, chunk.first_seed + chunk.games)
    if start < cell.seed + cell.games:
        gaps.append((start, cell.seed + cell.games))
    return gaps


def run_cells(cells: Sequence[Cell], executor: Executor, *, chunk_size: int | None = None,
              progress: Progress | None = None, finished: Sequence[Finished] = (),
              on_chunk: Callable[[int, Chunk, ChunkResult], None] | None = None) -> RunResult:
    """Play every cell on ``executor`` and gather the results in seed order [SIM-jobs].

    Chunks in ``finished`` are not played again [SIM-resume]; ``on_chunk`` is told of
    every chunk played now as soon as it finishes, so that a run stopped half-way keeps
    them [SIM-out].  The configurations are built here first, so a bad one fails before
    any game runs."""
    max_scores = [tables_for(cell.setup.config()).max_score for cell in cells]
    size = chunk_size or chunk_size_for(sum(cell.games for cell in cells), executor.workers, executor.largest_chunk)
    planned = plan(cells, size, finished)
    chunks = [chunk for _, chunk in planned]
    results: list[ChunkResult | None] = [None] * len(planned)
    for _, chunk, result in finished:
        if progress is not None:
            progress.add(result, chunk.games)
    start = time.perf_counter()
    with closing(executor.run(chunks)) as played:
        for index, result in played:
            results[index] = result
            if on_chunk is not None:
                on_chunk(planned[index][0], chunks[index], result)
            if progress is not None:
                progress.add(result, chunks[index].games)
    seconds = time.perf_counter() - start
    parts = [(number, chunk, result) for (number, chunk), result in zip(planned, results)] + list(finished)
    gathered = tuple(
        _gather(cell, max_scores[number], [(chunk, result) for n, chunk, result in parts if n == number])
        for number, cell in enumerate(cells)
    )
    cpu = sum(result.cpu_seconds for result in results if result is not None)
    return RunResult(gathered, seconds, size, executor.workers, sum(chunk.games for chunk in chunks), cpu)


def _gather(cell: Cell, max_score: int, parts: Sequence[tuple[Chunk, ChunkResult | None]]) -> CellResult:
    if any(part is None for _, part in parts):
        raise RuntimeError("an executor did not return every chunk")  # a bug in an executor
    ordered = sorted(parts, key=lambda part: part[0].first_seed)  # played now and kept before [SIM-resume]
    joined = ChunkResult.join([part for _, part in ordered if part is not None])
    if len(joined.digests) != cell.games:
        raise RuntimeError("SIM-trace-hash: a chunk did not return one digest per game")  # a bug in us
    failures = tuple(sorted(joined.failures, key=lambda failure: failure.seed))
    trace_sha256 = run_hash(joined.digests)  # the parts are in seed order [SIM-trace-hash]
    # [SIM-outcome-hash] from the very outcomes the statistics are taken from, kept or played
    outcome_sha256 = run_hash(joined.outcome_digests(range(cell.seed, cell.seed + cell.games)))
    return CellResult(cell, max_score, joined.scores, sum(joined.strikeouts), failures, trace_sha256, outcome_sha256)
