"""The optional compiled build [B-compiled]: an explicit opt-in that changes no result,
only the speed; a process loads it only for exactly these sources and only when it asks;
a plain import reads no file and changes no import machinery; its errors are one line.

The oracle is the same code run from its sources (no opt-in) in a separate process:
every game must be the same action for action.  The tests that build with mypyc are
``deep`` (a build takes about a minute) and need mypyc and a C compiler.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref.base.extras import install_hint
from hanabi_ref.tools import compiled
from hanabi_ref.cli import main
from tests.oracles import needs
from tests.processes import run_process

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "hanabi_ref"


def _c_compiler() -> str | None:
    command = sysconfig.get_config_var("CC")
    return shutil.which(str(command).split()[0]) if command else None


needs_mypyc = needs("mypyc")
needs_compiler = pytest.mark.skipif(
    _c_compiler() is None, reason=f"no C compiler: {sysconfig.get_config_var('CC')!r} (sysconfig CC) is not on PATH"
)

PLAY = """
import json, sys
from hanabi_ref.tools import compiled
enabled = compiled.enable() if sys.argv[2] == "enable" else None
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.configs import make_config
from hanabi_ref.players.strategies import factory_for

CASES = [
    (3, "thesis", None, "thesis", {}),
    (2, "thesis", None, "thesis", {"rho_h": 1, "rho_d": 1, "omega_h": 0.5}),
    (4, "hanab-live", "rainbow", "thesis", {"knowledge": "public", "volume": "touched", "rho_d": 3}),
    (5, "hanab-live", "black", "thesis", {"rho_h": 4, "rho_d": 4, "ties": "random", "rehint": "attribute"}),
    (3, "hle", None, "simple", {}),
    (4, "thesis", None, "random", {}),
    (4, "hanab-live", "rainbow", "hat", {}),
    (5, "hanab-live", "black", "hat", {"check": 1}),
    (3, "hanab-live", "Up or Down (5 Suits)", "random", {}),
    (4, "hanab-live", "Up or Down & Orange (6 Suits)", "random", {}),
    (3, "hanab-live", "Orange (6 Suits)", "random", {}),
]
games = []
for players, preset, variant, name, params in CASES:
    config = make_config(players, preset=preset, **({"variant": variant} if variant else {}))
    factory = factory_for(name, params)
    for seed in range(int(sys.argv[1])):
        record = play_game(config, factory, seed=seed)
        games.append([repr(action) for action in record.trace.actions])
print(json.dumps({"modules": compiled.status()["modules"], "enabled": enabled, "games": games}))
"""

IMPORT = """
import json, sys
before = list(sys.meta_path)
opened = []
sys.addaudithook(lambda event, args: opened.append(str(args[0])) if event == "open" else None)
import hanabi_ref
print(json.dumps({"meta_path_unchanged": sys.meta_path == before, "opened": opened,
                  "compiled_imported": "hanabi_ref.tools.compiled" in sys.modules}))
"""

ENABLE = """
import json, sys
for name in sys.argv[1:]:
    __import__(name)
from hanabi_ref.tools import compiled
before = list(sys.meta_path)
try:
    result = compiled.enable()
except compiled.CompiledTooLateError as error:
    result = str(error)
