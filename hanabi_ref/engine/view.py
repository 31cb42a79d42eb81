"""Information-restricted player views [2.17-view, E-8].

A strategy never sees a :class:`~hanabi_ref.engine.state.GameState`.  It sees a
:class:`PlayerView`: the other players' cards, every knowledge set (hints are public),
its own cards only as ids with their knowledge sets, the stack only as a size, the
fields, the discard pile, the tokens, the errors, whose turn it is and the public
history.  :func:`make_view` is the only way to build one; its contracts check that
nothing hidden from the seat got in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs
import icontract

from hanabi_ref.engine.actions import Action
from hanabi_ref.engine.cards import CardId, Identity
from hanabi_ref.base.contracts import ENABLED
from hanabi_ref.engine.legality import Problem, action_problem, enumerate_legal, hand_mask, is_deck_play_open, touch_key
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.tables import Tables, tables_for
from hanabi_ref.engine.state import GameState, History, SealedHistory, sealed_history, sealed_successor, deck_size

class _ViewKey:
    """The private token that only :func:`make_view` passes to :class:`PlayerView`."""


_VIEW_KEY = _ViewKey()


@attrs.frozen(slots=False, repr=False)
class PlayerView:
    """Everything seat ``seat`` may know, and nothing else [2.17-view].

    ``cards[j][slot]`` is the identity of seat j's card, ``None`` for the seat's own
    cards; ``discard`` and ``played`` pair card ids with their (public) identities.

    The class keeps its attributes in a ``__dict__`` rather than slots: a game builds
    one view per seat after every move, and :func:`make_view` fills a view by copying
    the fields every seat shares in one step (see there).

    The fields have the state's names, which are the JSON's (``clue_tokens``, ``strikes``,
    ``fireworks``, ``deck_size``, ``turns``, ``current_player``) [API-names];
    ``str`` is the board as this seat sees it, ``repr`` one line [SH-board].

    ``tables`` are the configuration's lookup tables, which legality reads: the state's,
    or under a sealed :class:`ViewMaker` the seat's own copy (ISO-views); like the
    state's, they are no part of the view's value (equality, ``repr``, JSON).
    """

    config: GameConfig
    seat: int
    turns: int
    current_player: int
    hands: tuple[tuple[CardId, ...], ...]
    cards: tuple[tuple[Identity | None, ...], ...]
    knowledge: tuple[tuple[int, ...], ...]
    deck_size: int
    fireworks: tuple[int, ...]
    played: tuple[tuple[CardId, Identity], ...]
    discard: tuple[tuple[CardId, Identity], ...]
    clue_tokens: int
    strikes: int
    remaining: int | None
    terminal: bool
    history: History
    tables: Tables = attrs.field(eq=False, repr=False)
    key: _ViewKey | None = attrs.field(eq=False, repr=False, default=None)

    def __attrs_post_init__(self) -> None:
        if self.key is not _VIEW_KEY:
            raise TypeError("PlayerView is built only by hanabi_ref.engine.view.make_view [2.17-view]")

    @property
    def own_hand(self) -> tuple[CardId, ...]:
        """The card ids in this seat's own hand, in slot order."""
        return self.hands[self.seat]

    @property
    def own_knowledge(self) -> tuple[int, ...]:
        """K_c for each card in this seat's own hand."""
        return self.knowledge[self.seat]

    @property
    def score(self) -> int:
        """The score step 3 would return now, from what every seat sees [2.16-3]."""
        from hanabi_ref.engine.state import public_score

        return public_score(self.config, self.fireworks, self.remaining)

    def legal_actions(self) -> list[Action]:
        """The legal actions, from the acting seat's view (:func:`view_legal_actions`)."""
        return view_legal_actions(self)

    def __str__(self) -> str:
        from hanabi_ref.engine.show import view_board

        return view_board(self)

    def __repr__(self) -> str:
        over = " over" if self.terminal else ""
        return (f"<PlayerView seat {self.seat} of {self.config.players}, turn {self.turns}{over}, seat "
                f"{self.current_player} to act, clue_tokens {self.clue_tokens}, strikes {self.strikes}, deck {self.deck_size}>")


def _hides_own_cards(state: GameState, seat: int, view: PlayerView) -> bool:
    """[2.17-view] the seat's own cards are hidden, every other hand is shown as it is."""
    deck = state.deck
    return all(card is None for card in view.cards[seat]) and all(
        view.cards[j] == tuple(deck[c] for c in state.hands[j])
        for j in range(state.config.players)
        if j != seat
    )


