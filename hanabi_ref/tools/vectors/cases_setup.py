"""Case functions before the first move: configurations, seeded decks, step 1, and the
JSON forms of actions and traces [VEC-config, VEC-deal, VEC-initial, VEC-action,
VEC-trace].

Expected values are transcribed from ``spec/rules.md`` (the preset bundles of P-presets,
the hand sizes of 2.9-h, the variant tables of section 6, the SplitMix64 reference
outputs and the BLAKE2b derivation of D-seed and D-derive) and compared with what the
engine produced before the vector is yielded.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from typing import Any, Final

from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.formats.serial import canonical_json
from hanabi_ref.tools.vectors.build import Maker, trace_json
from hanabi_ref.tools.vectors.model import Run, Vector, deck_to_json, expect
from hanabi_ref.tools.vectors.scenario import drive, greedy, players_of, slug, variants_of
from hanabi_ref.engine.tables import tables_for

# [P-presets] transcribed: the options each preset sets, on top of the thesis defaults
# of the P-options table.
THESIS_OPTIONS: Final[dict[str, Any]] = {
    "empty_hints": True,
    "discard_at_max_hints": True,
    "self_hints": False,
    "strikeout_score": "zero",
    "end_when_no_points_possible": False,
    "end_when_nothing_playable": False,
    "deal": "blocks",
    "draw_position": "newest-last",
    "initial_stop_check": True,
    "draw_after_final_move": True,
}
PRESET_OPTIONS: Final[dict[str, dict[str, Any]]] = {
    "thesis": {},
    "hle": {"empty_hints": False, "discard_at_max_hints": False, "draw_after_final_move": False},
    "hanab-live": {"empty_hints": False, "discard_at_max_hints": False, "end_when_no_points_possible": True,
                   "end_when_nothing_playable": True},
}
PRESET_PLAYERS: Final[dict[str, tuple[int, int | None]]] = {"thesis": (1, None), "hle": (2, 5), "hanab-live": (2, 6)}
PRESET_VARIANTS: Final[dict[str, tuple[str, ...] | None]] = {
    "thesis": None,
    "hle": ("No Variant",),
    "hanab-live": ("No Variant", "6 Suits", "Black (6 Suits)", "Rainbow (6 Suits)"),
}

# [P-options] transcribed: each option's values and the clauses it selects between.
OPTION_VALUES: Final[dict[str, tuple[tuple[Any, ...], tuple[str, ...]]]] = {
    "empty_hints": ((True, False), ("2.16-2a-empty", "E-20")),
    "discard_at_max_hints": ((True, False), ("2.16-2b-token", "E-2")),
    "self_hints": ((True, False), ("2.16-2a-target", "E-4")),
    "strikeout_score": (("zero", "fireworks"), ("2.16-3-strikeout",)),
    "end_when_no_points_possible": ((True, False), ("R-1",)),
    "end_when_nothing_playable": ((True, False), ("R-4",)),
    "deal": (("blocks", "round-robin"), ("2.16-1-deal", "E-1")),
    "draw_position": (("newest-last", "newest-first"), ("R-2",)),
    "initial_stop_check": ((True, False), ("2.16-3-last-round", "E-6")),
    "draw_after_final_move": ((True, False), ("2.16-2b-draw", "R-3")),
}

# Section 6 transcribed: (name or None, counts, clue colours touching it) of the sixth
# suit, the number of clue colours, N, and the clauses of each named variant.
CLASSIC, SINGLE = [3, 2, 2, 2, 1], [1, 1, 1, 1, 1]
BASE_SUITS: Final = ("Red", "Yellow", "Green", "Blue", "Purple")
SIXTH_SUITS: Final[dict[str, tuple[tuple[str | None, list[int], list[int]] | None, int, int, tuple[str, ...]]]] = {
    "No Variant": (None, 5, 50, ("V-no-variant",)),
    "6 Suits": (("Teal", CLASSIC, [5]), 6, 60, ("V-6-suits", "E-24")),
    "Black (6 Suits)": (("Black", SINGLE, [5]), 6, 55, ("V-black",)),
    "Rainbow (6 Suits)": (("Rainbow", CLASSIC, [0, 1, 2, 3, 4]), 5, 60, ("V-rainbow", "E-24")),
    "Dutch Rainbow (Example 2.12)": ((None, SINGLE, [5]), 6, 55, ("V-dutch-rainbow", "E-24")),
}


def spec_hand_size(players: int) -> int:
    """[2.9-h] 5 cards for p <= 3, 4 for p = 4, 5, and 3 for p >= 6."""
    return 5 if players <= 3 else 4 if players <= 5 else 3


def is_admitted(preset: str, players: int, variant: str = "No Variant") -> bool:
    """[P-presets] whether the preset admits the player count and the variant."""
    low, high = PRESET_PLAYERS[preset]
    variants = PRESET_VARIANTS[preset]
    return low <= players and (high is None or players <= high) and (variants is None or variant in variants)


# ------------------------------------------------------------------ configurations


def config_presets(out: Maker) -> Iterator[Vector]:
    """[P-presets, P-options, 2.9-p, 2.9-h, 2.9-t0, 2.9-f0] a preset and a player count
    resolve to the preset's options, t0 = 8, f0 = 3 and the usual hand size; a player
    count the preset does not admit is refused naming ``players``."""
    high = PRESET_PLAYERS[out.preset][1] or 7
    for players in range(0, high + 2):
        given = {"preset": out.preset, "players": players}
        clauses = ("P-presets", "P-options", "2.9-p", "2.9-h", "2.9-t0", "2.9-f0")
        if not is_admitted(out.preset, players):
            yield out.config(f"players-{players}", clauses, given, f"{players} players are refused", "$.players")
            continue
        vector = out.config(f"players-{players}", clauses, given, f"{players} players: the preset's defaults")
        resolved = vector.data["config"]
        expect(resolved["options"] == THESIS_OPTIONS | PRESET_OPTIONS[out.preset], "P-presets: the preset's options")
        expect((resolved["hints"], resolved["errors"]) == (8, 3), "P-presets: t0 = 8 and f0 = 3 by default")
        expect(resolved["hand_size"] == spec_hand_size(players), "2.9-h: the usual hand size")
        yield vector


def config_variants(out: Maker) -> Iterator[Vector]:
    """[V-names, V-suit, V-no-variant, V-6-suits, V-black, V-rainbow, V-dutch-rainbow,
    E-24, 2.9-n, 2.9-k, 2.9-cards, 2.9-composition] every variant name, short or long, in
    any letter case, resolves to the suits of section 6, or is refused by a preset that
    does not admit it; an unknown name is refused."""
    for variant, (sixth, colours, size, ids) in SIXTH_SUITS.items():
        clauses = ("V-names", "V-suit", *ids, "2.9-n", "2.9-k", "2.9-cards", "2.9-composition")
        for name in (slug(variant), variant, variant.upper()):
            given = {"preset": out.preset, "players": 2, "variant": name}
            label = f"{slug(variant)}-as-{name.replace(' ', '_')}"
            if not is_admitted(out.preset, 2, variant):
                yield out.config(label, clauses, given, f"{variant} is refused", "$.variant")
                continue
            vector = out.config(label, clauses, given, f"{name!r} is {variant}")
            _check_variant(vector.data["derived"], sixth, colours, size)
            yield vector
    given = {"preset": out.preset, "players": 2, "variant": "Mauve (5 Suits)"}
    yield out.config("unknown-name", ("V-names",), given, "an unknown variant name is refused", "$.variant")


def _check_variant(derived: dict[str, Any], sixth: tuple[str | None, list[int], list[int]] | None, colours: int, size: int) -> None:
    """[V-no-variant .. V-dutch-rainbow, V-suit] five classic suits with their own colours,
    then the sixth suit of the table; n = 5; the number of clue colours and N."""
    suits = derived["suits"]
    expect(derived["values"] == 5, "2.9-n: every named variant has n = 5")
    expect([s["name"] for s in suits[:5]] == list(BASE_SUITS), "V-no-variant: the five base suits")
    expect(all(s["counts"] == CLASSIC and s["touched_by"] == [i] for i, s in enumerate(suits[:5])), "V-suit: classic counts, own colour")
    expect(len(suits) == (5 if sixth is None else 6), "2.9-k: the number of suits")
    if sixth is not None:
        name, counts, touched_by = sixth
        expect(suits[5]["counts"] == counts and suits[5]["touched_by"] == touched_by, "V-suit: the sixth suit")
        expect(name is None or suits[5]["name"] == name, "V-names: the sixth suit's name")
    expect(len(derived["colours"]) == colours and derived["deck_size"] == size, "2.9-composition: clue colours and N")


NUMBERS: Final[tuple[tuple[str, dict[str, Any], str | None, tuple[str, ...]], ...]] = (
    ("t0-zero", {"hints": 0}, None, ("2.9-t0",)),
    ("t0-negative", {"hints": -1}, "$.hints", ("2.9-t0",)),
    ("t0-infinite", {"hints": None}, "$.hints", ("2.9-t0", "E-16")),
    ("f0-one", {"errors": 1}, None, ("2.9-f0",)),
    ("f0-infinite", {"errors": None}, None, ("2.9-f0", "E-18")),
    ("f0-zero", {"errors": 0}, "$.errors", ("2.9-f0", "E-18")),
    ("h-one", {"hand_size": 1}, None, ("2.9-h",)),
    ("h-zero", {"hand_size": 0}, "$.hand_size", ("2.9-h",)),
    ("h-whole-deck", {"hand_size": 25}, None, ("2.9-S0",)),
    ("h-beyond-deck", {"hand_size": 26}, "$.hand_size", ("2.9-S0",)),
    ("p-zero", {"players": 0}, "$.players", ("2.9-p",)),
    ("p-string", {"players": "2"}, "$.players", ("2.9-p",)),
)

COMPOSITIONS: Final[tuple[tuple[str, list[list[int]], str | None, tuple[str, ...]], ...]] = (
    ("composition-3x2", [[1, 1, 1], [2, 0, 1]], None, ("2.9-composition", "2.9-k", "2.9-n")),
    ("composition-one-value", [[2], [1]], None, ("2.9-composition", "2.9-n")),
    ("composition-ragged", [[1, 1], [1]], "$.composition", ("2.9-composition",)),
    ("composition-negative", [[1, -1]], "$.composition[0][1]", ("2.9-composition",)),
    ("composition-empty", [], "$.composition", ("2.9-composition", "2.9-k")),
)


def config_numbers(out: Maker) -> Iterator[Vector]:
    """[2.9-t0, 2.9-f0, 2.9-h, 2.9-S0, 2.9-p, 2.9-composition, E-16, E-18] the numbers of
    Definition 2.9: t0 finite and >= 0, f0 >= 1 or null, h >= 1 with p*h <= N, p >= 1;
    a custom composition (thesis only) with one count list of length n per suit."""
    for label, change, field, clauses in NUMBERS:
        given = {"preset": out.preset, "players": 2} | change
        vector = out.config(label, clauses, given, canonical_json(change), field)
        if field is None and "hand_size" in change:
            expect(vector.data["derived"]["hand_size"] == change["hand_size"], "2.9-h: an explicit hand size")
        yield vector
    for label, composition, field, clauses in COMPOSITIONS:
        given = {"preset": out.preset, "players": 2, "hand_size": 1, "composition": composition}
        if out.preset != "thesis" and field is None:
            field, clauses = "$.variant", (*clauses, "P-presets")
        vector = out.config(label, clauses, given, f"composition {canonical_json(composition)}", field)
        if field is None:
            derived = vector.data["derived"]
            expect([s["counts"] for s in derived["suits"]] == composition, "2.9-composition: the counts as given")
            expect(derived["deck_size"] == sum(map(sum, composition)), "2.9-S0: N is the sum of the counts")
        yield vector


def config_options(out: Maker) -> Iterator[Vector]:
    """[P-options, P-presets, E-4, E-6, PR-legal-action] every option at every value on
    top of the preset; self_hints needs empty_hints; the literal reading of E-6 is refused
    with h = 1 when the deal takes the whole stack; bad names and values are refused."""
    base = THESIS_OPTIONS | PRESET_OPTIONS[out.preset]
    for option, (values, clauses) in OPTION_VALUES.items():
        for value in values:
            given = {"preset": out.preset, "players": 2, "options": {option: value}}
            conflict = option == "self_hints" and value and not base["empty_hints"]
            field = f"$.options.{option}" if conflict else None
            vector = out.config(f"{option}-{value}".lower(), ("P-options", *clauses), given, f"{option} = {canonical_json(value)}", field)
            expect(field is not None or vector.data["config"]["options"] == base | {option: value}, "P-presets: one option overridden")
            yield vector
    for label, options in (("unknown-option", {"pass": True}), ("bad-deal", {"deal": "shuffled"}), ("bad-bool", {"empty_hints": "yes"})):
        given = {"preset": out.preset, "players": 2, "options": options}
        yield out.config(label, ("P-options",), given, f"options {canonical_json(options)} are refused", f"$.options.{next(iter(options))}")
    yield from _literal_e6_configs(out)


def _literal_e6_configs(out: Maker) -> Iterator[Vector]:
    """[E-6, PR-legal-action] initial_stop_check = false with N = p*h is accepted for
    h > 1 and refused for h = 1 (the first player would move again without a card)."""
    options = {"initial_stop_check": False}
    given = {"preset": out.preset, "players": 2, "hand_size": 25, "options": options}
    yield out.config("literal-e6-h25", ("E-6", "2.9-S0"), given, "N = p*h with the literal reading, h = 25")
    if out.preset == "thesis":
        given = {"preset": "thesis", "players": 1, "hand_size": 1, "composition": [[1]], "options": options}
        yield out.config("literal-e6-h1", ("E-6", "PR-legal-action"), given, "N = p*h = 1, literal reading", "$.options.initial_stop_check")


# ------------------------------------------------------------------ dealing


SPLITMIX_REFERENCE: Final = {  # D-seed's reference outputs, transcribed
    0: (0xE220A8397B1DCDAF,),
    1234567: (6457827717110365317, 3203168211198807973, 9817491932198370423),
}


def spec_derive(seed: int, label: int) -> int:
    """[D-derive] BLAKE2b, 8-byte digest, keyed ``hanabi_ref/derive``, over the seed and the
    label as 8-byte little-endian words; the digest read little-endian."""
    data = seed.to_bytes(8, "little") + label.to_bytes(8, "little")
    return int.from_bytes(hashlib.blake2b(data, digest_size=8, key=b"hanabi_ref/derive").digest(), "little")


def deal_seeds(out: Maker) -> Iterator[Vector]:
    """[D-seed, D-canonical, D-derive, 2.9-composition] a seed's deck: the canonical order
    (suit by suit, value by value, copies together), SplitMix64's first outputs (the spec's
    reference values for seeds 0 and 1234567), the shuffle, and each seat's seed."""
    for variant in variants_of(out.preset):
        for seed in (0, 1234567, 2**64 - 1) if variant == "No Variant" else (7,):
            config = make_config(2, out.preset, variant)
            vector = out.deal(f"{slug(variant)}-seed-{seed}", ("D-canonical", "D-derive", "2.9-composition"), config, seed, f"{variant}, seed {seed}")
            _check_canonical(vector.data["canonical"], [list(s.counts) for s in config.suits])
            reference = SPLITMIX_REFERENCE.get(seed, ())
            expect(tuple(vector.data["outputs"][: len(reference)]) == reference, "D-seed: the reference outputs")
            expect(vector.data["seat_seeds"] == [spec_derive(seed, j + 1) for j in range(2)], "D-derive: seat j gets derive(s, j + 1)")
            yield vector
    if out.preset == "thesis":
        config = make_config(1, composition=[[2, 1, 0], [1, 1, 1]], hand_size=2)
        vector = out.deal("custom-seed-3", ("D-canonical", "D-derive", "2.9-composition"), config, 3, "a custom composition")
        _check_canonical(vector.data["canonical"], [[2, 1, 0], [1, 1, 1]])
        yield vector


