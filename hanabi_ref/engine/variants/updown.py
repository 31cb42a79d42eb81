"""Up or Down stacks [VAR-up-or-down, VAR-engine-up-or-down].

Under Up or Down the engine's values are 1 to 6, value 6 being hanab.live's START card
(its rank 7).  A field holds the number of cards on the stack, so the score is still the
sum of the fields; what may come next depends on the cards already there, which are the
played cards of the suit, in the order they were played.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

START_VALUE = 6
"""The engine's value of a START card (hanab.live's rank 7)."""

STACK = 5
"""The cards of a complete stack, either way."""


def stack_values(deck: Sequence[int], played: Sequence[int], suit: int, values: int) -> tuple[int, ...]:
    """The values on ``suit``'s stack, in the order they were played."""
    return tuple(deck[card_id] % values + 1 for card_id in played if deck[card_id] // values == suit)


def next_values(on_stack: Sequence[int]) -> frozenset[int]:
    """[VAR-up-or-down] the values that may be played next on a stack: an empty stack
    takes a 1, a 5 or START; after START a 2 or a 4; a stack started by 1 (or START and 2)
    goes up one by one, one started by 5 (or START and 4) down; a complete stack takes
    nothing."""
    if not on_stack:
        return frozenset({1, 5, START_VALUE})
    if len(on_stack) == STACK:
        return frozenset()
    if tuple(on_stack) == (START_VALUE,):
        return frozenset({2, 4})
    first = on_stack[1] if on_stack[0] == START_VALUE else on_stack[0]
    top = on_stack[-1]
    return frozenset({top + 1}) if first in (1, 2) else frozenset({top - 1})


def attainable(on_stack: Sequence[int], available: Callable[[int], bool]) -> int:
    """[VAR-engine-up-or-down, R-1] the most cards the stack can still hold: the cards on
    it, then as many more as can follow one another, each of a value with a copy left
    (``available``), choosing the best way while the direction is open."""
    best = len(on_stack)
    frontier = [tuple(on_stack)]
    while frontier:
        stack = frontier.pop()
        best = max(best, len(stack))
        frontier.extend((*stack, value) for value in next_values(stack) if available(value))
    return best
