"""What a move tells every seat of the information strategy: the public sets, the codes
of size k, the number a hint or a discard carries and the answers it brings [I-public,
I-k, I-hint-map, I-answers, I-decode, I-useless, I-no-hint-needed, I-useless-hat].

Every function here reads a :class:`Moment` (the public facts at the start of a turn) and
a seat's :class:`PublicKnowledge` and changes neither: what a move tells comes back as
*restrictions*, one per seat: the card ids of its hand and the mask each card keeps,
which the seat applies with :meth:`PublicKnowledge.apply`.  Restrictions of
different seats touch different cards, so their order does not matter.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from hanabi_ref.engine.actions import Hint
from hanabi_ref.base.errors import HanabiError
from hanabi_ref.players.strategies.info.codes import code_size, focus, hint_type
from hanabi_ref.players.strategies.info.knowledge import Board, Moment, PublicKnowledge, Weights
from hanabi_ref.players.strategies.info.questions import decode, encode, is_determined

Restriction = tuple[tuple[int, ...], list[int]]
"""(card ids, masks) of one hand: each card keeps only the identities of its mask
(I-answers).  A pair per hand, not per card: a move restricts a dozen cards."""

Restrictions = list[Restriction]

Code = tuple[int, int, int]
"""(seat, focus slot, k) of one seat's code [I-focus, I-k]."""


class InfoError(HanabiError):
    """[I-decode-check] a seat decoded another number than the actor encoded, or a code
    had no hint of the type a number named (a bug either way)."""


def seats_after(players: int, actor: int) -> list[int]:
    """The seats other than ``actor``, in turn order after it."""
    return [(actor + offset) % players for offset in range(1, players)]


def public_sets(public: PublicKnowledge, moment: Moment, seat: int) -> list[int]:
    """The public sets of ``seat``'s cards at ``moment`` [I-public]."""
    return public.sets(moment.hands[seat], moment.knowledge[seat], moment.board)


def seen_hand(moment: Moment, seat: int) -> list[int]:
    """The identities of ``seat``'s cards that the reader of ``moment`` sees."""
    return [card for card in moment.cards[seat] if card is not None]


def codes_of(public: PublicKnowledge, moment: Moment, actor: int) -> list[Code]:
    """(seat, focus slot, k) of every seat other than the actor, in turn order [I-focus, I-k]."""
    codes = []
    for seat in seats_after(len(moment.hands), actor):
        sets = public_sets(public, moment, seat)
        if not sets:
            codes.append((seat, 0, 0))
            continue
        slot = focus(sets, moment.board)
        codes.append((seat, slot, code_size(sets, slot, moment.board)))
    return codes


def code_total(codes: Sequence[Code]) -> int:
    """T: the sum of the code sizes, the modulus of a hint's number [I-hint-map]."""
    return sum(k for _, _, k in codes)


def number_of_hint(codes: Sequence[Code], before: Moment, hint: Hint, touched: Collection[int]) -> int:
    """[I-hint-map] the number ``hint`` names: the sizes of the codes of the seats before
    its target, plus the hint's type for the target's focus card."""
    number = 0
    for seat, slot, k in codes:
        if seat == hint.target:
            return number + hint_type(hint, before.hands[seat][slot] in touched, k)
        number += k
    return number


def answer(public: PublicKnowledge, before: Moment, seat: int, total: int) -> tuple[int, Restriction]:
    """[I-answers] ``seat``'s number of modulus ``total`` (its questions answered from its
    cards, seen) and the restrictions the answers put on its cards."""
    sets = public_sets(public, before, seat)
    number = encode(sets, total, before.board, seen_hand(before, seat))
    return number, (before.hands[seat], sets)


def others_answers(public: PublicKnowledge, before: Moment, actor: int, reader: int,
                   total: int) -> tuple[int, Restrictions]:
    """[I-answers, I-decode, H-recover] the sum of the numbers of every seat but the actor
    and ``reader`` (the reader sees their cards), and the restrictions of their answers."""
    others = 0
    kept: Restrictions = []
    for seat in seats_after(len(before.hands), actor):
        if seat == reader:
            continue
        number, restriction = answer(public, before, seat, total)
        others += number
        kept.append(restriction)
    return others, kept


def own_answers(public: PublicKnowledge, before: Moment, reader: int, own: int, total: int) -> Restrictions:
    """[I-decode] the restrictions of ``reader``'s own answers, decoded from its number
    ``own``: the move's number minus the other seats' numbers (modulo ``total``)."""
    sets = public_sets(public, before, reader)
    decode(sets, total, before.board, own)
    return [(before.hands[reader], sets)]


def useless(sets: Sequence[int], board: Board, weights: Weights | None = None) -> list[int]:
    """[I-useless] the slots of cards surely dead or surely a duplicate of another card of
    the hand, in slot order."""
    found = []
    for slot, mask in enumerate(sets):
        if board.surely(mask, board.dead, weights):
            found.append(slot)
        elif is_determined(mask) and any(other == mask for index, other in enumerate(sets) if index != slot):
            found.append(slot)
    return found


def knows_no_playable(public: PublicKnowledge, moment: Moment, seat: int) -> bool:
    """``seat`` knows no card of its hand playable by public knowledge [I-no-hint-needed]."""
    board = moment.board
    return all(not board.surely(mask, board.playable) for mask in public_sets(public, moment, seat))


def needs_a_hint(public: PublicKnowledge, moment: Moment, seat: int) -> bool:
    """[I-turn] (step 3) ``seat`` holds a playable card (seen) and knows no card playable (public)."""
    playable = moment.board.playable
    sees_playable = any(card is not None and playable >> card & 1 for card in moment.cards[seat])
    return sees_playable and knows_no_playable(public, moment, seat)


def nobody_needed_a_hint(public: PublicKnowledge, before: Moment, actor: int) -> Restrictions:
    """[I-no-hint-needed] a discard with a token left tells that a seat other than the actor
    that knows no card playable has none: the playable identities leave all its cards."""
    restrictions: Restrictions = []
    unplayable = ~before.board.playable
    for seat in seats_after(len(before.hands), actor):
        if knows_no_playable(public, before, seat):
            hand = before.hands[seat]
            restrictions.append((hand, [unplayable] * len(hand)))
    return restrictions


def useless_discard(public: PublicKnowledge, before: Moment, actor: int, slot: int) -> tuple[int, int] | None:
    """[I-useless-hat] the number of a discard of ``slot`` and its modulus u, when the slot
    is one of u >= 2 cards useless by public knowledge (else None)."""
    found = useless(public_sets(public, before, actor), before.board)
    if len(found) >= 2 and slot in found:
        return found.index(slot), len(found)
    return None
