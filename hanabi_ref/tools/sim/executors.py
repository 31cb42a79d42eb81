"""Where chunks are played: in this process, in local worker processes, or on a
dask.distributed cluster [SIM-jobs, SIM-crash, SIM-dask].

An executor takes the chunks of a run and yields ``(index, result)`` for each chunk as it
finishes, in any order; the runner puts them back in seed order, so no executor and no
number of workers changes a result.

A game that raises is recorded by :func:`~hanabi_ref.tools.sim.chunks.play_chunk` itself.  A
worker *process* that dies (killed, ``os._exit``, a crash in C code) takes its chunk with
it, and a local process pool then fails every chunk it was still running.  Those chunks
are played again game by game in a fresh pool, and a game that kills its pool even there
is played once more alone: it is reported as failed only if it kills a worker of its own.
So a worker killed from outside loses nothing, and a game that kills workers is named by
its seed.

Workers die with the process that started them [SIM-orphans]: on Linux the kernel sends
them SIGKILL when it goes (``prctl(PR_SET_PDEATHSIG)``), and everywhere a watchdog thread
in each worker ends it once its parent is gone.  A run in which no chunk finishes for
``stall_seconds`` is stopped with :class:`StallError` and its workers are killed
[SIM-stall]; a dask run that loses its scheduler stops with :class:`SchedulerLostError`
[SIM-dask-lost].  Both keep every chunk that finished: they were yielded before.
"""

from __future__ import annotations

import gc
import logging
import multiprocessing
import os
import signal
import socket
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Generator, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager, nullcontext, suppress
from typing import TYPE_CHECKING, Any, Final, Protocol

from hanabi_ref.base.errors import ConfigError, HanabiError
from hanabi_ref.tools.pipes import orphans_adopted
from hanabi_ref.tools.sim.chunks import (MAX_CHUNK_GAMES, MAX_CHUNK_GAMES_CLUSTER, Chunk, ChunkResult, close_kept_seats,
                                   describe_error, play_chunk, play_chunk_keeping_seats)
from hanabi_ref.base.extras import install_hint

if TYPE_CHECKING:
    from multiprocessing.context import BaseContext

WORKER_DIED = "the worker process playing this game died (killed or exited)"
CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a dask scheduler before giving up [SIM-dask]."""

STALL_SECONDS = 600.0
"""[SIM-stall] Default: a run in which no chunk finishes for this long is stopped."""
WATCH_SECONDS = 0.5
"""[SIM-orphans] How often a worker's watchdog looks whether its parent is still there."""
POLL_SECONDS = 0.02
"""[SIM-dask-lost] How often a dask run waiting for a chunk looks whether one finished and
whether its client still has a scheduler."""
PR_SET_PDEATHSIG = 1
"""Linux ``prctl`` option: the signal a process gets when its parent thread ends."""

Indexed = tuple[int, Chunk]
Played = tuple[int, ChunkResult]


class SetupError(ConfigError):
    """[SIM-errors] A run that cannot start: a missing optional package, an unreachable
    scheduler, an output path that cannot be written.  Exit code 2, like a bad argument."""


class RunStopped(HanabiError):
    """A run that cannot go on [SIM-stall, SIM-dask-lost]: the chunks that finished were
    yielded before it was raised; the others were not played."""


class StallError(RunStopped):
    """[SIM-stall] No chunk finished for the stall time: a worker is stopped or hung."""


