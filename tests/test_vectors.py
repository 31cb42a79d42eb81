"""Conformance vectors: every case function is a test under every preset; the vectors cover
every rule; an independent replay agrees with every vector; ``spec/vectors/`` is what the
generator writes, byte for byte, every time; every file is valid under
``vectors.schema.json`` [VEC-cases, VEC-coverage, VEC-format, VEC-files, VEC-generate,
VEC-state, VEC-transition, VEC-game, VEC-initial, VEC-deal, VEC-config, VEC-view,
VEC-action, VEC-trace, VEC-schema].
"""

from __future__ import annotations

import copy
import filecmp
import hashlib
import json
from collections import Counter
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref.engine.actions import Action, Hint, action_to_json
from hanabi_ref.base.errors import ConfigError, HanabiError, IllegalActionError
from hanabi_ref.engine.legality import illegality, legal_actions
from hanabi_ref.engine.configs import config_from_json, config_to_json
from hanabi_ref.formats.serial import state_to_json
from hanabi_ref.engine.state import GameState
from hanabi_ref.formats.trace import action_from_json, replay, trace_from_json
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.tools.vectors import (
    KINDS,
    NOT_APPLICABLE,
    PRESET_NAMES,
    CaseFailure,
    Vector,
    VectorsError,
    generate,
    case_table,
    iter_vectors,
    read_vectors,
    run_case,
)
from hanabi_ref.tools.vectors.checks import check_move, check_state
from hanabi_ref.tools.vectors.validate import VECTORS_SCHEMA, file_violation, vector_violation
from hanabi_ref.tools.vectors.writer import INDEX
from hanabi_ref.engine.view import make_view
from hanabi_ref.tools.spec_coverage import Clause, parse_clauses
from hanabi_ref.engine.tables import tables_for

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "spec" / "rules.md"
COMMITTED = ROOT / "spec" / "vectors"
REGENERATE = (
    "run `hanabi-ref vectors generate spec/vectors` (or, in Python, "
    "`hanabi_ref.tools.vectors.generate('spec/vectors')`) and commit the result"
)


# ------------------------------------------------------------------ running the cases


@cache
def case_vectors(name: str, preset: str) -> tuple[Vector, ...]:
    """The vectors of one case under one preset; running it runs its checks."""
    return tuple(run_case(name, preset))


def every_vector() -> list[Vector]:
    """All vectors, in generation order (preset by preset, case by case)."""
    return [vector for preset in PRESET_NAMES for name in case_table() for vector in case_vectors(name, preset)]


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.parametrize("name", list(case_table()))
@pytest.mark.checks("VEC-format", "VEC-cases")
def test_case(name: str, preset: str) -> None:
    """[VEC-cases, VEC-format] a case function under a preset: its own checks pass while
    it yields; every vector names its preset, its case and known rules, and its JSON
    holds integers, strings, booleans, null, lists and objects only."""
    vectors = case_vectors(name, preset)
    assert vectors, f"{name} yields no vector under {preset}"
    known = known_clauses()
    for vector in vectors:
        assert vector.preset == preset == vector.data["preset"]
        assert vector.name.startswith(f"{preset}/{name}/") and vector.name == vector.data["name"]
        assert vector.kind in KINDS and vector.kind == vector.data["kind"]
        assert vector.clauses and list(vector.clauses) == vector.data["clauses"]
        assert set(vector.clauses) <= known, f"{vector.name}: unknown clauses {set(vector.clauses) - known}"
        assert_plain_json(vector.data, vector.name)


def assert_plain_json(data: object, where: str) -> None:
    """[VEC-format] no floats anywhere (canonical JSON holds integers only)."""
    assert not isinstance(data, float), f"{where} is a float"
    if isinstance(data, dict):
        for key, value in data.items():
            assert isinstance(key, str)
            assert_plain_json(value, f"{where}.{key}")
    elif isinstance(data, list):
        for index, value in enumerate(data):
            assert_plain_json(value, f"{where}[{index}]")
    else:
        assert data is None or isinstance(data, (bool, int, str)), f"{where}: {data!r}"


