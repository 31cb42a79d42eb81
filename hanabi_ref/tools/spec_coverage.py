"""Semantic spec coverage: for every clause of ``spec/``, the code that implements it,
the checks that fail when it is broken, and the tests that merely cite it [C-coverage].

The matrix is computed from a project root (a checkout: ``spec/``, ``hanabi_ref/``,
``tests/``, ``proofs/``, ``spec/vectors/index.json``) by reading the Python sources with
:mod:`ast`, never by searching their text, so comments never count.

* A clause is *defined* by a bold marker ``**[ID]**`` in ``spec/*.md``; ids mentioned in
  running text define nothing.  A clause under a heading that says "Not formalized" (down
  to the next heading of the same or a higher level) is exempt; the paragraph after its
  marker must say why.
* A clause is *implemented* by a module, class, function or method of ``hanabi_ref/``
  whose docstring, or the message of one of its icontract ``require`` / ``ensure`` /
  ``invariant`` decorators, cites it.  The vector generators (``hanabi_ref/tools/vectors/``)
  restate the rules to write test data: they implement the clauses of
  ``spec/vectors.md`` (the vectors' own format) and no other.
* A *test* is a ``test_*`` function or a ``test_*`` method of a ``Test*`` class in
  ``tests/**/test_*.py``, a rule, invariant or initialize step of a Hypothesis state
  machine there, or a test of a proof's machine check ``proofs/**/check_*.py`` (chosen
  the same way).  A helper the tests call is not a test.
* Each formalized clause has one *status*:

  - **tested**: a check fails when the clause is broken.  Either a test is decorated
    with ``@pytest.mark.checks("ID", ...)`` (on the function, or on its class), which
    says that the test's assertions check the clause, or the clause is listed with at
    least one vector in the ``coverage`` of ``spec/vectors/index.json``: every vector is
    checked against the clause's own properties while its case runs
    (``tests/test_vectors.py::test_case``), and the committed vectors are compared byte
    for byte with the engine's output (``test_committed_copy_is_current``).
  - **cited**: no such check, but a test cites the id in its code: every string in it
    (docstring, messages, parameters of its decorators, the docstring of its class) and
    the strings of the module-level constants it names.
  - **untested**: neither; a problem, like a clause without an implementation tag.

  A clause that is not formalized has the status **not formalized**.  A ``checks``
  marker that names an id the spec does not define, or a clause that is not formalized,
  or that is not a string literal, or that decorates something that is not a test, is a
  problem too.
* ``proofs/**/*.md`` documents that cite a clause are listed beside it, for information.

*Cited* means the id occurs as a whole token: a maximal run of letters, digits, dots
and hyphens, with the dots and hyphens at its ends dropped (sentence punctuation, list
dashes).  So ``X-1`` is cited by "see X-1." and by "(X-1, X-2)", but not by a mention
of ``X-1-b``, ``PX-1`` or ``X-1.5``.  A ``checks`` marker names whole ids, one per
argument.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import attrs

SPEC = "spec"
PACKAGE = "hanabi_ref"
VECTOR_GENERATORS = ("hanabi_ref/tools/vectors/", "spec/vectors.md")
PROOFS = "proofs"
TEST_FILES = (("tests", "test_*.py"), (PROOFS, "check_*.py"))
PROOF_DOCUMENTS = (PROOFS, "*.md")
VECTOR_INDEX = "spec/vectors/index.json"
VECTOR_CHECKERS = ("tests/test_vectors.py::test_case", "tests/test_vectors.py::test_committed_copy_is_current")
CHECKS_MARKER = "checks"
CONTRACT_DECORATORS = frozenset({"require", "ensure", "invariant"})
STATE_MACHINE_STEPS = frozenset({"rule", "invariant", "initialize"})
SKIPPED_DIRECTORIES = frozenset({"__pycache__", ".mypy_cache", ".pytest_cache", ".hypothesis"})

MARKER_RE = re.compile(r"\*\*\[([^\]]*)\]\*\*")
HEADING_RE = re.compile(r"^(#{1,6})\s+(.*)$")
TOKEN_RE = re.compile(r"[A-Za-z0-9.\-]+")
FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
Definition = ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef


class CoverageInputError(Exception):
    """A project root the matrix cannot be computed from: no spec/ or an unreadable file
    (one line: what and where)."""


class CoverageParseError(CoverageInputError):
    """A Python file of the project that does not parse (one line: file and line)."""


@attrs.frozen
class Clause:
    """One clause of spec/: its id, where its marker is, whether it is formalized, and
    the text of its paragraph (for a clause that is not formalized: why)."""

    id: str
    spec: str
    line: int
    formalized: bool
    text: str


@attrs.frozen
class Citer:
    """A function, class or document and the whole tokens of what it cites; ``scope``,
    when set, is the one spec file whose clauses it may cite; ``checks``, for a test, the
    ids its ``checks`` markers name."""

    name: str
    tokens: frozenset[str]
    scope: str | None = None
    checks: frozenset[str] = frozenset()

    def cites(self, clause: Clause) -> bool:
        return clause.id in self.tokens and self.scope in (None, clause.spec)


TESTED = "tested"
CITED = "cited"
UNTESTED = "untested"
NOT_FORMALIZED = "not formalized"


@attrs.frozen
class Row:
    """One clause and what implements, checks, cites and proves it (names sorted;
    ``vectors``: how many conformance vectors the index lists for it)."""

    clause: Clause
    implemented_by: tuple[str, ...]
    checked_by: tuple[str, ...]
    cited_by: tuple[str, ...]
    proofs: tuple[str, ...]
    vectors: int = 0

    @property
    def status(self) -> str:
        """tested, cited, untested or not formalized [C-coverage]."""
        if not self.clause.formalized:
            return NOT_FORMALIZED
        if self.checked_by or self.vectors:
            return TESTED
        return CITED if self.cited_by else UNTESTED

    @property
    def problem(self) -> str | None:
        """Why the clause breaks C-coverage, or None when it does not."""
        where = f"{self.clause.id} ({self.clause.spec}:{self.clause.line})"
        if not self.clause.formalized:
            return None if self.clause.text else f"{where}: not formalized, but no reason is given"
        missing = []
        if not self.implemented_by:
            missing.append("no implementation tag in hanabi_ref/")
        if self.status == UNTESTED:
            missing.append("no test or proof check checks or cites it")
        return f"{where}: {' and '.join(missing)}" if missing else None


@attrs.frozen
class Matrix:
    """The coverage matrix: one row per clause, in the order of the spec files, and the
    problems of the ``checks`` markers (one line each)."""

    rows: tuple[Row, ...]
    marker_problems: tuple[str, ...] = ()

    def clause_problems(self) -> tuple[str, ...]:
        """One line per clause that breaks C-coverage."""
        return tuple(row.problem for row in self.rows if row.problem is not None)

    def problems(self) -> tuple[str, ...]:
        """One line per clause that breaks C-coverage, then one per wrong marker."""
        return self.clause_problems() + self.marker_problems

    def formalized(self) -> tuple[Row, ...]:
        return tuple(row for row in self.rows if row.clause.formalized)

    def count(self, status: str) -> int:
        return sum(1 for row in self.rows if row.status == status)

    def tested_fraction(self) -> float:
        """Share of formalized clauses that are tested."""
        rows = self.formalized()
        return self.count(TESTED) / len(rows) if rows else 1.0


# ------------------------------------------------------------------ tokens


def cited_tokens(text: str) -> frozenset[str]:
    """The whole tokens of ``text``: maximal runs of letters, digits, dots and hyphens,
    with the dots and hyphens at their ends dropped."""
    tokens = (match.group().strip(".-") for match in TOKEN_RE.finditer(text))
    return frozenset(token for token in tokens if token)


def is_cited(clause: str, text: str) -> bool:
    """Whether ``clause`` occurs in ``text`` as a whole token [C-coverage]."""
    return clause in cited_tokens(text)


# ------------------------------------------------------------------ spec/


def read_text(path: Path, root: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CoverageInputError(f"{_relative(path, root)}: cannot read: {error}") from None


def _relative(path: Path, root: Path) -> str:
    return path.relative_to(root).as_posix()


def files(root: Path, directory: str, pattern: str) -> list[Path]:
    """The files matching ``pattern`` below ``root/directory``, sorted, caches skipped."""
    base = root / directory
    found = (path for path in base.rglob(pattern) if path.is_file())
    return sorted(path for path in found if not SKIPPED_DIRECTORIES & set(path.relative_to(base).parts))


def parse_clauses(root: Path) -> tuple[Clause, ...]:
    """Every clause defined in spec/*.md, in file order then line order."""
    spec_files = sorted((root / SPEC).glob("*.md"))
    if not spec_files:
        raise CoverageInputError(f"{root / SPEC}: no spec/*.md here (is {root} a checkout of hanabi_ref?)")
    return tuple(clause for path in spec_files for clause in _clauses_of(path, root))


def _clauses_of(path: Path, root: Path) -> Iterator[Clause]:
    lines = read_text(path, root).splitlines()
    exempt_level: int | None = None
    for number, line in enumerate(lines, start=1):
        heading = HEADING_RE.match(line)
        if heading:
            level = len(heading.group(1))
            if exempt_level is not None and level <= exempt_level:
                exempt_level = None
            if exempt_level is None and "not formalized" in heading.group(2).lower():
                exempt_level = level
        for marker in MARKER_RE.finditer(line):
            text = _paragraph(lines, number - 1, marker.end())
            yield Clause(marker.group(1), _relative(path, root), number, exempt_level is None, text)


def _paragraph(lines: list[str], index: int, start: int) -> str:
    """The clause's text: the rest of its marker line and the lines below, up to a blank
    line, a heading or the next marker."""
    parts = [lines[index][start:].strip()]
    for line in lines[index + 1 :]:
        if not line.strip() or HEADING_RE.match(line) or MARKER_RE.search(line):
            break
        parts.append(line.strip())
    return " ".join(part for part in parts if part)


# ------------------------------------------------------------------ Python sources


def parse_python(path: Path, root: Path) -> ast.Module:
    source = read_text(path, root)
    try:
        return ast.parse(source, filename=str(path))
    except SyntaxError as error:
        raise CoverageParseError(f"{_relative(path, root)}:{error.lineno}: cannot parse: {error.msg}") from None


def definitions(body: Iterable[ast.stmt], prefix: str = "") -> Iterator[tuple[str, Definition]]:
    """(qualified name, node) of every function and class, nested ones included."""
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            name = f"{prefix}{node.name}"
            yield name, node
            yield from definitions(node.body, f"{name}.")


def decorator_name(node: ast.expr) -> str | None:
    """``icontract.ensure(...)``, ``ensure(...)``, ``rule()``, ``rule`` -> the last name."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def contract_message(node: ast.expr) -> str | None:
    """The literal message of an icontract require/ensure/invariant decorator."""
    if not isinstance(node, ast.Call) or decorator_name(node) not in CONTRACT_DECORATORS:
        return None
    keywords = [keyword.value for keyword in node.keywords if keyword.arg == "description"]
    candidates = keywords or node.args[1:2]
    for candidate in candidates:
        if isinstance(candidate, ast.Constant) and isinstance(candidate.value, str):
            return candidate.value
    return None


def implementation_text(node: Definition) -> str:
    """What a definition cites as its implementation tag: docstring and contract messages."""
    parts = [ast.get_docstring(node, clean=False) or ""]
    parts.extend(message for message in map(contract_message, node.decorator_list) if message)
    return "\n".join(parts)


def implementers(root: Path) -> tuple[Citer, ...]:
    """Every module, class and function of hanabi_ref/ with the tokens of its docstring
    and contract messages (the vector generators' limited to spec/vectors.md)."""
    found = []
    generators, generated = VECTOR_GENERATORS
    for path in files(root, PACKAGE, "*.py"):
        where = _relative(path, root)
        scope = generated if where.startswith(generators) else None
        tree = parse_python(path, root)
        found.append(Citer(where, cited_tokens(ast.get_docstring(tree, clean=False) or ""), scope))
        for name, node in definitions(tree.body):
            found.append(Citer(f"{where}::{name}", cited_tokens(implementation_text(node)), scope))
    return tuple(citer for citer in found if citer.tokens)


# ------------------------------------------------------------------ tests and checks


def strings(node: ast.AST) -> Iterator[str]:
    """Every string constant inside ``node`` (docstrings, messages, f-string parts)."""
    for child in ast.walk(node):
        if isinstance(child, ast.Constant) and isinstance(child.value, str):
            yield child.value


def module_constants(tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """The strings held by each module-level ``NAME = ...`` assignment."""
    constants: dict[str, tuple[str, ...]] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign):
            targets, value = statement.targets, statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            targets, value = [statement.target], statement.value
        else:
            continue
        for target in targets:
            if isinstance(target, ast.Name):
                constants[target.id] = tuple(strings(value))
    return constants


def code_text(node: Definition, constants: dict[str, tuple[str, ...]], context: str = "") -> str:
    """A test's code as text: its strings, those of the module constants it names, and
    ``context`` (its class's docstring and decorators)."""
    named = {child.id for child in ast.walk(node) if isinstance(child, ast.Name)}
    held = [text for name in sorted(named & constants.keys()) for text in constants[name]]
    return "\n".join([context, *strings(node), *held])


def is_state_machine_step(node: FunctionNode) -> bool:
    return any(decorator_name(decorator) in STATE_MACHINE_STEPS for decorator in node.decorator_list)


def tests_in(tree: ast.Module) -> Iterator[tuple[str, FunctionNode, str]]:
    """(name, node, context) of every test pytest or Hypothesis runs in a module."""
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name.startswith("test"):
            yield node.name, node, ""
        if not isinstance(node, ast.ClassDef):
            continue
        context = "\n".join([ast.get_docstring(node, clean=False) or "", *(t for d in node.decorator_list for t in strings(d))])
        for method in node.body:
            if not isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            if (node.name.startswith("Test") and method.name.startswith("test")) or is_state_machine_step(method):
                yield f"{node.name}.{method.name}", method, context


def is_checks_marker(node: ast.expr) -> bool:
    """``@pytest.mark.checks(...)`` or ``@mark.checks(...)``, called or not."""
    target = node.func if isinstance(node, ast.Call) else node
    return (
        isinstance(target, ast.Attribute) and target.attr == CHECKS_MARKER
        and isinstance(target.value, ast.Attribute | ast.Name)
        and (target.value.attr if isinstance(target.value, ast.Attribute) else target.value.id) == "mark"
    )


def marked_ids(decorators: Iterable[ast.expr]) -> tuple[frozenset[str], list[str]]:
    """The ids the ``checks`` markers among ``decorators`` name, and what is wrong with
    them (an argument that is not a string literal, a marker that names nothing)."""
    ids: set[str] = set()
    wrong: list[str] = []
    for decorator in decorators:
        if not is_checks_marker(decorator):
            continue
        arguments = decorator.args if isinstance(decorator, ast.Call) else []
        if not arguments or (isinstance(decorator, ast.Call) and decorator.keywords):
            wrong.append("a checks marker must name clause ids as its only arguments")
        for argument in arguments:
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                ids.add(argument.value)
            else:
                wrong.append(f"checks marker argument {ast.unparse(argument)} is not a string literal")
    return frozenset(ids), wrong


def _class_decorators(tree: ast.Module) -> dict[str, list[ast.expr]]:
    return {node.name: node.decorator_list for node in tree.body if isinstance(node, ast.ClassDef)}


def _stray_markers(tree: ast.Module, where: str, tests: set[str]) -> Iterator[str]:
    """A checks marker on a function or class that is not a test (nor holds one)."""
    for name, node in definitions(tree.body):
        holds_test = name in tests or any(test.startswith(f"{name}.") for test in tests)
        if not holds_test and any(map(is_checks_marker, node.decorator_list)):
            yield f"{where}::{name}: a checks marker on something that is not a test counts for nothing"


def testers(root: Path) -> tuple[tuple[Citer, ...], tuple[str, ...]]:
    """Every test of tests/ and every machine check of proofs/, with its tokens and the
    ids its checks markers (its own or its class's) name; and one line per wrong marker
    (``file::test: what``), clause ids not yet checked."""
    found, wrong = [], []
    for directory, pattern in TEST_FILES:
        for path in files(root, directory, pattern):
            tree = parse_python(path, root)
            constants, classes = module_constants(tree), _class_decorators(tree)
            where = _relative(path, root)
            names = set()
            for name, node, context in tests_in(tree):
                names.add(name)
                owner = name.split(".")[0] if "." in name else None
                decorators = [*node.decorator_list, *(classes.get(owner, []) if owner else [])]
                checks, problems = marked_ids(decorators)
                wrong += [f"{where}::{name}: {problem}" for problem in problems]
                found.append(Citer(f"{where}::{name}", cited_tokens(code_text(node, constants, context)), checks=checks))
            wrong += _stray_markers(tree, where, names)
    return tuple(found), tuple(wrong)


def vector_counts(root: Path) -> dict[str, int]:
    """Clause id -> number of conformance vectors the ``coverage`` of
    spec/vectors/index.json lists for it (all presets); empty without an index."""
    path = root / VECTOR_INDEX
    if not path.is_file():
        return {}
    try:
        coverage = json.loads(read_text(path, root))["coverage"]
        return {clause: sum(per_preset.values()) for clause, per_preset in coverage.items()}
    except (ValueError, KeyError, TypeError, AttributeError) as error:
        raise CoverageParseError(f"{VECTOR_INDEX}: not an index with a coverage object: {error}") from None


def proof_documents(root: Path) -> tuple[Citer, ...]:
    """Every proofs/**/*.md document with the tokens of its text."""
    directory, pattern = PROOF_DOCUMENTS
    return tuple(
        Citer(_relative(path, root), cited_tokens(read_text(path, root)))
        for path in files(root, directory, pattern)
    )


# ------------------------------------------------------------------ the matrix


def coverage_matrix(root: Path) -> Matrix:
    """The clause -> implementation -> checks and citations -> proofs matrix of the
    project at ``root`` [C-coverage]."""
    clauses = parse_clauses(root)
    code, proofs, vectors = implementers(root), proof_documents(root), vector_counts(root)
    tests, wrong = testers(root)

    by_token = {kind: _by_token(citers, "tokens") for kind, citers in (("code", code), ("tests", tests), ("proofs", proofs))}
    by_check = _by_token(tests, "checks")

    def citing(clause: Clause, kind: str) -> tuple[str, ...]:
        return tuple(sorted(citer.name for citer in by_token[kind].get(clause.id, ()) if citer.cites(clause)))

    def row(clause: Clause) -> Row:
        checked = tuple(sorted(t.name for t in by_check.get(clause.id, ()))) if clause.formalized else ()
        cited = tuple(name for name in citing(clause, "tests") if name not in checked)
        count = vectors.get(clause.id, 0) if clause.formalized else 0
        return Row(clause, citing(clause, "code"), checked, cited, citing(clause, "proofs"), count)

    return Matrix(tuple(map(row, clauses)), wrong + _marker_problems(clauses, tests))


def _by_token(citers: tuple[Citer, ...], field: str) -> dict[str, list[Citer]]:
    """The citers whose ``tokens`` (or ``checks``) hold each token: a clause's citers are
    then found without a pass over all of them."""
    index: dict[str, list[Citer]] = {}
    for citer in citers:
        for token in citer.tokens if field == "tokens" else citer.checks:
            index.setdefault(token, []).append(citer)
    return index


def _marker_problems(clauses: tuple[Clause, ...], tests: tuple[Citer, ...]) -> tuple[str, ...]:
    """One line per checks marker that names an undefined or a not formalized clause."""
    formalized = {clause.id: clause.formalized for clause in clauses}
    problems = []
    for test in tests:
        for clause in sorted(test.checks):
            if clause not in formalized:
                problems.append(f"{test.name}: checks marker names {clause}, which spec/ does not define")
            elif not formalized[clause]:
                problems.append(f"{test.name}: checks marker names {clause}, which is not formalized")
    return tuple(problems)


# ------------------------------------------------------------------ docs/coverage.md

MATRIX_PAGE = "docs/coverage.md"
WRITE_COMMAND = f"hanabi-ref spec coverage --write {MATRIX_PAGE}"


def _cell(names: tuple[str, ...]) -> str:
    """Names grouped by file: ``file``: a, b<br>``other``: c."""
    groups: dict[str, list[str]] = {}
    for name in names:
        path, _, inside = name.partition("::")
        groups.setdefault(path, [])
        if inside:
            groups[path].append(inside)
    parts = [f"`{path}`" + (f": {', '.join(inner)}" if inner else "") for path, inner in groups.items()]
    return "<br>".join(parts) if parts else "—"


def _escape(text: str) -> str:
    return text.replace("|", "\\|")


def _spec_link(spec: str) -> str:
    return f"[{Path(spec).name}](../{spec})"


def summary(matrix: Matrix) -> str:
    """One line: the counts of each status, tested also as a share of the formalized."""
    return (
        f"{len(matrix.rows)} clauses: {len(matrix.formalized())} formalized, "
        f"{matrix.count(TESTED)} tested ({100 * matrix.tested_fraction():.1f} % of formalized), "
        f"{matrix.count(CITED)} cited only, {matrix.count(UNTESTED)} untested; "
        f"{matrix.count(NOT_FORMALIZED)} not formalized"
    )


def _checked_cell(row: Row) -> str:
    """The checks markers, then the vectors (how many) with their checker."""
    cell = _cell(row.checked_by)
    if not row.vectors:
        return cell
    vectors = f"`{VECTOR_INDEX.rsplit('/', 1)[0]}/`: {row.vectors} vector{'s' if row.vectors > 1 else ''}"
    return vectors if cell == "—" else f"{cell}<br>{vectors}"


def render(matrix: Matrix) -> str:
    """The matrix as the markdown page docs/coverage.md (deterministic: spec order, sorted
    names, no dates)."""
    case, committed = VECTOR_CHECKERS
    lines = [
        "# Spec coverage",
        "",
        f"Generated from the code by `{WRITE_COMMAND}`; do not edit by hand.",
        "`tests/test_spec_coverage.py` fails when this page is out of date, when a formalized",
        "clause has no implementation tag or is untested, when a `checks` marker names an id",
        "the spec does not define (or one that is not formalized), when code cites an id the",
        "spec does not define, and when fewer than 95 % of the formalized clauses are tested.",
        "What counts (clause C-coverage of [spec/rules.md](../spec/rules.md)):",
        "",
        "* **implemented by**: a module, class or function of `hanabi_ref/` whose docstring or",
        "  icontract message cites the clause (the vector generators `hanabi_ref/tools/vectors/` only",
        "  for the clauses of `spec/vectors.md`);",
        "* **checked by** (status **tested**): a test decorated with",
        "  `@pytest.mark.checks(\"ID\", ...)`, which says that its assertions fail when the clause",
        "  is broken: a test function in `tests/` (also a Hypothesis state machine's rule or",
        "  invariant) or in a proof's machine check `proofs/check_*.py`; or the conformance",
        f"  vectors that `{VECTOR_INDEX}` lists for the clause: each vector is checked against",
        f"  the clause's own properties as its case runs (`{case}`), and",
        f"  the committed vectors must equal the engine's output byte for byte (`{committed}`);",
        "* **cited by** (status **cited** when nothing checks the clause): a test whose code",
        "  mentions the id without a `checks` marker for it; a citation is not evidence that the",
        "  test fails when the clause is broken; comments, markdown and JSON do not count;",
        "* **untested**: neither checked nor cited;",
        "* **proofs**: documents in `proofs/` that mention it, for information.",
        "",
        f"{summary(matrix)}.",
        "",
        "## Formalized clauses",
        "",
        "| clause | spec | status | implemented by | checked by | cited by | proofs |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in matrix.formalized():
        cells = (
            row.clause.id, _spec_link(row.clause.spec), row.status, _cell(row.implemented_by),
            _checked_cell(row), _cell(row.cited_by), _cell(row.proofs),
        )
        lines.append("| " + " | ".join(cells) + " |")
    lines += ["", "## Not formalized", "", "| clause | spec | why |", "|---|---|---|"]
    for row in matrix.rows:
        if not row.clause.formalized:
            lines.append(f"| {row.clause.id} | {_spec_link(row.clause.spec)} | {_escape(row.clause.text)} |")
    return "\n".join(lines) + "\n"


def is_up_to_date(matrix: Matrix, page: Path) -> bool:
    """Whether ``page`` holds exactly what :func:`render` writes."""
    try:
        return page.read_text(encoding="utf-8") == render(matrix)
    except (OSError, UnicodeDecodeError):
        return False


# ------------------------------------------------------------------ the command


def run_command(root: Path, write: Path | None, check: Path | None) -> tuple[int, list[str], list[str]]:
    """``hanabi-ref spec coverage`` [C-coverage]: (exit code, lines for stdout, lines for
    stderr).  Without ``write`` or ``check`` the page is printed, its counts line included.
    Exit 1 names each clause that breaks C-coverage and each wrong ``checks`` marker on its
    own line, or says that ``check`` is out of date.
    Raises CoverageInputError (a usage error) or CoverageParseError (invalid input)."""
    matrix = coverage_matrix(root)
    out: list[str] = []
    errors = [f"uncovered clause: {problem}" for problem in matrix.clause_problems()]
    errors += [f"wrong checks marker: {problem}" for problem in matrix.marker_problems]
    if write is not None:
        try:
            write.parent.mkdir(parents=True, exist_ok=True)
            write.write_text(render(matrix), encoding="utf-8")
        except OSError as error:
            raise CoverageInputError(f"{write}: cannot write: {error.strerror or error}") from None
        out.append(f"wrote {write}: {summary(matrix)}")
    if check is not None:
        if is_up_to_date(matrix, check):
            out.append(f"{check} is up to date: {summary(matrix)}")
        else:
            errors.append(f"{check}: out of date with the code; run {WRITE_COMMAND}")
    if write is None and check is None:
        out.append(render(matrix).rstrip("\n"))
    return (1 if errors else 0), out, errors
