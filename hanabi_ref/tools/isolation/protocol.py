"""The bot protocol's names and its answers checked against its JSON Schema [ISO-protocol,
ISO-schema].

Every answer read from a bot is validated against
``bot-protocol.schema.json#/$defs/<op>_answer`` (shipped in ``hanabi_ref/formats/schemas/``,
copied in ``spec/``) before it is used.  As for the engine protocol
(:mod:`hanabi_ref.tools.verify.answers`), a direct check (:func:`is_plain_answer`) passes the
valid answers in microseconds, and only an answer that fails it goes to jsonschema,
which says where it breaks the schema.

A bot in another language needs nothing of Python: these names, the schema and
``spec/isolation.md``.  ``docs/bots/example.js`` is one, in Node.js, that speaks the
protocol as :data:`PROTOCOL` version :data:`VERSION` with whole views [ISO-example].
"""

from __future__ import annotations

from typing import Final

from hanabi_ref.formats.schema import Violation, first_violation, is_plain_item, strict_validator

SCHEMA: Final = "bot-protocol.schema.json"
PROTOCOL: Final = "hanabi-ref/bot"
VERSION: Final = 1
OPS: Final = ("hello", "new_game", "observe", "act", "quit")
UPDATES: Final = ("full", "changes")
"""[ISO-changes] how a bot wants its views: whole in every request (the default), or as
the fields that changed."""
GAMES: Final = ("one", "many")
"""[ISO-games] whether a bot plays one game at a time (the default) or many at once."""
HELLO_MEMBERS: Final = frozenset({"ok", "name", "protocol", "version", "updates", "games"})


def answer_violation(op: str, answer: object) -> Violation | None:
    """[ISO-schema] None if ``answer`` is a valid answer to a request ``op``; else where
    it breaks ``bot-protocol.schema.json#/$defs/<op>_answer``."""
    if is_plain_answer(op, answer):
        return None
    return first_violation(strict_validator(SCHEMA, f"{op}_answer"), answer)


def is_plain_answer(op: str, answer: object) -> bool:
    """Whether ``answer`` is plainly a valid answer to ``op`` with ``"ok": true``; False
    sends it to the schema (a refusal ``{"ok": false, "error": ...}`` included)."""
    if type(answer) is not dict or answer.get("ok") is not True:
        return False
    if op == "act":
        return len(answer) == 2 and is_plain_item("action", answer.get("action"))
    if op == "hello":
        return (answer.keys() <= HELLO_MEMBERS and type(answer.get("name", "")) is str
                and answer.get("protocol", PROTOCOL) == PROTOCOL
                and type(answer.get("version", VERSION)) is int and answer.get("version", VERSION) == VERSION
                and answer.get("updates", "full") in UPDATES and answer.get("games", "one") in GAMES)
    return len(answer) == 1