def _is_count(value: object) -> bool:
    return type(value) is int


def _is_counts(value: object) -> bool:
    return type(value) is tuple and all(type(item) is int for item in value)


def _is_rows_of_counts(value: object) -> bool:
    return type(value) is tuple and all(_is_counts(row) for row in value)


def _is_rows_of_cards(value: object) -> bool:
    return type(value) is tuple and all(
        type(row) is tuple and all(item is None or type(item) is int for item in row) for row in value
    )


def _is_pair(value: object) -> bool:
    return type(value) is tuple and len(value) == 2 and _is_counts(value)


def _is_pairs(value: object) -> bool:
    return type(value) is tuple and all(_is_pair(pair) for pair in value)


VIEW_HOLDS: dict[str, Callable[[object], bool]] = {
    "config": lambda value: type(value) is GameConfig,
    "seat": _is_count,
    "turns": _is_count,
    "current_player": _is_count,
    "hands": _is_rows_of_counts,  # card ids (positions in the deck), not identities
    "cards": _is_rows_of_cards,  # identities, None for the seat's own cards
    "knowledge": _is_rows_of_counts,  # K_c as bitmasks
    "deck_size": _is_count,
    "fireworks": _is_counts,
    "played": _is_pairs,  # (card id, identity) of cards face up
    "discard": _is_pairs,
    "clue_tokens": _is_count,
    "strikes": _is_count,
    "remaining": lambda value: value is None or type(value) is int,
    "terminal": lambda value: type(value) is bool,
    "history": lambda value: type(value) in (History, SealedHistory),
    "tables": lambda value: type(value) is Tables,
    "key": lambda value: value is _VIEW_KEY,
}
"""What a view may hold [2.17-view]: each attribute a :class:`PlayerView` has, by name,
with a test of its value's type.  Every value is a public quantity of 2.17-view or
public knowledge (the configuration and its tables, the history of 2.17-history); nothing here has room
for a state, a deck or the stack's order but the lists of integers whose meaning the
other conditions check."""


def _carries_no_hidden_field(state: GameState, seat: int, view: PlayerView) -> bool:
    """[2.17-view] the view holds exactly the attributes :data:`VIEW_HOLDS` lists, each
    of its listed type, and nothing else (a state, the deck or the stack's order under
    any name is refused because it is not listed)."""
    held = view.__dict__
    return held.keys() == VIEW_HOLDS.keys() and all(VIEW_HOLDS[name](value) for name, value in held.items())


def _shows_stack_size_only(state: GameState, seat: int, view: PlayerView) -> bool:
    """[2.17-view] the stack is seen only as its size."""
    return view.deck_size == deck_size(state)


ViewCheck = Callable[[GameState, int, PlayerView], bool]

VIEW_CONDITIONS: tuple[tuple[str, ViewCheck], ...] = (
    ("2.17-view: the seat sees every hand but its own", _hides_own_cards),
    ("2.17-view: a view holds only the listed fields, each of its type (no state, deck or stack order)", _carries_no_hidden_field),
    ("2.17-view: the stack is seen only as its size", _shows_stack_size_only),
)
"""What :func:`make_view` checks with contracts on, each a reading of 2.17-view
independent of how the view was filled (tests/test_conditions.py fires each)."""


def check_view(state: GameState, seat: int, view: PlayerView) -> None:
    """Raise :class:`icontract.ViolationError` naming the first condition of 2.17-view
    that ``view`` breaks as the view of ``state`` from ``seat`` [2.17-view, CT-view]."""
    for message, holds in VIEW_CONDITIONS:
        if not holds(state, seat, view):
            raise icontract.ViolationError(f"{message} (seat {seat}, turn {state.turns})")


def make_view(state: GameState, seat: int) -> PlayerView:
    """The view of ``state`` from ``seat`` [2.17-view]; see :func:`make_views`."""
    return make_views(state, (seat,))[0]


def make_views(state: GameState, seats: Sequence[int]) -> list[PlayerView]:
    """The views of ``state`` from each of ``seats`` [2.17-view], each built alone: they
    share the state's configuration and history objects.  Views handed to strategies
    come from a game's :class:`ViewMaker`, which gives every seat objects of its own
    [ISO-views]."""
    return ViewMaker(state.config, sealed=False).views(state, seats)


_Parts = tuple[dict[str, object], tuple[tuple[int, ...], ...]]