class SchedulerLostError(RunStopped):
    """[SIM-dask-lost] The dask scheduler went away in the middle of a run."""


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
    process and no pool is started.  A pool in which no chunk finishes for
    ``stall_seconds`` is killed and the run stopped with :class:`StallError` [SIM-stall]."""

    name = "local"
    largest_chunk = MAX_CHUNK_GAMES

    def __init__(self, jobs: int, stall_seconds: float = STALL_SECONDS) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be positive, got {jobs}")
        if not stall_seconds > 0:
            raise ValueError(f"stall_seconds must be positive, got {stall_seconds}")
        self.jobs = jobs
        self.stall_seconds = stall_seconds

    @property
    def workers(self) -> int:
        return self.jobs

    def run(self, chunks: Sequence[Chunk]) -> Generator[Played, None, None]:
        """[ISO-reap] A run with seats in processes of their own holds what they leave
        behind: this process adopts it while the run is under way (a worker that dies
        leaves its seats' processes to us) and ends it when the run ends, however it ends."""
        with orphans_adopted() if any(chunk.setup.seats for chunk in chunks) else nullcontext():
            yield from self._run(chunks)

    def _run(self, chunks: Sequence[Chunk]) -> Generator[Played, None, None]:
        if self.jobs == 1:
            try:
                for index, chunk in enumerate(chunks):
                    yield index, play_chunk_keeping_seats(chunk)
            finally:
                close_kept_seats()  # [ISO-lifecycle] the run's isolated seats end with it
            return
        pools = _Pools(min(self.jobs, len(chunks)), self.stall_seconds)
        yield from pools.play(list(enumerate(chunks)), pools.replay_games)

    def close(self) -> None:
        """Nothing to release: every pool is shut down when its run ends."""


def _context() -> BaseContext:
    """Fork where it is safe and cheap (Linux): workers start in milliseconds and see the
    strategies registered in this process; elsewhere the platform's default."""
    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _init_worker(parent: int, thresholds: tuple[int, int, int]) -> None:
    """A worker leaves Ctrl-C to the main process, which stops it [SIM-errors], takes
    SIGTERM's and SIGHUP's default actions whatever handlers its parent had, dies with
    its parent [SIM-orphans, SV-signals], and collects garbage as its parent does when
    it starts the pool [SIM-gc] (a forked worker would inherit it; a spawned one not)."""
    gc.set_threshold(*thresholds)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    die_with_parent(parent, WATCH_SECONDS)


def die_with_parent(parent: int, interval: float) -> None:
    """[SIM-orphans] End this process when process ``parent`` is no longer its parent: at
    once through the kernel where it can (Linux), and within ``interval`` seconds through
    a watchdog thread everywhere (a process whose parent dies is given another)."""
    _set_parent_death_signal()
    if os.getppid() != parent:  # the parent went before the kernel was asked to tell us
        os._exit(1)
    threading.Thread(target=_watch_parent, args=(parent, interval), name="hanabi-ref-watchdog", daemon=True).start()


def _set_parent_death_signal() -> None:
    """Linux: SIGKILL to this process when the thread that forked it ends; elsewhere
    nothing (the watchdog does the job)."""
    if not sys.platform.startswith("linux"):
        return
    import ctypes

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
    except (OSError, AttributeError):
        pass


def _watch_parent(parent: int, interval: float) -> None:
    while os.getppid() == parent:
        time.sleep(interval)
    os._exit(1)


@contextmanager
def worker_pool(workers: int) -> Iterator[ProcessPoolExecutor]:
    """A process pool that is shut down on the way out and whose workers are killed if the
    run is abandoned (Ctrl-C, SIGTERM, SIGHUP, a stall, an error in the caller).  SIGKILL,
    not SIGTERM: a stopped worker [SIM-stall] acts on nothing else.  Its workers take
    the collector thresholds this process has now [SIM-gc].  ``solve`` plays its decks in
    one too [SV-signals]."""
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=_context(), initializer=_init_worker,
                               initargs=(os.getpid(), gc.get_threshold()))
    try:
        yield pool
    except BaseException:
        processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
        for process in list(processes.values()):
            process.kill()
        # The pool's manager thread notices the killed workers and ends; waiting for it
        # here (briefly) keeps it from racing the interpreter's own exit, which can then
        # print "Bad file descriptor" from concurrent.futures as the process ends.  Taken
        # before the shutdown, which forgets it.
        manager = getattr(pool, "_executor_manager_thread", None)
        pool.shutdown(wait=False, cancel_futures=True)
        if manager is not None:
            manager.join(MANAGER_WAIT)
        raise
    pool.shutdown(wait=True)


MANAGER_WAIT: Final = 5.0
"""Seconds an abandoned pool's manager thread is given to end (see :func:`worker_pool`)."""