def _check_canonical(canonical: list[dict[str, int]], counts: list[list[int]]) -> None:
    """[D-canonical] suit by suit, value by value, each identity as often as its count."""
    expected = [
        {"suit": suit, "value": value}
        for suit, row in enumerate(counts)
        for value, count in enumerate(row, start=1)
        for _ in range(count)
    ]
    expect(canonical == expected, "D-canonical: the canonical order")


# ------------------------------------------------------------------ step 1


def initial_states(out: Maker) -> Iterator[Vector]:
    """[2.16, 2.16-1, 2.16-1-deal, E-1, E-22, 2.14, 2.14-initial, 2.9-cards, 2.13, 2.13-1,
    2.13-2, 2.13-3, 2.13-4, 2.13-conservation, 2.13-hand-size, E-13, E-11] step 1 for every
    admitted player count and variant: blocks of h, seat 0 first; K_c = Cards(H); D and F
    empty; t = t0; the legal actions (in the thesis (p-1)(n+c)+2h of them)."""
    clauses = ("2.16", "2.16-1-deal", "E-1", "E-22", "2.14", "2.14-initial", "2.9-cards", "2.13", "2.13-1",
               "2.13-2", "2.13-3", "2.13-4", "2.13-conservation", "2.13-hand-size", "E-13", "E-11", "2.16-actions")
    for players in players_of(out.preset):
        config = make_config(players, out.preset)
        yield _initial(out, f"p{players}", clauses, config, 100 + players)
    for variant in variants_of(out.preset)[1:]:
        config = make_config(3, out.preset, variant)
        yield _initial(out, f"p3-{slug(variant)}", (*clauses, "V-suit"), config, 300)
    if out.preset == "thesis":
        for deal, position in (("round-robin", "newest-last"), ("blocks", "newest-first"), ("round-robin", "newest-first")):
            config = make_config(3, deal=deal, draw_position=position)
            yield _initial(out, f"p3-{deal}-{position}", (*clauses, "R-2", "E-15", "P-options"), config, 3)


