"""Checking a configuration, and the variants and compositions it is checked against
[2.9, L-config, V-names, P-presets].

:func:`validate_config` is what a :class:`~hanabi_ref.engine.config.GameConfig` runs on
construction: Definition 2.9's bounds, the limits of L-config, the rule options, the
preset's player counts and variants, and a named variant's suits.  The names and suits
of the variants (:func:`resolve_variant`, :func:`variant_suits`, :func:`variant_model`,
:func:`composition_suits`) live here because the check needs them.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Final

from hanabi_ref.base.errors import ConfigError
from hanabi_ref.engine.cards import Suit
from hanabi_ref.engine.presets import OPTIONS, PRESETS, RuleOptions
from hanabi_ref.engine.variants import engine as variant_engine
from hanabi_ref.engine.variants.model import NotSupported, Variant

if TYPE_CHECKING:
    from hanabi_ref.engine.config import GameConfig

VARIANT_NAMES: Final = {
    "no-variant": "No Variant",
    "6-suits": "6 Suits",
    "black": "Black (6 Suits)",
    "rainbow": "Rainbow (6 Suits)",
    "dutch-rainbow": "Dutch Rainbow (Example 2.12)",
    "custom": "Custom",
}


STANDARD_COUNTS: Final = (3, 2, 2, 2, 1)
SINGLE_COUNTS: Final = (1, 1, 1, 1, 1)
BASE_SUITS: Final = (("Red", "R"), ("Yellow", "Y"), ("Green", "G"), ("Blue", "B"), ("Purple", "P"))


def card_count(config: GameConfig) -> int:
    """N, the number of cards in S0, always finite [2.9-S0, E-17]; the lookup tables
    keep it as :attr:`~hanabi_ref.engine.tables.Tables.deck_size`."""
    return sum(sum(suit.counts) for suit in config.suits)


def is_literal_empty_deal(config: GameConfig) -> bool:
    """[E-6] the literal reading applies: step 3 is not checked after the deal and the
    deal takes the whole stack, so the first player moves twice."""
    return not config.options.initial_stop_check and card_count(config) == config.players * config.hand_size


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
    deck_size = card_count(config)
    if deck_size < config.players * config.hand_size:
        raise _fail(
            "hand_size",
            f"{config.players} players x {config.hand_size} cards need more than the "
            f"{deck_size} cards of the deck (Definition 2.9 requires p*h <= N)",
        )
    if is_literal_empty_deal(config) and config.hand_size == 1:
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
    deck_size = card_count(config)
    if deck_size < 1:
        raise _fail("suits", "the deck is empty (N >= 1 is needed)")
    if deck_size > LIMITS["deck"]:
        raise _fail("suits", f"the deck has {deck_size} cards, more than {LIMITS['deck']} (L-config)")


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
    the engine does not play [VAR-engine].

    Memoized by name: a string key and an immutable model, at most 512 of them, so the
    memo holds nothing of a game and cannot grow without bound."""
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
def _model_suits(variant: str) -> tuple[tuple[Suit, ...], tuple[str, ...]]:
    """[VAR-engine] the suits and clue colours of a hanab.live name, once per name (a
    string key and immutable suits, at most 512 names)."""
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
