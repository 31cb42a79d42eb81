"""Validation of trace files against ``spec/trace.schema.json`` [T-schema].

The schema is the structural contract of a trace (which fields, which types); the
semantic checks (a suit exists in the variant, the deck is the composition, each
action is legal) follow in :mod:`hanabi_ref.trace`.  Every schema violation becomes one
line naming the JSON path, e.g. ``deck[3].value: must be >= 1, got 0``.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable, Iterable
from importlib import resources
from typing import Any

import jsonschema
from jsonschema.exceptions import ValidationError, relevance

from hanabi_ref.errors import TraceError
from hanabi_ref.serial import short_json


@functools.cache
def trace_schema() -> dict[str, Any]:
    """The JSON Schema of trace files (shipped inside the package)."""
    text = resources.files("hanabi_ref").joinpath("schemas/trace.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@functools.cache
def _validator() -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(trace_schema())


ITEM_LISTS = {"deck": "card", "actions": "action", "states": "state"}
"""The trace's lists of items, and the schema definition of their items."""

MAX_ITEMS = {"deck": 10_000, "actions": 100_000, "states": 100_001}
"""[T-limits] the most items a trace's lists may hold, checked before any item is read."""


def validate_trace_json(data: object) -> None:
    """Raise one TraceError line for the first schema violation [T-schema, T-limits].

    Cheap checks come first, so that a large file is refused at its first error in time
    proportional to that error's place: the lists' lengths (:data:`MAX_ITEMS`); then
    the object with each list cut to its first item, against the whole schema (its most
    relevant violation is reported); then every item of the lists in order, by a
    direct check of its fields (:func:`is_plain_item`), and only an item that fails it
    against its schema definition.  Integers are JSON integers: 1.0 is refused where
    an integer is required."""
    if isinstance(data, dict):
        for key, limit in MAX_ITEMS.items():
            items = data.get(key)
            if isinstance(items, list) and len(items) > limit:
                raise TraceError(f"{key}: {len(items)} items, more than the {limit} a trace may hold (T-limits)")
        skeleton: object = {key: value[:1] if key in ITEM_LISTS and isinstance(value, list) else value for key, value in data.items()}
    else:
        skeleton = data
    _raise_most_relevant(_first_errors(_validator().iter_errors(skeleton)))
    assert isinstance(data, dict)  # the schema requires an object
    for key, definition in ITEM_LISTS.items():
        items = data.get(key)
        if not isinstance(items, list):
            continue
        for index, item in enumerate(items):
            if not is_plain_item(definition, item):
                _check_item(key, index, definition, item)


MAX_ERRORS = 100
"""[T-limits] the violations of one object collected to choose the most relevant: a list
of 170,000 wrong items inside a state must not become 170,000 error objects."""


def _first_errors(errors: Iterable[ValidationError]) -> list[ValidationError]:
    return list(itertools.islice(errors, MAX_ERRORS))


def _raise_most_relevant(errors: list[ValidationError]) -> None:
    # A file of another kind is told so first: its format and version before anything else.
    identity = [e for e in errors if list(e.absolute_path)[:1] in (["format"], ["version"])]
    error = _most_relevant(identity or errors)
    if error is not None:
        raise TraceError(describe_violation(error))


def _check_item(key: str, index: int, definition: str, item: object) -> None:
    """An item the direct check did not pass: its most relevant violation of the
    schema, or, where the schema admits it, a number in it that is not an integer."""
    errors = _first_errors(_item_validator(definition).iter_errors(item))
    for error in errors:
        error.path.extendleft(reversed([key, index]))
    _raise_most_relevant(errors)
    problem = _not_integer([key, index], item)
    if problem is not None:
        raise TraceError(problem)


def _not_integer(where: list[str | int], item: object) -> str | None:
    """The first field of ``item`` (or its fields' lists), found at ``where``, holding a
    number that is not an integer."""
    def find(value: object, path: list[str | int]) -> list[str | int] | None:
        if isinstance(value, float):
            return path
        children = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
        for name, child in children:
            found = find(child, [*path, name])
            if found is not None:
                return found
        return None

    path = find(item, [])
    if path is None:
        return None
    value: Any = item
    for part in path:
        value = value[part]
    return f"{json_path([*where, *path])}: must be an integer, got {_short(value)}"


@functools.cache
def _item_validator(definition: str) -> jsonschema.Draft202012Validator:
    schema = trace_schema()
    return jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"})


def _is_count(value: object, low: int) -> bool:
    return type(value) is int and value >= low


def is_plain_item(definition: str, item: object) -> bool:
    """Whether ``item`` is plainly valid against the schema definition ``definition``
    (card, action, state) with JSON integers only; False sends it to the schema for
    the message (tests/test_limits.py compares this check with the schema's)."""
    if type(item) is not dict:
        return False
    if definition == "card":
        return item.keys() == {"suit", "value"} and _is_count(item["suit"], 0) and _is_count(item["value"], 1)
    if definition == "action":
        kind = item.get("type")
        if kind == "hint":
            return (item.keys() == {"type", "target", "kind", "value"} and _is_count(item["target"], 0)
                    and item["kind"] in ("value", "colour") and _is_count(item["value"], 0))
        return item.keys() == {"type", "slot"} and kind in ("play", "discard") and _is_count(item["slot"], 0)
    if definition == "state":
        return _is_plain_state(item)
    return False


