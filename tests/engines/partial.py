"""A test engine: our engine behind the protocol, reporting only some state fields.

Usage: python partial.py [FIELD ...].  Each ``state`` answer keeps only the named T-state
fields (none: every answer is ``{}``), as an engine that reports little would; every
other answer is our engine's.
"""

import io
import json
import sys

from hanabi_ref.tools.protocol.engine import ReferenceEngine
from hanabi_ref.tools.verify.serve import answer_request

keep = set(sys.argv[1:])
engine = ReferenceEngine()
for line in sys.stdin:
    request = json.loads(line)
    answer = answer_request(engine, request)
    if isinstance(request, dict) and request.get("op") == "state" and "state" in answer:
        answer["state"] = {key: value for key, value in answer["state"].items() if key in keep}
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
    if isinstance(request, dict) and request.get("op") == "quit":
        break