@pytest.mark.checks("VEC-format")
def test_names_are_unique() -> None:
    """[VEC-format] vector names are unique over all presets."""
    names = Counter(vector.name for vector in every_vector())
    assert not [name for name, count in names.items() if count > 1]


# ------------------------------------------------------------------ coverage


@cache
def spec_clauses() -> tuple[Clause, ...]:
    """Every clause of spec/*.md, read once (the files do not change during a run)."""
    return parse_clauses(ROOT)


def rule_clauses() -> dict[str, bool]:
    """Every clause id of spec/rules.md, mapped to whether it is outside "Not formalized"
    (read by the spec coverage module's marker reader)."""
    clauses: dict[str, bool] = {}
    for clause in spec_clauses():
        if clause.spec == "spec/rules.md":
            clauses.setdefault(clause.id, clause.formalized)
    return clauses


def variant_clauses() -> set[str]:
    """[VEC-format] the ids of spec/variants.md, which the variant vectors also cite."""
    return {clause.id for clause in spec_clauses() if clause.spec == "spec/variants.md"}


@cache
def known_clauses() -> frozenset[str]:
    """[VEC-format] the ids a vector may cite: those of spec/rules.md and spec/variants.md."""
    return frozenset(rule_clauses()) | variant_clauses()


def required_clauses() -> list[str]:
    """[VEC-coverage] the clauses every preset must cover: formalized, not C-*, L-* (our
    input limits) or the benchmarks B-engine, B-strategy, B-verify and B-isolate."""
    return [c for c, formal in rule_clauses().items()
            if formal and not c.startswith(("C-", "L-")) and c not in ("B-engine", "B-strategy", "B-verify", "B-isolate")]


@pytest.mark.checks("VEC-coverage")
def test_every_clause_is_covered_under_every_preset() -> None:
    """[VEC-coverage] each required clause has a vector under each preset, unless the pair
    is in NOT_APPLICABLE; and no pair in NOT_APPLICABLE is in fact covered."""
    covered = {(clause, vector.preset) for vector in every_vector() for clause in vector.clauses}
    missing = [
        f"{clause} under {preset}"
        for clause in required_clauses()
        for preset in PRESET_NAMES
        if (clause, preset) not in covered and (clause, preset) not in NOT_APPLICABLE
    ]
    assert not missing, "clauses without a vector:\n  " + "\n  ".join(missing)
    stale = [pair for pair in NOT_APPLICABLE if pair in covered]
    assert not stale, f"NOT_APPLICABLE lists covered pairs: {stale}"


@pytest.mark.checks("VEC-coverage")
def test_not_applicable_is_small_and_names_real_clauses() -> None:
    """[VEC-coverage] the table names existing formalized clauses and presets, each with a
    reason, and stays small."""
    required = set(required_clauses())
    for (clause, preset), reason in NOT_APPLICABLE.items():
        assert clause in required, clause
        assert preset in PRESET_NAMES, preset
        assert len(reason) > 20
    assert len(NOT_APPLICABLE) <= 3 * 3


def test_rules_parser_finds_the_spec() -> None:
    """[VEC-coverage] the clause list this file reads is the spec's: many ids, including
    the first and last formalized ones, and none of the Not formalized section."""
    clauses = rule_clauses()
    assert len(clauses) > 80
    assert clauses["2.9"] and clauses["PR-length"] and clauses["B-engine"]
    assert not clauses["3.4-open"] and not clauses["2.9-N-infinite"]


# ------------------------------------------------------------------ independent re-check


def replay_from(vector: Vector, actions: tuple[Action, ...]) -> GameState:
    """The state after step 1 on the vector's config and deck, then ``actions``."""
    state = initial_state(vector.config(), vector.deck())
    for action in actions:
        state = apply(state, action)
    return state


def spec_order(action: dict[str, Any]) -> tuple[int, int, int, int]:
    """[2.16-actions] hints by target (colours, then values), then discards, then plays."""
    if action["type"] == "hint":
        return (0, action["target"], 0 if action["kind"] == "colour" else 1, action["value"])
    return (1 if action["type"] == "discard" else 2, action["slot"], 0, 0)


