"""The engine under the variant model [VAR-engine, VAR-engine-masks, VAR-engine-orange,
VAR-existing, VAR-blind, VAR-clue-ranks, VAR-mute].

Expected values are read off spec/variants.md: which identities a clue touches is
counted by hand for small cases, and the four variants that existed before the model
are checked against the formulas of 2.16-2a-value and 2.16-2a-suit (touch by whole
suits and by value).
"""

from __future__ import annotations

from collections.abc import Sequence

import random

import pytest

from hanabi_ref.engine.actions import Discard, Hint, Play
from hanabi_ref.engine.cards import identity
from hanabi_ref.base.errors import ConfigError, TraceError
from hanabi_ref.players.runner import play_game
from hanabi_ref.formats.hanablive import trace_from_hanablive, trace_to_hanablive
from hanabi_ref.engine.legality import illegality, legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.show import state_event_text
from hanabi_ref.engine.state import GameState
from hanabi_ref.players.strategies import STRATEGIES
from hanabi_ref.formats.trace import Trace
from hanabi_ref.engine.transition import apply, initial_state, new_game
from hanabi_ref.engine.tables import tables_for
from hanabi_ref.engine.variants import updown
from hanabi_ref.engine.variants.orange import OrangeSuits
from hanabi_ref.engine.variants.ruleset import RuleSet


def _classic_masks(config: GameConfig) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """2.16-2a-suit and 2.16-2a-value: a colour touches every card of the suits whose
    ``touched_by`` names it; a value touches that value in every suit."""
    n, k = config.values, config.suit_count
    colours = tuple(
        sum(1 << identity(v, s, n) for s in range(k) if c in config.suits[s].touched_by for v in range(1, n + 1))
        for c in range(len(config.colours))
    )
    values = tuple(sum(1 << identity(v, s, n) for s in range(k)) for v in range(1, n + 1))
    return colours, values


@pytest.mark.parametrize("variant", ["No Variant", "6 Suits", "Black (6 Suits)", "Rainbow (6 Suits)"])
@pytest.mark.checks("VAR-existing")
def test_existing_variants_keep_their_masks(variant: str) -> None:
    """[VAR-existing, VAR-engine-masks] the model's masks of the four older variants are
    those of 2.16-2a-suit and 2.16-2a-value, with every rank clue and no free hint."""
    config = make_config(3, "hanab-live", variant)
    assert tables_for(config).model is not None
    assert (tables_for(config).colour_masks, tables_for(config).value_masks) == _classic_masks(config)
    assert tables_for(config).clue_values == (1, 2, 3, 4, 5) and tables_for(config).free_hint_bits == 0 and tables_for(config).inverted_mask == 0


def test_pink_touch_and_negative_information() -> None:
    """[VAR-all-ranks, VAR-engine-masks] in Pink (5 Suits) (Red, Yellow, Green, Blue,
    Pink) a rank clue 3 touches the four 3s and all five pink ranks; a touched card keeps
    exactly those identities and an untouched one loses them."""
    config = make_config(2, "thesis", "Pink (5 Suits)")
    pink = 4
    expected = {identity(3, s, 5) for s in range(4)} | {identity(v, pink, 5) for v in range(1, 6)}
    assert tables_for(config).value_masks[2] == sum(1 << card for card in expected)
    # Seat 1 holds pink 1, red 3, red 1, yellow 2, green 4.
    hand = [identity(1, pink, 5), identity(3, 0, 5), identity(1, 0, 5), identity(2, 1, 5), identity(4, 2, 5)]
    rest = list(tables_for(config).canonical_deck)
    for card in hand:
        rest.remove(card)
    deck = tuple(rest[:5]) + tuple(hand) + tuple(rest[5:])
    state = apply(initial_state(config, deck), Hint(1, "value", 3))
    mask = tables_for(config).value_masks[2]
    known = state.knowledge[1]
    assert known[0] == known[1] == mask & tables_for(config).all_cards_mask
    assert known[2] == known[3] == known[4] == tables_for(config).all_cards_mask & ~mask
    assert state.history[-1].touched == (5, 6)


def _deal(config: GameConfig, hands: Sequence[Sequence[int]]) -> GameState:
    rest: list[int] = list(tables_for(config).canonical_deck)
    for hand in hands:
        for card in hand:
            rest.remove(card)
    return initial_state(config, tuple(card for hand in hands for card in hand) + tuple(rest))


