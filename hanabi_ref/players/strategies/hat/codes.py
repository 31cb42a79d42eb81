"""Clue codes: numbers in range(m) to hints and back [H-code].

A hat clue is a number (:mod:`hanabi_ref.players.strategies.hat.core`); a clue code turns it
into a legal hint for the cluer to give, and turns the hint back into the number for
every player who sees it.  Decoding reads only what every player sees of a hint
[H-code]: who gave it, its target, its kind and value, and whether it touched the
target's *newest* card, the card with the highest card id [H-newest].

Codes here:

* :class:`NewestCardCode` with part sizes (3, 3, 3): the 4-player 9-code [H-code-9];
  with parts (2, 2, 2, 2) and a pooled number: the 5-player 9-code [H-code-5p]; with
  any sizes in {2, 3, 4}: the general per-player k-codes [H-code-k], whose sizes come
  from public information by :func:`public_part_size` [H-code-k-public].
* :class:`HintListCode`: m fixed hints in a fixed order, for rules with empty hints
  [H-code-empty].

:func:`hat_code` picks the 9-code a hat strategy uses [H-code-select].

Every part of a :class:`NewestCardCode` partitions the hints to one target by their
kind and whether they touch the newest card, so decoding is a function of the hint.
A number whose class holds no legal hint is *not sendable*: :meth:`sendable` lists the
sendable numbers and :meth:`encode` refuses the others with a :class:`CodeError`
[H-code-error, H-code-rainbow, H-code-end].  Encoding and decoding use tables made once
per configuration (:func:`hint_tables`) and bitmask operations only.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Sequence
from typing import Final, Protocol

import icontract

from hanabi_ref.engine.actions import Hint
from hanabi_ref.engine.cards import CardId, Identity, all_identities, members, suit_of, value_of
from hanabi_ref.base.contracts import ENABLED
from hanabi_ref.base.errors import ConfigError, HanabiError
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import Event
from hanabi_ref.players.strategies.adapt import ForeignMove
from hanabi_ref.players.strategies.knowledge import CardWeights, composition_counts
from hanabi_ref.engine.view import PlayerView
from hanabi_ref.engine.tables import tables_for


class CodeError(HanabiError):
    """[H-code-error] A number a code cannot send from these hands, or a hint no number
    of the code maps to; the message names the clause, the number or hint and why."""


class UndecodableHint(CodeError, ForeignMove):
    """[H-code-error, S-foreign-detect] a hint no number of the code maps to: no honest
    cluer gives it, so a seat that sees it leaves the code (the whole team sees it)."""

    def __init__(self, message: str) -> None:
        ForeignMove.__init__(self, "H-code-error", message)


# ------------------------------------------------------------------ classes of hints

COLOUR_NEWEST: Final = 0
"""A colour hint that touches the target's newest card [H-code-k]."""
VALUE_NEWEST: Final = 1
"""A value hint that touches the target's newest card [H-code-k]."""
AVOID: Final = 2
"""Any hint that does not touch the target's newest card [H-code-k]."""
COLOUR_AVOID: Final = 3
"""A colour hint that does not touch the target's newest card [H-code-k]."""
VALUE_AVOID: Final = 4
"""A value hint that does not touch the target's newest card [H-code-k]."""

PARTS: Final[dict[int, tuple[int, ...]]] = {
    2: (COLOUR_NEWEST, VALUE_NEWEST),
    3: (COLOUR_NEWEST, VALUE_NEWEST, AVOID),
    4: (COLOUR_NEWEST, VALUE_NEWEST, COLOUR_AVOID, VALUE_AVOID),
}
"""The classes of a part of each size, in the order of their numbers [H-code-k]."""

CLASS_NAMES: Final = (
    "a colour hint to seat {seat} touching its newest card",
    "a value hint to seat {seat} touching its newest card",
    "a hint to seat {seat} not touching its newest card",
    "a colour hint to seat {seat} not touching its newest card",
    "a value hint to seat {seat} not touching its newest card",
)
"""What each class means, for messages."""


