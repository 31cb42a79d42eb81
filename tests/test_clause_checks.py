"""Small checks of clauses whose other tests only mention them: each expected value is
transcribed from the clause's text in ``spec/`` (the limits of L-config, the bound of
L-moves, the subcommands of C-cli, ...), never taken from our own output."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.oracles import oracle

from hanabi_ref.cli import EXIT_OK, EXIT_USAGE, main
from hanabi_ref.base.errors import ConfigError, HanabiError, TraceError
from hanabi_ref.engine.configs import config_from_json, make_config, max_moves
from hanabi_ref.formats.schema import validate_trace_json
from hanabi_ref.formats.serial import JsonRuleError, parse_json
from hanabi_ref.engine.tables import tables_for
from hanabi_ref.formats.trace import load_trace

# ------------------------------------------------------------------ spec/rules.md


@pytest.mark.checks("L-config")
@pytest.mark.parametrize(
    "arguments, field",
    [
        ({"players": 101}, "players"),
        ({"players": 2, "hand_size": 101}, "hand_size"),
        ({"players": 2, "hints": 25_001}, "hints"),
        ({"players": 2, "errors": 10_001}, "errors"),
        ({"players": 1, "hand_size": 1, "composition": [[101]]}, "counts[0]"),
        ({"players": 1, "hand_size": 1, "composition": [[1]] * 101}, "composition"),
        ({"players": 1, "hand_size": 1, "composition": [[1] * 101]}, "composition[0]"),
        ({"players": 1, "hand_size": 1, "composition": [[100] * 10] * 11}, "suits"),  # 11,000 cards
    ],
)
def test_one_past_each_limit_of_the_clause_is_refused(arguments: dict[str, Any], field: str) -> None:
    """[L-config] the clause's numbers, written out: n, p, h <= 100, t0 <= 25,000,
    f0 <= 10,000, at most 100 suits, 100 copies of an identity, N <= 10,000; one more
    is refused naming the field and the clause."""
    with pytest.raises(ConfigError) as error:
        config_from_json(arguments)
    assert field in str(error.value) and "L-config" in str(error.value), str(error.value)


@pytest.mark.checks("L-config")
def test_each_limit_of_the_clause_is_accepted() -> None:
    """[L-config] the limits themselves are allowed (N = 10,000 as 100 suits of 100)."""
    assert make_config(2, hints=25_000, errors=10_000).max_hints == 25_000
    assert make_config(1, hand_size=1, composition=[[1] * 100]).values == 100
    widest = make_config(1, hand_size=1, composition=[[100]] * 100)
    assert widest.suit_count == 100 and tables_for(widest).deck_size == 10_000


@pytest.mark.checks("L-moves")
@pytest.mark.parametrize(
    "arguments, bound",
    [
        ({"players": 2}, 8 + 2 * 50 + 5),
        ({"players": 3, "hints": 0}, 0 + 2 * 50 + 5),
        ({"players": 2, "hints": 3, "hand_size": 2, "composition": [[2, 1], [1, 1]]}, 3 + 2 * 5 + 2),
    ],
)
def test_the_move_bound_is_t0_plus_twice_n_plus_k(arguments: dict[str, Any], bound: int) -> None:
    """[L-moves] t0 + 2N + k, computed by hand from each configuration."""
    assert max_moves(config_from_json(arguments)) == bound


@pytest.mark.checks("L-files")
def test_a_game_file_of_more_than_500000_values_is_refused_before_parsing(tmp_path: Path) -> None:
    """[L-files] values counted as ``[``, ``{`` and ``,`` plus one: 500,000 pass the count
    (and are then refused as a trace for their shape), 500,001 are refused as too many,
    in one line naming the file."""
    at_limit, beyond = tmp_path / "at.json", tmp_path / "beyond.json"
    at_limit.write_text("[" + "0," * 499_998 + "0]", encoding="utf-8")
    beyond.write_text("[" + "0," * 499_999 + "0]", encoding="utf-8")
    with pytest.raises(HanabiError) as accepted:
        load_trace(at_limit)
    assert "JSON values" not in str(accepted.value) and "object" in str(accepted.value)
    with pytest.raises(HanabiError) as refused:
        load_trace(beyond)
    assert str(refused.value).startswith(str(beyond)) and "500,000 JSON values" in str(refused.value)
    assert main(["replay", str(beyond)]) == 2


@pytest.mark.checks("E-17")
@pytest.mark.parametrize("count", [None, "inf", float("inf")])
def test_no_configuration_has_an_unbounded_stack(count: object) -> None:
    """[E-17, 2.9-S0] N is finite: a composition count that is not a whole number of
    cards (null, "inf", an infinite float) is refused, so no configuration has N = inf."""
    with pytest.raises(ConfigError):
        config_from_json({"players": 1, "hand_size": 1, "composition": [[count]]})


C_CLI_SUBCOMMANDS = ("simulate", "play", "replay", "verify", "serve", "vectors", "rules", "bench", "spec",
                     "sweep", "playability", "explain", "compile", "rl")


@pytest.mark.checks("C-cli")
def test_the_subcommands_of_the_clause_exist(capsys: pytest.CaptureFixture[str]) -> None:
    """[C-cli] every subcommand the clause lists is one of hanabi-ref's (its --help)."""
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    usage = capsys.readouterr().out
    choices = set(usage[usage.index("{") + 1 : usage.index("}")].split(","))
    assert set(C_CLI_SUBCOMMANDS) <= choices, set(C_CLI_SUBCOMMANDS) - choices


@pytest.mark.checks("C-cli")
def test_the_defaults_of_the_clause(capsys: pytest.CaptureFixture[str]) -> None:
    """[C-cli, 2.9-h] without --rules, --variant, --hand-size and --seed a game is the
    one of ``thesis``, No Variant, h by 2.9-h (5 for 2 players) and seed 0; --json prints
    one JSON object; --players is required."""
    def played(*extra: str) -> dict[str, Any]:
        assert main(["play", "--strategy", "simple", "--players", "2", "--json", *extra]) == EXIT_OK
        result: dict[str, Any] = json.loads(capsys.readouterr().out)
        return result

    spelled = played("--rules", "thesis", "--variant", "No Variant", "--hand-size", "5", "--seed", "0")
    assert played() == spelled != played("--seed", "1")
    assert main(["play", "--strategy", "simple", "--json"]) == EXIT_USAGE
    assert "--players" in capsys.readouterr().err


@pytest.mark.checks("C-exit")
def test_the_exit_codes_are_the_clause_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[C-exit] the numbers as the clause writes them: 0 on success, 1 for a game file
    that is not JSON, 2 for bad arguments; each error one line beginning hanabi-ref:."""
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    assert main(["rules", "--list"]) == 0
    assert main(["replay", str(broken)]) == 1
    assert main(["play", "--strategy", "simple", "--players", "2", "--seed", "x"]) == 2
    errors = capsys.readouterr().err.splitlines()
    assert len(errors) == 2 and all(line.startswith("hanabi-ref: ") for line in errors), errors


# ------------------------------------------------------------------ spec/trace.md


@pytest.mark.checks("T-json", "EP-numbers")
def test_an_integer_of_4300_digits_is_read_and_one_of_4301_is_not() -> None:
    """[T-json, EP-numbers] the clause's number: more than 4,300 digits is refused, a
    minus sign not counted."""
    assert parse_json("[-" + "9" * 4300 + "]") == [-int("9" * 4300)]
    with pytest.raises(JsonRuleError, match="4301 digits"):
        parse_json("[" + "9" * 4301 + "]")


@pytest.mark.checks("T-limits")
@pytest.mark.parametrize("member, limit", [("deck", 10_000), ("actions", 100_000), ("states", 100_001)])
def test_the_list_limits_of_the_clause(member: str, limit: int) -> None:
    """[T-limits] at most 10,000 cards in ``deck``, 100,000 actions and 100,001 states,
    checked before any item is read: one more is refused by its count, the limit itself
    is refused for something else (its items are all wrong)."""
    def refusal(count: int) -> str:
        data: dict[str, Any] = {"format": "hanabi-ref/trace", "version": 1, "config": {"players": 2},
                                "deck": [], "actions": []}
        data[member] = [0] * count
        with pytest.raises(TraceError) as error:
            validate_trace_json(data)
        return str(error.value)

    assert refusal(limit + 1).startswith(f"{member}: {limit + 1} items")
    assert "items" not in refusal(limit)


# ------------------------------------------------------------------ spec/library.md

API_NAMES = ("Game", "Config", "Card", "Knowledge", "Action", "Play", "Discard", "Hint", "GameConfig", "GameState",
             "Event", "PlayerView", "play_game", "Strategy", "BaseStrategy", "HanabiError", "ConfigError",
             "IllegalActionError", "TraceError", "make_config", "deck_from_seed", "new_game", "initial_state", "apply",
             "legal_actions", "make_view", "STRATEGIES", "factory_for", "load_trace", "save_trace", "replay",
             "__version__")


@pytest.mark.checks("API-names", "API-stable")
def test_the_names_the_clause_lists_are_public() -> None:
    """[API-names, API-stable] each name the clause lists, written out here, is in
    ``hanabi_ref.__all__`` and importable from the package; the errors are the
    package's error classes, HanabiError their base."""
    import hanabi_ref

    assert set(API_NAMES) <= set(hanabi_ref.__all__), set(API_NAMES) - set(hanabi_ref.__all__)
    namespace: dict[str, Any] = {}
    exec(f"from hanabi_ref import {', '.join(API_NAMES)}", namespace)  # noqa: S102
    assert all(namespace[name] is getattr(hanabi_ref, name) for name in API_NAMES)
    for error in ("ConfigError", "IllegalActionError", "TraceError"):
        assert issubclass(namespace[error], namespace["HanabiError"])


@pytest.mark.checks("SH-card", "API-card")
@pytest.mark.parametrize(
    "preset, variant, suit, value, name",
    [
        ("thesis", "No Variant", 0, 3, "r3"), ("thesis", "No Variant", 1, 1, "y1"), ("thesis", "No Variant", 2, 5, "g5"),
        ("thesis", "No Variant", 3, 2, "b2"), ("thesis", "No Variant", 4, 4, "p4"), ("thesis", "6 Suits", 5, 1, "t1"),
        ("thesis", "Black (6 Suits)", 5, 5, "k5"), ("thesis", "Rainbow (6 Suits)", 5, 2, "m2"),
    ],
)
def test_card_names_are_the_clause_letters(preset: str, variant: str, suit: int, value: int, name: str) -> None:
    """[SH-card, API-card] r, y, g, b, p for No Variant's suits, t teal, k black, m
    rainbow, then the value; ``Card`` writes and reads the same name."""
    from hanabi_ref import Card
    from hanabi_ref.engine.cards import identity
    from hanabi_ref.engine.show import card_name

    config = make_config(2, preset, variant)
    card = identity(value, suit, config.values)
    assert card_name(config, card) == name
    assert str(Card.of(config, card)) == name and Card.parse(name).identity(config) == card


@pytest.mark.checks("SH-card")
def test_a_long_short_name_is_dashed_and_start_is_s() -> None:
    """[SH-card] a custom composition's second suit is ``s2`` and its 3 is ``s2-3``; under
    Up or Down a red START card is ``rS``."""
    from hanabi_ref.engine.cards import identity
    from hanabi_ref.engine.show import card_name

    custom = make_config(2, composition=[[2, 1, 1], [1, 1, 1]], hand_size=2)
    assert card_name(custom, identity(3, 1, custom.values)) == "s2-3"
    up = make_config(2, "hanab-live", "Up or Down (5 Suits)")
    assert card_name(up, identity(up.values, 0, up.values)) == "rS"


CONTRACT_SPELLINGS = """
import importlib, json, os, sys
import hanabi_ref.base.contracts as contracts
seen = {}
for spelling in json.loads(sys.argv[1]):
    os.environ["HANABI_REF_CONTRACTS"] = spelling
    seen[spelling] = importlib.reload(contracts).ENABLED
del os.environ["HANABI_REF_CONTRACTS"]
seen[None] = importlib.reload(contracts).ENABLED
print(json.dumps(list(seen.values())))
"""


@pytest.mark.checks("CT-switch")
def test_the_spellings_that_switch_contracts_off() -> None:
    """[CT-switch] 0, off, false and no, in any case with spaces around, are off; anything
    else, and no variable at all, is on (read in a fresh interpreter)."""
    import os

    from tests.processes import run_process

    off = ["0", "off", "false", "no", " OFF ", "False", "\tNo\n"]
    on = ["1", "on", "yes", "", "nope", "00"]
    env = {key: value for key, value in os.environ.items() if key != "HANABI_REF_CONTRACTS"}
    done = run_process([sys.executable, "-c", CONTRACT_SPELLINGS, json.dumps(off + on)], capture_output=True,
                       text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [False] * len(off) + [True] * len(on) + [True]


# ------------------------------------------------------------------ spec/engine-protocol.md

ENGINE_METHODS = ("unsupported", "new_game", "apply", "state", "legal_actions", "close", "observe")


@pytest.mark.checks("EP-protocol")
def test_every_engine_has_the_methods_the_clause_lists() -> None:
    """[EP-protocol] our engine, the peer adapters and the process engine each have the
    methods the clause lists, written out here, and ``shows_views``; an engine that shows
    no views answers ``observe`` with None.  The peer adapters import their libraries (skipped
    without them, failed under HANABI_REF_REQUIRE_ORACLES=1: tests/oracles.py)."""
    oracle("hanabython")
    oracle("hanabi_learning_environment.pyhanabi")
    oracle("pyspiel")
    from hanabi_ref.tools.peers.hanabython import HanabythonEngine
    from hanabi_ref.tools.peers.hle import HLEEngine
    from hanabi_ref.tools.peers.openspiel import OpenSpielEngine
    from hanabi_ref.tools.protocol.engine import ReferenceEngine
    from hanabi_ref.tools.verify.process import ProcessEngine

    for engine in (ReferenceEngine, HanabythonEngine, HLEEngine, OpenSpielEngine, ProcessEngine):
        missing = [name for name in ENGINE_METHODS if not callable(getattr(engine, name, None))]
        assert not missing, f"{engine.__name__} lacks {missing}"
    for shown in (ReferenceEngine, HanabythonEngine, HLEEngine, OpenSpielEngine):
        assert isinstance(shown.shows_views, bool)
    served = ProcessEngine(f"{sys.executable} -m hanabi_ref.cli serve", timeout=60)
    try:
        assert served.shows_views is True  # our serve answers observe
    finally:
        served.close()
    from hanabi_ref.tools.peers import peer_config

    quiet = HanabythonEngine()
    config = peer_config("hanabython", 2)
    try:
        quiet.new_game(config, tables_for(config).canonical_deck)
        assert quiet.shows_views is False and quiet.observe(0) is None
    finally:
        quiet.close()


@pytest.mark.checks("EP-random")
def test_a_random_deck_is_drawn_card_by_card_from_the_canonical_order() -> None:
    """[EP-random] the configuration by index, then each card an index into the cards not
    yet placed, in canonical order: choices of 0 give the canonical deck, and the
    choices of random.Random(S), recorded, give the deck recomputed here from them."""
    import random

    from hanabi_ref.tools.verify.run import RecordedDraws, deal

    configs = [make_config(2, "hle"), make_config(3, "thesis")]
    config, deck, _ = deal(configs, lambda n: 0)
    assert config == configs[0] and deck == tables_for(config).canonical_deck
    draws = RecordedDraws(random.Random(11))
    config, deck, _ = deal(configs, draws)
    again = random.Random(11)
    expected_config = configs[again.randrange(2)]
    left, expected = list(tables_for(expected_config).canonical_deck), []
    while left:
        expected.append(left.pop(again.randrange(len(left)) if len(left) > 1 else 0))
    assert config == expected_config and deck == tuple(expected)
    assert len(draws.choices) == 1 + len(deck) - 1  # a choice among one card is no choice
