"""Exact playability of one sequence, and exact counts over a composition [PL-solve, PL-count].

Single player, hand size m, no passes (Definitions 3.10 and 3.32).  The sequence is read
once.  A *position* after a turn is (L, K): the height of every colour's stack and the
set K of distinct useful cards kept in hand; every other card in hand is useless (already
played, a duplicate of a kept card, or of no value), so the hand is K plus m − |K| − 1
useless cards between turns.  By PL-dominance (proofs/playability_search.md):

* when a kept card is playable, playing it is at least as good as any discard;
* otherwise, when a useless card is in hand, discarding it is at least as good as giving
  up a useful one;
* otherwise the hand is m distinct useful cards and any of them may be given up.

So every turn has at most m real choices, and of the positions reachable after a turn
only the non-dominated ones (an antichain) need to be kept.  [PL-solve] decides one
sequence this way; [PL-count] counts the playable sequences of a composition with the
same positions, memoized on (cards not yet drawn, antichain), without listing sequences.
"""

from __future__ import annotations

from collections.abc import Sequence

import attrs

from hanabi_ref.tools.playability.composition import Card, Composition, multinomial

Position = tuple[tuple[int, ...], int]
"""(stack height per colour, bit mask of the kept useful card types)."""

Positions = frozenset[Position]


@attrs.frozen
class Table:
    """What the positions need to know about the card types of one deck [PL-solve].

    Types are numbered 0, 1, …; ``colour[t]`` is 0-based, ``value[t]`` ≥ 1.  A card that
    can never be played (a value ≤ 0, or a value above a single colour's target k) has no
    type: the readers pass −1 for it.
    """

    colour: tuple[int, ...]
    value: tuple[int, ...]
    colours: int
    hand_size: int
    target: int
    end_on_empty_stack: bool
    played: tuple[tuple[int, ...], ...]  # played[c][L]: types of colour c with value ≤ L
    following: tuple[tuple[int, ...], ...]  # following[c][L]: type (L + 1, c), or −1

    @classmethod
    def build(cls, cards: Sequence[Card], hand_size: int, target: int, end_on_empty_stack: bool) -> Table:
        colours = 1 + max((colour for _, colour in cards), default=0)
        top = max((value for value, _ in cards), default=0)
        played = []
        following = []
        for colour in range(colours):
            masks, nexts = [], []
            for level in range(top + 2):
                masks.append(sum(1 << t for t, card in enumerate(cards) if card[1] == colour and card[0] <= level))
                nexts.append(cards.index((level + 1, colour)) if (level + 1, colour) in cards else -1)
            played.append(tuple(masks))
            following.append(tuple(nexts))
        return cls(
            colour=tuple(colour for _, colour in cards),
            value=tuple(value for value, _ in cards),
            colours=colours,
            hand_size=hand_size,
            target=target,
            end_on_empty_stack=end_on_empty_stack,
            played=tuple(played),
            following=tuple(following),
        )


def table_for(cards: Sequence[Card], hand_size: int, target: int, end_on_empty_stack: bool = True) -> Table:
    """The table of a deck whose card identities are (value, colour) with colours from 1,
    type t being ``cards[t]`` (as in :attr:`Composition.cards`)."""
    return Table.build([(value, colour - 1) for value, colour in cards], hand_size, target, end_on_empty_stack)


# ------------------------------------------------------------------ one turn


def read(table: Table, position: Position, card_type: int) -> Position:
    """Draw a card: keep it if it is useful and not already kept [PL-solve]."""
    levels, kept = position
    if card_type < 0 or kept >> card_type & 1 or table.value[card_type] <= levels[table.colour[card_type]]:
        return position
    return levels, kept | 1 << card_type


def act(table: Table, position: Position) -> list[Position]:
    """The non-dominated results of one action with a full hand of m cards [PL-dominance]."""
    levels, kept = position
    plays = []
    for colour, level in enumerate(levels):
        card_type = table.following[colour][level]
        if card_type >= 0 and kept >> card_type & 1:
            raised = levels[:colour] + (level + 1,) + levels[colour + 1 :]
            plays.append((raised, kept & ~(1 << card_type)))
    if plays:
        return plays
    if kept.bit_count() < table.hand_size:
        return [position]  # discard a useless card
    return [(levels, kept & ~(1 << t)) for t in range(len(table.value)) if kept >> t & 1]


