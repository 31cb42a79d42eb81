"""The incremental check of a successor's invariants [CT-state, 2.13-conservation, 2.13-4,
2.14-sound].

:func:`~hanabi_ref.engine.state.check_successor_invariants` checks a state the engine made
by one move from a state it checked, looking only at the areas the move changed.  These
tests show that it names the same first broken invariant as the whole check
(:func:`~hanabi_ref.engine.state.check_invariants`) on results tampered in the areas it
looks at and in those it skips, and that a state the engine did not check (forged,
evolved, read back from a pickle) gets the whole check.  Every state is reached by legal
play of seeded games; the tampered ones are copies built past the class, as a buggy
engine might build them.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import icontract
import pytest

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.state import GameState, check_invariants, check_successor_invariants, is_checked
from hanabi_ref.engine.transition import apply_legal, initial_state

Move = tuple[GameState, Action, GameState]


def _forge(state: GameState, **changes: Any) -> GameState:
    """A copy of ``state``'s fields with ``changes``, its invariants not checked and
    without the engine's mark."""
    forged: GameState = object.__new__(GameState)
    forged.__dict__.update(state.__dict__)
    forged.__dict__.update(changes)
    return forged


def _moves() -> Iterator[Move]:
    """Every move of a few seeded games under three presets and 2 to 4 players, each
    action picked by the move number from the legal list, so that hints, discards,
    successful and failed plays, the empty stack and the last round all occur."""
    for preset in ("thesis", "hle", "hanab-live"):
        for players in (2, 3, 4):
            config = make_config(players, preset=preset)
            for seed in range(2):
                state = initial_state(config, deck_from_seed(config, seed))
                while not state.terminal:
                    options = legal_actions(state)
                    action = options[(state.turns * 7 + seed) % len(options)]
                    result = apply_legal(state, action)
                    yield state, action, result
                    state = result


def _first_broken(check: Callable[[], None]) -> str | None:
    """The clause id of the first invariant ``check`` finds broken, or None."""
    try:
        check()
    except icontract.ViolationError as error:
        return str(error).partition(":")[0]
    return None


def _replaced(values: tuple[Any, ...], index: int, value: Any) -> tuple[Any, ...]:
    return values[:index] + (value,) + values[index + 1 :]


def _tampers(before: GameState, result: GameState) -> Iterator[tuple[str, dict[str, Any]]]:
    """Changes of ``result`` in the areas a move changes and in those it leaves alone:
    each seat's knowledge and hand (the mover's, which a play or discard rebuilt, and
    the others, which it shares with ``before``), D, the fields, F and the stack."""
    hands, knowledge = result.hands, result.knowledge
    for seat, hand in enumerate(hands):
        if hand:
            known = knowledge[seat]
            outside = 1 << result.deck[hand[0]]
            yield f"K of seat {seat} unsound", {"knowledge": _replaced(knowledge, seat, _replaced(known, 0, known[0] & ~outside))}
            other = result.next_card if result.next_card < len(result.deck) else (result.discard or result.played or (hand[0],))[0]
            yield f"seat {seat} holds a card from elsewhere", {"hands": _replaced(hands, seat, _replaced(hand, 0, other))}
            yield f"seat {seat}'s hand as an equal new tuple", {"hands": _replaced(hands, seat, tuple(list(hand)))}
    if result.discard:
        yield "D loses its last card", {"discard": result.discard[:-1]}
        yield "D holds its last card twice", {"discard": result.discard + result.discard[-1:]}
    if result.played:
        yield "the fields lose their last card", {"played": result.played[:-1]}
        yield "F counts one card more", {"fireworks": _replaced(result.fireworks, 0, result.fireworks[0] + 1)}
    yield "the stack gives a card nobody holds", {"next_card": result.next_card + 1}
    if result.next_card > before.next_card:
        yield "the stack keeps the card drawn", {"next_card": before.next_card}


@pytest.mark.checks("CT-state", "2.13-conservation", "2.13-4", "2.14-sound")
def test_the_incremental_check_names_what_the_whole_check_names() -> None:
    """[CT-state] on every move of the games and on results tampered in the areas the
    move changed and in those it shares with the state before it, the incremental check
    names the same first broken invariant as the whole check, or none when it does: the
    whole check is the independent method."""
    kinds, broken = set(), 0
    for before, action, result in _moves():
        assert is_checked(before) and is_checked(result)
        assert _first_broken(lambda: check_successor_invariants(before, result)) is None
        kinds.add(type(action))
        for what, changes in _tampers(before, result):
            tampered = _forge(result, **changes)
            whole = _first_broken(lambda: check_invariants(tampered))
            incremental = _first_broken(lambda: check_successor_invariants(before, tampered))
            assert incremental == whole, (what, describe_move(before, action))
            broken += whole is not None
    assert kinds == {Hint, Discard, Play}
    assert broken > 1000


