"""The endgame search of the information strategy [I-search, I-decode-check, I-common,
2.17-view]."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.cli import main
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState
from hanabi_ref.players.strategies import factory_for
from hanabi_ref.players.strategies.params import ParamError
from hanabi_ref.players.strategies.info import search
from hanabi_ref.players.strategies.info.decisions import hint_of, someone_needs_a_hint
from hanabi_ref.players.strategies.info.knowledge import Weights
from hanabi_ref.players.strategies.info.player import (INFO_SPEC, SEARCH, SEARCH_INFO_SPEC, SOURCE_INFO_SPEC, STRONG, InfoPlayer,
                                              options_of)
from hanabi_ref.players.strategies.info.reading import public_sets, useless
from hanabi_ref.engine.transition import initial_state
from hanabi_ref.engine.view import PlayerView, make_view
from hanabi_ref.engine.tables import tables_for
from tests.helpers import drawn_rearrangement, reached, reaches_assertion
from tests.test_info import play_checked


def late_state(players: int, seed: int, stack: int) -> tuple[GameState, list[InfoPlayer]] | None:
    """The first state of a game of `info` whose stack holds at most ``stack`` cards, with
    seats that observed every move before it (None when the game ended first)."""
    state, seats, _ = play_checked(players, "hle", "no-variant", seed, options=STRONG, stack=stack)
    return None if state.terminal else (state, seats)


def late_seat(players: int, seed: int, stack: int) -> tuple[GameState, InfoPlayer, PlayerView]:
    """:func:`late_state`'s state (which must exist), the seat to move and its view."""
    found = late_state(players, seed, stack)
    assert found is not None
    state, seats = found
    return state, seats[state.current_player], make_view(state, state.current_player)


VIEW_FIELDS = ("turns", "current_player", "hands", "cards", "knowledge", "deck_size", "fireworks", "played", "discard",
               "clue_tokens", "strikes", "remaining", "terminal")


@pytest.mark.checks("I-search")
def test_worlds_agree_with_the_view() -> None:
    """[I-search] every world is a state (its invariants hold: contracts are on) in which the
    seat sees exactly what it sees in the game, its own cards lie in their private sets,
    and the same seed gives the same worlds."""
    checked = 0
    for seed in range(6):
        state, player, view = late_seat(5, seed, 6)
        seat = view.seat
        turn = player.read_turn(view)
        weights, own = turn.weights, turn.own
        worlds = search.sample_worlds(view, own, weights, 8, search.world_rng(seed, view.turns, 1))
        again = search.sample_worlds(view, own, weights, 8, search.world_rng(seed, view.turns, 1))
        assert len(worlds) == 8 and [world.deck for world in worlds] == [world.deck for world in again]
        for world in worlds:
            seen = make_view(world, seat)
            assert all(getattr(seen, name) == getattr(view, name) for name in VIEW_FIELDS)
            for card_id, mask in zip(state.hands[seat], own):
                assert mask >> world.deck[card_id] & 1
            checked += 1
    assert checked == 48


@pytest.mark.checks("I-search")
def test_worlds_are_drawn_from_the_copies_left() -> None:
    """[I-search] with every own card known, the worlds differ only in the stack's order,
    and each stack holds exactly the copies the seat cannot see (counted here from the
    state: the composition less every card outside the seat's hand and the stack)."""
    state, player, view = late_seat(4, 3, 5)
    seat = view.seat
    weights = player.read_turn(view).weights
    known = [1 << state.deck[card_id] for card_id in state.hands[seat]]
    counts = list(weights.counts)
    for card_id in state.hands[seat]:
        counts[state.deck[card_id]] -= 1
    worlds = search.sample_worlds(view, known, weights, 6, search.world_rng(0, view.turns, 0))
    unseen = sorted(state.deck[card_id] for card_id in range(state.next_card, len(state.deck)))
    assert sorted(card for card, copies in enumerate(counts) for _ in range(copies)) == unseen
    for world in worlds:
        assert [world.deck[card_id] for card_id in state.hands[seat]] == [state.deck[card_id] for card_id in state.hands[seat]]
        assert sorted(world.deck[state.next_card:]) == unseen


@pytest.mark.checks("I-search")
def test_a_roll_out_plays_the_game_the_strategy_plays() -> None:
    """[I-search] rolled out on the true state, the strategy's own move ends with the score
    the real game of `info` reaches from there."""
    for seed in range(3):
        state, player, view = late_seat(4, seed, 6)
        move = player.act(view)
        rolled = search.roll_out(player, state, move)
        real = play_game(state.config, factory_for("info", {}), seed=seed).final
        assert rolled == real.score


