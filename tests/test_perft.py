"""perft: the count, its divide, the command and the committed vectors [PF-count,
PF-divide, PF-cli, PF-vectors, PF-schema].

Every count of ``spec/perft.json`` is checked against a brute force of the test suite's
own (``tests/perft_brute.py``, which imports nothing of hanabi_ref) and, where OpenSpiel
plays the rules, against OpenSpiel walking the same tree with its chance nodes steered
to the deck (written here from OpenSpiel's API, not with our adapter).  Vectors whose
names end in ``-deep`` are checked in the deep set.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref.cli import main
from hanabi_ref.engine.cards import as_identities
from hanabi_ref.engine.configs import config_from_json, config_to_json, make_config
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.formats.serial import card_to_json
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.transition import apply, new_game
from hanabi_ref.engine.show import parse_action
from hanabi_ref.formats.trace import action_from_json, card_from_json
from hanabi_ref.tools.perft.count import count_nodes, divide_nodes, perft, perft_count
from hanabi_ref.tools.perft.deals import position
from hanabi_ref.tools.perft.vectors import FORMAT, PerftVectorsError, cases, check, position_of, read
from tests import perft_brute
from tests.oracles import oracle

ROOT = Path(__file__).resolve().parents[1]
COMMITTED = ROOT / "spec" / "perft.json"
DEEP_SUFFIX = "-deep"
"""Vectors named so take seconds and are checked in the deep set (PF-vectors)."""
REGENERATE = "run `python -m hanabi_ref.tools.perft.vectors spec/perft.json` and commit the result"


@cache
def committed() -> tuple[dict[str, Any], ...]:
    return tuple(read(COMMITTED))


def named(name: str) -> dict[str, Any]:
    return next(vector for vector in committed() if vector["name"] == name)


QUICK = [vector["name"] for vector in committed() if not vector["name"].endswith(DEEP_SUFFIX)]
DEEP = [vector["name"] for vector in committed() if vector["name"].endswith(DEEP_SUFFIX)]


def our_count(vector: dict[str, Any], with_divide: bool) -> Any:
    config = config_from_json(vector["config"])
    deck = [card_from_json(card, f"deck[{i}]", config) for i, card in enumerate(vector["deck"])]
    moves = [action_from_json(move, f"moves[{i}]") for i, move in enumerate(vector["moves"])]
    return perft_count(position(config, deck, moves), vector["depth"], with_divide)


def divide_map(divide: list[dict[str, Any]]) -> dict[str, int]:
    return {json.dumps(entry["action"], sort_keys=True): entry["nodes"] for entry in divide}


# ------------------------------------------------------------------ OpenSpiel walking the tree


HLE_OPTIONS = {"empty_hints": False, "discard_at_max_hints": False, "self_hints": False, "strikeout_score": "zero",
               "end_when_no_points_possible": False, "end_when_nothing_playable": False, "deal": "blocks",
               "draw_position": "newest-last", "initial_stop_check": True, "draw_after_final_move": False}
"""The rules OpenSpiel's hanabi plays (the HLE's), option by option (spec/rules.md P-presets)."""


def hle_counts(ranks: int) -> list[int]:
    """Copies per rank in HLE's deck: three of the lowest, one of the highest, two of the others."""
    return [3 if rank == 0 else 2 if rank < ranks - 1 else 1 for rank in range(ranks)]


def openspiel_plays(config: dict[str, Any]) -> bool:
    """Whether OpenSpiel's hanabi plays this configuration's rules exactly."""
    if config["options"] != HLE_OPTIONS or config["errors"] is None or not 2 <= config["players"] <= 5:
        return False
    if config["hand_size"] > 5:
        return False
    if config["variant"] == "No Variant":
        return True
    composition = config.get("composition")
    return (config["variant"] == "Custom" and composition is not None and len(composition) <= 5
            and len(composition[0]) <= 5 and all(counts == hle_counts(len(counts)) for counts in composition))


