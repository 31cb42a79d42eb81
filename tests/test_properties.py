"""Properties of every state reached by legal play, across presets, variants, player
counts (thesis p = 1 .. 6, hanab-live p = 6) and small custom compositions
[2.13, 2.14, 2.16, 2.17-view, PR-length, PR-legal-action, T-trace]."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.actions import Hint
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.legality import is_legal, legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import (
    GameState,
    is_cards_conserved,
    is_errors_within_bound,
    is_fields_gapless,
    is_hand_size_valid,
    is_knowledge_sound,
    max_attainable_score,
    score,
    deck_size,
)
from hanabi_ref.players.strategies import SPECS, STRATEGIES
from hanabi_ref.formats.trace import replay, trace_from_json, trace_to_json
from hanabi_ref.engine.transition import initial_state
from hanabi_ref.engine.view import make_view, view_legal_actions
from tests.helpers import (
    Run,
    card,
    configs,
    drawn_rearrangement,
    expected_counts,
    expected_multiset,
    hidden_rearrangement,
    play_all,
    reached,
    reaches_assertion,
    reference_hint_mask,
    reference_knowledge,
    runs,
    visible_swap,
    with_deck,
)
from hanabi_ref.engine.tables import tables_for

SETTINGS = settings(max_examples=75, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# The deep set runs each test under SETTINGS three more times (test_properties_at_length, at the end).


def reference_attainable(state: GameState) -> int:
    """[R-1] for each suit go up from its height while some copy of the next value is not
    in the discard pile (counts from the variant table)."""
    config = state.config
    counts = expected_counts(config)
    discarded = Counter(state.deck[c] for c in state.discard)
    total = 0
    for suit, height in enumerate(state.fireworks):
        while height < config.values and discarded[card(config, height + 1, suit)] < counts[suit][height]:
            height += 1
        total += height
    return total


def identities_in_areas(state: GameState) -> Counter[int]:
    """The multiset of S ∪ D ∪ hands ∪ fields, read area by area."""
    ids = list(range(state.next_card, len(state.deck))) + list(state.discard) + list(state.played)
    for hand in state.hands:
        ids.extend(hand)
    return Counter(state.deck[c] for c in ids)


# ------------------------------------------------------------------ (c) invariants


@SETTINGS
@given(runs())
def test_invariants_after_every_step(run: Run) -> None:
    """[2.13-conservation, 2.13-4, 2.13-hand-size, 2.14-sound, 2.16-tokens, 2.16-errors,
    2.16-2-next, 2.16-2-R, 2.9-S0, R-1] after every move: the state predicates hold, the
    cards of S0 (as a multiset, from the variant table) are exactly the areas' union,
    0 <= t <= t0, 0 <= f <= f0, R in {inf, -1, 0..p}, the score never exceeds the
    attainable score (recomputed independently), which never grows, and only the final
    state may be terminal."""
    config = run.config
    composition, size = expected_multiset(config), sum(map(sum, expected_counts(config)))
    previous_attainable = tables_for(config).max_score
    for index, state in enumerate(run.states):
        assert is_cards_conserved(state) and is_fields_gapless(state)
        assert is_hand_size_valid(state) and is_knowledge_sound(state) and is_errors_within_bound(state)
        assert identities_in_areas(state) == composition
        assert len(state.deck) == size
        assert 0 <= state.clue_tokens <= config.max_hints
        assert 0 <= state.strikes and (config.max_errors is None or state.strikes <= config.max_errors)
        assert state.remaining is None or -1 <= state.remaining <= config.players
        assert state.current_player == index % config.players and state.turns == index
        attainable = max_attainable_score(state)
        assert attainable == reference_attainable(state) <= previous_attainable
        assert sum(state.fireworks) <= attainable <= tables_for(config).max_score
        assert score(state) <= sum(state.fireworks)
        previous_attainable = attainable
    assert not any(state.terminal for state in run.states[:-1])


# ------------------------------------------------------------------ (d) knowledge


@SETTINGS
@given(runs())
def test_knowledge_is_exactly_the_hint_record(run: Run) -> None:
    """[2.14, 2.14-sound, 2.14-initial, 2.16-2a-value, 2.16-2a-suit, 2.16-2a-empty,
    V-rainbow, E-12, E-19] every K_c equals Cards(H) intersected, for each hint its holder
    received since the card was dealt or drawn, with the hint's identities or their
    complement (recomputed from the history with the variant's own colour table); each
    card's identity lies in its K_c; a hint touches exactly the target's cards whose
    identity it names."""
    for before, after in zip(run.states, run.states[1:]):
        event = after.history[-1]
        if isinstance(event.action, Hint):
            mask = reference_hint_mask(run.config, event.action)
            target = before.hands[event.action.target]
            assert event.touched == tuple(c for c in target if mask >> before.deck[c] & 1)
    for state in run.states:
        for seat in range(run.config.players):
            assert state.knowledge[seat] == reference_knowledge(state, seat)
            for card_id, known in zip(state.hands[seat], state.knowledge[seat]):
                assert known >> state.deck[card_id] & 1


# ------------------------------------------------------------------ (a), (b) hidden information


@SETTINGS
@given(runs(max_moves=120), st.data())
def test_hidden_cards_do_not_reach_the_view(run: Run, data: st.DataObject) -> None:
    """[2.17-view, E-8, 2.16-2] rearranging the identities seat j cannot see (its own
    hand and the stack) in any way consistent with its knowledge sets leaves j's view
    equal, and the legal actions too when j is to move; the same actions on the
    rearranged deck reach the rearranged state (the public history does not change).
    Negative control: exchanging a card j can see changes j's view."""
    index = data.draw(st.integers(0, len(run.states) - 1))
    state = run.states[index]
    seat = data.draw(st.integers(0, run.config.players - 1))
    hidden = len(state.hands[seat]) + deck_size(state)
    order = data.draw(st.permutations(range(hidden)))
    deck = hidden_rearrangement(state, seat, order)
    assert Counter(deck) == Counter(state.deck)
    visible = set(range(len(deck))) - set(state.hands[seat]) - set(range(state.next_card, len(deck)))
    assert all(deck[c] == state.deck[c] for c in visible)
    rearranged = with_deck(state, deck)
    assert make_view(rearranged, seat) == make_view(state, seat)
    if seat == state.current_player:
        assert legal_actions(rearranged) == legal_actions(state)
    replayed = play_all(initial_state(run.config, deck), run.actions[:index])[-1]
    assert replayed == rearranged

    swapped = visible_swap(state, seat)
    if swapped is not None:
        assert make_view(with_deck(state, swapped), seat) != make_view(state, seat)


@reaches_assertion()
@settings(SETTINGS, max_examples=60)  # 180 more in the deep set, below
@given(runs(max_moves=120), st.data())
def test_strategies_choose_from_the_view_alone(run: Run, data: st.DataObject) -> None:
    """[2.17-view, E-8] a strategy shown equal views chooses equal actions: the random
    strategy with the same seed and the simple strategy act the same in a state and in a
    rearrangement of the cards its seat cannot see, and the action is legal in both.

    ``info-search`` plays as ``info`` until its endgame search starts, and that search
    (dozens of games rolled out per move) is checked the same way where it runs, by
    tests/test_info_search.py::test_the_search_chooses_from_its_view_alone."""
    states = [s for s in run.states if not s.terminal]
    if not states:
        return
    state = data.draw(st.sampled_from(states))
    seat = state.current_player
    rearranged = drawn_rearrangement(state, data)
    seed = data.draw(st.integers(0, 2**64 - 1))
    for name, factory in STRATEGIES.items():
        if name == "info-search":
            continue
        unsupported = SPECS[name].unsupported
        if unsupported is not None and unsupported(run.config) is not None:
            continue  # [H-configs] e.g. the hat player plays only 4 and 5 players
        first = factory(run.config, seat, seed).act(make_view(state, seat))
        second = factory(run.config, seat, seed).act(make_view(rearranged, seat))
        reached()
        assert first == second, name
        assert is_legal(state, first) and is_legal(rearranged, second)


@pytest.mark.deep
def test_strategies_choose_from_the_view_alone_at_length() -> None:
    """The property above, three more runs (180 more examples)."""
    for _ in range(3):
        test_strategies_choose_from_the_view_alone()


# ------------------------------------------------------------------ legality from the view


@SETTINGS
@given(runs())
def test_legal_actions_from_the_view_equal_those_from_the_state(run: Run) -> None:
    """[2.16-actions, 2.17-view, 2.16-2] for every state the acting seat's view lists the
    same legal actions, in the same order, as the state; a terminal state has none."""
    for state in run.states:
        view = make_view(state, state.current_player)
        assert view_legal_actions(view) == legal_actions(state)
        assert (legal_actions(state) == []) == state.terminal


# ------------------------------------------------------------------ (e) PR-length, PR-legal-action


def move_bound(config: GameConfig) -> int:
    """t0 + 2 (N - p h) + p, plus one under the literal E-6 reading when N = p h."""
    size = sum(map(sum, expected_counts(config)))
    dealt = config.players * config.hand_size
    literal = not config.options.initial_stop_check and size == dealt
    return config.max_hints + 2 * (size - dealt) + config.players + (1 if literal else 0)


@SETTINGS
@given(runs(max_moves=None))
def test_games_end_in_time_and_always_offer_an_action(run: Run) -> None:
    """[PR-length, PR-legal-action, E-6] played to the end, every game stops within
    t0 + 2(N - p h) + p moves; every state before that offers the player to move a legal
    action and a card in hand."""
    assert run.final.terminal
    assert len(run.actions) <= move_bound(run.config)
    for state in run.states[:-1]:
        assert legal_actions(state) and state.hands[state.current_player]


# ------------------------------------------------------------------ (f) traces


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # 80 more in the deep set, below
@given(configs(), st.integers(0, 2**64 - 1), st.sampled_from(sorted(set(STRATEGIES) - {"info-search"})))
def test_recorded_games_replay_exactly(config: GameConfig, seed: int, strategy: str) -> None:
    """[T-trace, T-actions, D-seed] play_game's trace, written as JSON text and read back,
    is the same trace and replays to the identical final state.  (Every strategy but
    ``info-search``, which moves as ``info`` does until its endgame search, seconds a move.)"""
    unsupported = SPECS[strategy].unsupported
    if unsupported is not None and unsupported(config) is not None:
        config = make_config(4, preset="hanab-live")  # [H-configs] a game the hat player plays
    record = play_game(config, STRATEGIES[strategy], seed=seed)
    text = json.dumps(trace_to_json(record.trace))
    trace = trace_from_json(json.loads(text))
    assert trace == record.trace
    assert replay(trace) == record.final
    assert trace.seed == seed and deck_from_seed(config, seed) == trace.deck


@pytest.mark.deep
def test_recorded_games_replay_exactly_at_length() -> None:
    """The property above, four more runs (80 more games)."""
    for _ in range(4):
        test_recorded_games_replay_exactly()


@pytest.mark.deep
@pytest.mark.parametrize("test", [
    test_invariants_after_every_step, test_knowledge_is_exactly_the_hint_record, test_hidden_cards_do_not_reach_the_view,
    test_legal_actions_from_the_view_equal_those_from_the_state, test_games_end_in_time_and_always_offer_an_action,
], ids=lambda test: test.__name__.removeprefix("test_"))
def test_properties_at_length(test: Any) -> None:
    """Each property test under SETTINGS, three more runs (225 more examples)."""
    for _ in range(3):
        test()
