"""Hostile inputs under resource limits, by the harness of ``tests/hostile.py`` [L-config,
L-moves, L-files, T-limits, T-json, EP-numbers, EP-serve, EP-failures, C-exit].

The quick run (50 cases, a few seconds) is in the default suite; the
deep one (20,000 cases, about ten minutes) runs with ``python -m pytest -m deep``.  Each
runs the harness in a process of its own, so that its memory peak is its own.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

import tests.hostile as hostile
from tests.processes import run_process

ROOT = Path(__file__).resolve().parents[1]


def run_harness(examples: int, seed: int, timeout: int) -> dict[str, Any]:
    done = run_process(
        [sys.executable, "-m", "tests.hostile", "--examples", str(examples), "--seed", str(seed)],
        capture_output=True, text=True, timeout=timeout, cwd=ROOT,
    )
    assert done.returncode in (0, 1), done.stderr[-2000:]
    result: dict[str, Any] = json.loads(done.stdout[done.stdout.index("{"):])
    assert done.returncode == 0 and result["failure"] is None, result["failure"]
    return result


def check_result(result: dict[str, Any], examples: int) -> None:
    """Every case was run; every kind was tried and both taken and refused; the bounds held."""
    assert result["cases"] == examples
    outcomes: dict[str, int] = result["outcomes"]
    for kind in hostile.KINDS:
        assert any(name.startswith(f"{kind}: ") for name in outcomes), (kind, outcomes)
    assert any(name.endswith(": valid") for name in outcomes) and any("refused-1" in name for name in outcomes)
    assert result["slowest_cpu_seconds"] <= hostile.CPU_LIMIT
    assert result["largest_case_mib"] <= hostile.MEMORY_LIMIT >> 20


def test_hostile_inputs_quick() -> None:
    """[L-files, T-json, EP-serve, EP-failures] 50 hostile game files, requests and
    engine answers: each accepted as a valid game or refused in one line, within 2 CPU
    seconds and 200 MB (the deep set's run below plays 20,000)."""
    check_result(run_harness(50, seed=16, timeout=600), 50)


@pytest.mark.deep
def test_hostile_inputs_deep() -> None:
    """[L-files, T-json, EP-serve, EP-failures] the issue's 20,000 cases."""
    check_result(run_harness(20_000, seed=20_000, timeout=3600), 20_000)


# ------------------------------------------------------------------ the harness can fail


def test_the_harness_reports_a_reader_that_raises(monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader that lets an exception escape (a traceback for the user) fails the run."""
    import hanabi_ref.formats.trace

    def broken(path: object) -> object:
        raise RuntimeError("a reader's bug")

    monkeypatch.setattr(hanabi_ref.formats.trace, "read_json_file", broken)
    tally, failure = hostile.run(1, 0, ("trace",), only=hostile.Recipe("trace", 0, (), None))
    assert failure is not None and "RuntimeError: a reader's bug" in failure


def test_the_harness_reports_a_slow_case(monkeypatch: pytest.MonkeyPatch) -> None:
    """A case over the CPU bound fails the run, naming the bound."""
    monkeypatch.setattr(hostile, "CPU_LIMIT", -1.0)
    tally, failure = hostile.run(1, 0, ("request",), only=hostile.Recipe("request", 3, (), None))
    assert failure is not None and "CPU seconds, more than -1" in failure


def test_the_harness_reports_an_error_of_two_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    """An error message of two lines (or a traceback) fails the run."""
    import hanabi_ref.cli

    def two_lines(message: str, code: int) -> int:
        print("first line\nsecond line", file=sys.stderr)
        return code

    monkeypatch.setattr(hanabi_ref.cli, "_fail", two_lines)
    damaged = hostile.Recipe("trace", 0, (), hostile.TextDamage("cut", 0.5, 0))
    tally, failure = hostile.run(1, 0, ("trace",), only=damaged)
    assert failure is not None and "not one line" in failure


def test_damage_builds_what_it_says() -> None:
    """The recipes build the inputs they name: a key twice, NaN, a nest, a grown list."""
    tree = {"a": [1, 2], "b": {"c": 3}}
    twice = hostile.Damage("twice", 0, 0).apply(json.loads(json.dumps(tree)))  # place 0: the root
    assert hostile.emit(twice) == '{"a":[1,2],"b":{"c":3},"a":[1,2]}'
    nest = hostile.Damage("nest", 1, 0).apply(json.loads(json.dumps(tree)))
    assert hostile.emit(nest) == '{"a":' + "[" * 64 + "]" * 64 + ',"b":{"c":3}}'
    grown = hostile.Damage("grow", 1, 2).apply(json.loads(json.dumps(tree)))
    assert hostile.emit(grown).count(",") == 10_001
    assert hostile.TextDamage("byte", 0.0, 1).apply(b"{}") == b"\xff{}"


def test_the_harness_reports_a_case_over_the_memory_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """A case that takes more memory than the bound (1 MiB here, for a deck grown to
    300,000 cards, which is refused but must first be built and read) fails the run."""
    monkeypatch.setattr(hostile, "MEMORY_LIMIT", 1 << 20)
    grown = hostile.Recipe("trace", 0, (hostile.Damage("grow", 0, 5),), None)
    tally, failure = hostile.run(1, 0, ("trace",), only=grown)
    assert failure is not None and "MiB of memory at its peak, more than 1" in failure
