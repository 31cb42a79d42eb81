"""Configurations: Definition 2.9, the variants, the presets and the rule options; every
invalid field is rejected with a message that starts with the field's name
[2.9, 2.9-cards, 2.9-k, 2.9-h, 2.9-S0, 2.9-composition, P-presets, P-options, V-*]."""

from __future__ import annotations

from collections import Counter
from typing import Any

import attrs
import pytest

from hanabi_ref.engine.cards import Suit, as_identities, identity, mask_of, members, suit_of, value_of
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import config_from_json, config_to_json, make_config
from hanabi_ref.engine.presets import RuleOptions
from hanabi_ref.engine.validation import resolve_variant
from tests.helpers import CLASSIC_COUNTS, SINGLE_COUNTS, expected_multiset
from hanabi_ref.engine.tables import tables_for

# ------------------------------------------------------------------ Definition 2.9


def test_card_identity_encoding() -> None:
    """[2.9-cards] identity = suit * n + value - 1 (suit from 0, value from 1) is a
    bijection from Cards(H) = {1..n} x {1..k} onto 0..n*k-1, and value_of / suit_of
    invert it."""
    for n in (1, 3, 5):
        for k in (1, 2, 6):
            seen = set()
            for suit in range(k):
                for value in range(1, n + 1):
                    c = identity(value, suit, n)
                    assert c == suit * n + value - 1
                    assert (value_of(c, n), suit_of(c, n)) == (value, suit)
                    seen.add(c)
            assert seen == set(range(n * k))


def test_masks_and_members_round_trip() -> None:
    """[2.14] knowledge sets are bitmasks over identities: mask_of and members invert
    each other."""
    for cards in ([], [0], [3, 7, 24], list(range(30))):
        assert list(members(mask_of(as_identities(cards)))) == sorted(cards)


@pytest.mark.parametrize("players, hand", [(2, 5), (3, 5), (4, 4), (5, 4)])
def test_classic_configuration_is_example_2_10(players: int, hand: int) -> None:
    """[2.9, 2.9-n, 2.9-h, 2.9-k, 2.9-t0, 2.9-f0, 2.9-composition, V-no-variant, E-17]
    classic Hanabi is
    H = (5, 5, p, h, S0, 8, 3) with h = 5 for p = 2, 3 and h = 4 for p = 4, 5, and S0 of
    50 cards: three 1s, two 2s, 3s and 4s, one 5 per suit (Example 2.10)."""
    config = make_config(players)
    assert (config.values, config.suit_count, config.players, config.hand_size) == (5, 5, players, hand)
    assert (config.max_hints, config.max_errors) == (8, 3)
    assert tables_for(config).deck_size == 50
    assert all(suit.counts == (3, 2, 2, 2, 1) for suit in config.suits)
    assert Counter(tables_for(config).canonical_deck) == Counter(
        {identity(v, s, 5): (3, 2, 2, 2, 1)[v - 1] for v in range(1, 6) for s in range(5)}
    )
    assert tables_for(config).max_score == 25


def test_default_hand_sizes() -> None:
    """[2.9-h] 5 cards for p <= 3 (p = 1 too), 4 for p = 4, 5, 3 for p >= 6."""
    expected = {1: 5, 2: 5, 3: 5, 4: 4, 5: 4, 6: 3, 7: 3}
    assert {p: make_config(p).hand_size for p in expected} == expected
    assert make_config(6, "hanab-live").hand_size == 3


def test_cards_h_is_the_full_product_even_with_missing_identities() -> None:
    """[2.14-initial, 2.9-cards] Cards(H) = {1..n} x {1..k} even when the composition has
    no copy of some identity."""
    config = make_config(1, composition=[[1, 0, 2], [0, 0, 1]], hand_size=1)
    assert tables_for(config).all_cards_mask == (1 << 6) - 1
    assert tables_for(config).deck_size == 4


def test_custom_composition_and_zero_hints_and_infinite_errors() -> None:
    """[2.9-composition, 2.9, 2.9-t0, 2.9-f0, E-18] a composition gives one count list per
    suit with its own clue colour; t0 = 0 and f0 = infinity (None) are admitted."""
    config = make_config(1, composition=[[4, 1, 1, 1]], hand_size=4, hints=0, errors=None)
    assert config.variant == "Custom"
    assert (config.values, config.suit_count, config.max_hints, config.max_errors) == (4, 1, 0, None)
    assert Counter(tables_for(config).canonical_deck) == Counter({0: 4, 1: 1, 2: 1, 3: 1})
    assert len(config.colours) == 1 and config.suits[0].touched_by == frozenset({0})