def class_of(kind: str, touches_newest: bool, size: int) -> int | None:
    """The class of a hint in a part of ``size`` classes, or None if the part has no
    class for it (a hint avoiding the newest card in a part of size 2) [H-code-k]."""
    if touches_newest:
        return COLOUR_NEWEST if kind == "colour" else VALUE_NEWEST
    if size == 3:
        return AVOID
    if size == 4:
        return COLOUR_AVOID if kind == "colour" else VALUE_AVOID
    return None


# ------------------------------------------------------------------ what the cluer sees


class SeenHand:
    """A target's hand as the code needs it [H-code-local]: the identity of its newest
    card and the bitmask of the identities of its other cards.  A plain class, not a
    named tuple: the compiled build makes it a native class, cheap to make (a seat makes
    one for every hand that changed since it last looked).  Equal when both numbers are;
    nothing changes one once made."""

    __slots__ = ("newest", "others")

    def __init__(self, newest: int, others: int) -> None:
        self.newest = newest
        self.others = others

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SeenHand) and self.newest == other.newest and self.others == other.others

    def __hash__(self) -> int:
        return hash((self.newest, self.others))

    def __repr__(self) -> str:
        return f"SeenHand(newest={self.newest!r}, others={self.others!r})"


def newest_slot(hand: Sequence[int]) -> int:
    """The slot of the newest card: the highest card id, i.e. the card drawn last
    [H-newest].  This does not depend on the slot order option (R-2).  One pass over
    the ids (native when compiled); an empty hand has none (ValueError)."""
    if not hand:
        raise ValueError("newest_slot: an empty hand has no newest card")
    newest, top = 0, -1
    for slot, card_id in enumerate(hand):
        if card_id > top:
            newest, top = slot, card_id
    return newest


def seen_hand(hand: Sequence[int], identities: Sequence[int]) -> SeenHand:
    """The :class:`SeenHand` of a hand of card ids and their identities [H-newest]:
    the newest card is the one of the highest card id (:func:`newest_slot`)."""
    newest = newest_slot(hand)
    others = 0
    for slot, card in enumerate(identities):
        if slot != newest:
            others |= 1 << card
    return SeenHand(identities[newest], others)


def seen_hands(view: PlayerView) -> tuple[SeenHand | None, ...]:
    """What ``view``'s seat sees of every hand: None for its own and for empty hands."""
    result: list[SeenHand | None] = []
    for seat, (hand, cards) in enumerate(zip(view.hands, view.cards)):
        if seat == view.seat or not hand:
            result.append(None)
        else:
            result.append(seen_hand(hand, cards))  # type: ignore[arg-type]
    return tuple(result)


class SeenHandsMemo:
    """:func:`seen_hands` for one seat, kept from turn to turn [H-code-local]: a hand's
    :class:`SeenHand` is made again only when its card ids or identities differ from the
    ones it was made of (a hand changes only when its seat plays or discards), and the
    same tuple is returned while no hand changed.  Equal to ``seen_hands(view)`` for any
    view (tests/test_hat_codes.py compares them along whole games)."""

    __slots__ = ("seat", "hands", "cards", "seen")

    def __init__(self) -> None:
        self.seat = -1
        self.hands: tuple[tuple[CardId, ...], ...] = ()
        self.cards: tuple[tuple[Identity | None, ...], ...] = ()
        self.seen: tuple[SeenHand | None, ...] = ()

    def of(self, view: PlayerView) -> tuple[SeenHand | None, ...]:
        """What ``view``'s seat sees of every hand: None for its own and for empty hands."""
        hands, cards, seat = view.hands, view.cards, view.seat
        if seat == self.seat and hands == self.hands and cards == self.cards:
            return self.seen
        if seat != self.seat or len(hands) != len(self.hands):
            self.seen = seen_hands(view)
        else:
            result = list(self.seen)
            for other, hand in enumerate(hands):
                shown = cards[other]
                if other != seat and (hand != self.hands[other] or shown != self.cards[other]):
                    result[other] = seen_hand(hand, shown) if hand else None  # type: ignore[arg-type]
            self.seen = tuple(result)
        self.seat, self.hands, self.cards = seat, hands, cards
        return self.seen


