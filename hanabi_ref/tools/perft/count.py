"""Counting the move sequences of length D from a state [PF-count, PF-divide].

perft(s, 0) = 1 and perft(s, D) = the sum over the legal moves a of s of
perft(s after a, D - 1).  A state where the game is over has no legal move, so it
contributes 1 at depth 0 and nothing at any greater depth: a sequence that ends the game
before its D-th move is not counted at depth D, as in chess perft.  The draws come from
the deck, so every move has exactly one successor.

The walk is generic (:func:`count_nodes`, :func:`divide_nodes`): over our kernel
(:func:`perft`, :func:`divide`) and over any engine that can list its moves and make one
from a state it can return to (the protocol's engines, EP-perft).  It is iterative, so a
deep narrow tree needs no recursion, and it counts the last level in bulk (the number of
legal moves, without making them), as chess engines' perft does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

import attrs

from hanabi_ref.engine.actions import Action
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.state import GameState
from hanabi_ref.engine.transition import apply_legal

S = TypeVar("S")
A = TypeVar("A")


@attrs.frozen
class PerftCount:
    """A perft answer [PF-count, PF-divide]: the number of move sequences of length
    ``depth`` and, when asked for, the count under each first move, in the order the
    moves were listed (``None``: not asked; at depth 0 there is no first move)."""

    depth: int
    nodes: int
    divide: tuple[tuple[Action, int], ...] | None = None


def count_nodes(root: S, depth: int, moves: Callable[[S], Sequence[A]], child: Callable[[S, A], S]) -> int:
    """[PF-count] the number of move sequences of length ``depth`` from ``root``:
    ``moves(state)`` lists the legal moves (none once the game is over), ``child(state,
    move)`` is the state after one of them."""
    if depth < 0:
        raise ValueError(f"depth: must be >= 0, got {depth}")
    if depth == 0:
        return 1
    total = 0
    pending = [(root, depth)]
    while pending:
        state, left = pending.pop()
        listed = moves(state)
        if left == 1:
            total += len(listed)  # the last level in bulk
        else:
            pending.extend((child(state, move), left - 1) for move in listed)
    return total


def divide_nodes(root: S, depth: int, moves: Callable[[S], Sequence[A]],
                 child: Callable[[S, A], S]) -> list[tuple[A, int]]:
    """[PF-divide] the count under each legal first move from ``root``, in the order
    ``moves`` lists them; their sum is perft at ``depth`` (>= 1)."""
    if depth < 1:
        raise ValueError(f"depth: a divide needs a depth >= 1, got {depth}")
    return [(move, count_nodes(child(root, move), depth - 1, moves, child)) for move in moves(root)]


def perft(state: GameState, depth: int) -> int:
    """[PF-count] perft of our engine from ``state``: its legal actions
    (:func:`~hanabi_ref.engine.legality.legal_actions`) made through the trusted path
    (:func:`~hanabi_ref.engine.transition.apply_legal`)."""
    return count_nodes(state, depth, legal_actions, apply_legal)


def divide(state: GameState, depth: int) -> list[tuple[Action, int]]:
    """[PF-divide] our engine's count under each legal first move, in the order of
    2.16-actions."""
    return divide_nodes(state, depth, legal_actions, apply_legal)


def perft_count(state: GameState, depth: int, with_divide: bool) -> PerftCount:
    """[PF-count, PF-divide] our engine's answer: the count, and the divide when
    asked for (and ``depth`` >= 1)."""
    if with_divide and depth >= 1:
        split = tuple(divide(state, depth))
        return PerftCount(depth, sum(nodes for _, nodes in split), split)
    return PerftCount(depth, perft(state, depth))