class _Pools:
    """[SIM-crash, SIM-stall] Pools of ``workers`` processes, each watched for stalls."""

    def __init__(self, workers: int, stall_seconds: float) -> None:
        self.workers = workers
        self.stall_seconds = stall_seconds

    def play(self, items: list[Indexed], on_lost: Callable[[Chunk], ChunkResult]) -> Iterator[Played]:
        """[SIM-crash] Play ``items``; when a pool breaks, the chunks it was running go to
        ``on_lost`` and the rest to a fresh pool."""
        remaining = items
        while remaining:
            lost, remaining = yield from self.play_in_pool(remaining)
            for index, chunk in lost:
                yield index, on_lost(chunk)

    def play_in_pool(self, items: list[Indexed]) -> Generator[Played, None, tuple[list[Indexed], list[Indexed]]]:
        """Play ``items`` in one pool, at most two chunks per worker in flight.  Returns the
        chunks lost when a worker died (those in flight) and those not yet submitted."""
        queue = deque(items)
        in_flight: dict[Future[ChunkResult], Indexed] = {}
        with worker_pool(min(self.workers, len(items))) as pool:
            while queue or in_flight:
                broken = not _submit(pool, queue, in_flight, 2 * self.workers)
                done, _ = wait(in_flight, timeout=self.stall_seconds, return_when=FIRST_COMPLETED)
                if not done and in_flight and not broken:
                    raise self.stalled()
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

    def stalled(self) -> StallError:
        """[SIM-stall] The error that stops a run in which no chunk finished in time."""
        return StallError(f"no chunk finished in {self.stall_seconds:g} s (a worker is stopped or hung; "
                          f"--stall-timeout sets the limit)")

    def replay_games(self, chunk: Chunk) -> ChunkResult:
        """[SIM-crash] A chunk lost with its worker, played again one game per task; a game
        lost again is played alone."""
        games = list(enumerate(chunk.single_games()))
        results = dict(_Pools(min(self.workers, len(games)), self.stall_seconds).play(games, self.play_alone))
        return ChunkResult.join([results[index] for index in sorted(results)])

    def play_alone(self, chunk: Chunk) -> ChunkResult:
        """[SIM-crash] Play a chunk in a pool of its own: if the worker dies now, the chunk
        itself killed it."""
        with worker_pool(1) as pool:
            future = pool.submit(play_chunk, chunk)
            if not wait([future], timeout=self.stall_seconds).done:
                raise self.stalled()
            if isinstance(future.exception(), BrokenProcessPool):
                return ChunkResult.failed(chunk, WORKER_DIED)
            return _outcome(future, 0, chunk)[1]


def _submit(pool: ProcessPoolExecutor, queue: deque[Indexed], in_flight: dict[Future[ChunkResult], Indexed],
            limit: int) -> bool:
    """Move chunks from ``queue`` to the pool until ``limit`` are in flight; False if the
    pool is broken."""
    while queue and len(in_flight) < limit:
        try:
            in_flight[pool.submit(play_chunk_keeping_seats, queue[0][1])] = queue[0]
        except BrokenProcessPool:
            return False
        queue.popleft()
    return True


def _outcome(future: Future[ChunkResult], index: int, chunk: Chunk) -> Played:
    error = future.exception()
    if error is not None:  # the chunk could not even start (e.g. the strategy failed to build)
        return index, ChunkResult.failed(chunk, describe_error(error))
    return index, future.result()


# ------------------------------------------------------------------ dask.distributed


