"""Equality of JSON values as the engine protocol means it, JSON types included
[EP-types]: ``0`` is not ``false`` and ``1.0`` is not ``1``.  Both the comparison of
states (``compare``) and of views (``views``) use it.
"""

from __future__ import annotations

import marshal
import numbers
from typing import Any, cast


def json_type(value: object) -> str:
    """The JSON type of a parsed value [EP-types]: a boolean is not a number, and a number
    written with a fraction or an exponent (a float) is not an integer."""
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, numbers.Integral):
        return "integer"
    if isinstance(value, numbers.Real):
        return "number"
    if value is None:
        return "null"
    names = {str: "string", list: "array", tuple: "array", dict: "object"}
    return next((name for kind, name in names.items() if isinstance(value, kind)), type(value).__name__)


_SEQUENCES = (list, tuple)
_PLAIN = (int, str, bool, float, type(None))


def same_encoding(ours: object, theirs: object) -> bool:
    """A fast sufficient test of :func:`json_equal`: the same bytes in ``marshal``'s format 2,
    which encodes booleans, integers, floats, strings, None, lists, tuples and dicts (in
    their order) each with a type code of its own and no sharing of objects, so equal bytes
    mean equal values of the same JSON types [EP-types].  False says nothing: keys in
    another order, tuples for lists, or a value marshal cannot encode (an int subclass)
    are left to the comparison field by field."""
    try:
        return marshal.dumps(cast(Any, ours), 2) == marshal.dumps(cast(Any, theirs), 2)
    except ValueError:
        return False


def reports_the_same(ours: dict[str, Any], theirs: dict[str, Any]) -> bool:
    """Whether every member of ``theirs`` is a member of ``ours`` with the same value, by
    :func:`same_encoding` (the fields an engine reports, in its order): the common case,
    one step for a whole state or view [EP-types]."""
    return theirs.keys() <= ours.keys() and same_encoding({key: ours[key] for key in theirs}, theirs)


def same_json(ours: object, theirs: object) -> bool:
    """:func:`json_equal`, tried first as :func:`same_encoding` [EP-types]."""
    return same_encoding(ours, theirs) or json_equal(ours, theirs)


def json_equal(ours: object, theirs: object) -> bool:
    """Equal as JSON values of the same JSON types all the way down [EP-types]: unlike
    Python's ``==``, ``0`` is not ``false`` and ``1.0`` is not ``1``.

    Values of the same built-in type are compared directly (the common case: a state
    equal to ours); any other pair goes through :func:`json_type`."""
    kind = type(ours)
    if kind is type(theirs) or (kind in _SEQUENCES and type(theirs) in _SEQUENCES):
        if kind in _PLAIN:
            return ours == theirs
        if kind in _SEQUENCES:
            assert isinstance(ours, (list, tuple)) and isinstance(theirs, (list, tuple))
            return len(ours) == len(theirs) and all(map(json_equal, ours, theirs))
        if kind is dict:
            assert isinstance(ours, dict) and isinstance(theirs, dict)
            return ours.keys() == theirs.keys() and all(json_equal(ours[k], theirs[k]) for k in ours)
    return _json_equal_by_type(ours, theirs)


def _json_equal_by_type(ours: object, theirs: object) -> bool:
    """:func:`json_equal` for values that are not all JSON text."""
    if json_type(ours) != json_type(theirs):
        return False
    if isinstance(ours, (list, tuple)) and isinstance(theirs, (list, tuple)):
        return len(ours) == len(theirs) and all(_json_equal_by_type(a, b) for a, b in zip(ours, theirs))
    if isinstance(ours, dict) and isinstance(theirs, dict):
        return ours.keys() == theirs.keys() and all(_json_equal_by_type(ours[k], theirs[k]) for k in ours)
    return ours == theirs


def type_note(ours: object, theirs: object, where: str = "") -> str:
    """Where two values that Python finds equal differ in JSON type [EP-types] ("" when
    the values differ anyway, or nowhere)."""
    if ours != theirs:
        return ""
    if json_type(ours) != json_type(theirs):
        return f" ({where or 'value'}: JSON type {json_type(theirs)}, T-state requires {json_type(ours)})"
    if isinstance(ours, (list, tuple)) and isinstance(theirs, (list, tuple)):
        notes = (type_note(a, b, f"{where}[{i}]") for i, (a, b) in enumerate(zip(ours, theirs)))
        return next((note for note in notes if note), "")
    if isinstance(ours, dict) and isinstance(theirs, dict):
        return next((note for note in (type_note(ours[k], theirs[k], f"{where}.{k}") for k in ours) if note), "")
    return ""