def touches_newest(touched: Collection[int], hand: Sequence[int]) -> bool:
    """Whether a hint that touched the card ids ``touched`` touched the newest card of
    ``hand`` (the target's hand when the hint was given) [H-newest]; public."""
    return bool(hand) and max(hand) in touched


# ------------------------------------------------------------------ tables per configuration


class HintTables:
    """For each identity x: the hint that touches x for each kind, and the hints that do
    not touch x, in catalogue order (clue colours by index, then values 1..n)
    [H-code-choice].  The same for every target; made once per configuration.

    What a hint touches comes from the configuration's masks [H-touch]; every suit must
    be touched by some clue colour, or no colour hint could touch a newest card of it."""

    __slots__ = ("config", "masks", "colour_newest", "value_newest", "avoiding", "reach")

    def __init__(self, config: GameConfig) -> None:
        catalogue = tables_for(config).action_catalogue.hints[0]
        colours = len(config.colours)
        self.config = config
        self.masks: tuple[int, ...] = tuple(mask for _, mask in catalogue)
        identities = all_identities(config.values * config.suit_count)
        colour_newest: list[int] = []
        for x in identities:
            touching = [j for j in range(colours) if self.masks[j] >> x & 1]
            if not touching:
                suit = config.suits[suit_of(x, config.values)].name
                raise ConfigError(f"suits: no clue colour touches suit {suit!r}; the newest-card codes need one [H-touch]")
            colour_newest.append(touching[0])
        self.colour_newest: tuple[int, ...] = tuple(colour_newest)
        self.value_newest: tuple[int, ...] = tuple(colours + value_of(x, config.values) - 1 for x in identities)
        kinds = {AVOID: range(len(catalogue)), COLOUR_AVOID: range(colours), VALUE_AVOID: range(colours, len(catalogue))}
        self.avoiding: dict[int, tuple[tuple[tuple[int, int], ...], ...]] = {
            cls: tuple(tuple((j, self.masks[j]) for j in indices if not self.masks[j] >> x & 1) for x in identities)
            for cls, indices in kinds.items()
        }
        """``avoiding[cls][x]``: (catalogue index, mask) of the hints of class cls that do
        not touch identity x, in catalogue order."""
        self.reach: dict[int, tuple[int, ...]] = {
            cls: tuple(functools.reduce(int.__or__, (mask for _, mask in hints), 0) for hints in table)
            for cls, table in self.avoiding.items()
        }
        """``reach[cls][x]``: the identities some hint of class cls avoiding x touches."""

    def class_hint(self, newest: int, others: int, cls: int) -> int | None:
        """The catalogue index of the first hint of class ``cls`` to a hand with newest
        identity ``newest`` and other identities ``others`` that the rules allow, or
        None if the class holds no legal hint [H-code-choice, H-avoid]."""
        if cls == COLOUR_NEWEST:
            return self.colour_newest[newest]
        if cls == VALUE_NEWEST:
            return self.value_newest[newest]
        empty_allowed = self.config.options.empty_hints
        for index, mask in self.avoiding[cls][newest]:
            # [2.16-2a-empty] without empty hints the hint must touch another card.
            if empty_allowed or mask & others:
                return index
        return None


@functools.lru_cache(maxsize=64)
def hint_tables(config: GameConfig) -> HintTables:
    """The :class:`HintTables` of a configuration, made once."""
    return HintTables(config)


# ------------------------------------------------------------------ the protocol