_Pairs = tuple[tuple[int, int], ...]

_Memo = tuple[tuple[int, ...], tuple[int, ...], _Pairs, tuple[int, ...], _Pairs, tuple[tuple[int, ...], ...], tuple[tuple[int, ...], ...]]


class ViewMaker:
    """Builds the views of one game's states, seat by seat [2.17-view, ISO-views, ISO-memo].

    The fields every seat's view shares are computed once per state (:meth:`_public_parts`,
    reusing the last state's parts: a move changes at most one hand and adds at most one
    card to the fields or the discard pile).  That memo lives in this object, which the
    game's runner holds, never in a module: nothing of the game is reachable by
    importing a module [ISO-memo].

    ``sealed`` (the runner's setting): no object a seat can change with plain Python is
    shared between two seats' views, nor between a view and the game [ISO-views].  Each
    seat has its own copy of the configuration's tables (:meth:`Tables.for_seat
    <hanabi_ref.engine.tables.Tables.for_seat>`: its own attribute dictionary and action
    memos; what copies share is immutable: tuples, integers, strings and frozen slotted
    records, the configuration among them), and the views of a state share one
    :class:`~hanabi_ref.engine.state.SealedHistory` (a tuple of events that cannot be set); the
    rest of a view is integers and tuples of integers.  So what one seat writes into the
    objects of its view (an attribute planted, a memo poisoned) stays in its view: no
    other seat and not the game sees it.  Unsealed (:func:`make_views`), views share the
    state's tables and history.  A maker may serve game after game of one
    configuration (its seats' copies then keep their memos)."""

    def __init__(self, config: GameConfig, *, sealed: bool = True) -> None:
        self._sealed = sealed
        tables = tables_for(config)
        self._tables = [tables.for_seat() if sealed else tables for _ in range(config.players)]
        self._history: SealedHistory = sealed_history(())
        self._memo: _Memo | None = None

    def views(self, state: GameState, seats: Sequence[int]) -> list[PlayerView]:
        """The views of ``state`` from each of ``seats`` [2.17-view].

        Each view is filled as attrs' own generated ``__init__`` fills a frozen dict
        class, by writing its ``__dict__``, with the shared fields copied in one step.
        The result equals ``PlayerView(...)`` called with every field (tests/test_views.py
        compares them).  With contracts on, each view is checked against 2.17-view
        (:data:`VIEW_CONDITIONS`); a seat that does not exist is a bug of the caller."""
        if ENABLED:
            for seat in seats:
                if not 0 <= seat < state.config.players:
                    raise icontract.ViolationError(f"2.17-view: the seat exists (seat {seat})")
        shared, identities = self._public_parts(state)
        views = []
        for seat in seats:
            view: PlayerView = object.__new__(PlayerView)
            fields = view.__dict__
            fields.update(shared)
            fields["seat"] = seat
            if self._sealed:
                fields["tables"] = self._tables[seat]
            cards: list[tuple[int | None, ...]] = list(identities)
            cards[seat] = (None,) * len(identities[seat])
            fields["cards"] = tuple(cards)
            fields["key"] = _VIEW_KEY
            if ENABLED:
                check_view(state, seat, view)
            views.append(view)
        return views

    def _public_parts(self, state: GameState) -> _Parts:
        """The fields of a view of ``state`` that do not depend on the seat, and the
        identities of the cards in every hand, reusing the last state's (parts are reused
        only for the very same objects: tuples are immutable, and the same deck object
        gives the same identities; tests/test_views.py compares the result with views
        built from scratch along whole games)."""
        deck = state.deck
        last = self._memo
        if last is None or last[0] is not deck:
            last = (deck, (), (), (), (), (), ())
        played = _pairs_of(deck, state.played, last[1], last[2])
        discard = _pairs_of(deck, state.discard, last[3], last[4])
        last_hands, last_identities = last[5], last[6]
        identities = tuple(
            last_identities[seat]
            if seat < len(last_hands) and hand is last_hands[seat]
            else tuple([deck[card_id] for card_id in hand])
            for seat, hand in enumerate(state.hands)
        )
        self._memo = (deck, state.played, played, state.discard, discard, state.hands, identities)
        history: History = state.history
        if self._sealed:
            history = self._history = sealed_successor(self._history, history)
        shared: dict[str, object] = {
            "config": state.config,
            "turns": state.turns,
            "current_player": state.current_player,
            "hands": state.hands,
            "knowledge": state.knowledge,
            "deck_size": deck_size(state),
            "fireworks": state.fireworks,
            "played": played,
            "discard": discard,
            "clue_tokens": state.clue_tokens,
            "strikes": state.strikes,
            "remaining": state.remaining,
            "terminal": state.terminal,
            "history": history,
            "tables": state.tables,
        }
        return shared, identities


