"""The configuration of a game: Definition 2.9's tuple with its rule options [2.9].

[2.9] H = (n, k, p, h, S0, t0, f0).  A :class:`GameConfig` holds n (``values``), the k
suits with their composition (which fixes the multiset of S0; the order of S0 is the
deck given to :func:`hanabi_ref.engine.transition.initial_state`), p, h, t0 (``max_hints``),
f0 (``max_errors``, ``None`` for f0 = infinity) and the named rule options of
``spec/rules.md`` section "Rule presets" (:mod:`hanabi_ref.engine.presets`).

A configuration is a value: frozen, slotted, compared and hashed by its fields, checked
on construction (:func:`~hanabi_ref.engine.validation.validate_config`).  What is derived
from it (hint masks, the canonical deck, the action catalogue) is in
:class:`~hanabi_ref.engine.tables.Tables`; building one is
:func:`~hanabi_ref.engine.configs.make_config`.
"""

from __future__ import annotations

import attrs

from hanabi_ref.base.errors import ConfigError
from hanabi_ref.engine.cards import Suit
from hanabi_ref.engine.presets import PRESETS, RuleOptions, default_hand_size
from hanabi_ref.engine.validation import composition_suits, validate_config, variant_suits


@attrs.frozen(cache_hash=True, repr=False)
class GameConfig:
    """Definition 2.9 with the rule options; validated on construction [2.9].

    Invalid values raise :class:`ConfigError` naming the field.  Equality and the hash
    are those of the fields; derived tables (hint masks, the canonical deck) are not
    held here but in :class:`~hanabi_ref.engine.tables.Tables`
    (:func:`~hanabi_ref.engine.tables.tables_for`).

    ``max_hints`` is t0 and ``max_errors`` is f0 [2.9-t0, 2.9-f0]; a state's ``clue_tokens``
    and ``strikes`` are t and f.  The configuration's JSON (and :func:`make_config`)
    names them ``hints`` and ``errors``.
    """

    values: int
    suits: tuple[Suit, ...]
    colours: tuple[str, ...]
    players: int
    hand_size: int
    max_hints: int
    max_errors: int | None
    options: RuleOptions = RuleOptions()
    preset: str = "thesis"
    variant: str = "Custom"

    def __attrs_post_init__(self) -> None:
        validate_config(self)

    def __repr__(self) -> str:
        """[API-config] one line: the ``Config`` call that builds this configuration (only
        what differs from the preset and the defaults), or, for suits no preset or
        composition makes, a short summary."""
        custom = self.variant == "Custom"
        try:
            made = composition_suits([list(s.counts) for s in self.suits]) if custom else variant_suits(self.variant)
        except ConfigError:
            made = None
        preset = PRESETS.get(self.preset)
        if made != (self.suits, self.colours) or preset is None or (not custom and self.values != 5):
            return (f"<GameConfig {self.preset} {self.players}p {self.variant}, {self.suit_count} suits of "
                    f"{self.values} values, hand {self.hand_size}, t0={self.max_hints}, f0={self.max_errors}>")
        if custom:
            head = f"Config.composition({[list(s.counts) for s in self.suits]!r}, players={self.players}, preset={self.preset!r}"
        else:
            head = f"Config.preset({self.preset!r}, players={self.players}, variant={self.variant!r}"
        extra = [f"hand_size={self.hand_size}"] if self.hand_size != default_hand_size(self.players) else []
        extra += [f"hints={self.max_hints}"] if self.max_hints != 8 else []
        extra += [f"errors={self.max_errors!r}"] if self.max_errors != 3 else []
        extra += [f"{field.name}={getattr(self.options, field.name)!r}" for field in attrs.fields(RuleOptions)
                  if getattr(self.options, field.name) != getattr(preset.options, field.name)]
        return head + "".join(f", {item}" for item in extra) + ")"

    @property
    def suit_count(self) -> int:
        """k of Definition 2.9 [2.9-k]."""
        return len(self.suits)
