"""Questions about a hand, and the mixed-radix number that carries their answers
[I-questions, I-radix, I-answers].

A question reads the identities of a hand and has ``answers`` possible answers; applying
an answer to the hand's public sets removes the identities that disagree with it.  The
chooser picks the next question from the public sets as the earlier answers of the same
sequence left them, so that every seat asks the same questions (I-common).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Protocol

from hanabi_ref.players.strategies.adapt import ForeignMove
from hanabi_ref.players.strategies.info.knowledge import Board, ratio

SOURCE_SUIT_ORDER = (3, 2, 0, 4, 1)
"""[I-questions] (step 3) the source orders identities by its colour letters b, g, r, w, y:
our suits Blue, Green, Red, Purple (its white), Yellow; a sixth suit follows."""


class Question(Protocol):
    """A question about a hand with ``answers`` possible answers."""

    answers: int

    def answer(self, hand: Sequence[int]) -> int:
        """The answer for a hand of these identities (slot order)."""

    def apply(self, sets: list[int], answer: int) -> None:
        """Remove from ``sets`` (the hand's public sets) what disagrees with ``answer``."""


class FirstYes:
    """[I-questions] (step 1) "which of these cards is the first with its property?": items (slot,
    property mask) asked in order; answer 0 when none has it, j when the j-th is the
    first that has it (the items after it are not answered)."""

    __slots__ = ("items", "answers")

    def __init__(self, items: Sequence[tuple[int, int]]) -> None:
        self.items = tuple(items)
        self.answers = len(self.items) + 1

    def answer(self, hand: Sequence[int]) -> int:
        for number, (slot, event) in enumerate(self.items, 1):
            if event >> hand[slot] & 1:
                return number
        return 0

    def apply(self, sets: list[int], answer: int) -> None:
        for number, (slot, event) in enumerate(self.items, 1):
            if number == answer:
                sets[slot] &= event
                return
            sets[slot] &= ~event

    def __repr__(self) -> str:
        return f"FirstYes({list(self.items)})"


class IsPlayable:
    """[I-questions] (step 2) "is this card playable?": 0 no, 1 yes."""

    __slots__ = ("slot", "event", "answers")

    def __init__(self, slot: int, playable: int) -> None:
        self.slot, self.event, self.answers = slot, playable, 2

    def answer(self, hand: Sequence[int]) -> int:
        return self.event >> hand[self.slot] & 1

    def apply(self, sets: list[int], answer: int) -> None:
        sets[self.slot] &= self.event if answer else ~self.event

    def __repr__(self) -> str:
        return f"IsPlayable({self.slot})"


class Partition:
    """[I-questions] (step 3) "in which of these sets is the card's identity?"."""

    __slots__ = ("slot", "buckets", "answers")

    def __init__(self, slot: int, buckets: Sequence[int]) -> None:
        self.slot, self.buckets, self.answers = slot, tuple(buckets), len(buckets)

    def answer(self, hand: Sequence[int]) -> int:
        card = hand[self.slot]
        for number, bucket in enumerate(self.buckets):
            if bucket >> card & 1:
                return number
        # The public sets of an honest team always hold the card's identity; a hint that
        # was no answer of the code (a partner outside it) can leave them without it.
        raise ForeignMove("I-questions", f"identity {card} is in no bucket of slot {self.slot}: "
                          "the public knowledge of the hand no longer holds the card")

    def apply(self, sets: list[int], answer: int) -> None:
        sets[self.slot] &= self.buckets[answer]

    def __repr__(self) -> str:
        return f"Partition({self.slot}, {[bin(b) for b in self.buckets]})"


def is_determined(mask: int) -> bool:
    """One identity possible (an empty set, a contradiction, counts as determined: no
    question is asked about it)."""
    return mask & (mask - 1) == 0


def identity_order(board: Board) -> tuple[int, ...]:
    """[I-questions] (step 3) every identity in the source's order: suit by the source's colour
    letters, then value."""
    values, suits = board.values, len(board.config.suits)
    order = [suit for suit in SOURCE_SUIT_ORDER if suit < suits] + list(range(len(SOURCE_SUIT_ORDER), suits))
    return tuple(suit * values + value for suit in order for value in range(values))


def choose(sets: Sequence[int], room: int, board: Board) -> Question | None:
    """The next question about a hand with public sets ``sets`` when ``room`` answers
    are left (room >= 2), on the board at the start of the turn [I-questions]."""
    return _choose(tuple(sets), room, board)


@functools.lru_cache(maxsize=4096)
def _choose(sets: tuple[int, ...], room: int, board: Board) -> Question | None:
    """:func:`choose` of public inputs, made once for every seat that asks (a question
    object is never changed)."""
    # Plain loops over the slots (no generators, no key functions): a miss of this cache
    # is the hinter's work for every question, a tenth of the strategy's time.
    playable, dead, weights = board.playable, board.dead, board.weights
    whole: list[int] = []
    on_play: list[int] = []
    on_dead: list[int] = []
    candidates: list[int] = []
    surely_playable = surely_dead = False
    for slot, mask in enumerate(sets):
        total, playing, dying = weights.total(mask), weights.total(mask & playable), weights.total(mask & dead)
        whole.append(total)
        on_play.append(playing)
        on_dead.append(dying)
        if total and playing == total:
            surely_playable = True
        if total and dying == total:
            surely_dead = True
        elif not is_determined(mask):
            candidates.append(slot)
    if not surely_playable:
        first = _first_yes(candidates, on_play, on_dead, whole, surely_dead, room, playable, dead)
        if first is not None:
            return first
    # step 2: 1/2 <= P(playable) <= 9/10, the nearest to 7/10 (|10 p - 7 w| / 10 w), the
    # oldest on ties (candidates are in slot order: only a strictly nearer one replaces)
    best, nearest = -1, 0.0
    for slot in candidates:
        playing, total = on_play[slot], whole[slot]
        if 2 * playing >= total and 10 * playing <= 9 * total:
            distance = ratio(abs(10 * playing - 7 * total), 10 * total)
            if best < 0 or distance < nearest:
                best, nearest = slot, distance
    if best >= 0:
        return IsPlayable(best, playable)
    if not candidates:
        return None
    # step 3: the card least likely dead, the oldest on ties
    best, least = candidates[0], ratio(on_dead[candidates[0]], whole[candidates[0]])
    for slot in candidates[1:]:
        chance = ratio(on_dead[slot], whole[slot])
        if chance < least:
            best, least = slot, chance
    return _partition(best, sets[best], room, board)


def _first_yes(candidates: Sequence[int], on_play: Sequence[int], on_dead: Sequence[int], whole: Sequence[int],
               surely_dead: bool, room: int, playable: int, dead: int) -> FirstYes | None:
    """[I-questions] (step 1) the first-yes question, or None when it would be empty."""
    items: list[tuple[int, int, float, int]] = [
        (0, slot, ratio(on_play[slot], whole[slot]), playable) for slot in candidates if on_play[slot]]
    if not surely_dead:
        items += [(1, slot, ratio(on_dead[slot], whole[slot]), dead) for slot in candidates if on_dead[slot]]
    if len(items) > room - 1:
        items = sorted(items, key=lambda item: (item[0], -item[2], item[1]))[: room - 1]
    items.sort(key=lambda item: (item[0], item[2], item[1]))
    return FirstYes([(slot, event) for _, slot, _, event in items]) if items else None


def _partition(slot: int, mask: int, room: int, board: Board) -> Partition:
    """[I-questions] (step 3) the live identities in at most ``room`` buckets, the dead ones in
    one bucket of their own."""
    dead = mask & board.dead
    alive = [card for card in identity_order(board) if (mask & ~board.dead) >> card & 1]
    width = room - 1 if dead else room
    buckets = [0] * min(len(alive), width)
    for index, card in enumerate(alive):
        buckets[index % width] |= 1 << card
    if dead:
        buckets.append(dead)
    return Partition(slot, buckets)


Oracle = Callable[[Question], int]


def ask(sets: list[int], total: int, board: Board, oracle: Oracle) -> int:
    """Ask the questions of one seat in a space of ``total`` answers [I-radix]: each
    answer comes from ``oracle`` and is applied to ``sets`` (changed in place); the
    number that carries them is returned."""
    room, scale, number = total, 1, 0
    while room >= 2:
        question = choose(sets, room, board)
        if question is None:
            break
        answer = oracle(question)
        question.apply(sets, answer)
        number += scale * answer
        room = (room - 1 - answer) // question.answers + 1
        scale *= question.answers
    return number


def encode(sets: list[int], total: int, board: Board, hand: Sequence[int]) -> int:
    """The number carrying the answers for a hand of identities ``hand`` [I-radix];
    ``sets`` becomes the public sets the answers leave."""
    number, after = _encoded(tuple(sets), total, board, tuple(hand))
    sets[:] = after
    return number


@functools.lru_cache(maxsize=2048)
def _encoded(sets: tuple[int, ...], total: int, board: Board, hand: tuple[int, ...]) -> tuple[int, tuple[int, ...]]:
    """:func:`encode` of public inputs and a hand, computed once for every seat that
    sees the hand (the actor and the seats other than its owner reach the same result)."""
    work = list(sets)
    number = ask(work, total, board, lambda question: question.answer(hand))
    return number, tuple(work)


def decode(sets: list[int], total: int, board: Board, number: int) -> int:
    """Apply the answers carried by ``number`` to ``sets``; what is left of the number
    (0 when it was encoded by :func:`encode` with the same sets) [I-radix, I-decode]."""
    left = [number]

    def digit(question: Question) -> int:
        answer = left[0] % question.answers
        left[0] //= question.answers
        return answer

    ask(sets, total, board, digit)
    return left[0]
