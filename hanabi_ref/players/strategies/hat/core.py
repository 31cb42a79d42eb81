"""The hat core: the modular-sum protocol of every hat strategy [H-hat, H-sum, H-recover].

A *clue* is one hint read as a number in range(m).  The cluer knows the hat value
v_j in range(m) of every clued player j (each a function of what the cluer sees, fixed by
the strategy) and sends their sum modulo m [H-sum].  A clued player cannot see its own
hand, so it cannot compute its own value; it can compute or observe the values of the
other clued players, and recovers its own as the clue number minus their sum, modulo m
[H-recover].  The subtraction can happen in any order and at any time: a player may
subtract the value of a player before it when it sees that player act, and the values
of the players after it when it computes them ("thinking out of turn").

Turning the number into a hint and back is the job of a clue code
(:mod:`hanabi_ref.players.strategies.hat.codes`); this module knows nothing about hints.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

import attrs
import icontract

from hanabi_ref.base.contracts import ENABLED


def _in_range(values: Iterable[int], modulus: int) -> bool:
    return all(0 <= value < modulus for value in values)


@icontract.require(lambda modulus: modulus >= 1, "H-hat: the modulus m is at least 1", enabled=ENABLED)
@icontract.require(lambda values, modulus: _in_range(values, modulus), "H-hat: every hat value lies in range(m)", enabled=ENABLED)
@icontract.ensure(lambda modulus, result: 0 <= result < modulus, "H-sum: the clue number lies in range(m)", enabled=ENABLED)
def hat_sum(values: Sequence[int], modulus: int) -> int:
    """The clue number: the clued players' hat values summed modulo m [H-sum]."""
    return sum(values) % modulus


@icontract.require(lambda modulus: modulus >= 1, "H-hat: the modulus m is at least 1", enabled=ENABLED)
@icontract.require(lambda number, modulus: 0 <= number < modulus, "H-sum: the clue number lies in range(m)", enabled=ENABLED)
@icontract.require(lambda others, modulus: _in_range(others, modulus), "H-hat: every hat value lies in range(m)", enabled=ENABLED)
@icontract.ensure(
    lambda number, others, modulus, result: (sum(others) + result) % modulus == number,
    "H-recover: the recovered value completes the others' sum to the clue number",
    enabled=ENABLED,
)
def recover(number: int, others: Sequence[int], modulus: int) -> int:
    """A clued player's own hat value: the clue number minus the other clued players'
    values, modulo m [H-recover].  It is the only value in range(m) that makes the sum
    come out, so it is the value the cluer used."""
    return (number - sum(others)) % modulus


def _is_well_formed(clue: HatClue) -> bool:
    seats = clue.clued
    return (
        clue.modulus >= 1
        and 0 <= clue.number < clue.modulus
        and len(set(seats)) == len(seats)
        and clue.cluer not in seats
    )


@icontract.invariant(
    lambda self: _is_well_formed(self),
    "H-hat, H-sum: a clue has a modulus m >= 1, a number in range(m), distinct clued seats, and its cluer is not clued",
    enabled=ENABLED,
)
@attrs.frozen(slots=False)
class HatClue:
    """One clue as every player sees it [H-hat, H-sum]: who gave it, which seats it clues
    (in the order they act), the modulus and the number.  All four are public: the
    strategy decides who is clued from public information, and the number is read off
    the hint by a clue code."""

    cluer: int
    clued: tuple[int, ...]
    modulus: int
    number: int

    @icontract.require(lambda self, seat: seat in self.clued, "H-recover: only a clued seat recovers a value", enabled=ENABLED)
    @icontract.require(
        lambda self, seat, others: sorted(others) == sorted(s for s in self.clued if s != seat),
        "H-recover: the values of all the other clued seats, and only theirs, are given",
        enabled=ENABLED,
    )
    def value_of(self, seat: int, others: Mapping[int, int]) -> int:
        """Seat ``seat``'s own hat value, given every other clued seat's value (by seat)
        [H-recover]."""
        return recover(self.number, tuple(others.values()), self.modulus)


@icontract.require(lambda clued, values: len(clued) == len(values), "H-hat: one hat value per clued seat", enabled=ENABLED)
@icontract.ensure(
    lambda clued, values, result: all(
        result.value_of(seat, {s: v for s, v in zip(clued, values) if s != seat}) == value
        for seat, value in zip(clued, values)
    ),
    "H-recover: every clued seat recovers the value the cluer assigned it",
    enabled=ENABLED,
)
def give_clue(cluer: int, clued: Sequence[int], values: Sequence[int], modulus: int) -> HatClue:
    """The clue a cluer gives when seat ``clued[i]`` has hat value ``values[i]`` [H-sum]."""
    return HatClue(cluer, tuple(clued), modulus, hat_sum(values, modulus))


__all__ = ["HatClue", "give_clue", "hat_sum", "recover"]