def openspiel_count(vector: dict[str, Any]) -> tuple[int, dict[str, int]]:
    """OpenSpiel's count and divide of a vector: the deck dealt through its chance nodes
    (outcome colour * ranks + rank - 1, every draw the deck's next card), the prefix made
    as OpenSpiel's move ids, then clone() and apply_action for every move."""
    pyspiel = oracle("pyspiel")
    config = vector["config"]
    colours = len(config["composition"]) if "composition" in config else 5
    ranks = len(config["composition"][0]) if "composition" in config else 5
    players, hand = int(config["players"]), int(config["hand_size"])
    game = pyspiel.load_game("hanabi", {"players": players, "colors": colours, "ranks": ranks, "hand_size": hand,
                                        "max_information_tokens": config["hints"], "max_life_tokens": config["errors"]})
    outcomes = [card["suit"] * ranks + card["value"] - 1 for card in vector["deck"]]

    def deal(state: Any, dealt: int) -> int:
        while state.is_chance_node():
            state.apply_action(outcomes[dealt])
            dealt += 1
        return dealt

    def move_id(state: Any, action: dict[str, Any]) -> int:
        if action["type"] in ("discard", "play"):
            return int(action["slot"]) + (hand if action["type"] == "play" else 0)
        offset, value = (int(action["target"]) - int(state.current_player())) % players, int(action["value"])
        if action["kind"] == "colour":
            return 2 * hand + (offset - 1) * colours + value
        return 2 * hand + (players - 1) * colours + (offset - 1) * ranks + value - 1

    def walk(state: Any, dealt: int, depth: int) -> int:
        if depth == 0:
            return 1
        moves = [] if state.is_terminal() else state.legal_actions()
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            child = state.clone()
            child.apply_action(move)
            total += walk(child, deal(child, dealt), depth - 1)
        return total

    root = game.new_initial_state()
    dealt = deal(root, 0)
    for action in vector["moves"]:
        root.apply_action(move_id(root, action))
        dealt = deal(root, dealt)
    depth = vector["depth"]
    if depth == 0:
        return 1, {}
    divide: dict[str, int] = {}
    for move in ([] if root.is_terminal() else root.legal_actions()):
        child = root.clone()
        child.apply_action(move)
        divide[_openspiel_action(move, root.current_player(), players, hand, colours, ranks)] = walk(
            child, deal(child, dealt), depth - 1)
    return sum(divide.values()), divide


def _openspiel_action(move: int, player: int, players: int, hand: int, colours: int, ranks: int) -> str:
    """OpenSpiel's move id as a T-actions object (sorted JSON): discards, plays, colour
    hints by offset, rank hints by offset."""
    if move < 2 * hand:
        action: dict[str, Any] = {"type": "discard" if move < hand else "play", "slot": move % hand}
    elif move < 2 * hand + (players - 1) * colours:
        offset, colour = divmod(move - 2 * hand, colours)
        action = {"type": "hint", "target": (player + offset + 1) % players, "kind": "colour", "value": colour}
    else:
        offset, rank = divmod(move - 2 * hand - (players - 1) * colours, ranks)
        action = {"type": "hint", "target": (player + offset + 1) % players, "kind": "value", "value": rank + 1}
    return json.dumps(action, sort_keys=True)


# ------------------------------------------------------------------ the definition


@pytest.mark.checks("PF-count", "PF-divide")
def test_the_count_of_a_small_tree() -> None:
    """[PF-count, PF-divide] on a tree written out by hand: 1 at depth 0 for every
    state, a leaf (a game over) contributes nothing below it, the bulk count at the last
    level, and the divide sums to the count in the order the moves are listed."""
    tree = {"root": ["a", "b", "c"], "a": ["a1", "a2"], "b": [], "c": ["c1"], "a1": ["x"], "a2": [], "c1": ["y", "z"]}

    def moves(state: str) -> list[str]:
        return tree.get(state, [])

    def child(state: str, move: str) -> str:
        return move

    assert [count_nodes("root", depth, moves, child) for depth in range(5)] == [1, 3, 3, 3, 0]
    assert count_nodes("b", 0, moves, child) == 1 and count_nodes("b", 1, moves, child) == 0
    assert divide_nodes("root", 2, moves, child) == [("a", 2), ("b", 0), ("c", 1)]
    assert divide_nodes("root", 3, moves, child) == [("a", 1), ("b", 0), ("c", 2)]
    with pytest.raises(ValueError):
        count_nodes("root", -1, moves, child)
    with pytest.raises(ValueError):
        divide_nodes("root", 0, moves, child)


