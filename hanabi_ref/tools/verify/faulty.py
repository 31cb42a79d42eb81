"""An engine with one known fault, for measuring how ``verify`` finds and shrinks a
divergence that shows only at the end of a long game [B-verify].

:class:`LastRoundShort` is our engine but for one classic bug: the player who draws the
last card is the last to move, so the last round has one move too few (2.16-3-last-round).
A game shows it only once the stack is empty, so the first diverging game is a whole
game, some 50 to 80 moves, and shrinking has a long way to go.  ``python -m
hanabi_ref.tools.verify.faulty`` serves it over the engine protocol (spec/engine-protocol.md),
an engine in a process of its own, as ``verify --engine`` meets real engines.
"""

from __future__ import annotations

import sys
from typing import Any

from hanabi_ref.engine.actions import Action
from hanabi_ref.tools.protocol.engine import ReferenceEngine


class LastRoundShort(ReferenceEngine):
    """Our engine, except that a game ends one move early once its last round has begun
    (when one move of the last round is left, the engine reports the game over)."""

    name = "hanabi-ref (faulty: last round one move short)"

    def _ends_early(self) -> bool:
        state = self.current
        return not state.terminal and state.remaining == 1

    def apply(self, action: Action) -> str | None:
        if self._ends_early():
            return "the game is over"
        return super().apply(action)

    def state(self) -> dict[str, Any]:
        answer = super().state()
        if self._ends_early():
            answer["terminal"] = True
        return answer

    def legal_actions(self) -> list[Action]:
        return [] if self._ends_early() else super().legal_actions()


def main() -> None:
    """Serve :class:`LastRoundShort` on standard input and output."""
    from hanabi_ref.tools.verify.serve import serve

    serve(LastRoundShort(), sys.stdin.buffer, sys.stdout)


if __name__ == "__main__":
    main()
