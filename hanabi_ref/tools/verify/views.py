"""What an engine shows each seat, checked against our player view [EP-views, 2.17-view, T-view].

At every compared state, an engine that shows views (EP-observe) is asked for the view
of every seat, and each is compared with ours, which is built from the
information-restricted :class:`~hanabi_ref.engine.view.PlayerView` (never from the state).
Two kinds of finding, each a field ``view[i].<field>`` of a divergence:

* a **leak** (2.17-view): an identity shown for one of the seat's own cards, even the
  right one; knowledge of an own card that rules out an identity the hints still allow
  (more than the rules give); any member that T-view does not have (a deck, the next
  card, the stack's order, ...);
* a **wrong** field (EP-views): a public field that differs from ours, JSON types
  included (EP-types), a card of another seat hidden or misnamed, knowledge that allows
  more than ours.

Every difference of every seat is listed, leaks first.  A field the engine leaves out
is not compared (T-view), as in a state (EP-compare).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from hanabi_ref.engine.actions import Action
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.formats.serial import views_to_json
from hanabi_ref.engine.state import GameState
from hanabi_ref.tools.verify.equality import json_equal, reports_the_same, same_json, type_note
from hanabi_ref.tools.protocol.engine import Engine, EngineFailure
from hanabi_ref.tools.protocol.seeded import Deal, dealing_engine
from hanabi_ref.tools.verify.report import Coverage, FieldDifference, LEAK, card_text, decisive_first, summary_of, summary_value
from hanabi_ref.engine.view import make_views

VIEW_FIELDS: Final = (
    "seat", "current", "hands", "knowledge", "fireworks", "discard", "clue_tokens",
    "strikes", "deck_size", "turns", "remaining", "terminal", "score",
)
"""The members of T-view, in comparison order."""

WRONG: Final = "wrong (EP-views)"

Difference = tuple[str, tuple[FieldDifference, ...]]


VIEW_MODES: Final = ("acting", "all", "none")
"""Whose views ``verify --views`` compares [EP-views]: *acting* (the default), the seat to
move at every compared state and every seat after the deal and once the game is over;
*all*, every seat at every compared state; *none*, no view."""


def viewed_seats(state: GameState, mode: str) -> range | tuple[int, ...]:
    """The seats whose views are compared at ``state`` under ``mode`` [EP-views]: the seat
    to move is the one whose view an agent acts on (an environment hands it that
    observation), so *acting* compares it at every state, and every seat's view where a
    game starts and ends."""
    if mode == "none":
        return ()
    if mode == "all" or state.terminal or state.turns == 0:
        return range(state.config.players)
    return (state.current_player,)


def view_divergence(engine: Engine, state: GameState, coverage: Coverage | None = None,
                    mode: str = "acting") -> Difference | None:
    """[EP-views] the views ``engine`` shows the seats that ``mode`` selects at ``state``
    (:func:`viewed_seats`), compared with ours: None when all agree (or the engine shows
    no views), else the one-line summary and every differing field, leaks first.
    ``coverage`` counts the views compared."""
    if not engine.shows_views:
        return None
    seats = viewed_seats(state, mode)
    if not seats:
        return None
    config = state.config
    found: list[FieldDifference] = []
    for ours in views_to_json(make_views(state, seats)):
        theirs = engine.observe(ours["seat"])
        if theirs is None:
            raise EngineFailure(f"{engine.name}: says it shows views but showed none to seat {ours['seat']}")
        if coverage is not None:
            coverage.saw_view()
        found += view_differences(ours, theirs, config)
    if not found:
        return None
    found.sort(key=lambda difference: not is_leak(difference))
    return differences_line(found, config), tuple(found)


def is_leak(difference: FieldDifference) -> bool:
    """Whether a view difference shows the seat something 2.17-view hides."""
    return difference.note.startswith(LEAK)


def view_differences(ours: dict[str, Any], theirs: object, config: GameConfig) -> list[FieldDifference]:
    """[EP-views, 2.17-view] every field where the engine's view ``theirs`` differs from
    our view ``ours`` (T-view) of the same seat, each with a note saying whether it is a
    leak or wrong; then every member that T-view does not have (each a leak)."""
    seat = ours["seat"]
    where = f"view[{seat}]"
    if not isinstance(theirs, dict):
        return [FieldDifference(where, ours, theirs, f"{WRONG}: expected an object")]
    if reports_the_same(ours, theirs):
        return []
    found = [FieldDifference(f"{where}.{key}", ours[key], theirs[key], field_note(key, seat, ours[key], theirs[key], config))
             for key in VIEW_FIELDS if key in theirs and not same_json(ours[key], theirs[key])]
    found += [FieldDifference(f"{where}.{key}", None, theirs[key], f"{LEAK}: not a view field (a view has only "
                              f"{', '.join(VIEW_FIELDS)})") for key in theirs if key not in VIEW_FIELDS]
    return found


def field_note(key: str, seat: int, ours: Any, theirs: object, config: GameConfig) -> str:
    """Why one differing field of seat ``seat``'s view is a leak or wrong."""
    if key == "hands":
        return _hands_note(seat, ours, theirs, config)
    if key == "knowledge":
        return _knowledge_note(seat, ours, theirs)
    return WRONG + type_note(ours, theirs, key)


# ------------------------------------------------------------------ hands


