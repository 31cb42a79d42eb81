"""Game configurations: Definition 2.9's tuple, rule options, variants and presets.

[2.9] H = (n, k, p, h, S0, t0, f0).  A :class:`GameConfig` holds n (``values``), the k
suits with their composition (which fixes the multiset of S0; the order of S0 is the
deck given to :func:`hanabi_ref.engine.transition.initial_state`), p, h, t0 (``max_hints``),
f0 (``max_errors``, ``None`` for f0 = infinity) and the named rule options of
``spec/rules.md`` section "Rule presets".
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Mapping
from typing import Any, Final, Literal

import attrs

from hanabi_ref.engine.actions import Discard, Hint, Play
from hanabi_ref.engine.cards import Suit, canonical_deck, identity
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.engine.variants import engine as variant_engine
from hanabi_ref.engine.variants.model import NotSupported, Variant
from hanabi_ref.engine.variants.ruleset import THESIS, RuleSet

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


VARIANT_NAMES: Final = {
    "no-variant": "No Variant",
    "6-suits": "6 Suits",
    "black": "Black (6 Suits)",
    "rainbow": "Rainbow (6 Suits)",
    "dutch-rainbow": "Dutch Rainbow (Example 2.12)",
    "custom": "Custom",
}

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

STANDARD_COUNTS: Final = (3, 2, 2, 2, 1)
SINGLE_COUNTS: Final = (1, 1, 1, 1, 1)
BASE_SUITS: Final = (("Red", "R"), ("Yellow", "Y"), ("Green", "G"), ("Blue", "B"), ("Purple", "P"))


@attrs.frozen(slots=False)
class ActionCatalogue:
    """Every action object of a configuration, made once [2.16-actions].

    ``hints[target]`` pairs each hint to that seat (colours, then values) with the
    identities it touches; ``discards[slot]`` and ``plays[slot]`` for slots 0..h-1."""

    hints: tuple[tuple[tuple[Hint, int], ...], ...]
    discards: tuple[Discard, ...]
    plays: tuple[Play, ...]
    hint_targets: tuple[tuple[int, ...], ...]
    """``hint_targets[current]``: the seats the player at ``current`` may hint, in order
    (:func:`hanabi_ref.engine.legality.is_hint_target_allowed`, decided once per configuration)."""

    @functools.cached_property
    def hint_actions(self) -> tuple[tuple[Hint, ...], ...]:
        """``hints[target]`` without the masks."""
        return tuple(tuple(hint for hint, _ in target_hints) for target_hints in self.hints)

    @functools.cached_property
    def touching_memo(self) -> tuple[dict[int, tuple[Hint, ...]], ...]:
        """Per target, the hints touching a hand, by the hand's touch key (see
        :attr:`GameConfig.touch_bits`): filled by :meth:`hints_touching`.  A key says
        only which hints touch the hand, so there are at most 2^(hints) of them (1,024
        with five suits and five values) however many hands there are."""
        return tuple({} for _ in self.hints)

    def hints_touching(self, target: int, touch_key: int) -> tuple[Hint, ...]:
        """The hints to ``target`` that touch a card of a hand with touch key
        ``touch_key`` (bit i: the i-th hint of ``hints[target]`` touches one of its
        cards), in catalogue order [2.16-2a-empty, 2.16-actions]."""
        memo = self.touching_memo[target]
        found = memo.get(touch_key)
        if found is None:
            if len(memo) >= MEMO_LIMIT:
                memo.clear()
            found = memo[touch_key] = tuple(
                hint for index, (hint, _) in enumerate(self.hints[target]) if touch_key >> index & 1
            )
        return found


MEMO_LIMIT: Final = 4096
"""Entries a :meth:`ActionCatalogue.hints_touching` memo holds per target before it
starts again, so that long runs keep a bounded table."""


@attrs.frozen(slots=False, cache_hash=True, hash=True, repr=False)
class GameConfig:
    """Definition 2.9 with the rule options; validated on construction [2.9].

    Invalid values raise :class:`ConfigError` naming the field.  Derived tables (hint
    masks, the canonical deck) are computed once per configuration.

    ``max_hints`` is t0 and ``max_errors`` is f0 [2.9-t0, 2.9-f0]; a state's ``hints``
    and ``errors`` are t and f.  The configuration's JSON (and :func:`make_config`)
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

    def __eq__(self, other: object) -> bool:
        """Equal fields; at once for copies of one configuration (the seats' copies of
        ISO-views share a token), which strategies' caches compare often."""
        if self is other:
            return True
        if type(other) is not GameConfig:
            return NotImplemented
        token = self.__dict__.get("_copies_of")
        if token is not None and token is other.__dict__.get("_copies_of"):
            return True
        return _config_fields(self) == _config_fields(other)

    def __ne__(self, other: object) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

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

    @functools.cached_property
    def deck_size(self) -> int:
        """N, the number of cards in S0, always finite [2.9-S0, E-17]."""
        return sum(sum(suit.counts) for suit in self.suits)

    @functools.cached_property
    def all_cards_mask(self) -> int:
        """Cards(H) as a bitmask: every (value, suit), whatever the composition [2.14-initial]."""
        return (1 << (self.values * self.suit_count)) - 1

    @functools.cached_property
    def model(self) -> Variant | None:
        """The variant model of a hanab.live variant name (spec/variants.md VAR-model,
        VAR-existing), or None for "Custom" and the thesis' Dutch Rainbow."""
        return variant_model(self.variant)

    @functools.cached_property
    def rank_masks(self) -> tuple[int, ...]:
        """For each value a, the identities {(a, y)} of that value, whatever touches them."""
        n, k = self.values, self.suit_count
        return tuple(
            sum(1 << identity(a, y, n) for y in range(k)) for a in range(1, n + 1)
        )

    @functools.cached_property
    def value_masks(self) -> tuple[int, ...]:
        """For each value a, the identities a value hint on a touches [2.16-2a-value]:
        {(a, y)}, or under a modelled variant those its rank clue a touches, 0 where the
        variant offers no such clue [VAR-engine-masks]."""
        if self.model is not None:
            return _model_masks(self.variant)[1]
        return self.rank_masks

    @functools.cached_property
    def colour_masks(self) -> tuple[int, ...]:
        """For each clue colour, the identities of every suit it touches [2.16-2a-suit];
        under a modelled variant, the identities it touches [VAR-engine-masks]."""
        if self.model is not None:
            return _model_masks(self.variant)[0]
        n = self.values
        masks = []
        for colour in range(len(self.colours)):
            mask = 0
            for suit_index, suit in enumerate(self.suits):
                if colour in suit.touched_by:
                    mask |= sum(1 << identity(a, suit_index, n) for a in range(1, n + 1))
            masks.append(mask)
        return tuple(masks)

    @functools.cached_property
    def clue_values(self) -> tuple[int, ...]:
        """The values a value hint may name: 1..n, or the rank clues of a modelled
        variant (VAR-clue-ranks: Pink-Ones has 2-5, Odds and Evens 1 and 2, Number Mute
        none)."""
        if self.model is not None:
            return self.model.clue_ranks
        return tuple(range(1, self.values + 1))

    @functools.cached_property
    def hint_order(self) -> tuple[tuple[Literal["colour", "value"], int, int], ...]:
        """(kind, subject, mask) of every hint to one target in catalogue order: clue
        colours, then the values of :attr:`clue_values` [2.16-actions]."""
        colours: tuple[tuple[Literal["colour", "value"], int, int], ...] = tuple(
            ("colour", c, mask) for c, mask in enumerate(self.colour_masks))
        return colours + tuple(("value", v, self.value_masks[v - 1]) for v in self.clue_values)

    @functools.cached_property
    def hint_bits(self) -> dict[tuple[str, int], int]:
        """The bit of each hint (kind, subject) in a touch key: 1 << its place in
        :attr:`hint_order`."""
        return {(kind, subject): 1 << index for index, (kind, subject, _) in enumerate(self.hint_order)}

    @functools.cached_property
    def inverted_mask(self) -> int:
        """The identities whose play and discard are swapped: the orange suits of a
        modelled variant (VAR-engine-orange); 0 otherwise."""
        return _model_masks(self.variant)[2] if self.model is not None else 0

    @functools.cached_property
    def free_hint_bits(self) -> int:
        """The bits of the hints that are legal even when they touch no card: colour
        clues under Color Blind, rank clues under Number Blind (VAR-blind)."""
        rules = self.model.rules if self.model is not None else None
        if rules is None:
            return 0
        blind = {"colour": rules.colour_blind, "value": rules.number_blind}
        return sum(bit for (kind, _), bit in self.hint_bits.items() if blind[kind])

    @functools.cached_property
    def touch_bits(self) -> tuple[int, ...]:
        """For each identity, which hints touch it, as bits in the order of a target's
        hints in :attr:`action_catalogue` (:attr:`hint_order`: clue colours, then
        values; with values 1..n, bit c for colour c and bit (number of colours) + a - 1
        for value a) [2.16-2a-value, 2.16-2a-suit].  A hand's touch key, the OR of its
        cards' bits, says which hints touch a card of it [2.16-2a-empty]."""
        masks = tuple(mask for _, _, mask in self.hint_order)
        return tuple(
            sum(1 << index for index, mask in enumerate(masks) if mask >> card & 1)
            for card in range(self.values * self.suit_count)
        )

    @functools.cached_property
    def is_literal_empty_deal(self) -> bool:
        """[E-6] the literal reading applies: step 3 is not checked after the deal and the
        deal takes the whole stack, so the first player moves twice."""
        return not self.options.initial_stop_check and self.deck_size == self.players * self.hand_size

    @functools.cached_property
    def action_catalogue(self) -> ActionCatalogue:
        """All action objects, so that listing legal actions creates none [2.16-actions]."""
        hints = tuple(
            tuple((Hint(target, kind, subject), mask) for kind, subject, mask in self.hint_order)
            for target in range(self.players)
        )
        from hanabi_ref.engine.legality import is_hint_target_allowed

        seats = range(self.players)
        targets = tuple(tuple(t for t in seats if is_hint_target_allowed(self, current, t)) for current in seats)
        slots = range(self.hand_size)
        # plays[h]: the play of the stack's last card after a hand of h cards (R-deck-plays).
        plays = tuple(Play(s) for s in range(self.hand_size + 1))
        return ActionCatalogue(hints, tuple(Discard(s) for s in slots), plays, targets)

    @functools.cached_property
    def canonical_deck(self) -> tuple[int, ...]:
        """S0's multiset in canonical order [D-canonical]."""
        return canonical_deck(self.suits, self.values)

    @functools.cached_property
    def sorted_deck(self) -> list[int]:
        """S0's multiset as a sorted list, to check a deck against [2.9-S0]."""
        return sorted(self.canonical_deck)

    @functools.cached_property
    def max_score(self) -> int:
        """n * k, the score of a perfect game [2.16-3-max]; 5 per suit under Up or Down,
        whose sixth value is the START card (VAR-max-score, VAR-engine-up-or-down)."""
        return self.stack_height * self.suit_count

    @functools.cached_property
    def up_or_down(self) -> bool:
        """The stacks are built up or down (VAR-engine-up-or-down)."""
        return self.model is not None and self.model.rules.up_or_down

    @functools.cached_property
    def rule_set(self) -> RuleSet:
        """What the steps of Algorithm 2.16 ask of the rules, answered for this game's
        variant family: the thesis' rules, or those of a modelled variant's family
        (:func:`hanabi_ref.engine.variants.engine.rule_set`, VAR-engine)."""
        return variant_engine.rule_set(self.model) if self.model is not None else THESIS

    @functools.cached_property
    def stack_ways(self) -> tuple[tuple[int, ...], ...]:
        """Every complete field stack of the rule set, its values in play order [2.13-4]:
        (1, ..., n) under the thesis (:meth:`RuleSet.ways`, asked once per configuration)."""
        return self.rule_set.ways(self.values)

    @functools.cached_property
    def stack_height(self) -> int:
        """The cards of a complete field stack: n, or what the variant family says (5
        under Up or Down) [2.16-2c-five]."""
        return self.rule_set.stack_height(self.values)


