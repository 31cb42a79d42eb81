"""Validation of trace files against ``spec/trace.schema.json`` [T-schema], and the
JSON Schemas shipped with the package [EP-schemas, VEC-schema].

The schema is the structural contract of a trace (which fields, which types); the
semantic checks (a suit exists in the variant, the deck is the composition, each
action is legal) follow in :mod:`hanabi_ref.formats.trace`.  Every schema violation becomes one
line naming the JSON path, e.g. ``deck[3].value: must be >= 1, got 0``.

The package ships five schemas in ``hanabi_ref/formats/schemas/`` (copies in ``spec/``):
``trace.schema.json``, ``engine-protocol.schema.json`` (the requests and answers of
``spec/engine-protocol.md``), ``vectors.schema.json`` (the files of
``spec/vectors.md``), ``bot-protocol.schema.json`` (the bot protocol of
``spec/isolation.md``, ISO-schema) and ``perft.schema.json`` (the perft vectors of
``spec/perft.md``, PF-schema); the last four refer to the trace schema's definitions.
:func:`strict_validator` validates against any definition of them with JSON integers
only (``1.0`` is not an integer, EP-types) and :func:`first_violation` reports a failure
as a :class:`Violation`: where in the instance, what is wrong, and the location in the
schema of the keyword that failed.
"""

from __future__ import annotations

import functools
import itertools
import json
from collections.abc import Callable, Iterable
from importlib import resources
from typing import Any, Union
from urllib.parse import urljoin

import attrs
import jsonschema
from jsonschema.exceptions import ValidationError, relevance
from jsonschema.protocols import Validator
from referencing import Registry, Resource

from hanabi_ref.base.errors import TraceError
from hanabi_ref.formats.serial import short_json

SCHEMA_BASE = "https://hanabi-ref.invalid/spec/"
"""The base of the schemas' ``$id``: a schema refers to another by its file name."""

SCHEMA_FILES = ("trace.schema.json", "engine-protocol.schema.json", "vectors.schema.json", "bot-protocol.schema.json",
                "perft.schema.json")
"""The schemas shipped in ``hanabi_ref/formats/schemas/`` and copied in ``spec/``."""


@functools.lru_cache(maxsize=len(SCHEMA_FILES))
def load_schema(name: str) -> dict[str, Any]:
    """One of :data:`SCHEMA_FILES`, read from the package (once: one entry per shipped file)."""
    if name not in SCHEMA_FILES:
        raise ValueError(f"no shipped schema named {name!r}")
    text = resources.files("hanabi_ref.formats").joinpath(f"schemas/{name}").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def trace_schema() -> dict[str, Any]:
    """The JSON Schema of trace files (shipped inside the package)."""
    return load_schema("trace.schema.json")


@functools.cache
def schema_registry() -> Registry[Any]:
    """The shipped schemas under their ``$id``, so that they can refer to each other
    (cached at module level: one immutable registry of the files shipped in the package)."""
    return Registry().with_resources(
        (SCHEMA_BASE + name, Resource.from_contents(load_schema(name))) for name in SCHEMA_FILES
    )


def _is_json_integer(checker: object, instance: object) -> bool:
    """[EP-types] an integer is a JSON number written without a fraction or exponent
    (parsed as a Python int), never a boolean: ``1.0`` and ``true`` are not integers,
    although draft 2020-12 counts ``1.0`` as one."""
    return isinstance(instance, int) and not isinstance(instance, bool)


StrictValidator: type[Validator] = jsonschema.validators.extend(  # type: ignore[no-untyped-call]
    jsonschema.Draft202012Validator,
    type_checker=jsonschema.Draft202012Validator.TYPE_CHECKER.redefine("integer", _is_json_integer),
)
"""Draft 2020-12 with JSON integers only [EP-types]."""


