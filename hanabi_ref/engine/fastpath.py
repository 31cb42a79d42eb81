"""The engine's speed idioms, in one place, so that the steps read as the steps [2.16-2,
2.17-history, CT-state].

A move is made millions of times in a simulation, and the plain Python of the steps
(one :class:`~hanabi_ref.engine.state.GameState` per change with ``attrs.evolve``, events
made by keyword) costs several times what the move itself does.  Three idioms remove that
cost; each builds exactly what the plain construction builds, and a test compares the two:

* :class:`MoveVariables`: the variables of Algorithm 2.16 while one move is made, as
  plain values, copied from the state once, replaced by the steps of
  :mod:`hanabi_ref.engine.transition` as they change, and made into one state once
  (:meth:`MoveVariables.finish`: the state before the move with the move's variables
  written over its fields).  It repeats the state's fields because a state is frozen
  and the steps change several of them.
* :func:`build_state`: a state whose ``__dict__`` is made in one step, rather than by
  attrs' frozen ``__init__`` (fifteen ``object.__setattr__`` calls) wrapped by icontract's
  invariant check (several microseconds); with contracts on, the invariants are checked
  once, directly (:func:`~hanabi_ref.engine.state.check_invariants`; after a move from a
  checked state, from the areas it changed:
  :func:`~hanabi_ref.engine.state.check_successor_invariants`).  tests/test_state.py
  compares it with ``GameState(...)``.
* :func:`new_event`: an :class:`~hanabi_ref.engine.history.Event` built as its tuple
  (NamedTuple's keyword constructor costs twice as much); tests/test_state.py compares
  every event of a game with the one the constructor gives.
"""

from __future__ import annotations

from typing import TypeVar

from hanabi_ref.base.contracts import ENABLED
from hanabi_ref.engine.actions import Action
from hanabi_ref.engine.cards import CardId, Identity
from hanabi_ref.engine.history import Event, History
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import GameState, check_invariants, check_successor_invariants, mark_checked
from hanabi_ref.engine.tables import Tables


class MoveVariables:
    """The variables of Algorithm 2.16 while one move is made: copied from the state
    once, changed by the steps, made into one state by :meth:`finish`.

    Each is the state's own value, replaced by the step that changes it; a step that
    changes one seat's entry of a tuple (a hint, K of its target; a successful play, F
    of its suit) replaces the tuple with :func:`replaced`.  The mover's hand P_C and its
    knowledge sets are ``hand`` and ``known``: steps 2b and 2c take a card from them and
    the draw adds one, and :meth:`finish` writes them back into ``hands`` and
    ``knowledge`` once, with the hand's touch key.  ``mover`` is C before the move;
    ``left_hand``, ``card``, ``success``, ``touched`` and ``drawn`` are what the move's
    :class:`~hanabi_ref.engine.history.Event` records [2.17-history]."""

    __slots__ = (
        "config", "deck", "next_card", "hands", "knowledge", "fireworks", "played", "discard",
        "clue_tokens", "strikes", "current_player", "remaining", "turns", "history", "terminal", "tables",
        "before", "mover", "hand", "known", "left_hand", "card", "success", "touched", "drawn",
    )

    config: GameConfig
    deck: tuple[Identity, ...]
    next_card: int
    hands: tuple[tuple[CardId, ...], ...]
    knowledge: tuple[tuple[int, ...], ...]
    fireworks: tuple[int, ...]
    played: tuple[CardId, ...]
    discard: tuple[CardId, ...]
    clue_tokens: int
    strikes: int
    current_player: int
    remaining: int | None
    turns: int
    history: History
    terminal: bool
    tables: Tables
    before: GameState
    mover: int
    hand: tuple[CardId, ...]
    known: tuple[int, ...]
    left_hand: CardId | None
    card: Identity | None
    success: bool | None
    touched: tuple[int, ...]
    drawn: CardId | None

    def __init__(self, state: GameState) -> None:
        self.before, self.config, self.deck, self.tables = state, state.config, state.deck, state.tables
        self.next_card, self.hands, self.knowledge = state.next_card, state.hands, state.knowledge
        self.fireworks, self.played, self.discard = state.fireworks, state.played, state.discard
        self.clue_tokens, self.strikes = state.clue_tokens, state.strikes
        self.current_player, self.remaining, self.turns = state.current_player, state.remaining, state.turns
        self.history, self.terminal = state.history, state.terminal
        self.mover = mover = state.current_player
        self.hand, self.known = state.hands[mover], state.knowledge[mover]
        self.left_hand, self.card, self.success, self.touched, self.drawn = None, None, None, (), None

    def all_hands(self) -> tuple[tuple[CardId, ...], ...]:
        """Every hand as it is now, P_C included."""
        if self.hand is self.hands[self.mover]:
            return self.hands
        return replaced(self.hands, self.mover, self.hand)

    def finish(self) -> GameState:
        """The state these variables describe, built once [2.13, 2.14]: the fields of the
        state before the move (the configuration, S0 and the tables, which no move
        changes), each variable of the move written over its own.  With contracts on its
        invariants are checked from what the move changed, when the state before the move
        is one the engine checked, and the state is marked as checked beside its fields
        (:func:`~hanabi_ref.engine.state.check_successor_invariants`, CT-state)."""
        fields = self.before.__dict__.copy()
        mover, hand = self.mover, self.hand
        if hand is self.hands[mover]:
            fields["knowledge"] = self.knowledge
        else:
            # P_C changed (2b, 2c, the draw): it and K_C go back to their seat, and the
            # seat's touch key is the new hand's [2.16-2a-empty].
            fields["hands"] = replaced(self.hands, mover, hand)
            fields["knowledge"] = replaced(self.knowledge, mover, self.known)
            # legality.touch_key of the new hand, written out: this runs at every play
            # and discard, where a call with an iterator of identities costs more
            bits, deck, key = self.tables.touch_bits, self.deck, 0
            for card_id in hand:
                key |= bits[deck[card_id]]
            keys = self.before.touch_keys
            fields["touch_keys"] = (*keys[:mover], key, *keys[mover + 1 :])
        fields["next_card"] = self.next_card
        fields["fireworks"] = self.fireworks
        fields["played"] = self.played
        fields["discard"] = self.discard
        fields["clue_tokens"] = self.clue_tokens
        fields["strikes"] = self.strikes
        fields["current_player"] = self.current_player
        fields["remaining"] = self.remaining
        fields["turns"] = self.turns
        fields["history"] = self.history
        fields["terminal"] = self.terminal
        return state_of_fields(fields, self.before)


