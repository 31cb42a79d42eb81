"""What a verification run tells an engine's author [EP-report, EP-coverage, EP-explain].

Every differing field of a state, side by side, with cards by name and hands slot by
slot; the rule clause each difference is about; which state fields the engine reported
and which rule clauses the run exercised, with counts.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from typing import Any, Final

import attrs

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.engine.legality import illegality
from hanabi_ref.engine.cards import Identity, value_of
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import GameState, deck_size, max_attainable_score
from hanabi_ref.tools.verify.equality import json_equal, json_type

STATE_FIELDS = (
    "current", "hands", "knowledge", "fireworks", "discard", "clue_tokens",
    "strikes", "deck_size", "turns", "remaining", "terminal", "score",
)
"""The fields of T-state, in comparison order."""

RESULT_FIELDS = ("score", "fireworks", "clue_tokens", "strikes", "hands", "terminal", "current")
"""[EP-partial] the fields a game's result depends on: an engine must report them all
unless ``--partial`` is given."""


@attrs.frozen
class FieldDifference:
    """[EP-report] one field where the engine's state differs from ours."""

    field: str
    reference: object
    engine: object
    note: str = ""
    """where only the JSON type differs (EP-types), or that the field is unknown"""

    def to_json(self) -> dict[str, Any]:
        return {"field": self.field, "reference": self.reference, "engine": self.engine, "note": self.note}


# ------------------------------------------------------------------ cards and hands in words


def card_text(card: object, config: GameConfig | None) -> str:
    """A T-state card ``{"suit": s, "value": v}`` by name (``r3``), ``hidden`` for the null
    of a seat's own card in a view (T-view), or its JSON as given."""
    if card is None:
        return "hidden"
    if isinstance(card, dict) and set(card) == {"suit", "value"} and config is not None:
        suit, value = card["suit"], card["value"]
        if isinstance(suit, int) and not isinstance(suit, bool) and 0 <= suit < config.suit_count:
            return f"{config.suits[suit].abbreviation.lower()}{value}"
    return _json_text(card)


def knowledge_text(known: object, config: GameConfig | None) -> str:
    """A T-state knowledge set ``{"suits": [...], "values": [...]}`` as ``{r,g}{1,2}``."""
    if isinstance(known, dict) and set(known) == {"suits", "values"} and config is not None:
        suits, values = known["suits"], known["values"]
        if isinstance(suits, list) and all(isinstance(s, int) and 0 <= s < config.suit_count for s in suits):
            letters = ",".join(config.suits[s].abbreviation.lower() for s in suits)
            return "{" + letters + "}{" + ",".join(str(v) for v in values) + "}" if isinstance(values, list) \
                else _json_text(known)
    return _json_text(known)


def _json_text(value: object) -> str:
    import json

    try:
        return json.dumps(value, sort_keys=True)
    except (TypeError, ValueError):
        return repr(value)


def _item_text(field: str, item: object, config: GameConfig | None) -> str:
    return knowledge_text(item, config) if field == "knowledge" else card_text(item, config)


def field_parts(field: str) -> tuple[str, str]:
    """A difference's field split into where it is and its T-state name: ``("state",
    "hands")`` for ``hands``, ``("view[2]", "hands")`` for a field of seat 2's view, and
    ``("view[2]", "")`` for the whole view (EP-views)."""
    if field.startswith("view["):
        where, _, name = field.partition(".")
        return where, name
    return "state", field


def render(difference: FieldDifference, config: GameConfig | None) -> list[str]:
    """[EP-report] a difference as lines: the two values side by side; hands and
    knowledge seat by seat and slot by slot with the differing slots marked ``*``; the
    discard pile card by card; no value cut short."""
    (where, field), ours, theirs = field_parts(difference.field), difference.reference, difference.engine
    label = f"{where}.{field}" if field else where
    note = f"  ({difference.note})" if difference.note else ""
    if field in ("hands", "knowledge") and isinstance(ours, list) and isinstance(theirs, list):
        lines = [f"{label}: seat by seat, slot by slot (* differs){note}"]
        for seat in range(max(len(ours), len(theirs))):
            mine = ours[seat] if seat < len(ours) and isinstance(ours[seat], list) else []
            yours = theirs[seat] if seat < len(theirs) and isinstance(theirs[seat], list) else []
            if seat >= len(theirs) or not isinstance(theirs[seat], list):
                yours_text = "(missing)" if seat >= len(theirs) else _json_text(theirs[seat])
                lines.append(f"  seat {seat}: reference {' '.join(_item_text(field, c, config) for c in mine)} | engine {yours_text}")
                continue
            cells = []
            for slot in range(max(len(mine), len(yours))):
                a = _item_text(field, mine[slot], config) if slot < len(mine) else "-"
                b = _item_text(field, yours[slot], config) if slot < len(yours) else "-"
                mark = "*" if slot >= len(mine) or slot >= len(yours) or mine[slot] != yours[slot] else " "
                cells.append(f"{mark}{slot}: {a}" + ("" if a == b else f" | {b}"))
            lines.append(f"  seat {seat}: " + "  ".join(cells))
        return lines
    if field == "discard" and isinstance(ours, list) and isinstance(theirs, list):
        return [f"{label}: reference [{' '.join(card_text(c, config) for c in ours)}] | "
                f"engine [{' '.join(card_text(c, config) for c in theirs)}]{note}"]
    return [f"{label}: reference {_json_text(ours)} | engine {_json_text(theirs)}{note}"]