def recheck_transition(vector: Vector) -> None:
    """[VEC-transition] replay the prefix; pre, legal and post (or the error) agree."""
    state = replay_from(vector, vector.prefix())
    assert state_to_json(state) == vector.data["pre"]
    legal = [action_to_json(a) for a in legal_actions(state)]
    assert legal == vector.data["legal"] == sorted(legal, key=spec_order)
    action = vector.action()
    assert action is not None
    if "error" in vector.data:
        problem = illegality(state, action)
        assert problem is not None and problem[0] == vector.data["error"]["clause"]
        with pytest.raises(IllegalActionError):
            apply(state, action)
    else:
        assert state_to_json(apply(state, action)) == vector.data["post"]


def recheck_game(vector: Vector) -> None:
    """[VEC-game] replay every action; every state and legal count agrees."""
    state = replay_from(vector, ())
    states, counts = [state_to_json(state)], [len(legal_actions(state))]
    for action in vector.actions():
        state = apply(state, action)
        states.append(state_to_json(state))
        counts.append(len(legal_actions(state)))
    assert states == vector.data["states"] and counts == vector.data["legal_counts"]
    assert state.terminal


def recheck_initial(vector: Vector) -> None:
    """[VEC-initial] step 1 gives the state and legal actions, or refuses the deck."""
    if "error" in vector.data:
        with pytest.raises(ConfigError):
            initial_state(vector.config(), vector.deck())
        return
    state = replay_from(vector, ())
    assert state_to_json(state) == vector.data["state"]
    assert [action_to_json(a) for a in legal_actions(state)] == vector.data["legal"]


def recheck_config(vector: Vector) -> None:
    """[VEC-config] the input resolves to the recorded config, or is refused."""
    if "error" in vector.data:
        with pytest.raises(ConfigError):
            config_from_json(vector.data["input"])
        return
    config = config_from_json(vector.data["input"])
    assert config_to_json(config) == vector.data["config"]
    assert config_from_json(vector.data["config"]) == config
    assert vector.data["derived"]["deck_size"] == sum(sum(s["counts"]) for s in vector.data["derived"]["suits"])


def recheck_view(vector: Vector) -> None:
    """[VEC-view, 2.17-view] the seat sees every other hand's identities and none of its
    own; the public members equal the state's."""
    state = replay_from(vector, vector.prefix())
    view, seat, full = vector.data["view"], vector.data["seat"], state_to_json(state)
    for j, (shown, cards) in enumerate(zip(view["hands"], full["hands"], strict=True)):
        expected = [{"id": c} for c in state.hands[j]] if j == seat else [
            {"id": c} | card for c, card in zip(state.hands[j], cards, strict=True)
        ]
        assert shown == expected
    for key in ("knowledge", "deck_size", "fireworks", "clue_tokens", "strikes", "remaining", "terminal"):
        assert view[key] == full[key], key
    assert view["turns"] == full["turns"] == len(view["history"])
    assert make_view(state, seat).seat == seat


def recheck_action(vector: Vector) -> None:
    """[VEC-action, T-actions] the input parses to the recorded action, or is refused."""
    if "error" in vector.data:
        with pytest.raises(HanabiError):
            action_from_json(vector.data["input"], "$")
        return
    assert action_to_json(action_from_json(vector.data["input"], "$")) == vector.data["action"]


def recheck_trace(vector: Vector) -> None:
    """[VEC-trace, T-trace] the trace replays to the recorded final state, or is refused
    naming the recorded place."""
    if "error" in vector.data:
        with pytest.raises(HanabiError) as error:
            replay(trace_from_json(vector.data["input"]))
        assert str(error.value).startswith(vector.data["error"]["field"].removeprefix("$."))
        return
    assert state_to_json(replay(trace_from_json(vector.data["input"]))) == vector.data["final"]


# [D-seed, D-derive] transcribed from spec/rules.md, independent of hanabi_ref.engine.dealing.
MASK = (1 << 64) - 1