@pytest.mark.checks("I-search", "I-common")
def test_the_search_replaces_moves_and_is_read_truly() -> None:
    """[I-search, I-decode-check, I-common] the search replaces moves of `info` where it
    finds a better one (seed 71 at 5 players is one of the eight of seeds 0-199 that `info`
    does not finish perfect), and the moves it chooses tell the other seats nothing false:
    every seat decodes the number the actor encoded, and the seats' public knowledge stays
    equal after every move."""
    config = make_config(5, "hle")
    state, _, log = play_checked(5, "hle", "no-variant", 71, options=SEARCH)
    assert log.compared > 0
    plain = play_game(config, factory_for("info", {}), seed=71).trace.actions
    assert tuple(event.action for event in state.history) != plain


@pytest.mark.checks("I-search")
def test_the_search_has_its_own_name() -> None:
    """[I-search, I-options] `info-search` is I-strong with the search on 32 worlds; `info`
    and `info-source` do not search."""
    assert options_of(SEARCH_INFO_SPEC.resolve({})) == STRONG._replace(search=32) == SEARCH
    assert options_of(INFO_SPEC.resolve({})).search == options_of(SOURCE_INFO_SPEC.resolve({})).search == 0


@pytest.mark.parametrize("name, value", [("search", "-1"), ("search", "many"), ("search_stack", "61")])
def test_a_bad_search_parameter_is_one_line(name: str, value: str, capsys: pytest.CaptureFixture[str]) -> None:
    """[I-search, I-options] a search parameter out of its range is refused before any game,
    in one line naming the parameter (exit 2 on the command line)."""
    with pytest.raises(ParamError) as caught:
        SEARCH_INFO_SPEC.resolve({name: value})
    assert "\n" not in str(caught.value) and name in str(caught.value)
    assert main(["simulate", "--strategy", "info-search", "--players", "5", "--rules", "hle", "--games", "1",
                 "--param", f"{name}={value}"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and name in err and "Traceback" not in err


@pytest.mark.checks("I-search")
def test_candidates_tell_no_falsehood() -> None:
    """[I-search, I-no-hint-needed, I-useless-hat] a discard is tried only when no other seat
    holds a playable card without knowing one playable (checked on the true hands), or no
    token is left; never a discard that carries answers; plays only of cards that may be
    playable; the hint is the strategy's own."""
    tried = 0
    for seed in range(8):
        state, player, view = late_seat(5, seed, 6)
        seat = view.seat
        blueprint = copy.deepcopy(player).act(view)
        turn = player.read_turn(view)
        moment, weights, own = turn.moment, turn.weights, turn.own
        board = moment.board
        public_useless = useless(turn.public, board)
        hint = hint_of(turn, player.public)[0] if view.clue_tokens else None
        moves = search.candidates(view, blueprint, own, board, weights, hint, public_useless,
                                  someone_needs_a_hint(turn, player.public))
        assert blueprint not in moves
        for move in moves:
            tried += 1
            if isinstance(move, Discard):
                assert not (len(public_useless) >= 2 and move.slot in public_useless)
                if view.clue_tokens:
                    for other in range(state.config.players):
                        if other == seat:
                            continue
                        holds = any(board.playable >> state.deck[card_id] & 1 for card_id in state.hands[other])
                        knows = any(board.surely(mask, board.playable) for mask in public_sets(player.public, moment, other))
                        assert knows or not holds
            elif isinstance(move, Play):
                assert board.possibly(own[move.slot], board.playable, weights)
            else:
                assert move == hint
    assert tried > 0


@pytest.mark.checks("I-search")
@reaches_assertion()
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32), data=st.data())
def test_the_search_chooses_from_its_view_alone(seed: int, data: st.DataObject) -> None:
    """[2.17-view, I-search] the searching seat chooses the same move in the state and in
    any rearrangement of the cards it cannot see."""
    found = late_state(5, seed, 4)
    if found is None:
        return
    reached()
    state, seats = found
    seat = state.current_player
    player = seats[seat]
    player.options = SEARCH
    twin = copy.deepcopy(player)
    rearranged = drawn_rearrangement(state, data)
    assert player.act(make_view(state, seat)) == twin.act(make_view(rearranged, seat))


# ------------------------------------------------------------------ the choice rule


