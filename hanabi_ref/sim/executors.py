"""Where chunks are played: in this process, in local worker processes, or on a
dask.distributed cluster [SIM-jobs, SIM-crash, SIM-dask].

An executor takes the chunks of a run and yields ``(index, result)`` for each chunk as it
finishes, in any order; the runner puts them back in seed order, so no executor and no
number of workers changes a result.

A game that raises is recorded by :func:`~hanabi_ref.sim.chunks.play_chunk` itself.  A
worker *process* that dies (killed, ``os._exit``, a crash in C code) takes its chunk with
it, and a local process pool then fails every chunk it was still running.  Those chunks
are played again game by game in a fresh pool, and a game that kills its pool even there
is played once more alone: it is reported as failed only if it kills a worker of its own.
So a worker killed from outside loses nothing, and a game that kills workers is named by
its seed.
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import signal
import socket
import sys
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Protocol

from hanabi_ref.errors import ConfigError
from hanabi_ref.sim.chunks import MAX_CHUNK_GAMES, MAX_CHUNK_GAMES_CLUSTER, Chunk, ChunkResult, describe_error, play_chunk

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

WORKER_DIED = "the worker process playing this game died (killed or exited)"
CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a dask scheduler before giving up [SIM-dask]."""

Indexed = tuple[int, Chunk]
Played = tuple[int, ChunkResult]


class SetupError(ConfigError):
    """[SIM-errors] A run that cannot start: a missing optional package, an unreachable
    scheduler, an output path that cannot be written.  Exit code 2, like a bad argument."""


class Executor(Protocol):
    """Plays chunks and yields ``(index in chunks, result)`` as each one finishes."""

    @property
    def name(self) -> str:
        """``local`` or ``dask``."""

    @property
    def workers(self) -> int:
        """How many chunks run at once."""

    @property
    def largest_chunk(self) -> int:
        """The most games the automatic chunk size puts in one chunk."""

    def run(self, chunks: Sequence[Chunk]) -> Generator[Played, None, None]:
        """Play every chunk; yield each result once, in any order.  Closing the generator
        early (Ctrl-C) stops the workers."""

    def close(self) -> None:
        """Release the workers or the connection."""


def default_jobs() -> int:
    """All cores this process may use [SIM-jobs]."""
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


# ------------------------------------------------------------------ local processes


class LocalExecutor:
    """[SIM-jobs] ``jobs`` worker processes; with ``jobs == 1`` everything runs in this
    process and no pool is started."""

    name = "local"
    largest_chunk = MAX_CHUNK_GAMES

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be positive, got {jobs}")
        self.jobs = jobs

    @property
    def workers(self) -> int:
        return self.jobs

    def run(self, chunks: Sequence[Chunk]) -> Generator[Played, None, None]:
        if self.jobs == 1:
            for index, chunk in enumerate(chunks):
                yield index, play_chunk(chunk)
            return
        workers = min(self.jobs, len(chunks))
        yield from _play_in_pools(list(enumerate(chunks)), workers, lambda chunk: _replay_games(chunk, workers))

    def close(self) -> None:
        """Nothing to release: every pool is shut down when its run ends."""