def test_blind_clue_legal_when_empty() -> None:
    """[VAR-blind, 2.16-2a-empty] under Color Blind a colour clue touches nothing and is
    legal even where empty hints are refused; it tells nothing.  A rank clue touching
    nothing stays illegal."""
    config = make_config(2, "hanab-live", "Color Blind (5 Suits)")
    assert all(mask == 0 for mask in tables_for(config).colour_masks)
    hands = [[identity(1, 0, 5)] * 3 + [identity(2, 0, 5)] * 2, [identity(2, 1, 5)] * 2 + [identity(3, 1, 5)] * 2 + [identity(4, 1, 5)]]
    state = _deal(config, hands)
    assert illegality(state, Hint(1, "colour", 0)) is None
    after = apply(state, Hint(1, "colour", 0))
    assert after.knowledge[1] == state.knowledge[1] and after.history[-1].touched == ()
    assert illegality(state, Hint(1, "value", 5))[0] == "2.16-2a-empty"  # type: ignore[index]
    assert all(Hint(1, "colour", c) in legal_actions(state) for c in range(5))


def test_rank_clue_the_variant_lacks_is_refused() -> None:
    """[VAR-clue-ranks, VAR-mute] Pink-Ones has no rank clue 1, Odds and Evens only 1 and
    2, Number Mute none, Color Mute no colour clue; each such hint is refused under its
    clause and never listed."""
    for variant, missing in (("Pink-Ones (5 Suits)", (1,)), ("Odds and Evens (5 Suits)", (3, 4, 5)), ("Number Mute (5 Suits)", (1, 2, 3, 4, 5))):
        state = new_game(make_config(3, "thesis", variant), 0)
        for value in missing:
            assert illegality(state, Hint(1, "value", value))[0] == "VAR-clue-ranks"  # type: ignore[index]
            assert Hint(1, "value", value) not in legal_actions(state)
    state = new_game(make_config(3, "thesis", "Color Mute (5 Suits)"), 0)
    assert illegality(state, Hint(1, "colour", 0))[0] == "VAR-mute"  # type: ignore[index]
    assert not any(isinstance(a, Hint) and a.kind == "colour" for a in legal_actions(state))


@pytest.mark.parametrize("name", ["Clue Starved (5 Suits)", "Alternating Clues (5 Suits)", "Synesthesia (5 Suits)"])
def test_unplayed_rules_refused_by_name(name: str) -> None:
    """[VAR-engine, VAR-refused] a rule the engine does not play is refused with one line
    naming it."""
    with pytest.raises(ConfigError, match=r"^variant: (Clue Starved|Alternating Clues|Synesthesia): not supported"):
        make_config(3, "hanab-live", name)


ORANGE = 2  # Orange (3 Suits): Red, Blue, Orange


def test_orange_play_is_a_discard() -> None:
    """[VAR-engine-orange, VAR-orange] playing an orange card puts it in the discard pile,
    regains a token and costs no error; the record keeps the play, without success."""
    config = make_config(2, "hanab-live", "Orange (3 Suits)")
    hands = [[identity(3, ORANGE, 5), identity(1, 0, 5), identity(1, 0, 5), identity(1, 1, 5), identity(2, 1, 5)],
             [identity(2, 0, 5), identity(3, 0, 5), identity(4, 0, 5), identity(1, 1, 5), identity(4, 1, 5)]]
    state = apply(_deal(config, hands), Hint(1, "value", 2))  # t = 7
    state = apply(state, Hint(0, "value", 1))  # t = 6
    after = apply(state, Play(0))
    assert after.discard == (0,) and after.played == () and after.strikes == 0 and after.clue_tokens == 7
    event = after.history[-1]
    assert event.action == Play(0) and event.success is None and event.card == identity(3, ORANGE, 5)


