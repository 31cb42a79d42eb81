"""Information-restricted player views [2.17-view, E-8].

A strategy never sees a :class:`~hanabi_ref.state.GameState`.  It sees a
:class:`PlayerView`: the other players' cards, every knowledge set (hints are public),
its own cards only as ids with their knowledge sets, the stack only as a size, the
fields, the discard pile, the tokens, the errors, whose turn it is and the public
history.  :func:`make_view` is the only way to build one; its contracts check that
nothing hidden from the seat got in.
"""

from __future__ import annotations

from collections.abc import Callable

import attrs
import icontract

from hanabi_ref.actions import Action
from hanabi_ref.contracts import ENABLED
from hanabi_ref.legality import action_problem, enumerate_legal, hand_mask
from hanabi_ref.rules import GameConfig
from hanabi_ref.state import Event, GameState, stack_size

class _ViewKey:
    """The private token that only :func:`make_view` passes to :class:`PlayerView`."""


_VIEW_KEY = _ViewKey()


@attrs.frozen(slots=False)
class PlayerView:
    """Everything seat ``seat`` may know, and nothing else [2.17-view].

    ``cards[j][slot]`` is the identity of seat j's card, ``None`` for the seat's own
    cards; ``discard`` and ``played`` pair card ids with their (public) identities.

    The class keeps its attributes in a ``__dict__`` rather than slots: a game builds
    one view per seat after every move, and :func:`make_view` fills a view by copying
    the fields every seat shares in one step (see there).
    """

    config: GameConfig
    seat: int
    turn: int
    current_player: int
    hands: tuple[tuple[int, ...], ...]
    cards: tuple[tuple[int | None, ...], ...]
    knowledge: tuple[tuple[int, ...], ...]
    stack_size: int
    fields: tuple[int, ...]
    played: tuple[tuple[int, int], ...]
    discard: tuple[tuple[int, int], ...]
    hints: int
    errors: int
    remaining: int | None
    terminal: bool
    history: tuple[Event, ...]
    key: _ViewKey | None = attrs.field(eq=False, repr=False, default=None)

    def __attrs_post_init__(self) -> None:
        if self.key is not _VIEW_KEY:
            raise TypeError("PlayerView is built only by hanabi_ref.view.make_view [2.17-view]")

    @property
    def own_hand(self) -> tuple[int, ...]:
        """The card ids in this seat's own hand, in slot order."""
        return self.hands[self.seat]

    @property
    def own_knowledge(self) -> tuple[int, ...]:
        """K_c for each card in this seat's own hand."""
        return self.knowledge[self.seat]


def _hides_own_cards(state: GameState, seat: int, view: PlayerView) -> bool:
    return all(card is None for card in view.cards[seat]) and all(
        view.cards[j] == tuple(state.deck[c] for c in state.hands[j])
        for j in range(state.config.players)
        if j != seat
    )


def _carries_no_hidden_field(view: PlayerView) -> bool:
    """No attribute of the view is a GameState or holds the deck order."""
    return all(not isinstance(getattr(view, f.name), GameState) for f in attrs.fields(PlayerView)) and not hasattr(view, "deck")


@icontract.require(lambda state, seat: 0 <= seat < state.config.players, "2.17-view: the seat exists", enabled=ENABLED)
@icontract.ensure(lambda state, seat, result: _hides_own_cards(state, seat, result), "2.17-view: the seat sees every hand but its own", enabled=ENABLED)
@icontract.ensure(lambda result: _carries_no_hidden_field(result), "2.17-view: no state, deck or stack order reaches a view", enabled=ENABLED)
@icontract.ensure(lambda state, result: result.stack_size == stack_size(state), "2.17-view: the stack is seen only as its size", enabled=ENABLED)
def make_view(state: GameState, seat: int) -> PlayerView:
    """The view of ``state`` from ``seat`` [2.17-view].

    The fields every seat's view of ``state`` shares are computed once per state
    (:func:`_public_parts`); the view is then filled as attrs' own generated
    ``__init__`` fills a frozen dict class, by writing its ``__dict__``, with the shared
    fields copied in one step.  The result equals ``PlayerView(...)`` called with every
    field (tests/test_views.py compares them)."""
    shared, identities = _public_parts(state)
    view: PlayerView = object.__new__(PlayerView)
    fields = view.__dict__
    fields.update(shared)
    fields["seat"] = seat
    cards: list[tuple[int | None, ...]] = list(identities)
    cards[seat] = (None,) * len(identities[seat])
    fields["cards"] = tuple(cards)
    fields["key"] = _VIEW_KEY
    return view


_Parts = tuple[dict[str, object], tuple[tuple[int, ...], ...]]
_last_parts: tuple[GameState, _Parts] | None = None


def _public_parts(state: GameState) -> _Parts:
    """The fields of a view of ``state`` that do not depend on the seat, and the
    identities of the cards in every hand.  Every seat's view of a state shares them (a
    game builds one view per observing seat after each move), so the last state's are
    kept; the entry holds the state itself and is replaced in one assignment."""
    global _last_parts
    entry = _last_parts
    if entry is not None and entry[0] is state:
        return entry[1]
    deck = state.deck
    shared: dict[str, object] = {
        "config": state.config,
        "turn": state.turn,
        "current_player": state.current,
        "hands": state.hands,
        "knowledge": state.knowledge,
        "stack_size": stack_size(state),
        "fields": state.fields,
        "played": tuple((c, deck[c]) for c in state.played),
        "discard": tuple((c, deck[c]) for c in state.discard),
        "hints": state.hints,
        "errors": state.errors,
        "remaining": state.remaining,
        "terminal": state.terminal,
        "history": state.history,
    }
    parts = (shared, tuple(tuple(deck[c] for c in hand) for hand in state.hands))
    _last_parts = (state, parts)
    return parts


def _view_mask_of(view: PlayerView) -> Callable[[int], int | None]:
    """``mask_of`` of :func:`~hanabi_ref.legality.action_problem` from the view: the
    identity bitmask of another seat's hand, computed only when legality asks."""

    def mask_of(seat: int) -> int | None:
        if seat == view.current_player or seat == view.seat:
            return None
        mask = 0
        for card in view.cards[seat]:
            mask |= 1 << card  # type: ignore[operator]
        return mask

    return mask_of


@icontract.require(lambda view: view.seat == view.current_player, "2.16-actions: legality is decided from the acting seat's view", enabled=ENABLED)
def view_legal_actions(view: PlayerView) -> list[Action]:
    """The legal actions of the player to move, decided from that player's view [2.16-actions].

    Legality never depends on the actor's own cards (the only cards it cannot see), so
    this equals :func:`hanabi_ref.legality.legal_actions` of the state."""
    if view.terminal:
        return []
    return enumerate_legal(
        view.config,
        view.hints,
        view.current_player,
        len(view.hands[view.current_player]),
        _view_mask_of(view),
    )


@icontract.require(lambda view: view.seat == view.current_player, "2.16-2: legality is decided from the acting seat's view", enabled=ENABLED)
def view_is_legal(view: PlayerView, action: Action) -> bool:
    """Whether the player to move may take ``action``, decided from its own view [2.16-2]."""
    return not view.terminal and action_problem(
        view.config,
        view.hints,
        view.current_player,
        len(view.hands[view.current_player]),
        _view_mask_of(view),
        action,
    ) is None


__all__ = ["PlayerView", "make_view", "view_legal_actions", "view_is_legal", "hand_mask"]
