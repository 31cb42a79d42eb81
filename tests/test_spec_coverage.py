"""Every clause of spec/ is implemented and checked or cited in the sense of C-coverage, and
at least 95 % of the formalized ones are tested; the code cites no clause that does not
exist; docs/coverage.md is the current matrix.

The matrix comes from :mod:`hanabi_ref.tools.spec_coverage`, which reads the sources with
``ast``: docstrings and contract messages in ``hanabi_ref/``, the ``checks`` markers and
the code of test and check functions in ``tests/`` and ``proofs/``, and the coverage of
``spec/vectors/index.json``.  Comments and markdown never count.  The
rules themselves are checked on small trees written here, with made-up ids (``Q-1``,
``9.1``) so that these tests cite no real clause.
"""

from __future__ import annotations

import ast
import io
import re
import shutil
import tokenize
from collections import Counter
from collections.abc import Iterable, Iterator
from functools import cache
from pathlib import Path

import pytest

from hanabi_ref.cli import main
from hanabi_ref.tools.spec_coverage import (
    CITED,
    MATRIX_PAGE,
    NOT_FORMALIZED,
    TESTED,
    CoverageParseError,
    UNTESTED,
    Matrix,
    cited_tokens,
    coverage_matrix,
    is_cited,
    is_up_to_date,
    parse_clauses,
    render,
    summary,
)

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "hanabi_ref"

# A thesis-numbered id (2.9, 2.16-2a-token) or one of ours (E-4, P-presets, PR-length).
# A thesis number starts with a non-zero digit, so decimals such as 0.6 are not ids.
ID_RE = re.compile(r"(?:[1-9][0-9]*\.[0-9]+(?:-[A-Za-z0-9]+)*|[A-Z]{1,3}(?:-[A-Za-z0-9]+)+)")
BRACKETS_RE = re.compile(r"\[([^\[\]]*)\]")
CONTRACT_DECORATORS = {"require", "ensure", "invariant"}
COPIED = ("spec", "hanabi_ref", "tests", "proofs")
CACHES = shutil.ignore_patterns("__pycache__", ".mypy_cache", ".pytest_cache", ".hypothesis")


@cache
def matrix() -> Matrix:
    """The project's matrix, computed once per test session."""
    return coverage_matrix(ROOT)


# ------------------------------------------------------------------ the project


def test_spec_defines_clauses() -> None:
    """[C-coverage] the spec defines clauses by well-formed markers that start their line
    (after a heading's or a list item's prefix), each id once."""
    clauses = parse_clauses(ROOT)
    counts = Counter(clause.id for clause in clauses)
    assert len(counts) >= 50, f"only {len(counts)} clause ids found in spec/"
    problems = []
    for clause in clauses:
        line = (ROOT / clause.spec).read_text(encoding="utf-8").splitlines()[clause.line - 1]
        starts = re.match(rf"^(?:#{{1,6}}\s+|[-*]\s+)?\*\*\[{re.escape(clause.id)}\]\*\*", line)
        if not ID_RE.fullmatch(clause.id) or not starts:
            problems.append(f"{clause.spec}:{clause.line}: {clause.id!r}")
    assert not problems, "malformed or mid-line clause markers:\n" + "\n".join(problems)
    repeated = sorted(clause for clause, count in counts.items() if count > 1)
    assert not repeated, f"clause ids defined more than once: {', '.join(repeated)}"


def test_every_formalized_clause_is_implemented_and_tested() -> None:
    """[C-coverage] every formalized clause has an implementation tag and is tested or at
    least cited; every clause that is not formalized says why; every checks marker names a
    formalized clause."""
    problems = matrix().problems()
    assert not problems, f"{len(problems)} problem(s) with C-coverage:\n" + "\n".join(problems)


TESTED_FLOOR = 0.95


def test_at_least_95_percent_of_formalized_clauses_are_tested() -> None:
    """[C-coverage] issue 42's floor: a check that fails when the clause is broken (a
    checks marker or a vector) exists for at least 95 % of the formalized clauses."""
    rows = matrix().formalized()
    tested = sum(1 for row in rows if row.status == TESTED)
    by_spec: dict[str, list[str]] = {}
    for row in rows:
        if row.status != TESTED:
            by_spec.setdefault(row.clause.spec, []).append(row.clause.id)
    if tested < TESTED_FLOOR * len(rows):
        pytest.fail(
            f"{tested} of {len(rows)} formalized clauses tested, under {TESTED_FLOOR:.0%}; not tested:\n"
            + "\n".join(f"  {spec} ({len(ids)}): {', '.join(ids)}" for spec, ids in sorted(by_spec.items())),
            pytrace=False,
        )


