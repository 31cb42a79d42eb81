"""``verify --perft D``: an engine's perft counts beside ours, divided down to the first
move where they part [EP-perft-verify, EP-perft, PF-count, PF-divide].

For each configuration of the random games (``--rules`` x ``--players`` x ``--variant``,
``--option``), the deck of seed ``--seed`` (D-seed) is dealt on both sides and each
counts perft at depth D with its divide.  Where the two divides part at a move, that
move is made on both sides and both divide again one level down, until the lists of
legal moves themselves differ (a move one side lists and the other does not), or an
engine contradicts itself (a divide that does not sum to its count, a count under a
move that differs from its count after the move, a move it listed and then refuses).
The report names the moves from the deal to that point, which side lists what, and
the state fields that differ there.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

import attrs

from hanabi_ref.base.errors import IllegalActionError
from hanabi_ref.base.escape import escape_text
from hanabi_ref.engine.actions import Action, action_to_json
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import config_to_json
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import illegality
from hanabi_ref.engine.presets import PRESETS
from hanabi_ref.engine.show import action_text
from hanabi_ref.engine.state import GameState
from hanabi_ref.engine.transition import apply_legal, initial_state
from hanabi_ref.formats.serial import short_json, state_to_json
from hanabi_ref.tools.perft.count import PerftCount, divide
from hanabi_ref.tools.protocol.counting import CountingEngine, counting_engine
from hanabi_ref.tools.protocol.engine import Engine, EngineFailure, UnsupportedConfig, VerifyUsageError
from hanabi_ref.tools.protocol.seeded import dealing_engine


@attrs.frozen
class PerftDivergence:
    """Where an engine's counts part from ours [EP-perft-verify]: after ``path`` (the
    moves from the deal), counting ``left`` more moves, ``what`` differs; ``move`` is the
    first move whose count differs there (None: the count itself), ``reference`` and
    ``engine`` the two counts at that point, ``fields`` the state fields that differ
    there (as ``field: reference X, engine Y``)."""

    path: tuple[Action, ...]
    left: int
    what: str
    move: Action | None
    reference: int | None
    engine: int | None
    fields: tuple[str, ...] = ()


def _key(action: Action) -> str:
    return json.dumps(action_to_json(action), sort_keys=True)


def _first_parting(ours: list[tuple[Action, int]], theirs: tuple[tuple[Action, int], ...]) -> Action | None:
    """Where two divides part: the first move that one side lists and the other does not
    (ours in the order of 2.16-actions, then the engine's in its order), so that a
    difference of the lists here is named here; else the first move whose counts differ."""
    mine, yours = {_key(a): n for a, n in ours}, {_key(a): n for a, n in theirs}
    moves = [action for action, _ in [*ours, *theirs]]
    listed_once = [action for action in moves if (_key(action) in mine) != (_key(action) in yours)]
    if listed_once:
        return listed_once[0]
    return next((action for action in moves if mine[_key(action)] != yours[_key(action)]), None)


@attrs.frozen
class DealComparison:
    """[EP-perft-verify] both counts at the depth asked for from one deal, and where the
    engine parts from ours (None: nowhere)."""

    reference: int
    engine: int
    divergence: PerftDivergence | None


def compare_deal(engine: CountingEngine, config: GameConfig, deck: tuple[int, ...], depth: int) -> DealComparison:
    """[EP-perft-verify] our count and the engine's at ``depth`` from the deal of ``deck``,
    and where the engine parts from ours; the engine must have started that game."""
    state = initial_state(config, deck)
    if depth == 0:
        theirs_nodes = engine.perft(0, False).nodes
        parted = None if theirs_nodes == 1 else _diverged(
            engine, state, [], 0, f"the engine counts {theirs_nodes} sequences of no move; there is exactly one, "
            "the empty one (PF-count)", None, 1, theirs_nodes)
        return DealComparison(1, theirs_nodes, parted)
    ours, theirs = divide(state, depth), engine.perft(depth, True)
    return DealComparison(sum(nodes for _, nodes in ours), theirs.nodes,
                          _divide_down(engine, state, depth, ours, theirs))


def _divide_down(engine: CountingEngine, state: GameState, depth: int, ours: list[tuple[Action, int]],
                 theirs: PerftCount) -> PerftDivergence | None:
    """[EP-perft-verify] from both divides at ``depth`` from the deal, one level down under
    the first move where they part, until the lists of moves differ or the engine
    contradicts itself."""
    config, left = state.config, depth
    path: list[Action] = []
    expected: int | None = None  # the engine's count under the move just made, from its divide one level up
    while True:
        ours_nodes, split = sum(nodes for _, nodes in ours), theirs.divide or ()
        problem = _inconsistency(theirs.nodes, split, expected, path, state)
        if problem is not None:
            return _diverged(engine, state, path, left, problem, None, ours_nodes, theirs.nodes)
        move = _first_parting(ours, split)
        if move is None:
            if path:  # the engine's counts differed one level up, but not here: it contradicts itself
                return _diverged(engine, state, path, left, "the engine's divide here agrees with ours, but its count "
                                 "under the last move one level up did not", None, ours_nodes, theirs.nodes)
            return None
        reason = _listing_difference(state, move, ours, split)
        if reason is not None:
            return _diverged(engine, state, path, left, reason, move, ours_nodes, theirs.nodes)
        refusal = engine.apply(move)
        if refusal is not None:
            return _diverged(engine, state, path, left, f"the engine refuses {action_text(config, move)}, which it "
                             f"listed: {refusal}", move, ours_nodes, theirs.nodes)
        expected = dict((_key(a), n) for a, n in split)[_key(move)]
        state, left = apply_legal(state, move), left - 1
        path.append(move)
        ours, theirs = divide(state, left), engine.perft(left, True)


def _inconsistency(nodes: int, split: tuple[tuple[Action, int], ...], expected: int | None, path: list[Action],
                   state: GameState) -> str | None:
    """[EP-perft-verify] an engine's answer that contradicts itself: a divide that does
    not sum to the count, lists a move twice, or a count that is not the one it gave
    under the move that led here."""
    keys = [_key(action) for action, _ in split]
    if len(set(keys)) != len(keys):
        return "the engine's divide lists a move twice"
    if sum(count for _, count in split) != nodes:
        return f"the engine's divide sums to {sum(count for _, count in split)}, not its count {nodes} (PF-divide)"
    if expected is not None and nodes != expected:
        last = action_text(state.config, path[-1])
        return f"the engine counts {nodes} here, but {expected} under {last} one level up"
    return None


def _listing_difference(state: GameState, move: Action, ours: list[tuple[Action, int]],
                        theirs: tuple[tuple[Action, int], ...]) -> str | None:
    """[EP-perft-verify] a first move that one side lists and the other does not, told
    with the rule that allows or forbids it; None when both list it."""
    text = action_text(state.config, move)
    listed = {_key(action) for action, _ in theirs}
    if _key(move) not in listed:
        return f"the engine does not list {text}, which the rules allow (2.16-actions)"
    if any(_key(action) == _key(move) for action, _ in ours):
        return None
    problem = illegality(state, move)
    why = str(IllegalActionError(*problem)) if problem is not None else "2.16-actions"
    return f"the engine lists {text}, which the rules forbid here ({why})"


def _diverged(engine: Engine, state: GameState, path: list[Action], left: int, what: str, move: Action | None,
              reference: int | None, theirs: int | None) -> PerftDivergence:
    """The divergence, with the state fields that differ at its position (what the
    engine reports; nothing if its state cannot be read)."""
    from hanabi_ref.tools.verify.compare import state_differences

    try:
        differences = state_differences(state_to_json(state), engine.state())
    except EngineFailure:
        differences = []
    fields = tuple(f"{d.field}: reference {short_json(d.reference, 40)}, engine {short_json(d.engine, 40)}"
                   for d in differences)
    return PerftDivergence(tuple(path), left, what, move, reference, theirs, fields)


def reproduce_command(config: GameConfig, seed: int, divergence: PerftDivergence) -> str:
    """[EP-perft-verify, PF-cli] the ``hanabi-ref perft`` command that shows our divide
    where the counts part."""
    import shlex

    preset = PRESETS[config.preset].options
    words = ["hanabi-ref", "perft", "--seed", str(seed), "--players", str(config.players), "--rules", config.preset]
    if config.variant != "No Variant":
        words += ["--variant", config.variant]
    for name, value in attrs.asdict(config.options).items():
        if value != getattr(preset, name):
            words += ["--option", f"{name}={json.dumps(value) if isinstance(value, bool) else value}"]
    if divergence.path:
        words += ["--moves", ", ".join(action_text(config, move) for move in divergence.path)]
    words += ["--depth", str(divergence.left), "--divide"]
    return " ".join(shlex.quote(word) for word in words)


# ------------------------------------------------------------------ the command


def run_verify_perft(args: argparse.Namespace) -> bool:
    """[EP-perft-verify] ``verify --perft D``: whether the engine's counts agree with ours
    on every configuration it plays.  An engine that does not answer perft, or deals from
    its own seed, is a usage error (exit 2) in one line, after it is stopped."""
    from hanabi_ref.tools.verify.session import random_game_configs, with_engine

    configs = random_game_configs(args)
    result = with_engine(args, lambda engine: _compare_all(engine, configs, args.perft, args.seed))
    return _report(result, args.json)


def _compare_all(engine: Engine, configs: list[GameConfig], depth: int, seed: int) -> dict[str, Any]:
    """[EP-perft-verify] every configuration's deal compared; the first divergence ends the run."""
    if dealing_engine(engine):
        raise VerifyUsageError(f"{engine.name} deals from its own seed: perft needs the deck (EP-perft-verify); "
                               "verify it without --perft")
    if not counting_engine(engine):
        raise VerifyUsageError(f"{engine.name} does not answer perft: its hello answer does not say \"perft\": true "
                               "(EP-perft); verify it without --perft, or add the operation")
    deals: list[dict[str, Any]] = []
    unsupported = 0
    for config in configs:
        deck = deck_from_seed(config, seed)
        try:
            engine.new_game(config, deck)
        except UnsupportedConfig:
            unsupported += 1
            continue
        compared = compare_deal(engine, config, deck, depth)
        entry = {"config": config_to_json(config), "reference": compared.reference, "engine": compared.engine,
                 "agrees": compared.divergence is None}
        deals.append(entry)
        if compared.divergence is not None:
            entry["divergence"] = _divergence_json(config, seed, compared.divergence)
            break
    if not deals:
        raise EngineFailure("the engine refused every configuration (see --rules, --players)")
    return {"perft": {"depth": depth, "seed": seed, "deals": deals, "unsupported": unsupported}}


def _divergence_json(config: GameConfig, seed: int, divergence: PerftDivergence) -> dict[str, Any]:
    return {
        "moves": [action_to_json(move) for move in divergence.path],
        "moves_text": [action_text(config, move) for move in divergence.path],
        "left": divergence.left, "what": divergence.what,
        "move": None if divergence.move is None else action_to_json(divergence.move),
        "reference": divergence.reference, "engine": divergence.engine, "fields": list(divergence.fields),
        "reproduce": reproduce_command(config, seed, divergence),
    }


def _say(text: str) -> None:
    print(escape_text(text))  # [OUT-escape] the report quotes the engine's name and answers


def _report(result: dict[str, Any], as_json: bool) -> bool:
    """[EP-perft-verify] the run's outcome: each configuration's count, then "divergences
    0" or where the counts part; True when they agree."""
    perft = result["perft"]
    divergence = next((deal["divergence"] for deal in perft["deals"] if "divergence" in deal), None)
    if as_json:
        print(json.dumps(result, sort_keys=True))
        return divergence is None
    _say(f"engine          {result['engine']}")
    _say(f"perft           depth {perft['depth']} from the deal of seed {perft['seed']}: {len(perft['deals'])} "
         f"configurations compared, {perft['unsupported']} unsupported")
    for deal in perft["deals"]:
        config = deal["config"]
        verdict = "agrees" if deal["agrees"] else f"DIFFERS: reference {deal['reference']}, engine {deal['engine']}"
        counted = deal["reference"] if deal["agrees"] else ""
        _say(f"                {config['preset']}, {config['players']} players, {config['variant']}: {counted} {verdict}"
             .replace(":  ", ": "))
    if divergence is None:
        _say("divergences     0")
        return True
    where = ", ".join(divergence["moves_text"]) or "the deal"
    left = f"{divergence['left']} move{'' if divergence['left'] == 1 else 's'} to count"
    _say(f"DIVERGENCE      after {where} ({left}): {divergence['what']}")
    _say(f"                counts there: reference {divergence['reference']}, engine {divergence['engine']}")
    for field in divergence["fields"]:
        _say(f"                state there: {field}")
    _say(f"reproduce       {divergence['reproduce']}")
    return False
