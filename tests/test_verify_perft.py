"""``verify --perft``: the protocol's perft operation and the divide down to the first move
where two engines' counts part [EP-perft, EP-perft-verify].

The engines are ours behind the protocol, the test suite's own small engine (which
counts its own tree and shares no code with ours), and engines broken on purpose: each
break must be named at the move where it shows.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import attrs
import pytest

from hanabi_ref.cli import EXIT_INVALID_GAME, EXIT_OK, EXIT_USAGE, main
from hanabi_ref.engine.actions import Action, Discard, Hint, Play, action_to_json
from hanabi_ref.engine.cards import as_identities
from hanabi_ref.engine.configs import config_to_json, make_config
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.tools.perft.count import PerftCount, perft_count
from hanabi_ref.formats.serial import card_to_json
from hanabi_ref.tools.protocol.engine import ReferenceEngine
from hanabi_ref.tools.protocol.seeded import SeededReference
from hanabi_ref.tools.verify.perft import compare_deal
from hanabi_ref.tools.verify.serve import answer_request
from tests import perft_brute
from tests.engines.free_colour_hints import FreeColourHints
from tests.helpers import scripted_engine

ROOT = Path(__file__).resolve().parents[1]
SERVE = f"{sys.executable} -m hanabi_ref.cli serve"
SMALL = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'buggy.py'}"
FREE_HINTS = f"{sys.executable} {ROOT / 'tests' / 'engines' / 'free_colour_hints.py'}"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["verify", *argv])
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ the operation


@pytest.mark.checks("EP-perft")
def test_serve_answers_perft_and_says_so() -> None:
    """[EP-perft, EP-serve] hello says "perft": true; the count and divide after a move
    are the brute force's; the state is unchanged; depth 0 counts 1; a bad request gets
    an error answer; a seed-dealing engine does not offer perft."""
    engine = ReferenceEngine()
    assert answer_request(engine, {"op": "hello", "protocol": "hanabi-ref/engine", "version": 1})["perft"] is True
    config = make_config(3, preset="hanab-live")
    deck = deck_from_seed(config, 4)
    engine.new_game(config, deck)
    move = engine.legal_actions()[0]
    assert engine.apply(move) is None
    cards = [card_to_json(card, config) for card in as_identities(deck)]
    before = engine.state()
    answer = answer_request(engine, {"op": "perft", "depth": 2, "divide": True})
    assert engine.state() == before and engine.legal_actions() == ReferenceEngine.legal_actions(engine)
    nodes, divide = perft_brute.count_entry(config_to_json(config), cards, [action_to_json(move)], 2)
    assert answer == {"ok": True, "nodes": nodes, "divide": [{"action": a, "nodes": n} for a, n in divide]}
    deeper = perft_brute.count_entry(config_to_json(config), cards, [action_to_json(move)], 3)[0]
    assert answer_request(engine, {"op": "perft", "depth": 3}) == {"ok": True, "nodes": deeper}
    assert answer_request(engine, {"op": "perft", "depth": 0, "divide": True}) == {"ok": True, "nodes": 1}
    for bad in ({"op": "perft"}, {"op": "perft", "depth": -1}, {"op": "perft", "depth": 1, "divide": 1}):
        assert answer_request(engine, bad)["ok"] is False
    assert "perft" not in answer_request(SeededReference(), {"op": "hello", "protocol": "hanabi-ref/engine", "version": 1})


# ------------------------------------------------------------------ the comparison, in-process


class ListsSelfHints(ReferenceEngine):
    """Lists (and makes) a value hint to the player's own hand once a move was made."""

    def legal_actions(self) -> list[Action]:
        actions = super().legal_actions()
        state = self.current
        if state.turns >= 1 and actions:
            actions.append(Hint(state.current_player, "value", 1))
        return actions

    def apply(self, action: Action) -> str | None:
        if isinstance(action, Hint) and action.target == self.current.current_player:
            return None
        return super().apply(action)


class MiscountsDivide(ReferenceEngine):
    """Its divide at depth 3 says one more under its first move than it counts."""

    def perft(self, depth: int, divide: bool) -> PerftCount:
        result = super().perft(depth, divide)
        if result.divide and depth == 3:
            first = ((result.divide[0][0], result.divide[0][1] + 1),)
            return attrs.evolve(result, divide=first + result.divide[1:])
        return result


