"""Serving an engine over the JSON-lines protocol [EP-requests, EP-observe, EP-perft, EP-serve, EP-numbers].

``hanabi-ref serve`` puts our engine (or a built-in peer adapter) behind the protocol, so
that an engine author can read a working server, and so that ``verify --engine`` can be
checked end to end.  A malformed request (a line too long, a number too long for any
quantity of the protocol included) gets ``{"ok": false, "error": ...}`` and the loop goes
on; it ends at ``quit`` or at the end of input.
"""

from __future__ import annotations

import json
from typing import IO, Any

from hanabi_ref.base.errors import ConfigError, HanabiError, TraceError
from hanabi_ref.engine.cards import as_identities
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import config_from_json
from hanabi_ref.formats.serial import JsonRuleError, canonical_json, card_to_json
from hanabi_ref.engine.actions import action_to_json
from hanabi_ref.formats.trace import action_from_json, card_from_json
from hanabi_ref.tools.protocol.counting import counting_engine
from hanabi_ref.tools.protocol.engine import Engine, UnsupportedConfig
from hanabi_ref.tools.protocol.seeded import SeedDealingEngine, dealing_engine
from hanabi_ref.tools.verify.process import MAX_LINE, PROTOCOL, PROTOCOL_VERSION, parse_line
from hanabi_ref.engine.tables import tables_for


def serve(engine: Engine, requests: IO[bytes], answers: IO[str]) -> None:
    """Answer requests line by line until ``quit`` or end of input [EP-serve].  Requests
    are read as bytes, so that a line that is not UTF-8 gets an error answer like any
    other malformed request."""
    while True:
        line = requests.readline(MAX_LINE + 1)
        if not line:
            return
        request, problem = _parse_request(line, requests)
        answer = answer_request(engine, request) if problem is None else {"ok": False, "error": problem}
        answers.write(canonical_json(answer) + "\n")
        answers.flush()
        if isinstance(request, dict) and request.get("op") == "quit":
            return


def _parse_request(line: bytes, requests: IO[bytes]) -> tuple[object, str | None]:
    """The request on ``line``, or why it cannot be read [EP-serve, EP-numbers, T-json]:
    a line longer than :data:`MAX_LINE` bytes (skipped to its end), one that is not
    UTF-8 or not JSON, or JSON our rules refuse (an integer of more than
    :data:`MAX_DIGITS` digits, NaN, a key twice) gets an error answer."""
    if len(line) > MAX_LINE:
        while line and not line.endswith(b"\n"):
            line = requests.readline(MAX_LINE + 1)
        return None, f"request: a line may be at most {MAX_LINE} bytes"
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as error:
        return None, f"request: not UTF-8 (byte {error.start})"
    try:
        return parse_line(text), None
    except JsonRuleError as error:
        return None, f"request: {error}"
    except json.JSONDecodeError as error:
        return None, f"request: not JSON (column {error.colno}: {error.msg})"
    except (ValueError, RecursionError):
        return None, "request: not JSON (nested too deeply)"
def answer_request(engine: Engine, request: object) -> dict[str, Any]:
    """The answer to one request [EP-requests]."""
    if not isinstance(request, dict) or not isinstance(request.get("op"), str):
        return {"ok": False, "error": "a request is a JSON object with a string \"op\""}
    op = request["op"]
    try:
        if op == "hello":
            return _hello(engine, request)
        if op == "new_game":
            return _new_game(engine, request)
        if op == "apply":
            refusal = engine.apply(action_from_json(request.get("action"), "action"))
            if refusal is not None:
                return {"ok": False, "illegal": refusal}
            return _with_drawn(engine, {"ok": True})
        if op == "state":
            return {"ok": True, "state": engine.state()}
        if op == "legal_actions":
            return {"ok": True, "actions": [action_to_json(a) for a in engine.legal_actions()]}
        if op == "observe":
            return _observe(engine, request)
        if op == "perft":
            return _perft(engine, request)
        if op == "quit":
            return {"ok": True}
    except HanabiError as error:
        return {"ok": False, "error": str(error)}
    return {"ok": False, "error": f"op: unknown request {op!r}"}


