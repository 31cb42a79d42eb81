"""Hat values: the one encoding of the action a clue gives a seat [H-values, H-rec-values].

A hat value is an integer: ``PLAY + s`` plays slot s, ``DISCARD + s`` discards slot s, and
``CLUE`` gives a clue (the hat player's ninth value; the recommendation strategy has only
the first eight, H-rec-values).  :class:`HatValue` names them; the encoders
(:meth:`HatValue.play`, :meth:`HatValue.discard`, :func:`value_of_action`, and the tables
``PLAY_VALUES`` and ``DISCARD_VALUES``) and the decoders (``IS_PLAY``, ``IS_DISCARD``,
``SLOT_OF``, :meth:`HatValue.from_number`) are the only place a hat value is built or
read; the modular sum of :mod:`.core` adds and subtracts them as integers [H-sum,
H-recover].
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final

from hanabi_ref.engine.actions import Action, Hint, Play

SLOTS = 4
"""Hand slots a hat value can name (the hand size of 4 and 5 players) [H-values]."""
PLAY, DISCARD, CLUE = 0, SLOTS, 2 * SLOTS
"""Hat values: PLAY + s plays slot s, DISCARD + s discards slot s, CLUE gives a clue [H-values]."""
MODULUS = 2 * SLOTS + 1
"""The hat player's nine values [H-values]."""


class HatValue(IntEnum):
    """One of the nine hat values [H-values]: play a slot, discard a slot, or clue.  A
    member's integer is the hat value of H-values (``PLAY + s``, ``DISCARD + s``,
    ``CLUE``), so the hat sum reads it as it is; an integer becomes a member only through
    :meth:`from_number`."""

    PLAY_0 = 0
    PLAY_1 = 1
    PLAY_2 = 2
    PLAY_3 = 3
    DISCARD_0 = 4
    DISCARD_1 = 5
    DISCARD_2 = 6
    DISCARD_3 = 7
    CLUE = 8

    @staticmethod
    def from_number(number: int) -> HatValue:
        """[H-values, H-recover] the value a number in range(9) names: a recovered clue
        share or an observed action (the one place an integer becomes a value)."""
        return HAT_VALUES[number]

    @staticmethod
    def play(slot: int) -> HatValue:
        """[H-values] play ``slot``."""
        return HAT_VALUES[PLAY + slot]

    @staticmethod
    def discard(slot: int) -> HatValue:
        """[H-values] discard ``slot``."""
        return HAT_VALUES[DISCARD + slot]

    @property
    def is_play(self) -> bool:
        return self < DISCARD

    @property
    def is_discard(self) -> bool:
        return DISCARD <= self < CLUE

    @property
    def slot(self) -> int:
        """The slot a play or a discard names."""
        return self % SLOTS


HAT_VALUES: tuple[HatValue, ...] = tuple(HatValue)
"""The members by their integer (they are declared in the order of H-values)."""

# The same facts as module-level tables, for the hot paths: reading an enum member or
# property costs far more in CPython than indexing a tuple.  Indexed by a member or by
# its integer alike.
PLAY_VALUES: tuple[HatValue, ...] = HAT_VALUES[PLAY:DISCARD]
"""``PLAY_VALUES[s]`` is :meth:`HatValue.play` of slot s."""
DISCARD_VALUES: tuple[HatValue, ...] = HAT_VALUES[DISCARD:CLUE]
"""``DISCARD_VALUES[s]`` is :meth:`HatValue.discard` of slot s."""
CLUE_VALUE: Final = HatValue.CLUE
IS_PLAY: tuple[bool, ...] = tuple(value.is_play for value in HAT_VALUES)
"""``IS_PLAY[v]`` is ``v.is_play``."""
IS_DISCARD: tuple[bool, ...] = tuple(value.is_discard for value in HAT_VALUES)
"""``IS_DISCARD[v]`` is ``v.is_discard``."""
SLOT_OF: tuple[int, ...] = tuple(value.slot for value in HAT_VALUES)
"""``SLOT_OF[v]`` is ``v.slot``."""


def value_of_action(action: Action) -> HatValue:
    """The hat value an action carries out [H-values]."""
    if isinstance(action, Hint):
        return CLUE_VALUE
    return HAT_VALUES[(PLAY if isinstance(action, Play) else DISCARD) + action.slot]


def describe_value(value: int) -> str:
    """A hat value in words [H-values]."""
    if value == CLUE:
        return "give a clue"
    return f"{'play' if IS_PLAY[value] else 'discard'} slot {SLOT_OF[value]}"