# ------------------------------------------------------------------ variants


def test_six_suits_is_example_2_11() -> None:
    """[V-6-suits, E-24, 2.9-n] Example 2.11 (whose sixth suit the thesis calls "rainbow")
    is an ordinary sixth suit with the classic counts and its own colour; n = 5, k = 6,
    N = 60."""
    config = make_config(3, variant="6-suits")
    assert config.values == 5
    assert (config.suit_count, tables_for(config).deck_size, len(config.colours)) == (6, 60, 6)
    assert all(suit.counts == CLASSIC_COUNTS for suit in config.suits)
    assert [suit.touched_by for suit in config.suits] == [frozenset({i}) for i in range(6)]


def test_dutch_rainbow_is_example_2_12() -> None:
    """[V-dutch-rainbow, E-24] Example 2.12: five classic suits plus one card of each value
    in a sixth suit that has its own clue colour; N = 55."""
    config = make_config(3, variant="dutch-rainbow")
    assert (config.suit_count, tables_for(config).deck_size, len(config.colours)) == (6, 55, 6)
    assert config.suits[5].counts == SINGLE_COUNTS
    assert config.suits[5].touched_by == frozenset({5})
    assert Counter(tables_for(config).canonical_deck) == expected_multiset(config)


def test_black_has_one_card_per_value_and_its_own_colour() -> None:
    """[V-black] Black (6 Suits): a sixth suit with one card per value and its own clue
    colour that touches only it; N = 55."""
    config = make_config(4, variant="black")
    assert config.suits[5].counts == (1, 1, 1, 1, 1)
    assert tables_for(config).deck_size == 55
    assert [suit.touched_by for suit in config.suits] == [frozenset({i}) for i in range(6)]
    assert config.colours[5] == "Black"


def test_rainbow_is_touched_by_every_colour_and_has_none_of_its_own() -> None:
    """[V-rainbow, V-suit, E-24] Rainbow (6 Suits), the multicolour suit: six suits with
    classic counts, five clue colours; the rainbow suit is touched by all five, every other
    suit by its own."""
    config = make_config(4, variant="rainbow")
    assert (config.suit_count, tables_for(config).deck_size, len(config.colours)) == (6, 60, 5)
    assert config.suits[5].touched_by == frozenset(range(5))
    assert [suit.touched_by for suit in config.suits[:5]] == [frozenset({i}) for i in range(5)]
    rainbow_cards = {identity(v, 5, 5) for v in range(1, 6)}
    for colour in range(5):
        touched = set(members(tables_for(config).colour_masks[colour]))
        assert touched == {identity(v, colour, 5) for v in range(1, 6)} | rainbow_cards


@pytest.mark.parametrize(
    "name, canonical",
    [
        ("no-variant", "No Variant"),
        ("NO VARIANT", "No Variant"),
        ("6-suits", "6 Suits"),
        ("6 suits", "6 Suits"),
        ("black", "Black (6 Suits)"),
        ("Black (6 Suits)", "Black (6 Suits)"),
        ("rainbow", "Rainbow (6 Suits)"),
        ("rainbow (6 suits)", "Rainbow (6 Suits)"),
        ("dutch-rainbow", "Dutch Rainbow (Example 2.12)"),
    ],
)
def test_variant_names(name: str, canonical: str) -> None:
    """[V-names] a variant may be named by slug or hanab.live name, in any case."""
    assert resolve_variant(name) == canonical
    assert make_config(2, variant=name).variant == canonical


def test_unknown_variant_lists_the_known_ones() -> None:
    """[V-names, VAR-refused] a name outside every grammar is a ConfigError naming the
    field and the known names; a hanab.live-shaped name with an unknown part names
    that part."""
    with pytest.raises(ConfigError) as error:
        make_config(2, variant="Mauve")
    assert str(error.value).startswith("variant:")
    assert "rainbow" in str(error.value) and "black" in str(error.value)
    with pytest.raises(ConfigError, match=r"^variant: Mauve: not a special suit we know \(variant 'Mauve \(6 Suits\)'\)$"):
        make_config(2, variant="Mauve (6 Suits)")


# ------------------------------------------------------------------ presets and options