@functools.lru_cache(maxsize=64)
def strict_validator(name: str, definition: str | None = None) -> Validator:
    """A validator, built once, for the schema ``name`` or its ``$defs`` entry
    ``definition``, with JSON integers only (a bounded cache: the shipped schemas name a
    few dozen definitions)."""
    load_schema(name)
    target = SCHEMA_BASE + name + (f"#/$defs/{definition}" if definition is not None else "")
    validator: Validator = StrictValidator({"$ref": target}, registry=schema_registry())
    return validator


@attrs.frozen
class Violation:
    """The first place where an instance breaks a schema [EP-schemas]: ``parts``, the
    path in the instance (written ``$.state.fireworks[2]``), what is wrong there, and
    ``schema``, the location of the keyword that failed
    (``trace.schema.json#/$defs/state/...``)."""

    parts: tuple[str | int, ...]
    problem: str
    schema: str

    @property
    def path(self) -> str:
        return dollar_path(self.parts)

    def __str__(self) -> str:
        return f"at {self.path}: {self.problem} (schema {self.schema})"


def first_violation(validator: Validator, instance: Any) -> Violation | None:
    """The first violation of ``validator``'s schema by ``instance`` (None if valid).

    Validation stops at the first error, in the order the schema lists its keywords, so
    the cost is that of reaching it.  Within ``oneOf`` (an action: a hint, or a play or
    discard) the branch the instance's discriminating member selects is reported."""
    error = next(iter(validator.iter_errors(instance)), None)
    if error is None:
        return None
    return _violation(validator.schema, error)


def _violation(root: object, error: ValidationError) -> Violation:
    if error.validator == "oneOf" and error.context:
        branch = _chosen_branch(error)
        if isinstance(branch, ValidationError):
            return _violation(root, branch)
        if branch is not None:
            return Violation((*error.absolute_path, *branch[0]), branch[1], schema_location(root, error))
    return Violation(tuple(error.absolute_path), describe_error(error), schema_location(root, error))


def _chosen_branch(error: ValidationError) -> ValidationError | tuple[list[str], str] | None:
    """For a ``oneOf`` of object schemas told apart by one member (``type``): the first
    error of the branch that the instance's value of that member selects; or, if the
    member is missing or selects no branch, where (relative to the instance) and what is
    wrong; None if the branches are not told apart that way."""
    instance = error.instance
    branches: list[Any] = list(error.validator_value) if isinstance(error.validator_value, list) else []
    if not branches or not all(isinstance(b, dict) and b.get("type") == "object" for b in branches):
        return None
    if not isinstance(instance, dict):
        return [], f'{_short(instance)} is not of type "object"'
    shared = [key for key in branches[0].get("required", []) if all(key in b.get("required", []) for b in branches)]
    missing = [key for key in shared if key not in instance]
    if missing:
        return [], f"{json.dumps(missing[0])} is missing"
    choices: dict[str, list[object]] = {}
    for branch in branches:
        for key, rule in branch.get("properties", {}).items():
            if isinstance(rule, dict) and ("const" in rule or "enum" in rule):
                choices.setdefault(key, []).extend([rule["const"]] if "const" in rule else rule["enum"])
    for key in shared:
        if key not in choices:
            continue
        depth = len(error.absolute_path)
        selected = {index for index, branch in enumerate(branches)
                    if not any(list(e.absolute_path)[depth:] == [key] and e.relative_schema_path[0] == index
                               for e in error.context)}
        if len(selected) == 1:
            index = selected.pop()
            return next(e for e in error.context if e.relative_schema_path[0] == index)
        if not selected:
            allowed = ", ".join(_short(choice) for choice in choices[key])
            return [key], f"{_short(instance[key])} is not one of {allowed}"
    return None


# ------------------------------------------------------------------ large instances, cut short


@attrs.frozen
class Items:
    """A list whose items a schema checks one by one, with no bound on the list's length
    but ``minItems: 1`` at most: ``plain`` is a direct check of an item that implies
    the item is valid, ``inner`` the shape inside the item kept."""

    plain: Callable[[object], bool]
    inner: Shape | None = None


@attrs.frozen
class Each:
    """A list of which every item has the shape ``inner`` (nothing is cut)."""

    inner: Shape


