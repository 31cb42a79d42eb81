"""Validation of trace files against ``spec/trace.schema.json`` [T-schema].

The schema is the structural contract of a trace (which fields, which types); the
semantic checks (a suit exists in the variant, the deck is the composition, each
action is legal) follow in :mod:`hanabi_ref.trace`.  Every schema violation becomes one
line naming the JSON path, e.g. ``deck[3].value: must be >= 1, got 0``.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable
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


def validate_trace_json(data: object) -> None:
    """Raise one TraceError line for the most relevant schema violation [T-schema]."""
    errors = list(_validator().iter_errors(data))
    # A file of another kind is told so first: its format and version before anything else.
    identity = [e for e in errors if list(e.absolute_path)[:1] in (["format"], ["version"])]
    error = _most_relevant(identity or errors)
    if error is not None:
        raise TraceError(describe_violation(error))


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