def splitmix(seed: int) -> Callable[[], int]:
    """SplitMix64 as D-seed states it."""
    state = [seed]

    def next64() -> int:
        state[0] = (state[0] + 0x9E3779B97F4A7C15) & MASK
        z = state[0]
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)

    return next64


def spec_shuffle(cards: list[Any], seed: int) -> list[Any]:
    """Fisher-Yates from the last index down with rejection-sampled bounded draws."""
    draw, deck = splitmix(seed), list(cards)
    for i in range(len(deck) - 1, 0, -1):
        bound = i + 1
        limit = (1 << 64) - (1 << 64) % bound
        x = draw()
        while x >= limit:
            x = draw()
        j = x % bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def recheck_deal(vector: Vector) -> None:
    """[VEC-deal, D-seed, D-canonical, D-derive] the outputs, the canonical order, the
    shuffle and the seat seeds, recomputed from the spec's text."""
    data, config = vector.data, vector.config()
    draw = splitmix(data["seed"])
    assert data["outputs"] == [draw() for _ in range(3)]
    counts = [suit.counts for suit in config.suits]
    canonical = [{"suit": y, "value": x} for y, row in enumerate(counts) for x in range(1, config.values + 1) for _ in range(row[x - 1])]
    assert data["canonical"] == canonical
    assert data["deck"] == spec_shuffle(canonical, data["seed"])
    for seat, derived in enumerate(data["seat_seeds"]):
        words = data["seed"].to_bytes(8, "little") + (seat + 1).to_bytes(8, "little")
        digest = hashlib.blake2b(words, digest_size=8, key=b"hanabi_ref/derive").digest()
        assert derived == int.from_bytes(digest, "little")


RECHECKS: dict[str, Callable[[Vector], None]] = {
    "transition": recheck_transition,
    "game": recheck_game,
    "initial": recheck_initial,
    "config": recheck_config,
    "view": recheck_view,
    "action": recheck_action,
    "trace": recheck_trace,
    "deal": recheck_deal,
}


@pytest.mark.parametrize("preset", PRESET_NAMES)
@pytest.mark.checks("VEC-transition", "VEC-game", "VEC-initial", "VEC-deal", "VEC-config", "VEC-view", "VEC-action", "VEC-trace")
def test_independent_recheck(preset: str) -> None:
    """[VEC-transition, VEC-game, VEC-initial, VEC-config, VEC-view, VEC-action,
    VEC-trace, VEC-deal] every vector is re-derived from its inputs without trusting its
    recorded outcome: games and moves replayed through initial_state and apply, errors
    through legality, decks through the spec's generator written out here."""
    for vector in (v for name in case_table() for v in case_vectors(name, preset)):
        try:
            RECHECKS[vector.kind](vector)
        except AssertionError as error:
            raise AssertionError(f"{vector.name}: {error}") from error


# ------------------------------------------------------------------ the checks can fail


def first(kind: str, predicate: Callable[[Vector], bool] = lambda v: True) -> Vector:
    return next(v for v in every_vector() if v.kind == kind and predicate(v))


@pytest.mark.checks("VEC-cases")
def test_checks_catch_a_wrong_hint() -> None:
    """[VEC-cases, 2.16-2a-cost, 2.16-2a-suit] the move checks reject a post-state with
    the token not spent, or with a touched card's knowledge left unchanged."""
    vector = first("transition", lambda v: "post" in v.data and v.data["action"]["type"] == "hint" and v.data["action"]["kind"] == "colour")
    config, deck, action = vector.config(), vector.deck(), vector.action()
    assert isinstance(action, Hint)
    check_move(config, deck, vector.data["pre"], action, vector.data["post"])
    wrong = copy.deepcopy(vector.data["post"])
    wrong["clue_tokens"] += 1
    with pytest.raises(CaseFailure, match="2.16-2a-cost"):
        check_move(config, deck, vector.data["pre"], action, wrong)
    wrong = copy.deepcopy(vector.data["post"])
    wrong["knowledge"][action.target] = vector.data["pre"]["knowledge"][action.target]
    with pytest.raises(CaseFailure, match="2.16-2a"):
        check_move(config, deck, vector.data["pre"], action, wrong)


