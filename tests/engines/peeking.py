"""A test engine: our engine behind the protocol, with the views it shows altered.

Usage: python peeking.py TURN CHANGE [CHANGE ...].  It answers like ``hanabi-ref serve``
(``observe`` included, EP-observe), except that from the state whose move count is TURN
on, each ``observe`` answer for seat i is changed:

* ``own-slot=S``: seat i's own slot S shows the card's identity (a leak, 2.17-view);
* ``next-card``: a member ``next`` holds the top card of the stack (a leak);
* ``narrow-own=S``: the knowledge of seat i's own slot S is the card itself (a leak);
* ``widen-own=S``: the knowledge of seat i's own slot S allows every card (wrong);
* ``hide-seat=J``: seat J's cards are hidden from every other seat (wrong);
* ``FIELD=JSON``: the field FIELD is the given JSON value (wrong, for a public field).
"""

import json
import sys
from typing import Any

from hanabi_ref.formats.serial import card_to_json
from hanabi_ref.engine.state import deck_size
from hanabi_ref.tools.protocol.engine import ReferenceEngine
from hanabi_ref.tools.verify.serve import answer_request

turn = int(sys.argv[1])
changes = [item.split("=", 1) for item in sys.argv[2:]]
engine = ReferenceEngine()


def change(view: dict[str, Any]) -> None:
    """Apply every CHANGE to the view of seat ``view["seat"]``."""
    state, seat = engine.current, view["seat"]
    config = state.config
    for name, *value in changes:
        argument = value[0] if value else ""
        if name == "own-slot":
            view["hands"][seat][int(argument)] = card_to_json(state.deck[state.hands[seat][int(argument)]], config)
        elif name == "next-card":
            view["next"] = card_to_json(state.deck[state.next_card], config) if deck_size(state) else None
        elif name == "narrow-own":
            card = card_to_json(state.deck[state.hands[seat][int(argument)]], config)
            view["knowledge"][seat][int(argument)] = {"suits": [card["suit"]], "values": [card["value"]]}
        elif name == "widen-own":
            view["knowledge"][seat][int(argument)] = {"suits": list(range(config.suit_count)),
                                                      "values": list(range(1, config.values + 1))}
        elif name == "hide-seat":
            if seat != int(argument):
                view["hands"][int(argument)] = [None] * len(view["hands"][int(argument)])
        else:
            view[name] = json.loads(argument)


for line in sys.stdin:
    request = json.loads(line)
    answer = answer_request(engine, request)
    if isinstance(request, dict) and request.get("op") == "observe" and "view" in answer:
        if engine.current.turns >= turn:
            change(answer["view"])
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
    if isinstance(request, dict) and request.get("op") == "quit":
        break
