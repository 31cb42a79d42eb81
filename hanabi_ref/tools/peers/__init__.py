"""Built-in adapters to real peer Hanabi engines, and the configurations they match [PE-peers].

Each adapter implements :class:`hanabi_ref.tools.protocol.engine.Engine` on top of another
project's engine, so that :func:`hanabi_ref.tools.verify.compare.play_compared` can play the
same deck and the same moves on both sides and compare them turn by turn
(``spec/peers.md``):

==============  ================================  =====================================
name            engine                            our configuration (:func:`peer_config`)
==============  ================================  =====================================
``openspiel``   OpenSpiel's ``hanabi`` (HLE)      the ``hle`` preset [PE-openspiel]
``hle``         DeepMind's ``pyhanabi``           the ``hle`` preset [PE-hle]
``hle-seed``    ``pyhanabi`` dealing from its     the ``hle`` preset [PE-hle-seed]
                own seed (EP-seed)
``hanabython``  the ``hanabython`` package        ``hanab-live`` with hanabython's deal,
                                                  slot order and final draw [PE-hanabython]
==============  ================================  =====================================

The peer libraries are optional extras: importing this package imports none of them.
Building an adapter (``PEERS[name]()``) imports its library and raises
:class:`~hanabi_ref.tools.protocol.engine.EngineFailure` with a one-line message when it is not
installed.  The move choosers of the differential test [PE-differential] are in
:mod:`hanabi_ref.tools.peers.choosers`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, Final

from hanabi_ref.base.extras import install_hint
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.tools.protocol.engine import Engine, EngineFailure

EXTRAS: Final = {"openspiel": "openspiel", "hle": "hle", "hle-seed": "hle", "hanabython": "hanabython"}

# [PE-hanabython] the rule options under which our engine plays exactly as hanabython,
# on top of the hanab-live preset (which already forbids empty hints and discards at
# t = t0 and ends the game when no more points are possible, R-1).
HANABYTHON_OPTIONS: Final[dict[str, Any]] = {
    "deal": "round-robin",  # [PE-hanabython-deal]
    "draw_position": "newest-first",  # [PE-hanabython-slots]
    "draw_after_final_move": False,  # [PE-hanabython-final-draw]
    "end_when_nothing_playable": False,  # [PE-hanabython-last-round] hanabython plays the last round out
}


class MissingPeerLibrary(EngineFailure):
    """[PE-peers, C-extras] a peer adapter's library is not installed: a usage error of the
    command line (exit code 2), not a failure of an engine under test."""


def import_peer(adapter: str, module: str, package: str) -> Any:
    """Import a peer library, or fail with one line naming the extra to install [PE-peers]."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise MissingPeerLibrary(
            f"{adapter} adapter: {package} is not installed "
            f"({install_hint(EXTRAS[adapter])}): {error}"
        ) from None


def _openspiel() -> Engine:
    from hanabi_ref.tools.peers.openspiel import OpenSpielEngine

    return OpenSpielEngine()


def _hle() -> Engine:
    from hanabi_ref.tools.peers.hle import HLEEngine

    return HLEEngine()


def _hle_seed() -> Engine:
    from hanabi_ref.tools.peers.hle import HLESeedEngine

    return HLESeedEngine()


def _hanabython() -> Engine:
    from hanabi_ref.tools.peers.hanabython import HanabythonEngine

    return HanabythonEngine()


PEERS: Final[dict[str, Callable[[], Engine]]] = {
    "openspiel": _openspiel,
    "hle": _hle,
    "hle-seed": _hle_seed,
    "hanabython": _hanabython,
}


def peer_config(
    name: str,
    players: int,
    *,
    variant: str = "No Variant",
    hand_size: int | None = None,
    hints: int = 8,
    errors: int | None = 3,
    **options: Any,
) -> GameConfig:
    """Our configuration that the peer ``name`` must match move for move [PE-peers].

    OpenSpiel and pyhanabi run HLE's rules: the ``hle`` preset [PE-openspiel, PE-hle].
    hanabython plays the ``hanab-live`` preset with a round-robin deal, the newest card
    in slot 0 and no draw after the game's final move [PE-hanabython].  ``options``
    override single rule options (e.g. ``empty_hints=True`` for hanabython's
    "empty clues allowed" setting); the adapter's ``unsupported`` says whether the
    result can still be played identically.
    """
    if name in ("openspiel", "hle", "hle-seed"):
        return make_config(players, "hle", variant, hand_size=hand_size, hints=hints, errors=errors, **options)
    if name == "hanabython":
        merged = {**HANABYTHON_OPTIONS, **options}
        return make_config(players, "hanab-live", variant, hand_size=hand_size, hints=hints, errors=errors, **merged)
    raise ConfigError(f"peer: unknown peer {name!r} (known: {', '.join(PEERS)})")
