"""Exact counts of playable sequences, with a bound on the work [PL-count, PL-limit, 3.34].

Hand size 1 is solved in closed form for any deck: by Corollary 3.34 the colours are
independent, so the playable sequences are the interleavings of one playable sequence per
colour, χ of Theorem 3.25 for each.  Larger hands use the memoized count of
:mod:`hanabi_ref.tools.playability.solver`, whose work grows with the number of sub-multisets of
the deck; beyond :data:`STATE_LIMIT` it is refused before it starts.
"""

from __future__ import annotations

import math

import attrs

from hanabi_ref.base.errors import ConfigError
from hanabi_ref.tools.playability.composition import Composition, multinomial
from hanabi_ref.tools.playability.formulas import chi
from hanabi_ref.tools.playability.solver import count_playable

STATE_LIMIT = 50_000
"""[PL-limit] The largest ∏ (x + 1) over a deck's card identities counted exactly; two
colours of classic Hanabi (216² = 46 656) take a few minutes."""


class TooLargeError(ConfigError):
    """[PL-limit] An exact count that would not finish in reasonable time."""


@attrs.frozen
class ExactCount:
    """The playable and the total number of distinct sequences of a composition."""

    playable: int
    total: int

    @property
    def fraction(self) -> float:
        return self.playable / self.total


def state_space(counts: tuple[int, ...]) -> int:
    """∏ (x + 1): the number of sub-multisets, a bound on PL-count's remaining decks."""
    return math.prod(count + 1 for count in counts)


def check_exact_size(composition: Composition, hand_size: int) -> None:
    """Refuse an exact count beyond PL-limit, naming the size and pointing to --samples."""
    if hand_size == 1:
        sizes = [state_space(counts) for counts in composition.colours]
    else:
        sizes = [state_space(composition.counts)]
    if max(sizes) > STATE_LIMIT:
        raise TooLargeError(
            f"composition {composition.describe()} with hand size {hand_size} is too large to count "
            f"exactly ({max(sizes)} sub-decks, limit {STATE_LIMIT}); estimate it with --samples N"
        )


def exact_count(composition: Composition, hand_size: int) -> ExactCount:
    """The exact number of (K, m)-playable sequences [PL-playable, PL-count, 3.34]."""
    if hand_size < 1:
        raise ConfigError(f"--hand-size: must be at least 1, got {hand_size}")
    check_exact_size(composition, hand_size)
    if hand_size == 1:
        playable = multinomial([sum(counts) for counts in composition.colours])
        for counts in composition.colours:
            playable *= chi(counts)
    else:
        playable = count_playable(composition, hand_size)
    return ExactCount(playable, composition.total)