def reference_choice(blueprint: Action, moves: Sequence[Action], check: Sequence[int], table: dict[Action, list[int]],
                     best: int) -> Action:
    """I-search's choice as the clause states it, every move rolled out on every world."""
    if all(score == best for score in check):
        return blueprint
    base = sum(score == best for score in table[blueprint])
    keys = {move: (sum(score == best for score in table[move]), sum(table[move])) for move in moves}
    qualified = [move for move in moves if keys[move][0] >= base + search.MARGIN]
    if not qualified:
        return blueprint
    top = max(keys[move] for move in qualified)
    return next(move for move in qualified if keys[move] == top)


def run_choose(blueprint: Action, moves: Sequence[Action], check: Sequence[int], table: dict[Action, list[int]],
               worlds: int) -> Action:
    """:func:`search.choose` with the worlds replaced by indices and the roll-outs by
    ``check`` (the strategy's move on the check worlds) and ``table`` (each move on the
    compared worlds)."""
    config = make_config(4, "hle")

    def fake_rng(seed: int, turn: int, round_: int) -> int:
        return round_

    def fake_worlds(view: object, own: object, weights: object, wanted: int, batch: int) -> list[tuple[int, int]]:
        return [(batch, index) for index in range(wanted)]

    def fake_roll_out(player: object, world: tuple[int, int], first: Action) -> int:
        batch, index = world
        return check[index] if batch == 0 else table[first][index]

    view = make_view(initial_state(config, deck_from_seed(config, 0)), 0)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(search, "world_rng", fake_rng)
        patch.setattr(search, "sample_worlds", fake_worlds)
        patch.setattr(search, "roll_out", fake_roll_out)
        return search.choose(None, view, blueprint, moves, [], Weights([0]), worlds, 0)  # type: ignore[arg-type]


@pytest.mark.checks("I-search")
@settings(max_examples=75, deadline=None)  # 225 more in the deep set
@given(data=st.data(), count=st.integers(1, 4), worlds=st.sampled_from([4, 8, 12]))
def test_the_choice_follows_the_rule(data: st.DataObject, count: int, worlds: int) -> None:
    """[I-search] with roll-out scores drawn at random, the search chooses what the rule
    gives when every move is rolled out on every world: stopping a move's roll-outs early
    changes no choice."""
    best = tables_for(make_config(4, "hle")).max_score
    blueprint: Action = Play(0)
    every: list[Action] = [Play(1), Discard(0), Discard(1), Hint(1, "value", 1)]
    moves = every[:count]
    scores = st.sampled_from([best, best, best - 1, best - 2])
    checks = worlds // search.CHECK_SHARE
    check = data.draw(st.lists(scores, min_size=checks, max_size=checks))
    table = {move: data.draw(st.lists(scores, min_size=worlds, max_size=worlds)) for move in [blueprint, *moves]}
    assert run_choose(blueprint, moves, check, table, worlds) == reference_choice(blueprint, moves, check, table, best)


@pytest.mark.checks("I-search")
def test_the_rule_keeps_the_move_within_the_margin() -> None:
    """[I-search] one more perfect world than the strategy's move is not enough to replace
    it; two are (MARGIN = 2); of two moves with as many perfect worlds the higher total
    wins, and on equal totals the earlier; all check worlds perfect keep the strategy's
    move whatever the others do."""
    a: Action = Play(0)
    b: Action = Play(1)
    c: Action = Discard(0)
    perfect, miss = 25, 24
    table: dict[Action, list[int]] = {a: [perfect, miss, miss, perfect], b: [perfect, perfect, miss, perfect],
             c: [perfect, perfect, perfect, perfect]}
    assert run_choose(a, [b], [miss], table, 4) == a
    assert run_choose(a, [b, c], [miss], table, 4) == c
    assert run_choose(a, [b, c], [perfect], table, 4) == a
    table = {a: [miss] * 4, b: [perfect, perfect, miss, 23], c: [perfect, perfect, 23, 23]}
    assert run_choose(a, [c, b], [miss], table, 4) == b
    table[c] = list(table[b])
    assert run_choose(a, [c, b], [miss], table, 4) == c


@pytest.mark.deep
@pytest.mark.parametrize("test", [test_the_choice_follows_the_rule], ids=lambda test: test.__name__.removeprefix("test_"))
def test_properties_at_length(test: Any) -> None:
    """The choice rule's property above, three more runs."""
    for _ in range(3):
        test()