_config_fields = operator.attrgetter(*(field.name for field in attrs.fields(GameConfig)))
"""A configuration's fields as a tuple, for :meth:`GameConfig.__eq__`."""


def _fail(field: str, message: str) -> ConfigError:
    return ConfigError(f"{field}: {message}")


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_config(config: GameConfig) -> None:
    """Reject a configuration that Definition 2.9 or its preset does not admit [2.9].

    Also refused: the literal reading of step 1 with h = 1 and no stack left after the
    deal, where the first player would move again without a card, the one case that
    breaks PR-legal-action [E-6, PR-legal-action]."""
    _validate_numbers(config)
    _validate_suits(config)
    _validate_options(config.options)
    if config.deck_size < config.players * config.hand_size:
        raise _fail(
            "hand_size",
            f"{config.players} players x {config.hand_size} cards need more than the "
            f"{config.deck_size} cards of the deck (Definition 2.9 requires p*h <= N)",
        )
    if config.is_literal_empty_deal and config.hand_size == 1:
        # [E-6, PR-legal-action] under the literal reading the first player moves a second
        # time with h - 1 cards; with h = 1 it would hold none and might have no action.
        raise _fail(
            "options.initial_stop_check",
            "false with hand size 1 and no stack left after the deal would leave the first player without a card",
        )
    _validate_preset(config)
    _validate_variant(config)


