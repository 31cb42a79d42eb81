"""Strategies in processes of their own: isolated seats and bots in any language
[ISO-seat, ISO-protocol] (``spec/isolation.md`` sections 2 and 3).

:func:`seat_command` is the command line of an isolated seat that runs one of our
strategies; :class:`~hanabi_ref.tools.isolation.client.IsolatedFactory` seats such commands,
or any bot's, in a game.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping

from hanabi_ref.players.strategies import Value


def seat_command(strategy: str, params: Mapping[str, Value] | None = None) -> list[str]:
    """[ISO-seat] the command of a seat process that plays ``strategy`` with ``params``
    (floats written so that they read back exactly)."""
    argv = [sys.executable, "-m", "hanabi_ref.tools.isolation.seat", "--strategy", strategy]
    for name, value in (params or {}).items():
        argv += ["--param", f"{name}={value!r}" if isinstance(value, float) else f"{name}={value}"]
    return argv