class ClueCode(Protocol):
    """What a hat strategy asks of a clue code [H-code]."""

    @property
    def modulus(self) -> int:
        """m: the code's numbers are range(m)."""

    def encode(self, cluer: int, seen: Sequence[SeenHand | None], number: int) -> Hint:
        """The hint that sends ``number``; CodeError if it is not sendable."""

    def decode(self, cluer: int, hint: Hint, touches_newest: bool) -> int:
        """The number a hint sends; CodeError if no number maps to it."""

    def sendable(self, cluer: int, seen: Sequence[SeenHand | None]) -> int:
        """The sendable numbers as a bitmask (bit x for number x)."""


def _hint_problem(config: GameConfig, cluer: int, hint: Hint) -> str | None:
    """Why ``hint`` cannot be read by a code for ``cluer``'s clues, or None [H-code-error]."""
    p = config.players
    if not isinstance(hint, Hint):
        return f"{hint!r} is not a hint"
    if not (isinstance(hint.target, int) and 0 <= hint.target < p) or hint.target == cluer:
        return f"hint target {hint.target!r} is not a seat other than the cluer {cluer}"
    if hint.kind == "colour":
        valid = isinstance(hint.subject, int) and 0 <= hint.subject < len(config.colours)
    elif hint.kind == "value":
        valid = isinstance(hint.subject, int) and 1 <= hint.subject <= config.values
    else:
        return f"hint kind {hint.kind!r} is neither 'colour' nor 'value'"
    return None if valid else f"{hint.kind} {hint.subject!r} is not a {hint.kind} of this game"


def _mask(tables: HintTables, hint: Hint) -> int:
    """The identities ``hint`` touches [2.16-2a-value, 2.16-2a-suit]."""
    index = hint.subject if hint.kind == "colour" else len(tables.config.colours) + hint.subject - 1
    return tables.masks[index]


def _round_trips(code: NewestCardCode, cluer: int, seen: Sequence[SeenHand | None], number: int, hint: Hint) -> bool:
    """Postcondition of encode: the hint's target is another seat, and it decodes to the
    number, read as its receivers read it [H-code]."""
    target = seen[hint.target]
    touched = target is not None and bool(_mask(code._tables, hint) >> target.newest & 1)
    try:
        return hint.target != cluer and code.decode(cluer, hint, touched) == number
    except CodeError:
        return False


def _is_legal_for(tables: HintTables, seen: Sequence[SeenHand | None], hint: Hint) -> bool:
    """Postcondition of encode: without empty hints, the hint touches a card [2.16-2a-empty]."""
    if tables.config.options.empty_hints:
        return True
    target = seen[hint.target]
    mask = _mask(tables, hint)
    return target is not None and bool(mask >> target.newest & 1 or mask & target.others)


# ------------------------------------------------------------------ newest-card codes