def _initial(out: Maker, label: str, clauses: tuple[str, ...], config: GameConfig, seed: int) -> Vector:
    """One initial state; under the thesis preset the legal actions number
    (p - 1)(n + c) + 2h [E-11]."""
    vector = out.initial(label, clauses, config, deck_from_seed(config, seed), f"step 1, {config.players} players, {config.variant}")
    if out.preset == "thesis":
        expected = (config.players - 1) * (config.values + len(config.colours)) + 2 * config.hand_size
        expect(len(vector.data["legal"]) == expected, "E-11: (p - 1)(n + c) + 2h actions with t >= 1")
    return vector


def empty_deal(out: Maker) -> Iterator[Vector]:
    """[E-6, 2.16-3-last-round, 2.9-S0] when the deal takes the whole stack, step 3 runs
    once after step 1 and the last round starts at once: R = p before the first move
    (Example 3.12's one player holding the stack (1, 2, 3, 4) under the thesis)."""
    if out.preset == "thesis":
        config = make_config(1, composition=[[1, 1, 1, 1]], hand_size=4)
        vector = out.initial("example-3.12", ("E-6", "2.16-3-last-round", "2.9-S0"), config, tables_for(config).canonical_deck, "Example 3.12: R = 1 at once")
    else:
        config = make_config(2, out.preset, hand_size=25)
        vector = out.initial("p2-h25", ("E-6", "2.16-3-last-round", "2.9-S0"), config, deck_from_seed(config, 6), "N = p*h: R = p at once")
    expect(vector.data["state"]["remaining"] == config.players and vector.data["state"]["deck_size"] == 0, "E-6: R = p at once")
    yield vector


