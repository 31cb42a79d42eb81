"""Canonical JSON, cards, states and views as JSON [T-canonical, T-state, T-view].

The JSON forms here are what trace files, conformance vectors and the engine protocol
share (``spec/trace.md``): cards as ``{"suit": i, "value": v}``, knowledge sets as the
suits and values still possible, a state object that any engine can report, and the
same object as one seat sees it.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Sequence
from typing import Any, Final, cast

from hanabi_ref.engine.cards import Identity, knowledge_suits_values, members, suit_of, value_of
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import GameState, public_score, score, deck_size
from hanabi_ref.engine.view import PlayerView


MAX_DIGITS = 4300
"""[T-json, EP-numbers] the most digits an integer we read may have (Python's default
limit for ``int``, fixed here so that it does not depend on the interpreter's settings)."""


class JsonRuleError(ValueError):
    """[T-json] text that Python's ``json`` would accept but our reading rules refuse."""


class NumberTooLong(JsonRuleError):
    """[EP-numbers] an integer literal with more than :data:`MAX_DIGITS` digits."""


def parse_json(text: str) -> object:
    """[T-json] ``text`` as JSON, read strictly: no NaN or infinities (``1e400`` included,
    which Python would read as infinity), no key twice in one object, no integer of more
    than :data:`MAX_DIGITS` digits.  Raises
    :class:`JsonRuleError` for these, ``json.JSONDecodeError`` (a ValueError) for text
    that is not JSON at all, and RecursionError for nesting beyond the interpreter's stack."""
    if _LONG_DIGITS.search(text) is None:  # no integer can be too long: Python reads them
        return json.loads(text, parse_float=_finite_float, parse_constant=_refuse_constant,
                          object_pairs_hook=_unique_keys)
    return json.loads(
        text, parse_int=_bounded_int, parse_float=_finite_float, parse_constant=_refuse_constant,
        object_pairs_hook=_unique_keys,
    )


_LONG_DIGITS = re.compile(r"[0-9]{%d}" % (MAX_DIGITS + 1))
"""A run of more digits than an integer may have; text without one holds no such integer."""


def count_values(data: bytes) -> int:
    """[L-files] an upper bound on the JSON values in ``data``, counted without parsing:
    its ``[``, ``{`` and ``,`` bytes, plus one.  A value is the document itself, the
    first item of a container (at most one per bracket) or an item after a comma, so
    there are at most this many values (and at most as many object keys again); brackets
    and commas inside strings only make the count larger."""
    return data.count(b"[") + data.count(b"{") + data.count(b",") + 1


def _bounded_int(text: str) -> int:
    digits = len(text) - text.startswith("-")
    if digits > MAX_DIGITS:
        raise NumberTooLong(f"a number has {digits} digits, more than {MAX_DIGITS}")
    return int(text)


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise JsonRuleError(f"{text[:40]}{'...' if len(text) > 40 else ''} is beyond the range of a number")
    return number


def _refuse_constant(name: str) -> object:
    raise JsonRuleError(f"{name} is not a JSON number")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    data = dict(pairs)
    if len(data) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise JsonRuleError(f"the key {json.dumps(key)[:80]} appears twice in one object")
            seen.add(key)
    return data


def canonical_json(data: object) -> str:
    """[T-canonical] sorted keys, no insignificant whitespace, no floats, UTF-8 text."""
    if not _plainly_without_floats(data):
        _reject_floats(data, "$")  # names the float, if that is what it is
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def short_json(value: object, limit: int) -> str:
    """``value`` as JSON for a one-line message, cut to ``limit`` characters."""
    text = json.dumps(value, sort_keys=True)
    return text if len(text) <= limit else text[: limit - 3] + "..."


_PLAIN_SCALARS: Final = frozenset((int, str, bool, type(None)))


def _plainly_without_floats(data: object) -> bool:
    """Whether ``data`` is made of dicts, lists, tuples, integers, strings, booleans and
    None only (so holds no float); False for anything else, which
    :func:`_reject_floats` then looks at."""
    stack = [data]
    while stack:
        item = stack.pop()
        kind = type(item)
        if kind in _PLAIN_SCALARS:
            continue
        if kind is dict:
            stack.extend(cast(dict[Any, Any], item).values())
        elif kind is list or kind is tuple:
            stack.extend(cast(list[Any], item))
        else:
            return False
    return True


def _reject_floats(data: object, where: str) -> None:
    if isinstance(data, float):
        raise ValueError(f"T-canonical: {where} is a float; canonical JSON holds integers only")
    if isinstance(data, dict):
        for key, value in data.items():
            _reject_floats(value, f"{where}.{key}")
    elif isinstance(data, (list, tuple)):
        for index, value in enumerate(data):
            _reject_floats(value, f"{where}[{index}]")


def card_to_json(card: Identity, config: GameConfig) -> dict[str, int]:
    """[T-state] a card identity as ``{"suit": suit index, "value": 1..n}``."""
    return {"suit": suit_of(card, config.values), "value": value_of(card, config.values)}


def knowledge_to_json(mask: int, config: GameConfig) -> dict[str, Any]:
    """[T-state, T-knowledge, 2.14] a knowledge set as the suits and values it still
    allows; a set that is not their product (a variant's hint, VAR-engine-masks) also
    lists its cards, so the object names the set exactly either way."""
    suits, values, product = knowledge_suits_values(mask, config.values, config.suit_count)
    data: dict[str, Any] = {"suits": list(suits), "values": list(values)}
    if not product:
        data["cards"] = [card_to_json(card, config) for card in members(mask)]
    return data


def state_to_json(state: GameState) -> dict[str, Any]:
    """[T-state] everything an engine can be compared on, as one JSON object."""
    config = state.config
    deck = state.deck
    return {
        "current": state.current_player,
        "hands": [[card_to_json(deck[c], config) for c in hand] for hand in state.hands],
        "knowledge": [[knowledge_to_json(m, config) for m in known] for known in state.knowledge],
        "fireworks": list(state.fireworks),
        "discard": [card_to_json(deck[c], config) for c in state.discard],
        "clue_tokens": state.clue_tokens,
        "strikes": state.strikes,
        "deck_size": deck_size(state),
        "turns": state.turns,
        "remaining": state.remaining,
        "terminal": state.terminal,
        "score": score(state),
    }


def views_to_json(views: Sequence[PlayerView]) -> list[dict[str, Any]]:
    """:func:`view_state_to_json` of each of ``views`` [T-view]; where a view holds the
    very same knowledge and discard pile as the one before it (as the views of one state
    that :func:`~hanabi_ref.engine.view.make_views` builds do), their JSON is converted once and
    shared."""
    result: list[dict[str, Any]] = []
    for view in views:
        data = view_state_to_json(view, result[-1] if result and _shares_parts(view, views[len(result) - 1]) else None)
        result.append(data)
    return result


def _shares_parts(view: PlayerView, other: PlayerView) -> bool:
    return view.knowledge is other.knowledge and view.discard is other.discard and view.config is other.config


def view_state_to_json(view: PlayerView, sharing: dict[str, Any] | None = None) -> dict[str, Any]:
    """[T-view, 2.17-view] the T-state object as seat ``view.seat`` sees it, built from the
    information-restricted view alone: the seat's own cards are ``None`` (their slots
    are there), every other field is public.  Nothing of the stack but its size, and no
    card ids, history or played pile: only what T-state has.  ``sharing``: the JSON of a
    view with the same knowledge and discard pile, whose JSON of those is reused."""
    config = view.config
    if sharing is not None:
        knowledge, discard = sharing["knowledge"], sharing["discard"]
    else:
        knowledge = [[knowledge_to_json(m, config) for m in known] for known in view.knowledge]
        discard = [card_to_json(card, config) for _, card in view.discard]
    return {
        "seat": view.seat,
        "current": view.current_player,
        "hands": [[None if card is None else card_to_json(card, config) for card in cards] for cards in view.cards],
        "knowledge": knowledge,
        "fireworks": list(view.fireworks),
        "discard": discard,
        "clue_tokens": view.clue_tokens,
        "strikes": view.strikes,
        "deck_size": view.deck_size,
        "turns": view.turns,
        "remaining": view.remaining,
        "terminal": view.terminal,
        "score": public_score(config, view.fireworks, view.remaining),
    }