@pytest.mark.checks("PF-count")
def test_a_finished_game_counts_one_at_depth_zero_only() -> None:
    """[PF-count] every card dealt (E-6): two moves end the game, so the sequences of
    length 2 are counted and no longer one is; the state after them counts 1 at depth 0."""
    vector = named("thesis/empty-deal-2p")
    config = config_from_json(vector["config"])
    deck = [card_from_json(card, "deck", config) for card in vector["deck"]]
    state = position(config, deck, [])
    assert not state.terminal and perft(state, 3) == 0 < perft(state, 2)
    for _ in range(2):
        state = apply(state, legal_actions(state)[0])
    assert state.terminal and [perft(state, depth) for depth in range(3)] == [1, 0, 0]


# ------------------------------------------------------------------ the committed vectors


@pytest.mark.checks("PF-schema", "PF-vectors")
def test_the_committed_file_is_valid() -> None:
    """[PF-schema, PF-vectors] the file is valid under perft.schema.json, of its
    format and version, names unique; it covers every classic preset and player count,
    the classic variants, endgames and decks counted past their end (a count of 0); and a
    file outside the schema is refused in one line."""
    data = json.loads(COMMITTED.read_text(encoding="utf-8"))
    check(data)
    assert data["format"] == FORMAT and COMMITTED.read_text(encoding="utf-8").count("\n") == 1
    vectors = committed()
    presets = {(v["config"]["preset"], v["config"]["players"]) for v in vectors if not v["moves"]}
    assert {("thesis", p) for p in range(1, 6)} | {("hle", p) for p in range(2, 6)} | {("hanab-live", p) for p in range(2, 7)} <= presets
    assert {"6 Suits", "Black (6 Suits)", "Rainbow (6 Suits)", "Dutch Rainbow (Example 2.12)", "Custom"} <= {
        v["config"]["variant"] for v in vectors}
    assert any(v["moves"] for v in vectors) and any(v["nodes"] == 0 for v in vectors)
    assert sum("divide" in v for v in vectors) >= 10 and all(v["config"]["options"] for v in vectors)
    one = [vectors[0]]
    for broken, where in ((dict(data, version=2, vectors=one), "$.version"),
                          (dict(data, vectors=[dict(vectors[0], nodes=-1)]), "$.vectors[0].nodes"),
                          (dict(data, vectors=one * 2), "unique")):
        with pytest.raises(PerftVectorsError, match=where.replace("$", r"\$").replace("[", r"\[")):
            check(broken)


@pytest.mark.checks("PF-vectors")
def test_the_committed_positions_are_the_cases() -> None:
    """[PF-vectors] every committed vector says what its case says (configuration,
    deck, seed, the moves of the fixed rule of play, depth), in order: the file is what
    the generator writes, but for the counts, which the tests below check."""
    positions = [position_of(case)[0] for case in cases()]
    assert [{k: v for k, v in vector.items() if k not in ("nodes", "divide")} for vector in committed()] == positions, REGENERATE
    assert [("divide" in vector) for vector in committed()] == [case.divide for case in cases()], REGENERATE


def _check_ours(name: str) -> None:
    vector = named(name)
    result = our_count(vector, "divide" in vector)
    assert result.nodes == vector["nodes"], REGENERATE
    if "divide" in vector:
        assert result.divide is not None and len(result.divide) == len(vector["divide"])
        assert [(json.dumps(entry["action"], sort_keys=True), entry["nodes"]) for entry in vector["divide"]] == [
            (json.dumps(dict(move), sort_keys=True), nodes) for move, nodes in
            ((perft_brute.action_json(perft_brute.move_of(entry["action"])), entry["nodes"]) for entry in vector["divide"])]
        assert [nodes for _, nodes in result.divide] == [entry["nodes"] for entry in vector["divide"]]
        config = config_from_json(vector["config"])
        assert [parse_action(config, entry["move"]) for entry in vector["divide"]] == [move for move, _ in result.divide]


def _check_brute(name: str) -> None:
    vector = named(name)
    nodes, divide = perft_brute.count_entry(vector["config"], vector["deck"], vector["moves"], vector["depth"])
    assert nodes == vector["nodes"]
    if "divide" in vector:
        assert [(entry["action"], entry["nodes"]) for entry in vector["divide"]] == divide  # the order of 2.16-actions


def _check_openspiel(name: str) -> None:
    vector = named(name)
    nodes, divide = openspiel_count(vector)
    assert nodes == vector["nodes"]
    if "divide" in vector:
        assert divide_map(vector["divide"]) == divide