def test_orange_discard_is_a_play() -> None:
    """[VAR-engine-orange] discarding an orange 1 plays it (the field grows, no token);
    discarding an orange 3 on an empty field is a failed play (an error)."""
    config = make_config(2, "hanab-live", "Orange (3 Suits)")
    hands = [[identity(1, ORANGE, 5), identity(3, ORANGE, 5), identity(1, 0, 5), identity(1, 1, 5), identity(2, 1, 5)],
             [identity(2, 0, 5), identity(3, 0, 5), identity(4, 0, 5), identity(1, 1, 5), identity(4, 1, 5)]]
    state = _deal(config, hands)
    assert state.clue_tokens == 8 and illegality(state, Discard(0)) is None  # [VAR-engine-orange] legal with every token
    after = apply(state, Discard(0))
    assert after.fireworks[ORANGE] == 1 and after.played == (0,) and after.clue_tokens == 8 and after.strikes == 0
    assert after.history[-1].success is True
    after = apply(apply(after, Hint(0, "value", 1)), Discard(0))  # seat 0's slot 0 is now the orange 3
    assert after.strikes == 1 and after.discard == (1,) and after.fireworks[ORANGE] == 1
    assert after.history[-1].success is False


def test_discard_at_max_without_orange_still_refused() -> None:
    """[E-2, VAR-engine-orange] the lifted rule is the orange variants' only."""
    state = new_game(make_config(2, "hanab-live", "Rainbow (5 Suits)"), 0)
    assert illegality(state, Discard(0))[0] == "E-2"  # type: ignore[index]


@pytest.mark.parametrize("variant", ["Orange (3 Suits)", "Dark Orange (6 Suits)", "Pink (5 Suits)", "Deceptive-Ones & White (3 Suits)",
                                     "Funnels & Dark Prism (6 Suits)", "Totally Blind (4 Suits)", "Scarce Ones & Gray (6 Suits)"])
def test_random_games_keep_every_clause(variant: str) -> None:
    """[VAR-engine, 2.16-2] random legal games under a variant, with the move conditions
    checked at every move (contracts on), end with a score between 0 and 5 per suit."""
    config = make_config(3, "hanab-live", variant)
    rng = random.Random(variant)
    for seed in range(5):
        state = new_game(config, seed)
        while not state.terminal:
            state = apply(state, rng.choice(legal_actions(state)))
        assert 0 <= state.score <= 5 * config.suit_count


@pytest.mark.checks("SH-move")
def test_orange_moves_read_as_what_happened() -> None:
    """[SH-move, VAR-engine-orange] the sentence of an orange move says what happened
    instead of the move chosen."""
    config = make_config(2, "hanab-live", "Orange (3 Suits)")
    hands = [[identity(1, ORANGE, 5), identity(3, ORANGE, 5), identity(1, 0, 5), identity(1, 1, 5), identity(2, 1, 5)],
             [identity(2, 0, 5), identity(3, 0, 5), identity(4, 0, 5), identity(1, 1, 5), identity(4, 1, 5)]]
    state = _deal(config, hands)
    assert state_event_text(apply(state, Discard(0))).startswith("seat 0 discards o1 from slot 0 (orange: played instead, success)")
    state = apply(apply(state, Hint(1, "value", 2)), Hint(0, "value", 1))
    assert state_event_text(apply(state, Play(1))).startswith("seat 0 plays o3 from slot 1 (orange: discarded instead)")


def test_orange_suits_pass_every_other_question_to_the_stacks() -> None:
    """[VAR-engine-orange, VAR-engine] orange suits change one answer of the rule set;
    every other question goes to the rule set of the variant's stacks (Up or Down's under
    Up or Down & Orange), so a question added to RuleSet cannot fall back to the thesis'
    answer there.  Random games of that variant keep every clause (contracts on)."""
    questions = {name for name, value in vars(RuleSet).items() if callable(value) and not name.startswith("_")}
    assert "played_height" in questions and questions <= set(vars(OrangeSuits))
    config = make_config(3, "hanab-live", "Up or Down & Orange (6 Suits)")
    rules = tables_for(config).rule_set
    assert isinstance(rules, OrangeSuits) and rules.stacks is updown.RULES
    assert (rules.upward, rules.start_value, rules.stack_height(6), rules.value_text(6)) == (False, 6, 5, "S")
    assert rules.ways(6) == updown.WAYS and tables_for(config).max_score == 30
    rng = random.Random(6)
    for seed in range(3):
        state = new_game(config, seed)
        while not state.terminal:
            state = apply(state, rng.choice(legal_actions(state)))


# ------------------------------------------------------------------ Up or Down

START = 6  # the engine's value of a START card (hanab.live's rank 7)


