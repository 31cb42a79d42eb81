"""``hanabi-ref explain REPRO.json``: a reproduction file as a short story [EP-explain].

The deal, every move in words (cards by name), then the diverging step: what the engine
says, what the rules say, and the clause of spec/rules.md that decides it; for what the
engine shows a seat (EP-views), which of its own cards it shows, which the rules hide.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import attrs

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.base.errors import IllegalActionError, TraceError
from hanabi_ref.formats.hanablive import card_name
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.presets import OPTION_CLAUSES, PRESETS
from hanabi_ref.engine.show import touched_slots
from hanabi_ref.engine.state import GameState
from hanabi_ref.formats.trace import action_from_json, read_json_file, replay_states, trace_from_json
from hanabi_ref.engine.transition import apply
from hanabi_ref.tools.verify.report import (FieldDifference, card_text, clause_of, decisive_first, field_parts,
                                            first_place, knowledge_text, with_option)
from hanabi_ref.tools.verify.views import VIEW_FIELDS, WRONG, rules_out_more


def move_text(config: GameConfig, before: GameState, action: Action, after: GameState | None) -> str:
    """One move in words, e.g. ``seat 1 plays slot 0: r1 (scores)``."""
    seat = before.current_player
    if isinstance(action, Hint):
        named = config.colours[action.subject] if action.kind == "colour" else f"{action.subject}s"
        touched = ""
        if after is not None:
            slots = [str(slot) for slot in touched_slots(before.hands[action.target], after.history[-1].touched)]
            touched = f" (touches slot{'s' if len(slots) != 1 else ''} {', '.join(slots)})" if slots else " (touches nothing)"
        return f"seat {seat} tells seat {action.target} \"{named}\"{touched}"
    if action.slot < len(before.hands[seat]):
        card = card_name(config, before.deck[before.hands[seat][action.slot]]).lower()
    elif config.options.deck_plays and isinstance(action, Play) and before.next_card < len(before.deck):
        # [R-deck-plays] slot h': the stack's last card
        card = card_name(config, before.deck[before.next_card]).lower() + " (the stack's last card)"
    else:
        card = "?"
    if isinstance(action, Discard):
        return f"seat {seat} discards slot {action.slot}: {card}"
    assert isinstance(action, Play)
    outcome = "" if after is None else (" (scores)" if after.fireworks != before.fireworks else " (fails: an error)")
    return f"seat {seat} plays slot {action.slot}: {card}{outcome}"


def explain(path: str | Path) -> list[str]:
    """[EP-explain] the story of a reproduction file written by ``verify --out``."""
    data = read_json_file(path)
    try:
        trace = trace_from_json(data)
        states = replay_states(trace)
    except TraceError as error:
        raise TraceError(f"{path}: {error}") from None
    assert isinstance(data, dict)
    details = data.get("divergence")
    if not isinstance(details, dict):
        raise TraceError(f"{path}: divergence: not a reproduction file of verify (no divergence object)")
    config = trace.config
    lines = [f"A game of {config.players} players, {setting_text(config)}, {config.variant}, "
             f"{config.hand_size} cards each ({path})."]
    where = details.get("where")
    if isinstance(where, str) and where.startswith("vector "):
        name = where[len("vector "):]
        lines.append(f"It is the conformance vector {name} (spec/vectors/{name.rpartition('/')[0]}.json).")
    deal = states[0]
    lines.append("The deal: " + "; ".join(
        f"seat {seat} holds " + " ".join(card_name(config, deal.deck[c]).lower() for c in hand)
        for seat, hand in enumerate(deal.hands)) + ".")
    if isinstance(details.get("engine_seed"), int):  # [EP-seed]
        lines.append(f"The engine dealt it from its own seed {details['engine_seed']} (start it with that seed to "
                     "see this game again); the rest of the stack, which it had not revealed, is in canonical order.")
    for index, action in enumerate(trace.actions):
        lines.append(f"{index + 1:>3}. {move_text(config, states[index], action, states[index + 1])}")
    last = states[-1]
    offending = offending_action(details.get("offending"))
    differences = [FieldDifference(d["field"], d.get("reference"), d.get("engine"), d.get("note", ""))
                   for d in details.get("differences", []) if isinstance(d, dict) and "field" in d]
    if offending is not None:
        try:
            after: GameState | None = apply(last, offending)
        except IllegalActionError:
            after = None
        told = move_text(config, last, offending, after)
        lines.append(f"Then {told}.")
        lines.append(f"Here the engine {_verdict(str(details.get('what', '')))}; the rules "
                     + (f"allow the move ({allowing_clause(last, offending, after)})." if after is not None
                        else f"forbid it ({_refusing_clause(last, offending)})."))
        return lines
    if not trace.actions:
        at, before, step = "After the deal", None, None
    else:
        at, before, step = (f"After move {len(trace.actions)} ({move_text(config, states[-2], trace.actions[-1], last)})",
                               states[-2], trace.actions[-1])
    if not differences:
        lines.append(f"{at}: {details.get('what', '')}")
        return lines + [f"  {line}" for line in legal_lines(str(details.get("what", "")), last)]
    lines.append(f"{at}:")
    for difference in decisive_first(differences):
        place, field = field_parts(difference.field)
        if place != "state":
            clause = with_option(clause_of(field, step, before, last), config)
            lines += [f"  {line}" for line in view_lines(difference, config, clause)]
            continue
        clause = with_option(clause_of(difference.field, step, before, last), config)
        if difference.note.startswith("not a state field"):
            lines.append(f"  the engine reports a field {difference.field!r} that no state has")
            continue
        note = f" — {difference.note}" if difference.note else ""
        place, ours, theirs = first_place(difference.field, difference.reference, difference.engine, config)
        lines.append(f"  the engine says {difference.field}{place}{':' if place else ''} {theirs}, the rules say {ours} "
                     f"({clause}){note}")
    return lines


def setting_text(config: GameConfig) -> str:
    """[EP-explain] the preset, with each rule option the configuration sets otherwise
    than its preset and the clauses that option chooses between (P-options), and the
    hint tokens and errors where they are not 8 and 3: ``preset hle with deck_plays =
    true (2.16-2c, R-deck-plays)``."""
    preset = PRESETS[config.preset].options
    changed = [f"{name} = {json.dumps(value)} ({', '.join(OPTION_CLAUSES[name])})"
               for name, value in attrs.asdict(config.options).items() if value != getattr(preset, name)]
    if config.max_hints != 8:
        changed.append(f"{config.max_hints} hint tokens (2.9-t0)")
    if config.max_errors != 3:
        changed.append(f"{'no limit on' if config.max_errors is None else config.max_errors} errors (2.9-f0)")
    return f"preset {config.preset}" + (f" with {', '.join(changed)}" if changed else "")


def allowing_clause(state: GameState, action: Action, after: GameState) -> str:
    """[EP-explain] the clause that makes the legal ``action`` legal at ``state`` (``after``:
    the state it leads to), naming the rule option it is legal under where an option
    decides it: a play of the stack's last card (R-deck-plays), a discard with every
    hint token (E-2), a hint to oneself (E-4) or one touching no card (2.16-2a-empty)."""
    config, seat = state.config, state.current_player
    options = config.options
    if isinstance(action, Play):
        if action.slot >= len(state.hands[seat]):
            return ("R-deck-plays: the stack's last card may be played as slot h' under the rule option "
                    "deck_plays = true")
        return "2.16-2c"
    if isinstance(action, Discard):
        if state.clue_tokens >= config.max_hints and options.discard_at_max_hints:
            return "E-2: a discard with every hint token is legal under the rule option discard_at_max_hints = true"
        return "2.16-2b"
    assert isinstance(action, Hint)
    if action.target == seat:
        return "E-4: a hint to one's own hand is legal under the rule option self_hints = true"
    if not after.history[-1].touched and options.empty_hints:
        return "2.16-2a-empty: a hint that touches no card is legal under the rule option empty_hints = true"
    return "2.16-2a"


LEGAL_EXAMPLE = re.compile(r"engine (lacks|lists) \d+ (?:legal|illegal) action\(s\), e\.g\. (\{[^{}]*\})")
"""The example action of each side of a legal-action difference, as ``legal_difference``
writes it (:mod:`hanabi_ref.tools.verify.compare`)."""


def legal_lines(what: str, state: GameState) -> list[str]:
    """[EP-explain] a difference in the legal-action lists at ``state``: for the example
    action the engine lacks, the clause that makes it legal; for the one it lists, the
    clause that forbids it, naming the rule option where one decides it."""
    lines = []
    for side, text in LEGAL_EXAMPLE.findall(what):
        try:
            action = action_from_json(json.loads(text), "legal action")
        except (TraceError, ValueError):
            continue
        try:
            after: GameState | None = apply(state, action)
        except IllegalActionError:
            after = None
        told = move_text(state.config, state, action, None)
        if side == "lacks" and after is not None:
            lines.append(f"the engine does not list \"{told}\"; the rules allow it ({allowing_clause(state, action, after)})")
        elif side == "lists" and after is None:
            lines.append(f"the engine lists \"{told}\"; the rules forbid it ({_forbidding_text(state, action)})")
    return lines


def view_lines(difference: FieldDifference, config: GameConfig, clause: str) -> list[str]:
    """[EP-explain, EP-views] one difference of what the engine shows a seat, in words:
    each own card shown or own knowledge narrowed (2.17-view), a member no view has, or
    a public field that differs, with the clause that fixes that field."""
    where, field = field_parts(difference.field)
    seat = where[len("view["):-1]
    ours, theirs = difference.reference, difference.engine
    if not field:
        return [f"the engine shows seat {seat} {card_text(theirs, config)}, not a view ({difference.note})"]
    if field not in VIEW_FIELDS:
        return [f"the engine shows seat {seat} a field {field!r} that no view has ({card_text(theirs, config)}); "
                "the rules show a seat nothing beyond its view (2.17-view)"]
    own = _own_slots(int(seat), ours, theirs)
    lines = []
    if field == "hands":
        lines += [f"the engine shows seat {seat} its own slot {slot} as {card_text(shown, config)}; the rules hide it "
                  "(2.17-view)" for slot, _, shown in own if shown is not None]
    elif field == "knowledge":
        lines += [f"the engine tells seat {seat} its own slot {slot} is {knowledge_text(shown, config)}; the hints "
                  f"allow {knowledge_text(mine, config)} (2.17-view)" for slot, mine, shown in own if rules_out_more(mine, shown)]
    if not lines or WRONG in difference.note:
        place, mine, shown = first_place(field, ours, theirs, config)
        lines.append(f"the engine shows seat {seat} {field}{place}{':' if place else ''} {shown}, the rules say {mine} "
                     f"(EP-views; {clause})")
    return lines


def _own_slots(seat: int, ours: object, theirs: object) -> list[tuple[int, Any, Any]]:
    """(slot, ours, theirs) for each slot of ``seat``'s own row in a hands or knowledge field."""
    if not (isinstance(ours, list) and isinstance(theirs, list) and seat < len(ours) and seat < len(theirs)):
        return []
    mine, shown = ours[seat], theirs[seat]
    if not (isinstance(mine, list) and isinstance(shown, list)):
        return []
    return list(zip(range(len(mine)), mine, shown))