@pytest.mark.checks("VEC-cases")
def test_checks_catch_a_broken_state() -> None:
    """[VEC-state, 2.13-conservation, 2.14-sound, 2.16-3-strikeout] the state checks
    reject a lost card, a knowledge set without the card, and a wrong score."""
    vector = first("game", lambda v: v.data["states"][-1]["remaining"] == -1)
    config, deck, state = vector.config(), vector.deck(), vector.data["states"][-1]
    check_state(config, deck, state)
    lost = copy.deepcopy(state)
    lost["discard"] = lost["discard"][1:]
    with pytest.raises(CaseFailure, match="2.13-conservation"):
        check_state(config, deck, lost)
    unsound = copy.deepcopy(state)
    card = unsound["hands"][0][0]
    unsound["knowledge"][0][0]["suits"] = [s for s in unsound["knowledge"][0][0]["suits"] if s != card["suit"]]
    with pytest.raises(CaseFailure, match="2.14-sound"):
        check_state(config, deck, unsound)
    scored = copy.deepcopy(state)
    scored["score"] = sum(scored["fireworks"]) + 1
    with pytest.raises(CaseFailure, match="2.16-3"):
        check_state(config, deck, scored)


@pytest.mark.checks("VEC-cases")
def test_builder_refuses_a_wrong_expected_clause() -> None:
    """[VEC-cases, 2.16-2] a case that expects the wrong clause for a refusal fails."""
    from hanabi_ref.tools.vectors.build import Maker
    from hanabi_ref.tools.vectors.model import Run
    from hanabi_ref.engine.configs import make_config
    from hanabi_ref.engine.dealing import deck_from_seed

    config = make_config(2, "hle")
    run = Run.start(config, deck_from_seed(config, 1))
    with pytest.raises(CaseFailure):
        Maker("test", "hle").refusal("x", (), run, Hint(0, "value", 1), "2.16-2a-token", "a self hint")


# ------------------------------------------------------------------ the accessors


@pytest.mark.checks("VEC-format")
def test_vector_accessors() -> None:
    """[VEC-format] config, deck, prefix, action and actions parse a vector's JSON back."""
    move = first("transition", lambda v: len(v.data["prefix"]) >= 2)
    assert config_to_json(move.config()) == move.data["config"]
    assert len(move.deck()) == len(move.data["deck"]) == tables_for(move.config()).deck_size
    assert [action_to_json(a) for a in move.prefix()] == move.data["prefix"]
    action = move.action()
    assert action is not None and action_to_json(action) == move.data["action"]
    assert move.actions() == move.prefix() + (action,)
    game = first("game")
    assert [action_to_json(a) for a in game.actions()] == game.data["actions"]
    assert game.action() is None and game.prefix() == ()
    assert Vector.from_data(json.loads(json.dumps(game.data))).data == game.data
    with pytest.raises(ConfigError):
        first("action").config()