def _validate_variant(config: GameConfig) -> None:
    """[V-names, 2.9-composition] a named variant has exactly that variant's suits and colours."""
    if config.variant == "Custom":
        return
    if config.variant not in VARIANT_NAMES.values():
        try:
            variant_engine.engine_variant(config.variant)
        except NotSupported as error:
            raise _fail("variant", str(error)) from None
    if (config.values, (config.suits, config.colours)) != (variant_values(config.variant), variant_suits(config.variant)):
        raise _fail("variant", f"the suits and clue colours are not those of {config.variant!r}; name it 'Custom'")


LIMITS: Final = {
    "values": 100, "players": 100, "hand_size": 100, "hints": 25_000, "errors": 10_000,
    "suits": 100, "colours": 100, "count": 100, "deck": 10_000,
}
"""[L-config] the largest value of each quantity a configuration sets: n, p, h, t0, f0,
the number of suits and of clue colours, the copies of one identity, and N.  They bound
every game a file can describe (no game lasts more than t0 + 2N + k moves, L-moves) and
are checked before anything of that size is built."""


def max_moves(config: GameConfig) -> int:
    """[L-moves] no game of ``config`` lasts more than t0 + 2N + k moves: each play or
    discard takes one of the N cards from a hand, and each hint spends a token, of
    which there are t0 at the start and at most one more per discard and per completed
    suit."""
    return config.max_hints + 2 * config.deck_size + config.suit_count