class RefusesWhatItLists(ReferenceEngine):
    """Counts one sequence too many under play 4, then refuses to make it."""

    def perft(self, depth: int, divide: bool) -> PerftCount:
        result = perft_count(self.current, depth, divide)
        split = None if result.divide is None else tuple((a, n + (a == Play(4))) for a, n in result.divide)
        return PerftCount(depth, result.nodes + 1, split)

    def apply(self, action: Action) -> str | None:
        return "slot 4 is glued" if action == Play(4) else super().apply(action)


class InflatesUnderPlayZero(ReferenceEngine):
    """At the deal, counts one sequence too many under play 0; after it, the right count."""

    def perft(self, depth: int, divide: bool) -> PerftCount:
        result = perft_count(self.current, depth, divide)
        if self.current.turns > 0 or result.divide is None:
            return result
        return PerftCount(depth, result.nodes + 1, tuple((a, n + (a == Play(0))) for a, n in result.divide))


class HidesPlayThree(ReferenceEngine):
    """Never lists play 3 (and counts its own tree)."""

    def legal_actions(self) -> list[Action]:
        return [action for action in super().legal_actions() if action != Play(3)]


class CountsTwoEmptySequences(ReferenceEngine):
    def perft(self, depth: int, divide: bool) -> PerftCount:
        return PerftCount(0, 2) if depth == 0 else super().perft(depth, divide)


def _compare(engine: ReferenceEngine, preset: str, players: int, depth: int, seed: int = 0) -> Any:
    config = make_config(players, preset=preset)
    deck = deck_from_seed(config, seed)
    engine.new_game(config, deck)
    return compare_deal(engine, config, deck, depth)


@pytest.mark.checks("EP-perft-verify")
def test_our_engine_agrees_with_itself() -> None:
    """[EP-perft-verify] our engine against itself: both counts the brute force's, no divergence."""
    compared = _compare(ReferenceEngine(), "hle", 3, 2, seed=5)
    config = make_config(3, preset="hle")
    cards = [card_to_json(card, config) for card in as_identities(deck_from_seed(config, 5))]
    expected = perft_brute.count_entry(config_to_json(config), cards, [], 2)[0]
    assert (compared.reference, compared.engine, compared.divergence) == (expected, expected, None)


@pytest.mark.checks("EP-perft-verify")
def test_a_wrong_list_of_moves_is_divided_down_to() -> None:
    """[EP-perft-verify] a colour hint that costs nothing shows at depth 3 under hle: the
    divide goes down under the first colour hint to the seat that can no longer discard
    (a difference of the lists is named where it first shows, with moves left to count),
    and names the token count that differs there; a self hint listed from the second
    move on is named with the rule that forbids it."""
    divergence = _compare(FreeColourHints(), "hle", 2, 3).divergence
    assert divergence is not None and len(divergence.path) == 1
    assert isinstance(divergence.path[0], Hint) and divergence.path[0].kind == "colour"
    assert divergence.left == 2 and divergence.what.startswith("the engine does not list discard 0")
    assert divergence.move == Discard(0) and divergence.reference is not None and divergence.engine is not None
    assert divergence.reference > divergence.engine
    assert any(field.startswith("clue_tokens: reference") for field in divergence.fields)
    divergence = _compare(ListsSelfHints(), "thesis", 3, 3).divergence
    assert divergence is not None and len(divergence.path) == 1 and divergence.left == 2
    assert "the engine lists hint 1 1, which the rules forbid here (2.16-2a-target" in divergence.what
    assert divergence.move == Hint(1, "value", 1)


