"""Strategies registered as entry points [S-register]: listed with the package's own,
imported when asked for, never taking a built-in name, and a broken entry refused in one
line naming it."""

from __future__ import annotations

from importlib import metadata

import pytest

from hanabi_ref import cli
from hanabi_ref.players import strategies
from hanabi_ref.players.strategies import BUILT_IN, ENTRY_POINT_GROUP, ParamError, Registry, StrategySpec

GOOD = StrategySpec("plugged", "test only: the random strategy under another name", (), BUILT_IN["random"].build)
WRONG_NAME = StrategySpec("other", "test only: registered under a name that is not its own", (), BUILT_IN["random"].build)
NOT_A_SPEC = object()
SHADOW = StrategySpec("random", "test only: a registered strategy with a built-in name", (), BUILT_IN["simple"].build)

ENTRIES = {
    "plugged": f"{__name__}:GOOD",
    "misnamed": f"{__name__}:WRONG_NAME",
    "not-a-spec": f"{__name__}:NOT_A_SPEC",
    "missing": "tests.no_such_module_here:SPEC",
    "random": f"{__name__}:SHADOW",
}


def registry(monkeypatch: pytest.MonkeyPatch) -> Registry:
    """A registry whose installed entry points are :data:`ENTRIES`."""
    points = tuple(metadata.EntryPoint(name, value, ENTRY_POINT_GROUP) for name, value in ENTRIES.items())
    monkeypatch.setattr(metadata, "entry_points",
                        lambda group: tuple(p for p in points if p.group == group))
    return Registry(BUILT_IN, ENTRY_POINT_GROUP)


@pytest.mark.checks("S-register")
def test_registered_strategies_are_listed_and_loaded_when_asked_for(monkeypatch: pytest.MonkeyPatch) -> None:
    """[S-register] the registered names follow the built-in ones; a good entry loads its
    spec; a built-in name stays the package's own strategy."""
    specs = registry(monkeypatch)
    assert list(specs) == [*BUILT_IN, *(name for name in ENTRIES if name not in BUILT_IN)]
    assert "plugged" in specs and len(specs) == len(BUILT_IN) + len(ENTRIES) - 1
    assert specs["plugged"] is GOOD
    assert specs["random"] is BUILT_IN["random"]
    with pytest.raises(KeyError):
        specs["nobody-registered-this"]


@pytest.mark.checks("S-register")
@pytest.mark.parametrize(("name", "why"), [
    ("misnamed", "not a StrategySpec named 'misnamed'"),
    ("not-a-spec", "not a StrategySpec named 'not-a-spec'"),
    ("missing", "cannot be loaded: No module named 'tests.no_such_module_here'"),
])
def test_a_broken_entry_is_one_line_naming_it(monkeypatch: pytest.MonkeyPatch, name: str, why: str) -> None:
    """[S-register] an entry that cannot be imported, or whose value is not a spec of its
    name, is a ParamError naming the strategy and the entry point."""
    specs = registry(monkeypatch)
    with pytest.raises(ParamError) as error:
        specs[name]
    assert str(error.value) == f"strategy {name!r} (entry point {ENTRIES[name]}): {why}"


@pytest.mark.checks("S-register", "S-params")
def test_the_command_line_refuses_a_broken_entry_with_exit_2(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """[S-register, S-params] ``simulate --strategy`` of a broken entry: exit 2 and one line
    on standard error naming it, nothing on standard output; a good entry plays."""
    monkeypatch.setattr(strategies, "SPECS", registry(monkeypatch))
    assert cli.main(["simulate", "--strategy", "missing", "--players", "3", "--games", "1", "--jobs", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert err.startswith("hanabi-ref: --strategy: strategy 'missing' (entry point tests.no_such_module_here:SPEC)")
    assert cli.main(["simulate", "--strategy", "plugged", "--players", "3", "--games", "2", "--jobs", "1"]) == 0
