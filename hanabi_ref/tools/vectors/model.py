"""The conformance vector record and the JSON forms it uses [VEC-format].

A :class:`Vector` is one language-neutral test case: its ``data`` is exactly the JSON
object written to the vector files (``spec/vectors.md``), and its accessors turn the
parts that describe a game (configuration, deck, actions) back into engine objects, so
that ``hanabi-ref verify`` can drive any engine through them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import attrs

from hanabi_ref.engine.actions import Action, action_to_json
from hanabi_ref.engine.cards import Identity, as_identities, identity
from hanabi_ref.base.errors import ConfigError, HanabiError
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import config_from_json
from hanabi_ref.formats.serial import card_to_json, knowledge_to_json
from hanabi_ref.engine.state import Event, GameState
from hanabi_ref.formats.trace import action_from_json
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.engine.view import PlayerView

FORMAT: Final = "hanabi-ref/vectors"
VERSION: Final = 1
PRESET_NAMES: Final = ("thesis", "hle", "hanab-live")
"""The presets that have vectors: the rules of the engines we verify against.  The
``hanabi-rs`` preset (I-preset) differs from ``hle`` only where spec/info.md says; it
exists to measure the information strategy on its source's rules.  The ``physical``
preset (the printed rulebook) has none either: the vectors of these three show every
value its options take (P-presets)."""
KINDS: Final = ("config", "deal", "initial", "transition", "game", "view", "action", "trace")


class VectorsError(HanabiError):
    """A vectors directory that cannot be written or read; the message names the path."""


class CaseFailure(AssertionError):
    """A case function found the engine breaking the clause it checks (a bug in us)."""


def expect(condition: bool, message: str) -> None:
    """Fail the running case unless ``condition`` holds [VEC-cases].

    ``message`` starts with the clause id the condition comes from.  This is not a bare
    ``assert``, so the checks also run under ``python -O``."""
    if not condition:
        raise CaseFailure(message)


@attrs.frozen(eq=False)
class Vector:
    """One conformance vector: its name, kind, preset, the clauses it covers and the JSON
    object as written [VEC-format].

    The accessors parse the game-describing members of ``data`` (present in the kinds
    ``transition``, ``game``, ``view`` and ``initial``; ``config`` also in valid ``config``
    and in ``deal`` vectors)."""

    name: str
    kind: str
    preset: str
    clauses: tuple[str, ...]
    data: dict[str, Any]

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Vector:
        """The vector of a JSON object read from a vector file [VEC-format]."""
        return cls(data["name"], data["kind"], data["preset"], tuple(data["clauses"]), data)

    def config(self) -> GameConfig:
        """The configuration (raises :class:`ConfigError` if the vector has none)."""
        if "config" not in self.data:
            raise ConfigError(f"{self.name}: this {self.kind} vector has no config")
        return config_from_json(self.data["config"])

    def deck(self) -> tuple[int, ...]:
        """S0 as card identities, top first [2.9-S0]."""
        return deck_from_json(self.data["deck"], self.config())

    def prefix(self) -> tuple[Action, ...]:
        """The actions that lead from the initial state to ``pre`` [VEC-transition]."""
        return _actions(self.data.get("prefix", []), "prefix")

    def action(self) -> Action | None:
        """The action under test of a ``transition`` vector (the expected parse of an
        ``action`` vector); None for the other kinds."""
        raw = self.data.get("action")
        return None if raw is None else action_from_json(raw, "action")

    def actions(self) -> tuple[Action, ...]:
        """Every action of the vector in order: a game's actions, a transition's prefix
        followed by its action, a view's prefix [VEC-game, VEC-transition]."""
        if self.kind == "game":
            return _actions(self.data["actions"], "actions")
        action = self.action() if self.kind == "transition" else None
        return self.prefix() + (() if action is None else (action,))

    def is_refusal(self) -> bool:
        """Whether the vector expects an error instead of a result."""
        return "error" in self.data


def _actions(raw: Sequence[object], where: str) -> tuple[Action, ...]:
    return tuple(action_from_json(action, f"{where}[{index}]") for index, action in enumerate(raw))


