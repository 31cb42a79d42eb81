"""The outcome hash, sealed checkpoints and failure texts from a checkpoint
[SIM-outcome-hash, SIM-trace-hash, SIM-resume, SIM-crash, OUT-escape].

Expected hashes are computed here from the clause text alone: each game's outcome
document written with the standard library's ``json`` (sorted keys, ``,``/``:``
separators: T-canonical) and hashed with ``hashlib``, the games' scores and strikeouts
taken from ``play_game`` seed by seed.  The checkpoints are made by a real run stopped by
Ctrl-C at a chosen seed (as in tests/test_sim_lifecycle.py), then edited the way an
attacker would: outcomes changed with the digests left alone, or with the seals forged
too, by the clause's definition.
"""

from __future__ import annotations

import hashlib
import json
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.configs import make_config
from hanabi_ref.players.strategies import STRATEGIES, StrategySpec
from hanabi_ref.players.strategy import StrategyFactory
from tests.test_sim_lifecycle import EXIT_INTERRUPTED, InterruptAt, run_main
from tests.test_sim_runner import EXIT_FAILED, MIX, failing_spec, mix_factory, needs_fork, register, without_timing

EXIT_OK = 0


# ------------------------------------------------------------------ the independent reading


def canonical(document: object) -> bytes:
    """[T-canonical] sorted keys, no whitespace, UTF-8."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def outcome_document(seed: int, outcome: int | str, strikeout: bool = False) -> dict[str, object]:
    """[SIM-outcome-hash] a finished game's ``{"score", "seed", "strikeout"}``, or a failed
    game's ``{"error", "seed"}`` when ``outcome`` is its failure's text."""
    if isinstance(outcome, str):
        return {"error": outcome, "seed": seed}
    return {"score": outcome, "seed": seed, "strikeout": strikeout}


def outcome_digest(seed: int, outcome: int | str, strikeout: bool = False) -> bytes:
    return hashlib.sha256(canonical(outcome_document(seed, outcome, strikeout))).digest()


def outcome_hash(outcomes: Iterable[tuple[int, int | str, bool]]) -> str:
    """[SIM-outcome-hash] SHA-256 over the games' outcome digests in seed order."""
    outer = hashlib.sha256()
    for seed, outcome, strikeout in outcomes:
        outer.update(outcome_digest(seed, outcome, strikeout))
    return outer.hexdigest()


def played_outcomes(factory: StrategyFactory, players: int, seeds: Iterable[int],
                    failed: Mapping[int, str] | None = None) -> list[tuple[int, int | str, bool]]:
    """Each seed's outcome from ``play_game`` (the seeds in ``failed`` carry that text)."""
    config, lost = make_config(players), failed or {}
    outcomes: list[tuple[int, int | str, bool]] = []
    for seed in seeds:
        if seed in lost:
            outcomes.append((seed, lost[seed], False))
            continue
        record = play_game(config, factory, seed=seed)
        outcomes.append((seed, record.score, record.final.remaining == -1))  # [2.16-3] struck out
    return outcomes


def chunk_outcomes(chunk: Mapping[str, Any]) -> list[tuple[int, int | str, bool]]:
    """A checkpoint chunk's outcomes seed by seed, read as SIM-out describes them."""
    errors = {failure["seed"]: failure["error"] for failure in chunk["failures"]}
    finished = iter(zip(chunk["scores"], chunk["strikeouts"]))
    outcomes: list[tuple[int, int | str, bool]] = []
    for seed in range(chunk["first_seed"], chunk["first_seed"] + chunk["games"]):
        outcomes.append((seed, errors[seed], False) if seed in errors else (seed, *next(finished)))
    return outcomes


def seal(chunk: Mapping[str, Any]) -> str:
    """[SIM-out] a chunk's ``sha256``: SHA-256 of each game's trace digest followed by its
    outcome digest, in seed order."""
    digests = bytes.fromhex(chunk["digests"])
    hasher = hashlib.sha256()
    for number, (seed, outcome, strikeout) in enumerate(chunk_outcomes(chunk)):
        hasher.update(digests[32 * number:32 * number + 32])
        hasher.update(outcome_digest(seed, outcome, strikeout))
    return hasher.hexdigest()


# ------------------------------------------------------------------ [SIM-outcome-hash]