# ------------------------------------------------------------------ generation


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The vectors of the case runs above, written by the generator."""
    directory = tmp_path_factory.mktemp("generated") / "vectors"
    count = generate(directory, every_vector())
    assert count == len(every_vector())
    return directory


def differences(left: Path, right: Path) -> list[str]:
    """Files that differ, or exist on one side only, between two directory trees."""
    def files(root: Path) -> set[str]:
        return {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}

    ours, theirs = files(left), files(right)
    changed = [name for name in sorted(ours & theirs) if not filecmp.cmp(left / name, right / name, shallow=False)]
    return sorted(ours ^ theirs) + changed


@pytest.mark.checks("VEC-generate")
def test_committed_copy_is_current(generated: Path) -> None:
    """[VEC-generate] spec/vectors/ is byte for byte what the generator writes."""
    if not COMMITTED.is_dir():
        if (ROOT / "pyproject.toml").is_file():
            pytest.fail(f"spec/vectors/ is missing: {REGENERATE}")
        pytest.skip("running from an installed package without the repository's spec/vectors/")
    changed = differences(generated, COMMITTED)
    assert not changed, f"spec/vectors/ is out of date ({len(changed)} files differ, e.g. {changed[:5]}): {REGENERATE}"


@pytest.mark.checks("VEC-generate")
@pytest.mark.deep
def test_generation_is_deterministic(generated: Path, tmp_path: Path) -> None:
    """[VEC-generate] a fresh generation (every case run again) writes the same bytes.
    (Deep: by default, test_committed_copy_is_current shows the same of a generation in
    another process, the one that wrote spec/vectors/.)"""
    again = tmp_path / "again"
    assert generate(again) == len(every_vector())
    assert differences(generated, again) == []


@pytest.mark.checks("VEC-files", "T-canonical")
def test_files_and_index(generated: Path) -> None:
    """[VEC-files, T-canonical] one file per case and preset, each one canonical JSON
    line (sorted keys, no whitespace) ending in a newline; the index lists
    every file with its count and SHA-256, the total and the coverage.  (Reading a whole
    directory back, which checks every file against the schema once more, is
    test_committed_vectors_satisfy_the_schema's, on spec/vectors/: the same bytes, as
    test_committed_copy_is_current shows.)"""
    index = json.loads((generated / INDEX).read_text(encoding="utf-8"))
    assert (index["format"], index["version"], index["presets"]) == ("hanabi-ref/vectors", 1, list(PRESET_NAMES))
    for entry in index["files"]:
        text = (generated / entry["path"]).read_text(encoding="utf-8")
        assert entry["path"] == f"{entry['preset']}/{entry['case']}.json"
        assert hashlib.sha256(text.encode()).hexdigest() == entry["sha256"]
        data = json.loads(text)
        assert text == json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
        assert len(data) == entry["count"]
    assert index["vectors"] == sum(entry["count"] for entry in index["files"]) == len(every_vector())
    assert index["coverage"]["2.16-2a-empty"].keys() == set(PRESET_NAMES)
    # The variant families (VEC-variants) brought the files near 4 MB; 6 MB leaves room.
    assert sum(p.stat().st_size for p in generated.rglob("*.json")) < 6_000_000


@pytest.mark.checks("VEC-generate")
def test_generate_refuses_a_foreign_directory(tmp_path: Path) -> None:
    """[VEC-generate] a non-empty directory that is not a vectors directory is refused and
    left alone; a file in place of DIR too."""
    foreign = tmp_path / "notes"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("mine")
    with pytest.raises(VectorsError, match="refusing"):
        generate(foreign, [])
    assert (foreign / "keep.txt").read_text() == "mine"
    (tmp_path / "file").write_text("x")
    with pytest.raises(VectorsError):
        generate(tmp_path / "file", [])


@pytest.mark.checks("VEC-generate")
def test_generate_replaces_a_previous_directory(tmp_path: Path) -> None:
    """[VEC-generate] a previous vectors directory is replaced as a whole (stale files
    go), an extra file makes it foreign, and nothing temporary is left beside it."""
    target = tmp_path / "vectors"
    some = case_vectors("action_json", "hle")
    assert generate(target, some) == len(some)
    assert generate(target, some[:3]) == 3
    assert [v.name for v in read_vectors(target)] == [v.name for v in some[:3]]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["vectors"]
    (target / "hle" / "extra.json").write_text("[]")
    with pytest.raises(VectorsError):
        generate(target, some)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert generate(empty, some[:1]) == 1


@pytest.mark.checks("VEC-files")
def test_read_vectors_refuses_a_changed_file(tmp_path: Path) -> None:
    """[VEC-files] a file whose bytes no longer match the index is refused."""
    target = tmp_path / "vectors"
    generate(target, case_vectors("action_json", "thesis"))
    path = target / "thesis" / "action_json.json"
    path.write_text(path.read_text().replace('"slot":0', '"slot":1', 1))
    with pytest.raises(VectorsError, match="SHA-256"):
        list(read_vectors(target))


def test_iter_vectors_matches_the_cases() -> None:
    """[VEC-generate] iter_vectors yields the cases' vectors in file order."""
    names = [v.name for v in iter_vectors(presets=("hle",), cases=("action_json", "strikeout"))]
    expected = [v.name for name in ("action_json", "strikeout") for v in case_vectors(name, "hle")]
    assert names == expected


