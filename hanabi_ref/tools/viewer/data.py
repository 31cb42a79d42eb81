"""What the replay viewer shows at each step, computed from the engine's states
[VW-data, VW-move, VW-hint, VW-divergence].

The viewer's page holds one JSON object (:func:`game_data`): tables of the deck's cards
by name and of the knowledge sets that occur, then one entry per step (the state after
the deal and after each action) with card ids into those tables.  Everything the page
draws comes from here; its script only chooses what one view shows.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from hanabi_ref.engine.actions import Action, Hint, Play
from hanabi_ref.engine.cards import as_identities, identity, knowledge_suits_values, mask_of, suit_of
from hanabi_ref.base.errors import IllegalActionError
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.show import card_name, event_text, hand_order, knowledge_text, suit_letter
from hanabi_ref.engine.state import Event, GameState, score, deck_size
from hanabi_ref.formats.trace import Trace
from hanabi_ref.engine.tables import tables_for

SUIT_COLOURS = {
    "red": "#d0453f", "yellow": "#e5bd1f", "green": "#3f9a4a", "blue": "#3568d4", "purple": "#8a55b8",
    "white": "#e9e9e9", "teal": "#1f9c95", "black": "#2b2b2b", "rainbow": "rainbow", "orange": "#e8822a",
}
"""[VW-board] the colour a suit of that name is drawn in; ``rainbow`` is a gradient."""

OTHER_COLOURS = ("#7a7a7a", "#b0736b", "#6b8fb0", "#8fb06b", "#b06ba4", "#b0a26b")
"""[VW-board] colours for suits of other names (custom configurations), in turn."""

MAX_VALUE_TEXT = 4000
"""[VW-divergence] the longest text one value of a divergence object is shown as: the
object comes from a file, and a page stays small whatever it holds."""

MAX_ROWS = 100
"""[VW-divergence] the most differing fields shown (a state has 12, its views a few more)."""

MAX_PANEL_TEXT = 100_000
"""[VW-divergence] the most characters of text the divergence panel holds in all: rows
past it are left out, one row counting them (a value is cut at :data:`MAX_VALUE_TEXT`)."""

MAX_EXTRA_FIELDS = 20
"""[VW-divergence] the most fields beyond T-state's twelve that a table of both engines'
states shows; one more row counts the rest.  With :data:`MAX_ROWS` and
:data:`MAX_VALUE_TEXT` this bounds the page whatever the file holds."""


# ------------------------------------------------------------------ cards and knowledge by name


def knowledge_parts(config: GameConfig, mask: int) -> tuple[list[int], list[int]]:
    """[VW-data, VW-seat, 2.14] the suits (indices) and values a knowledge set still
    allows: what a seat's view shows of the seat's own cards (a suit or a value that is
    the only one left)."""
    suits, values, _ = knowledge_suits_values(mask, config.values, config.suit_count)
    return list(suits), list(values)


def suit_colour(name: str, index: int) -> str:
    """[VW-board] the colour suit ``index`` called ``name`` is drawn in."""
    return SUIT_COLOURS.get(name.lower(), OTHER_COLOURS[index % len(OTHER_COLOURS)])


def ink_colour(colour: str) -> str:
    """[VW-board] the colour of text on a card of ``colour``: dark on a light colour."""
    if not colour.startswith("#"):
        return "#ffffff"
    red, green, blue = (int(colour[index:index + 2], 16) for index in (1, 3, 5))
    return "#1b1b1b" if 0.299 * red + 0.587 * green + 0.114 * blue > 150 else "#ffffff"


# ------------------------------------------------------------------ moves in words [VW-move]


def move_text(config: GameConfig, before: GameState, event: Event) -> str:
    """[VW-move, SH-move] the move of ``event`` (made in ``before``) in words, cards by name,
    as :func:`hanabi_ref.engine.show.event_text` words it (the drawn card not named: a seat's view
    must not learn it): ``seat 0 plays b1 from slot 2 (success)``."""
    return event_text(config, event, before.hands)


def offending_text(config: GameConfig, state: GameState, action: Action) -> str:
    """[VW-divergence, VW-move] the move the engines disagreed on, which the trace does not
    hold: in words if the rules allow it, else with the clause that forbids it."""
    from hanabi_ref.engine.legality import illegality
    from hanabi_ref.engine.transition import apply

    problem = illegality(state, action)
    if problem is not None:
        return f"seat {state.current_player} {_action_words(action)}: the rules forbid it ({problem[0]}: {problem[1]})"
    try:
        after = apply(state, action)
    except IllegalActionError as error:  # legality and the transition disagree: say so
        return f"seat {state.current_player} {_action_words(action)}: {error}"
    return move_text(config, state, after.history[-1]) + ": the rules allow it"


def _action_words(action: Action) -> str:
    if isinstance(action, Hint):
        return f"hints seat {action.target} {action.kind} {action.subject}"
    return f"{'plays' if isinstance(action, Play) else 'discards'} slot {action.slot}"


# ------------------------------------------------------------------ one step [VW-data]


def step_data(config: GameConfig, before: GameState | None, state: GameState, knowledge: dict[int, int]) -> dict[str, Any]:
    """[VW-data, VW-move, VW-hint, VW-cards, VW-clued] one step: the public numbers, the hands as ``[card id,
    knowledge index]`` per slot, the discard pile (card ids, oldest first), the move that
    led here in words with the card ids its hint touched and the card drawn.
    ``knowledge`` numbers the knowledge sets met so far (extended here)."""
    event = state.history[-1] if before is not None else None
    hands = [[[card_id, knowledge.setdefault(mask, len(knowledge))] for card_id, mask in zip(hand, known)]
             for hand, known in zip(state.hands, state.knowledge)]
    identities = config.values * config.suit_count
    copies = [0] * identities
    for card in state.deck:
        copies[card] += 1
    discarded = [0] * identities
    for card_id in state.discard:
        discarded[state.deck[card_id]] += 1
    played = [0] * identities
    clues = 0
    touched: set[int] = set()
    for past in state.history:
        if isinstance(past.action, Hint):
            clues += 1
            touched.update(past.touched)
        if past.success and past.card is not None:
            played[past.card] += 1
    in_hand = {card_id for hand in state.hands for card_id in hand}
    left = [copies[x] - discarded[x] - played[x] for x in range(identities)]
    return {
        # [VW-cards] per identity: copies neither played nor discarded, copies discarded, and
        # whether one copy is left of an identity not played yet (critical); pace and clues given
        "left": left, "discarded": discarded,
        "critical": [x for x in range(identities) if left[x] == 1 and not played[x]],
        "pace": score(state) + deck_size(state) + config.players - tables_for(config).max_score, "clues": clues,
        # [VW-clued] the cards in hand that some clue has touched, marked for as long as they are held
        "clued": sorted(touched & in_hand),
        "turn": state.turns, "current": state.current_player, "fireworks": list(state.fireworks),
        "tokens": state.clue_tokens, "strikes": state.strikes, "deck": deck_size(state), "score": score(state),
        "terminal": state.terminal, "remaining": state.remaining, "hands": hands, "discard": list(state.discard),
        "move": None if event is None or before is None else move_text(config, before, event),
        "actor": None if event is None else event.player,
        "touched": [] if event is None else list(event.touched),
        "drawn": None if event is None else event.drawn,
    }


def game_data(trace: Trace, states: Sequence[GameState], title: str,
              divergence: dict[str, Any] | None = None) -> dict[str, Any]:
    """[VW-data, VW-divergence, VW-order] everything the viewer page shows: the game's
    configuration, the deck's cards by name (by card id), the knowledge sets that occur,
    one entry per state of ``states`` (the state after the deal and after each action of
    ``trace``), and the divergence of a verify reproduction, at which the page opens."""
    config = trace.config
    knowledge: dict[int, int] = {}
    steps = [step_data(config, before, state, knowledge) for before, state in zip([None, *states[:-1]], states)]
    shown = None if divergence is None else divergence_data(config, states, divergence)
    return {
        "title": title, "about": about_text(config), "players": config.players, "max_hints": config.max_hints,
        "newest_left": hand_order(config) == "newest-left",  # [VW-order]
        "max_errors": config.max_errors, "max_score": tables_for(config).max_score,
        "suits": [{"name": suit.name, "letter": suit_letter(config, index), "colour": suit_colour(suit.name, index),
                   "ink": ink_colour(suit_colour(suit.name, index))} for index, suit in enumerate(config.suits)],
        "cards": [card_name(config, card) for card in as_identities(trace.deck)],
        "card_suits": [suit_of(card, config.values) for card in as_identities(trace.deck)],
        "knowledge": [[knowledge_text(config, mask), *knowledge_parts(config, mask)] for mask in knowledge],
        "steps": steps, "start": 0 if shown is None else shown["step"], "divergence": shown,
    }


def about_text(config: GameConfig) -> str:
    """[VW-board] the configuration in a line: players, variant, preset, hand size."""
    return (f"{config.players} players, {config.variant}, preset {config.preset}, "
            f"{config.hand_size} cards each, {config.max_hints} clue tokens")


# ------------------------------------------------------------------ a verify reproduction [VW-divergence]


DIVERGENCE_FIELDS = ("current", "hands", "knowledge", "fireworks", "discard", "clue_tokens", "strikes",
                     "deck_size", "turns", "remaining", "terminal", "score")
"""[VW-divergence] the state fields (T-state) in the order the two states are shown."""


def divergence_data(config: GameConfig, states: Sequence[GameState], divergence: dict[str, Any]) -> dict[str, Any]:
    """[VW-divergence] what a reproduction's ``divergence`` object says, as text: where
    and what, the move the engines disagreed on (if the trace stops before it), every
    differing field with both sides' values, and both engines' states at the divergence
    field by field, those that differ marked.  The divergence is at the trace's last
    state (a reproduction stops where the engines parted)."""
    from hanabi_ref.tools.verify.explain import offending_action

    offending = offending_action(divergence.get("offending"))
    after = divergence.get("after")
    pair = after if isinstance(after, dict) else {}
    return {
        "step": len(states) - 1,
        "where": _text(divergence.get("where", "")), "what": _text(divergence.get("what", "")),
        "then": None if offending is None else offending_text(config, states[-1], offending),
        "engine_seed": divergence.get("engine_seed") if _is_int(divergence.get("engine_seed")) else None,
        "differences": within_budget([difference_row(config, item) for item in _list(divergence.get("differences"))[:MAX_ROWS]
                                      if isinstance(item, dict)], MAX_PANEL_TEXT // 2),
        "states": within_budget(state_rows(config, pair.get("reference"), pair.get("engine")), MAX_PANEL_TEXT // 2),
    }


def within_budget(rows: list[dict[str, Any]], budget: int) -> list[dict[str, Any]]:
    """[VW-divergence] the first ``rows`` whose text adds up to at most ``budget``
    characters, then, if any were left out, one row saying how many."""
    kept: list[dict[str, Any]] = []
    used = 0
    for row in rows:
        used += sum(len(value) for value in row.values() if isinstance(value, str))
        if used > budget:
            left = len(rows) - len(kept)
            kept.append({key: "" if isinstance(value, str) else value for key, value in row.items()}
                        | {"field": f"(and {left} more rows, not shown: the page holds at most {MAX_PANEL_TEXT} characters of them)"})
            break
        kept.append(row)
    return kept


def difference_row(config: GameConfig, item: dict[str, Any]) -> dict[str, str]:
    """[VW-divergence] one differing field of the divergence object as text."""
    field = _text(item.get("field", "?"))
    return {"field": field, "ours": value_text(config, field, item.get("reference")),
            "theirs": value_text(config, field, item.get("engine")), "note": _text(item.get("note", ""))}


def state_rows(config: GameConfig, ours: object, theirs: object) -> list[dict[str, Any]]:
    """[VW-divergence] both engines' states (T-state objects), one row per field: ours,
    the other engine's, whether they differ.  Nothing when either is not an object."""
    if not (isinstance(ours, dict) and isinstance(theirs, dict)):
        return []
    extra = sorted(str(key) for key in {*ours, *theirs} if key not in DIVERGENCE_FIELDS)
    rows = [{"field": field, "ours": value_text(config, field, ours.get(field, "(absent)")),
             "theirs": value_text(config, field, theirs.get(field, "(absent)")),
             "differs": ours.get(field) != theirs.get(field) or (field in ours) != (field in theirs)}
            for field in (*DIVERGENCE_FIELDS, *extra[:MAX_EXTRA_FIELDS]) if field in ours or field in theirs]
    if len(extra) > MAX_EXTRA_FIELDS:
        left = len(extra) - MAX_EXTRA_FIELDS
        rows.append({"field": f"(and {left} more fields, not shown)", "ours": "", "theirs": "", "differs": True})
    return rows