# ------------------------------------------------------------------ the one-line summary


DECISIVE = (
    "terminal", "score", "fireworks", "strikes", "clue_tokens", "remaining", "current", "turns", "deck_size",
    "discard", "hands", "knowledge",
)
"""[EP-summary] the fields of T-state, the one that decides the others first: whether the
game is over (a game that ends, or goes on, one move wrong shows every other field
differing too), its outcome (score, fireworks, strikes, tokens), the turn order, and
last the cards, which follow from all of these."""


LEAK: Final = "leak (2.17-view)"
"""The note of a view's difference that shows a seat what 2.17-view hides (EP-views)."""


def decisive_first(found: Sequence[FieldDifference]) -> list[FieldDifference]:
    """[EP-summary] the differences ``found`` with the leaks of a view first (EP-views),
    then in :data:`DECISIVE` order (of a view's fields too, ``view[i].<field>``); a field
    T-state does not have goes last, and the order among differences of one field is kept."""
    def rank(difference: FieldDifference) -> tuple[bool, int]:
        field = field_parts(difference.field)[1]
        return not difference.note.startswith(LEAK), DECISIVE.index(field) if field in DECISIVE else len(DECISIVE)

    return sorted(found, key=rank)


def summary_of(difference: FieldDifference, config: GameConfig | None) -> str:
    """[EP-summary] one difference in words for the one-line summary: the field, where
    in it the two sides first part (a seat's hand, a slot's knowledge, the discard pile
    after the cards they share), both values there with cards by name, and the note;
    never JSON cut short: ``state.hands, seat 1: reference r3 b1 y1, engine r3 b1 y1 b4``."""
    where, field = field_parts(difference.field)
    label = f"{where}.{field}" if field else where
    place, ours, theirs = first_place(field, difference.reference, difference.engine, config)
    note = f" ({difference.note})" if difference.note else ""
    return f"{label}{place}: reference {ours}, engine {theirs}{note}"


def first_place(field: str, ours: object, theirs: object, config: GameConfig | None) -> tuple[str, str, str]:
    """Where in ``field`` the values first differ, and both values there in words."""
    if field in ("hands", "knowledge") and _is_rows(ours) and _is_rows(theirs):
        assert isinstance(ours, list) and isinstance(theirs, list)
        seat = next((s for s in range(max(len(ours), len(theirs)))
                     if s >= len(ours) or s >= len(theirs) or not json_equal(ours[s], theirs[s])), 0)
        mine = ours[seat] if seat < len(ours) else None
        yours = theirs[seat] if seat < len(theirs) else None
        if field == "knowledge" and mine is not None and yours is not None and len(mine) == len(yours):
            slot = next(k for k in range(len(mine)) if not json_equal(mine[k], yours[k]))
            return f", seat {seat} slot {slot}", knowledge_text(mine[slot], config), knowledge_text(yours[slot], config)
        return f", seat {seat}", _row_text(field, mine, config), _row_text(field, yours, config)
    if field == "discard" and isinstance(ours, list) and isinstance(theirs, list):
        same = next((i for i in range(min(len(ours), len(theirs))) if not json_equal(ours[i], theirs[i])),
                    min(len(ours), len(theirs)))
        place = f", after the {same} card{'s' if same != 1 else ''} both have" if same else ""
        return place, _row_text(field, ours[same:], config, "[]"), _row_text(field, theirs[same:], config, "[]")
    return "", summary_value(ours), summary_value(theirs)


def _is_rows(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(row, list) for row in value)