def _validate_numbers(config: GameConfig) -> None:
    """[2.9-n, 2.9-p, 2.9-h, 2.9-t0, 2.9-f0, L-config] n, p, h >= 1; t0 >= 0 finite
    (E-16); f0 >= 1 or None for infinity (E-18: the thesis' f0 = 0 is written as None);
    none above its limit (:data:`LIMITS`)."""
    # Errors name the configuration's JSON fields (t0 is "hints", f0 is "errors").
    for field, name, minimum in (("values", "values", 1), ("players", "players", 1), ("hand_size", "hand_size", 1), ("max_hints", "hints", 0)):
        value = getattr(config, field)
        if not _is_int(value) or value < minimum:
            raise _fail(name, f"must be an integer >= {minimum}, got {value!r}")
        if value > LIMITS[name]:
            raise _fail(name, f"must be at most {LIMITS[name]} (L-config), got {value}")
    if config.max_errors is not None and (not _is_int(config.max_errors) or config.max_errors < 1):
        raise _fail("errors", f"must be an integer >= 1 or null (infinite), got {config.max_errors!r}")
    if config.max_errors is not None and config.max_errors > LIMITS["errors"]:
        raise _fail("errors", f"must be at most {LIMITS['errors']} or null (L-config), got {config.max_errors}")


def _validate_suits(config: GameConfig) -> None:
    if not config.suits:
        raise _fail("suits", "at least one suit is needed (k >= 1)")
    for what, size in (("suits", len(config.suits)), ("colours", len(config.colours))):
        if size > LIMITS[what]:
            raise _fail(what, f"at most {LIMITS[what]} (L-config), got {size}")
    if len(set(config.colours)) != len(config.colours):
        raise _fail("colours", "clue colour names must be distinct")
    names = [suit.name for suit in config.suits]
    if len(set(names)) != len(names):
        raise _fail("suits", "suit names must be distinct")
    for index, suit in enumerate(config.suits):
        where = f"suits[{index}]"
        if len(suit.counts) != config.values:
            raise _fail(
                f"{where}.counts",
                f"needs one count per value (n = {config.values}), got {len(suit.counts)}",
            )
        for value, count in enumerate(suit.counts, start=1):
            if not _is_int(count) or count < 0:
                raise _fail(f"{where}.counts[{value - 1}]", f"must be an integer >= 0, got {count!r}")
            if count > LIMITS["count"]:
                raise _fail(f"{where}.counts[{value - 1}]", f"at most {LIMITS['count']} copies (L-config), got {count}")
        for colour in suit.touched_by:
            if not _is_int(colour) or not 0 <= colour < len(config.colours):
                raise _fail(f"{where}.touched_by", f"clue colour {colour!r} does not exist")
    if config.deck_size < 1:
        raise _fail("suits", "the deck is empty (N >= 1 is needed)")
    if config.deck_size > LIMITS["deck"]:
        raise _fail("suits", f"the deck has {config.deck_size} cards, more than {LIMITS['deck']} (L-config)")