class DaskExecutor:
    """[SIM-dask] Chunks as tasks on a dask.distributed cluster.  Workers import
    hanabi_ref themselves and rebuild each chunk's strategy by name, exactly as local
    workers do, so the results are the same.  Losing the scheduler stops the run with
    :class:`SchedulerLostError` [SIM-dask-lost], a run in which no chunk finishes for
    ``stall_seconds`` with :class:`StallError` [SIM-stall]."""

    name = "dask"
    largest_chunk = MAX_CHUNK_GAMES_CLUSTER

    def __init__(self, client: Any, address: str = "", stall_seconds: float = STALL_SECONDS) -> None:
        self.client: Any = client  # a distributed.Client (untyped: its methods have no annotations)
        self.address = address
        self.stall_seconds = stall_seconds

    @property
    def workers(self) -> int:
        threads: dict[str, int] = self.client.nthreads()
        return max(1, sum(threads.values()))

    def run(self, chunks: Sequence[Chunk]) -> Generator[Played, None, None]:
        distributed = _distributed()
        futures = {self.client.submit(play_chunk, chunk, pure=False): index for index, chunk in enumerate(chunks)}
        pending = set(futures)
        try:
            with _quiet_dask():
                finished = distributed.as_completed(list(futures), loop=self.client.loop)
                while pending:
                    for future in sorted(self._next_done(finished), key=futures.__getitem__):
                        pending.discard(future)
                        yield futures[future], self._outcome(future, chunks[futures[future]])
        except BaseException:
            self._cancel(list(pending))
            raise

    def _next_done(self, finished: Any) -> list[Any]:
        """The next futures that are done, waiting for at least one while the scheduler is
        there [SIM-dask-lost] and for at most the stall time [SIM-stall].  (A blocking
        wait would never end: a future whose scheduler is gone never completes.)"""
        deadline = time.monotonic() + self.stall_seconds
        while time.monotonic() < deadline:
            if self.client.status in ("closing", "closed"):
                raise self.lost("the client lost its connection")
            if finished.has_ready():
                done: list[Any] = finished.next_batch(block=False)
                return done
            time.sleep(POLL_SECONDS)
        raise StallError(f"no chunk finished in {self.stall_seconds:g} s on the dask cluster at {self.address} "
                         f"(--stall-timeout sets the limit)")

    def _outcome(self, future: Any, chunk: Chunk) -> ChunkResult:
        """A finished task's result, its game failures or its dead workers [SIM-crash]; a
        task cancelled or a result lost with the scheduler stops the run [SIM-dask-lost]."""
        distributed = _distributed()
        if future.status == "cancelled":
            raise self.lost("its tasks were cancelled")
        try:
            error = future.exception(timeout=CONNECT_TIMEOUT)
            value = future.result(timeout=CONNECT_TIMEOUT) if error is None else error
        except Exception as problem:  # CommClosedError, TimeoutError, CancelledError: no scheduler
            raise self.lost(describe_error(problem)) from None
        if isinstance(value, ChunkResult):
            return value
        if isinstance(value, distributed.KilledWorker):
            return ChunkResult.failed(chunk, f"{WORKER_DIED} ({describe_error(value)})")
        return ChunkResult.failed(chunk, describe_error(value))

    def lost(self, reason: str) -> SchedulerLostError:
        """[SIM-dask-lost] The one-line error of a run that lost its scheduler."""
        return SchedulerLostError(f"lost the dask scheduler at {self.address}: {reason}")

    def _cancel(self, futures: list[Any]) -> None:
        if self.client.status not in ("closing", "closed"):
            with _quiet_dask(), suppress(Exception):
                self.client.cancel(futures)

    def close(self) -> None:
        with _quiet_dask(), suppress(Exception):  # a client without a scheduler times out closing
            self.client.close(timeout=CONNECT_TIMEOUT)


@contextmanager
def _quiet_dask() -> Iterator[None]:
    """dask.distributed (and tornado under it) log connection trouble to stderr; our
    errors are one line."""
    names = ["distributed", "tornado"]
    names += [name for name in list(logging.root.manager.loggerDict) if name.startswith(("distributed.", "tornado."))]
    loggers = [logging.getLogger(name) for name in names]  # dask sets levels on some children
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels):
            logger.setLevel(level)


def connect_dask(address: str, timeout: float = CONNECT_TIMEOUT, stall_seconds: float = STALL_SECONDS) -> DaskExecutor:
    """[SIM-dask, SIM-errors] A client of the scheduler at ``address``, or
    :class:`SetupError` within about ``timeout`` seconds."""
    distributed = _distributed()
    _check_reachable(address, timeout)
    with _quiet_dask():
        try:
            client = distributed.Client(address, timeout=timeout, set_as_default=False)
        except Exception as error:  # OSError, TimeoutError, ValueError for a bad address, ...
            raise SetupError(f"--scheduler {address}: cannot connect: {describe_error(error)}") from None
    return DaskExecutor(client, address, stall_seconds)


def _distributed() -> Any:
    """The dask.distributed module (an optional extra), or :class:`SetupError`."""
    try:
        import distributed
    except ImportError:
        raise SetupError(f"--executor dask: needs the 'distributed' package: {install_hint('dask')}") from None
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