def test_preset_table() -> None:
    """[P-presets, P-options] the presets' options, transcribed from spec/rules.md
    section 10 and DESIGN.md's table."""
    thesis = make_config(3, "thesis").options
    hle = make_config(3, "hle").options
    live = make_config(3, "hanab-live").options
    assert thesis == RuleOptions(
        empty_hints=True,
        discard_at_max_hints=True,
        self_hints=False,
        strikeout_score="zero",
        end_when_no_points_possible=False,
        deal="blocks",
        draw_position="newest-last",
        initial_stop_check=True,
        draw_after_final_move=True,
    )
    assert (hle.empty_hints, hle.discard_at_max_hints, hle.end_when_no_points_possible) == (False, False, False)
    assert hle.draw_after_final_move is False
    assert (live.empty_hints, live.discard_at_max_hints, live.end_when_no_points_possible) == (False, False, True)
    assert (thesis.end_when_nothing_playable, hle.end_when_nothing_playable, live.end_when_nothing_playable) == (
        False, False, True)  # only hanab-live ends a last round with nothing to play
    assert live.draw_after_final_move is True
    for options in (hle, live):
        assert (options.strikeout_score, options.deal, options.draw_position) == ("zero", "blocks", "newest-last")
        assert (options.self_hints, options.initial_stop_check) == (False, True)


@pytest.mark.parametrize(
    "preset, players, ok",
    [
        ("thesis", 1, True),
        ("thesis", 7, True),
        ("hle", 1, False),
        ("hle", 2, True),
        ("hle", 5, True),
        ("hle", 6, False),
        ("hanab-live", 1, False),
        ("hanab-live", 6, True),
        ("hanab-live", 7, False),
        ("physical", 1, False),
        ("physical", 2, True),
        ("physical", 5, True),
        ("physical", 6, False),
    ],
)
def test_preset_player_ranges(preset: str, players: int, ok: bool) -> None:
    """[P-presets, 2.9-p] thesis: any p >= 1; hle: 2..5; hanab-live: 2..6; physical: 2..5."""
    if ok:
        assert make_config(players, preset).players == players
    else:
        with pytest.raises(ConfigError) as error:
            make_config(players, preset)
        assert str(error.value).startswith("players:")


@pytest.mark.parametrize(
    "preset, variant, ok",
    [
        ("hle", "no-variant", True),
        ("hle", "6-suits", False),
        ("hle", "rainbow", False),
        ("hanab-live", "6-suits", True),
        ("hanab-live", "black", True),
        ("hanab-live", "rainbow", True),
        ("hanab-live", "dutch-rainbow", False),
        ("thesis", "dutch-rainbow", True),
        ("physical", "no-variant", True),
        ("physical", "6-suits", True),
        ("physical", "dutch-rainbow", True),
        ("physical", "black", False),
        ("physical", "rainbow", False),
    ],
)
def test_preset_variants(preset: str, variant: str, ok: bool) -> None:
    """[P-presets] hle admits No Variant only; hanab-live also 6 Suits, Black, Rainbow;
    physical No Variant and the printed editions' sixth suits, 6 Suits (Example 2.11)
    and Dutch Rainbow (Example 2.12)."""
    if ok:
        make_config(3, preset, variant)
    else:
        with pytest.raises(ConfigError) as error:
            make_config(3, preset, variant)
        assert str(error.value).startswith("variant:")


def test_physical_preset_is_the_printed_rulebook() -> None:
    """[P-presets, E-2, E-20, R-1, R-3] physical, transcribed from spec/rules.md section 10:
    hints must touch a card (E-20) and no discard at t = t0 (E-2), the final move draws
    (R-3), no early end (R-1, R-4), every other option the thesis'; it is hanab-live without
    R-1 and R-4 (the table of differences)."""
    physical = make_config(4, "physical").options
    assert physical == RuleOptions(
        empty_hints=False,
        discard_at_max_hints=False,
        self_hints=False,
        strikeout_score="zero",
        end_when_no_points_possible=False,
        deal="blocks",
        draw_position="newest-last",
        initial_stop_check=True,
        draw_after_final_move=True,
    )
    assert physical == attrs.evolve(make_config(4, "hanab-live").options, end_when_no_points_possible=False,
                                    end_when_nothing_playable=False)
    config = make_config(3, "physical", "dutch-rainbow")
    assert (config.preset, config.variant, config.hand_size, config.max_hints, config.max_errors) == (
        "physical", "Dutch Rainbow (Example 2.12)", 5, 8, 3)
    with pytest.raises(ConfigError) as error:
        make_config(2, "physical", composition=[[3, 2, 2, 2, 1]])
    assert str(error.value).startswith("variant:")


