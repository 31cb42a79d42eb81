"""Semantic spec coverage: for every clause of ``spec/``, the code that implements it and
the tests that check it [C-coverage].

The matrix is computed from a project root (a checkout: ``spec/``, ``hanabi_ref/``,
``tests/``, ``proofs/``) by reading the Python sources with :mod:`ast`, never by
searching their text, so comments never count.

* A clause is *defined* by a bold marker ``**[ID]**`` in ``spec/*.md``; ids mentioned in
  running text define nothing.  A clause under a heading that says "Not formalized" (down
  to the next heading of the same or a higher level) is exempt; the paragraph after its
  marker must say why.
* A clause is *implemented* by a module, class, function or method of ``hanabi_ref/``
  whose docstring, or the message of one of its icontract ``require`` / ``ensure`` /
  ``invariant`` decorators, cites it.  The vector generators (``hanabi_ref/vectors/``)
  restate the rules to write test data: they implement the clauses of
  ``spec/vectors.md`` (the vectors' own format) and no other.
* A clause is *tested* by a test function whose code cites it: a ``test_*`` function or a
  ``test_*`` method of a ``Test*`` class in ``tests/**/test_*.py``, a rule, invariant or
  initialize step of a Hypothesis state machine there, or a test of a proof's machine
  check ``proofs/**/check_*.py`` (chosen the same way).  A helper the tests call does
  not count: its docstring says what it computes, not that a test checks the clause.  Its code means every string in it
  (docstring, messages, parameters of its decorators, the docstring of its class) and
  the strings of the module-level constants it names.
* ``proofs/**/*.md`` documents that cite a clause are listed beside it, for information.

*Cited* means the id occurs as a whole token: a maximal run of letters, digits, dots
and hyphens, with the dots and hyphens at its ends dropped (sentence punctuation, list
dashes).  So ``X-1`` is cited by "see X-1." and by "(X-1, X-2)", but not by a mention
of ``X-1-b``, ``PX-1`` or ``X-1.5``.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

import attrs

SPEC = "spec"
PACKAGE = "hanabi_ref"
VECTOR_GENERATORS = ("hanabi_ref/vectors/", "spec/vectors.md")
PROOFS = "proofs"
TEST_FILES = (("tests", "test_*.py"), (PROOFS, "check_*.py"))
PROOF_DOCUMENTS = (PROOFS, "*.md")
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
    when set, is the one spec file whose clauses it may cite."""

    name: str
    tokens: frozenset[str]
    scope: str | None = None

    def cites(self, clause: Clause) -> bool:
        return clause.id in self.tokens and self.scope in (None, clause.spec)


@attrs.frozen
class Row:
    """One clause and what implements, tests and proves it (names sorted)."""

    clause: Clause
    implemented_by: tuple[str, ...]
    tested_by: tuple[str, ...]
    proofs: tuple[str, ...]

    @property
    def problem(self) -> str | None:
        """Why the clause breaks C-coverage, or None when it does not."""
        where = f"{self.clause.id} ({self.clause.spec}:{self.clause.line})"
        if not self.clause.formalized:
            return None if self.clause.text else f"{where}: not formalized, but no reason is given"
        missing = []
        if not self.implemented_by:
            missing.append("no implementation tag in hanabi_ref/")
        if not self.tested_by:
            missing.append("no test or proof check cites it")
        return f"{where}: {' and '.join(missing)}" if missing else None


@attrs.frozen
class Matrix:
    """The coverage matrix: one row per clause, in the order of the spec files."""

    rows: tuple[Row, ...]

    def problems(self) -> tuple[str, ...]:
        """One line per clause that breaks C-coverage."""
        return tuple(row.problem for row in self.rows if row.problem is not None)

    def formalized(self) -> tuple[Row, ...]:
        return tuple(row for row in self.rows if row.clause.formalized)

    def covered_fraction(self) -> float:
        """Share of formalized clauses with an implementation tag and a test citation."""
        rows = self.formalized()
        covered = sum(1 for row in rows if row.problem is None)
        return covered / len(rows) if rows else 1.0


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


