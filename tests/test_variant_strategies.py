"""The strategies under hanab.live's variants [S-variants]: the heuristic strategies
(``thesis`` with its hint rules, ``simple``) play every family of the engine with legal
moves only; under classic touch they give the classic hints; the convention strategies
refuse every variant whose touch is not classic; a person's move names a variant's clue
colours [SH-parse].

What a hint touches is read here from the configuration's masks through the engine's own
reading (:func:`hanabi_ref.engine.legality.hint_mask`), and the classic hints are written from
the thesis' rule (4.6-hint-3: the value if not known, else the suit's first colour)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.actions import Hint
from hanabi_ref.engine.cards import Identity
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.legality import hint_mask, is_legal
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.show import ParseError, parse_action
from hanabi_ref.players.strategies import SPECS, factory_for
from hanabi_ref.players.strategies.knowledge import is_classic_touch
from hanabi_ref.players.strategies.simple import SimpleStrategy
from hanabi_ref.players.strategies.thesis import ThesisStrategy
from hanabi_ref.engine.transition import initial_state
from hanabi_ref.engine.view import make_view
from tests.processes import run_process
from hanabi_ref.engine.tables import tables_for

ROOT = Path(__file__).resolve().parents[1]

VARIANTS = (
    ("Pink (5 Suits)", 3), ("Ambiguous & Null (5 Suits)", 4), ("Rainbow-Ones & Pink (5 Suits)", 2),
    ("Color Blind (5 Suits)", 5), ("Number Mute (5 Suits)", 3), ("Odds and Evens (5 Suits)", 4),
    ("Deceptive-Ones & White (3 Suits)", 2), ("Muddy-Rainbow-Ones (3 Suits)", 3), ("Prism (5 Suits)", 4),
    ("Funnels & Dark Prism (6 Suits)", 5), ("Chimneys & Rainbow (4 Suits)", 2), ("Scarce Ones & Gray (6 Suits)", 3),
    ("Light-Pink-Fives & Prism (3 Suits)", 2), ("Omni-Ones & White (6 Suits)", 4), ("Black (5 Suits)", 5),
    ("Dual-Color (6 Suits)", 3), ("Critical Fours (5 Suits)", 2), ("Color Mute (4 Suits)", 3),
    ("Totally Blind (5 Suits)", 4), ("Number Blind (4 Suits)", 2), ("Brown (6 Suits)", 5),
    ("Orange (5 Suits)", 3), ("Pink & Dark Orange (6 Suits)", 4), ("Special Mix (6 Suits)", 4),
    ("Extremely Ambiguous (4 Suits)", 2), ("Matryoshka (6 Suits)", 3), ("Valentine Mix (5 Suits)", 5),
    ("Pink-Fives (4 Suits)", 4), ("Cocoa Rainbow (5 Suits)", 3),
)
"""(hanab.live name, players): every touch and count family of VAR-engine, 3 to 6 suits,
2 to 5 players."""

HEURISTICS: tuple[tuple[str, Mapping[str, object]], ...] = (
    ("simple", {}),
    ("thesis", {}),
    ("thesis", {"rho_h": 4, "rehint": "attribute"}),
    ("thesis", {"rho_h": 1}),
    ("thesis", {"rho_h": 2, "volume": "informed", "ties": "random"}),
)
"""The heuristic strategies with each hint rule (4.6-hint-1 to 4.6-hint-4, S-first-card)."""

CONVENTIONS = ("hat", "hat-classic", "recommendation", "info", "info-source", "info-search", "learned-recommendation")

CLASSIC_CONFIGS = (
    make_config(3, "hanab-live", "No Variant"),
    make_config(3, "hanab-live", "6 Suits"),
    make_config(3, "hanab-live", "Black (6 Suits)"),
    make_config(3, "hanab-live", "Rainbow (6 Suits)"),
    make_config(3, "thesis", "dutch-rainbow"),
    make_config(3, composition=[[3, 2, 2, 2, 1], [1, 1, 1, 1, 1], [2, 2, 2, 2, 2]]),
)


def variant_config(name: str, players: int) -> GameConfig:
    return make_config(players, "hanab-live", name)


def is_blind(config: GameConfig, hint: Hint) -> bool:
    """[VAR-blind] Color Blind makes colour clues blind, Number Blind rank clues."""
    tables = tables_for(config)
    rules = tables.model.rules if tables.model is not None else None
    return rules is not None and (rules.colour_blind if hint.kind == "colour" else rules.number_blind)


# ------------------------------------------------------------------ whole games


@pytest.mark.checks("S-variants", "4.6-hint")
@pytest.mark.parametrize(("name", "players"), VARIANTS)
def test_heuristics_play_every_variant_legally(name: str, players: int) -> None:
    """[S-variants, 4.6-hint, VAR-engine-masks, VAR-clue-ranks] a game per strategy
    (three more in the deep set, below) under hanab-live rules with contracts on: each
    ends without an error (an illegal hint raises), scores 0..max, and every hint named a
    rank clue of the variant and touched a card of its target, unless its clue type is
    blind (VAR-blind: only the first legal action of S-fallback gives one)."""
    play_the_heuristics(name, players, range(1))


def play_the_heuristics(name: str, players: int, seeds: range) -> None:
    """The games of the test above, one per strategy and seed."""
    config = variant_config(name, players)
    for strategy, params in HEURISTICS:
        factory = factory_for(strategy, params)
        for seed in seeds:
            record = play_game(config, factory, seed=seed)
            assert 0 <= record.score <= tables_for(config).max_score
            for event in record.final.history:
                if isinstance(event.action, Hint):
                    assert event.action.kind == "colour" or event.action.subject in tables_for(config).clue_values
                    assert event.touched or is_blind(config, event.action), (name, strategy, params, seed, event.action)


@pytest.mark.deep
@pytest.mark.parametrize(("name", "players"), VARIANTS)
def test_heuristics_play_every_variant_legally_at_length(name: str, players: int) -> None:
    """The games above with three more seeds per strategy."""
    play_the_heuristics(name, players, range(1, 4))


# ------------------------------------------------------------------ the hint that tells a card


def telling_hints(config: GameConfig, card: int, known: int) -> tuple[Hint | None, Hint | None]:
    """(thesis rule 3's hint, simple's hint) on ``card`` held by seat 1 with knowledge
    set ``known`` [4.6-hint-3, S-variants]."""
    thesis = factory_for("thesis")(config, 0, 0)
    assert isinstance(thesis, ThesisStrategy)
    view = make_view(initial_state(config, tables_for(config).canonical_deck), 0)
    return thesis._telling_hint(1, Identity(card), known), SimpleStrategy._informative_hint(view, 1, Identity(card), known)


@pytest.mark.checks("S-variants")
@settings(max_examples=150, deadline=None)  # 450 more in the deep set
@given(st.sampled_from(VARIANTS), st.data())
def test_a_hint_on_a_card_touches_it(variant: tuple[str, int], data: st.DataObject) -> None:
    """[S-variants, 2.16-2a-empty, VAR-clue-ranks] the hint either strategy gives to tell a
    card touches that card (so it is legal wherever empty hints are refused) and names a
    rank clue of the variant; thesis' hint shrinks the card's knowledge set, or is the
    colour of a card whose suit its holder does not know."""
    config = variant_config(*variant)
    card = data.draw(st.integers(0, config.values * config.suit_count - 1))
    known = data.draw(st.integers(0, tables_for(config).all_cards_mask)) | 1 << card
    for hint in telling_hints(config, card, known):
        if hint is not None:
            assert hint_mask(tables_for(config), hint) >> card & 1
            assert hint.kind == "colour" or hint.subject in tables_for(config).clue_values
    thesis_hint = telling_hints(config, card, known)[0]
    if thesis_hint is not None:
        n = config.values
        suit_unknown = known & ~(((1 << n) - 1) << (card - card % n))
        assert known & ~hint_mask(tables_for(config), thesis_hint) or (thesis_hint.kind == "colour" and suit_unknown)


@pytest.mark.checks("S-variants")
@settings(max_examples=150, deadline=None)  # 450 more in the deep set
@given(st.sampled_from(CLASSIC_CONFIGS), st.data())
def test_classic_touch_gives_the_classic_hints(config: GameConfig, data: st.DataObject) -> None:
    """[S-variants, 4.6-hint-3] under classic touch the hints are the thesis' rule: the
    value if the holder does not know it, else (thesis: while the suit is not known) the
    first colour of the suit's ``touched_by``; simple falls back on the value."""
    n = config.values
    card = data.draw(st.integers(0, n * config.suit_count - 1))
    known = data.draw(st.integers(0, tables_for(config).all_cards_mask)) | 1 << card
    value, suit = card % n + 1, card // n
    same_value = sum(1 << (y * n + value - 1) for y in range(config.suit_count))
    same_suit = sum(1 << (suit * n + a) for a in range(n))
    colours = sorted(config.suits[suit].touched_by)
    if known & ~same_value:
        expected: tuple[Hint | None, Hint | None] = (Hint(1, "value", value), Hint(1, "value", value))
    else:
        colour = Hint(1, "colour", colours[0]) if colours else None
        expected = (colour if known & ~same_suit else None, colour or Hint(1, "value", value))
    assert telling_hints(config, card, known) == expected