def _validate_options(options: RuleOptions) -> None:
    """[P-options] every option holds one of its values (:data:`OPTIONS`): a boolean, or
    one of the strings listed."""
    for spec in OPTIONS.values():
        value = getattr(options, spec.name)
        if isinstance(spec.default, bool):
            if not isinstance(value, bool):
                raise _fail(f"options.{spec.name}", f"must be true or false, got {value!r}")
        elif not isinstance(value, str) or value not in spec.values:
            raise _fail(f"options.{spec.name}", f"must be one of {', '.join(map(str, spec.values))}, got {value!r}")
    if options.self_hints and not options.empty_hints:
        # [E-4] whether a hint on one's own hand touches a card is hidden from the hinter,
        # so its legality could not be decided from the hinter's view.
        raise _fail("options.self_hints", "needs empty_hints = true: a player cannot see whether its own hand holds a touched card")


def _validate_preset(config: GameConfig) -> None:
    preset = PRESETS.get(config.preset)
    if preset is None:
        raise _fail("preset", f"unknown preset {config.preset!r} (known: {', '.join(PRESETS)})")
    if config.players < preset.min_players or (
        preset.max_players is not None and config.players > preset.max_players
    ):
        upper = "any" if preset.max_players is None else str(preset.max_players)
        raise _fail(
            "players",
            f"preset {preset.name} admits {preset.min_players}..{upper} players, got {config.players}",
        )
    named = preset.hanab_live_names and config.variant not in VARIANT_NAMES.values()
    if preset.variants is not None and config.variant not in preset.variants and not named:
        raise _fail(
            "variant",
            f"preset {preset.name} supports {', '.join(preset.variants)}, not {config.variant!r}",
        )


def resolve_variant(name: str) -> str:
    """The canonical variant name for a slug or a hanab.live name, case-insensitively [V-names]."""
    wanted = name.strip().lower()
    for slug, canonical in VARIANT_NAMES.items():
        if wanted in (slug, canonical.lower()):
            return canonical
    try:
        return variant_engine.engine_variant(name.strip()).name
    except NotSupported as error:
        if not str(error).endswith(UNKNOWN_NAME):
            raise ConfigError(f"variant: {error}") from None
    known = ", ".join(f"{slug} ({canonical})" for slug, canonical in VARIANT_NAMES.items() if slug != "custom")
    raise ConfigError(f"variant: unknown variant {name!r} (known: {known}; or a hanab.live name such as 'Pink (5 Suits)')")


UNKNOWN_NAME: Final = "not a variant name we know (expected '<family> (N Suits)')"
"""The end of :func:`~hanabi_ref.engine.variants.names.parse_variant`'s message for a name
outside its grammar altogether, which :func:`resolve_variant` answers with the list of
our own names."""


def variant_values(name: str) -> int:
    """n of a named variant: 5, or 6 under Up or Down (VAR-engine-up-or-down)."""
    model = variant_model(name)
    return 5 if model is None else variant_engine.engine_values(model)


@functools.lru_cache(maxsize=512)
def variant_model(name: str) -> Variant | None:
    """The model of a variant name [VAR-model, VAR-existing]: None for "Custom" and the
    thesis' Dutch Rainbow, which are not hanab.live's; :class:`NotSupported` for a name
    the engine does not play [VAR-engine]."""
    if name in ("Custom", "Dutch Rainbow (Example 2.12)"):
        return None
    return variant_engine.engine_variant(name)


def variant_suits(variant: str) -> tuple[tuple[Suit, ...], tuple[str, ...]]:
    """The suits and clue colours of a named variant [V-no-variant, V-6-suits, V-black,
    V-rainbow, V-dutch-rainbow].  Example 2.11's sixth "rainbow" suit is an ordinary
    suit, i.e. "6 Suits"; the name Rainbow means the multicolour suit [E-24]."""
    base = [Suit(name, abbr, STANDARD_COUNTS, frozenset({i})) for i, (name, abbr) in enumerate(BASE_SUITS)]
    colours = [name for name, _ in BASE_SUITS]
    if variant == "No Variant":
        pass
    elif variant == "6 Suits":
        base.append(Suit("Teal", "T", STANDARD_COUNTS, frozenset({5})))
        colours.append("Teal")
    elif variant == "Black (6 Suits)":
        base.append(Suit("Black", "K", SINGLE_COUNTS, frozenset({5})))
        colours.append("Black")
    elif variant == "Rainbow (6 Suits)":
        # [V-rainbow] touched by every colour clue, no clue colour of its own.
        base.append(Suit("Rainbow", "M", STANDARD_COUNTS, frozenset(range(5))))
    elif variant == "Dutch Rainbow (Example 2.12)":
        # [V-dutch-rainbow] Example 2.12: one card per value, a full sixth suit for hints.
        base.append(Suit("Rainbow", "M", SINGLE_COUNTS, frozenset({5})))
        colours.append("Rainbow")
    elif variant == "Custom":
        raise ConfigError(f"variant: {variant!r} has no fixed composition; give a composition")
    else:
        # [VAR-engine] any other hanab.live name the engine plays, from the model.
        return _model_suits(variant)
    return tuple(base), tuple(colours)