def test_coverage_page_is_up_to_date() -> None:
    """[C-coverage] docs/coverage.md is the matrix of the code as it is now."""
    assert is_up_to_date(matrix(), ROOT / MATRIX_PAGE), (
        f"{MATRIX_PAGE} is out of date: run hanabi-ref spec coverage --write {MATRIX_PAGE}"
    )


def test_matrix_lists_every_clause_once_in_spec_order() -> None:
    """[C-coverage] one row per clause, the page's table rows in the same order."""
    rows = matrix().rows
    assert [row.clause.id for row in rows] == [clause.id for clause in parse_clauses(ROOT)]
    page = render(matrix())
    listed = [line.split(" | ")[0].removeprefix("| ") for line in page.splitlines() if line.startswith("| ") and "](../spec/" in line]
    assert sorted(listed) == sorted(row.clause.id for row in rows)


# ------------------------------------------------------------------ citations of unknown ids


def bracket_citations(source: str) -> Iterator[str]:
    """Ids in ``[...]`` groups (comma-separated) inside comments, docstrings and strings."""
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in (tokenize.COMMENT, tokenize.STRING):
            continue
        for group in BRACKETS_RE.finditer(token.string):
            for part in group.group(1).split(","):
                if ID_RE.fullmatch(part.strip()):
                    yield part.strip()


def contract_messages(nodes: Iterable[ast.AST]) -> Iterator[tuple[int, str]]:
    """(line, message) of every icontract require/ensure/invariant with a literal message
    among ``nodes`` (every node of a tree: ``ast.walk``)."""
    for node in nodes:
        if not isinstance(node, ast.Call):
            continue
        function = node.func
        name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
        if name not in CONTRACT_DECORATORS:
            continue
        described = [keyword.value for keyword in node.keywords if keyword.arg == "description"]
        for message in described or node.args[1:2]:
            if isinstance(message, ast.Constant) and isinstance(message.value, str):
                yield node.lineno, message.value


def message_ids(message: str) -> list[str]:
    """The ids a message starts with ("2.16-2a-value, 2.16-2a-suit: ..."); [] if none."""
    head, colon, _ = message.partition(":")
    parts = [part.strip() for part in head.split(",")]
    if not colon or not all(ID_RE.fullmatch(part) for part in parts):
        return []
    return parts


Source = tuple[str, str, list[tuple[int, str]], list[str]]
"""A module of the package: its path, its text, its contract messages and its string
constants."""


@pytest.fixture(scope="module")
def package_sources() -> list[Source]:
    """Every module of the package, read, parsed and gone over once for the tests of this
    module."""
    sources = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "__pycache__" not in path.parts:
            text = path.read_text(encoding="utf-8")
            nodes = list(ast.walk(ast.parse(text)))
            strings = [node.value for node in nodes if isinstance(node, ast.Constant) and isinstance(node.value, str)]
            sources.append((str(path.relative_to(ROOT)), text, list(contract_messages(nodes)), strings))
    return sources


def test_no_dangling_citations(package_sources: list[Source]) -> None:
    """[C-coverage] every id the package cites is defined in spec/ (formalized or not):
    inside ``[...]`` in a comment, docstring or string, at the start of a contract
    message, or as a whole string constant (the clause of an IllegalActionError)."""
    defined = {clause.id for clause in parse_clauses(ROOT)}
    dangling: dict[str, set[str]] = {}
    for where, source, messages, strings in package_sources:
        found = list(bracket_citations(source))
        found += [clause for _, message in messages for clause in message_ids(message)]
        found += [string for string in strings if ID_RE.fullmatch(string)]
        for clause in found:
            if clause not in defined:
                dangling.setdefault(clause, set()).add(where)
    assert not dangling, "ids cited in hanabi_ref/ but not defined in spec/:\n" + "\n".join(
        f"  {clause}: {', '.join(sorted(places))}" for clause, places in sorted(dangling.items())
    )


def test_contract_messages_start_with_clause_ids(package_sources: list[Source]) -> None:
    """[C-coverage] every icontract message begins with the id(s) of the clause it checks."""
    unlabelled = [
        f"{where}:{line}: {message!r}"
        for where, _, messages, _ in package_sources
        for line, message in messages
        if not message_ids(message)
    ]
    assert not unlabelled, "contract messages without a leading clause id:\n" + "\n".join(unlabelled)