class NewestCardCode:
    """A code whose numbers are blocks of classes, one block ("part") per other player
    in seat order after the cluer, plus optionally one pooled number [H-code-9,
    H-code-5p, H-code-k].

    Part i (the player i seats after the cluer) has ``sizes[i - 1]`` classes (PARTS) and
    the numbers base_i .. base_i + size - 1, base_i the sum of the earlier sizes.  With
    ``pooled``, every part has size 2 and the last number, m - 1, means "a hint to any
    other player not touching that player's newest card" [H-code-5p].
    """

    __slots__ = ("config", "sizes", "pooled", "modulus", "_tables", "_catalogue", "_slots", "_bases", "_positions")

    def __init__(self, config: GameConfig, sizes: Sequence[int], pooled: bool = False) -> None:
        p = config.players
        if p < 2:
            raise ConfigError(f"players: a clue code needs at least 2 players, got {p} [H-code]")
        if len(sizes) != p - 1 or any(size not in PARTS for size in sizes):
            raise ConfigError(f"sizes: need one part size in {{2, 3, 4}} per other player ({p - 1}), got {tuple(sizes)!r} [H-code-k]")
        if pooled and any(size != 2 for size in sizes):
            raise ConfigError("sizes: a pooled number needs parts of size 2, which leave every hint avoiding the newest card free [H-code-5p]")
        self.config = config
        self.sizes = tuple(sizes)
        self.pooled = pooled
        self.modulus = sum(self.sizes) + int(pooled)
        self._tables = hint_tables(config)
        self._catalogue = tables_for(config).action_catalogue.hints
        slots = [(offset, cls) for offset, size in enumerate(self.sizes, start=1) for cls in PARTS[size]]
        if pooled:
            slots.append((0, AVOID))
        self._slots: tuple[tuple[int, int], ...] = tuple(slots)
        self._bases = (0,) + tuple(sum(self.sizes[: i - 1]) for i in range(1, p))
        self._positions = {size: {cls: i for i, cls in enumerate(classes)} for size, classes in PARTS.items()}

    def describe(self, cluer: int, number: int) -> str:
        """What ``number`` means for clues of ``cluer``, in words."""
        offset, cls = self._slots[number]
        if offset == 0:
            return "a hint to any other player not touching that player's newest card"
        return CLASS_NAMES[cls].format(seat=(cluer + offset) % self.config.players)

    def _hint(self, cluer: int, seen: Sequence[SeenHand | None], number: int) -> Hint | None:
        """The hint that sends ``number`` [H-code-choice], or None if none is legal."""
        p = self.config.players
        offset, cls = self._slots[number]
        catalogue = self._catalogue
        targets = range(1, p) if offset == 0 else (offset,)
        for each in targets:
            target = (cluer + each) % p
            hand = seen[target]
            if hand is None:
                continue
            index = self._tables.class_hint(hand.newest, hand.others, cls)
            if index is not None:
                return catalogue[target][index][0]
        return None

    @icontract.require(lambda self, number: 0 <= number < self.modulus, "H-code: the number lies in range(m)", enabled=ENABLED)
    @icontract.require(lambda self, cluer, seen: len(seen) == self.config.players and seen[cluer] is None, "H-code: one entry per seat, none for the cluer's own hand", enabled=ENABLED)
    @icontract.ensure(lambda self, cluer, seen, number, result: _round_trips(self, cluer, seen, number, result), "H-code: the hint decodes to the number", enabled=ENABLED)
    @icontract.ensure(lambda self, seen, result: _is_legal_for(self._tables, seen, result), "H-code, 2.16-2a-empty: the hint is legal", enabled=ENABLED)
    def encode(self, cluer: int, seen: Sequence[SeenHand | None], number: int) -> Hint:
        """The hint ``cluer`` gives to send ``number``, seeing the hands ``seen``
        [H-code, H-code-choice]; CodeError if the number is not sendable [H-code-error]."""
        hint = self._hint(cluer, seen, number)
        if hint is None:
            raise CodeError(
                f"H-code-error: number {number} ({self.describe(cluer, number)}) cannot be sent: "
                "no legal hint of that class exists for these hands"
            )
        return hint

    @icontract.ensure(lambda self, result: 0 <= result < self.modulus, "H-code: the number lies in range(m)", enabled=ENABLED)
    def decode(self, cluer: int, hint: Hint, touches_newest: bool) -> int:
        """The number ``hint``, given by ``cluer``, sends; ``touches_newest`` says whether
        it touched its target's newest card [H-code, H-newest].  CodeError if no number
        maps to it [H-code-error]."""
        problem = _hint_problem(self.config, cluer, hint)
        if problem is not None:
            raise UndecodableHint(problem)
        offset = (hint.target - cluer) % self.config.players
        size = self.sizes[offset - 1]
        if self.pooled and not touches_newest:
            return self.modulus - 1
        cls = class_of(hint.kind, touches_newest, size)
        if cls is None:
            raise UndecodableHint(
                f"a {hint.kind} hint to seat {hint.target} not touching its newest card "
                f"is no number of this code (that player's part has size {size})"
            )
        return self._bases[offset] + self._positions[size][cls]

    def expected(self, cluer: int, seen: Sequence[SeenHand | None], number: int) -> Hint | None:
        """[H-code-choice, S-foreign-detect] the hint an honest cluer gives to send ``number``,
        as a seat that sees the target's hand finds it; None where the seat cannot tell
        (the pooled number, whose target is the first of several seats that may include
        its own, or a target it does not see)."""
        offset, _ = self._slots[number]
        if offset == 0 or seen[(cluer + offset) % self.config.players] is None:
            return None
        return self._hint(cluer, seen, number)

    def sendable(self, cluer: int, seen: Sequence[SeenHand | None]) -> int:
        """Bit x is set iff number x can be sent from these hands [H-code-rainbow, H-code-end]:
        the numbers of each part whose class holds a legal hint to that part's target
        (as :meth:`_hint` finds one), and the pooled number if some other seat can be
        given a hint avoiding its newest card; each target's hand is read once."""
        p = self.config.players
        tables = self._tables
        mask = 0
        pooled = False
        for offset, size in enumerate(self.sizes, start=1):
            hand = seen[(cluer + offset) % p]
            if hand is None:
                continue
            base = self._bases[offset]
            for position, cls in enumerate(PARTS[size]):
                if tables.class_hint(hand.newest, hand.others, cls) is not None:
                    mask |= 1 << (base + position)
            if self.pooled and not pooled:
                pooled = tables.class_hint(hand.newest, hand.others, AVOID) is not None
        if pooled:
            mask |= 1 << (self.modulus - 1)
        return mask


