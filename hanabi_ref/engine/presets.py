"""Rule options and presets: the choices on which the thesis and its peers differ, and
the named bundles of them [P-options, P-presets, C-rules].

A :class:`RuleOptions` is one bundle of choices; :data:`OPTIONS` lists each option with
its values, default and clauses; :data:`PRESETS` names the bundles a configuration may
start from (``thesis``, ``hle``, ``hanab-live``, ``hanabi-rs``, ``physical``).
:func:`rules_listing` is what ``hanabi-ref rules --list`` prints.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

import attrs

from hanabi_ref.base.errors import ConfigError

STRIKEOUT_SCORES: Final = ("zero", "fireworks")
DEALS: Final = ("blocks", "round-robin")
DRAW_POSITIONS: Final = ("newest-last", "newest-first")


@attrs.frozen
class RuleOptions:
    """The rule choices on which peers and the thesis' own text differ [P-options].

    empty_hints            [2.16-2a-empty] a hint may touch no card (thesis) or not (hle).
    discard_at_max_hints   [E-2] discarding with t = t0 is allowed, gaining nothing (thesis).
    self_hints             [E-4] a player may hint its own hand (the literal 2a).
    strikeout_score        [2.16-3-strikeout] "zero" (thesis) or "fireworks".
    end_when_no_points_possible [R-1] stop when no further point can be scored.
    end_when_nothing_playable [R-4] stop when, in the last round, no player who still
                           moves holds a card a stack may take (hanab.live's end, HL-end).
    deal                   [E-1] "blocks" of h per player, or "round-robin".
    draw_position          [R-2] where a drawn card goes in the hand's slot order.
    initial_stop_check     [E-6] evaluate step 3 once after step 1 (an empty stack after
                           the deal starts the last round at once).
    draw_after_final_move  [R-3] the move that ends the game still draws a card (thesis:
                           2b/2c draw before step 3 stops); HLE/OpenSpiel deal no card then.
    deck_plays             [R-deck-plays] with one card left in the stack, the current
                           player may play it unseen (hanab.live's bottom-deck blind play).
    """

    empty_hints: bool = True
    discard_at_max_hints: bool = True
    self_hints: bool = False
    strikeout_score: str = "zero"
    end_when_no_points_possible: bool = False
    end_when_nothing_playable: bool = False
    deal: str = "blocks"
    draw_position: str = "newest-last"
    initial_stop_check: bool = True
    draw_after_final_move: bool = True
    deck_plays: bool = False


@attrs.frozen
class OptionSpec:
    """One rule option as P-options lists it: its name, the values it takes (booleans
    ``(True, False)``, or the strings allowed), its default (the thesis') and the clauses
    whose readings it chooses between [P-options, C-rules]."""

    name: str
    values: tuple[bool, ...] | tuple[str, ...]
    default: bool | str
    clauses: tuple[str, ...]

    def parse(self, text: str) -> bool | str:
        """The value written ``text`` on a command line: ``true`` or ``false`` for a
        boolean option, one of its values for the others; else a :class:`ConfigError`
        naming the option and its values [P-options, EP-options]."""
        if isinstance(self.default, bool):
            if text in ("true", "false"):
                return text == "true"
            raise ConfigError(f"{self.name}: must be true or false, got {text!r}")
        if text in self.values:
            return text
        raise ConfigError(f"{self.name}: must be one of {', '.join(map(str, self.values))}, got {text!r}")


@attrs.frozen
class Preset:
    """A named bundle of rule options with the player counts and variants it admits
    [P-presets]; one of :data:`PRESETS`, ``hanabi-rs``, is the framework of the
    information strategy's published numbers [I-preset], and ``physical`` is the printed
    rulebook as spec/rules.md reads it."""

    name: str
    options: RuleOptions
    min_players: int
    max_players: int | None
    variants: tuple[str, ...] | None
    hanab_live_names: bool = False
    """Also admits every hanab.live variant name the engine plays (spec/variants.md
    VAR-engine), beyond ``variants``."""


PRESETS: Final[Mapping[str, Preset]] = {
    "thesis": Preset("thesis", RuleOptions(), 1, None, None),
    "hle": Preset(
        "hle",
        RuleOptions(empty_hints=False, discard_at_max_hints=False, draw_after_final_move=False),
        2,
        5,
        ("No Variant",),
    ),
    "hanab-live": Preset(
        "hanab-live",
        RuleOptions(
            empty_hints=False,
            discard_at_max_hints=False,
            end_when_no_points_possible=True,
            end_when_nothing_playable=True,
        ),
        2,
        6,
        ("No Variant", "6 Suits", "Black (6 Suits)", "Rainbow (6 Suits)"),
        hanab_live_names=True,
    ),
    # The framework the information strategy's published numbers come from: hints touch
    # a card, no discard with every token, and a game lost by its last error scores its
    # fireworks; the final move draws as in the thesis.
    "hanabi-rs": Preset(
        "hanabi-rs",
        RuleOptions(empty_hints=False, discard_at_max_hints=False, strikeout_score="fireworks"),
        2,
        5,
        ("No Variant",),
    ),
    # The printed rulebook as the thesis' section 2.2 retells it: a hint points out cards
    # (E-20), no discard with every token (E-2); the rest is Algorithm 2.16's (the final
    # move draws, no early end); 2 to 5 players (Example 2.10) and the sixth suits of
    # the German and Dutch editions (Examples 2.11 and 2.12).
    "physical": Preset(
        "physical",
        RuleOptions(empty_hints=False, discard_at_max_hints=False),
        2,
        5,
        ("No Variant", "6 Suits", "Dutch Rainbow (Example 2.12)"),
    ),
}

OPTION_CLAUSES: Final[Mapping[str, tuple[str, ...]]] = {
    "empty_hints": ("2.16-2a-empty", "E-20"),
    "discard_at_max_hints": ("2.16-2b-token", "E-2"),
    "self_hints": ("2.16-2a-target", "E-4"),
    "strikeout_score": ("2.16-3-strikeout",),
    "end_when_no_points_possible": ("R-1",),
    "end_when_nothing_playable": ("R-4",),
    "deal": ("2.16-1-deal", "E-1"),
    "draw_position": ("R-2",),
    "initial_stop_check": ("2.16-3-last-round", "E-6"),
    "draw_after_final_move": ("2.16-2b-draw", "R-3"),
    "deck_plays": ("2.16-2c", "R-deck-plays"),
}
"""The clauses each rule option chooses between, as the table of P-options gives them."""

_STRING_VALUES: Final[Mapping[str, tuple[str, ...]]] = {
    "strikeout_score": STRIKEOUT_SCORES,
    "deal": DEALS,
    "draw_position": DRAW_POSITIONS,
}


def _option_spec(field: attrs.Attribute[Any]) -> OptionSpec:
    default = field.default
    if isinstance(default, bool):
        return OptionSpec(field.name, (True, False), default, OPTION_CLAUSES[field.name])
    if not isinstance(default, str):
        raise TypeError(f"RuleOptions.{field.name}: a default that is neither a boolean nor a string")
    return OptionSpec(field.name, _STRING_VALUES[field.name], default, OPTION_CLAUSES[field.name])


OPTIONS: Final[Mapping[str, OptionSpec]] = {field.name: _option_spec(field) for field in attrs.fields(RuleOptions)}
"""Every rule option of :class:`RuleOptions`, in its order (that of P-options), with its
values, default and clauses [P-options, C-rules]."""


def parse_rule_option(text: str) -> tuple[str, bool | str]:
    """``NAME=VALUE``, one rule option as ``verify --option`` takes it: the option's name
    and its value parsed by :meth:`OptionSpec.parse` [EP-options].  A text without ``=``
    or an unknown name is a :class:`ConfigError` that lists the known options."""
    name, equals, value = text.partition("=")
    known = ", ".join(OPTIONS)
    if not equals:
        raise ConfigError(f"expected NAME=VALUE, got {text!r} (options: {known})")
    spec = OPTIONS.get(name.strip())
    if spec is None:
        raise ConfigError(f"unknown rule option {name.strip()!r} (known: {known})")
    return spec.name, spec.parse(value.strip())


def rules_listing() -> dict[str, Any]:
    """What ``hanabi-ref rules --list --json`` prints [C-rules]: every rule option with its
    values, default and clauses (P-options), and every preset with its whole bundle of
    options, those it sets otherwise than the defaults, its player counts and its
    variants (``null``: every named variant and custom compositions), and whether it
    admits hanab.live's variant names (VAR-engine) (P-presets)."""
    defaults = attrs.asdict(RuleOptions())
    presets = []
    for preset in PRESETS.values():
        bundle = attrs.asdict(preset.options)
        presets.append({
            "name": preset.name,
            "options": bundle,
            "sets": {name: value for name, value in bundle.items() if value != defaults[name]},
            "min_players": preset.min_players,
            "max_players": preset.max_players,
            "variants": None if preset.variants is None else list(preset.variants),
            "hanab_live_names": preset.hanab_live_names or preset.variants is None,
        })
    options = [
        {"name": spec.name, "values": list(spec.values), "default": spec.default, "clauses": list(spec.clauses)}
        for spec in OPTIONS.values()
    ]
    return {"options": options, "presets": presets}


def default_hand_size(players: int) -> int:
    """The usual hand size: 5 for up to 3 players, 4 for 4-5, 3 for 6 or more [2.9-h]."""
    if players <= 3:
        return 5
    if players <= 5:
        return 4
    return 3