def bad_decks(out: Maker) -> Iterator[Vector]:
    """[D-explicit, 2.9-S0, 2.9-cards, 2.9-composition] an explicit deck must be a
    permutation of the composition: a missing card, a card too many of one identity, a
    card outside Cards(H) are refused."""
    config = make_config(2, out.preset)
    deck = deck_to_json(deck_from_seed(config, 11), config)
    red_five = next(i for i, card in enumerate(deck) if card == {"suit": 0, "value": 5})
    cases: tuple[tuple[str, list[dict[str, int]], str], ...] = (
        ("missing-card", deck[:-1], "49 cards"),
        ("fourth-red-1", deck[:red_five] + [{"suit": 0, "value": 1}] + deck[red_five + 1:], "a fourth red 1 for the red 5"),
        ("suit-outside", deck[:-1] + [{"suit": config.suit_count, "value": 1}], "a card of suit k"),
        ("value-outside", deck[:-1] + [{"suit": 0, "value": 6}], "a card of value n + 1"),
    )
    for label, cards, description in cases:
        yield out.bad_deck(label, ("2.9-S0", "2.9-cards", "2.9-composition"), config, cards, description)


# ------------------------------------------------------------------ JSON forms


ACTIONS: Final[tuple[tuple[str, object, str | None], ...]] = (
    ("hint-value", {"type": "hint", "target": 1, "kind": "value", "value": 3}, None),
    ("hint-colour", {"type": "hint", "target": 0, "kind": "colour", "value": 4}, None),
    ("discard", {"type": "discard", "slot": 0}, None),
    ("play", {"type": "play", "slot": 4}, None),
    ("not-an-object", "play", "$"),
    ("unknown-type", {"type": "pass"}, "$.type"),
    ("missing-slot", {"type": "play"}, "$.slot"),
    ("negative-slot", {"type": "discard", "slot": -1}, "$.slot"),
    ("boolean-slot", {"type": "play", "slot": True}, "$.slot"),
    ("extra-field", {"type": "play", "slot": 0, "card": 3}, "$.card"),
    ("kind-color", {"type": "hint", "target": 1, "kind": "color", "value": 0}, None),  # read as "colour"
    ("kind-hue", {"type": "hint", "target": 1, "kind": "hue", "value": 0}, "$.kind"),
)


