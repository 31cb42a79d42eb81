"""The engine's contracts can fail: every condition of a move, every state invariant and
every icontract condition of the engine and the view is fed a tampered result and must
reject it, naming its clause [2.16-2, 2.16-3, 2.13, 2.14-sound, 2.17-view].

Each table below has one entry per condition; a condition added to the engine without a
tampering here fails :func:`test_every_move_condition_has_a_tampering` (or its twin for
invariants and decorated functions).  The states are reached by playing legal moves of
seeded games (greedy open play and the first legal action in turn), never invented.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import attrs
import icontract
import pytest

from hanabi_ref.engine import conditions, fastpath, transition, view
from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState, stop_clause
from hanabi_ref.engine.transition import apply_legal, initial_state
from tests.helpers import greedy_open_action
from hanabi_ref.engine.tables import tables_for

Move = tuple[GameState, Action, GameState]


def forge(state: GameState, **changes: Any) -> GameState:
    """A copy of ``state`` with ``changes``, built without its invariants (a tampered
    result, as a buggy engine might produce)."""
    fields = dict(state.__dict__)
    fields.update(changes)
    forged: GameState = object.__new__(GameState)
    forged.__dict__.update(fields)
    return forged


def _games() -> Iterator[tuple[GameConfig, int]]:
    for preset in ("thesis", "hle", "hanab-live"):
        for players in (2, 3, 4):
            for seed in range(6):
                yield make_config(players, preset=preset), seed


def _moves() -> Iterator[Move]:
    """Moves of real games: half by greedy open play, half stepping through the legal
    actions in turn (so that every kind of hint, misplays, strikeouts and full token
    pools occur)."""
    for config, seed in _games():
        state = initial_state(config, deck_from_seed(config, seed))
        while not state.terminal:
            options = legal_actions(state)
            if seed % 2 == 0:
                action = greedy_open_action(state)
            else:
                action = options[(state.turns * 7 + seed) % len(options)]
            after = apply_legal(state, action)
            yield state, action, after
            state = after


_MOVES: list[Move] | None = None


def moves() -> list[Move]:
    global _MOVES
    if _MOVES is None:
        _MOVES = list(_moves())
    return _MOVES


def find(predicate: Callable[[GameState, Action, GameState], bool]) -> Move:
    for move in moves():
        if predicate(*move):
            return move
    raise AssertionError("no move of the sample games fits")


def _card(state: GameState, action: Action) -> int:
    return state.deck[state.hands[state.current_player][action.slot]]  # type: ignore[union-attr]


def _succeeds(state: GameState, action: Action) -> bool:
    n = state.config.values
    card = _card(state, action)
    return state.fireworks[card // n] == card % n


def _replace_seat(values: tuple[Any, ...], seat: int, new: Any) -> tuple[Any, ...]:
    return values[:seat] + (new,) + values[seat + 1 :]


def _flip_first_knowledge(result: GameState, seat: int) -> GameState:
    known = result.knowledge[seat]
    return forge(result, knowledge=_replace_seat(result.knowledge, seat, (known[0] ^ 1,) + known[1:]))


Situation = Callable[[GameState, Action, GameState], bool]
Tamper = Callable[[GameState, Action, GameState], GameState]

MOVE_TAMPERS: dict[str, tuple[Situation, Tamper]] = {
    "2.16-2a-value": (
        lambda s, a, r: isinstance(a, Hint) and a.kind == "value",
        lambda s, a, r: _flip_first_knowledge(r, a.target),  # type: ignore[union-attr]
    ),
    "2.16-2a-suit": (
        lambda s, a, r: isinstance(a, Hint) and a.kind == "colour",
        lambda s, a, r: _flip_first_knowledge(r, a.target),  # type: ignore[union-attr]
    ),
    "2.16-2a-cost": (lambda s, a, r: isinstance(a, Hint), lambda s, a, r: forge(r, clue_tokens=s.clue_tokens)),
    "2.16-2b-discard": (lambda s, a, r: isinstance(a, Discard), lambda s, a, r: forge(r, discard=s.discard)),
    "2.16-2b-token": (
        lambda s, a, r: isinstance(a, Discard) and s.clue_tokens < s.config.max_hints,
        lambda s, a, r: forge(r, clue_tokens=s.clue_tokens),
    ),
    "2.16-2b-draw": (
        lambda s, a, r: isinstance(a, Discard) and r.next_card > s.next_card,
        lambda s, a, r: forge(r, next_card=s.next_card),
    ),
    "2.16-2b": (
        lambda s, a, r: not isinstance(a, Hint),
        lambda s, a, r: forge(r, hands=_replace_seat(r.hands, (s.current_player + 1) % s.config.players, r.hands[(s.current_player + 1) % s.config.players][::-1])),
    ),
    "2.16-2c-success": (
        lambda s, a, r: isinstance(a, Play) and _succeeds(s, a),
        lambda s, a, r: forge(r, fireworks=s.fireworks),
    ),
    "2.16-2c-five": (
        lambda s, a, r: isinstance(a, Play) and _succeeds(s, a) and _card(s, a) % s.config.values == s.config.values - 1 and s.clue_tokens < s.config.max_hints,
        lambda s, a, r: forge(r, clue_tokens=s.clue_tokens),
    ),
    "2.16-2c-fail": (
        lambda s, a, r: isinstance(a, Play) and not _succeeds(s, a),
        lambda s, a, r: forge(r, strikes=s.strikes),
    ),
    "2.16-2c-strikeout": (
        lambda s, a, r: isinstance(a, Play) and r.remaining == -1,
        lambda s, a, r: forge(r, remaining=None),
    ),
    "2.16-2-next": (lambda s, a, r: True, lambda s, a, r: forge(r, current_player=s.current_player)),
    "2.16-2-R": (
        lambda s, a, r: s.remaining is not None and s.remaining > 1 and r.remaining != -1,
        lambda s, a, r: forge(r, remaining=s.remaining),
    ),
    "2.16-3": (lambda s, a, r: True, lambda s, a, r: forge(r, terminal=not r.terminal)),
    "2.16-3-last-round": (
        lambda s, a, r: s.remaining is None and r.remaining == s.config.players,
        lambda s, a, r: forge(r, remaining=None),
    ),
    "2.9": (lambda s, a, r: True, lambda s, a, r: forge(r, deck=r.deck[::-1])),
    "2.17-history": (lambda s, a, r: True, lambda s, a, r: forge(r, history=s.history + (r.history[-1]._replace(player=(s.current_player + 1) % s.config.players),))),
    "PR-legal-action": (
        lambda s, a, r: not r.terminal,
        lambda s, a, r: forge(r, hands=_replace_seat(r.hands, r.current_player, ())),
    ),
}


def test_every_move_condition_has_a_tampering() -> None:
    """[2.16-2] a condition added to conditions.POSTCONDITIONS needs a tampering here."""
    assert sorted(c.clause for c in conditions.POSTCONDITIONS) == sorted(MOVE_TAMPERS)


def test_every_condition_holds_on_real_moves() -> None:
    """[2.16-2, 2.16-3] the conditions accept every move of the sample games (they are
    checked by apply_legal already; here each one is asked directly)."""
    for state, action, result in moves():
        for condition in conditions.POSTCONDITIONS:
            if isinstance(action, condition.kinds):
                assert condition.holds(state, action, result), (condition.clause, state.turns, action)


@pytest.mark.parametrize("clause", sorted(MOVE_TAMPERS))
def test_move_condition_fires_on_a_tampered_result(clause: str) -> None:
    """Every condition rejects a result tampered against its clause, and check_move
    raises a ViolationError naming the first clause broken (this one, when every
    condition before it still holds)."""
    situation, tamper = MOVE_TAMPERS[clause]
    state, action, result = find(situation)
    tampered = tamper(state, action, result)
    (condition,) = [c for c in conditions.POSTCONDITIONS if c.clause == clause]
    assert condition.holds(state, action, result)
    assert not condition.holds(state, action, tampered)
    with pytest.raises(icontract.ViolationError) as error:
        conditions.check_move(state, action, tampered)
    applicable = [c for c in conditions.POSTCONDITIONS if isinstance(action, c.kinds)]
    first = next(c for c in applicable if not c.holds(state, action, tampered))
    assert str(error.value).startswith(first.clause + ":")


def test_a_helper_bug_is_caught_by_the_conditions(monkeypatch: pytest.MonkeyPatch) -> None:
    """[2.16-3] the conditions do not call the helpers the steps call: step 3 forgetting
    the maximum score (a bug planted in ``stop_clause``) is refused by the 2.16-3
    condition on the first move that completes every field."""
    original = stop_clause

    def forgetful(config: Any, deck: Any, fields: Any, discard: Any, remaining: Any, played: Any = ()) -> str | None:
        clause = original(config, deck, fields, discard, remaining, played)
        return None if clause == "2.16-3-max" else clause

    config = make_config(2)
    seed = next(seed for seed in range(200) if _greedy_score(config, seed) == tables_for(config).max_score)
    monkeypatch.setattr(transition, "stop_clause", forgetful)
    with pytest.raises(icontract.ViolationError) as error:
        _greedy_score(config, seed)
    assert str(error.value).startswith("2.16-3:")


def _greedy_score(config: GameConfig, seed: int) -> int:
    state = initial_state(config, deck_from_seed(config, seed))
    while not state.terminal:
        state = apply_legal(state, greedy_open_action(state))
    return sum(state.fireworks)


def test_precondition_fires_on_an_illegal_action() -> None:
    """[2.16-2a-token] the trusted path still checks legality as a precondition."""
    state, _, _ = find(lambda s, a, r: s.clue_tokens == 0)
    hint = Hint((state.current_player + 1) % state.config.players, "value", 1)
    with pytest.raises(icontract.ViolationError) as error:
        apply_legal(state, hint)
    assert str(error.value).startswith("2.16-2a-token:")


# ------------------------------------------------------------ state invariants

INVARIANT_TAMPERS: dict[str, Callable[[GameState], dict[str, Any]]] = {
    "2.13-conservation": lambda s: {"discard": s.discard + (s.hands[0][0],)},
    "2.13-4": lambda s: {"fireworks": (s.fireworks[0] + 1,) + s.fireworks[1:]},
    "2.13-hand-size": lambda s: {"hands": ((s.hands[0][0],),) + s.hands[1:], "knowledge": ((s.knowledge[0][0],),) + s.knowledge[1:]},
    "2.14-sound": lambda s: {"knowledge": ((0,) + s.knowledge[0][1:],) + s.knowledge[1:]},
    "2.16-tokens": lambda s: {"clue_tokens": s.config.max_hints + 1},
    "2.16-errors": lambda s: {"strikes": -1},
    "2.16-2-next": lambda s: {"current_player": s.config.players},
    "2.16-2-R": lambda s: {"remaining": s.config.players + 1},
}


def _invariant_clauses() -> list[str]:
    invariants = getattr(GameState, "__invariants__")
    return sorted(invariant.description.split(":")[0] for invariant in invariants)


def test_every_invariant_has_a_tampering() -> None:
    """[2.13] an invariant added to GameState needs a tampering here."""
    assert _invariant_clauses() == sorted(INVARIANT_TAMPERS)


@pytest.mark.parametrize("clause", sorted(INVARIANT_TAMPERS))
def test_invariant_fires(clause: str) -> None:
    """Building a state that breaks one invariant raises a ViolationError naming it."""
    state, _, _ = find(lambda s, a, r: s.turns == 3 and s.config.preset == "thesis")
    with pytest.raises(icontract.ViolationError) as error:
        attrs.evolve(state, **INVARIANT_TAMPERS[clause](state))
    # icontract's message: the decorator's location, then the description on line 2.
    assert str(error.value).splitlines()[1].startswith(clause + ":")


# ------------------------------------------------------------ icontract-decorated functions

Call = tuple[Callable[..., Any], dict[str, Any], Callable[[Any], Any]]


def _initial_call() -> Call:
    config = make_config(3)
    deck = deck_from_seed(config, 4)
    result = initial_state(config, deck)

    def tamper(description: str) -> Any:
        if description.startswith("2.16-1: D"):
            return forge(result, discard=(0,))
        if description.startswith("2.16-1: t"):
            return forge(result, clue_tokens=0)
        if description.startswith("2.16-1-deal"):
            return forge(result, next_card=0)
        return forge(result, knowledge=((1,),) + result.knowledge[1:])

    return transition.process_initialisation, {"config": config, "deck": deck, "result": result}, tamper


def state_cards(state: GameState) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(state.deck[c] for c in hand) for hand in state.hands)


def _forged_view(made: view.PlayerView, **changes: Any) -> view.PlayerView:
    forged: view.PlayerView = object.__new__(view.PlayerView)
    forged.__dict__.update(made.__dict__)
    forged.__dict__.update(changes)
    return forged


VIEW_TAMPERS: dict[str, Callable[[GameState, view.PlayerView], view.PlayerView]] = {
    "2.17-view: the seat sees every hand but its own": lambda s, v: _forged_view(v, cards=state_cards(s)),
    "2.17-view: a view holds only the listed fields, each of its type (no state, deck or stack order)": lambda s, v: _forged_view(
        v, deck=s.deck
    ),
    "2.17-view: the stack is seen only as its size": lambda s, v: _forged_view(v, deck_size=v.deck_size + 1),
}


def test_every_view_condition_has_a_tampering() -> None:
    """[2.17-view] a condition added to view.VIEW_CONDITIONS needs a tampering here."""
    assert sorted(message for message, _ in view.VIEW_CONDITIONS) == sorted(VIEW_TAMPERS)


@pytest.mark.parametrize("message", sorted(VIEW_TAMPERS))
def test_view_condition_fires(message: str) -> None:
    """[2.17-view] each condition of a view accepts the real view and rejects a view
    tampered against it; check_view raises a ViolationError with its message."""
    state, _, _ = find(lambda s, a, r: s.turns == 5)
    made = view.make_view(state, 1)
    (holds,) = [check for text, check in view.VIEW_CONDITIONS if text == message]
    assert holds(state, 1, made)
    tampered = VIEW_TAMPERS[message](state, made)
    assert not holds(state, 1, tampered)
    with pytest.raises(icontract.ViolationError) as error:
        view.check_view(state, 1, tampered)
    assert str(error.value).startswith(message)


def test_view_of_a_missing_seat_is_refused() -> None:
    """[2.17-view] asking for the view of a seat that does not exist is a bug of the caller."""
    state, _, _ = find(lambda s, a, r: s.turns == 5)
    with pytest.raises(icontract.ViolationError) as error:
        view.make_view(state, state.config.players)
    assert str(error.value).startswith("2.17-view: the seat exists")


DECORATED: dict[str, Callable[[], Call]] = {}
"""Functions of the engine and the view with icontract postconditions (none: the deal's
are checked by hand, :func:`test_deal_conditions_fire`)."""


def _decorated_functions() -> list[str]:
    names = []
    for module in (transition, view, conditions):
        for name, value in vars(module).items():
            if callable(value) and getattr(value, "__postconditions__", None):
                names.append(name)
    return sorted(names)


def test_every_decorated_function_has_a_tampering() -> None:
    """[2.16-1, 2.17-view] a function of the engine or the view given a postcondition
    needs an entry here."""
    assert _decorated_functions() == sorted(DECORATED)


def test_deal_conditions_fire() -> None:
    """[2.16-1, 2.16-1-deal, 2.14-initial] every condition of step 1 accepts the dealt
    state and rejects a result tampered against its description, and check_deal names
    it; the deal checks them (a forgetful deal is refused)."""
    function, arguments, tamper = _initial_call()
    config, result = arguments["config"], arguments["result"]
    assert [message.split(":")[0] for message, _ in conditions.DEAL_CONDITIONS] == [
        "2.16-1", "2.16-1", "2.16-1-deal", "2.14-initial"]
    for message, holds in conditions.DEAL_CONDITIONS:
        assert holds(config, result)
        tampered = tamper(message)
        assert not holds(config, tampered), message
        with pytest.raises(icontract.ViolationError) as error:
            conditions.check_deal(config, tampered)
        assert str(error.value).split(":")[0] == message.split(":")[0]


def test_a_deal_that_breaks_step_1_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """[2.16-1, CT-move] the deal runs check_deal on the state it built: a deal whose
    tokens start below t0 (a bug planted in the state the deal builds) is refused."""
    original = fastpath.build_state

    def spent(**fields: Any) -> GameState:
        return original(**dict(fields, clue_tokens=fields["clue_tokens"] - 1))

    monkeypatch.setattr(transition, "build_state", spent)
    config = make_config(3)
    with pytest.raises(icontract.ViolationError) as error:
        initial_state(config, deck_from_seed(config, 4))
    assert str(error.value).startswith("2.16-1: t = t0")


def test_decorated_postconditions_fire() -> None:
    """Every postcondition of each decorated function accepts the true result and rejects
    a result tampered against its description."""
    for name in sorted(DECORATED):
        function, arguments, tamper = DECORATED[name]()
        for group in getattr(function, "__postconditions__"):
            for contract in group if isinstance(group, list) else [group]:
                parameters = contract.condition_args
                assert contract.condition(**{p: arguments[p] for p in parameters})
                tampered = dict(arguments, result=tamper(contract.description))
                assert not contract.condition(**{p: tampered[p] for p in parameters}), contract.description