def _pairs_of(deck: tuple[int, ...], ids: tuple[int, ...], last_ids: tuple[int, ...], last_pairs: _Pairs) -> _Pairs:
    """``ids`` paired with their identities, from the pairs of ``last_ids`` when ``ids``
    is that tuple or extends it by one card."""
    if ids is last_ids:
        return last_pairs
    known = len(last_ids)
    if len(ids) == known + 1 and ids[:known] == last_ids:
        card_id = ids[known]
        return last_pairs + ((card_id, deck[card_id]),)
    return tuple(zip(ids, map(deck.__getitem__, ids)))


def _view_mask_of(view: PlayerView) -> Callable[[int], int | None]:
    """``mask_of`` of :func:`~hanabi_ref.engine.legality.action_problem` from the view: the
    touch key of another seat's hand, computed only when legality asks."""
    bits = view.tables.touch_bits

    def mask_of(seat: int) -> int | None:
        if seat == view.current_player or seat == view.seat:
            return None
        return touch_key(bits, view.cards[seat])  # type: ignore[arg-type]

    return mask_of


def _check_acting(view: PlayerView, clause: str) -> None:
    """With contracts on: legality is asked only from the acting seat's view (a bug of
    the caller otherwise)."""
    if ENABLED and view.seat != view.current_player:
        raise icontract.ViolationError(f"{clause}: legality is decided from the acting seat's view (seat {view.seat})")


def view_legal_actions(view: PlayerView) -> list[Action]:
    """The legal actions of the player to move, decided from that player's view [2.16-actions].

    Legality never depends on the actor's own cards (the only cards it cannot see), so
    this equals :func:`hanabi_ref.engine.legality.legal_actions` of the state."""
    _check_acting(view, "2.16-actions")
    if view.terminal:
        return []
    mask_of = _view_mask_of(view)
    return enumerate_legal(
        view.tables,
        view.clue_tokens,
        view.current_player,
        len(view.hands[view.current_player]),
        [mask_of(seat) for seat in range(view.config.players)],
        is_deck_play_open(view.config, view.deck_size),
    )


def view_is_legal(view: PlayerView, action: Action) -> bool:
    """Whether the player to move may take ``action``, decided from its own view [2.16-2]."""
    _check_acting(view, "2.16-2")
    return not view.terminal and view_action_problem(view, action) is None


def view_action_problem(view: PlayerView, action: Action) -> Problem | None:
    """(clause, reason) if the player to move may not take ``action``, decided from the
    view [2.16-2] (the game being over is not judged here: see :func:`view_is_legal`)."""
    return action_problem(
        view.tables,
        view.clue_tokens,
        view.current_player,
        len(view.hands[view.current_player]),
        _view_mask_of(view),
        action,
        is_deck_play_open(view.config, view.deck_size),
    )


__all__ = ["PlayerView", "ViewMaker", "make_view", "make_views", "check_view", "view_legal_actions",
           "view_is_legal", "view_action_problem", "hand_mask"]


_VIEW_FIELDS = frozenset(field.name for field in attrs.fields(PlayerView) if field.name not in ("key", "tables"))


def view_from_parts(parts: dict[str, object]) -> PlayerView:
    """A view rebuilt from its fields, as a seat in another process receives them
    [ISO-view, 2.17-view]: ``parts`` names every field of :class:`PlayerView` (values of
    the field's type; the caller decoded them), nothing else, except the tables, which
    may be given and are otherwise those of the configuration
    (:func:`~hanabi_ref.engine.tables.tables_for`).  No state is at hand to check the
    view against: an isolated seat can only be given what was serialised."""
    if parts.keys() - {"tables"} != _VIEW_FIELDS:
        raise ValueError(f"ISO-view: a view has exactly the fields {sorted(_VIEW_FIELDS)}")
    view: PlayerView = object.__new__(PlayerView)
    fields = view.__dict__
    fields.update(parts)
    if "tables" not in fields:
        config = parts["config"]
        assert isinstance(config, GameConfig)
        fields["tables"] = tables_for(config)
    fields["key"] = _VIEW_KEY
    return view
