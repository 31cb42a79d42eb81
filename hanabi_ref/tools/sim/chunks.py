"""Chunks of seeded games: the unit of work a worker process plays [SIM-jobs, SIM-crash].

A :class:`Chunk` names consecutive seeds and a :class:`GameSetup` from which any process
rebuilds the configuration and the strategy (by name and resolved parameters: strategy
factories are closures and cannot be pickled).  :func:`play_chunk` plays the chunk's games
in seed order and records a game that raises as a :class:`Failure` of its seed instead of
losing the chunk.  Each game's trace digest [SIM-trace-hash] is taken where it was played,
so only 32 bytes per game cross the process boundary.
"""

from __future__ import annotations

import math
import multiprocessing.util
import os
import time
from collections.abc import Iterator, Mapping

import attrs

from hanabi_ref.engine.dealing import derive_seed
from hanabi_ref.players.runner import play_games
from hanabi_ref.engine.tables import tables_for
from hanabi_ref.engine.view import ViewMaker
from hanabi_ref.players.strategy import Strategy, StrategyFactory
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.tools.sim.trace_hash import GameHasher, failed_outcome_digest, failure_digest, outcome_digest
from hanabi_ref.players.strategies import Value, factory_for

MAX_CHUNK_GAMES = 50
"""Games per chunk at most (local processes): a chunk of the slowest strategy (~150
games/s) takes a third of a second, so the progress bar moves and the last chunks balance
across workers, while handing a chunk to a process costs well under a millisecond."""

MAX_CHUNK_GAMES_CLUSTER = 200
"""Games per chunk at most on a cluster, where a task costs the scheduler about a
millisecond and a big run would otherwise flood it with tasks."""

CHUNKS_PER_WORKER = 8
"""Aim for this many chunks per worker, so that workers finish close together."""


@attrs.frozen
class GameSetup:
    """Everything a process needs to rebuild a game's configuration and strategy [SIM-jobs]."""

    players: int
    rules: str
    variant: str
    hand_size: int | None
    strategy: str
    params: tuple[tuple[str, Value], ...] = ()
    strategy_seed: int | None = None
    """[ISO-seeds] the run's strategy seed: game g's strategies are seeded from
    ``derive_seed(strategy_seed, g)``, apart from its deck (None: from g itself)"""
    seats: tuple[tuple[str, ...], ...] = ()
    """[ISO-seat, ISO-cli] the command of each seat's process (one for all seats), or none:
    the strategy plays in the worker's own process"""
    move_timeout: float = 10.0
    """[ISO-timeout] seconds a seat's process may take to answer"""
    partner: str | None = None
    """[XP-seats] the strategy (default parameters) of seats 0 .. ``partner_seats`` - 1,
    the others playing ``strategy``; None: every seat plays ``strategy``"""
    partner_seats: int = 0

    @classmethod
    def of(cls, players: int, rules: str, variant: str, hand_size: int | None, strategy: str,
           params: Mapping[str, Value], strategy_seed: int | None = None) -> GameSetup:
        """A setup with ``params`` (resolved values) in their given order."""
        return cls(players, rules, variant, hand_size, strategy, tuple(params.items()), strategy_seed)

    def strategy_seed_of(self, seed: int) -> int | None:
        """[ISO-seeds] the strategy seed of the game with deck seed ``seed``."""
        return None if self.strategy_seed is None else derive_seed(self.strategy_seed, seed)

    def config(self) -> GameConfig:
        """The configuration (raises :class:`~hanabi_ref.base.errors.ConfigError` if invalid)."""
        return make_config(self.players, preset=self.rules, variant=self.variant, hand_size=self.hand_size)

    def factory(self) -> StrategyFactory:
        """The strategy's factory, rebuilt from its name and parameters [S-params]; with
        ``seats``, a factory of isolated seats, whose processes start at the first game
        (close it when done) [ISO-seat]."""
        if self.seats:
            from hanabi_ref.tools.isolation.client import IsolatedFactory

            return IsolatedFactory(self.seats, self.move_timeout)
        own = factory_for(self.strategy, dict(self.params))
        if self.partner is None:
            return own
        return mixed_team(own, factory_for(self.partner), self.partner_seats)