# ------------------------------------------------------------------ a list of hints


def _list_round_trips(code: HintListCode, cluer: int, number: int, hint: Hint) -> bool:
    """Postcondition of encode: the hint goes to another seat and decodes to the number."""
    try:
        return hint.target != cluer and code.decode(cluer, hint, False) == number
    except CodeError:
        return False


class HintListCode:
    """m hints in a fixed order, for rules that allow empty hints [H-code-empty]: the
    other players in seat order after the cluer, and for each of them its hints in
    catalogue order (clue colours by index, then values 1..n); number x is the x-th."""

    __slots__ = ("config", "modulus", "_per_target", "_catalogue")

    def __init__(self, config: GameConfig, modulus: int) -> None:
        p = config.players
        per_target = len(config.colours) + config.values
        if not config.options.empty_hints:
            raise ConfigError("options.empty_hints: a list of fixed hints needs empty hints allowed; use the newest-card codes [H-code-empty]")
        if p < 2 or not 1 <= modulus <= (p - 1) * per_target:
            raise ConfigError(f"modulus: must be in 1..{(p - 1) * per_target} (the hints to the other players), got {modulus} [H-code-empty]")
        self.config = config
        self.modulus = modulus
        self._per_target = per_target
        self._catalogue = tables_for(config).action_catalogue.hints

    @icontract.require(lambda self, number: 0 <= number < self.modulus, "H-code: the number lies in range(m)", enabled=ENABLED)
    @icontract.ensure(lambda self, cluer, number, result: _list_round_trips(self, cluer, number, result), "H-code: the hint decodes to the number", enabled=ENABLED)
    def encode(self, cluer: int, seen: Sequence[SeenHand | None], number: int) -> Hint:
        """The ``number``-th hint after ``cluer`` [H-code-empty]; every hint is legal
        when a token is left, so ``seen`` is not needed."""
        offset, index = divmod(number, self._per_target)
        target = (cluer + offset + 1) % self.config.players
        return self._catalogue[target][index][0]

    @icontract.ensure(lambda self, result: 0 <= result < self.modulus, "H-code: the number lies in range(m)", enabled=ENABLED)
    def decode(self, cluer: int, hint: Hint, touches_newest: bool) -> int:
        """The position of ``hint`` in the list [H-code-empty]; CodeError for a hint
        beyond the first m [H-code-error].  ``touches_newest`` is not needed."""
        problem = _hint_problem(self.config, cluer, hint)
        if problem is not None:
            raise UndecodableHint(problem)
        offset = (hint.target - cluer) % self.config.players
        index = hint.subject if hint.kind == "colour" else len(self.config.colours) + hint.subject - 1
        number = (offset - 1) * self._per_target + index
        if number >= self.modulus:
            raise UndecodableHint(f"{hint.kind} {hint.subject} to seat {hint.target} is hint {number} of the list, beyond the code's {self.modulus}")
        return number

    def sendable(self, cluer: int, seen: Sequence[SeenHand | None]) -> int:
        """Every number: with empty hints every listed hint is legal [H-code-empty]."""
        return (1 << self.modulus) - 1