# ------------------------------------------------------------------ the rules, on small trees


def test_whole_token_rule() -> None:
    """[C-coverage] an id is cited as a whole token: a longer id does not cite its prefix,
    and sentence punctuation does not hide an id."""
    assert is_cited("Q-1", "see [Q-1] here")
    assert is_cited("Q-1", "[Q-1, Q-2]")
    assert is_cited("9.1", "Definition 9.1.")
    assert is_cited("Q-1-b", "(Q-1-b);")
    assert not is_cited("Q-1", "[Q-1-b]")
    assert not is_cited("Q-1", "PQ-1")
    assert not is_cited("9.1", "9.1-cards")
    assert not is_cited("9.1", "9.16")
    assert not is_cited("9.1", "9.1.4")
    assert not is_cited("Q-1", "Q-10")
    assert cited_tokens("a [Q-1, 9.1-x]. - end") == {"a", "Q-1", "9.1-x", "end"}


MINI_SPEC = """# Mini spec

**[Q-1]** A rule that is implemented and tested.

**[Q-2]** A rule cited only by comments, markdown and a helper.

**[Q-3]** A rule tested through a module constant and a state machine.

**[Q-4]** A rule only the vector generators mention.

**[Q-8]** A rule the conformance vectors check.

## Not formalized

**[Q-5]** Left out, because this line says why.

**[Q-6]**

## Back to formal rules

**[Q-7]** A rule after the exempt section.
"""

MINI_PACKAGE = {
    "hanabi_ref/engine.py": '''"""The mini engine."""

import icontract

# [Q-2] only a comment cites this rule.


@icontract.ensure(lambda result: result > 0, "Q-3: the result is positive")
def step() -> int:
    """Take one step [Q-1, Q-8]."""
    return 1


class Machine:
    """Holds the state [Q-7]."""
''',
    "hanabi_ref/tools/vectors/cases.py": '''"""Vector cases [Q-4, Q-1]."""
''',
}

MINI_TESTS = {
    "tests/test_engine.py": '''"""Tests [Q-2] in a module docstring do not count."""

CLAUSE = "Q-3"


def helper() -> None:
    """Helps [Q-2]; helpers are not tests."""


@pytest.mark.checks("Q-1")
def test_step() -> None:
    """[Q-1] the step is positive."""
    assert True  # [Q-2] a comment in a test does not count


def test_cites_only() -> None:
    """[Q-7] a docstring that cites is not a check."""
    assert "Q-1"


def test_through_a_constant() -> None:
    assert CLAUSE


class Steps:
    @rule()
    def step(self) -> None:
        """[Q-7] a state machine rule."""

    @invariant()
    @pytest.mark.checks("Q-7")
    def holds(self) -> None:
        assert True
''',
    "proofs/README.md": "Q-2 and Q-1 are discussed here.\n",
    "spec/vectors/index.json": '{"coverage": {"Q-8": {"thesis": 2, "hle": 1}, "Q-5": {"thesis": 1}}}\n',
}


def write_tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


@pytest.fixture
def mini(tmp_path: Path) -> Path:
    write_tree(tmp_path, {"spec/rules.md": MINI_SPEC, **MINI_PACKAGE, **MINI_TESTS})
    return tmp_path


