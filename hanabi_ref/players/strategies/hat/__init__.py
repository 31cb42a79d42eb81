"""Hat-guessing strategies (spec/hat.md).

:mod:`~hanabi_ref.players.strategies.hat.core` is the modular-sum protocol every hat strategy
shares [H-hat, H-sum, H-recover]; :mod:`~hanabi_ref.players.strategies.hat.codes` turns clue
numbers into hints and back [H-code]; :mod:`~hanabi_ref.players.strategies.hat.values` is the
one encoding of hat values, the action a clue gives a seat [H-values, H-rec-values].
"""

from hanabi_ref.players.strategies.hat.codes import (
    ClueCode,
    CodeError,
    HintListCode,
    NewestCardCode,
    SeenHand,
    SeenHandsMemo,
    decode_event,
    hat_code,
    k_code,
    nine_code,
    public_part_size,
    public_sizes,
    seen_hand,
    seen_hands,
    touches_newest,
)
from hanabi_ref.players.strategies.hat.core import HatClue, give_clue, hat_sum, recover

__all__ = [
    "ClueCode",
    "CodeError",
    "HatClue",
    "HintListCode",
    "NewestCardCode",
    "SeenHand",
    "SeenHandsMemo",
    "decode_event",
    "give_clue",
    "hat_code",
    "hat_sum",
    "k_code",
    "nine_code",
    "public_part_size",
    "public_sizes",
    "recover",
    "seen_hand",
    "seen_hands",
    "touches_newest",
]
