"""A fake engine for verify's type checks: our engine with one state field of the wrong
JSON type [EP-types].

Usage: python wrong_types.py FIELD KIND.  It answers like ``hanabi-ref serve``, except
that in every state it reports, FIELD is written as KIND: ``int`` (a boolean as 0 or 1),
``float`` (an integer n as n.0) or ``bool`` (an integer as true or false).  Such a
state is outside the protocol's schema, so verify stops at the first state answer
(EP-schemas).
"""

import json
import sys

from hanabi_ref.tools.protocol.engine import ReferenceEngine
from hanabi_ref.tools.verify.serve import answer_request

FIELD, KIND = sys.argv[1], sys.argv[2]
CONVERT = {"int": int, "float": float, "bool": bool}[KIND]

engine = ReferenceEngine()
for line in sys.stdin:
    request = json.loads(line)
    answer = answer_request(engine, request)
    if "state" in answer:
        answer["state"][FIELD] = CONVERT(answer["state"][FIELD])
    sys.stdout.write(json.dumps(answer) + "\n")
    sys.stdout.flush()
    if request.get("op") == "quit":
        break
