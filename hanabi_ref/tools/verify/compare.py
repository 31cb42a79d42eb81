"""Playing one game on the reference and on an engine, comparing every turn [EP-compare, EP-views].

After the deal and after every action the engine's state object is compared with ours
field by field (fields the engine does not report are skipped), then what it shows each
seat, if it shows views (:mod:`hanabi_ref.tools.verify.views`), and the set of legal actions.
A chooser picks each move; it may also offer an illegal *probe*, which the engine must
refuse as we do.  The first difference ends the game and is returned
as a :class:`Divergence` holding a replayable trace.
"""

from __future__ import annotations

from typing import Any

import attrs

from hanabi_ref.engine.actions import Action, action_to_json, describe
from hanabi_ref.formats.trace import Trace
from hanabi_ref.engine.legality import illegality, legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.formats.serial import canonical_json, state_to_json
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.tools.protocol.choosing import Chooser
from hanabi_ref.tools.protocol.engine import Engine, EngineFailure
from hanabi_ref.tools.verify.equality import json_equal, reports_the_same, type_note
from hanabi_ref.tools.verify.report import STATE_FIELDS, Coverage, FieldDifference, decisive_first, summary_of, summary_value
from hanabi_ref.engine.tables import tables_for

@attrs.frozen
class Divergence:
    """The first difference between the reference and an engine [EP-compare, EP-report].

    ``trace`` replays to the reference state at which the difference was seen (for a
    refused or accepted action, the state before it; the action is ``offending``).
    ``differences``: every differing field of that state.  ``before`` and ``after``:
    ours and the engine's states (T-state objects, ``reference`` and ``engine``) before
    and after the diverging step (the deal has no before)."""

    what: str
    trace: Trace
    offending: Action | None = None
    differences: tuple[FieldDifference, ...] = ()
    before: dict[str, Any] | None = None
    after: dict[str, Any] | None = None
    step: Action | None = None
    """the action of the diverging step (None: the deal)"""
    engine_seed: int | None = None
    """the seed the engine dealt the game from, for an engine that deals from its own
    seed (EP-seed); the trace's deck is the deal it revealed"""


def state_differences(ours: dict[str, Any], theirs: object) -> list[FieldDifference]:
    """Every field (in :data:`STATE_FIELDS` order) where the states differ, JSON types
    included; then every field the engine sent that T-state does not have [EP-compare,
    EP-types, EP-report]."""
    if not isinstance(theirs, dict):
        return [FieldDifference("(state)", ours, theirs, "expected an object")]
    if reports_the_same(ours, theirs):
        return []
    found = [FieldDifference(key, ours[key], theirs[key], type_note(ours[key], theirs[key], key).strip(" ()"))
             for key in STATE_FIELDS if key in theirs and not json_equal(ours[key], theirs[key])]
    found += [FieldDifference(key, None, theirs[key], f"not a state field (known: {', '.join(STATE_FIELDS)})")
              for key in theirs if key not in ours]
    return found


def state_difference(ours: dict[str, Any], theirs: object, config: GameConfig | None = None) -> str | None:
    """The differences in one line: the decisive first in words, the others by name,
    JSON types included [EP-compare, EP-types, EP-summary]."""
    found = state_differences(ours, theirs)
    return differences_line(found, theirs, config) if found else None


def differences_line(found: list[FieldDifference], theirs: object, config: GameConfig | None = None) -> str:
    """:func:`state_difference`'s line for the differences ``found`` (not empty) between a
    state of ours and the engine's ``theirs`` [EP-summary]: the decisive field first
    (:data:`~hanabi_ref.tools.verify.report.DECISIVE`), where it differs and both values
    in words (cards by name with ``config``), then the others by name."""
    found = decisive_first(found)
    first = found[0]
    if first.field == "(state)":
        line = f"state: expected an object, got {summary_value(theirs)}"
    elif first.note.startswith("not a state field"):
        line = f"state.{first.field}: {first.note}"
    else:
        line = summary_of(first, config)
    if len(found) > 1:
        line += f"; {len(found) - 1} more field(s) differ: {', '.join(d.field for d in found[1:])}"
    return line


def legal_difference(ours: list[Action], theirs: list[Action]) -> str | None:
    """The actions only one side lists as legal [EP-compare]."""
    if set(ours) == set(theirs):
        return None
    missing = sorted(canonical_json(action_to_json(a)) for a in set(ours) - set(theirs))
    extra = sorted(canonical_json(action_to_json(a)) for a in set(theirs) - set(ours))
    parts = []
    if missing:
        parts.append(f"engine lacks {len(missing)} legal action(s), e.g. {missing[0]}")
    if extra:
        parts.append(f"engine lists {len(extra)} illegal action(s), e.g. {extra[0]}")
    return "legal actions: " + "; ".join(parts)


