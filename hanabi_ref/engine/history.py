"""The public record of a game: its events and the histories that hold them
[2.17-history, ISO-views].

Kept apart from :mod:`hanabi_ref.engine.state` (which re-exports every name) because
:class:`SealedHistory` overrides ``__setattr__``, which mypyc cannot compile in a class
derived from ``collections.abc.Sequence``: this module always runs from its source,
while the state's module may be compiled [B-compiled].
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator, Sequence
from typing import Any, NamedTuple, overload

from hanabi_ref.engine.actions import Action
from hanabi_ref.engine.cards import CardId, Identity


class Event(NamedTuple):
    """The public record of one action and its outcome [2.17-view].

    ``card_id``/``card``: the card played or discarded and its identity (shown face up);
    ``success``: whether a play succeeded; ``touched``: card ids a hint touched;
    ``drawn``: the id of the card drawn afterwards (its identity is not public: the
    drawer cannot see it).
    """

    turn: int
    player: int
    action: Action
    card_id: CardId | None = None
    card: Identity | None = None
    success: bool | None = None
    touched: tuple[int, ...] = ()
    drawn: CardId | None = None


class History(Sequence[Event]):
    """The public record of a game up to a move: an immutable sequence of
    :class:`Event` [2.17-history].

    A move's history is the one before it with one event more.  Copied as a tuple, a
    game of m moves would copy m(m-1)/2 events; here the histories of one line of play
    share one list, each seeing its first ``len(self)`` entries, and :meth:`appended`
    adds an event in place when this history is the longest on its list (else it copies
    its own entries to a new list, as for a second successor of one state).  Entries a
    history sees never change, so it behaves as a tuple: indexing (slices are tuples),
    iteration, ``len``, ``+`` with tuples, equality and hash with any history or tuple
    of the same events."""

    __slots__ = ("_events", "_length")

    _events: list[Event]
    """the entries (a tuple in a :class:`SealedHistory`)"""
    _length: int

    def __init__(self, events: Iterable[Event] = ()) -> None:
        self._events = list(events)
        self._length = len(self._events)

    def appended(self, event: Event) -> History:
        """This history with ``event`` after its last entry, in O(1) time when it is the
        longest history on its list."""
        events, length = self._events, self._length
        if len(events) == length and type(events) is list:
            events.append(event)
            # list.append is atomic: if another thread appended first, copy instead.
            if events[length] is event:
                history: History = _new_history(History)
                history._events, history._length = events, length + 1
                return history
        return _history_of([*events[:length], event], length + 1)

    def starts_with(self, other: Sequence[Event]) -> bool:
        """Whether ``other`` is this history's first ``len(other)`` entries: O(1) for a
        history on the same list, else compared entry by entry."""
        length = len(other)
        if length > self._length:
            return False
        if isinstance(other, History) and other._events is self._events:
            return True
        return all(mine == theirs for mine, theirs in zip(self._events, other))

    def __len__(self) -> int:
        return self._length

    @overload
    def __getitem__(self, index: int) -> Event: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Event, ...]: ...

    def __getitem__(self, index: int | slice) -> Event | tuple[Event, ...]:
        if isinstance(index, slice):
            return tuple(self._events[: self._length][index])
        if index < 0:
            index += self._length
        if not 0 <= index < self._length:
            raise IndexError("history index out of range")
        return self._events[index]

    def __iter__(self) -> Iterator[Event]:
        return itertools.islice(self._events, self._length)

    def as_tuple(self) -> tuple[Event, ...]:
        """The entries as a tuple."""
        return tuple(self._events[: self._length])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, History):
            return self._length == other._length and (other._events is self._events or self.starts_with(other))
        if isinstance(other, tuple):
            return self._length == len(other) and self.starts_with(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.as_tuple())

    def __add__(self, other: tuple[Event, ...]) -> tuple[Event, ...]:
        return self.as_tuple() + tuple(other)

    def __radd__(self, other: tuple[Event, ...]) -> tuple[Event, ...]:
        return tuple(other) + self.as_tuple()

    def __bool__(self) -> bool:
        return self._length > 0

    def __repr__(self) -> str:
        return f"History({list(self)!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return (History, (self.as_tuple(),))


def _history_of(events: list[Event], length: int) -> History:
    """A history seeing the first ``length`` entries of ``events`` (shared, not copied)."""
    history: History = _new_history(History)
    history._events, history._length = events, length
    return history


_new_history = object.__new__


class SealedHistory(History):
    """A history that nobody can change through it [ISO-views]: its entries are a tuple
    and its attributes cannot be set or deleted.  The views of one state share one; what
    a seat does to it changes nothing another seat, or the game, sees."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"a sealed history is read-only ({name})")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"a sealed history is read-only ({name})")


def sealed_history(events: tuple[Event, ...]) -> SealedHistory:
    """A :class:`SealedHistory` of ``events`` [ISO-views]."""
    history: SealedHistory = _new_history(SealedHistory)
    _set_slot(history, "_events", events)
    _set_slot(history, "_length", len(events))
    return history


_set_slot = object.__setattr__


def sealed_successor(last: SealedHistory, history: History) -> SealedHistory:
    """``history`` sealed [ISO-views]: ``last`` itself, or ``last`` with one event more,
    when ``history`` is the same line of play (its entries so far the same objects), else
    made anew.  A game's runner seals each state's history this way once, in time linear
    in its length, for all its seats' views."""
    mine, known = last._events, last._length
    events, length = history._events, history._length
    if known and (known > length or mine[known - 1] is not events[known - 1]):
        return sealed_history(tuple(events[:length]))
    if length == known:
        return last
    if length == known + 1:
        return sealed_history((*mine, events[known]))
    return sealed_history(tuple(events[:length]))


def entry_after(history: Sequence[Event], before: Sequence[Event]) -> Event | None:
    """The one entry ``history`` holds after ``before``'s entries when it is ``before``
    with one entry more, else None [2.17-history].  For two histories of one line of play
    (one list) that is decided by identity, in O(1): the list's first ``len(before)``
    entries are ``before``'s, and ``history`` sees one more; otherwise the entries are
    compared one by one."""
    if isinstance(history, History) and isinstance(before, History) and history._events is before._events:
        length = before._length
        return history._events[length] if history._length == length + 1 else None
    if len(history) != len(before) + 1 or not starts_with(history, before):
        return None
    return history[-1]


def starts_with(history: Sequence[Event], prefix: Sequence[Event]) -> bool:
    """Whether ``prefix`` is the first ``len(prefix)`` entries of ``history`` (any
    sequences; O(1) for histories sharing their list)."""
    if isinstance(history, History):
        return history.starts_with(prefix)
    return len(prefix) <= len(history) and all(a == b for a, b in zip(history, prefix))