def action_json(out: Maker) -> Iterator[Vector]:
    """[T-actions] the JSON form of actions: exactly the listed fields, seats and slots
    counted from 0, the kind "color" read as "colour"; anything else is refused naming the
    field."""
    for label, given, field in ACTIONS:
        vector = out.action(label, ("T-actions",), given, canonical_json(given), field)
        canonical = given | {"kind": "colour"} if isinstance(given, dict) and given.get("kind") == "color" else given
        expect(field is not None or vector.data["action"] == canonical,
               "T-actions: a well-formed action is its own canonical form (\"color\" written \"colour\")")
        yield vector


def traces(out: Maker) -> Iterator[Vector]:
    """[T-trace, T-actions] a trace replays to its final state; a malformed trace or an
    illegal action is refused naming its place (``actions[6]``)."""
    config = make_config(2, out.preset)
    run = drive(Run.start(config, deck_from_seed(config, 5)), greedy, lambda r: len(r.actions) == 6)
    good = trace_json(run, seed=5)
    yield out.trace("replay", ("T-actions",), good, "a seeded game of six moves")
    bad_action = good | {"actions": good["actions"] + [{"type": "hint", "target": run.state.current_player, "kind": "value", "value": 1}]}
    yield out.trace("illegal-action", ("E-4",), bad_action, "a self hint at move 6", {"field": "$.actions[6]", "clause": "2.16-2a-target"})
    negative = good | {"actions": good["actions"][:2] + [{"type": "play", "slot": -1}]}
    yield out.trace("malformed-action", ("T-actions",), negative, "slot -1", {"field": "$.actions[2].slot"})
    yield out.trace("unknown-field", (), good | {"comment": "hi"}, "a field traces do not have", {"field": "$.comment"})
    yield out.trace("bad-version", (), good | {"version": 2}, "version 2", {"field": "$.version"})
    swapped = good | {"deck": good["deck"][:-1] + [good["deck"][0] if good["deck"][0] != good["deck"][-1] else good["deck"][1]]}
    if swapped["deck"] != good["deck"]:
        yield out.trace("wrong-deck", ("D-explicit",), swapped, "a deck with one card replaced", {"field": "$.deck"})


CASES: Final = (
    config_presets, config_variants, config_numbers, config_options, deal_seeds, initial_states,
    empty_deal, bad_decks, action_json, traces,
)
"""The case functions of this module, in the order of generation [VEC-cases]."""