def value_text(config: GameConfig, field: str, value: object) -> str:
    """[VW-divergence] a field's value in words: hands and knowledge seat by seat, cards
    by name (``hidden`` for a seat's own card in a view), else compact JSON; cut at
    :data:`MAX_VALUE_TEXT` characters."""
    name = field.rsplit(".", 1)[-1]
    if name in ("hands", "knowledge") and isinstance(value, list):
        show = _card_text if name == "hands" else _known_text
        text = "\n".join(f"seat {seat}: " + (" ".join(show(config, item) for item in row) if isinstance(row, list)
                                             else _json(row)) for seat, row in enumerate(value))
    elif name == "discard" and isinstance(value, list):
        text = " ".join(_card_text(config, item) for item in value) or "(empty)"
    else:
        text = value if isinstance(value, str) else _json(value)
    return text if len(text) <= MAX_VALUE_TEXT else text[:MAX_VALUE_TEXT] + " …"


def _card_text(config: GameConfig, card: object) -> str:
    """A T-state card ``{"suit": s, "value": v}`` by name (SH-card), ``hidden`` for null."""
    if card is None:
        return "hidden"
    if isinstance(card, dict) and set(card) == {"suit", "value"}:
        suit, value = card["suit"], card["value"]
        if _is_int(suit) and 0 <= suit < config.suit_count and _is_int(value) and 1 <= value <= config.values:
            return card_name(config, identity(value, suit, config.values))
    return _json(card)


def _known_text(config: GameConfig, known: object) -> str:
    """A T-state knowledge object ``{"suits": [...], "values": [...]}`` as SH-knowledge
    writes the set of their pairs."""
    if isinstance(known, dict) and set(known) == {"suits", "values"}:
        suits, values = known["suits"], known["values"]
        if isinstance(suits, list) and isinstance(values, list) and suits and values \
                and all(_is_int(suit) and 0 <= suit < config.suit_count for suit in suits) \
                and all(_is_int(value) and 1 <= value <= config.values for value in values):
            return knowledge_text(config, mask_of(identity(v, s, config.values) for s in suits for v in values))
    return _json(known)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _list(value: object) -> list[Any]:
    return value if isinstance(value, list) else []


def _text(value: object) -> str:
    text = value if isinstance(value, str) else _json(value)
    return text if len(text) <= MAX_VALUE_TEXT else text[:MAX_VALUE_TEXT] + " …"


def _json(value: object) -> str:
    try:
        return json.dumps(value, sort_keys=True, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(value)