def played_mask(table: Table, levels: tuple[int, ...]) -> int:
    mask = 0
    for colour, level in enumerate(levels):
        mask |= table.played[colour][level]
    return mask


def dominates(table: Table, better: Position, worse: Position) -> bool:
    """PL-dominance: higher stacks everywhere, and every card ``worse`` keeps is kept or
    already played by ``better``."""
    if any(high < low for high, low in zip(better[0], worse[0])):
        return False
    return worse[1] & ~(better[1] | played_mask(table, better[0])) == 0


def antichain(table: Table, positions: set[Position]) -> list[Position]:
    """The positions no other position dominates [PL-dominance]."""
    ordered = sorted(positions, key=lambda p: (-sum(p[0]), -p[1].bit_count(), p))
    kept: list[Position] = []
    for candidate in ordered:
        if not any(dominates(table, other, candidate) for other in kept):
            kept.append(candidate)
    return kept


# ------------------------------------------------------------------ bounds


def reachable_score(table: Table, position: Position, remaining: Sequence[int]) -> int:
    """An upper bound on the final score: each stack can grow only through consecutive
    values still kept or still in the stack (3.13-3)."""
    levels, kept = position
    score = 0
    for colour, level in enumerate(levels):
        card_type = table.following[colour][level]
        while card_type >= 0 and (kept >> card_type & 1 or remaining[card_type]):
            level += 1
            card_type = table.following[colour][level]
        score += level
    return score


def is_alive(table: Table, position: Position, remaining: Sequence[int], actions_left: int) -> bool:
    """Whether the target may still be reached: enough cards (3.13-3) and, when the game
    ends one turn after the stack empties, enough turns (3.13-4)."""
    needed = table.target - sum(position[0])
    if table.end_on_empty_stack and needed > actions_left:
        return False
    return reachable_score(table, position, remaining) >= table.target


def is_won(table: Table, position: Position) -> bool:
    return sum(position[0]) >= table.target


def final_score_without_end(table: Table, position: Position) -> int:
    """[3.4-no-end] With the stack empty and no last round, every kept card that extends a
    stack is played in turn."""
    return reachable_score(table, position, [0] * len(table.value))


# ------------------------------------------------------------------ one sequence


def _types(sequence: Sequence[int] | Sequence[Card], score: int) -> tuple[list[Card], list[int]]:
    """Card types (value, 0-based colour) and the type of every card of ``sequence``."""
    cards: list[Card] = []
    for item in sequence:
        if isinstance(item, tuple):
            value, colour = item
            cards.append((value, colour - 1) if value >= 1 else (0, -1))
        else:
            cards.append((item, 0) if 1 <= item <= score else (0, -1))
    kinds = sorted({card for card in cards if card[1] >= 0})
    index = {card: t for t, card in enumerate(kinds)}
    return kinds, [index.get(card, -1) for card in cards]


def solve(
    sequence: Sequence[int] | Sequence[Card],
    score: int,
    hand_size: int,
    *,
    end_on_empty_stack: bool = True,
) -> bool:
    """Whether ``sequence`` is (score, hand_size)-playable [PL-solve, 3.10, 3.32].

    ``sequence`` is a single-colour sequence of integers or a sequence of (value, colour)
    cards with colours from 1.  With ``end_on_empty_stack=False`` the game does not end one
    turn after the stack is empty (3.4-no-end).
    """
    if hand_size < 1:
        raise ValueError(f"hand size must be at least 1, got {hand_size}")
    if score <= 0:
        return True
    kinds, types = _types(sequence, score)
    return solve_types(Table.build(kinds, hand_size, score, end_on_empty_stack), types)