def deck_from_json(cards: object, config: GameConfig, where: str = "deck") -> tuple[int, ...]:
    """Card identities from ``[{"suit": y, "value": x}, ...]`` [2.9-cards, D-explicit];
    a card outside Cards(H) is a :class:`ConfigError` naming its place."""
    if not isinstance(cards, list):
        raise ConfigError(f"{where}: must be a list of cards")
    return tuple(card_from_json(card, config, f"{where}[{index}]") for index, card in enumerate(cards))


def card_from_json(card: object, config: GameConfig, where: str) -> int:
    """One identity from ``{"suit": y, "value": x}``, suit from 0, value from 1 [2.9-cards]."""
    if not isinstance(card, dict) or set(card) != {"suit", "value"}:
        raise ConfigError(f"{where}: must be an object with exactly suit and value")
    suit, value = card["suit"], card["value"]
    if not (_is_small_int(suit, config.suit_count) and _is_small_int(value, config.values + 1) and value >= 1):
        raise ConfigError(f"{where}: {card} is not a card of Cards(H)")
    return identity(value, suit, config.values)


def _is_small_int(value: object, size: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


def deck_to_json(deck: Sequence[int], config: GameConfig) -> list[dict[str, int]]:
    """S0 as card objects, top first [2.9-S0]."""
    return [card_to_json(card, config) for card in as_identities(deck)]


def actions_to_json(actions: Sequence[Action]) -> list[dict[str, object]]:
    """Actions in their trace form [T-actions]."""
    return [action_to_json(action) for action in actions]


# ------------------------------------------------------------------ games reached by play


@attrs.frozen
class Run:
    """A game reached by legal play: configuration, deck, the actions so far and the
    state they lead to [VEC-transition]."""

    config: GameConfig
    deck: tuple[int, ...]
    actions: tuple[Action, ...]
    state: GameState

    @classmethod
    def start(cls, config: GameConfig, deck: Sequence[int]) -> Run:
        """The game right after step 1 [2.16-1]."""
        return cls(config, tuple(deck), (), initial_state(config, tuple(deck)))

    def then(self, *actions: Action) -> Run:
        """The game after the given legal actions (each through steps 2 and 3) [2.16]."""
        state = self.state
        for action in actions:
            state = apply(state, action)
        return Run(self.config, self.deck, self.actions + actions, state)


# ------------------------------------------------------------------ views


def _card_with_id(card_id: int, card: int | None, config: GameConfig) -> dict[str, int]:
    shown = {"id": card_id}
    if card is not None:
        shown.update(card_to_json(Identity(card), config))  # Event.card: still typed int
    return shown


def event_to_json(event: Event, config: GameConfig) -> dict[str, Any]:
    """One record of the public history [2.17-history]: move number, acting seat and
    action; for a play or discard the card (id and identity), whether a play succeeded,
    and the card id drawn (null if none); for a hint the card ids it touched."""
    record: dict[str, Any] = {"turn": event.turn, "player": event.player, "action": action_to_json(event.action)}
    if event.card_id is None:
        record["touched"] = list(event.touched)
        return record
    record["card"] = _card_with_id(event.card_id, event.card, config)
    record["drawn"] = event.drawn
    if event.success is not None:
        record["success"] = event.success
    return record


def view_to_json(view: PlayerView, legal: Sequence[Action] | None) -> dict[str, Any]:
    """What seat ``view.seat`` may know, as JSON [2.17-view, E-8, VEC-view]: card ids of
    every hand with the identities of the other seats' cards, every knowledge set, the
    stack's size, fields, played and discarded cards, t, f, R and the public history."""
    config = view.config
    data: dict[str, Any] = {
        "seat": view.seat,
        "current": view.current_player,
        "turns": view.turns,
        "hands": [
            [_card_with_id(c, card, config) for c, card in zip(ids, cards, strict=True)]
            for ids, cards in zip(view.hands, view.cards, strict=True)
        ],
        "knowledge": [[knowledge_to_json(m, config) for m in known] for known in view.knowledge],
        "deck_size": view.deck_size,
        "fireworks": list(view.fireworks),
        "played": [_card_with_id(c, card, config) for c, card in view.played],
        "discard": [_card_with_id(c, card, config) for c, card in view.discard],
        "clue_tokens": view.clue_tokens,
        "strikes": view.strikes,
        "remaining": view.remaining,
        "terminal": view.terminal,
        "history": [event_to_json(event, config) for event in view.history],
    }
    if legal is not None:
        data["legal"] = actions_to_json(legal)
    return data
