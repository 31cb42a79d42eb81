"""Turning reached games into vectors, checking each on the way [VEC-format, VEC-cases].

A :class:`Maker` belongs to one case function under one preset.  Each of its methods
builds one vector kind and, before returning it, runs the clause checks of
:mod:`hanabi_ref.tools.vectors.checks` on the JSON it is about to write: a vector that
contradicts the spec is never produced, the case fails instead.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

import attrs

from hanabi_ref.engine.actions import Action, action_to_json
from hanabi_ref.engine.dealing import SplitMix64, deck_from_seed, derive_seed
from hanabi_ref.base.errors import ConfigError, HanabiError, IllegalActionError
from hanabi_ref.formats.trace import Trace
from hanabi_ref.engine.legality import illegality, legal_actions
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import config_from_json, config_to_json
from hanabi_ref.engine.presets import PRESETS
from hanabi_ref.formats.serial import canonical_json, state_to_json
from hanabi_ref.formats.trace import action_from_json, replay, trace_from_json, trace_to_json
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.tools.vectors.checks import check_legal, check_move, check_state, full_knowledge, is_nothing_playable, is_stop
from hanabi_ref.tools.vectors.model import (
    Run,
    Vector,
    actions_to_json,
    deck_from_json,
    deck_to_json,
    expect,
    view_to_json,
)
from hanabi_ref.engine.view import make_view, view_legal_actions
from hanabi_ref.engine.tables import tables_for

# The step each action kind runs [2.16-2a, 2.16-2b, 2.16-2c].
STEP_CLAUSES = {"hint": "2.16-2a", "discard": "2.16-2b", "play": "2.16-2c"}


def legal_json(run: Run) -> list[dict[str, object]]:
    """The legal actions of the reached state, in the order of 2.16-actions."""
    return actions_to_json(legal_actions(run.state))


def error_field(message: str, root: str) -> str:
    """The JSON path an error message names, rooted at ``$`` [VEC-format]: our messages
    start with the path (``config.options.deal: ...``); a custom composition's counts
    are named as the suits built from it, which are ``composition[i][j]`` in JSON."""
    head = message.split(": ", 1)[0]
    path = head.removeprefix(root)
    path = re.sub(r"^\.suits\[(\d+)\]\.counts(\[\d+\])?", lambda m: f".composition[{m[1]}]{m[2] or ''}", path)
    return "$" + path


@attrs.frozen
class Maker:
    """The vectors of one case function under one preset [VEC-format]."""

    case: str
    preset: str

    def vector(self, kind: str, label: str, clauses: Iterable[str], description: str, **payload: Any) -> Vector:
        """A vector of any kind; the name is ``preset/case/label``."""
        name = f"{self.preset}/{self.case}/{label}"
        ids = tuple(dict.fromkeys(clauses))
        data = {"name": name, "kind": kind, "preset": self.preset, "clauses": list(ids), "description": description, **payload}
        canonical_json(data)  # [VEC-format] integers, strings, lists, objects only
        return Vector(name, kind, self.preset, ids, data)

    def _game_payload(self, run: Run) -> dict[str, Any]:
        """[VEC-coverage] the config is of this preset and, outside the thesis preset, has
        exactly the preset's rule options (t0, f0 and h may be explicit), except that
        ``deck_plays``, a hanab.live table option no preset sets, may be on
        [R-deck-plays]."""
        expect(run.config.preset == self.preset, f"P-presets: the vector's config is of preset {self.preset}")
        options = attrs.evolve(run.config.options, deck_plays=False)
        expect(self.preset == "thesis" or options == PRESETS[self.preset].options, "P-presets: the preset's own options")
        return {"config": config_to_json(run.config), "deck": deck_to_json(run.deck, run.config)}

    # -------------------------------------------------------------- transitions

    def transition(self, label: str, clauses: Sequence[str], run: Run, action: Action, description: str) -> Vector:
        """A legal move and its result [VEC-transition, 2.16-2]: pre, legal, action, post;
        the move is checked clause by clause."""
        pre, legal = state_to_json(run.state), legal_json(run)
        check_state(run.config, run.deck, pre)
        check_legal(run.config, pre, legal)
        expect(action_to_json(action) in legal, f"2.16-2: {action_to_json(action)} is legal here")
        post = state_to_json(apply(run.state, action))
        check_move(run.config, run.deck, pre, action, post)
        step = STEP_CLAUSES[str(action_to_json(action)["type"])]
        return self.vector(
            "transition", label, (*clauses, step, "2.16-actions"), description,
            **self._game_payload(run), prefix=actions_to_json(run.actions), pre=pre, legal=legal,
            action=action_to_json(action), post=post,
        )

    def refusal(self, label: str, clauses: Sequence[str], run: Run, action: Action, clause: str, description: str) -> Vector:
        """An illegal action [VEC-transition, 2.16-2]: refused with ``clause``, the state
        unchanged; the action is not in the legal list."""
        pre, legal = state_to_json(run.state), legal_json(run)
        check_state(run.config, run.deck, pre)
        check_legal(run.config, pre, legal)
        expect(action_to_json(action) not in legal, "2.16-2: a refused action is not listed as legal")
        problem = illegality(run.state, action)
        expect(problem is not None and problem[0] == clause, f"2.16-2: refused with {clause}, got {problem}")
        try:
            apply(run.state, action)
        except IllegalActionError as error:
            expect(error.clause == clause, f"2.16-2: the error names {clause}")
        else:
            expect(False, "2.16-2: the illegal action was applied")
        return self.vector(
            "transition", label, (*clauses, clause, "2.16-2", "2.16-actions"), description,
            **self._game_payload(run), prefix=actions_to_json(run.actions), pre=pre, legal=legal,
            action=action_to_json(action), error={"clause": clause},
        )

    # -------------------------------------------------------------- whole games

    def game(self, label: str, clauses: Sequence[str], run: Run, description: str, seed: int | None = None) -> Vector:
        """A whole game [VEC-game, PR-length, PR-legal-action]: the state after step 1
        and after every move, each move checked, the last state terminal."""
        replayed = Run.start(run.config, run.deck)
        states, counts = [state_to_json(replayed.state)], [len(legal_actions(replayed.state))]
        check_state(run.config, run.deck, states[0])
        for action in run.actions:
            check_legal(run.config, states[-1], legal_json(replayed))
            replayed = replayed.then(action)
            states.append(state_to_json(replayed.state))
            counts.append(len(legal_actions(replayed.state)))
            check_move(run.config, run.deck, states[-2], action, states[-1])
        expect(states[-1]["terminal"], "2.16-3: a game vector ends with the stop")
        expect(len(run.actions) <= move_bound(run.config), "PR-length: at most t0 + 2(N - p*h) + p moves")
        extra = {} if seed is None else {"seed": seed}
        return self.vector(
            "game", label, (*clauses, "2.16", "2.16-3", "PR-length", "PR-legal-action"), description,
            **self._game_payload(run), actions=actions_to_json(run.actions), states=states, legal_counts=counts, **extra,
        )

    # -------------------------------------------------------------- step 1 and decks

    def initial(self, label: str, clauses: Sequence[str], config: GameConfig, deck: Sequence[int], description: str) -> Vector:
        """The state after step 1 for an explicit deck [VEC-initial, 2.16-1]."""
        run = Run.start(config, deck)
        state, legal = state_to_json(run.state), legal_json(run)
        check_initial(config, run.deck, state)
        check_legal(config, state, legal)
        return self.vector(
            "initial", label, (*clauses, "2.16-1", "D-explicit"), description,
            **self._game_payload(run), state=state, legal=legal,
        )

    def bad_deck(self, label: str, clauses: Sequence[str], config: GameConfig, deck: list[dict[str, int]], description: str) -> Vector:
        """A deck that is not a permutation of the composition is refused [VEC-initial,
        D-explicit]."""
        try:
            initial_state(config, deck_from_json(deck, config))
        except ConfigError as error:
            expect(str(error).startswith("deck"), f"D-explicit: the error names the deck: {error}")
        else:
            expect(False, "D-explicit: the deck was accepted")
        return self.vector(
            "initial", label, (*clauses, "D-explicit"), description,
            config=config_to_json(config), deck=deck, error={"field": "$.deck"},
        )

    def deal(self, label: str, clauses: Sequence[str], config: GameConfig, seed: int, description: str) -> Vector:
        """A seed's deck [VEC-deal, D-seed, D-canonical, D-derive]: the canonical order,
        the generator's first outputs, the shuffled deck and each seat's strategy seed."""
        tables = tables_for(config)
        deck = deck_from_seed(config, seed)
        expect(Counter(deck) == Counter(tables.canonical_deck), "D-seed: the shuffle is a permutation of the composition")
        generator = SplitMix64(seed)
        outputs = [generator.next64() for _ in range(3)]
        return self.vector(
            "deal", label, (*clauses, "D-seed"), description,
            config=config_to_json(config), seed=seed, outputs=outputs,
            canonical=deck_to_json(tables.canonical_deck, config), deck=deck_to_json(deck, config),
            seat_seeds=[derive_seed(seed, seat + 1) for seat in range(config.players)],
        )

    # -------------------------------------------------------------- configurations

    def config(self, label: str, clauses: Sequence[str], given: dict[str, Any], description: str, field: str | None = None) -> Vector:
        """A configuration object, accepted (with what it resolves to) or refused naming
        ``field`` [VEC-config, 2.9]."""
        try:
            config = config_from_json(given)
        except ConfigError as error:
            expect(field is not None, f"2.9: {given} was refused: {error}")
            expect(error_field(str(error), "config") == field, f"2.9: the error names {field}: {error}")
            return self.vector("config", label, (*clauses, "2.9"), description, input=given, error={"field": field})
        expect(field is None, f"2.9: {given} was accepted, expected an error at {field}")
        expect(config.preset == self.preset, "P-presets: the config is of this preset")
        return self.vector(
            "config", label, (*clauses, "2.9"), description,
            input=given, config=config_to_json(config), derived=derived_json(config),
        )

    # -------------------------------------------------------------- views, JSON forms

    def view(self, label: str, clauses: Sequence[str], run: Run, seat: int, description: str) -> Vector:
        """What one seat may know in a reached state [VEC-view, 2.17-view, 2.17-history]."""
        view = make_view(run.state, seat)
        acting = seat == run.state.current_player and not run.state.terminal
        data = view_to_json(view, view_legal_actions(view) if acting else None)
        check_view(run, seat, data)
        return self.vector(
            "view", label, (*clauses, "2.17-view"), description,
            **self._game_payload(run), prefix=actions_to_json(run.actions), seat=seat, view=data,
        )

    def action(self, label: str, clauses: Sequence[str], given: object, description: str, field: str | None = None) -> Vector:
        """An action object, parsed to its canonical form or refused naming ``field``
        [VEC-action, T-actions]."""
        try:
            parsed = action_from_json(given, "$")
        except HanabiError as error:
            expect(field is not None and error_field(str(error), "$") == field, f"T-actions: {given}: {error}")
            return self.vector("action", label, (*clauses, "T-actions"), description, input=given, error={"field": field})
        expect(field is None, f"T-actions: {given} was accepted")
        return self.vector("action", label, (*clauses, "T-actions"), description, input=given, action=action_to_json(parsed))

    def trace(self, label: str, clauses: Sequence[str], given: dict[str, Any], description: str, error: dict[str, str] | None = None) -> Vector:
        """A trace file's object, replayed to its final state or refused at a named place
        [VEC-trace, T-trace]."""
        try:
            final = replay(trace_from_json(given))
        except HanabiError as problem:
            expect(error is not None, f"T-trace: refused: {problem}")
            assert error is not None
            place = f"{error['field'].removeprefix('$.')}: {error.get('clause', '')}"
            expect(str(problem).startswith(place), f"T-trace: the error names {place}: {problem}")
            return self.vector("trace", label, (*clauses, "T-trace"), description, input=given, error=error)
        expect(error is None, "T-trace: the trace was accepted")
        return self.vector("trace", label, (*clauses, "T-trace"), description, input=given, final=state_to_json(final))


def trace_json(run: Run, seed: int | None = None) -> dict[str, Any]:
    """The trace object of a reached game [T-trace]."""
    return trace_to_json(Trace(run.config, run.deck, run.actions, seed))


def move_bound(config: GameConfig) -> int:
    """[PR-length] t0 + 2(N - p*h) + p, one more under the literal reading of E-6."""
    tables = tables_for(config)
    literal = not config.options.initial_stop_check and tables.deck_size == config.players * config.hand_size
    return config.max_hints + 2 * (tables.deck_size - config.players * config.hand_size) + config.players + literal


def derived_json(config: GameConfig) -> dict[str, Any]:
    """What a configuration resolves to [2.9, V-suit]: n, k, the suits with their counts
    and the clue colours touching them, the clue colours, N and h."""
    return {
        "values": config.values,
        "suits": [
            {"name": suit.name, "counts": list(suit.counts), "touched_by": sorted(suit.touched_by)}
            for suit in config.suits
        ],
        "colours": list(config.colours),
        "deck_size": tables_for(config).deck_size,
        "hand_size": config.hand_size,
    }


# ------------------------------------------------------------------ checks of step 1 and views


def expected_hands(config: GameConfig, deck: Sequence[int]) -> list[list[int]]:
    """[2.16-1-deal, E-1, R-2] the card ids seat j is dealt: s_{jh+1}..s_{jh+h} (blocks),
    or s_{j+1}, s_{j+1+p}, ... (round-robin), reversed under newest-first."""
    p, h = config.players, config.hand_size
    if config.options.deal == "round-robin":
        hands = [[seat + i * p for i in range(h)] for seat in range(p)]
    else:
        hands = [[seat * h + i for i in range(h)] for seat in range(p)]
    if config.options.draw_position == "newest-first":
        hands = [hand[::-1] for hand in hands]
    return hands


def check_initial(config: GameConfig, deck: Sequence[int], state: dict[str, Any]) -> None:
    """Step 1 on the JSON [2.16-1, 2.16-1-deal, 2.14-initial, E-22, E-6]: the dealt hands,
    K_c = Cards(H), D and F empty, t = t0, f = 0, seat 0 to move, nothing played yet, the
    stack after the p*h dealt cards, and R = p at once if the deal emptied the stack."""
    check_state(config, deck, state)
    cards = deck_to_json(deck, config)
    hands = [[cards[card_id] for card_id in hand] for hand in expected_hands(config, deck)]
    expect(state["hands"] == hands, "2.16-1-deal: the dealt hands")
    expect(all(k == full_knowledge(config) for known in state["knowledge"] for k in known), "2.14-initial: K_c = Cards(H)")
    expect(state["discard"] == [] and state["fireworks"] == [0] * config.suit_count, "2.16-1: D and F empty")
    expect((state["clue_tokens"], state["strikes"], state["current"], state["turns"]) == (config.max_hints, 0, 0, 0), "2.16-1: t, f, C")
    expect(state["deck_size"] == tables_for(config).deck_size - config.players * config.hand_size, "2.16-1-deal: S starts at s_{ph+1}")
    checked = config.options.initial_stop_check
    stop = checked and is_stop(config, state, None, deck)
    remaining = config.players if checked and not stop and state["deck_size"] == 0 else None
    stop = stop or (checked and is_nothing_playable(config, state, remaining, deck))
    expect(state["remaining"] == remaining and state["terminal"] == stop, "E-6, 2.16-3-last-round: step 3 after step 1")


def check_view(run: Run, seat: int, view: dict[str, Any]) -> None:
    """[2.17-view, 2.17-history, E-8] the view shows every hand's card ids, the other
    seats' identities and not its own, every K_c, the stack only as a size, the public
    piles, t, f, R, one history record per move, and the acting seat's legal actions."""
    state = state_to_json(run.state)
    for j, (shown, cards) in enumerate(zip(view["hands"], state["hands"], strict=True)):
        ids = [card["id"] for card in shown]
        expect(ids == list(run.state.hands[j]), "2.17-view: the card ids of every hand")
        visible = [{"suit": card["suit"], "value": card["value"]} for card in shown if "suit" in card]
        expect(visible == ([] if j == seat else cards), "2.17-view: the other seats' identities, not its own")
    same = ("knowledge", "deck_size", "fireworks", "clue_tokens", "strikes", "remaining", "terminal")
    expect(all(view[key] == state[key] for key in same), "2.17-view: knowledge, stack size, fields, t, f, R")
    expect([{"suit": c["suit"], "value": c["value"]} for c in view["discard"]] == state["discard"], "2.17-view: D")
    expect(len(view["history"]) == state["turns"] == len(run.actions), "2.17-history: one record per move")
    for record, action in zip(view["history"], run.actions, strict=True):
        expect(record["action"] == action_to_json(action), "2.17-history: each record holds its action")
    if "legal" in view:
        expect(view["legal"] == legal_json(run), "2.17-view: legality from the view equals legality from the state")
