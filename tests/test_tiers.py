"""The quick tier (``--quick``, tests/tiers.py) leaves out only slow test functions, and still
touches every test module; the slow list is made from durations and names real tests."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from hanabi_ref.spec_coverage import TESTED, coverage_matrix
from tests.tiers import ROOT, function_id, read_slow_list, slow_functions

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


def test_the_quick_tier_touches_every_test_module() -> None:
    """Each test module keeps at least one test function that the slow list does not name."""
    slow = read_slow_list()
    modules = _every_test_function()
    assert len(modules) > 50
    empty = [module for module, names in modules.items() if names and all(name in slow for name in names)]
    assert not empty, f"the quick tier would run nothing of {empty}"


def family(clause: str) -> str:
    """A clause's family: its letters or chapter number before the first hyphen or dot
    (``E`` of ``E-17``, ``ISO`` of ``ISO-timeout``, ``2`` of ``2.13-1``)."""
    return re.split(r"[-.]", clause, maxsplit=1)[0]


def _test_id(name: str) -> str:
    """A test of the coverage matrix (``file::Class.method``) as a test function id."""
    path, _, inside = name.partition("::")
    return f"{path}::{inside.replace('.', '::')}"


def test_the_quick_tier_samples_every_clause_family() -> None:
    """Every family of tested clauses keeps, in the quick tier, a test whose checks marker
    names a clause of it (or, for the clauses the conformance vectors cover, the vectors'
    own test)."""
    slow = read_slow_list()
    rows = [row for row in coverage_matrix(ROOT).formalized() if row.status == TESTED]
    families = {family(row.clause.id) for row in rows}
    vectors_quick = "tests/test_vectors.py::test_case" not in slow
    sampled = {family(row.clause.id) for row in rows
               if any(_test_id(name) not in slow for name in row.checked_by)
               or (row.vectors and vectors_quick)}
    assert len(families) > 20
    assert families <= sampled, f"the quick tier checks no clause of the families {sorted(families - sampled)}"


def test_the_slow_list_names_only_real_test_functions() -> None:
    """A renamed or removed test leaves no stale line in tests/slow.txt."""
    known = {name for names in _every_test_function().values() for name in names}
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