@pytest.mark.checks("SIM-outcome-hash")
@needs_fork
def test_the_outcome_hash_is_the_clause_s(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-outcome-hash] ``simulate --json`` reports the outcome hash computed here by the
    clause, the text output prints it on its ``outcome sha256`` line, and it does not
    depend on the workers or the chunk size.  (With one seat at random, some of these
    games strike out and others do not, so the strikeout flag is tested too.)"""
    register(monkeypatch, MIX)
    argv = ["simulate", "--strategy", "mix", "--param", "random_seats=1", "--players", "3", "--games", "16",
            "--seed", "40"]
    code, out, err = run_main(argv + ["--json", "--jobs", "1"], capsys)
    assert code == EXIT_OK, err
    outcomes = played_outcomes(mix_factory(1), 3, range(40, 56))
    assert {strikeout for _, _, strikeout in outcomes} == {False, True}
    expected = outcome_hash(outcomes)
    assert json.loads(out)["outcome_sha256"] == expected
    code, out, err = run_main(argv + ["--jobs", "2", "--chunk-size", "5"], capsys)
    assert code == EXIT_OK, err
    assert [line.split() for line in out.splitlines() if line.startswith("outcome sha256")] == [
        ["outcome", "sha256", expected]]


@pytest.mark.checks("SIM-outcome-hash", "SIM-crash")
def test_a_failed_game_counts_with_its_error_text(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-outcome-hash, SIM-crash] a failed game's outcome is its seed and the failure's
    text as reported; the trace hash keeps its failure marker whatever the text."""
    register(monkeypatch, failing_spec("flaky", illegal_on=(3,)))
    argv = ["simulate", "--strategy", "flaky", "--players", "2", "--games", "6", "--jobs", "1", "--json"]
    code, out, err = run_main(argv, capsys)
    assert code == EXIT_FAILED, err
    result = json.loads(out)
    [failure] = result["failures"]
    assert failure["seed"] == 3 and "illegal" in failure["error"]
    expected = outcome_hash(played_outcomes(STRATEGIES["simple"], 2, range(6), {3: failure["error"]}))
    assert result["outcome_sha256"] == expected


@pytest.mark.checks("SIM-outcome-hash", "SIM-sweep")
def test_sweep_rows_carry_the_outcome_hash(capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-outcome-hash, SIM-sweep] each row of ``sweep --format json`` has, beside its
    trace hash, the outcome hash that ``simulate`` reports for its point's parameters."""
    code, out, err = run_main(["sweep", "--strategy", "thesis", "--players", "2", "--games", "3", "--jobs", "1",
                               "--grid", "rho_h=1,2", "--format", "json"], capsys)
    assert code == EXIT_OK, err
    rows = json.loads(out)["rows"]
    for row in rows:
        code, single, err = run_main(["simulate", "--strategy", "thesis", "--players", "2", "--games", "3",
                                      "--jobs", "1", "--json", "--param", f"rho_h={row['values']['rho_h']}"], capsys)
        assert code == EXIT_OK, err
        assert (row["trace_sha256"], row["outcome_sha256"]) == (json.loads(single)["trace_sha256"],
                                                                json.loads(single)["outcome_sha256"])


# ------------------------------------------------------------------ [SIM-resume]: sealed chunks


ARGV = ["simulate", "--strategy", "interrupt", "--players", "3", "--seed", "0", "--games", "12", "--jobs", "1",
        "--chunk-size", "4"]


