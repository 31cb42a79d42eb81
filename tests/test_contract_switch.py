"""Every contract of hanabi_ref obeys the switch HANABI_REF_CONTRACTS [CT-switch], and
what runs per move and per state is what spec/library.md says [CT-move, CT-state].

Two readings: the sources (every icontract decorator call passes ``enabled=ENABLED``, the
switch of :mod:`hanabi_ref.base.contracts`), and the running package (with the switch off, no
function, method or class of a module that uses icontract carries a contract; with it
on, the ones the sources decorate do).
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Final

import attrs
import icontract
import icontract._checkers as checkers
import pytest

from hanabi_ref.engine import conditions, fastpath, transition
from hanabi_ref.engine import state as state_module
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.fastpath import build_state
from hanabi_ref.engine.state import GameState
from hanabi_ref.engine.transition import initial_state

PACKAGE: Final = Path(__file__).resolve().parent.parent / "hanabi_ref"
DECORATORS: Final = frozenset({"require", "ensure", "invariant", "snapshot"})


def _icontract_names(nodes: list[ast.AST]) -> tuple[set[str], set[str]]:
    """The names under which a module (``nodes``: every node of its tree) reaches icontract
    itself (``import icontract [as x]``) and its decorators (``from icontract import
    require [as y]``)."""
    modules: set[str] = set()
    decorators: set[str] = set()
    for node in nodes:
        if isinstance(node, ast.Import):
            modules |= {alias.asname or alias.name for alias in node.names if alias.name == "icontract"}
        elif isinstance(node, ast.ImportFrom) and node.module == "icontract":
            decorators |= {alias.asname or alias.name for alias in node.names if alias.name in DECORATORS}
    return modules, decorators


def _is_contract_call(node: ast.Call, modules: set[str], decorators: set[str]) -> bool:
    func = node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        return func.value.id in modules and func.attr in DECORATORS
    return isinstance(func, ast.Name) and func.id in decorators


def _is_switched(node: ast.Call) -> bool:
    """``enabled=ENABLED`` (or ``enabled=contracts.ENABLED``) among the keywords."""
    for keyword in node.keywords:
        if keyword.arg == "enabled":
            value = keyword.value
            return (isinstance(value, ast.Name) and value.id == "ENABLED") or (
                isinstance(value, ast.Attribute) and value.attr == "ENABLED"
            )
    return False


def unswitched_contracts(source: str, name: str) -> list[str]:
    """``name:line`` of every icontract decorator call in ``source`` without the switch."""
    nodes = list(ast.walk(ast.parse(source, name)))
    modules, decorators = _icontract_names(nodes)
    return [
        f"{name}:{node.lineno}"
        for node in nodes
        if isinstance(node, ast.Call) and _is_contract_call(node, modules, decorators) and not _is_switched(node)
    ]


def _modules_using_icontract() -> list[str]:
    names = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "icontract" in path.read_text(encoding="utf-8"):
            relative = path.relative_to(PACKAGE.parent).with_suffix("")
            names.append(".".join(relative.parts[:-1] if relative.name == "__init__" else relative.parts))
    return names


@pytest.mark.checks("CT-switch")
def test_every_contract_in_the_sources_passes_the_switch() -> None:
    """[CT-switch] no icontract decorator in hanabi_ref/ is left on when contracts are off
    (a module whose text never names icontract cannot reach it, and is not parsed)."""
    sources = [(path, path.read_text(encoding="utf-8")) for path in sorted(PACKAGE.rglob("*.py"))]
    missing = [
        where
        for path, source in sources if "icontract" in source
        for where in unswitched_contracts(source, str(path.relative_to(PACKAGE.parent)))
    ]
    assert missing == []


@pytest.mark.checks("CT-switch")
def test_the_source_check_sees_an_unswitched_contract() -> None:
    """[CT-switch] the scan above finds each way of writing a contract without the switch."""
    source = (
        "import icontract\nimport icontract as ic\nfrom icontract import ensure as post\n"
        "from hanabi_ref.base.contracts import ENABLED\n"
        "@icontract.require(lambda x: x > 0, 'A', enabled=ENABLED)\n"
        "@icontract.require(lambda x: x > 1, 'B')\n"
        "@ic.invariant(lambda self: True, 'C', enabled=True)\n"
        "@post(lambda result: result, 'D')\n"
        "def f(x): return x\n"
    )
    assert unswitched_contracts(source, "m") == ["m:6", "m:7", "m:8"]


CENSUS: Final = """
import importlib, inspect, json, sys
import icontract._checkers as checkers
found = []
for name in sys.argv[1:]:
    module = importlib.import_module(name)
    for attribute, value in vars(module).items():
        if getattr(value, "__module__", None) != name:
            continue
        members = [(attribute, value)]
        if inspect.isclass(value):
            if getattr(value, "__invariants__", None):
                found.append(f"{name}.{attribute}: invariants")
            members += [(f"{attribute}.{key}", item) for key, item in vars(value).items()]
        for label, item in members:
            if callable(item) and checkers.find_checker(item) is not None:
                found.append(f"{name}.{label}")
