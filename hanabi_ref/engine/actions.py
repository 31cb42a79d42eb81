"""The three actions of step 2 of Algorithm 2.16 [2.16-2a, 2.16-2b, 2.16-2c].

Seats are numbered from 0 (the thesis counts players from 1).  A hint names its target
by absolute seat, its kind ("value" or "colour") and the value or clue-colour index
(colour indices count from 0; values from 1 as on the cards).  Play and discard name
a *slot*: the card's index in the acting player's hand, oldest card first under the
default draw position [R-2].
"""

from __future__ import annotations

from typing import Literal, Union

import attrs

HintKind = Literal["value", "colour"]


def hint_kind(kind: Literal["value", "colour", "color"]) -> HintKind:
    """[T-actions, API-names] a hint's kind as the engine keeps it: "color" is read as
    "colour"; any other word is kept (and refused as illegal by 2.16-actions)."""
    return "colour" if kind == "color" else kind


@attrs.frozen
class Hint:
    """2a: give a hint to ``target`` about a value or a clue colour [2.16-2a].

    ``subject`` is what the hint names: a value 1..n when ``kind`` is "value", a
    clue-colour index 0..c-1 when ``kind`` is "colour" [2.16-actions]; the kind "color"
    is read as "colour" [API-names]."""

    target: int
    kind: HintKind = attrs.field(converter=hint_kind)
    subject: int = attrs.field()


@attrs.frozen
class Discard:
    """2b: discard the card in ``slot`` [2.16-2b]."""

    slot: int


@attrs.frozen
class Play:
    """2c: play the card in ``slot`` [2.16-2c]."""

    slot: int


Action = Union[Hint, Discard, Play]


def describe(action: Action) -> str:
    """A short human-readable form, e.g. ``hint 2 value 3`` or ``play 0``."""
    if isinstance(action, Hint):
        return f"hint {action.target} {action.kind} {action.subject}"
    if isinstance(action, Discard):
        return f"discard {action.slot}"
    return f"play {action.slot}"


def action_to_json(action: Action) -> dict[str, object]:
    """The trace form of an action [T-actions]."""
    if isinstance(action, Hint):
        return {"type": "hint", "target": action.target, "kind": action.kind, "value": action.subject}
    if isinstance(action, Discard):
        return {"type": "discard", "slot": action.slot}
    return {"type": "play", "slot": action.slot}