def _hello(engine: Engine, request: dict[str, Any]) -> dict[str, Any]:
    if request.get("protocol") != PROTOCOL or request.get("version") != PROTOCOL_VERSION:
        return {"ok": False, "error": f"only protocol {PROTOCOL} version {PROTOCOL_VERSION} is spoken"}
    answer: dict[str, Any] = {"ok": True, "name": engine.name, "protocol": PROTOCOL, "version": PROTOCOL_VERSION}
    if engine.shows_views:
        answer["observe"] = True  # [EP-observe]
    if dealing_engine(engine):
        answer["deals"] = "seed"  # [EP-seed]
    elif counting_engine(engine):
        answer["perft"] = True  # [EP-perft] (an engine dealing from its own seed cannot be counted from a deck)
    return answer


def _with_drawn(engine: Engine, answer: dict[str, Any]) -> dict[str, Any]:
    """[EP-seed] ``answer`` with the cards the action dealt, from an engine that deals from
    its own seed and reveals each card as drawn."""
    if dealing_engine(engine):
        drawn = engine.drawn()
        if drawn:
            answer["dealt"] = [card_to_json(card, engine.game_config) for card in as_identities(drawn)]
    return answer


def _observe(engine: Engine, request: dict[str, Any]) -> dict[str, Any]:
    """[EP-observe] what ``engine`` shows the requested seat (T-view)."""
    seat = request.get("seat")
    if type(seat) is not int:
        raise TraceError("seat: must be an integer")
    view = engine.observe(seat)
    if view is None:
        return {"ok": False, "error": f"op: {engine.name} shows no views (observe)"}
    return {"ok": True, "view": view}


def _perft(engine: Engine, request: dict[str, Any]) -> dict[str, Any]:
    """[EP-perft] the count from the current position and, if asked for, the divide."""
    depth, divide = request.get("depth"), request.get("divide", False)
    if type(depth) is not int or depth < 0:
        raise TraceError("depth: must be an integer >= 0")
    if type(divide) is not bool:
        raise TraceError("divide: must be true or false")
    if not counting_engine(engine):
        return {"ok": False, "error": f"op: {engine.name} does not count perft (EP-perft)"}
    result = engine.perft(depth, divide)
    answer: dict[str, Any] = {"ok": True, "nodes": result.nodes}
    if result.divide is not None:
        answer["divide"] = [{"action": action_to_json(action), "nodes": nodes} for action, nodes in result.divide]
    return answer


def _new_game(engine: Engine, request: dict[str, Any]) -> dict[str, Any]:
    try:
        config = config_from_json(request.get("config"))
    except ConfigError as error:
        return {"ok": False, "error": str(error)}
    if dealing_engine(engine):
        return _new_seeded_game(engine, config, request)
    deck = request.get("deck")
    if not isinstance(deck, list):
        raise TraceError("deck: must be a list of cards")
    if len(deck) != tables_for(config).deck_size:  # [L-config] sizes compared before a card is read
        raise TraceError(f"deck: {len(deck)} cards, but the configuration's deck has {tables_for(config).deck_size}")
    try:
        engine.new_game(config, tuple(card_from_json(c, f"deck[{i}]", config) for i, c in enumerate(deck)))
    except UnsupportedConfig as error:
        return {"ok": False, "unsupported": str(error)}
    return {"ok": True}


def _new_seeded_game(engine: SeedDealingEngine, config: GameConfig, request: dict[str, Any]) -> dict[str, Any]:
    """[EP-seed] a game dealt from the request's seed; the answer reveals the deal."""
    seed = request.get("seed")
    if type(seed) is not int or seed < 0:
        raise TraceError("seed: this engine deals from its own seed: a new_game request gives a seed (an integer >= 0)")
    try:
        dealt = engine.new_seeded_game(config, seed)
    except UnsupportedConfig as error:
        return {"ok": False, "unsupported": str(error)}
    return {"ok": True, "deck" if dealt.complete else "dealt": [card_to_json(card, config) for card in as_identities(dealt.cards)]}