def describe_move(state: GameState, action: Action) -> str:
    return f"{state.config.preset} {state.config.players}p turn {state.turns}: {action}"


def _move_where(situation: Callable[[Move], bool]) -> Move:
    return next(move for move in _moves() if situation(move))


@pytest.mark.checks("CT-state", "2.14-sound", "2.13-conservation")
def test_a_move_that_breaks_the_area_it_changed_is_refused() -> None:
    """[2.14-sound, 2.13-conservation] the areas the incremental check looks at: after a
    discard, the mover's new hand with a knowledge set that lacks its card's identity,
    or with the discarded card still in it, is refused naming the clause."""
    before, _, result = _move_where(lambda m: isinstance(m[1], Discard) and m[2].next_card > m[0].next_card)
    seat = before.current_player
    hand, known = result.hands[seat], result.knowledge[seat]
    unsound = _replaced(known, len(known) - 1, known[-1] & ~(1 << result.deck[hand[-1]]))
    with pytest.raises(icontract.ViolationError, match="^2.14-sound:"):
        check_successor_invariants(before, _forge(result, knowledge=_replaced(result.knowledge, seat, unsound)))
    kept = _replaced(hand, 0, result.discard[-1])
    fresh = _replaced(known, 0, result.tables.all_cards_mask)  # sound whatever the card
    with pytest.raises(icontract.ViolationError, match="^2.13-conservation:"):
        check_successor_invariants(before, _forge(result, hands=_replaced(result.hands, seat, kept),
                                                  knowledge=_replaced(result.knowledge, seat, fresh)))


@pytest.mark.checks("CT-state", "2.14-sound")
def test_a_broken_area_the_move_leaves_alone_is_caught_by_the_check_that_covers_it() -> None:
    """[CT-state, 2.14-sound] an unsound knowledge set in a seat a discard does not
    touch, the part the incremental check skips: in a forged state before the move
    (not the engine's, so unmarked) the move's result gets the whole check and is
    refused; the same state built by attrs.evolve is refused when it is built."""
    before, action, _ = _move_where(lambda m: isinstance(m[1], Discard))
    other = (before.current_player + 1) % before.config.players
    known = before.knowledge[other]
    bad = _replaced(known, 0, known[0] & ~(1 << before.deck[before.hands[other][0]]))
    knowledge = _replaced(before.knowledge, other, bad)
    forged = _forge(before, knowledge=knowledge)
    assert not is_checked(forged)
    with pytest.raises(icontract.ViolationError, match="^2.14-sound:"):
        apply_legal(forged, action)
    with pytest.raises(icontract.ViolationError, match="2.14-sound:"):
        attrs.evolve(before, knowledge=knowledge)


@pytest.mark.checks("CT-state")
def test_only_the_engines_own_checked_states_carry_the_mark() -> None:
    """[CT-state] the engine marks the states it builds and checks, the deal (whole) and
    each move's result; a copy of the fields (forged), a state built by attrs.evolve, a
    pickled state read back and a copy carry no mark, so a move from them checks its
    result in full."""
    import copy

    before, _, result = _move_where(lambda m: m[0].turns == 3)
    dealt = initial_state(result.config, result.deck)
    assert is_checked(before) and is_checked(result) and is_checked(dealt)
    for other in (_forge(result), attrs.evolve(result), pickle.loads(pickle.dumps(result)), copy.copy(result),
                  copy.deepcopy(result), _forge(dealt), attrs.evolve(dealt), copy.copy(dealt)):
        assert other == (dealt if other.turns == 0 else result)
        assert not is_checked(other)


@pytest.mark.checks("CT-state", "2.13-conservation")
def test_a_successor_of_an_unchecked_state_gets_the_whole_check() -> None:
    """[CT-state, 2.13-conservation] from a state with no mark, a result whose areas
    the move left alone are broken (a card of another seat's hand also in D) is refused
    by the whole check (the hint changed no hand, so the incremental check would look
    at none: it may, because a marked state before the move is one whose own check
    found its cards conserved)."""
    before, action, result = _move_where(lambda m: isinstance(m[1], Hint) and bool(m[0].discard))
    assert isinstance(action, Hint)
    target = action.target
    hand = before.hands[target]
    all_cards = before.tables.all_cards_mask
    doubled = _forge(before, hands=_replaced(before.hands, target, _replaced(hand, 0, before.discard[0])),
                     knowledge=_replaced(before.knowledge, target, (all_cards,) * len(hand)))
    with pytest.raises(icontract.ViolationError, match="^2.13-conservation:"):
        check_invariants(_forge(doubled))
    with pytest.raises(icontract.ViolationError, match="^2.13-conservation:"):
        check_successor_invariants(doubled, _forge(result, hands=doubled.hands, knowledge=doubled.knowledge))
