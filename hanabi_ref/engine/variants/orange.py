"""Orange suits, the whole variant family: play and discard swapped [VAR-orange,
VAR-engine-orange].

When a player plays an orange card it is discarded instead, and when one discards it,
it is played instead.  The engine carries the play of an orange card out as step 2b on it
and its discard as step 2c; that is the one question of
:class:`~hanabi_ref.engine.variants.ruleset.RuleSet` this family answers
(:meth:`OrangeSuits.is_swapped`).  Orange suits go with either way of building stacks
(``Orange (5 Suits)``, ``Up or Down & Orange (6 Suits)``), so the family's rule set
wraps the rule set of the stacks, which answers every other question.  The suits are
the variant model's (``SuitKind.inverted``); the identities of their cards come as a mask
from :func:`hanabi_ref.engine.variants.engine.inverted_mask`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hanabi_ref.engine.variants.ruleset import RuleSet

if TYPE_CHECKING:
    from hanabi_ref.engine.cards import Identity
    from hanabi_ref.engine.config import GameConfig


class OrangeSuits(RuleSet):
    """[VAR-engine-orange] the rule set of a variant with orange suits: the play and the
    discard of the identities in ``inverted`` are swapped; ``stacks``, the rule set of the
    variant's stacks, answers every other question (each is passed on below, and
    tests/test_variant_engine.py checks that none is missed)."""

    def __init__(self, stacks: RuleSet, inverted: int) -> None:
        self.stacks, self.inverted = stacks, inverted
        self.name = f"{stacks.name}, orange"
        self.upward, self.start_value = stacks.upward, stacks.start_value

    def is_swapped(self, config: GameConfig, card: Identity) -> bool:
        """[VAR-engine-orange] an orange card's play is carried out as step 2b, its discard
        as step 2c."""
        return bool(self.inverted >> card & 1)

    # The questions orange suits do not change, answered by the stacks' rule set.

    def stack_height(self, values: int) -> int:
        return self.stacks.stack_height(values)

    def ways(self, values: int) -> tuple[tuple[int, ...], ...]:
        return self.stacks.ways(values)

    def played_height(self, config: GameConfig, deck: Sequence[Identity], played: Sequence[int], fields: Sequence[int],
                      suit: int, value: int) -> int | None:
        return self.stacks.played_height(config, deck, played, fields, suit, value)

    def next_identities(self, config: GameConfig, deck: Sequence[Identity], fields: Sequence[int],
                        played: Sequence[int]) -> set[int]:
        return self.stacks.next_identities(config, deck, fields, played)

    def attainable(self, config: GameConfig, deck: Sequence[Identity], fields: Sequence[int], played: Sequence[int],
                   discarded: Sequence[int]) -> int:
        return self.stacks.attainable(config, deck, fields, played, discarded)

    def value_text(self, value: int) -> str:
        return self.stacks.value_text(value)