def testers(root: Path) -> tuple[Citer, ...]:
    """Every test of tests/ and every machine check of proofs/, with its tokens."""
    found = []
    for directory, pattern in TEST_FILES:
        for path in files(root, directory, pattern):
            tree = parse_python(path, root)
            constants = module_constants(tree)
            where = _relative(path, root)
            for name, node, context in tests_in(tree):
                found.append(Citer(f"{where}::{name}", cited_tokens(code_text(node, constants, context))))
    return tuple(found)


def proof_documents(root: Path) -> tuple[Citer, ...]:
    """Every proofs/**/*.md document with the tokens of its text."""
    directory, pattern = PROOF_DOCUMENTS
    return tuple(
        Citer(_relative(path, root), cited_tokens(read_text(path, root)))
        for path in files(root, directory, pattern)
    )


# ------------------------------------------------------------------ the matrix


def coverage_matrix(root: Path) -> Matrix:
    """The clause -> implementation -> tests -> proofs matrix of the project at ``root``
    [C-coverage]."""
    clauses = parse_clauses(root)
    code, tests, proofs = implementers(root), testers(root), proof_documents(root)

    def citing(clause: Clause, citers: tuple[Citer, ...]) -> tuple[str, ...]:
        return tuple(sorted(citer.name for citer in citers if citer.cites(clause)))

    return Matrix(tuple(Row(c, citing(c, code), citing(c, tests), citing(c, proofs)) for c in clauses))


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
    """One line: clauses, formalized ones covered, not formalized ones."""
    formalized = matrix.formalized()
    covered = sum(1 for row in formalized if row.problem is None)
    exempt = len(matrix.rows) - len(formalized)
    return (
        f"{len(matrix.rows)} clauses: {covered} of {len(formalized)} formalized clauses "
        f"({100 * matrix.covered_fraction():.1f} %) have an implementation tag and a test citation; "
        f"{exempt} not formalized"
    )


def render(matrix: Matrix) -> str:
    """The matrix as the markdown page docs/coverage.md (deterministic: spec order, sorted
    names, no dates)."""
    lines = [
        "# Spec coverage",
        "",
        f"Generated from the code by `{WRITE_COMMAND}`; do not edit by hand.",
        "`tests/test_spec_coverage.py` fails when this page is out of date, when a formalized",
        "clause has no implementation tag or no test citation, and when code cites an id the",
        "spec does not define. What counts (clause C-coverage of [spec/rules.md](../spec/rules.md)):",
        "",
        "* **implemented by**: a module, class or function of `hanabi_ref/` whose docstring or",
        "  icontract message cites the clause (the vector generators `hanabi_ref/vectors/` only",
        "  for the clauses of `spec/vectors.md`);",
        "* **tested by**: a test function in `tests/` (also a Hypothesis state machine's rule or",
        "  invariant) or in a proof's machine check `proofs/check_*.py` whose code cites it;",
        "  comments, markdown and JSON do not count;",
        "* **proofs**: documents in `proofs/` that mention it, for information.",
        "",
        f"{summary(matrix)}.",
        "",
        "## Formalized clauses",
        "",
        "| clause | spec | implemented by | tested by | proofs |",
        "|---|---|---|---|---|",
    ]
    for row in matrix.formalized():
        cells = (row.clause.id, _spec_link(row.clause.spec), _cell(row.implemented_by), _cell(row.tested_by), _cell(row.proofs))
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
    stderr).  Without ``write`` or ``check`` the page is printed.  Exit 1 names each
    clause that breaks C-coverage on its own line, or says that ``check`` is out of date.
    Raises CoverageInputError (a usage error) or CoverageParseError (invalid input)."""
    matrix = coverage_matrix(root)
    out: list[str] = []
    errors = [f"uncovered clause: {problem}" for problem in matrix.problems()]
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