@pytest.mark.parametrize("name", QUICK)
@pytest.mark.checks("PF-count", "PF-divide", "PF-vectors")
def test_our_engine_counts_each_vector(name: str) -> None:
    """[PF-count, PF-divide] our engine's count and divide of each vector (with its
    contracts on, every move checked against its clauses), the divide's text read back by
    SH-parse as the same moves."""
    _check_ours(name)


@pytest.mark.parametrize("name", QUICK)
@pytest.mark.checks("PF-count", "PF-divide", "PF-vectors")
def test_each_vector_against_the_brute_force(name: str) -> None:
    """[PF-vectors] the brute force's count, and its divide in the order of 2.16-actions."""
    _check_brute(name)


OPENSPIEL = [name for name in QUICK if openspiel_plays(named(name)["config"])]


@pytest.mark.parametrize("name", OPENSPIEL)
@pytest.mark.checks("PF-count", "PF-divide", "PF-vectors")
def test_each_hle_vector_against_openspiel(name: str) -> None:
    """[PF-vectors] OpenSpiel's count and divide of every vector whose rules it plays."""
    _check_openspiel(name)


def test_openspiel_checks_the_hle_vectors_and_a_small_deck() -> None:
    """The vectors OpenSpiel checks include every hle vector and a custom deck counted to
    the end of the game."""
    assert {name for name in QUICK if name.startswith("hle/")} <= set(OPENSPIEL)
    assert "thesis/small-hle-rules-2p" in OPENSPIEL and "thesis/one-suit-2p-past-the-end" in OPENSPIEL


@pytest.mark.deep
@pytest.mark.parametrize("name", DEEP)
def test_the_deep_vectors(name: str) -> None:
    """[PF-vectors] the vectors named ``-deep``: ours, the brute force's and (where it
    plays them) OpenSpiel's."""
    _check_ours(name)
    _check_brute(name)
    if openspiel_plays(named(name)["config"]):
        _check_openspiel(name)


