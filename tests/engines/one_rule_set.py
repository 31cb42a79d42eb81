"""An engine with one rule set, for verify's --option tests [EP-options].

Usage: python one_rule_set.py LOG OPTIONS_JSON.  It answers like ``hanabi-ref serve``,
except that it plays only configurations whose ``options`` object equals OPTIONS_JSON
(every option of P-options, as EP-config sends them), whatever their preset is called, and answers ``unsupported`` to the
others, as an engine for rules that fit no preset would.  The ``config`` of every
``new_game`` request is appended to LOG, one JSON line each, with ``"played"`` telling
whether it was played.
"""

import json
import sys

from hanabi_ref.tools.protocol.engine import ReferenceEngine
from hanabi_ref.tools.verify.serve import answer_request

LOG, OPTIONS = sys.argv[1], json.loads(sys.argv[2])

engine = ReferenceEngine()
with open(LOG, "a", encoding="utf-8") as log:
    for line in sys.stdin:
        request = json.loads(line)
        if request.get("op") == "new_game":
            config = request["config"]
            played = config.get("options") == OPTIONS
            log.write(json.dumps({**config, "played": played}) + "\n")
            log.flush()
            if not played:
                sys.stdout.write(json.dumps({"ok": False, "unsupported": "one rule set only"}) + "\n")
                sys.stdout.flush()
                continue
        answer = answer_request(engine, request)
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
        if request.get("op") == "quit":
            break