T = TypeVar("T")


def replaced(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with entry ``index`` replaced by ``value``."""
    return values[:index] + (value,) + values[index + 1 :]


def build_state(
    config: GameConfig,
    deck: tuple[Identity, ...],
    next_card: int,
    hands: tuple[tuple[CardId, ...], ...],
    knowledge: tuple[tuple[int, ...], ...],
    fireworks: tuple[int, ...],
    played: tuple[CardId, ...],
    discard: tuple[CardId, ...],
    clue_tokens: int,
    strikes: int,
    current_player: int,
    remaining: int | None,
    turns: int,
    history: History,
    terminal: bool,
    tables: Tables,
    touch_keys: tuple[int, ...],
) -> GameState:
    """A :class:`~hanabi_ref.engine.state.GameState` of these variables, as the engine
    builds one per move [CT-state].

    The state's ``__dict__`` is made in one step and holds what attrs' generated frozen
    ``__init__`` would put there (tests/test_state.py compares the two); with contracts
    on, the class's invariants are then checked once by
    :func:`~hanabi_ref.engine.state.check_invariants`."""
    return state_of_fields({
        "config": config, "deck": deck, "next_card": next_card, "hands": hands, "knowledge": knowledge,
        "fireworks": fireworks, "played": played, "discard": discard, "clue_tokens": clue_tokens, "strikes": strikes,
        "current_player": current_player, "remaining": remaining, "turns": turns, "history": history, "terminal": terminal,
        "tables": tables, "touch_keys": touch_keys,
    })


def state_of_fields(fields: dict[str, object], before: GameState | None = None) -> GameState:
    """The :class:`~hanabi_ref.engine.state.GameState` whose ``__dict__`` is ``fields``
    (every field of the class; the dictionary becomes the state's own), its invariants
    checked once with contracts on [CT-state]: in whole, or, for the state one move made
    from ``before``, from the areas the move changed
    (:func:`~hanabi_ref.engine.state.check_successor_invariants`, which also writes the
    engine's mark over any that ``fields`` copied from ``before``)."""
    state: GameState = _new_state(GameState)
    _set_dict(state, "__dict__", fields)
    if ENABLED:
        if before is None:
            check_invariants(state)
            mark_checked(state)  # the whole check passed: the first move is checked from it
        else:
            check_successor_invariants(before, state)
    return state


_new_state = object.__new__
_set_dict = object.__setattr__


def new_event(turn: int, player: int, action: Action, card_id: CardId | None, card: Identity | None,
              success: bool | None, touched: tuple[int, ...], drawn: CardId | None) -> Event:
    """``Event(turn, player, action, card_id, card, success, touched, drawn)``, built as
    its tuple directly [2.17-history]."""
    return tuple.__new__(Event, (turn, player, action, card_id, card, success, touched, drawn))