@pytest.mark.checks("EP-perft-verify")
def test_an_engine_that_contradicts_itself_is_named() -> None:
    """[EP-perft-verify] a divide that does not sum to its count, a listed move refused, a
    count after a move that is not the one given under it, a legal move never listed, and
    a count of 2 at depth 0."""
    divergence = _compare(MiscountsDivide(), "thesis", 2, 3).divergence
    assert divergence is not None and divergence.path == () and "divide sums to 8001, not its count 8000" in divergence.what
    divergence = _compare(RefusesWhatItLists(), "hle", 2, 2).divergence
    assert divergence is not None and divergence.path == () and divergence.move == Play(4)
    assert divergence.what.startswith("the engine refuses play 4, which it listed: slot 4 is glued")
    divergence = _compare(InflatesUnderPlayZero(), "hle", 2, 3).divergence
    assert divergence is not None and divergence.path == (Play(0),) and divergence.left == 2
    assert divergence.what == (f"the engine counts {divergence.engine} here, but {divergence.engine + 1} under play 0 "
                               "one level up") and divergence.reference == divergence.engine
    divergence = _compare(HidesPlayThree(), "hle", 2, 2).divergence
    assert divergence is not None and divergence.what == "the engine does not list play 3, which the rules allow (2.16-actions)"
    divergence = _compare(CountsTwoEmptySequences(), "hle", 2, 0).divergence
    assert divergence is not None and "counts 2 sequences of no move" in divergence.what


# ------------------------------------------------------------------ the command


@pytest.mark.checks("EP-perft-verify", "EP-perft")
def test_verify_perft_over_the_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-perft-verify] ``hanabi-ref serve`` and the test suite's own small engine agree
    with us at depth 2 under every preset (exit 0); the report lists each configuration."""
    code, out, err = run(capsys, "--engine", SERVE, "--perft", "2", "--players", "2,3", "--rules", "hle,thesis")
    assert code == EXIT_OK and err == "" and out.splitlines()[-1] == "divergences     0"
    assert "4 configurations compared, 0 unsupported" in out and out.count(" agrees") == 4
    code, out, err = run(capsys, "--engine", SMALL, "--perft", "2", "--players", "2,4", "--json")
    result = json.loads(out)
    assert code == EXIT_OK and result["engine"] == "small" and len(result["perft"]["deals"]) == 10
    assert all(deal["agrees"] and deal["reference"] == deal["engine"] for deal in result["perft"]["deals"])


@pytest.mark.checks("EP-perft-verify")
def test_verify_perft_reports_where_the_counts_part(capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-perft-verify] the engine with free colour hints: exit 1, the moves to the
    divergence, both counts, the differing field, and a perft command that shows our
    divide there, which runs."""
    code, out, err = run(capsys, "--engine", FREE_HINTS, "--perft", "2", "--players", "2", "--rules", "thesis,hle")
    assert code == EXIT_INVALID_GAME and err == ""
    lines = out.splitlines()
    assert "thesis, 2 players, No Variant: 400 agrees" in out
    assert any(line.startswith("                hle, 2 players, No Variant: DIFFERS: reference ") for line in lines)
    assert any(line.startswith("DIVERGENCE      after hint 1 ") and "(1 move to count): the engine does not list discard 0"
               in line for line in lines)
    assert "state there: clue_tokens: reference 7, engine 8" in out
    command = next(line for line in lines if line.startswith("reproduce")).split(None, 1)[1]
    words = shlex.split(command)
    assert words[:2] == ["hanabi-ref", "perft"] and "--divide" in words
    assert main(words[1:]) == EXIT_OK
    shown = capsys.readouterr().out
    assert "discard 0: 1" in shown and shown.splitlines()[-1].startswith("moves ")
    code, out, _ = run(capsys, "--engine", FREE_HINTS, "--perft", "2", "--players", "2", "--rules", "hle", "--json")
    divergence = json.loads(out)["perft"]["deals"][0]["divergence"]
    assert code == EXIT_INVALID_GAME and divergence["left"] == 1 and divergence["move"] == {"type": "discard", "slot": 0}
    assert divergence["moves"][0]["kind"] == "colour" and divergence["reference"] > divergence["engine"]


@pytest.mark.checks("EP-perft-verify")
def test_an_engine_without_perft_is_a_usage_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """[EP-perft-verify] an engine whose hello says nothing of perft, and one that deals
    from its own seed: one line, exit 2, nothing on standard output."""
    engine = scripted_engine(tmp_path, ['{"ok": true, "name": "mute"}', '{"ok": true}'])
    code, out, err = run(capsys, "--engine", engine, "--perft", "1")
    assert code == EXIT_USAGE and out == "" and err.count("\n") == 1
    assert err.startswith('hanabi-ref: mute does not answer perft: its hello answer does not say "perft": true')
    code, out, err = run(capsys, "--engine", f"{SERVE} --deals seed", "--perft", "1")
    assert code == EXIT_USAGE and out == "" and err.count("\n") == 1 and "deals from its own seed" in err