@pytest.mark.checks("C-vectors")
def test_command_line_writes_the_same_vectors(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """[C-vectors, VEC-generate] ``hanabi-ref vectors generate DIR`` writes exactly what
    generate() writes (of the vectors of three cases, for speed: the whole generation is
    test_committed_copy_is_current's); a foreign directory is refused with one line and
    left alone."""
    import hanabi_ref.tools.vectors.writer as writer
    from hanabi_ref.cli import main

    some = [vector for name in list(case_table())[:3] for vector in case_vectors(name, "thesis")]
    monkeypatch.setattr(writer, "iter_vectors", lambda: iter(some))
    target = tmp_path / "cli"
    assert main(["vectors", "generate", str(target)]) == 0
    assert generate(tmp_path / "direct", some) == len(some)
    assert sorted(p.name for p in target.rglob("*.json")) == sorted(p.name for p in (tmp_path / "direct").rglob("*.json"))
    assert differences(tmp_path / "direct", target) == []
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "keep.txt").write_text("mine")
    capsys.readouterr()
    assert main(["vectors", "generate", str(foreign)]) != 0
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "refusing" in error
    assert [p.name for p in foreign.iterdir()] == ["keep.txt"]


# ------------------------------------------------------------------ the schema


def committed_files() -> list[Path]:
    return sorted(COMMITTED.rglob("*.json"))


@pytest.mark.checks("VEC-schema", "VEC-files")
def test_committed_vectors_satisfy_the_schema() -> None:
    """[VEC-schema, VEC-files] every file of spec/vectors/, the index included, is valid
    under vectors.schema.json: read_vectors checks each file the index lists, and the
    index, with file_violation (the check generate uses too), and refuses the first
    one outside it; the index lists every case file, and reading the directory back
    gives the vectors, in order."""
    if not COMMITTED.is_dir():
        pytest.skip("running from an installed package without the repository's spec/vectors/")
    files = committed_files()
    assert len(files) == 91  # 30 case files under each of the three presets, and the index
    index = json.loads((COMMITTED / INDEX).read_text(encoding="utf-8"))
    assert sorted(COMMITTED / entry["path"] for entry in index["files"]) == [p for p in files if p.name != INDEX]
    try:
        read = [vector.data for vector in read_vectors(COMMITTED)]
    except VectorsError as error:
        pytest.fail(f"spec/vectors/: {error}")
    assert read == [vector.data for vector in every_vector()], f"spec/vectors/ is not the cases' vectors: {REGENERATE}"


@pytest.mark.deep
def test_committed_vectors_satisfy_the_schema_by_jsonschema_alone() -> None:
    """[VEC-schema] the same, by jsonschema on each whole file, nothing cut short (about
    ten seconds), and with jsonschema's own integer rule too."""
    import jsonschema

    from hanabi_ref.formats.schema import SCHEMA_BASE, schema_registry, strict_validator

    lax = jsonschema.Draft202012Validator({"$ref": SCHEMA_BASE + VECTORS_SCHEMA}, registry=schema_registry())
    for path in committed_files():
        data = json.loads(path.read_text(encoding="utf-8"))
        assert strict_validator(VECTORS_SCHEMA).is_valid(data) and lax.is_valid(data), path


@pytest.mark.checks("VEC-schema", "VEC-state")
@pytest.mark.deep
def test_generated_vectors_satisfy_the_schema(generated: Path) -> None:
    """[VEC-schema, VEC-generate] every vector the case functions yield is valid (generate
    checked them before writing), every file written is, and reading the directory back
    checks each file again. (Deep: by default the committed files, which
    test_committed_copy_is_current finds equal to these, are checked.)"""
    for vector in every_vector():
        assert vector_violation(vector.data) is None, vector.name
    for path in sorted(generated.rglob("*.json")):
        assert file_violation(json.loads(path.read_text(encoding="utf-8"))) is None, path
    assert len(list(read_vectors(generated))) == len(every_vector())


