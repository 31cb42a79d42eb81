"""A test engine: our engine behind the protocol, with state answers tampered with.

Usage: python tampered.py TURN [FIELD=JSON ...] [swap-hand-slots] [no-deck-plays]. From
the state whose ``turns`` is TURN on, each ``state`` answer has the named fields replaced
by the given JSON values; ``swap-hand-slots`` also swaps the first two cards of seat 0's
hand, as an engine with a wrong draw order would show them; ``no-deck-plays`` refuses a
play of the slot past the hand (the stack's last card, R-deck-plays), as an engine that
does not know the option would. Every other answer is our engine's.
"""

import json
import sys

from hanabi_ref.tools.protocol.engine import ReferenceEngine
from hanabi_ref.tools.verify.serve import answer_request

turn = int(sys.argv[1])
changes = dict(item.split("=", 1) for item in sys.argv[2:] if "=" in item)
swap = "swap-hand-slots" in sys.argv[2:]
no_deck_plays = "no-deck-plays" in sys.argv[2:]
engine = ReferenceEngine()
for line in sys.stdin:
    request = json.loads(line)
    action = request.get("action") if isinstance(request, dict) and request.get("op") == "apply" else None
    if no_deck_plays and isinstance(action, dict) and action.get("type") == "play" \
            and action.get("slot") == len(engine.current.hands[engine.current.current_player]):
        answer = {"ok": False, "illegal": f"no slot {action['slot']} in this hand"}
    else:
        answer = answer_request(engine, request)
    state = answer.get("state") if isinstance(request, dict) and request.get("op") == "state" else None
    if isinstance(state, dict) and state.get("turns", 0) >= turn:
        for field, value in changes.items():
            state[field] = json.loads(value)
        if swap and len(state["hands"][0]) >= 2:
            hand = state["hands"][0]
            hand[0], hand[1] = hand[1], hand[0]
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
    if isinstance(request, dict) and request.get("op") == "quit":
        break