def _hands_note(seat: int, ours: list[list[Any]], theirs: object, config: GameConfig) -> str:
    """[2.17-view] an identity shown in the seat's own hand is a leak, whatever it is;
    any other difference (another seat's card hidden or wrong, a slot too many) is wrong."""
    rows = _rows(theirs)
    if rows is None:
        return f"{WRONG}: expected a list of hands"
    own = rows[seat] if seat < len(rows) else []
    shown = [(slot, card) for slot, card in enumerate(own) if card is not None]
    parts = []
    if shown:
        slots = ", ".join(f"slot {slot} as {card_text(card, config)}" for slot, card in shown)
        parts.append(f"{LEAK}: seat {seat} is shown its own {slots}")
    masked = [[None] * len(row) if index == seat else row for index, row in enumerate(rows)]
    wrong = _differing_seats(ours, masked)
    if wrong:
        parts.append(f"{WRONG}: the hand of seat {', '.join(map(str, wrong))} differs")
    return "; ".join(parts)


def _rows(value: object) -> list[list[Any]] | None:
    """``value`` as a list of lists (hands or knowledge per seat), or None."""
    if isinstance(value, list) and all(isinstance(row, list) for row in value):
        return value
    return None


def _differing_seats(ours: Sequence[object], theirs: Sequence[object]) -> list[int]:
    return [seat for seat in range(max(len(ours), len(theirs)))
            if seat >= len(ours) or seat >= len(theirs) or not json_equal(ours[seat], theirs[seat])]


# ------------------------------------------------------------------ knowledge


def _knowledge_note(seat: int, ours: list[list[dict[str, list[int]]]], theirs: object) -> str:
    """[2.17-view, 2.14] knowledge of an own card that rules out an identity our K_c
    allows tells the seat more than the hints: a leak; any other difference is wrong
    (knowledge is public, so another seat's K_c is compared as a public field)."""
    rows = _rows(theirs)
    if rows is None:
        return f"{WRONG}: expected a list of knowledge per seat"
    own = rows[seat] if seat < len(rows) else []
    narrowed = [slot for slot, (mine, yours) in enumerate(zip(ours[seat], own)) if rules_out_more(mine, yours)]
    parts = []
    if narrowed:
        parts.append(f"{LEAK}: seat {seat} is told more about its own slot {', '.join(map(str, narrowed))} "
                     "than the hints give")
    masked = [list(row) for row in rows]
    for slot in narrowed:
        masked[seat][slot] = ours[seat][slot]
    wrong = _differing_seats(ours, masked)
    if wrong:
        parts.append(f"{WRONG}: the knowledge of seat {', '.join(map(str, wrong))} differs")
    return "; ".join(parts)


def rules_out_more(ours: dict[str, list[int]], theirs: object) -> bool:
    """Whether the knowledge set ``theirs`` leaves out an identity that ours allows
    [2.14]: both are products of suits and values (T-state), so theirs contains ours
    exactly when its suits and its values contain ours."""
    if not isinstance(theirs, dict):
        return False
    suits, values = theirs.get("suits"), theirs.get("values")
    if not isinstance(suits, list) or not isinstance(values, list):
        return False
    return not (set(ours["suits"]) <= set(_plain_integers(suits)) and set(ours["values"]) <= set(_plain_integers(values)))


def _plain_integers(items: list[object]) -> list[int]:
    return [item for item in items if type(item) is int]


# ------------------------------------------------------------------ the summary


def differences_line(found: Sequence[FieldDifference], config: GameConfig | None = None) -> str:
    """[EP-report, EP-summary] the view differences in one line: the first (leaks first,
    then the decisive field) in words, the others by name."""
    found = decisive_first(found)
    first = found[0]
    if first.field.endswith((".hands", ".knowledge")) and is_leak(first):
        line = f"{first.field}: {first.note}"
    elif first.reference is None and is_leak(first):
        line = f"{first.field}: reference (none), engine {summary_value(first.engine)} ({first.note})"
    else:
        line = summary_of(first, config)
    if len(found) > 1:
        line += f"; {len(found) - 1} more field(s) differ: {', '.join(d.field for d in found[1:])}"
    return line


# ------------------------------------------------------------------ verify --no-views


class WithoutViews:
    """``engine`` with its views left unchecked (``verify --no-views``) [EP-views]."""

    shows_views = False

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.name = engine.name

    def unsupported(self, config: GameConfig) -> str | None:
        return self.engine.unsupported(config)

    def new_game(self, config: GameConfig, deck: tuple[int, ...]) -> None:
        self.engine.new_game(config, deck)

    def apply(self, action: Action) -> str | None:
        return self.engine.apply(action)

    def state(self) -> dict[str, Any]:
        return self.engine.state()

    def legal_actions(self) -> list[Action]:
        return self.engine.legal_actions()

    def observe(self, seat: int) -> dict[str, Any] | None:
        return None

    def close(self) -> None:
        self.engine.close()

    # [EP-seed] an engine that deals from its own seed still does so without views

    @property
    def deals_from_seed(self) -> bool:
        return dealing_engine(self.engine)

    def new_seeded_game(self, config: GameConfig, seed: int) -> Deal:
        assert dealing_engine(self.engine)
        return self.engine.new_seeded_game(config, seed)

    def drawn(self) -> tuple[int, ...]:
        assert dealing_engine(self.engine)
        return self.engine.drawn()

    @property
    def game_config(self) -> GameConfig:
        assert dealing_engine(self.engine)
        return self.engine.game_config
