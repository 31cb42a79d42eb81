"""An engine's answers checked against the protocol's JSON Schema [EP-schemas, EP-types, EP-observe].

Every answer ``verify`` reads from an engine process is validated against
``engine-protocol.schema.json#/$defs/<op>_answer`` (shipped in ``hanabi_ref/formats/schemas/``)
before it is interpreted; integers are JSON integers (``1.0`` is not one).  An answer
outside the schema is described by :func:`answer_violation` as one line: where in the
answer, what is wrong there, and the location of the schema keyword that failed::

    at $.state.fireworks[2]: "3" is not of type "integer" (schema trace.schema.json#/$defs/state/properties/fireworks/items/type)

Two stages keep this cheap.  :func:`is_plain_answer` checks an answer directly, with
the same rules as the schema (tests/test_protocol_schema.py compares the two): a state
of a five-player game in about 40 microseconds where jsonschema takes milliseconds.
Only an answer that fails it goes to jsonschema, and first its long lists are cut to
the first item that fails the direct check (:func:`hanabi_ref.formats.schema.narrow`), so that
a wrong card at the end of a 40,000-card discard pile is found in the time of one card;
the indices in the reported path are the answer's own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from hanabi_ref.formats.schema import Items, Shape, Violation, is_plain_item, narrowed_violation, strict_validator

PROTOCOL_SCHEMA: Final = "engine-protocol.schema.json"
PROTOCOL: Final = "hanabi-ref/engine"
PROTOCOL_VERSION: Final = 1
OPS: Final = ("hello", "new_game", "apply", "state", "legal_actions", "observe", "perft", "quit")
REFUSALS: Final = {"new_game": "unsupported", "apply": "illegal"}
"""The requests that may be refused, and the member that gives the reason [EP-requests]."""

HELLO_MEMBERS: Final = frozenset({"ok", "name", "protocol", "version", "observe", "perft", "deals"})
DEALS: Final = ("deck", "seed")
"""How an engine deals (its hello answer's ``deals``): handed the deck, or from its own seed [EP-seed]."""
DEALT: Final = {"new_game": ("deck", "dealt"), "apply": ("dealt",)}
"""The members in which an accepted request's answer may reveal cards dealt [EP-seed]."""


def answer_violation(op: str, answer: object) -> Violation | None:
    """[EP-schemas] None if ``answer`` is a valid answer to a request ``op`` under
    ``engine-protocol.schema.json#/$defs/<op>_answer``; else its first violation."""
    if is_plain_answer(op, answer):
        return None
    return narrowed_violation(strict_validator(PROTOCOL_SCHEMA, f"{op}_answer"), answer, SHAPES.get(op, {}))


# ------------------------------------------------------------------ the direct check


def _is_count(value: object) -> bool:
    return type(value) is int and value >= 0


def is_plain_answer(op: str, answer: object) -> bool:
    """Whether ``answer`` is plainly a valid answer to ``op`` (JSON integers only);
    False sends it to the schema, which finds what is wrong or, rarely, accepts it."""
    if type(answer) is not dict:
        return False
    ok = answer.get("ok")
    if op == "state":
        return ok is True and len(answer) == 2 and is_plain_item("state", answer.get("state"))
    if op == "observe":  # [EP-observe]
        return ok is True and len(answer) == 2 and is_plain_item("view", answer.get("view"))
    if op == "legal_actions":
        actions = answer.get("actions")
        return (ok is True and len(answer) == 2 and type(actions) is list
                and all(is_plain_item("action", action) for action in actions))
    if op in REFUSALS:
        reason = REFUSALS[op]
        if ok is True and len(answer) == 2:  # [EP-seed] the cards dealt
            revealed = DEALT[op]
            return any(type(answer.get(key)) is list and all(is_plain_item("card", card) for card in answer[key])
                       and (key != "deck" or len(answer[key]) > 0) for key in revealed)
        return ((ok is True and len(answer) == 1)
                or (ok is False and len(answer) == 2 and type(answer.get(reason)) is str))
    if op == "hello":
        version = answer.get("version", PROTOCOL_VERSION)
        return (ok is True and answer.keys() <= HELLO_MEMBERS and type(answer.get("name", "")) is str
                and answer.get("protocol", PROTOCOL) == PROTOCOL and type(version) is int and version == PROTOCOL_VERSION
                and type(answer.get("observe", False)) is bool and answer.get("deals", "deck") in DEALS
                and type(answer.get("perft", False)) is bool)
    if op == "perft":  # [EP-perft]
        return (ok is True and answer.keys() <= {"ok", "nodes", "divide"} and _is_count(answer.get("nodes"))
                and _is_plain_divide(answer.get("divide", [])))
    if op == "quit":
        return ok is True and len(answer) == 1
    return False


def _is_plain_divide(divide: object) -> bool:
    """[EP-perft] a divide: a list of objects with exactly an action and a count."""
    return type(divide) is list and all(
        type(entry) is dict and entry.keys() == {"action", "nodes"} and _is_count(entry["nodes"])
        and is_plain_item("action", entry["action"]) for entry in divide)


# ------------------------------------------------------------------ long lists, cut short


def _plain(definition: str) -> Callable[[object], bool]:
    return lambda item: is_plain_item(definition, item)


def _plain_card_or_null(item: object) -> bool:
    return item is None or is_plain_item("card", item)


def _list_of(check: Callable[[object], bool]) -> Callable[[object], bool]:
    return lambda value: type(value) is list and all(check(item) for item in value)


def _at_least_one(value: object) -> bool:
    return type(value) is int and value >= 1


KNOWLEDGE: Final[dict[str, Shape]] = {"suits": Items(_is_count), "values": Items(_at_least_one)}
STATE_SHAPE: Final[dict[str, Shape]] = {
    "fireworks": Items(_is_count),
    "discard": Items(_plain("card")),
    "hands": Items(_list_of(_plain("card")), Items(_plain("card"))),
    "knowledge": Items(_list_of(_plain("knowledge")), Items(_plain("knowledge"), KNOWLEDGE)),
}
VIEW_SHAPE: Final[dict[str, Shape]] = {
    **STATE_SHAPE,
    "hands": Items(_list_of(_plain_card_or_null), Items(_plain_card_or_null)),
}
SHAPES: Final[dict[str, dict[str, Shape]]] = {
    "state": {"state": STATE_SHAPE},
    "observe": {"view": VIEW_SHAPE},
    "legal_actions": {"actions": Items(_plain("action"))},
    "new_game": {"deck": Items(_plain("card")), "dealt": Items(_plain("card"))},
    "apply": {"dealt": Items(_plain("card"))},
    "perft": {"divide": Items(lambda entry: _is_plain_divide([entry]))},
}
"""The lists of each answer whose items the schema checks one by one (the other
answers hold no list when they are valid, and the schema looks into none)."""