def test_custom_composition_only_under_thesis() -> None:
    """[P-presets] custom compositions belong to the thesis preset."""
    with pytest.raises(ConfigError) as error:
        make_config(2, "hanab-live", composition=[[3, 2, 2, 2, 1]])
    assert str(error.value).startswith("variant:")


@pytest.mark.parametrize(
    "option, value",
    [
        ("empty_hints", True),
        ("discard_at_max_hints", True),
        ("strikeout_score", "fireworks"),
        ("end_when_no_points_possible", False),
        ("end_when_nothing_playable", False),
        ("deal", "round-robin"),
        ("draw_position", "newest-first"),
        ("initial_stop_check", False),
        ("draw_after_final_move", True),
    ],
)
def test_single_options_override_a_preset(option: str, value: Any) -> None:
    """[P-options, P-presets] one option may be overridden on top of a preset; the others
    keep the preset's values."""
    config = make_config(3, "hanab-live", **{option: value})
    assert getattr(config.options, option) == value
    base = attrs.asdict(make_config(3, "hanab-live").options)
    changed = attrs.asdict(config.options)
    assert {k: v for k, v in changed.items() if k != option} == {k: v for k, v in base.items() if k != option}


# ------------------------------------------------------------------ invalid configurations


def _config_error(**kwargs: Any) -> str:
    with pytest.raises(ConfigError) as error:
        make_config(**kwargs)
    return str(error.value)


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"players": 0}, "players"),
        ({"players": -2}, "players"),
        ({"players": True}, "players"),
        ({"players": 6, "preset": "hle"}, "players"),
        ({"players": 2, "preset": "tournament"}, "preset"),
        ({"players": 2, "variant": "pink"}, "variant"),
        ({"players": 2, "hand_size": 0}, "hand_size"),
        ({"players": 2, "hand_size": 26}, "hand_size"),
        ({"players": 11, "hand_size": 5}, "hand_size"),
        ({"players": 2, "composition": [[1, 1]], "hand_size": 2}, "hand_size"),
        ({"players": 2, "hints": -1}, "hints"),
        ({"players": 2, "hints": 2.5}, "hints"),
        ({"players": 2, "hints": None}, "hints"),
        ({"players": 2, "errors": 0}, "errors"),
        ({"players": 2, "errors": -1}, "errors"),
        ({"players": 2, "composition": [[3, -1, 2]]}, "suits[0].counts[1]"),
        ({"players": 1, "composition": [[1, 1], [1, "x"]], "hand_size": 1}, "suits[1].counts[1]"),
        ({"players": 1, "composition": [[1, 1], [1]], "hand_size": 1}, "composition"),
        ({"players": 1, "composition": [], "hand_size": 1}, "composition"),
        ({"players": 1, "composition": [[]], "hand_size": 1}, "composition[0]"),
        ({"players": 1, "composition": [[0, 0]], "hand_size": 1}, "suits"),
        ({"players": 2, "colour_clues": True}, "options.colour_clues"),
        ({"players": 2, "strikeout_score": "half"}, "options.strikeout_score"),
        ({"players": 2, "deal": "shuffled"}, "options.deal"),
        ({"players": 2, "draw_position": "middle"}, "options.draw_position"),
        ({"players": 2, "empty_hints": "yes"}, "options.empty_hints"),
        ({"players": 2, "initial_stop_check": 1}, "options.initial_stop_check"),
        ({"players": 2, "self_hints": True, "empty_hints": False}, "options.self_hints"),
        ({"players": 2, "preset": "hle", "self_hints": True}, "options.self_hints"),
        (
            {"players": 2, "composition": [[1, 1]], "hand_size": 1, "initial_stop_check": False},
            "options.initial_stop_check",
        ),
    ],
)
def test_invalid_fields_are_named(kwargs: dict[str, Any], field: str) -> None:
    """[2.9, 2.9-p, 2.9-h, 2.9-t0, 2.9-f0, 2.9-S0, 2.9-composition, P-options, P-presets,
    E-4, E-6, E-16, E-18] every invalid field raises ConfigError whose message starts with
    the field's name: p >= 1, h >= 1 with p h <= N, t0 a finite integer >= 0, f0 >= 1
    (or None for infinity), counts >= 0, known options with allowed values, self hints
    only with empty hints, no literal E-6 reading with h = 1 and an empty stack."""
    message = _config_error(**kwargs)
    assert message.startswith(field + ":"), message