# ------------------------------------------------------------------ the convention strategies


@pytest.mark.checks("S-variants", "H-configs", "I-configs")
@pytest.mark.parametrize("strategy", CONVENTIONS)
@pytest.mark.parametrize("name", ["Pink (5 Suits)", "Color Blind (5 Suits)", "Orange (5 Suits)", "Black (5 Suits)",
                                  "Odds and Evens (5 Suits)", "Dual-Color (6 Suits)"])
def test_convention_strategies_refuse_variants(strategy: str, name: str) -> None:
    """[S-variants, H-configs, I-configs, RL-train-team] the convention strategies refuse
    a variant whose touch is not classic, and a named variant outside the four they were
    written for, before any game, with one line naming the variant."""
    config = variant_config(name, 4)
    with pytest.raises(ConfigError) as caught:
        SPECS[strategy].check_config(config)
    message = str(caught.value)
    assert "\n" not in message and repr(name) in message and message.startswith(f"strategy {strategy!r}: ")


@pytest.mark.parametrize("name", ["No Variant", "6 Suits", "Black (6 Suits)", "Rainbow (6 Suits)"])
@pytest.mark.parametrize("strategy", ["hat", "hat-classic", "recommendation", "info", "info-source", "info-search"])
def test_convention_strategies_keep_their_variants(strategy: str, name: str) -> None:
    """[S-variants, H-configs, I-configs] the four classic variants are still played."""
    SPECS[strategy].check_config(variant_config(name, 4))


