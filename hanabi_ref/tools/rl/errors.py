"""The error of the RL face [RL-errors]."""

from __future__ import annotations

from hanabi_ref.base.errors import HanabiError


class RLError(HanabiError):
    """[RL-errors] a request the RL face cannot serve: an unknown encoding or action-space
    name, a configuration an encoding cannot represent, an illegal action.  The message
    starts with the clause id that refuses it."""

    def __init__(self, clause: str, message: str) -> None:
        super().__init__(f"{clause}: {message}")
        self.clause = clause
