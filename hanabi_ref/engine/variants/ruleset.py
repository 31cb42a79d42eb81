"""The rule set: what a variant family changes in Algorithm 2.16, and the thesis' answers
[2.16-2c-success, 2.16-2c-five, 2.13-4, R-1, R-4, VAR-engine].

The steps of :mod:`hanabi_ref.engine.transition` and the state's checks ask a
:class:`RuleSet` these questions and never test a variant flag or mask:

=====================  ===============================================  ==================
question               method                                           clause
=====================  ===============================================  ==================
does a play succeed,   :meth:`RuleSet.played_height`                    2.16-2c-success
and what F[x] becomes
is a played card       :meth:`RuleSet.is_swapped`                       VAR-engine-orange
discarded, and a
discarded one played
when is a field        :meth:`RuleSet.stack_height`                     2.16-2c-five,
complete                                                                2.16-3-max
the complete stacks    :meth:`RuleSet.ways`                             2.13-4
(the clause's reading)
what a stack may take  :meth:`RuleSet.next_identities`                  R-4
next
the attainable score   :meth:`RuleSet.attainable`                       R-1
how a value is shown   :meth:`RuleSet.value_text`                       SH-card
is a field its height  :attr:`RuleSet.upward`                           2.13-4
(1, ..., F[i])
the START card's       :attr:`RuleSet.start_value`                      VAR-engine-up-or-down
value, if any
=====================  ===============================================  ==================

:data:`THESIS`, the class's own answers, is the thesis' rules: a field F[i] is
(1, ..., F[i]), built upwards, and every card is played when played.  Each variant family
that changes an answer is one module: Up or Down (:mod:`hanabi_ref.engine.variants.updown`)
builds its stacks another way, a subclass; orange suits
(:mod:`hanabi_ref.engine.variants.orange`) swap play and discard on top of the stacks of
either, a mixin.  :func:`hanabi_ref.engine.variants.engine.rule_set` names the one a
variant uses.  What a clue touches is already a table (VAR-engine-masks), not asked here.

:meth:`RuleSet.played_height` and :meth:`RuleSet.attainable` are what the steps compute;
:meth:`RuleSet.ways`, the complete stacks written out, is what the move conditions and the
state's invariant read instead, so that a mistake in one is caught by the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from mypy_extensions import mypyc_attr

if TYPE_CHECKING:
    from hanabi_ref.engine.cards import Identity
    from hanabi_ref.engine.config import GameConfig


@mypyc_attr(allow_interpreted_subclasses=True)
class RuleSet:
    """The thesis' answers to the questions the steps ask of the rules [2.16-2c-success,
    2.16-2c-five, 2.13-4, R-1, R-4]; a variant family overrides those it changes.

    The steps ask on every move, so the compiled build (:mod:`hanabi_ref.tools.compiled`)
    compiles this module and the families' modules with the engine; a family written
    later, and not compiled, still subclasses it (``allow_interpreted_subclasses``)."""

    name = "thesis"

    upward = True
    """[2.13-4] a field F[i] is the stack (1, ..., F[i]): its height says which cards are on
    it (a strategy that reads it so plays only such rule sets)."""

    start_value: int | None = None
    """[VAR-engine-up-or-down] the value of the START card, or None in a family without one."""

    def stack_height(self, values: int) -> int:
        """[2.16-2c-five, 2.16-3-max] the cards of a complete field stack: n."""
        return values

    def ways(self, values: int) -> tuple[tuple[int, ...], ...]:
        """[2.13-4] every complete field stack, its values in the order they are played:
        only (1, ..., n)."""
        return (tuple(range(1, values + 1)),)

    def played_height(self, config: GameConfig, deck: Sequence[Identity], played: Sequence[int], fields: Sequence[int],
                      suit: int, value: int) -> int | None:
        """[2.16-2c-success, E-25] F[x] after a play of (value y, suit x) that succeeds, or
        None if it fails: it succeeds if F[x] = (1, ..., y - 1), and F[x] is then y (one
        test: a 1 on an empty field is the case y = 1)."""
        return value if fields[suit] == value - 1 else None

    def is_swapped(self, config: GameConfig, card: Identity) -> bool:
        """[2.16-2b, 2.16-2c, VAR-engine-orange] whether a play of the identity ``card`` is
        carried out as step 2b and its discard as step 2c: never under the thesis."""
        return False

    def next_identities(self, config: GameConfig, deck: Sequence[Identity], fields: Sequence[int],
                        played: Sequence[int]) -> set[int]:
        """[R-4] the identities some field stack may take next: y = F[x] + 1 of each
        incomplete suit x."""
        n = config.values
        return {suit * n + height for suit, height in enumerate(fields) if height < n}

    def attainable(self, config: GameConfig, deck: Sequence[Identity], fields: Sequence[int], played: Sequence[int],
                   discarded: Sequence[int]) -> int:
        """[R-1] the best score still reachable: each suit up to below the first value
        whose every copy has been discarded (``discarded`` counts the copies of each
        identity in D)."""
        return sum(attainable_heights(config, fields, discarded))

    def value_text(self, value: int) -> str:
        """[SH-card] how a card's value is written: its number."""
        return str(value)


THESIS = RuleSet()
"""The thesis' rules, the rule set of every configuration without a variant family of
its own."""


def attainable_heights(config: GameConfig, fields: Sequence[int], discarded: Sequence[int]) -> list[int]:
    """[R-1] the height each suit can still reach under the thesis' rules: from its field
    up to below the first value whose every copy has been discarded."""
    n = config.values
    heights = []
    for suit_index, suit in enumerate(config.suits):
        height = fields[suit_index]
        while height < n and discarded[suit_index * n + height] < suit.counts[height]:
            height += 1
        heights.append(height)
    return heights
