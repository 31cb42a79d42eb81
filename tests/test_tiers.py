"""The quick tier (``--quick``, tests/tiers.py) leaves out only slow test functions, and still
touches every test module; the slow list is made from durations and names real tests."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref.tools.spec_coverage import TESTED, coverage_matrix
from tests.tiers import FIRST, ROOT, function_id, keep_samples, read_slow_list, sampled, slow_functions

TEST_FILES = (("tests", "test_*.py"), ("proofs", "check_*.py"), ("docs", "test_*.py"))


def _test_names(tree: ast.Module) -> list[str]:
    """The test functions of a module as pytest names them below the file: ``test_*``
    functions, ``test_*`` methods of ``Test*`` classes (``Class::method``), ``Test*``
    classes without such methods (a Hypothesis state machine's test case, by class or by
    assignment ``TestX = Machine.TestCase``)."""
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
            names.append(node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            methods = [item.name for item in node.body
                       if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef) and item.name.startswith("test")]
            names.extend(f"{node.name}::{method}" for method in methods) if methods else names.append(node.name)
        elif isinstance(node, ast.Assign):
            names.extend(target.id for target in node.targets
                         if isinstance(target, ast.Name) and target.id.startswith("Test"))
    return names


def _every_test_function() -> dict[str, list[str]]:
    """For each test module of the suite (relative path), its test function ids."""
    found: dict[str, list[str]] = {}
    for directory, pattern in TEST_FILES:
        for path in sorted((ROOT / directory).rglob(pattern)):
            relative = path.relative_to(ROOT).as_posix()
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=relative)
            found[relative] = [f"{relative}::{name}" for name in _test_names(tree)]
    return found


def module_samples() -> list[list[str]]:
    """For each test module, its test functions (one of them must stay quick); the type
    check, which the quick tier leaves out by design (tests/tiers.py), is not among them."""
    return [kept for names in _every_test_function().values() if (kept := [name for name in names if name != FIRST])]


def family(clause: str) -> str:
    """A clause's family: its letters or chapter number before the first hyphen or dot
    (``E`` of ``E-17``, ``ISO`` of ``ISO-timeout``, ``2`` of ``2.13-1``)."""
    return re.split(r"[-.]", clause, maxsplit=1)[0]


VECTORS_TEST = "tests/test_vectors.py::test_case"
"""The test that replays every conformance vector (a clause with vectors is checked by it)."""


def _test_id(name: str) -> str:
    """A test of the coverage matrix (``file::Class.method``) as a test function id."""
    path, _, inside = name.partition("::")
    return f"{path}::{inside.replace('.', '::')}"


def family_samples() -> list[list[str]]:
    """For each family of tested clauses, the test functions that check a clause of it
    (one of them must stay quick)."""
    checkers: dict[str, set[str]] = {}
    for row in coverage_matrix(ROOT).formalized():
        if row.status == TESTED:
            found = checkers.setdefault(family(row.clause.id), set())
            found.update(_test_id(name) for name in row.checked_by)
            if row.vectors:
                found.add(VECTORS_TEST)
    return [sorted(names) for _, names in sorted(checkers.items())]


@pytest.fixture(scope="module")
def every_test_function() -> dict[str, list[str]]:
    """:func:`_every_test_function`, parsed once for the tests of this module."""
    return _every_test_function()


def test_the_quick_tier_touches_every_test_module(every_test_function: dict[str, list[str]]) -> None:
    """Each test module keeps at least one test function that the slow list does not name
    (but the type check's, which the quick tier leaves out by design)."""
    slow = read_slow_list() | {FIRST}
    modules = {module: names for module, names in every_test_function.items() if names != [FIRST]}
    assert len(modules) > 50
    empty = [module for module, names in modules.items() if names and all(name in slow for name in names)]
    assert not empty, f"the quick tier would run nothing of {empty}"


def test_the_quick_tier_samples_every_clause_family() -> None:
    """Every family of tested clauses keeps, in the quick tier, a test that checks a clause
    of it (a checks marker, or the vectors' own test for the clauses they cover)."""
    slow = read_slow_list()
    samples = family_samples()
    assert len(samples) > 20
    unsampled = [group for group in samples if all(name in slow for name in group)]
    assert not unsampled, f"the quick tier checks no clause of the families checked only by {unsampled[:3]}"


def test_keeping_samples_frees_the_fastest_of_each_emptied_group() -> None:
    """A group all slow gives back its fastest function; a group with a quick one, none."""
    slow = ["a::one", "a::two", "b::one", "c::one"]
    times = {"a::one": 5.0, "a::two": 3.0, "b::one": 9.0, "c::one": 1.0}
    assert keep_samples(slow, times, [["a::one", "a::two"], ["b::one", "b::quick"], ["c::one"]]) == ["a::one", "b::one"]


def test_the_slow_list_names_only_real_test_functions(every_test_function: dict[str, list[str]]) -> None:
    """A renamed or removed test leaves no stale line in tests/slow.txt."""
    known = {name for names in every_test_function.values() for name in names}
    stale = sorted(read_slow_list() - known)
    assert not stale, f"tests/slow.txt names tests that do not exist: {stale[:5]}"


def test_slow_functions_are_found_by_case_and_by_sum(tmp_path: Path) -> None:
    """One case at the case bound or more makes its function slow; so does a sum of fast
    cases at the function bound; setup time counts; parameters and ``runTest`` fold."""
    report = "\n".join([
        "============ slowest durations ============",
        "0.90s call     tests/test_a.py::test_one[1]",
        "0.10s call     tests/test_a.py::test_one[2]",
        "0.70s call     tests/test_a.py::test_many[1]",
        "0.70s call     tests/test_a.py::test_many[2]",
        "0.70s call     tests/test_a.py::test_many[3]",
        "0.70s call     tests/test_a.py::test_many[4]",
        "0.50s setup    tests/test_b.py::test_fixture",
        "0.40s call     tests/test_b.py::test_fixture",
        "0.30s call     tests/test_b.py::test_fast",
        "3.00s call     tests/test_c.py::TestMachine::runTest",
    ])
    assert slow_functions(report) == ["tests/test_a.py::test_many", "tests/test_a.py::test_one",
                                      "tests/test_b.py::test_fixture", "tests/test_c.py::TestMachine"]
    assert function_id("tests/test_a.py::test_one[x-[y]]") == "tests/test_a.py::test_one"
    listing = tmp_path / "slow.txt"
    listing.write_text("# comment\n\ntests/test_a.py::test_one\n  tests/test_b.py::test_fixture  \n")
    assert read_slow_list(listing) == {"tests/test_a.py::test_one", "tests/test_b.py::test_fixture"}


def test_a_parametrized_function_is_sampled_at_its_ends_and_middle() -> None:
    """The quick tier runs the first, a middle and the last case of a long parametrization,
    and every case of a short one."""
    cases: list[Any] = list(range(10))
    picked: list[Any] = sampled(cases)
    assert picked in ([0, 4, 9], [0, 5, 9])
    short: list[Any] = sampled(cases[:3])
    single: list[Any] = sampled(cases[:1])
    assert short == [0, 1, 2] and single == [0]