# ------------------------------------------------------------------ choosing a code


def nine_code(config: GameConfig) -> NewestCardCode:
    """The 9-code without empty hints: parts (3, 3, 3) with 4 players [H-code-9], parts
    (2, 2, 2, 2) and the pooled number 8 with 5 players [H-code-5p]."""
    if config.players == 4:
        return NewestCardCode(config, (3, 3, 3))
    if config.players == 5:
        return NewestCardCode(config, (2, 2, 2, 2), pooled=True)
    raise ConfigError(f"players: the 9-code is defined for 4 and 5 players, got {config.players} [H-code-9, H-code-5p]")


@functools.lru_cache(maxsize=64)
def hat_code(config: GameConfig) -> ClueCode:
    """The code with m = 9 a hat strategy uses [H-code-select]: nine hints of a list
    when empty hints are allowed, else the 9-code of :func:`nine_code`.  Made once per
    configuration (a code holds nothing that changes)."""
    if config.options.empty_hints:
        return HintListCode(config, 9)
    return nine_code(config)


@icontract.require(lambda event, hand: set(event.touched) <= set(hand), "H-newest: the hand is the target's hand when the hint was given", enabled=ENABLED)
def decode_event(code: ClueCode, event: Event, hand: Sequence[int]) -> int:
    """The number a hint event sends; ``hand`` is the target's card ids when the hint
    was given (a hint moves no card, so also right after it) [H-code, H-newest].
    CodeError for an event that is not a hint [H-code-error]."""
    if not isinstance(event.action, Hint):
        raise CodeError(f"H-code-error: turn {event.turn}: seat {event.player} did not give a hint")
    return code.decode(event.player, event.action, touches_newest(event.touched, hand))


def check_choice(code: ClueCode, event: Event, number: int, seen: Sequence[SeenHand | None]) -> None:
    """[H-code-choice, S-foreign-detect] ForeignMove if the hint of ``event``, which sends
    ``number``, is not the one an honest cluer chooses for it: of a newest-card code, the
    first hint of its class in catalogue order that the rules allow.  ``seen`` is what the
    observing seat sees of every hand; the target cannot tell (its own cards decide which
    hints touch another card), so only the other seats check."""
    hint = event.action
    if not isinstance(code, NewestCardCode) or not isinstance(hint, Hint):
        return
    expected = code.expected(event.player, seen, number)
    if expected is not None and expected != hint:
        raise ForeignMove("H-code-choice", f"turn {event.turn}: seat {event.player}'s {hint.kind} hint {hint.subject} "
                          f"to seat {hint.target} sends number {number}, for which the code gives "
                          f"{expected.kind} {expected.subject}")


# ------------------------------------------------------------------ public part sizes


def public_capacities(view: PlayerView) -> tuple[int, ...]:
    """Copies of each identity that are not on the fields or in the discard pile: all a
    hand could hold, as every player knows it [H-code-k-public]."""
    counts = list(composition_counts(view.config))
    for _, card in view.discard:
        counts[card] -= 1
    for _, card in view.played:
        counts[card] -= 1
    return tuple(counts)