@attrs.frozen
class Standin:
    """A value that, when ``plain`` holds for it, may be replaced by the small valid
    ``value`` (a full state by a state of empty lists and zeros)."""

    plain: Callable[[object], bool]
    value: object


Shape = Union[Items, Each, Standin, dict[str, "Shape"]]
"""Where an instance holds what is slow to validate: an object's members by name, a
list's items, or a value with a small stand-in."""

Moves = dict[tuple[str | int, ...], int]


def narrow(value: object, shape: Shape, where: tuple[str | int, ...] = (), moved: Moves | None = None) -> object:
    """``value`` cut short where ``shape`` says, valid exactly when ``value`` is: each
    :class:`Items` list cut to its first item that fails the direct check (or to its
    first item), that item narrowed by the inner shape; each plainly valid
    :class:`Standin` value replaced.  ``moved``
    records, for the path of each list cut (in the cut value), the index its item had."""
    moved = {} if moved is None else moved
    if isinstance(shape, dict):
        if type(value) is not dict:
            return value
        return {key: narrow(item, shape[key], (*where, key), moved) if key in shape else item for key, item in value.items()}
    if isinstance(shape, Standin):
        return shape.value if shape.plain(value) else value
    if type(value) is not list:
        return value
    if isinstance(shape, Each):
        return [narrow(item, shape.inner, (*where, index), moved) for index, item in enumerate(value)]
    for index, item in enumerate(value):
        if not shape.plain(item):
            moved[where] = index
            break
    else:
        index = 0
        if not value:
            return []
    return [value[index] if shape.inner is None else narrow(value[index], shape.inner, (*where, 0), moved)]


def narrowed_violation(validator: Validator, instance: object, shape: Shape) -> Violation | None:
    """:func:`first_violation` of ``instance``, found in the instance cut short by
    ``shape`` (:func:`narrow`), in the time of validating what is left; the path is
    given in the instance's own indices."""
    moved: Moves = {}
    violation = first_violation(validator, narrow(instance, shape, (), moved))
    if violation is None or not moved:
        return violation
    parts = violation.parts
    restored = tuple(moved.get(parts[:depth], part) if part == 0 else part for depth, part in enumerate(parts))
    return attrs.evolve(violation, parts=restored)


def dollar_path(parts: Iterable[str | int]) -> str:
    """A JSON path rooted at ``$`` (as the vectors name fields): ``$.state.hands[1][0]``."""
    text = "$"
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif part.isidentifier():
            text += f".{part}"
        else:
            text += f"[{json.dumps(part)}]"
    return text


def _quoted_types(types: object) -> str:
    return " or ".join(json.dumps(t) for t in (types if isinstance(types, list) else [types]))


def describe_error(error: ValidationError) -> str:
    """What is wrong at the error's place, on one line, with the offending value
    shortened: ``"3" is not of type "integer"``."""
    kind: Any = error.validator
    expected: Any = error.validator_value
    got: Any = error.instance
    if kind == "type":
        return f"{_short(got)} is not of type {_quoted_types(expected)}"
    if kind == "const":
        return f"{_short(got)} is not {_short(expected)}"
    if kind == "enum":
        return f"{_short(got)} is not one of {', '.join(_short(e) for e in expected)}"
    if kind == "required":
        missing = next((key for key in expected if isinstance(got, dict) and key not in got), expected[0])
        return f"{json.dumps(missing)} is missing"
    if kind in ("additionalProperties", "unevaluatedProperties"):
        known = error.schema.get("properties", {}) if isinstance(error.schema, dict) else {}
        extra = [key for key in got if key not in known] if isinstance(got, dict) else []
        return f"{_short(extra[0])} is not allowed here" if extra and kind == "additionalProperties" else _one_line(error.message)
    if kind == "not" and expected == {}:  # a member that may not be present here
        return "not allowed here"
    if kind in ("minimum", "maximum"):
        return f"{_short(got)} is {'less' if kind == 'minimum' else 'more'} than the {kind} {expected}"
    if kind in ("minItems", "maxItems"):
        count = len(got) if isinstance(got, list) else 0
        return f"{count} items, {'fewer' if kind == 'minItems' else 'more'} than the {kind} {expected}"
    if kind == "pattern":
        return f"{_short(got)} does not match {json.dumps(expected)}"
    return _one_line(error.message)