def _row_text(field: str, row: list[Any] | None, config: GameConfig | None, empty: str = "no card") -> str:
    if row is None:
        return "no such seat"
    if not row:
        return empty
    return " ".join(_item_text(field, item, config) for item in row)


SUMMARY_LIMIT = 80
"""[EP-summary] the most characters a value that is neither cards nor knowledge takes in
the summary (a malformed value of an engine inside Python, EP-types; a process engine's
answers are checked against the schema first, EP-schemas); the report gives it whole."""


def summary_value(value: object) -> str:
    """[EP-summary] a value that is neither cards nor knowledge, as JSON, or what it is
    when longer than :data:`SUMMARY_LIMIT`."""
    text = _json_text(value)
    return text if len(text) <= SUMMARY_LIMIT else f"a JSON {json_type(value)} of {len(text)} characters (whole in the reproduction file)"


# ------------------------------------------------------------------ the rule behind a difference


def clause_of(field: str, action: Action | None, before: GameState | None, after: GameState | None) -> str:
    """[EP-explain] the clause of spec/rules.md that fixes ``field`` after ``action``
    (None: the deal), judged from our states before and after it."""
    if action is None or before is None or after is None:
        if after is not None and field in ("remaining", "terminal") and deck_size(after) == 0:
            return "E-6"  # the deal took the whole stack: the stop check right after step 1
        return {"hands": "2.16-1-deal", "knowledge": "2.14-initial", "current": "2.16-1",
                "clue_tokens": "2.16-1", "strikes": "2.16-1", "deck_size": "2.16-1-deal"}.get(field, "2.16-1")
    if field in ("terminal", "remaining", "score"):
        if _deal_took_the_stack(after) and (field == "remaining" or end_clause(after) == "2.16-3-R0"):
            return "E-6"  # the last round began before the first move: p moves, not p + 1
        if after.terminal:
            return end_clause(after)
        if field == "remaining":
            return "2.16-3-last-round" if after.remaining is not None and before.remaining is None else "2.16-2-R"
        return "2.16-3"
    if field in ("current", "turns"):
        return "2.16-2-next"
    if field in ("hands", "knowledge", "deck_size") and _may_draw_at_the_end(action, before, after):
        return "R-3"
    if isinstance(action, Hint):
        if field == "clue_tokens":
            return "2.16-2a-cost"
        if field == "knowledge":
            return "2.16-2a-suit" if action.kind == "colour" else "2.16-2a-value"
        return "2.16-2a-cost"
    if isinstance(action, Discard):
        return {"clue_tokens": "2.16-2b-token", "discard": "2.16-2b-discard"}.get(field, "2.16-2b-draw")
    assert isinstance(action, Play)
    success = after.fireworks != before.fireworks
    if field == "clue_tokens":
        return "2.16-2c-five" if success else "2.16-tokens"
    if field in ("fireworks", "discard", "strikes"):
        return "2.16-2c-success" if success else "2.16-2c-fail"
    return "2.16-2c-draw"


def end_clause(final: GameState) -> str:
    """The clause of step 3 that ended the game of ``final`` (a terminal state): the last
    allowed error, every field complete, the last round over, no point possible (R-1) or,
    in the last round, nothing left to play (R-4)."""
    config = final.config
    if final.strikes == config.max_errors:
        return "2.16-3-strikeout"
    if all(height == config.values for height in final.fireworks):
        return "2.16-3-max"
    if final.remaining == 0:
        return "2.16-3-R0"
    if config.options.end_when_no_points_possible and max_attainable_score(final) == sum(final.fireworks):
        return "R-1"
    return "R-4" if config.options.end_when_nothing_playable else "R-1"


def _deal_took_the_stack(state: GameState) -> bool:
    """[E-6] whether the deal of ``state``'s game took the whole stack (N = p · h)."""
    config = state.config
    return len(state.deck) == config.players * config.hand_size


def _may_draw_at_the_end(action: Action, before: GameState, after: GameState) -> bool:
    """[R-3] whether ``action`` is a play or discard of a hand's card that ends the game
    while the stack still had a card to draw: whether it draws is R-3's option."""
    if isinstance(action, Hint) or not after.terminal or deck_size(before) == 0:
        return False
    return action.slot < len(before.hands[before.current_player])


RULE_OPTIONS: Final = {"R-1": "end_when_no_points_possible", "R-3": "draw_after_final_move",
                       "R-4": "end_when_nothing_playable", "E-6": "initial_stop_check"}
"""[EP-explain] the clauses that only a rule option of P-options brings into play, and
that option: a difference judged by one of them depends on the option's value."""


