"""A test engine: our engine behind the protocol, except that a colour hint costs no hint
token (a bug of 2.16-2a-cost), for ``verify --perft``'s divide-down test (EP-perft-verify).

Usage: python free_colour_hints.py.  It answers like ``hanabi-ref serve``, perft included:
its counts walk its own moves (``ReferenceEngine.perft``), so they are the counts of its
own rules.  Under ``hle`` (no discard at t = t0) the bug shows at depth 2: after a colour
hint the next seat may not discard.
"""

import sys

import attrs

from hanabi_ref.engine.actions import Action, Hint
from hanabi_ref.tools.protocol.engine import ReferenceEngine
from hanabi_ref.tools.verify.serve import serve


class FreeColourHints(ReferenceEngine):
    """Our engine, but a colour hint gives its token back."""

    name = "free colour hints"

    def apply(self, action: Action) -> str | None:
        refusal = super().apply(action)
        if refusal is None and isinstance(action, Hint) and action.kind == "colour":
            self._state = attrs.evolve(self.current, clue_tokens=self.current.clue_tokens + 1)
        return refusal


if __name__ == "__main__":
    serve(FreeColourHints(), sys.stdin.buffer, sys.stdout)
