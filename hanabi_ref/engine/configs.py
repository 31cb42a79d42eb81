"""Making configurations and writing them: presets with overrides, compositions, the
configuration's JSON, and the bounds on a game's length [2.9, P-presets, T-schema,
L-moves, PR-length].

:func:`make_config` builds a validated :class:`~hanabi_ref.engine.config.GameConfig`
from a preset, a variant and overrides; :func:`config_to_json` and
:func:`config_from_json` write and read the configuration object of traces and vectors.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from hanabi_ref.base.errors import ConfigError
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.presets import PRESETS, RuleOptions, default_hand_size
from hanabi_ref.engine.validation import (
    card_count,
    composition_suits,
    is_literal_empty_deal,
    resolve_variant,
    variant_suits,
    variant_values,
)


def make_config(
    players: int,
    preset: str = "thesis",
    variant: str = "No Variant",
    *,
    hand_size: int | None = None,
    hints: int = 8,
    errors: int | None = 3,
    composition: list[list[int]] | tuple[tuple[int, ...], ...] | None = None,
    **options: Any,
) -> GameConfig:
    """Build a validated configuration from a preset, a variant and overrides [2.9, P-presets].

    ``composition`` (one list of counts per suit) gives an arbitrary deck as in the thesis'
    single-colour and small games; the variant is then "Custom".  Keyword ``options``
    override single rule options of the preset.
    """
    if preset not in PRESETS:
        raise ConfigError(f"preset: unknown preset {preset!r} (known: {', '.join(PRESETS)})")
    if composition is not None:
        suits, colours = composition_suits(composition)
        values, variant_name = len(suits[0].counts), "Custom"
        if any(len(suit.counts) != values for suit in suits):
            raise ConfigError("composition: every suit needs the same number of values")
    else:
        variant_name = resolve_variant(variant)
        suits, colours = variant_suits(variant_name)
        values = variant_values(variant_name)
    rule_options = _override_options(PRESETS[preset].options, options)
    if not isinstance(players, int) or isinstance(players, bool):
        raise ConfigError(f"players: must be an integer >= 1, got {players!r}")
    return GameConfig(
        values=values,
        suits=suits,
        colours=colours,
        players=players,
        hand_size=default_hand_size(players) if hand_size is None else hand_size,
        max_hints=hints,
        max_errors=errors,
        options=rule_options,
        preset=preset,
        variant=variant_name,
    )


def _override_options(base: RuleOptions, overrides: Mapping[str, Any]) -> RuleOptions:
    known = {field.name for field in attrs.fields(RuleOptions)}
    for name in overrides:
        if name not in known:
            raise ConfigError(f"options.{name}: unknown rule option (known: {', '.join(sorted(known))})")
    return attrs.evolve(base, **overrides)


def config_to_json(config: GameConfig, *, in_full: bool = False) -> dict[str, Any]:
    """A JSON object that :func:`config_from_json` turns back into an equal config;
    ``in_full``: with every rule option, as the engine protocol sends it (EP-config)."""
    data: dict[str, Any] = {
        "preset": config.preset,
        "variant": config.variant,
        "players": config.players,
        "hand_size": config.hand_size,
        "hints": config.max_hints,
        "errors": config.max_errors,
        "options": options_to_json(config.options, in_full=in_full),
    }
    if config.variant == "Custom":
        data["composition"] = [list(suit.counts) for suit in config.suits]
    return data


OMITTED_AT_DEFAULT: Final = ("deck_plays",)
"""Options written to a configuration's JSON only when they differ from their default
(they came after the files and vectors already written, which stay as they were)."""


def options_to_json(options: RuleOptions, *, in_full: bool = False) -> dict[str, Any]:
    """The options object of a configuration's JSON [T-schema, P-options]: every option,
    except those of :data:`OMITTED_AT_DEFAULT` at their default, which trace files and
    vectors leave out; ``in_full``: every option, those too (EP-config)."""
    data = attrs.asdict(options)
    if in_full:
        return data
    for name in OMITTED_AT_DEFAULT:
        if data[name] == getattr(RuleOptions(), name):
            del data[name]
    return data


def config_from_json(data: object, where: str = "config") -> GameConfig:
    """Parse and validate a config object; errors name the field under ``where``."""
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: must be an object")
    allowed = {"preset", "variant", "players", "hand_size", "hints", "errors", "options", "composition"}
    for key in data:
        if key not in allowed:
            raise ConfigError(f"{where}.{key}: unknown field")
    if "players" not in data:
        raise ConfigError(f"{where}.players: missing")
    options = data.get("options", {})
    if not isinstance(options, dict):
        raise ConfigError(f"{where}.options: must be an object")
    preset = _string(data.get("preset", "thesis"), f"{where}.preset")
    variant = _string(data.get("variant", "No Variant"), f"{where}.variant")
    try:
        return make_config(
            data["players"],
            preset=preset,
            variant=variant,
            hand_size=data.get("hand_size"),
            hints=data.get("hints", 8),
            errors=data.get("errors", 3),
            composition=data.get("composition") if data.get("variant") == "Custom" or "composition" in data else None,
            **options,
        )
    except ConfigError as error:
        raise ConfigError(f"{where}.{error}") from None


def _string(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"{where}: must be a string, got {value!r}")
    return value


def max_moves(config: GameConfig) -> int:
    """[L-moves] no game of ``config`` lasts more than t0 + 2N + k moves: each play or
    discard takes one of the N cards from a hand, and each hint spends a token, of
    which there are t0 at the start and at most one more per discard and per completed
    suit."""
    return config.max_hints + 2 * card_count(config) + config.suit_count



def move_bound(config: GameConfig) -> int:
    """[PR-length] no game lasts more than t0 + 2(N - p*h) + p moves (one more under the
    literal reading of E-6 when the deal empties the stack); see proofs/game_length.md."""
    bound = config.max_hints + 2 * (card_count(config) - config.players * config.hand_size) + config.players
    return bound + 1 if is_literal_empty_deal(config) else bound