def with_option(clause: str, config: GameConfig) -> str:
    """[EP-explain] ``clause``, followed by the rule option it depends on and the value
    the game has: ``R-3; option draw_after_final_move = false``."""
    option = RULE_OPTIONS.get(clause)
    if option is None:
        return clause
    return f"{clause}; option {option} = {json.dumps(getattr(config.options, option))}"


# ------------------------------------------------------------------ coverage


REACHABLE = (
    "2.16-1-deal", "2.16-2a-cost", "2.16-2a-suit", "2.16-2a-value", "2.16-2a-empty", "2.16-2a-token",
    "2.16-2a-target", "2.16-2b-discard", "2.16-2b-token", "E-2", "2.16-2b-draw", "2.16-2c-success",
    "2.16-2c-five", "2.16-2c-fail", "2.16-2c-strikeout", "2.16-2c-draw", "2.16-2-next", "2.16-3-strikeout",
    "2.16-3-max", "2.16-3-R0", "2.16-3-last-round", "R-1", "R-3",
)
"""[EP-coverage] the clauses of spec/rules.md a compared game can reach, in rule order:
each is counted when a move of a game (or a refused probe) exercises it."""


@attrs.define
class Coverage:
    """[EP-coverage] what a run compared: state answers, the fields the engine reported
    in them, the rule clauses the games exercised, and the seats' views compared (EP-views)."""

    states: int = 0
    views: int = 0
    fields: Counter[str] = attrs.Factory(Counter)
    clauses: Counter[str] = attrs.Factory(Counter)

    def saw_state(self, answer: object) -> None:
        self.states += 1
        if isinstance(answer, dict):
            self.fields.update(key for key in answer if key in STATE_FIELDS)

    def saw_view(self) -> None:
        """One view of one seat was compared [EP-views]."""
        self.views += 1

    def saw_deal(self) -> None:
        self.clauses["2.16-1-deal"] += 1

    def saw_move(self, before: GameState, action: Action, after: GameState) -> None:
        """The clauses one applied move exercised."""
        self.clauses.update(exercised(before, action, after))

    def saw_refusal(self, state: GameState, action: Action) -> None:
        """The clause by which the engine had to refuse a probe."""
        problem = illegality(state, action)
        if problem is not None:
            self.clauses[problem[0]] += 1

    def merge(self, other: Coverage) -> None:
        """Add the counts of ``other`` (one finished game) to these."""
        self.states += other.states
        self.views += other.views
        self.fields.update(other.fields)
        self.clauses.update(other.clauses)

    def missing(self, required: Sequence[str] = RESULT_FIELDS) -> list[str]:
        """[EP-partial] the required fields the engine left out of every state answer
        (a field reported only sometimes, as ``current`` after the end, is counted, and
        the counts show it)."""
        return [field for field in required if self.states and not self.fields[field]]

    def to_json(self) -> dict[str, Any]:
        return {
            "states": self.states,
            "views": self.views,
            "fields": {field: self.fields[field] for field in STATE_FIELDS},
            "clauses": {clause: self.clauses[clause] for clause in REACHABLE},
            "other_clauses": {c: n for c, n in sorted(self.clauses.items()) if c not in REACHABLE},
        }


def exercised(before: GameState, action: Action, after: GameState) -> list[str]:
    """[EP-coverage] the clauses of :data:`REACHABLE` one move exercises."""
    config = before.config
    found = ["2.16-2-next"]
    drew = deck_size(after) < deck_size(before)
    if isinstance(action, Hint):
        found += ["2.16-2a-cost", "2.16-2a-suit" if action.kind == "colour" else "2.16-2a-value"]
        if not after.history[-1].touched:
            found.append("2.16-2a-empty")
    elif isinstance(action, Discard):
        found.append("2.16-2b-discard")
        found.append("2.16-2b-token" if before.clue_tokens < config.max_hints else "E-2")
    else:
        success = after.history[-1].success
        found.append("2.16-2c-success" if success else "2.16-2c-fail")
        card = after.history[-1].card
        if success and card is not None and value_of(Identity(card), config.values) == config.values:
            found.append("2.16-2c-five")
        if not success and after.strikes == config.max_errors:
            found.append("2.16-2c-strikeout")
    if drew:
        found.append("2.16-2b-draw" if isinstance(action, Discard) else "2.16-2c-draw")
    if before.remaining is None and after.remaining is not None and not after.terminal:
        found.append("2.16-3-last-round")
    if after.terminal:
        found.append(end_clause(after))
        if not isinstance(action, Hint) and not drew and deck_size(before) > 0:
            found.append("R-3")
    return found