def _one_line(text: str, limit: int = 160) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


def schema_location(root: object, error: ValidationError) -> str:
    """The location of the keyword that failed, as ``<schema file>#<JSON pointer>``,
    following each ``$ref`` on the way (jsonschema's own schema path leaves them out)."""
    registry = schema_registry()
    uri, pointer, node = "", [], root
    try:
        for part in error.absolute_schema_path:
            while isinstance(node, dict) and "$ref" in node and part not in node:
                target = urljoin(uri, node["$ref"])
                uri, _, fragment = target.partition("#")
                node = registry.contents(uri)
                pointer = [_unescape(step) for step in fragment.split("/")[1:]] if fragment else []
                for step in pointer:
                    node = node[int(step)] if isinstance(node, list) else node[step]
            node = node[part] if isinstance(node, (dict, list)) else None  # type: ignore[index]
            pointer.append(str(part))
    except (KeyError, IndexError, TypeError, ValueError, LookupError):
        pass
    name = uri.rsplit("/", 1)[-1] or "schema"
    return f"{name}#" + "".join("/" + _escape(step) for step in pointer)


def _escape(step: str) -> str:
    return step.replace("~", "~0").replace("/", "~1")


def _unescape(step: str) -> str:
    return step.replace("~1", "/").replace("~0", "~")


@functools.cache
def _validator() -> jsonschema.Draft202012Validator:
    """The trace schema's validator (cached at module level: one, for the shipped schema)."""
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


@functools.lru_cache(maxsize=len(ITEM_LISTS))
def _item_validator(definition: str) -> jsonschema.Draft202012Validator:
    """The validator of one item definition of :data:`ITEM_LISTS` (one entry each)."""
    schema = trace_schema()
    return jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": f"#/$defs/{definition}"})


def _is_count(value: object, low: int) -> bool:
    return type(value) is int and value >= low


def is_plain_item(definition: str, item: object) -> bool:
    """Whether ``item`` is plainly valid against the schema definition ``definition``
    (card, action, state, view, knowledge) with JSON integers only; False sends it to the schema for
    the message (tests/test_limits.py compares this check with the schema's)."""
    if type(item) is not dict:
        return False
    if definition == "card":
        return item.keys() == {"suit", "value"} and _is_count(item["suit"], 0) and _is_count(item["value"], 1)
    if definition == "action":
        kind = item.get("type")
        if kind == "hint":
            return (item.keys() == {"type", "target", "kind", "value"} and _is_count(item["target"], 0)
                    and item["kind"] in ("value", "colour", "color") and _is_count(item["value"], 0))
        return item.keys() == {"type", "slot"} and kind in ("play", "discard") and _is_count(item["slot"], 0)
    if definition == "state":
        return _is_plain_state(item)
    if definition == "view":
        return _is_plain_view(item)
    if definition == "knowledge":
        return _is_plain_knowledge(item)
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


STATE_MEMBERS = frozenset({*STATE_COUNTS, "remaining", "terminal", "fireworks", "discard", "hands", "knowledge"})
"""The members of the state definition."""


def _is_plain_view(item: dict[Any, Any]) -> bool:
    """The view definition of the schema, checked directly [T-view]: ``seat`` required,
    hands whose cards may be null, the other members of a state as in a state; any
    other member passes (EP-views reports it as a leak)."""
    if not _is_count(item.get("seat"), 0) or not _is_list_of_lists(item.get("hands", []), _is_plain_card_or_null):
        return False
    return _is_plain_state({key: value for key, value in item.items() if key in STATE_MEMBERS and key != "hands"})


def _is_plain_card_or_null(item: object) -> bool:
    return item is None or is_plain_item("card", item)


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