@pytest.mark.checks("C-coverage")
def test_the_rules_on_a_small_tree(mini: Path) -> None:
    """[C-coverage] docstrings and contract messages implement; checks markers on test
    functions and state machine steps, and vectors, test; test functions, module
    constants they name and state machine rules cite; comments, markdown, module
    docstrings of tests, helpers and the vector generators (outside spec/vectors.md)
    count for nothing; an exempt section ends at the next heading of its level."""
    rows = {row.clause.id: row for row in coverage_matrix(mini).rows}
    assert rows["Q-1"].implemented_by == ("hanabi_ref/engine.py::step",)
    assert rows["Q-1"].checked_by == ("tests/test_engine.py::test_step",)
    assert rows["Q-1"].cited_by == ("tests/test_engine.py::test_cites_only",)
    assert rows["Q-1"].proofs == ("proofs/README.md",)
    assert rows["Q-2"].implemented_by == () and rows["Q-2"].checked_by == rows["Q-2"].cited_by == ()
    assert rows["Q-3"].implemented_by == ("hanabi_ref/engine.py::step",)
    assert rows["Q-3"].checked_by == () and rows["Q-3"].cited_by == ("tests/test_engine.py::test_through_a_constant",)
    assert rows["Q-4"].implemented_by == ()
    assert rows["Q-7"].implemented_by == ("hanabi_ref/engine.py::Machine",)
    assert rows["Q-7"].checked_by == ("tests/test_engine.py::Steps.holds",)
    assert rows["Q-7"].cited_by == ("tests/test_engine.py::Steps.step", "tests/test_engine.py::test_cites_only")
    assert rows["Q-8"].checked_by == rows["Q-8"].cited_by == () and rows["Q-8"].vectors == 3
    assert rows["Q-7"].clause.formalized and not rows["Q-5"].clause.formalized
    assert rows["Q-5"].problem is None and rows["Q-5"].vectors == 0
    statuses = {clause: row.status for clause, row in rows.items()}
    assert statuses == {
        "Q-1": TESTED, "Q-2": UNTESTED, "Q-3": CITED, "Q-4": UNTESTED,
        "Q-5": NOT_FORMALIZED, "Q-6": NOT_FORMALIZED, "Q-7": TESTED, "Q-8": TESTED,
    }
    assert [problem.split(" ")[0] for problem in coverage_matrix(mini).problems()] == ["Q-2", "Q-4", "Q-6"]


@pytest.mark.checks("C-coverage")
def test_the_counts_line(mini: Path) -> None:
    """[C-coverage] the counts, by hand from MINI_SPEC: 8 clauses, 6 formalized (Q-1, 2,
    3, 4, 7, 8); tested Q-1 (marker), Q-7 (state machine marker), Q-8 (vectors): 3 of 6;
    cited only Q-3; untested Q-2 and Q-4; not formalized Q-5 and Q-6.  The page and the
    command say the same."""
    line = (
        "8 clauses: 6 formalized, 3 tested (50.0 % of formalized), 1 cited only, 2 untested; "
        "2 not formalized"
    )
    assert summary(coverage_matrix(mini)) == line
    page = render(coverage_matrix(mini))
    assert f"\n{line}.\n" in page
    assert "| Q-3 | [rules.md](../spec/rules.md) | cited | `hanabi_ref/engine.py`: step | — | `tests/test_engine.py`: test_through_a_constant | — |" in page
    assert "| Q-8 | [rules.md](../spec/rules.md) | tested | `hanabi_ref/engine.py`: step | `spec/vectors/`: 3 vectors | — | — |" in page


CITED_ONLY = '''import pytest

PLANTED = "Q-10"


def test_mentions() -> None:
    """[Q-10] this docstring cites the rule; its assertion is about something else."""
    assert "Q-10 is written here" and PLANTED


@pytest.mark.checks("Q-1")
def test_marked_for_another() -> None:
    """Marked for Q-1, citing Q-10 in passing."""
    assert "see Q-10"


@pytest.mark.parametrize("clause", ["Q-10"])
def test_parametrized(clause: str) -> None:
    assert clause
'''


@pytest.mark.checks("C-coverage")
def test_a_planted_clause_cited_but_never_marked_is_cited_not_tested(mini: Path) -> None:
    """[C-coverage] issue 42's "Done when": a clause that tests mention in a docstring, a
    string, a module constant and a parameter, and that a marker for another clause
    passes by, but that no checks marker names, is "cited", not tested; marking one of
    those tests makes it tested."""
    spec = MINI_SPEC.replace("## Not formalized", "**[Q-10]** A planted rule.\n\n## Not formalized")
    write_tree(mini, {
        "spec/rules.md": spec,
        "hanabi_ref/planted.py": '"""Implements [Q-10]."""\n',
        "tests/test_planted.py": CITED_ONLY,
    })
    (row,) = [row for row in coverage_matrix(mini).rows if row.clause.id == "Q-10"]
    assert row.status == CITED and row.checked_by == () and row.problem is None
    assert row.cited_by == tuple(f"tests/test_planted.py::{name}" for name in ("test_marked_for_another", "test_mentions", "test_parametrized"))
    write_tree(mini, {"tests/test_planted.py": CITED_ONLY.replace('@pytest.mark.checks("Q-1")', '@pytest.mark.checks("Q-1", "Q-10")')})
    (row,) = [row for row in coverage_matrix(mini).rows if row.clause.id == "Q-10"]
    assert row.status == TESTED and row.checked_by == ("tests/test_planted.py::test_marked_for_another",)
    assert row.cited_by == ("tests/test_planted.py::test_mentions", "tests/test_planted.py::test_parametrized")