def _context() -> BaseContext:
    """Fork where it is safe and cheap (Linux): workers start in milliseconds and see the
    strategies registered in this process; elsewhere the platform's default."""
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process, which stops them [SIM-errors]."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def _pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A process pool that is shut down on the way out and whose workers are terminated
    if the run is abandoned (Ctrl-C, an error in the caller)."""
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=_context(), initializer=_ignore_interrupts)
    try:
        yield pool
    except BaseException:
        processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
        for process in list(processes.values()):
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown(wait=True)


def _play_in_pools(items: list[Indexed], workers: int, on_lost: Callable[[Chunk], ChunkResult]) -> Iterator[Played]:
    """[SIM-crash] Play ``items`` in pools of ``workers`` processes; when a pool breaks,
    the chunks it was running go to ``on_lost`` and the rest to a fresh pool."""
    remaining = items
    while remaining:
        lost, remaining = yield from _play_in_pool(remaining, workers)
        for index, chunk in lost:
            yield index, on_lost(chunk)


def _play_in_pool(items: list[Indexed], workers: int) -> Generator[Played, None, tuple[list[Indexed], list[Indexed]]]:
    """Play ``items`` in one pool, at most two chunks per worker in flight.  Returns the
    chunks lost when a worker died (those in flight) and those not yet submitted."""
    queue = deque(items)
    in_flight: dict[Future[ChunkResult], Indexed] = {}
    with _pool(workers) as pool:
        while queue or in_flight:
            broken = not _submit(pool, queue, in_flight, 2 * workers)
            done, _ = wait(in_flight, return_when=FIRST_COMPLETED)
            for future in sorted(done, key=lambda f: in_flight[f][0]):
                if isinstance(future.exception(), BrokenProcessPool):
                    broken = True
                else:
                    yield _outcome(future, *in_flight.pop(future))
            if broken:
                break
        lost = []
        for future, item in sorted(in_flight.items(), key=lambda pair: pair[1][0]):
            if future.done() and not isinstance(future.exception(), BrokenProcessPool):
                yield _outcome(future, *item)
            else:
                lost.append(item)
    if not lost and queue and len(queue) == len(items):
        # The pool broke before it played anything: count the first chunk as lost so
        # that every round makes progress.
        lost.append(queue.popleft())
    return lost, list(queue)


def _submit(pool: ProcessPoolExecutor, queue: deque[Indexed], in_flight: dict[Future[ChunkResult], Indexed],
            limit: int) -> bool:
    """Move chunks from ``queue`` to the pool until ``limit`` are in flight; False if the
    pool is broken."""
    while queue and len(in_flight) < limit:
        try:
            in_flight[pool.submit(play_chunk, queue[0][1])] = queue[0]
        except BrokenProcessPool:
            return False
        queue.popleft()
    return True


def _outcome(future: Future[ChunkResult], index: int, chunk: Chunk) -> Played:
    error = future.exception()
    if error is not None:  # the chunk could not even start (e.g. the strategy failed to build)
        return index, ChunkResult.failed(chunk, describe_error(error))
    return index, future.result()


def _replay_games(chunk: Chunk, workers: int) -> ChunkResult:
    """[SIM-crash] A chunk lost with its worker, played again one game per task; a game
    lost again is played alone."""
    games = list(enumerate(chunk.single_games()))
    results = dict(_play_in_pools(games, min(workers, len(games)), _play_alone))
    return ChunkResult.join([results[index] for index in sorted(results)])


def _play_alone(chunk: Chunk) -> ChunkResult:
    """[SIM-crash] Play a chunk in a pool of its own: if the worker dies now, the chunk
    itself killed it."""
    with _pool(1) as pool:
        future = pool.submit(play_chunk, chunk)
        wait([future])
        if isinstance(future.exception(), BrokenProcessPool):
            return ChunkResult.failed(chunk, WORKER_DIED)
        return _outcome(future, 0, chunk)[1]


# ------------------------------------------------------------------ dask.distributed


class DaskExecutor:
    """[SIM-dask] Chunks as tasks on a dask.distributed cluster.  Workers import
    hanabi_ref themselves and rebuild each chunk's strategy by name, exactly as local
    workers do, so the results are the same."""

    name = "dask"
    largest_chunk = MAX_CHUNK_GAMES_CLUSTER

    def __init__(self, client: Any) -> None:
        self.client: Any = client  # a distributed.Client (untyped: its methods have no annotations)

    @property
    def workers(self) -> int:
        threads: dict[str, int] = self.client.nthreads()
        return max(1, sum(threads.values()))

    def run(self, chunks: Sequence[Chunk]) -> Generator[Played, None, None]:
        distributed = _distributed()
        futures = {self.client.submit(play_chunk, chunk, pure=False): index for index, chunk in enumerate(chunks)}
        try:
            for future, value in distributed.as_completed(futures, loop=self.client.loop, with_results=True, raise_errors=False):
                index = futures[future]
                if isinstance(value, ChunkResult):
                    yield index, value
                elif isinstance(value, distributed.KilledWorker):
                    yield index, ChunkResult.failed(chunks[index], f"{WORKER_DIED} ({describe_error(value)})")
                else:
                    yield index, ChunkResult.failed(chunks[index], describe_error(value))
        except BaseException:
            self.client.cancel(list(futures))
            raise

    def close(self) -> None:
        with _quiet_dask():
            self.client.close()


@contextmanager
def _quiet_dask() -> Iterator[None]:
    """dask.distributed logs connection trouble to stderr; our errors are one line."""
    logger = logging.getLogger("distributed")
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def connect_dask(address: str, timeout: float = CONNECT_TIMEOUT) -> DaskExecutor:
    """[SIM-dask, SIM-errors] A client of the scheduler at ``address``, or
    :class:`SetupError` within about ``timeout`` seconds."""
    distributed = _distributed()
    _check_reachable(address, timeout)
    with _quiet_dask():
        try:
            client = distributed.Client(address, timeout=timeout, set_as_default=False)
        except Exception as error:  # OSError, TimeoutError, ValueError for a bad address, ...
            raise SetupError(f"--scheduler {address}: cannot connect: {describe_error(error)}") from None
    return DaskExecutor(client)


def _distributed() -> Any:
    """The dask.distributed module (an optional extra), or :class:`SetupError`."""
    try:
        import distributed
    except ImportError:
        raise SetupError("--executor dask: needs the 'distributed' package: pip install 'hanabi_ref[dask]'") from None
    return distributed


def _check_reachable(address: str, timeout: float) -> None:
    """Fail at once when nothing listens at a TCP address (the common mistake), instead of
    letting the client retry until its timeout."""
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        host, port = parse_host_port(location, default_port=8786)
    except ValueError as error:
        raise SetupError(f"--scheduler {address}: not an address: {describe_error(error)}") from None
    if scheme not in ("tcp", "tls"):
        return
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as error:
        reason = error.strerror or describe_error(error)
        raise SetupError(f"--scheduler {address}: cannot connect: {reason}") from None