def mixed_team(own: StrategyFactory, partner: StrategyFactory, partner_seats: int) -> StrategyFactory:
    """[XP-seats] seats 0 .. ``partner_seats`` - 1 built by ``partner``, the others by
    ``own``, each seeded as in a game of one strategy."""

    def factory(config: GameConfig, seat: int, seed: int) -> Strategy:
        return (partner if seat < partner_seats else own)(config, seat, seed)

    return factory


@attrs.frozen
class Chunk:
    """Games with seeds ``first_seed`` .. ``first_seed + games - 1`` of one setup."""

    setup: GameSetup
    first_seed: int
    games: int

    def seeds(self) -> range:
        """The seeds of the chunk's games, in order."""
        return range(self.first_seed, self.first_seed + self.games)

    def single_games(self) -> list[Chunk]:
        """The chunk as one chunk per game (to find the game that kills a worker)."""
        return [Chunk(self.setup, seed, 1) for seed in self.seeds()]


@attrs.frozen
class Failure:
    """[SIM-crash] A game that did not finish: its seed and what went wrong, on one line."""

    seed: int
    error: str


@attrs.frozen
class ChunkResult:
    """The outcome of a chunk: score and strikeout of each finished game in seed order,
    the games that failed, and the trace digest of every game, finished or failed, in
    seed order [SIM-trace-hash]."""

    scores: tuple[int, ...]
    strikeouts: tuple[bool, ...]
    failures: tuple[Failure, ...] = ()
    digests: tuple[bytes, ...] = ()
    cpu_seconds: float = attrs.field(default=0.0, eq=False)
    """The CPU time of the process that played the chunk, spent playing it (not compared:
    two runs of the same games are equal results) [SIM-speed]."""

    @classmethod
    def failed(cls, chunk: Chunk, error: str) -> ChunkResult:
        """[SIM-crash] Every game of ``chunk`` lost for the same reason."""
        return cls((), (), tuple(Failure(seed, error) for seed in chunk.seeds()), (failure_digest(),) * chunk.games)

    @classmethod
    def join(cls, parts: list[ChunkResult]) -> ChunkResult:
        """Results of consecutive seed ranges as one result, still in seed order."""
        return cls(
            tuple(score for part in parts for score in part.scores),
            tuple(flag for part in parts for flag in part.strikeouts),
            tuple(failure for part in parts for failure in part.failures),
            tuple(digest for part in parts for digest in part.digests),
            sum(part.cpu_seconds for part in parts),
        )

    def outcome_digests(self, seeds: range) -> tuple[bytes, ...]:
        """[SIM-outcome-hash] The outcome digest of the game of each of ``seeds`` (the
        result's seeds, in order): a failed seed's from its failure, the others' from the
        next score and strikeout.  Outcomes that do not make those games are a bug in the
        caller (a checkpoint is checked before it gets here)."""
        errors = {failure.seed: failure.error for failure in self.failures}
        if (len(errors) != len(self.failures) or not set(errors) <= set(seeds)
                or len(errors) + len(self.scores) != len(seeds) or len(self.strikeouts) != len(self.scores)):
            raise ValueError("SIM-outcome-hash: the outcomes do not make one game per seed")
        finished = iter(zip(self.scores, self.strikeouts))
        return tuple(failed_outcome_digest(seed, errors[seed]) if seed in errors else outcome_digest(seed, *next(finished))
                     for seed in seeds)


def describe_error(error: BaseException) -> str:
    """An exception as one line: its type and message."""
    text = " ".join(str(error).split())
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def play_chunk(chunk: Chunk) -> ChunkResult:
    """Play the chunk's games in seed order; a game that raises is recorded as a failure of
    its seed and the others still count [SIM-jobs, SIM-crash]; every game leaves its trace
    digest [SIM-trace-hash].  Isolated seats are started for the chunk and ended after it
    [ISO-lifecycle]."""
    factory = chunk.setup.factory()
    try:
        return _play_games(chunk, factory)
    finally:
        _close(factory)  # [ISO-lifecycle] isolated seats: every seat's process ended and reaped