def _has_assignment(allowed: Sequence[int], weights: CardWeights, taken: int) -> bool:
    """Whether the cards with identity sets ``allowed`` can be given distinct copies
    (Hall's condition with capacities), one copy of identity ``taken`` being used."""
    size = len(allowed)
    for subset in range(1, 1 << size):
        union = 0
        for i in range(size):
            if subset >> i & 1:
                union |= allowed[i]
        if weights(union) - (union >> taken & 1) < subset.bit_count():
            return False
    return True


def _can_empty(tables: HintTables, cls: int, knowledge: Sequence[int], newest: int, capacities: Sequence[int]) -> bool:
    """Whether some hand consistent with the public information leaves class ``cls``
    without a legal hint [H-code-k-public]."""
    weights = CardWeights(capacities)
    present = sum(1 << x for x, count in enumerate(capacities) if count > 0)
    empty_allowed = tables.config.options.empty_hints
    others = [known & present for slot, known in enumerate(knowledge) if slot != newest]
    for n0 in members(knowledge[newest] & present):
        if empty_allowed:
            # [2.16-2a-empty] any class hint avoiding n0 is legal, touching a card or not.
            if not tables.avoiding[cls][n0] and _has_assignment(others, weights, n0):
                return True
            continue
        # Without empty hints the class is empty iff no other card has an identity that
        # a class hint avoiding n0 touches [H-avoid].
        reach = tables.reach[cls][n0]
        if _has_assignment([known & ~reach for known in others], weights, n0):
            return True
    return False


@icontract.require(lambda knowledge, hand: len(knowledge) == len(hand) >= 1, "H-code-k-public: one knowledge set per card of a non-empty hand", enabled=ENABLED)
@icontract.ensure(lambda result: result in PARTS, "H-code-k-public: a part size is 2, 3 or 4", enabled=ENABLED)
def public_part_size(config: GameConfig, knowledge: Sequence[int], hand: Sequence[int], capacities: Sequence[int]) -> int:
    """The largest part size whose every class holds a legal hint for every hand that
    public information allows [H-code-k-public]: each card's identity in its knowledge
    set K_c, and no identity more often than ``capacities`` (see
    :func:`public_capacities`).  Every player computes the same size."""
    tables = hint_tables(config)
    newest = newest_slot(hand)
    if _can_empty(tables, AVOID, knowledge, newest, capacities):
        return 2
    if _can_empty(tables, COLOUR_AVOID, knowledge, newest, capacities):
        return 3
    if _can_empty(tables, VALUE_AVOID, knowledge, newest, capacities):
        return 3
    return 4


def public_sizes(view: PlayerView, cluer: int) -> tuple[int, ...]:
    """The part sizes of the other players in seat order after ``cluer``, from public
    information only [H-code-k-public]."""
    p = view.config.players
    capacities = public_capacities(view)
    targets = [(cluer + offset) % p for offset in range(1, p)]
    # A player without cards (possible only with h = 1) has no newest card; its part
    # gets the smallest size, and none of its numbers is sendable.
    return tuple(
        public_part_size(view.config, view.knowledge[t], view.hands[t], capacities) if view.hands[t] else 2
        for t in targets
    )


def k_code(view: PlayerView, cluer: int) -> NewestCardCode:
    """The per-player k-code for clues of ``cluer`` in the position ``view`` shows
    [H-code-k, H-code-k-public]; every player builds the same code."""
    return NewestCardCode(view.config, public_sizes(view, cluer))


__all__ = [
    "AVOID",
    "COLOUR_AVOID",
    "COLOUR_NEWEST",
    "ClueCode",
    "CodeError",
    "UndecodableHint",
    "HintListCode",
    "HintTables",
    "NewestCardCode",
    "PARTS",
    "SeenHand",
    "SeenHandsMemo",
    "VALUE_AVOID",
    "VALUE_NEWEST",
    "class_of",
    "check_choice",
    "decode_event",
    "hat_code",
    "hint_tables",
    "k_code",
    "newest_slot",
    "nine_code",
    "public_capacities",
    "public_part_size",
    "public_sizes",
    "seen_hand",
    "seen_hands",
    "touches_newest",
]