@pytest.mark.checks("C-coverage")
def test_marked_and_vector_evidence(mini: Path) -> None:
    """[C-coverage] a checks marker makes a clause tested even where nothing else cites
    it, on a function, on a Test* class or in a proof's check; a clause the vector index
    lists with no vector (0 under every preset) is not tested by vectors."""
    write_tree(mini, {
        "tests/test_marked.py": (
            "import pytest\n\n\n@pytest.mark.checks(\"Q-3\")\nclass TestThings:\n"
            "    def test_a(self) -> None:\n        assert 1 + 1 == 2\n"
        ),
        "proofs/check_lemma.py": "from pytest import mark\n\n\n@mark.checks(\"Q-2\")\ndef test_lemma() -> None:\n    assert 2 > 1\n",
        "spec/vectors/index.json": '{"coverage": {"Q-8": {"thesis": 0, "hle": 0}}}',
    })
    rows = {row.clause.id: row for row in coverage_matrix(mini).rows}
    assert rows["Q-3"].status == TESTED and rows["Q-3"].checked_by == ("tests/test_marked.py::TestThings.test_a",)
    assert rows["Q-2"].status == TESTED and rows["Q-2"].checked_by == ("proofs/check_lemma.py::test_lemma",)
    assert rows["Q-8"].status == UNTESTED and rows["Q-8"].vectors == 0
    write_tree(mini, {"spec/vectors/index.json": '{"cases": []}'})
    with pytest.raises(CoverageParseError, match="spec/vectors/index.json: not an index with a coverage object"):
        coverage_matrix(mini)


WRONG_MARKERS = '''import pytest


@pytest.mark.checks("Q-9", "Q-1")
def test_unknown() -> None:
    assert 1 < 2


@pytest.mark.checks("Q-5")
def test_exempt() -> None:
    assert 1 < 2


@pytest.mark.checks(CLAUSE)
def test_not_literal() -> None:
    assert 1 < 2


@pytest.mark.checks("Q-3")
def helper() -> None:
    pass
'''