def _damaged(kind: str, damage: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    data = copy.deepcopy(next(v.data for v in every_vector() if v.kind == kind and "error" not in v.data))
    damage(data)
    return data


@pytest.mark.parametrize(
    ("kind", "damage", "message"),
    [
        ("game", lambda d: d["states"][7]["hands"][1].__setitem__(2, {"suit": 0, "value": 0}),
         "at $.states[7].hands[1][2].value: 0 is less than the minimum 1 (schema trace.schema.json#/$defs/card/properties/value/minimum)"),
        ("game", lambda d: d["states"][3].pop("score"), 'at $.states[3]: "score" is missing (schema vectors.schema.json#/$defs/state/required)'),
        ("transition", lambda d: d.__setitem__("error", {"clause": "E-2"}),
         "at $.post: not allowed here (schema vectors.schema.json#/$defs/transition_vector/then/properties/post/not)"),
        ("transition", lambda d: d["legal"].append({"type": "play", "slot": 1.0}),
         'is not of type "integer" (schema trace.schema.json#/$defs/action/oneOf/1/properties/slot/type)'),
        ("config", lambda d: d["config"]["options"].pop("deal"),
         'at $.config.options: "deal" is missing (schema vectors.schema.json#/$defs/config/properties/options/required)'),
        ("view", lambda d: d["view"]["hands"][0][0].pop("id"), 'at $.view.hands[0][0]: "id" is missing'),
        ("deal", lambda d: d.__setitem__("outputs", d["outputs"][:2]), "at $.outputs: 2 items, fewer than the minItems 3"),
        ("action", lambda d: d.__setitem__("kind", "move"), 'at $.kind: "move" is not one of "config", "deal"'),
        ("trace", lambda d: d.__setitem__("comment", "x"),
         'at $: "comment" is not allowed here (schema vectors.schema.json#/$defs/trace_vector/additionalProperties)'),
    ],
)
@pytest.mark.checks("VEC-schema", "VEC-state")
def test_vectors_outside_the_schema_are_named(kind: str, damage: Callable[[dict[str, Any]], object], message: str) -> None:
    """[VEC-schema] a vector broken in one place: the violation names its place (in the
    vector's own indices), the value and the schema keyword, and it is the violation
    jsonschema finds in the whole vector."""
    from hanabi_ref.formats.schema import first_violation, strict_validator

    data = _damaged(kind, damage)
    violation = vector_violation(data)
    assert violation is not None and message in str(violation), violation
    assert violation == first_violation(strict_validator(VECTORS_SCHEMA, "vector"), data)


@pytest.mark.checks("VEC-schema", "VEC-generate", "VEC-files")
def test_generate_and_read_refuse_vectors_outside_the_schema(tmp_path: Path) -> None:
    """[VEC-schema, VEC-generate, VEC-files] generate refuses a vector outside the schema
    before writing anything (one line naming the vector and the place); read_vectors
    refuses a file changed to break it, even with its SHA-256 updated in the index."""
    good = case_vectors("strikeout", "hle")
    bad = Vector.from_data({**copy.deepcopy(good[0].data), "expected": 3})
    target = tmp_path / "vectors"
    with pytest.raises(VectorsError) as refused:
        generate(target, [*good[1:], bad])
    assert str(refused.value).startswith(f"{bad.name}: outside vectors.schema.json: at $: \"expected\" is not allowed here")
    assert "\n" not in str(refused.value) and not target.exists()
    generate(target, good)
    path = target / "hle" / "strikeout.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data[1]["pre"]["clue_tokens"] = -1
    text = json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n"
    path.write_text(text, encoding="utf-8")
    index = json.loads((target / INDEX).read_text(encoding="utf-8"))
    index["files"][0]["sha256"] = hashlib.sha256(text.encode("utf-8")).hexdigest()
    (target / INDEX).write_text(json.dumps(index), encoding="utf-8")
    with pytest.raises(VectorsError, match=r"strikeout\.json: outside vectors\.schema\.json: at \$\[1\]\.pre\.clue_tokens: -1 is less"):
        list(read_vectors(target))