def offending_action(value: object) -> Action | None:
    """The ``offending`` action of a reproduction's divergence object, None when absent
    or not an action [EP-repro]."""
    if value is None:
        return None
    try:
        return action_from_json(value, "divergence.offending")
    except TraceError:
        return None


def _verdict(what: str) -> str:
    """The engine's side of a move divergence, from the report's line (``engine refused
    legal <move>: <the engine's reason>``)."""
    if "engine refused legal " in what:
        reason = what.split("engine refused legal ", 1)[1].partition(": ")[2]
        return "refused it" + (f": {reason}" if reason else "")
    if "engine accepted" in what:
        return "accepted it"
    return what


def _forbidding_text(state: GameState, action: Action) -> str:
    """The clause that forbids ``action`` at ``state``, and the rule option it is illegal
    under where one decides it (E-2, 2.16-2a-empty, 2.16-2a-target: P-options)."""
    text = _refusing_clause(state, action)
    clause = text.partition(":")[0]
    option = next((name for name, clauses in OPTION_CLAUSES.items() if clause in clauses), None)
    if option is None:
        return text
    return f"{text}, under the rule option {option} = {json.dumps(getattr(state.config.options, option))}"


def _refusing_clause(state: GameState, action: Action) -> str:
    from hanabi_ref.engine.legality import illegality

    problem = illegality(state, action)
    return "2.16-2" if problem is None else f"{problem[0]}: {problem[1]}"
