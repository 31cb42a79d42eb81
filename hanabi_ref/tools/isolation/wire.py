"""Player views and events as JSON, and back [ISO-view, ISO-changes, 2.17-view].

The view a bot receives is :class:`~hanabi_ref.engine.view.PlayerView`, field for field, with
the same values, under the names of version 1 of the protocol (:data:`WIRE_FIELDS` pairs
each with the view's attribute: ``turn`` is ``turns``, ``stack_size`` ``deck_size``,
``fields`` ``fireworks``, ``hints`` ``clue_tokens``, ``errors`` ``strikes``): card ids and card identities as integers (identity
``suit * n + value - 1``), knowledge sets as bitmasks over the identities, ``played``
and ``discard`` as ``[card id, identity]`` pairs, the configuration as a trace's CONFIG
and the history as a list of events (:func:`event_to_json`).  Nothing else of the game
is sent.

A view can be sent whole (:func:`view_to_json`) or as the fields that differ from the
last view the same seat was sent in the same game (:func:`view_changes`): the
configuration and the seat never change within a game, and the history only grows by
the event an ``observe`` carries, so neither is sent again.  :func:`view_from_json` and
:func:`apply_changes` rebuild a real view on the other side; a round trip gives an
equal view (tests/test_isolation.py checks every view of whole games).
"""

from __future__ import annotations

from typing import Any, Final

from hanabi_ref.engine.actions import Action, Discard, Hint, Play, action_to_json
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import config_from_json, config_to_json
from hanabi_ref.engine.state import Event, History
from hanabi_ref.engine.view import PlayerView, view_from_parts

WIRE_FIELDS: Final = (
    ("turn", "turns"), ("current_player", "current_player"), ("hands", "hands"), ("cards", "cards"),
    ("knowledge", "knowledge"), ("stack_size", "deck_size"), ("fields", "fireworks"), ("played", "played"),
    ("discard", "discard"), ("hints", "clue_tokens"), ("errors", "strikes"), ("remaining", "remaining"),
    ("terminal", "terminal"),
)
"""[ISO-view, ISO-changes] the fields of a view that a move can change (all but config, seat
and history), each as its name on the wire and the :class:`~hanabi_ref.engine.view.PlayerView`
attribute it carries."""

CHANGING: Final = tuple(wire for wire, _ in WIRE_FIELDS)
"""[ISO-changes] the wire names of the fields of a view that a move can change."""

_ATTRIBUTE: Final = dict(WIRE_FIELDS)

_PAIRS: Final = frozenset({"played", "discard"})
_NESTED: Final = frozenset({"hands", "cards", "knowledge", "played", "discard"})


def action_from_wire(data: dict[str, Any]) -> Action:
    """An action of the trace form [T-actions] that was already found valid (schema or
    direct check) as an :class:`~hanabi_ref.engine.actions.Action`."""
    kind = data["type"]
    if kind == "hint":
        return Hint(data["target"], data["kind"], data["value"])
    return Play(data["slot"]) if kind == "play" else Discard(data["slot"])


def event_to_json(event: Event) -> dict[str, Any]:
    """[ISO-view] an :class:`~hanabi_ref.engine.state.Event` as an object with its field names."""
    return {
        "turn": event.turn, "player": event.player, "action": action_to_json(event.action),
        "card_id": event.card_id, "card": event.card, "success": event.success,
        "touched": list(event.touched), "drawn": event.drawn,
    }


def event_from_json(data: dict[str, Any]) -> Event:
    """The event :func:`event_to_json` wrote."""
    return Event(data["turn"], data["player"], action_from_wire(data["action"]), data["card_id"], data["card"],
                 data["success"], tuple(data["touched"]), data["drawn"])


def view_to_json(view: PlayerView) -> dict[str, Any]:
    """[ISO-view] every field of ``view`` as JSON (tuples are written as arrays), the
    configuration with every option (EP-config)."""
    fields = view.__dict__
    data: dict[str, Any] = {wire: fields[name] for wire, name in WIRE_FIELDS}
    data["config"] = config_to_json(view.config, in_full=True)
    data["seat"] = view.seat
    data["history"] = [event_to_json(event) for event in view.history]
    return data


def view_changes(view: PlayerView, last: PlayerView) -> dict[str, Any]:
    """[ISO-changes] the fields of ``view`` that differ from those of ``last``, the view
    the same seat was sent before in the same game."""
    now, before = view.__dict__, last.__dict__
    changes: dict[str, Any] = {}
    for wire, name in WIRE_FIELDS:
        value = now[name]
        if value is not before[name] and value != before[name]:
            changes[wire] = value
    return changes


def _field_from_json(name: str, value: Any) -> Any:
    """A field's JSON value (``name``: its wire name) as the field's type: arrays as tuples."""
    if name in _NESTED:
        return tuple(map(tuple, value))
    if name == "fields":
        return tuple(value)
    return value


def view_from_json(data: dict[str, Any], config: GameConfig | None = None) -> PlayerView:
    """[ISO-view] the view :func:`view_to_json` wrote (``config``: the game's, when the
    receiver has it already, instead of reading it again)."""
    parts: dict[str, object] = {name: _field_from_json(wire, data[wire]) for wire, name in WIRE_FIELDS}
    parts["config"] = config if config is not None else config_from_json(data["config"])
    parts["seat"] = data["seat"]
    parts["history"] = History(event_from_json(event) for event in data["history"])
    return view_from_parts(parts)


def apply_changes(last: PlayerView, changes: dict[str, Any], event: Event | None) -> PlayerView:
    """[ISO-changes] ``last`` with the fields of ``changes``, and ``event`` (the one an
    observe carries) after its history."""
    parts = dict(last.__dict__)
    del parts["key"]
    for wire, value in changes.items():
        parts[_ATTRIBUTE.get(wire, wire)] = _field_from_json(wire, value)
    if event is not None:
        parts["history"] = last.history.appended(event)
    return view_from_parts(parts)


__all__ = ["CHANGING", "WIRE_FIELDS", "action_from_wire", "apply_changes", "event_from_json", "event_to_json", "view_changes",
           "view_from_json", "view_to_json"]