@pytest.fixture
def interrupted(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """The checkpoint of ``simulate ... --out F`` stopped by Ctrl-C in the game of seed 9:
    it holds the chunks of seeds 0..3 and 4..7.  The strategy plays the simple strategy's
    games; nothing stops the runs made after this."""
    out = tmp_path / "ck.json"
    monkeypatch.setattr(InterruptAt, "stop_seed", 9)
    register(monkeypatch, StrategySpec("interrupt", "test only", (), lambda values: InterruptAt))
    code, _, err = run_main(ARGV + ["--checkpoint-every", "0", "--out", str(out)], capsys)
    assert code == EXIT_INTERRUPTED, err
    monkeypatch.setattr(InterruptAt, "stop_seed", -1)
    document = json.loads(out.read_text())
    assert [(chunk["first_seed"], chunk["games"]) for chunk in document["chunks"]] == [(0, 4), (4, 4)]
    return out


def genuine(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = run_main(ARGV + ["--json"], capsys)
    assert code == EXIT_OK, err
    result: dict[str, Any] = json.loads(out)
    return result


def into_failure(chunk: dict[str, Any], seed: int, error: str) -> None:
    """Turn the game of ``seed`` (of ``chunk``) into a failure with ``error``."""
    position = [outcome[0] for outcome in chunk_outcomes(chunk) if not isinstance(outcome[1], str)].index(seed)
    del chunk["scores"][position], chunk["strikeouts"][position]
    chunk["failures"] = sorted([*chunk["failures"], {"seed": seed, "error": error}], key=lambda item: item["seed"])


def perfect_first_chunk(document: dict[str, Any]) -> None:
    """The issue's edit: chunk 0's scores set to 25 (the highest), seed 5 made a failure."""
    document["chunks"][0]["scores"] = [25] * len(document["chunks"][0]["scores"])
    into_failure(document["chunks"][1], 5, "StrategyError: made up")


def flip_digest(document: dict[str, Any]) -> None:
    digests = document["chunks"][1]["digests"]
    document["chunks"][1]["digests"] = ("0" if digests[0] != "0" else "1") + digests[1:]


@pytest.mark.checks("SIM-resume")
@pytest.mark.parametrize(
    ("tamper", "chunk"),
    [
        (perfect_first_chunk, 0),
        (lambda d: into_failure(d["chunks"][1], 5, "StrategyError: made up"), 1),
        (lambda d: d["chunks"][1]["strikeouts"].__setitem__(0, not d["chunks"][1]["strikeouts"][0]), 1),
        (lambda d: d["chunks"][0]["scores"].__setitem__(2, d["chunks"][0]["scores"][2] - 1), 0),
        (flip_digest, 1),
    ],
    ids=["the-issue-s-edit", "a-game-made-a-failure", "a-strikeout-flipped", "a-score-lowered", "a-digest-changed"],
)
def test_outcomes_edited_apart_from_the_digests_are_refused(tamper: Callable[[dict[str, Any]], None], chunk: int,
                                                             interrupted: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-resume] the checkpoint of an interrupted run, its outcomes (or a trace digest)
    edited and its digests and seals left alone: ``--resume`` is refused on one line naming
    the file and the chunk, exit 1, nothing played or written."""
    document = json.loads(interrupted.read_text())
    tamper(document)
    interrupted.write_text(json.dumps(document))
    before = interrupted.read_bytes()
    code, out, err = run_main(ARGV + ["--json", "--resume", str(interrupted)], capsys)
    assert code == EXIT_FAILED and out == "" and err.count("\n") == 1, err
    assert err.startswith(f"hanabi-ref: --resume {interrupted}: chunks[{chunk}]: ")
    assert "do not match its sha256" in err
    assert interrupted.read_bytes() == before
    assert sorted(path.name for path in interrupted.parent.iterdir()) == [interrupted.name]


@pytest.mark.checks("SIM-resume", "SIM-outcome-hash")
def test_a_forged_checkpoint_publishes_another_outcome_hash(interrupted: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-resume, SIM-outcome-hash] the issue's edit with the seals forged too (by the
    clause) is accepted and reports the forged outcomes, but its outcome hash is the
    hash of those forged outcomes, not the genuine run's; its trace hash, taken from the
    untouched trace digests, is the genuine run's."""
    document = json.loads(interrupted.read_text())
    perfect_first_chunk(document)
    for chunk in document["chunks"]:
        chunk["sha256"] = seal(chunk)
    interrupted.write_text(json.dumps(document))
    code, out, err = run_main(ARGV + ["--json", "--resume", str(interrupted)], capsys)
    assert code == EXIT_FAILED and "seed 5" in err, err
    forged, real = json.loads(out), genuine(capsys)
    assert forged["mean_score"] != real["mean_score"] and forged["failed_seeds"] == [5]
    assert forged["trace_sha256"] == real["trace_sha256"]
    assert forged["outcome_sha256"] != real["outcome_sha256"]
    assert real["outcome_sha256"] == outcome_hash(played_outcomes(STRATEGIES["simple"], 3, range(12)))
    reported = [outcome for chunk in document["chunks"] for outcome in chunk_outcomes(chunk)]
    assert forged["outcome_sha256"] == outcome_hash(reported + played_outcomes(STRATEGIES["simple"], 3, range(8, 12)))


@pytest.mark.checks("SIM-resume", "SIM-outcome-hash")
def test_a_checkpoint_resumes_to_the_genuine_hashes(interrupted: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-resume, SIM-outcome-hash] untouched, the same checkpoint resumes to the result
    and both hashes of the run never interrupted; its seals are the clause's."""
    document = json.loads(interrupted.read_text())
    assert [chunk["sha256"] for chunk in document["chunks"]] == [seal(chunk) for chunk in document["chunks"]]
    code, out, err = run_main(ARGV + ["--json", "--resume", str(interrupted)], capsys)
    assert code == EXIT_OK, err
    assert without_timing(json.loads(out)) == without_timing(genuine(capsys))


def two_failures_backwards(chunk: dict[str, Any]) -> None:
    """Seeds 5 and 6 made failures, listed 6 first."""
    into_failure(chunk, 5, "x")
    into_failure(chunk, 6, "y")
    chunk["failures"].reverse()


@pytest.mark.checks("SIM-resume")
@pytest.mark.parametrize(
    ("tamper", "fragment"),
    [
        (lambda d: d["chunks"][0].pop("sha256"), "chunks[0].sha256: expected 64 hexadecimal digits"),
        (lambda d: d["chunks"][1].update(sha256="ab"), "chunks[1].sha256: expected 64 hexadecimal digits"),
        (lambda d: two_failures_backwards(d["chunks"][1]), "chunks[1].failures[1].seed: 5 is not above the seed before it"),
    ],
)
def test_a_malformed_seal_or_failure_order_is_refused(tamper: Callable[[dict[str, Any]], object], fragment: str,
                                                      interrupted: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-resume] a chunk without a well-formed seal, or whose failures are not in
    ascending seed order: one line naming the place, exit 1."""
    document = json.loads(interrupted.read_text())
    tamper(document)
    interrupted.write_text(json.dumps(document))
    code, out, err = run_main(ARGV + ["--resume", str(interrupted)], capsys)
    assert code == EXIT_FAILED and out == "" and err.count("\n") == 1, err
    assert fragment in err


# ------------------------------------------------------------------ [OUT-escape]: failure texts from a checkpoint


HOSTILE = "boom\x1b]0;owned\x07\rback\u2028line\u202eright\nhanabi-ref: all good"
"""A failure text with ESC (a title change ended by BEL), CR, U+2028, U+202E and a newline
that would forge a line of its own."""
RAW = ("\x1b", "\x07", "\r", "\n", "\u2028", "\u202e")


@pytest.mark.checks("OUT-escape", "SIM-crash", "SIM-resume")
@pytest.mark.parametrize("json_output", [False, True])
def test_a_failure_text_from_a_checkpoint_is_escaped(json_output: bool, interrupted: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """[OUT-escape, SIM-crash, SIM-resume] a (sealed) checkpoint whose failure text holds
    control, format and separator characters: the failure line on stderr is one line,
    with each of them written as its escape and no forged ``hanabi-ref: all good`` line;
    the report on stdout holds none of them raw, and ``--json`` still gives the text
    itself, JSON-escaped."""
    document = json.loads(interrupted.read_text())
    into_failure(document["chunks"][1], 5, HOSTILE)
    document["chunks"][1]["sha256"] = seal(document["chunks"][1])
    interrupted.write_text(json.dumps(document))
    code, out, err = run_main(ARGV + (["--json"] if json_output else []) + ["--resume", str(interrupted)], capsys)
    assert code == EXIT_FAILED
    assert err.count("\n") == 1 and err.endswith("\n"), err
    line = err[:-1]
    assert line.startswith("hanabi-ref: 1 of 12 games failed (seed 5); first (seed 5): boom")
    assert not [character for character in line if unicodedata.category(character) in ("Cc", "Cf", "Zl", "Zp")]
    for escape in ("\\x1b", "\\x07", "\\r", "\\u2028", "\\u202e", "\\nhanabi-ref: all good"):
        assert escape in line
    assert not any(character in out.replace("\n", "") for character in RAW)
    if json_output:
        assert out.count("\n") == 1 and json.loads(out)["failures"] == [{"seed": 5, "error": HOSTILE}]