@pytest.mark.checks("C-coverage")
def test_markers_naming_unknown_or_exempt_clauses_are_problems(mini: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[C-coverage] a checks marker naming an id the spec does not define, a clause that is
    not formalized, a name instead of a literal, or a marker on a helper: one problem line
    each, naming the file and the test; the marker's good ids still count; the command
    exits 1 printing them."""
    write_tree(mini, {"tests/test_wrong.py": WRONG_MARKERS})
    planted = coverage_matrix(mini)
    assert planted.marker_problems == (
        "tests/test_wrong.py::test_not_literal: checks marker argument CLAUSE is not a string literal",
        "tests/test_wrong.py::helper: a checks marker on something that is not a test counts for nothing",
        "tests/test_wrong.py::test_unknown: checks marker names Q-9, which spec/ does not define",
        "tests/test_wrong.py::test_exempt: checks marker names Q-5, which is not formalized",
    )
    rows = {row.clause.id: row for row in planted.rows}
    assert "tests/test_wrong.py::test_unknown" in rows["Q-1"].checked_by
    assert rows["Q-5"].status == NOT_FORMALIZED and rows["Q-3"].status == CITED
    assert main(["spec", "coverage", "--root", str(mini)]) == 1
    errors = capsys.readouterr().err.splitlines()
    assert sum("wrong checks marker: tests/test_wrong.py::" in line for line in errors) == 4


@pytest.mark.checks("C-coverage")
def test_the_command_prints_writes_and_checks(mini: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[C-coverage] exit 1 naming each uncovered clause on its own line; 0 once they are
    covered; --write then --check agree; a stale page fails --check; 2 without spec/."""
    page = tmp_path / "out" / "coverage.md"
    assert main(["spec", "coverage", "--root", str(mini), "--write", str(page)]) == 1
    lines = capsys.readouterr().err.splitlines()
    assert [line.split("uncovered clause: ")[1].split(" ")[0] for line in lines] == ["Q-2", "Q-4", "Q-6"]
    write_tree(mini, {
        "spec/rules.md": MINI_SPEC.replace("**[Q-6]**", "**[Q-6]** Left out for a reason."),
        "hanabi_ref/extra.py": '"""Extra [Q-2, Q-4]."""\n\n\ndef f() -> None:\n    """[Q-2]"""\n',
        "tests/test_extra.py": 'def test_extra() -> None:\n    assert "Q-2 Q-4"\n',
    })
    assert main(["spec", "coverage", "--root", str(mini), "--check", str(page)]) == 1
    assert "out of date" in capsys.readouterr().err
    assert main(["spec", "coverage", "--root", str(mini), "--write", str(page), "--check", str(page)]) == 0
    assert "6 formalized, 3 tested (50.0 % of formalized), 3 cited only, 0 untested; 2 not formalized" in capsys.readouterr().out
    assert main(["spec", "coverage", "--root", str(mini)]) == 0
    assert capsys.readouterr().out.startswith("# Spec coverage")
    assert main(["spec", "coverage", "--root", str(tmp_path / "nowhere")]) == 2
    assert "no spec/*.md" in capsys.readouterr().err


def test_a_file_that_does_not_parse_is_invalid_input(mini: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[C-coverage] a Python file with a syntax error: exit 1, one line naming it."""
    write_tree(mini, {"tests/test_broken.py": "def test_x(:\n"})
    assert main(["spec", "coverage", "--root", str(mini)]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "tests/test_broken.py:1: cannot parse" in error


# ------------------------------------------------------------------ a planted clause


@pytest.mark.checks("C-coverage")
def test_a_planted_clause_cited_only_in_prose_and_comments_is_reported(tmp_path: Path) -> None:
    """[C-coverage] the issue's example: a new clause in a copy of the project, cited in a
    comment saying it is not done and in a sentence of proofs/README.md, is reported, and
    it is the only clause reported; a second one, implemented and cited by a test's
    docstring and string but never marked, is "cited" and adds no tested clause."""
    for name in COPIED:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=CACHES)
    bogus = "sugob-b2-61.2"[::-1]  # spelled backwards: this test must not cite it in the copy
    rules = tmp_path / "spec" / "rules.md"
    text = rules.read_text(encoding="utf-8")
    heading = "## 14. Not formalized"
    assert text.count(heading) == 1
    rules.write_text(text.replace(heading, f"**[{bogus}]** A rule nobody implements.\n\n{heading}"), encoding="utf-8")
    engine = tmp_path / "hanabi_ref" / "engine" / "transition.py"
    engine.write_text(engine.read_text(encoding="utf-8") + f"\n# [{bogus}] not done\n", encoding="utf-8")
    readme = tmp_path / "proofs" / "README.md"
    readme.write_text(readme.read_text(encoding="utf-8") + f"\nThe rule {bogus} needs no proof.\n", encoding="utf-8")
    mentioned = "denoitnem-b2-61.2"[::-1]
    rules.write_text(rules.read_text(encoding="utf-8").replace(heading, f"**[{mentioned}]** A rule only mentioned.\n\n{heading}"), encoding="utf-8")
    engine.write_text(engine.read_text(encoding="utf-8") + f'\n\ndef planted() -> None:\n    """[{mentioned}]"""\n', encoding="utf-8")
    legality = tmp_path / "tests" / "test_legality.py"
    legality.write_text(legality.read_text(encoding="utf-8") + (
        f'\n\ndef test_planted() -> None:\n'
        f'    """[{mentioned}] cited here."""\n    assert "{mentioned}"\n'
    ), encoding="utf-8")
    planted = coverage_matrix(tmp_path)
    before = {problem.split(" ")[0] for problem in matrix().problems()}
    reported = [problem.split(" ")[0] for problem in planted.problems()]
    assert [clause for clause in reported if clause not in before] == [bogus], planted.problems()
    assert set(reported) == before | {bogus}
    (row,) = [row for row in planted.rows if row.clause.id == bogus]
    assert row.implemented_by == () and row.checked_by == row.cited_by == () and row.proofs == ("proofs/README.md",)
    assert row.status == UNTESTED
    assert "no implementation tag" in row.problem and "no test" in row.problem  # type: ignore[operator]
    (row,) = [row for row in planted.rows if row.clause.id == mentioned]
    assert row.status == CITED and row.problem is None and row.checked_by == ()
    assert row.cited_by == ("tests/test_legality.py::test_planted",)
    assert planted.count(TESTED) == matrix().count(TESTED) and planted.count(CITED) == matrix().count(CITED) + 1