def _ud(value: int, suit: int) -> int:
    return identity(value, suit, 6)


def test_up_or_down_configuration() -> None:
    """[VAR-engine-up-or-down, VAR-up-or-down, VAR-counts] six values, START last with one
    copy, one 1; 45 cards in five suits; 25 points at most; no rank clue touches START
    except through Pink."""
    config = make_config(3, "hanab-live", "Up or Down (5 Suits)")
    assert config.values == 6 and config.suits[0].counts == (1, 2, 2, 2, 1, 1)
    assert tables_for(config).deck_size == 45 and tables_for(config).max_score == 25 and tables_for(config).clue_values == (1, 2, 3, 4, 5)
    starts = sum(1 << _ud(START, s) for s in range(5))
    assert all(mask & starts == 0 for mask in tables_for(config).value_masks) and tables_for(config).value_masks[5] == 0
    assert tables_for(config).colour_masks[0] == sum(1 << _ud(v, 0) for v in range(1, 7))  # red: every red card, START too
    pink = make_config(3, "hanab-live", "Up or Down & Pink (5 Suits)")
    assert all(mask >> _ud(START, 4) & 1 for mask in tables_for(pink).value_masks[:5])


def _ud_state(hands: list[list[int]], variant: str = "Up or Down (5 Suits)") -> GameState:
    return _deal(make_config(2, "hanab-live", variant), hands)


def test_up_or_down_stacks() -> None:
    """[VAR-engine-up-or-down, VAR-up-or-down] START then 4 then 3 builds red down; a red
    4 after that fails; blue started by 5 goes down; a 2 on an empty stack fails."""
    hands = [[_ud(START, 0), _ud(4, 0), _ud(3, 0), _ud(4, 0), _ud(2, 1)],
             [_ud(5, 3), _ud(4, 3), _ud(2, 2), _ud(2, 2), _ud(3, 2)]]
    state = _ud_state(hands)
    state = apply(state, Play(0))  # red START
    assert state.fireworks[0] == 1 and state.history[-1].success is True
    state = apply(state, Play(0))  # blue 5: blue goes down
    state = apply(state, Play(0))  # red 4
    state = apply(state, Play(0))  # blue 4
    state = apply(state, Play(0))  # red 3
    assert state.fireworks[0] == 3 and state.fireworks[3] == 2 and state.strikes == 0
    state = apply(state, Play(2))  # seat 1: green 3 on an empty stack fails
    assert state.strikes == 1 and state.fireworks[2] == 0
    state = apply(state, Play(0))  # seat 0: the second red 4 fails: red goes down to 2
    assert state.strikes == 2 and state.fireworks[0] == 3


def test_up_or_down_complete_stack_regains_a_token() -> None:
    """[VAR-engine-up-or-down, 2.16-2c-five] a fifth card on a stack (here START, 2, 3, 4,
    5 going up) regains a token when t < t0."""
    red = [_ud(START, 0), _ud(2, 0), _ud(3, 0), _ud(4, 0), _ud(5, 0)]
    state = _ud_state([red, [_ud(2, 1), _ud(2, 1), _ud(3, 1), _ud(3, 1), _ud(4, 1)]])
    for slot in range(4):
        state = apply(apply(state, Play(0)), Hint(0, "value", 2) if slot % 2 == 0 else Hint(0, "colour", 0))
    assert state.fireworks[0] == 4 and state.clue_tokens == 4
    state = apply(state, Play(0))
    assert state.fireworks[0] == 5 and state.clue_tokens == 5


def test_up_or_down_early_end_counts_both_ways() -> None:
    """[R-1, VAR-engine-up-or-down] with red's 1 and START discarded, red can still hold
    5, 4, 3, 2 (four cards), not five, and not zero."""
    from hanabi_ref.engine.state import max_attainable_score
    hands = [[_ud(1, 0), _ud(START, 0), _ud(2, 1), _ud(2, 1), _ud(3, 1)],
             [_ud(2, 2), _ud(2, 2), _ud(3, 2), _ud(3, 2), _ud(4, 2)]]
    state = _ud_state(hands)
    assert max_attainable_score(state) == 25
    state = apply(apply(apply(state, Hint(1, "value", 2)), Hint(0, "value", 2)), Discard(0))  # red 1
    assert max_attainable_score(state) == 25  # red can still start at START or 5
    state = apply(apply(state, Hint(0, "value", 2)), Discard(0))  # red START
    assert max_attainable_score(state) == 24