def _state_after(engine: Engine) -> object:
    """[EP-repro] the engine's state after a diverging action, for the reproduction file;
    None if the engine cannot answer any more (its failure is not the divergence)."""
    try:
        return engine.state()
    except EngineFailure:
        return None


def play_compared(
    engine: Engine,
    config: GameConfig,
    deck: tuple[int, ...],
    chooser: Chooser,
    *,
    compare_legal: bool = True,
    coverage: Coverage | None = None,
    views: str = "acting",
    seed: int | None = None,
) -> Divergence | None:
    """Play one game on both sides, comparing after the deal and after every action
    [EP-compare], with what an engine that shows views shows the seats that ``views``
    selects (``acting``, ``all`` or ``none``) [EP-views]; ``coverage`` counts what was
    compared [EP-coverage].  An engine that deals from its own seed [EP-seed] is started
    with ``seed`` instead of ``deck``, and the game is played on the deal it reveals."""
    from hanabi_ref.tools.protocol.seeded import NotInStack, adopt_drawn, adopted_deck, dealing_engine
    from hanabi_ref.tools.verify.views import view_divergence  # views.py builds on this module's JSON equality

    actions: list[Action] = []
    dealer = engine if dealing_engine(engine) else None
    complete = True  # the whole stack is known (else the engine reveals each card drawn)
    if dealer is not None:
        if seed is None:
            raise ValueError(f"{engine.name} deals from its own seed: play_compared needs one")
        dealt = dealer.new_seeded_game(config, seed)
        complete = dealt.complete
        try:
            deck = adopted_deck(config, dealt.cards)
        except NotInStack as error:
            return Divergence(f"after the deal: {error}", Trace(config, tables_for(config).canonical_deck, ()), engine_seed=seed)
    else:
        seed = None
        engine.new_game(config, deck)
    state = initial_state(config, deck)
    if coverage is not None:
        coverage.saw_deal()
    before: dict[str, Any] | None = None  # both sides' states before the last step

    def diverged(what: str, offending: Action | None = None, differences: tuple[FieldDifference, ...] = (),
                 after: dict[str, Any] | None = None) -> Divergence:
        step = offending if offending is not None else (actions[-1] if actions else None)
        return Divergence(what, Trace(config, state.deck, tuple(actions)), offending, differences, before, after, step,
                          seed)

    while True:
        where = "after the deal" if not actions else f"after actions[{len(actions) - 1}] ({describe(actions[-1])})"
        ours, theirs = state_to_json(state), engine.state()
        if coverage is not None:
            coverage.saw_state(theirs)
        now = {"reference": ours, "engine": theirs}
        differences = state_differences(ours, theirs)
        if differences:
            return diverged(f"{where}: {differences_line(differences, theirs, config)}", None, tuple(differences), now)
        shown = view_divergence(engine, state, coverage, views)  # [EP-views]
        if shown is not None:
            return diverged(f"{where}: {shown[0]}", None, shown[1], now)
        legal = legal_actions(state)
        if compare_legal:
            difference = legal_difference(legal, engine.legal_actions())
            if difference is not None:
                return diverged(f"{where}: {difference}", None, (), now)
        if state.terminal:
            return None
        before = now
        probe = chooser.probe(state, legal)
        if probe is not None:
            problem = illegality(state, probe)
            if problem is not None:
                if engine.apply(probe) is None:
                    after = {"reference": ours, "engine": _state_after(engine)}
                    return diverged(f"{where}: engine accepted {describe(probe)}, illegal by {problem[0]}: {problem[1]}",
                                    probe, (), after)
                if coverage is not None:
                    coverage.saw_refusal(state, probe)
        action = chooser.choose(state, legal)
        refusal = engine.apply(action)
        if refusal is not None:
            after = {"reference": state_to_json(apply(state, action)), "engine": _state_after(engine)}
            return diverged(f"{where}: engine refused legal {describe(action)}: {refusal}", action, (), after)
        if dealer is not None and not complete:
            try:
                state = adopt_drawn(state, dealer.drawn())
            except NotInStack as error:
                return diverged(f"{where}: after {describe(action)}: {error}", action)
        following = apply(state, action)
        if coverage is not None:
            coverage.saw_move(state, action, following)
        state = following
        actions.append(action)
