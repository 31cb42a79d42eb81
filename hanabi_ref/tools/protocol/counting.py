"""Engines that count perft [EP-perft, PF-count, PF-divide].

``perft`` is an optional operation of the engine protocol: an engine that answers it
says so in its ``hello`` answer (``"perft": true``), and ``verify --perft D`` compares
its counts with ours (EP-perft-verify).  Inside Python such an engine has
``counts_perft`` true and a :meth:`CountingEngine.perft` method; our engine
(:class:`~hanabi_ref.tools.protocol.engine.ReferenceEngine`) and an engine process whose
``hello`` said so are such engines.
"""

from __future__ import annotations

from typing import Protocol, TypeGuard

from hanabi_ref.tools.perft.count import PerftCount
from hanabi_ref.tools.protocol.engine import Engine


class CountingEngine(Engine, Protocol):
    """An engine that counts perft from its current position [EP-perft]."""

    counts_perft: bool

    def perft(self, depth: int, divide: bool) -> PerftCount:
        """The number of move sequences of length ``depth`` from the current position
        (PF-count) and, if ``divide`` (and ``depth`` >= 1), the count under each legal
        first move (PF-divide); the engine's state is the same afterwards."""


def counting_engine(engine: Engine) -> TypeGuard[CountingEngine]:
    """Whether ``engine`` counts perft [EP-perft]."""
    return getattr(engine, "counts_perft", False) is True