@pytest.mark.checks("HL-up-or-down")
def test_up_or_down_file_ranks() -> None:
    """[HL-up-or-down] a START card is rank 7 in hanab.live's files, read as value 6 and
    written back as 7; rank 6 is refused."""
    config = make_config(2, "hanab-live", "Up or Down (5 Suits)")
    state = new_game(config, 3)
    data = trace_to_hanablive(Trace(config, state.deck, (), 3))
    ranks = [card["rank"] for card in data["deck"]]
    assert sorted(set(ranks)) == [1, 2, 3, 4, 5, 7] and ranks.count(7) == 5
    assert trace_from_hanablive(data).deck == state.deck
    data["deck"][ranks.index(7)]["rank"] = 6
    with pytest.raises(TraceError, match=r"^deck\[\d+\]\.rank: 6 is not a rank \(1\.\.5, or 7 for START\)$"):
        trace_from_hanablive(data)


@pytest.mark.checks("SV-input")
@pytest.mark.parametrize("variant", ["Up or Down (5 Suits)", "Orange (3 Suits)"])
def test_solver_refuses_what_its_bounds_do_not_model(variant: str) -> None:
    """[SV-input] the solver refuses Up or Down and orange suits in one line."""
    from hanabi_ref.tools.solver.search import check_input
    config = make_config(3, "hanab-live", variant)
    with pytest.raises(ConfigError, match=r"^variant: .* is not supported by the solver"):
        check_input(config, new_game(config, 0).deck, 0, 10, None)


ISSUE_NAMES = ("Orange (3 Suits)", "Black (5 Suits)", "Up or Down (5 Suits)", "Ambiguous & Null (5 Suits)",
               "Rainbow-Ones & Pink (5 Suits)", "Muddy-Rainbow-Ones (3 Suits)", "Omni-Ones & White (6 Suits)",
               "Funnels & Dark Prism (6 Suits)", "Chimneys & Rainbow (4 Suits)", "Scarce Ones & Gray (6 Suits)",
               "Light-Pink-Fives & Prism (3 Suits)", "Deceptive-Ones & White (3 Suits)")
"""The variants of the real games that were refused before the model (issue 24's list)."""


@pytest.mark.parametrize("name", ISSUE_NAMES)
def test_real_game_variants_play_and_replay(name: str) -> None:
    """[VAR-engine, HL-export, HL-colours] each variant named by the real games is played
    by a strategy (the thesis heuristics; the random strategy under Up or Down, which
    they refuse), written as a hanab.live file and read back as the same game."""

    config = make_config(3, "hanab-live", name)
    strategy = "thesis" if tables_for(config).rule_set.upward else "random"
    exported = 0
    for seed in range(4):
        record = play_game(config, STRATEGIES[strategy], seed=seed)
        assert record.final.terminal
        try:
            data = trace_to_hanablive(record.trace)
        except TraceError as error:  # the game went on past hanab.live's own end
            assert "hanab.live has already ended the game" in str(error)
            continue
        assert trace_from_hanablive(data) == record.trace
        exported += 1
    assert exported >= 1


@pytest.mark.checks("HL-orange")
def test_orange_moves_are_written_as_what_happened() -> None:
    """[HL-orange] in a hanab.live file our play of an orange card is a discard action and
    our discard of it a play action; other cards keep their type; read back, the file is
    the same game."""

    config = make_config(3, "hanab-live", "Orange (3 Suits)")
    checked = 0
    for seed in range(12):
        trace = play_game(config, STRATEGIES["thesis"], seed=seed).trace
        try:
            data = trace_to_hanablive(trace)
        except TraceError:
            continue  # the game went on past hanab.live's own end
        state = initial_state(config, trace.deck)
        for action, move in zip(trace.actions, data["actions"], strict=True):
            if isinstance(action, (Play, Discard)):
                order = state.hands[state.current_player][action.slot]
                orange = state.deck[order] // config.values == ORANGE
                assert move["target"] == order
                assert (move["type"] == 0) == (isinstance(action, Play) != orange)
                checked += orange
            state = apply(state, action)
        assert trace_from_hanablive(data) == trace
    assert checked > 0