def play_chunk_keeping_seats(chunk: Chunk) -> ChunkResult:
    """:func:`play_chunk`, but isolated seats are kept for this process's next chunk of the
    same seats, and ended by :func:`close_kept_seats` (a local worker calls it as it exits,
    a run in the main process at its end) [ISO-lifecycle]: a seat's process takes longer to
    start than a chunk of games takes to play."""
    if not chunk.setup.seats:
        return play_chunk(chunk)
    return _play_games(chunk, _kept_seats(chunk.setup))


@attrs.define
class _KeptSeats:
    """[ISO-lifecycle] the isolated seats this process keeps: the process that started them
    (a forked child never touches its parent's), their command key and their factory, and
    the process that registered the end of its seats at exit."""

    owner: int | None = None
    key: tuple[tuple[tuple[str, ...], ...], float] | None = None
    factory: StrategyFactory | None = None
    registered: int | None = None


_KEPT = _KeptSeats()


def _kept_seats(setup: GameSetup) -> StrategyFactory:
    key = (setup.seats, setup.move_timeout)
    if _KEPT.owner == os.getpid() and _KEPT.key == key and _KEPT.factory is not None:
        return _KEPT.factory
    close_kept_seats()
    if _KEPT.registered != os.getpid():  # a worker ends its seats as it exits
        multiprocessing.util.Finalize(None, close_kept_seats, exitpriority=10)
        _KEPT.registered = os.getpid()
    factory = setup.factory()
    _KEPT.owner, _KEPT.key, _KEPT.factory = os.getpid(), key, factory
    return factory


def close_kept_seats() -> None:
    """[ISO-lifecycle] end the isolated seats this process kept, if it started them."""
    if _KEPT.owner == os.getpid():
        _close(_KEPT.factory)
    _KEPT.owner, _KEPT.key, _KEPT.factory = None, None, None


def _close(factory: object) -> None:
    close = getattr(factory, "close", None)
    if close is not None:
        close()


def _play_games(chunk: Chunk, factory: StrategyFactory) -> ChunkResult:
    started = time.process_time()
    # the configuration object the kernel's tables are keyed by: an equal copy made for
    # this chunk would be compared field by field at every lookup by configuration
    config, hasher = tables_for(chunk.setup.config()).config, GameHasher()
    views = ViewMaker(config)  # [ISO-views] one per chunk: each seat's configuration copy keeps its memos
    scores: list[int] = []
    strikeouts: list[bool] = []
    failures: list[Failure] = []
    digests: list[bytes] = []
    games = [(seed, chunk.setup.strategy_seed_of(seed)) for seed in chunk.seeds()]
    for seed, record in zip(chunk.seeds(), play_games(config, factory, games, views=views)):
        if isinstance(record, Exception):  # a strategy or engine bug, a failed seat [ISO-failures]: keep the seed, go on
            failures.append(Failure(seed, describe_error(record)))
            digests.append(failure_digest())
            continue
        scores.append(record.score)
        # [2.16-3-strikeout] the game ended by the last allowed error
        strikeouts.append(record.final.remaining == -1)
        digests.append(hasher.game_digest(record.trace.actions, record.score))
    return ChunkResult(tuple(scores), tuple(strikeouts), tuple(failures), tuple(digests), time.process_time() - started)


def chunk_size_for(games: int, workers: int, largest: int = MAX_CHUNK_GAMES) -> int:
    """Games per chunk: about :data:`CHUNKS_PER_WORKER` chunks per worker, at most
    ``largest`` games each [SIM-jobs]."""
    return max(1, min(largest, math.ceil(games / (CHUNKS_PER_WORKER * max(1, workers)))))


def split_games(setup: GameSetup, seed: int, games: int, size: int) -> Iterator[Chunk]:
    """Seeds ``seed`` .. ``seed + games - 1`` as chunks of ``size`` games, in seed order."""
    for first in range(seed, seed + games, size):
        yield Chunk(setup, first, min(size, seed + games - first))