print(json.dumps(found))
"""


def _census(switch: str) -> list[str]:
    """The contracts the running package carries, in a fresh interpreter with
    HANABI_REF_CONTRACTS=``switch``."""
    env = dict(os.environ, HANABI_REF_CONTRACTS=switch, PYTHONPATH=str(PACKAGE.parent))
    process = subprocess.Popen(
        [sys.executable, "-c", CENSUS, *_modules_using_icontract()],
        env=env,
        stdout=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate()
    finally:
        if process.poll() is None:
            os.killpg(process.pid, 9)
            process.wait()
    assert process.returncode == 0
    found: list[str] = json.loads(output)
    return found


@pytest.mark.checks("CT-switch")
def test_with_the_switch_off_nothing_carries_a_contract() -> None:
    """[CT-switch] HANABI_REF_CONTRACTS=0 leaves no icontract checker on any function,
    method or class of the package; with it on, the decorated ones carry theirs (so the
    census can see a contract: among them the variant model's and VAR-touch's)."""
    on = _census("1")
    assert {"hanabi_ref.engine.variants.model.Variant: invariants", "hanabi_ref.engine.variants.touch.touches"} <= set(on)
    assert "hanabi_ref.engine.state.GameState: invariants" in on
    assert _census("0") == []


# ------------------------------------------------------------------ what runs per move and per state


def _counting(monkeypatch: pytest.MonkeyPatch, module: object, name: str) -> list[int]:
    """Count the calls of ``module.name`` (which still runs)."""
    calls = [0]
    original = getattr(module, name)

    def counted(*args: object) -> None:
        calls[0] += 1
        original(*args)

    monkeypatch.setattr(module, name, counted)
    return calls


@pytest.mark.checks("CT-move")
def test_a_move_is_checked_by_its_postconditions_and_the_invariants_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """[CT-move, CT-state] with contracts on, each move runs check_move once, the
    state's invariants once, incrementally (the deal, checked whole and marked, and each
    move's result are the engine's checked states, CT-state), and check_legal
    once through apply_legal and never through apply; no icontract wrapper sits on
    apply, apply_legal or successor."""
    config = make_config(3)
    state = initial_state(config, deck_from_seed(config, 3))
    checked = {
        "move": _counting(monkeypatch, conditions, "check_move"),
        "legal": _counting(monkeypatch, conditions, "check_legal"),
        "invariants": _counting(monkeypatch, fastpath, "check_successor_invariants"),
        "whole": _counting(monkeypatch, state_module, "check_invariants"),
    }
    for moves in range(1, 13):
        step = transition.apply_legal if moves % 2 else transition.apply
        state = step(state, legal_actions(state)[moves % len(legal_actions(state))])
        assert {name: count[0] for name, count in checked.items()} == {
            "move": moves, "legal": (moves + 1) // 2, "invariants": moves, "whole": 0,
        }
    for function in (transition.apply, transition.apply_legal, transition.successor):
        assert checkers.find_checker(function) is None


@pytest.mark.checks("CT-state")
def test_state_invariants_run_on_evolve_and_public_calls_not_on_field_reads() -> None:
    """[CT-state] a state whose clue tokens exceed t0 (written past the class) is refused
    by attrs.evolve and by a property call, naming 2.16-tokens; reading the field and
    repr check nothing; build_state refuses such a state when it is built."""
    config = make_config(2)
    state = initial_state(config, deck_from_seed(config, 0))
    object.__setattr__(state, "clue_tokens", config.max_hints + 1)
    assert state.clue_tokens == config.max_hints + 1
    repr(state)
    for call in (lambda: attrs.evolve(state), lambda: state.score, lambda: state.deck_size, lambda: str(state)):
        with pytest.raises(icontract.ViolationError, match="2.16-tokens"):
            call()
    fields = {field.name: getattr(state, field.name) for field in attrs.fields(GameState)}
    with pytest.raises(icontract.ViolationError, match="^2.16-tokens"):
        build_state(**fields)