STATE_COUNTS = {"clue_tokens": 0, "current": 0, "deck_size": 0, "score": 0, "strikes": 0, "turns": 0}
"""The integer fields of a state and their minimum; the state's other fields are lists,
``remaining`` (an integer >= -1 or null) and ``terminal`` (a boolean)."""


def _is_plain_state(item: dict[Any, Any]) -> bool:
    """The state definition of the schema, checked directly: a 100,000-card discard pile
    takes milliseconds here and seconds through jsonschema [T-limits]."""
    for key, value in item.items():
        if key in STATE_COUNTS:
            if not _is_count(value, 0):
                return False
        elif key == "remaining":
            if not (value is None or _is_count(value, -1)):
                return False
        elif key == "terminal":
            if type(value) is not bool:
                return False
        elif key == "fireworks":
            if type(value) is not list or not all(_is_count(height, 0) for height in value):
                return False
        elif key == "discard":
            if type(value) is not list or not all(is_plain_item("card", card) for card in value):
                return False
        elif key == "hands":
            if not _is_list_of_lists(value, _is_plain_card):
                return False
        elif key == "knowledge":
            if not _is_list_of_lists(value, _is_plain_knowledge):
                return False
        else:
            return False
    return True


def _is_plain_card(item: object) -> bool:
    return is_plain_item("card", item)


def _is_plain_knowledge(item: object) -> bool:
    return (type(item) is dict and item.keys() == {"suits", "values"}
            and type(item["suits"]) is list and all(_is_count(suit, 0) for suit in item["suits"])
            and type(item["values"]) is list and all(_is_count(value, 1) for value in item["values"]))


def _is_list_of_lists(value: object, is_plain: Callable[[object], bool]) -> bool:
    return type(value) is list and all(type(row) is list and all(is_plain(x) for x in row) for row in value)


def _most_relevant(errors: Iterable[ValidationError]) -> ValidationError | None:
    """The shallowest error (jsonschema's relevance order), without descending into the
    branches of ``oneOf``: an action is reported against the branch its type selects."""
    return max(errors, key=relevance, default=None)


def json_path(parts: Iterable[str | int]) -> str:
    """``deck[3].value`` from the path parts ("deck", 3, "value")."""
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif not part.isidentifier():
            text += f"[{json.dumps(part)}]"  # an odd key stays on one line, quoted
        else:
            text += f".{part}" if text else part
    return text


TYPE_WORDS = {
    "array": "a list", "object": "an object", "integer": "an integer", "string": "a string",
    "boolean": "a boolean", "null": "null", "number": "a number",
}


def _short(value: object) -> str:
    return short_json(value, 60)


def describe_violation(error: ValidationError) -> str:
    """One line: the JSON path and what is wrong there."""
    path = json_path(error.absolute_path)
    kind: Any = error.validator
    expected: Any = error.validator_value
    got: Any = error.instance
    schema: Any = error.schema
    if kind == "oneOf":
        return _describe_action(path, got) if isinstance(got, dict) else f"{path}: must be an object with a type, got {_short(got)}"
    if kind == "required":
        missing = next(key for key in expected if key not in got)
        return f"{json_path([*error.absolute_path, missing])}: missing"
    if kind == "additionalProperties":
        allowed = schema.get("properties", {})
        extra = sorted(key for key in got if key not in allowed)[0]
        return f"{json_path([*error.absolute_path, extra])}: unknown field"
    where = path or "trace"
    if kind == "type":
        wanted = " or ".join(TYPE_WORDS[t] for t in (expected if isinstance(expected, list) else [expected]))
        return f"{where}: must be {wanted}, got {_short(got)}" if path else "trace: must be a JSON object"
    if kind in ("const", "enum"):
        choices = [expected] if kind == "const" else expected
        return f"{where}: must be {' or '.join(_short(c) for c in choices)}, got {_short(got)}"
    if kind in ("minimum", "maximum"):
        return f"{where}: must be {'>=' if kind == 'minimum' else '<='} {expected}, got {_short(got)}"
    if kind == "minItems":
        return f"{where}: must hold at least {expected} item(s)"
    return f"{where}: {error.message}"


def _describe_action(path: str, action: dict[str, Any]) -> str:
    """An action matched no branch: report against the branch its ``type`` selects."""
    if "type" not in action:
        return f"{path}: must be an object with a type"
    kind = action.get("type")
    branches = trace_schema()["$defs"]["action"]["oneOf"]
    if kind == "hint":
        branch = branches[0]
    elif kind in ("play", "discard"):
        branch = branches[1]
    else:
        return f"{path}.type: must be \"hint\", \"play\" or \"discard\", got {_short(kind)}"
    inner = _most_relevant(jsonschema.Draft202012Validator(branch).iter_errors(action))
    # The action's fields are named relative to the action, so prefix its path.
    return f"{path}.{describe_violation(inner)}" if inner is not None else f"{path}: invalid action"
