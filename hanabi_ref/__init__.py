"""hanabi_ref: the reference implementation of the card game Hanabi.

The engine mirrors Algorithm 2.16 of the thesis "Hanabi, cooperative fireworks" (2015)
step by step; the rules are numbered clauses in ``spec/rules.md`` and every function,
contract and test cites them.  Start with the facade [API-names]::

    from hanabi_ref import Game, Config, Play, Discard, Hint

    g = Game.new(Config.preset("hle", players=3), seed=7)
    g = g.apply(g.legal_actions()[0])
    print(g)                      # the board

The names in :data:`__all__` are the stable API (spec/library.md, API-stable); the
modules behind them (``rules``, ``transition``, ``legality``, ``view``, ``trace``, ...)
are public too and documented, but may be reorganised between minor releases.

Importing the package reads no file, changes no import machinery and imports no engine
module: the names below are loaded on first use.  The optional compiled build is an
explicit opt-in [B-compiled]: ``HANABI_REF_COMPILED=1`` in the environment (acted on
here), :func:`hanabi_ref.tools.compiled.enable`, or ``--compiled``; it must come before the
engine is first used.
"""

from __future__ import annotations

import importlib as _importlib
import os as _os
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

if TYPE_CHECKING:
    from hanabi_ref.engine.actions import Action, Discard, Hint, Play
    from hanabi_ref.api import Card, Config, Game, Knowledge
    from hanabi_ref.engine.dealing import deck_from_seed
    from hanabi_ref.base.errors import ConfigError, HanabiError, IllegalActionError, TraceError
    from hanabi_ref.players.runner import play_game
    from hanabi_ref.engine.legality import legal_actions
    from hanabi_ref.engine.config import GameConfig
    from hanabi_ref.engine.configs import make_config
    from hanabi_ref.engine.state import Event, GameState
    from hanabi_ref.players.strategies import STRATEGIES, factory_for
    from hanabi_ref.players.strategy import BaseStrategy, Strategy
    from hanabi_ref.formats.trace import load_trace, replay, save_trace
    from hanabi_ref.engine.transition import apply, initial_state, new_game
    from hanabi_ref.engine.view import PlayerView, make_view

_HOMES = {
    "Game": "hanabi_ref.api", "Config": "hanabi_ref.api", "Card": "hanabi_ref.api", "Knowledge": "hanabi_ref.api",
    "Action": "hanabi_ref.engine.actions", "Play": "hanabi_ref.engine.actions", "Discard": "hanabi_ref.engine.actions",
    "Hint": "hanabi_ref.engine.actions",
    "GameConfig": "hanabi_ref.engine.config", "GameState": "hanabi_ref.engine.state", "Event": "hanabi_ref.engine.state",
    "PlayerView": "hanabi_ref.engine.view", "play_game": "hanabi_ref.players.runner",
    "Strategy": "hanabi_ref.players.strategy", "BaseStrategy": "hanabi_ref.players.strategy",
    "HanabiError": "hanabi_ref.base.errors", "ConfigError": "hanabi_ref.base.errors",
    "IllegalActionError": "hanabi_ref.base.errors", "TraceError": "hanabi_ref.base.errors",
    # the engine's functions and the strategies, for a program that plays games itself
    "make_config": "hanabi_ref.engine.configs", "deck_from_seed": "hanabi_ref.engine.dealing",
    "new_game": "hanabi_ref.engine.transition", "initial_state": "hanabi_ref.engine.transition", "apply": "hanabi_ref.engine.transition",
    "legal_actions": "hanabi_ref.engine.legality", "make_view": "hanabi_ref.engine.view",
    "STRATEGIES": "hanabi_ref.players.strategies", "factory_for": "hanabi_ref.players.strategies",
    "load_trace": "hanabi_ref.formats.trace", "save_trace": "hanabi_ref.formats.trace", "replay": "hanabi_ref.formats.trace",
}

__all__ = [
    "__version__",
    "Game", "Config", "Card", "Knowledge",
    "Action", "Play", "Discard", "Hint",
    "GameConfig", "GameState", "Event", "PlayerView", "play_game", "Strategy", "BaseStrategy",
    "HanabiError", "ConfigError", "IllegalActionError", "TraceError",
    "make_config", "deck_from_seed", "new_game", "initial_state", "apply", "legal_actions", "make_view",
    "STRATEGIES", "factory_for", "load_trace", "save_trace", "replay",
]


def __getattr__(name: str) -> Any:
    """[API-names] a public name, imported from its module on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'hanabi_ref' has no attribute {name!r}")
    value = getattr(_importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_HOMES})


# [B-compiled] the opt-in by environment; unset or 0 (off) does not even import the module.
if _os.environ.get("HANABI_REF_COMPILED", "0").strip() not in {"", "0"}:
    from hanabi_ref.tools.compiled import enable_from_environment as _enable_from_environment

    _enable_from_environment()