def solve_types(table: Table, types: Sequence[int]) -> bool:
    """PL-solve on a sequence already given as card types of ``table`` (−1: never playable),
    so that many orders of one deck share one table [PL-solve]."""
    score, hand_size = table.target, table.hand_size
    remaining = [0] * len(table.value)
    for card_type in types:
        if card_type >= 0:
            remaining[card_type] += 1
    start: Position = ((0,) * table.colours, 0)
    if len(types) < hand_size:  # 3.10-turns
        if table.end_on_empty_stack:
            return False
        for card_type in types:
            start = read(table, start, card_type)
        return final_score_without_end(table, start) >= score
    positions: list[Position] = [start]
    for index, card_type in enumerate(types):
        if card_type >= 0:
            remaining[card_type] -= 1
        drawn = [read(table, position, card_type) for position in positions]
        if index < hand_size - 1:  # the opening hand is still being dealt
            positions = drawn
            continue
        if not table.end_on_empty_stack and index == len(types) - 1:
            return any(final_score_without_end(table, p) >= score for p in drawn)
        actions_left = len(types) - 1 - index
        successors = {s for position in drawn for s in act(table, position)}
        if any(is_won(table, s) for s in successors):
            return True
        positions = antichain(table, {s for s in successors if is_alive(table, s, remaining, actions_left)})
        if not positions:
            return False
    return False


# ------------------------------------------------------------------ counting


class PlayableCounter:
    """Counts the (K, m)-playable sequences of compositions over one set of card types
    [PL-count].  One counter may serve many compositions (Appendix A shares one per m)."""

    def __init__(self, cards: Sequence[Card], hand_size: int, target: int, *, end_on_empty_stack: bool = True):
        self.table = table_for(cards, hand_size, target, end_on_empty_stack)
        self.memo: dict[tuple[tuple[int, ...], Positions, int], int] = {}

    def count(self, counts: Sequence[int]) -> int:
        """The number of playable distinct sequences with ``counts[t]`` cards of type t."""
        table = self.table
        if table.target <= 0:
            return multinomial(counts)
        if sum(counts) < table.hand_size and table.end_on_empty_stack:
            return 0  # 3.10-turns
        start: Position = ((0,) * table.colours, 0)
        return self._completions(tuple(counts), frozenset([start]), table.hand_size - 1)

    def _completions(self, remaining: tuple[int, ...], positions: Positions, dealing: int) -> int:
        """Playable orders of ``remaining`` after ``positions``; the first ``dealing`` cards
        still complete the opening hand (no action after them)."""
        key = (remaining, positions, dealing)
        cached = self.memo.get(key)
        if cached is not None:
            return cached
        total = 0
        for card_type, count in enumerate(remaining):
            if count:
                after = remaining[:card_type] + (count - 1,) + remaining[card_type + 1 :]
                total += self._after_card(after, positions, dealing, card_type)
        self.memo[key] = total
        return total

    def _after_card(self, remaining: tuple[int, ...], positions: Positions, dealing: int, card_type: int) -> int:
        table = self.table
        drawn = {read(table, position, card_type) for position in positions}
        if dealing > 0:
            if not sum(remaining) and not table.end_on_empty_stack:  # fewer cards than the hand
                return int(any(final_score_without_end(table, p) >= table.target for p in drawn))
            return self._completions(remaining, frozenset(drawn), dealing - 1)
        left = sum(remaining)
        if not table.end_on_empty_stack and left == 0:
            return int(any(final_score_without_end(table, p) >= table.target for p in drawn))
        successors = {s for position in drawn for s in act(table, position)}
        if any(is_won(table, s) for s in successors):
            return multinomial(remaining)
        alive = {s for s in successors if is_alive(table, s, remaining, left)}
        if not alive:
            return 0
        return self._completions(remaining, frozenset(antichain(table, alive)), 0)


def count_playable(composition: Composition, hand_size: int, *, end_on_empty_stack: bool = True) -> int:
    """The number of distinct playable sequences of ``composition`` [PL-count, PL-playable]."""
    counter = PlayableCounter(composition.cards, hand_size, composition.target, end_on_empty_stack=end_on_empty_stack)
    return counter.count(composition.counts)