@functools.lru_cache(maxsize=512)
def _model_masks(variant: str) -> tuple[tuple[int, ...], tuple[int, ...], int]:
    """[VAR-engine-masks, VAR-engine-orange] the colour masks, rank-clue masks and orange
    identities of a hanab.live name the engine plays, once per name."""
    model = variant_engine.engine_variant(variant)
    return variant_engine.colour_masks(model), variant_engine.value_masks(model), variant_engine.inverted_mask(model)


@functools.lru_cache(maxsize=512)
def _model_suits(variant: str) -> tuple[tuple[Suit, ...], tuple[str, ...]]:
    """[VAR-engine] the suits and clue colours of a hanab.live name, once per name."""
    try:
        return variant_engine.engine_suits(variant_engine.engine_variant(variant))
    except NotSupported as error:
        raise ConfigError(f"variant: {error}") from None


def composition_suits(composition: list[list[int]] | tuple[tuple[int, ...], ...]) -> tuple[tuple[Suit, ...], tuple[str, ...]]:
    """Suits for an arbitrary composition: suit i has counts composition[i] and its own
    clue colour, as in Definition 2.9 [2.9-composition]."""
    if not isinstance(composition, (list, tuple)) or not composition:
        raise ConfigError("composition: must be a non-empty list of per-suit count lists")
    if len(composition) > LIMITS["suits"]:
        raise ConfigError(f"composition: at most {LIMITS['suits']} suits (L-config), got {len(composition)}")
    suits = []
    for index, counts in enumerate(composition):
        if not isinstance(counts, (list, tuple)) or not counts:
            raise ConfigError(f"composition[{index}]: must be a non-empty list of counts")
        if len(counts) > LIMITS["values"]:
            raise ConfigError(f"composition[{index}]: at most {LIMITS['values']} values (L-config), got {len(counts)}")
        suits.append(Suit(f"Suit {index + 1}", f"S{index + 1}", tuple(counts), frozenset({index})))
    return tuple(suits), tuple(f"Suit {i + 1}" for i in range(len(composition)))


def default_hand_size(players: int) -> int:
    """The usual hand size: 5 for up to 3 players, 4 for 4-5, 3 for 6 or more [2.9-h]."""
    if players <= 3:
        return 5
    if players <= 5:
        return 4
    return 3


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
    if not _is_int(players):
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


def config_to_json(config: GameConfig) -> dict[str, Any]:
    """A JSON object that :func:`config_from_json` turns back into an equal config."""
    data: dict[str, Any] = {
        "preset": config.preset,
        "variant": config.variant,
        "players": config.players,
        "hand_size": config.hand_size,
        "hints": config.max_hints,
        "errors": config.max_errors,
        "options": options_to_json(config.options),
    }
    if config.variant == "Custom":
        data["composition"] = [list(suit.counts) for suit in config.suits]
    return data


OMITTED_AT_DEFAULT: Final = ("deck_plays",)
"""Options written to a configuration's JSON only when they differ from their default
(they came after the files and vectors already written, which stay as they were)."""


def options_to_json(options: RuleOptions) -> dict[str, Any]:
    """The options object of a configuration's JSON [T-schema, P-options]: every option,
    except those of :data:`OMITTED_AT_DEFAULT` at their default."""
    data = attrs.asdict(options)
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


def move_bound(config: GameConfig) -> int:
    """[PR-length] no game lasts more than t0 + 2(N - p*h) + p moves (one more under the
    literal reading of E-6 when the deal empties the stack); see proofs/game_length.md."""
    bound = config.max_hints + 2 * (config.deck_size - config.players * config.hand_size) + config.players
    return bound + 1 if config.is_literal_empty_deal else bound
