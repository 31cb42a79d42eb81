"""The optional compiled build [B-compiled]: it changes no result, only the speed; a
process loads it only for exactly these sources; its errors are one line.

The oracle is the same code run from its sources (``HANABI_REF_COMPILED=0``) in a
separate process: every game must be the same action for action.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref import compiled
from hanabi_ref.cli import main

ROOT = Path(__file__).resolve().parents[1]
needs_mypyc = pytest.mark.skipif(importlib.util.find_spec("mypyc") is None, reason="mypyc (mypy) is not installed")

PLAY = """
import json, sys
from hanabi_ref import compiled
from hanabi_ref.game import play_game
from hanabi_ref.rules import make_config
from hanabi_ref.strategies import factory_for

CASES = [
    (3, "thesis", None, "thesis", {}),
    (2, "thesis", None, "thesis", {"rho_h": 1, "rho_d": 1, "omega_h": 0.5}),
    (4, "hanab-live", "rainbow", "thesis", {"knowledge": "public", "volume": "touched", "rho_d": 3}),
    (5, "hanab-live", "black", "thesis", {"rho_h": 4, "rho_d": 4, "ties": "random", "rehint": "attribute"}),
    (3, "hle", None, "simple", {}),
    (4, "thesis", None, "random", {}),
    (4, "hanab-live", "rainbow", "hat", {}),
    (5, "hanab-live", "black", "hat", {"check": 1}),
]
games = []
for players, preset, variant, name, params in CASES:
    config = make_config(players, preset=preset, **({"variant": variant} if variant else {}))
    factory = factory_for(name, params)
    for seed in range(int(sys.argv[1])):
        record = play_game(config, factory, seed=seed)
        games.append([repr(action) for action in record.trace.actions])
print(json.dumps({"modules": compiled.status()["modules"], "games": games}))
"""


def _env(cache: Path, **extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("HANABI_REF_")}
    env.update(PYTHONPATH=str(ROOT), HANABI_REF_CACHE=str(cache), **extra)
    return env


def _play(cache: Path, games: int, **extra: str) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-c", PLAY, str(games)], env=_env(cache, **extra), capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    loaded: dict[str, Any] = json.loads(result.stdout)
    return loaded


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache holding a build of this checkout."""
    directory = tmp_path_factory.mktemp("cache")
    result = subprocess.run(
        [sys.executable, "-m", "hanabi_ref.cli", "compile"], env=_env(directory), capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return directory


@needs_mypyc
def test_compiled_modules_play_the_same_games_as_the_sources(cache: Path) -> None:
    """[B-compiled] contracts off: every compiled module is loaded; contracts on: only the
    strategy modules without contracts; without the build: none.  The games are the same
    in all three."""
    fast = _play(cache, 12, HANABI_REF_CONTRACTS="0")
    checked = _play(cache, 4, HANABI_REF_CONTRACTS="1")
    source = _play(cache, 12, HANABI_REF_CONTRACTS="0", HANABI_REF_COMPILED="0")
    assert fast["modules"] == {name: True for name in compiled.MODULES}
    assert checked["modules"] == {name: True for name in compiled.STRATEGY_MODULES}
    assert source["modules"] == {name: False for name in compiled.MODULES}
    assert fast["games"] == source["games"]
    cases = 8
    per_case = len(source["games"]) // cases
    assert checked["games"] == [game for case in range(cases) for game in source["games"][case * per_case : case * per_case + 4]]


@needs_mypyc
def test_simulate_gives_the_same_statistics_with_the_build(cache: Path) -> None:
    """[B-compiled, SIM-jobs] the command line and its worker processes load the build;
    every statistic is the one of the sources."""
    command = [sys.executable, "-m", "hanabi_ref.cli", "simulate", "--strategy", "thesis", "--players", "3",
               "--games", "60", "--jobs", "2", "--json"]
    results = []
    for switch in ("1", "0"):
        run = subprocess.run(
            command, env=_env(cache, HANABI_REF_CONTRACTS="0", HANABI_REF_COMPILED=switch), capture_output=True, text=True
        )
        assert run.returncode == 0, run.stderr
        result = json.loads(run.stdout)
        for key in ("games_per_second",):
            result.pop(key)
        results.append(result)
    assert results[0] == results[1]


@needs_mypyc
def test_a_build_for_other_sources_is_not_loaded(cache: Path, tmp_path: Path) -> None:
    """[B-compiled] a build under another key, or with a file missing, is never loaded."""
    (build,) = [path for path in cache.iterdir() if (path / "manifest.json").is_file()]
    stale = tmp_path / "stale"
    stale.mkdir()
    os.symlink(build, stale / ("0" * 24))  # a build of other sources
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / build.name).mkdir()
    (broken / build.name / "manifest.json").write_text(json.dumps({"files": {"hanabi_ref.strategies.thesis": "missing.so"}}))
    for directory in (stale, broken):
        assert _play(directory, 1, HANABI_REF_CONTRACTS="0")["modules"] == {name: False for name in compiled.MODULES}


def test_compile_without_mypy_is_a_usage_error(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """[B-compiled] without mypyc: one line naming the extra to install, exit code 2."""
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None if name == "mypyc" else real(name, *args))
    assert main(["compile"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "pip install 'hanabi-ref[compile]'" in error


@needs_mypyc
def test_an_unwritable_cache_is_a_failed_build(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """[B-compiled] a cache directory that cannot be made: one line, exit code 1."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("HANABI_REF_CACHE", str(blocker / "cache"))
    assert main(["compile"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "cache directory" in error