def test_classic_touch() -> None:
    """[S-variants, VAR-existing] classic touch: the four variants of spec/rules.md, the
    thesis' Dutch Rainbow, custom compositions, and the hanab.live variants that only
    change counts or share colours between whole suits; not a variant with a rank clue
    missing or touching other ranks, a colour touching part of a suit, a suit no colour
    touches, blind clues or an orange suit."""
    classic = [*CLASSIC_CONFIGS, *(variant_config(name, 3) for name in (
        "Black (5 Suits)", "Critical Fours (5 Suits)", "Dual-Color (6 Suits)", "Rainbow (5 Suits)"))]
    other = [variant_config(name, 3) for name in (
        "Pink (5 Suits)", "Brown (5 Suits)", "Number Mute (5 Suits)", "Odds and Evens (5 Suits)", "Prism (5 Suits)",
        "Rainbow-Ones (5 Suits)", "White (5 Suits)", "Color Blind (5 Suits)", "Color Mute (4 Suits)",
        "Orange (5 Suits)", "Funnels (5 Suits)")]
    assert all(is_classic_touch(config) for config in classic)
    assert not any(is_classic_touch(config) for config in other)


@pytest.mark.checks("S-variants")
def test_command_line_refusal_exits_2() -> None:
    """[S-variants, S-params] on the command line the refusal is a usage error: exit 2,
    one line, no traceback."""
    done = run_process(
        [sys.executable, "-m", "hanabi_ref.cli", "simulate", "--strategy", "hat", "--players", "4",
         "--rules", "hanab-live", "--variant", "Pink (5 Suits)", "--games", "1", "--jobs", "1"],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "S-variants" in lines[0] and "Pink (5 Suits)" in lines[0], done.stderr


# ------------------------------------------------------------------ a person's move


def test_a_persons_hint_names_the_variants_colours() -> None:
    """[SH-parse, S-variants, VAR-own-colour] a variant's clue colours parse by name
    (pink, brown, black), a suit's name that is no clue colour does not (tomato is touched
    by red), and a value parses even where it is no rank clue: the engine refuses it
    (VAR-clue-ranks)."""
    mix = variant_config("Special Mix (6 Suits)", 3)
    assert [parse_action(mix, f"hint 1 {name}") for name in ("black", "Pink", "BROWN")] == [
        Hint(1, "colour", mix.colours.index(name)) for name in ("Black", "Pink", "Brown")]
    ambiguous = variant_config("Ambiguous & Null (5 Suits)", 3)
    with pytest.raises(ParseError):
        parse_action(ambiguous, "hint 1 tomato")
    assert parse_action(ambiguous, "hint 1 red") == Hint(1, "colour", 0)
    mute = variant_config("Number Mute (5 Suits)", 3)
    hint = parse_action(mute, "hint 1 3")
    assert hint == Hint(1, "value", 3)
    assert not is_legal(initial_state(mute, tables_for(mute).canonical_deck), hint)


def test_a_shared_suit_letter_names_no_colour() -> None:
    """[SH-parse, S-variants, VAR-dual-colour] two suits of one letter touched by
    different colours (Tangerine and Tan) leave the letter naming no colour; a letter of
    one suit touched by one colour names it (s2 of a custom composition)."""
    dual = variant_config("Dual-Color (6 Suits)", 3)
    with pytest.raises(ParseError):
        parse_action(dual, "hint 1 t")
    custom = make_config(2, composition=[[3, 2, 2, 2, 1]] * 3)
    assert parse_action(custom, "hint 1 s2") == Hint(1, "colour", 1)


@pytest.mark.checks("S-variants")
@pytest.mark.parametrize("strategy", ["thesis", "simple"])
def test_heuristics_refuse_up_or_down(strategy: str) -> None:
    """[S-variants, VAR-engine-up-or-down] the heuristics refuse Up or Down in one line
    naming it; the random strategy plays it."""
    from hanabi_ref.players.strategies import SPECS
    config = make_config(3, "hanab-live", "Up or Down (5 Suits)")
    check = SPECS[strategy].unsupported
    assert check is not None
    problem = check(config)
    assert problem is not None and "Up or Down is not played" in problem and "\n" not in problem
    assert SPECS["random"].unsupported is None


@pytest.mark.deep
@pytest.mark.parametrize("test", [test_a_hint_on_a_card_touches_it, test_classic_touch_gives_the_classic_hints], ids=lambda test: test.__name__.removeprefix("test_"))
def test_properties_at_length(test: Any) -> None:
    """Each property test above, three more runs."""
    for _ in range(3):
        test()
