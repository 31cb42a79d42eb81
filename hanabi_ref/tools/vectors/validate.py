"""Vector files checked against ``vectors.schema.json`` [VEC-schema].

The schema (shipped in ``hanabi_ref/formats/schemas/``, copied in ``spec/``) describes every
file of a vectors directory: a case file is a list of vectors, each with the members
of VEC-format and exactly those of its kind; ``index.json`` is the index of VEC-files.
:func:`generate` checks every vector against it before writing, and
:func:`read_vectors` every file it reads.

jsonschema takes milliseconds for one state object, and the vectors hold about two
thousand; so before the schema sees a vector, its lists of cards and actions are cut
to their first item that a direct check does not pass, and each state that plainly has
every member of T-state right is replaced by a small valid stand-in
(:func:`hanabi_ref.formats.schema.narrow`).  What remains is valid exactly when the vector is,
and a violation is reported at its place in the vector.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from hanabi_ref.formats.schema import Each, Items, Shape, Standin, Violation, is_plain_item, narrowed_violation, strict_validator

VECTORS_SCHEMA: Final = "vectors.schema.json"
STATE_MEMBERS: Final = frozenset({
    "current", "hands", "knowledge", "fireworks", "discard", "clue_tokens",
    "strikes", "deck_size", "turns", "remaining", "terminal", "score",
})
"""The members of a state object, all present in a vector's states [VEC-state]."""

SMALL_STATE: Final = {
    "current": 0, "hands": [], "knowledge": [], "fireworks": [], "discard": [], "clue_tokens": 0,
    "strikes": 0, "deck_size": 0, "turns": 0, "remaining": None, "terminal": False, "score": 0,
}
"""A valid state object with every member, standing in for a state checked directly."""


def _is_full_state(value: object) -> bool:
    return type(value) is dict and value.keys() == STATE_MEMBERS and is_plain_item("state", value)


def _is_count(value: object) -> bool:
    return type(value) is int and value >= 0


def _plain(definition: str) -> Callable[[object], bool]:
    return lambda item: is_plain_item(definition, item)


STATE: Final = Standin(_is_full_state, SMALL_STATE)
VECTOR_SHAPE: Final[dict[str, Shape]] = {
    "deck": Items(_plain("card")),
    "canonical": Items(_plain("card")),
    "prefix": Items(_plain("action")),
    "actions": Items(_plain("action")),
    "legal": Items(_plain("action")),
    "legal_counts": Items(_is_count),
    "states": Items(_is_full_state, STATE),
    "pre": STATE,
    "post": STATE,
    "state": STATE,
    "final": STATE,
}
"""Where a vector holds what is slow to validate (VEC-transition, VEC-game, ...)."""


def vector_violation(data: object) -> Violation | None:
    """[VEC-schema, VEC-format] None if ``data`` is a valid vector, else where and how it
    breaks ``vectors.schema.json#/$defs/vector``."""
    return narrowed_violation(strict_validator(VECTORS_SCHEMA, "vector"), data, VECTOR_SHAPE)


def file_violation(data: object) -> Violation | None:
    """[VEC-schema, VEC-files] None if ``data`` (a parsed file of a vectors directory: a
    case file or ``index.json``) is valid under ``vectors.schema.json``."""
    return narrowed_violation(strict_validator(VECTORS_SCHEMA), data, Each(VECTOR_SHAPE))