print(json.dumps({"result": result, "meta_path_unchanged": sys.meta_path == before}))
"""


def _env(cache: Path, **extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("HANABI_REF_")}
    env.update(PYTHONPATH=str(ROOT), HANABI_REF_CACHE=str(cache), **extra)
    return env


def _child(cache: Path, script: str, *argv: str, **extra: str) -> dict[str, Any]:
    result = run_process(
        [sys.executable, "-c", script, *argv], env=_env(cache, **extra), capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    loaded: dict[str, Any] = json.loads(result.stdout)
    return loaded


def _play(cache: Path, games: int, how: str = "environment", **extra: str) -> dict[str, Any]:
    return _child(cache, PLAY, str(games), how, **extra)


def _package_sources_opened(opened: list[str]) -> set[str]:
    """The package's files opened, apart from the package's own ``__init__`` (the import
    reads it, or its cached bytecode)."""
    names = set()
    for path in opened:
        resolved = Path(path).resolve() if not path.isdigit() else None
        if resolved is not None and resolved.is_relative_to(PACKAGE) and not resolved.name.startswith("__init__."):
            names.add(str(resolved.relative_to(PACKAGE)))
    return names


@pytest.mark.checks("B-compiled")
def test_a_plain_import_reads_no_file_and_swaps_nothing(tmp_path: Path) -> None:
    """[B-compiled] without the opt-in, importing hanabi_ref opens none of its source files
    (no hashing) and leaves sys.meta_path as it was; with HANABI_REF_COMPILED=1 the same
    probe sees every source file read for the build key."""
    plain = _child(tmp_path, IMPORT)
    assert plain["meta_path_unchanged"] and not plain["compiled_imported"]
    assert _package_sources_opened(plain["opened"]) == set()
    switched_off = _child(tmp_path, IMPORT, HANABI_REF_COMPILED="0")
    assert _package_sources_opened(switched_off["opened"]) == set() and switched_off["meta_path_unchanged"]
    opted_in = _child(tmp_path, IMPORT, HANABI_REF_COMPILED="1")
    sources = {str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py") if path.name != "__init__.py"}
    assert sources <= _package_sources_opened(opted_in["opened"])
    assert opted_in["meta_path_unchanged"]  # no build in the empty cache: nothing to load


@pytest.mark.checks("B-compiled")
def test_enable_without_a_build_returns_false(tmp_path: Path) -> None:
    """[B-compiled] enable() with an empty cache: False, and no finder installed."""
    assert _child(tmp_path, ENABLE, HANABI_REF_CONTRACTS="0") == {"result": False, "meta_path_unchanged": True}


@pytest.mark.checks("B-compiled")
def test_enable_after_the_engine_was_imported_is_refused(tmp_path: Path) -> None:
    """[B-compiled] contracts off, the engine is part of the build: enable() after importing
    hanabi_ref.engine.dealing from source raises, naming the module and what to do.  Contracts
    on, the engine is never loaded from the build, so importing it first is fine."""
    late = _child(tmp_path, ENABLE, "hanabi_ref.engine.dealing", HANABI_REF_CONTRACTS="0")
    assert "hanabi_ref.engine.dealing was already imported from source" in late["result"]
    assert "HANABI_REF_COMPILED=1" in late["result"] and late["meta_path_unchanged"]
    checked = _child(tmp_path, ENABLE, "hanabi_ref.engine.dealing", HANABI_REF_CONTRACTS="1")
    assert checked == {"result": False, "meta_path_unchanged": True}


@pytest.mark.checks("B-compiled")
def test_compiled_flag_without_a_build_is_a_usage_error(tmp_path: Path) -> None:
    """[B-compiled, C-exit] --compiled with no build of these sources: one line naming
    the command that builds it, exit 2, nothing played."""
    command = [sys.executable, "-m", "hanabi_ref.cli", "play", "--strategy", "random", "--players", "3", "--compiled"]
    run = run_process(command, env=_env(tmp_path), capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.count("\n") == 1 and "build it with: hanabi-ref compile" in run.stderr


@pytest.mark.checks("B-compiled")
def test_compiled_flag_against_a_switched_off_environment(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """[B-compiled] HANABI_REF_COMPILED=0 keeps meaning off: --compiled then is a usage error."""
    monkeypatch.setenv("HANABI_REF_COMPILED", "0")
    assert main(["play", "--strategy", "random", "--players", "3", "--compiled"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "HANABI_REF_COMPILED=0" in error


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache holding a build of this checkout."""
    directory = tmp_path_factory.mktemp("cache")
    result = run_process(
        [sys.executable, "-m", "hanabi_ref.cli", "compile"], env=_env(directory), capture_output=True, text=True, cwd=ROOT
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    return directory


@pytest.mark.checks("B-compiled")
@pytest.mark.deep
@needs_mypyc
@needs_compiler
def test_compiled_modules_play_the_same_games_as_the_sources(cache: Path) -> None:
    """[B-compiled] opted in, contracts off: every compiled module is loaded; contracts on:
    only the strategy modules without contracts; by enable(): the same; without the
    opt-in, the build present: none.  The games are the same in all of them."""
    fast = _play(cache, 12, HANABI_REF_CONTRACTS="0", HANABI_REF_COMPILED="1")
    checked = _play(cache, 4, HANABI_REF_CONTRACTS="1", HANABI_REF_COMPILED="1")
    called = _play(cache, 4, "enable", HANABI_REF_CONTRACTS="0")
    source = _play(cache, 12, HANABI_REF_CONTRACTS="0")
    assert fast["modules"] == called["modules"] == {name: True for name in compiled.MODULES}
    assert checked["modules"] == {name: True for name in compiled.STRATEGY_MODULES}
    assert source["modules"] == {name: False for name in compiled.MODULES}
    assert called["enabled"] is True
    assert fast["games"] == source["games"]
    cases = 11
    per_case = len(source["games"]) // cases
    first_four = [game for case in range(cases) for game in source["games"][case * per_case : case * per_case + 4]]
    assert checked["games"] == called["games"] == first_four


SUBCLASS = """
import json
from hanabi_ref.tools import compiled
from hanabi_ref.engine.variants import ruleset
from hanabi_ref.engine.configs import make_config

class Swapped(ruleset.RuleSet):
    name = "swapped"
    upward = False

    def is_swapped(self, config, card):
        return card % 2 == 1

config = make_config(2)
rules = Swapped()
print(json.dumps({"compiled": compiled.is_compiled(ruleset), "name": rules.name, "upward": rules.upward,
                  "swapped": [rules.is_swapped(config, card) for card in range(4)],
                  "inherited": rules.played_height(config, (), (), (0,) * 5, 0, 1),
                  "attainable": rules.attainable(config, (), (0,) * 5, (), (0,) * 25)}))
"""


@pytest.mark.checks("B-compiled", "VAR-engine")
@pytest.mark.deep
@needs_mypyc
@needs_compiler
def test_a_rule_set_written_in_python_subclasses_the_compiled_one(cache: Path) -> None:
    """[B-compiled, VAR-engine] the rule set is compiled with the engine, and a variant
    family written later in Python (not compiled) still subclasses it: its answers
    override, the others are inherited (the thesis' played height and attainable score)."""
    result = _child(cache, SUBCLASS, HANABI_REF_CONTRACTS="0", HANABI_REF_COMPILED="1")
    assert result == {"compiled": True, "name": "swapped", "upward": False, "swapped": [False, True, False, True],
                      "inherited": 1, "attainable": 25}


@pytest.mark.checks("B-compiled", "SIM-jobs")
@pytest.mark.deep
@needs_mypyc
@needs_compiler
def test_simulate_gives_the_same_statistics_with_the_build(cache: Path) -> None:
    """[B-compiled, SIM-jobs] ``--compiled`` opts in the command and its worker processes;
    every statistic is the one of the sources."""
    command = [sys.executable, "-m", "hanabi_ref.cli", "simulate", "--strategy", "thesis", "--players", "3",
               "--games", "60", "--jobs", "2", "--json"]
    results = []
    for flag in (["--compiled"], []):
        run = run_process(command + flag, env=_env(cache, HANABI_REF_CONTRACTS="0"), capture_output=True, text=True)
        assert run.returncode == 0, run.stderr
        result = json.loads(run.stdout)
        result.pop("games_per_second"), result.pop("games_per_cpu_second")
        results.append(result)
    assert results[0] == results[1]


@pytest.mark.deep
@needs_mypyc
@needs_compiler
def test_bench_measures_the_compiled_build(cache: Path) -> None:
    """[B-engine, B-compiled] with a build, bench engine runs the compiled-off variant and
    its child really loaded the engine from the build."""
    command = [sys.executable, "-m", "hanabi_ref.cli", "bench", "engine", "--players", "2",
               "--seconds", "0.05", "--repeats", "1", "--json"]
    run = run_process(command, env=_env(cache), capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["compiled_build"]["built"] and "compiled-off" in report["variants"]
    (result,) = report["results"]
    (child,) = result["variants"]["compiled-off"]["runs"]
    assert child["contracts"] is False and child["compiled_modules"]["hanabi_ref.engine.transition"] is True
    assert all(run["compiled"] is False for run in result["variants"]["source-off"]["runs"])


@pytest.mark.checks("B-compiled")
@pytest.mark.deep
@needs_mypyc
@needs_compiler
def test_a_build_for_other_sources_is_not_loaded(cache: Path, tmp_path: Path) -> None:
    """[B-compiled] opted in, a build under another key, or with a file missing, is never loaded."""
    (build,) = [path for path in cache.iterdir() if (path / "manifest.json").is_file()]
    stale = tmp_path / "stale"
    stale.mkdir()
    os.symlink(build, stale / ("0" * 24))  # a build of other sources
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / build.name).mkdir()
    (broken / build.name / "manifest.json").write_text(json.dumps({"files": {"hanabi_ref.players.strategies.thesis": "missing.so"}}))
    for directory in (stale, broken):
        played = _play(directory, 1, HANABI_REF_CONTRACTS="0", HANABI_REF_COMPILED="1")
        assert played["modules"] == {name: False for name in compiled.MODULES}


@pytest.mark.checks("B-compiled")
def test_compile_without_mypy_is_a_usage_error(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """[B-compiled] without mypyc: one line naming the extra to install, exit code 2."""
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None if name == "mypyc" else real(name, *args))
    assert main(["compile"]) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and install_hint("compile") in error


@pytest.mark.checks("B-compiled")
@needs_mypyc
def test_an_unwritable_cache_is_a_failed_build(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """[B-compiled] a cache directory that cannot be made: one line, exit code 1 (fails
    before anything is compiled)."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("HANABI_REF_CACHE", str(blocker / "cache"))
    assert main(["compile"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "cache directory" in error
