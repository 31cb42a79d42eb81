"""Up or Down, the whole variant family: its stacks and its rule set [VAR-up-or-down,
VAR-engine-up-or-down].

Under Up or Down the engine's values are 1 to 6, value 6 being hanab.live's START card
(its rank 7).  A field holds the number of cards on the stack, so the score is still the
sum of the fields; what may come next depends on the cards already there, which are the
played cards of the suit, in the order they were played.  :data:`RULES` answers the
questions of :class:`~hanabi_ref.engine.variants.ruleset.RuleSet` for this family: the
steps of Algorithm 2.16 know it only through them.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from hanabi_ref.engine.cards import Identity, suit_of, value_of
from hanabi_ref.engine.variants.ruleset import RuleSet

if TYPE_CHECKING:
    from hanabi_ref.engine.config import GameConfig
    from hanabi_ref.engine.variants.model import Variant

START_VALUE = 6
"""The engine's value of a START card (hanab.live's rank 7)."""

STACK = 5
"""The cards of a complete stack, either way."""

WAYS = ((1, 2, 3, 4, 5), (5, 4, 3, 2, 1), (START_VALUE, 2, 3, 4, 5), (START_VALUE, 4, 3, 2, 1))
"""[VAR-up-or-down] the four complete stacks, as the move conditions read the clause."""


def applies(variant: Variant) -> bool:
    """[VAR-up-or-down, VAR-rules] the variant's stacks are built up or down: its name
    has the rule prefix ``Up or Down``."""
    return variant.rules.up_or_down


def stack_values(deck: Sequence[Identity], played: Sequence[int], suit: int, values: int) -> tuple[int, ...]:
    """The values on ``suit``'s stack, in the order they were played."""
    return tuple(value_of(deck[card_id], values) for card_id in played if suit_of(deck[card_id], values) == suit)


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


def _has_copy_left(discarded: Sequence[int], counts: tuple[int, ...], base: int, value: int) -> bool:
    """A copy of the value is not in the discard pile."""
    return discarded[base + value - 1] < counts[value - 1]


class UpOrDownRules(RuleSet):
    """[VAR-engine-up-or-down] the rule set of Up or Down: a field counts its stack's
    cards, which value comes next is read from those cards (:func:`next_values`), a
    stack of five is complete, a START card is shown as ``S``."""

    name = "up-or-down"

    upward = False
    """[VAR-up-or-down] a field counts its stack's cards, which may go down."""

    start_value: int | None = START_VALUE

    def stack_height(self, values: int) -> int:
        """[VAR-engine-up-or-down, VAR-max-score] a complete stack holds five cards."""
        return STACK

    def ways(self, values: int) -> tuple[tuple[int, ...], ...]:
        """[VAR-up-or-down] the four complete stacks (1-5, 5-1, START 2-5, START 4-1)."""
        return WAYS

    def played_height(self, config: GameConfig, deck: Sequence[Identity], played: Sequence[int], fields: Sequence[int],
                      suit: int, value: int) -> int | None:
        """[VAR-engine-up-or-down, 2.16-2c-success] a play succeeds if the value may come
        next on the suit's stack; the field then counts one card more."""
        if value in next_values(stack_values(deck, played, suit, config.values)):
            return fields[suit] + 1
        return None

    def next_identities(self, config: GameConfig, deck: Sequence[Identity], fields: Sequence[int],
                        played: Sequence[int]) -> set[int]:
        """[R-4, HL-up-or-down] the identities a stack may take next: any value
        VAR-up-or-down allows after the stack's cards."""
        n = config.values
        return {suit * n + value - 1 for suit in range(config.suit_count)
                for value in next_values(stack_values(deck, played, suit, n))}

    def attainable(self, config: GameConfig, deck: Sequence[Identity], fields: Sequence[int], played: Sequence[int],
                   discarded: Sequence[int]) -> int:
        """[R-1, VAR-engine-up-or-down] the most cards the stacks can still hold: each
        stack's cards and the longest run that can follow them, a value being available
        while a copy of it is not in the discard pile."""
        n, total = config.values, 0
        for suit_index, suit in enumerate(config.suits):
            available = functools.partial(_has_copy_left, discarded, suit.counts, suit_index * n)
            total += attainable(stack_values(deck, played, suit_index, n), available)
        return total

    def value_text(self, value: int) -> str:
        """[SH-card, VAR-engine-up-or-down] a START card is shown as ``S``."""
        return "S" if value == START_VALUE else str(value)


RULES = UpOrDownRules()
"""Up or Down's rule set."""