# ------------------------------------------------------------------ the command


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["perft", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _deck_file(tmp_path: Path, vector: dict[str, Any], name: str = "deck.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(vector["deck"]), encoding="utf-8")
    return str(path)


@pytest.mark.checks("PF-cli", "PF-divide")
def test_the_command_counts_and_divides(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """[PF-cli, PF-divide] a deck file, then the same deck from its seed: the count
    and the divide lines (``MOVE: COUNT``) are the brute force's, the moves read back by
    SH-parse."""
    vector = named("hle/opening-2p")
    brute, divide = perft_brute.count_entry(vector["config"], vector["deck"], [], 2)
    for source in (["--deck", _deck_file(tmp_path, vector)], ["--seed", str(vector["seed"])]):
        code, out, err = run(capsys, *source, "--players", "2", "--rules", "hle", "--depth", "2", "--divide")
        assert code == 0 and err == ""
        lines = out.splitlines()
        assert lines[0].startswith("hle, 2 players, No Variant, deck ") and lines[0].endswith("depth 2")
        assert lines[-1] == f"moves {len(divide)}, nodes {brute}"
        config = config_from_json(vector["config"])
        shown = [(parse_action(config, line.rsplit(": ", 1)[0]), int(line.rsplit(": ", 1)[1])) for line in lines[1:-1]]
        assert [(action_from_json(action, "a"), nodes) for action, nodes in divide] == shown
    code, out, _ = run(capsys, "--seed", str(vector["seed"]), "--players", "2", "--rules", "hle", "--depth", "3")
    assert code == 0 and out.splitlines()[-1] == f"nodes {vector['nodes']}"


@pytest.mark.checks("PF-cli")
def test_the_command_counts_from_a_position_and_prints_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """[PF-cli] ``--moves`` (text, comma-separated) reaches an endgame vector's
    position; ``--json`` prints a vector's members, and its output is a deck file."""
    vector = named("hle/endgame-2p")
    config = config_from_json(vector["config"])
    from hanabi_ref.engine.show import action_text

    texts = ", ".join(action_text(config, action_from_json(move, "m")) for move in vector["moves"])
    brute, _ = perft_brute.count_entry(vector["config"], vector["deck"], vector["moves"], 3)
    code, out, _ = run(capsys, "--seed", str(vector["seed"]), "--players", "2", "--rules", "hle", "--moves", texts,
                       "--depth", "3", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["nodes"] == brute and answer["moves"] == vector["moves"]
    assert answer["config"] == vector["config"] and answer["deck"] == vector["deck"] and answer["seed"] == vector["seed"]
    assert "divide" not in answer and answer["depth"] == 3
    path = tmp_path / "answer.json"
    path.write_text(out, encoding="utf-8")
    code, out, _ = run(capsys, "--deck", str(path), "--players", "2", "--rules", "hle", "--moves", texts, "--depth", "3",
                       "--json")
    assert code == 0 and json.loads(out)["nodes"] == brute and "seed" not in json.loads(out)


@pytest.mark.checks("PF-cli")
def test_the_command_takes_every_part_of_a_configuration(capsys: pytest.CaptureFixture[str]) -> None:
    """[PF-cli] tokens, errors, a custom composition and options: a small deck's
    vector is counted from the command line alone."""
    vector = named("thesis/small-hle-rules-2p")
    code, out, _ = run(capsys, "--seed", "41", "--players", "2", "--composition", "3,2,1/3,2,1", "--hand-size", "2",
                       "--hints", "1", "--option", "empty_hints=false", "--option", "discard_at_max_hints=false",
                       "--option", "draw_after_final_move=false", "--depth", "5", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["config"] == vector["config"]
    assert answer["nodes"] == perft_brute.count_entry(vector["config"], vector["deck"], [], 5)[0]
    code, out, _ = run(capsys, "--seed", "20", "--players", "2", "--errors", "none", "--depth", "1", "--json")
    assert code == 0 and json.loads(out)["config"]["errors"] is None


@pytest.mark.parametrize(("arguments", "code", "message"), [
    (["--seed", "0", "--players", "2", "--depth", "-1"], 2, "--depth: must be a non-negative integer"),
    (["--seed", "0", "--players", "2", "--depth", "two"], 2, "--depth: must be a non-negative integer"),
    (["--players", "2", "--depth", "1"], 2, "one of the arguments --seed --deck is required"),
    (["--seed", "0", "--deck", "x.json", "--players", "2", "--depth", "1"], 2, "not allowed with argument"),
    (["--seed", "0", "--players", "2", "--rules", "chess", "--depth", "1"], 2, "unknown preset 'chess'"),
    (["--seed", "0", "--players", "2", "--variant", "plaid", "--depth", "1"], 2, "plaid"),
    (["--seed", "0", "--players", "7", "--rules", "hle", "--depth", "1"], 2, "players"),
    (["--seed", "0", "--players", "2", "--variant", "black", "--composition", "1,1", "--depth", "1"], 2,
     "--composition is a custom deck"),
    (["--seed", "0", "--players", "2", "--option", "deal=diagonal", "--depth", "1"], 2, "--option"),
    (["--deck", "missing.json", "--players", "2", "--depth", "1"], 2, "missing.json: cannot read"),
    (["--deck", ".", "--players", "2", "--depth", "1"], 2, "cannot read: not a regular file"),
    (["--deck", "text.json", "--players", "2", "--depth", "1"], 1, "text.json: not valid JSON"),
    (["--deck", "object.json", "--players", "2", "--depth", "1"], 1, "expected a list of cards"),
    (["--deck", "short.json", "--players", "2", "--depth", "1"], 1, "deck: 49 cards, but the configuration's deck has 50"),
    (["--deck", "outside.json", "--players", "2", "--depth", "1"], 1, "[0].suit: 5 is not a suit"),
    (["--deck", "fours.json", "--players", "2", "--depth", "1"], 1, "not the composition"),
    (["--seed", "0", "--players", "2", "--moves", "play 0, fly 1", "--depth", "1"], 1, "--moves[1] 'fly 1': unknown move"),
    (["--seed", "0", "--players", "2", "--moves", "play 9", "--depth", "1"], 1, "--moves[0] 'play 9': 2.16-2c"),
])
@pytest.mark.checks("PF-cli")
def test_bad_input_is_one_line_and_its_exit_code(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch, arguments: list[str], code: int,
                                                 message: str) -> None:
    """[PF-cli, C-exit] each bad input: one line on standard error naming it, nothing
    on standard output, exit 2 (usage) or 1 (invalid input)."""
    monkeypatch.chdir(tmp_path)
    deck = named("thesis/opening-2p")["deck"]
    (tmp_path / "text.json").write_text("deck please", encoding="utf-8")
    (tmp_path / "object.json").write_text(json.dumps({"cards": deck}), encoding="utf-8")
    (tmp_path / "short.json").write_text(json.dumps({"deck": deck[1:]}), encoding="utf-8")
    (tmp_path / "outside.json").write_text(json.dumps([{"suit": 5, "value": 1}, *deck[1:]]), encoding="utf-8")
    (tmp_path / "fours.json").write_text(json.dumps([{"suit": 0, "value": 4}, *deck[1:]]), encoding="utf-8")
    exit_code, out, err = run(capsys, *arguments)
    assert exit_code == code
    assert out == "" and err.count("\n") == 1 and err.startswith("hanabi-ref:") and message in err, err


# ------------------------------------------------------------------ the benchmark


@pytest.mark.checks("PF-bench")
def test_the_benchmark_interleaves_its_runs_and_checks_the_counts(monkeypatch: pytest.MonkeyPatch) -> None:
    """[PF-bench] the schedule rotates the variants round by round; the report gives
    medians and ratios of nodes per CPU second; variants that count differently fail the
    run (nothing here is timed: the runs are stand-ins)."""
    from hanabi_ref.tools.bench import perft as bench
    from hanabi_ref.tools.bench.engine import BenchError, Variant

    order: list[tuple[str, int]] = []

    def fake(variant: Variant, players: int, depth: int, seed: int) -> dict[str, Any]:
        order.append((variant.name, players))
        speed = {"source-off": 4.0, "source-on": 1.0, "openspiel": 8.0}[variant.name] * (1 + len(order) % 3)
        return {"nodes": 100 * players, "nodes_per_cpu_second": speed, "nodes_per_wall_second": speed,
                "cpu_seconds": 1.0, "wall_seconds": 1.0}

    monkeypatch.setattr(bench, "run_child", fake)
    report = bench.bench_perft([2, 3], 2, 3, 0, against=True)
    assert order[:6] == [("source-off", 2), ("source-on", 2), ("openspiel", 2), ("source-off", 3), ("source-on", 3),
                         ("openspiel", 3)]
    assert order[6:9] == [("source-on", 2), ("openspiel", 2), ("source-off", 2)] and len(order) == 18
    first = report["results"][0]
    assert first["nodes"] == 200 and set(first["variants"]) == {"source-off", "source-on", "openspiel"}
    assert first["ratios"]["source-off/openspiel"] == pytest.approx(
        first["variants"]["source-off"]["median_nodes_per_cpu_second"] / first["variants"]["openspiel"]["median_nodes_per_cpu_second"])
    assert "load_average_at_start" in report and "2 players  ratios: source-off/openspiel" in bench.format_report(report)
    monkeypatch.setattr(bench, "run_child", lambda variant, players, depth, seed: dict(
        fake(variant, players, depth, seed), nodes=1 if variant.name == "openspiel" else 2))
    with pytest.raises(BenchError, match="counted differently"):
        bench.bench_perft([2], 2, 1, 0, against=True)


@pytest.mark.checks("PF-bench")
def test_the_benchmark_walks_the_same_tree_on_both_sides() -> None:
    """[PF-bench] OpenSpiel's walk of the benchmark and ours count the same nodes (the
    brute force's count too), and a run in a fresh interpreter reports its switches."""
    oracle("pyspiel")
    from hanabi_ref.tools.bench import perft as bench
    from hanabi_ref.tools.bench.engine import SOURCE_OFF

    config = make_config(3, preset="hle")
    cards = [card_to_json(card, config) for card in as_identities(deck_from_seed(config, 7))]
    expected = perft_brute.count_entry(config_to_json(config), cards, [], 3)[0]
    assert bench.measure_openspiel(3, 3, 7)["nodes"] == bench.measure_ours(3, 3, 7)["nodes"] == expected
    run = bench.run_child(SOURCE_OFF, 2, 2, 7)
    assert run["contracts"] is False and run["nodes"] == perft(new_game(make_config(2, preset="hle"), 7), 2)


@pytest.mark.checks("PF-bench")
def test_the_benchmark_refuses_other_rules_and_player_counts(capsys: pytest.CaptureFixture[str]) -> None:
    """[PF-bench] OpenSpiel plays hle with 2 to 5 players: other rules or counts are a
    usage error, one line, before anything is measured."""
    for argv in (["--rules", "thesis"], ["--players", "2,6"]):
        assert main(["bench", "perft", *argv]) == 2
        out, err = capsys.readouterr()
        assert out == "" and err.count("\n") == 1 and err.startswith("hanabi-ref: bench perft: ")