def _classic_suits() -> tuple[Suit, ...]:
    return tuple(Suit(f"S{i}", f"{i}", CLASSIC_COUNTS, frozenset({i})) for i in range(5))


@pytest.mark.parametrize(
    "changes, field",
    [
        ({"values": 0}, "values"),
        ({"suits": ()}, "suits"),
        ({"colours": ("a", "a", "b", "c", "d")}, "colours"),
        ({"suits": _classic_suits()[:4] + (Suit("S0", "x", CLASSIC_COUNTS, frozenset({4})),)}, "suits"),
        ({"suits": _classic_suits()[:4] + (Suit("S4", "4", (1, 1), frozenset({4})),)}, "suits[4].counts"),
        ({"suits": _classic_suits()[:4] + (Suit("S4", "4", CLASSIC_COUNTS, frozenset({9})),)}, "suits[4].touched_by"),
        ({"preset": "nope"}, "preset"),
    ],
)
def test_direct_construction_is_validated(changes: dict[str, Any], field: str) -> None:
    """[2.9, 2.9-n, 2.9-k, V-suit] a GameConfig built directly is validated like
    make_config's: n >= 1, k >= 1, distinct names and colours, one count per value,
    existing clue colours."""
    fields: dict[str, Any] = {
        "values": 5,
        "suits": _classic_suits(),
        "colours": ("a", "b", "c", "d", "e"),
        "players": 2,
        "hand_size": 5,
        "max_hints": 8,
        "max_errors": 3,
    }
    GameConfig(**fields)  # the unchanged fields are valid
    fields.update(changes)
    with pytest.raises(ConfigError) as error:
        GameConfig(**fields)
    assert str(error.value).startswith(field + ":"), str(error.value)


def test_named_variant_must_have_its_composition() -> None:
    """[2.9-composition, V-names, T-trace] a named variant has a fixed composition: a
    configuration that names No Variant but holds six suits is refused (else its JSON
    form would describe a different game)."""
    six = make_config(2, variant="6-suits")
    with pytest.raises(ConfigError) as error:
        attrs.evolve(six, variant="No Variant")
    assert str(error.value).startswith("variant: the suits and clue colours are not those of 'No Variant'"), str(
        error.value
    )


# ------------------------------------------------------------------ JSON form


@pytest.mark.parametrize(
    "kwargs",
    [
        {"players": 2},
        {"players": 5, "preset": "hle", "hints": 6, "errors": None},
        {"players": 6, "preset": "hanab-live", "variant": "rainbow", "draw_position": "newest-first"},
        {"players": 3, "variant": "dutch-rainbow", "deal": "round-robin", "strikeout_score": "fireworks"},
        {"players": 1, "composition": [[4, 1, 1, 1]], "hand_size": 4, "hints": 0, "initial_stop_check": False},
    ],
)
def test_config_json_round_trip(kwargs: dict[str, Any]) -> None:
    """[T-trace] a configuration survives config_to_json / config_from_json unchanged."""
    config = make_config(**kwargs)
    assert config_from_json(config_to_json(config)) == config


@pytest.mark.parametrize(
    "data, prefix",
    [
        ([], "config:"),
        ({}, "config.players:"),
        ({"players": 2, "colour": 3}, "config.colour:"),
        ({"players": 2, "options": []}, "config.options:"),
        ({"players": 2, "options": {"deal": 5}}, "config.options.deal:"),
        pytest.param(
            {"players": 2, "preset": 3},
            "config.preset:",
        ),
        pytest.param(
            {"players": 2, "variant": ["No Variant"]},
            "config.variant:",
        ),
        ({"players": "2"}, "config.players:"),
        ({"players": 2, "errors": 0}, "config.errors:"),
    ],
)
def test_config_json_errors_name_the_field(data: object, prefix: str) -> None:
    """[T-trace, 2.9] a bad config object is rejected naming the field under ``config``."""
    with pytest.raises(ConfigError) as error:
        config_from_json(data)
    assert str(error.value).startswith(prefix), str(error.value)


def test_t0_and_f0_have_one_name_each() -> None:
    """[2.9-t0, 2.9-f0] t0 and f0 are ``max_hints`` and ``max_errors`` (a state's hints
    and errors are t and f); the configuration has no attributes of the old names."""
    config = make_config(3, hints=5, errors=2)
    assert (config.max_hints, config.max_errors) == (5, 2)
    assert not hasattr(config, "hints") and not hasattr(config, "errors")
