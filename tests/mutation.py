"""Mutation testing of the engine and its contracts: does a wrong engine fail the tests?

Run from the repository root, alone (it uses one core; prefix ``nice -n 10`` on a
shared machine)::

    python -m tests.mutation                                 # every mutant of the six modules
    python -m tests.mutation --module conditions --module transition
    python -m tests.mutation --limit 60                      # 60 mutants per module, evenly spaced
    python -m tests.mutation --list                          # the mutants only, nothing run
    python -m tests.mutation --only hanabi_ref/engine/state.py:77:15:1 --report /tmp/m

Modules (default): ``transition``, ``fastpath``, ``legality``, ``state``, ``view``, ``conditions``.
Each mutant is one small change to one module's source (the operators are listed in
:data:`OPERATORS`).  The runner copies ``hanabi_ref/``, ``tests/``, ``spec/`` and
``pyproject.toml`` into a temporary directory once, and never touches the working tree:
for each mutant it writes the mutated module into the copy and runs the test subset
(:data:`DEFAULT_TESTS`, ``-x``, contracts on, Hypothesis derandomized and without its
example database) in a subprocess whose ``hanabi_ref`` is the copy's.  The mutant is
*killed* if the tests fail (or cannot even be collected), *survives* if they pass, and
*times out* past ``--timeout`` seconds (default: four times the unmutated run, at least
60), which counts as killed.  The order of the mutants and the sample ``--limit`` takes
(every (total/N)-th mutant of a module) are fixed, so two runs of the same sources give
the same table.

Run time: the unmutated subset takes about 17 s; a mutant about 1.5 s when the first
file kills it, up to the full 17 s when it survives.  The six modules hold 1,168
mutants (``--list``: conditions 421, transition 245, state 207, view 152, legality 141,
fastpath 2); a full run of the 880 they held before the configuration's tables and the
typed ids took 42 minutes on one core of a shared machine, and ``--limit 40`` (200
mutants) took about 10 minutes.

The report (``--report PREFIX``, default ``<tmp>/hanabi_ref_mutation``) is written after
every mutant: ``PREFIX.json`` (every mutant and its outcome, the summary) and
``PREFIX.txt`` (per module: mutants, killed, survived, timeouts, errors, kill rate; the
contract mutants alone; every survivor as file:line:col and the change).  A *contract
mutant* lies in :mod:`hanabi_ref.engine.conditions`, in a state invariant or view condition, in
an icontract decorator, or under ``if ENABLED:``.

Exit codes: 0 the run finished (survivors are reported, not failures); 1 the tests fail
on the unmutated sources, or a mutant's run could not be judged (pytest usage error);
2 a usage error.  tests/test_mutation.py checks the runner on a tiny module.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from tests.processes import run_process, started

ROOT = Path(__file__).resolve().parents[1]

DEFAULT_MODULES: tuple[str, ...] = (
    "hanabi_ref/engine/conditions.py",
    "hanabi_ref/engine/transition.py",
    "hanabi_ref/engine/fastpath.py",
    "hanabi_ref/engine/state.py",
    "hanabi_ref/engine/legality.py",
    "hanabi_ref/engine/view.py",
)

DEFAULT_TESTS: tuple[str, ...] = (
    "tests/test_conditions.py",
    "tests/test_mutation_killers.py",
    "tests/test_transitions.py",
    "tests/test_state.py",
    "tests/test_legality.py",
    "tests/test_views.py",
    "tests/test_errors_both_ways.py",
    "tests/test_thesis_examples.py",
    "tests/test_algorithm.py",
    "tests/test_vectors.py",
    "tests/test_properties.py",
)
"""The subset each mutant is judged by: fast files first (``-x`` stops at the first
failure), the deep set excluded by pyproject's ``-m 'not deep'``."""

COPIED: tuple[str, ...] = ("hanabi_ref", "tests", "spec", "pyproject.toml")

CONTRACT_FUNCTIONS: dict[str, frozenset[str]] = {
    "hanabi_ref/engine/state.py": frozenset({
        "is_cards_conserved", "is_fields_gapless", "is_hand_size_valid",
        "is_knowledge_sound", "is_errors_within_bound", "check_invariants",
    }),
    "hanabi_ref/engine/view.py": frozenset({
        "_hides_own_cards", "_carries_no_hidden_field", "_shows_stack_size_only", "check_view",
        "_check_acting",
    }),
}
"""Functions, besides all of conditions.py, whose mutants are contract mutants."""

OPERATORS: dict[str, str] = {
    "compare": "a comparison's operator replaced (< by <= and >=, == by !=, is by is not, in by not in, ...)",
    "arith": "an arithmetic or bitwise operator replaced (+ by -, * by //, % by //, | by &, << by >>, ...)",
    "augassign": "an augmented assignment's operator replaced (+= by -=, ...)",
    "constant": "an integer constant n replaced by n + 1 and n - 1",
    "boolop": "and replaced by or, or by and",
    "not": "not x replaced by x (and ~x by x)",
    "bool": "True replaced by False, False by True",
    "return": "return e in a predicate (-> bool) replaced by return True and return False",
    "contract": "the condition of an icontract decorator replaced by True",
    "branch": "if c: replaced by if False: (the branch removed)",
    "statement": "a statement with an effect (x.a = ..., x[i] = ..., x += ..., a call, raise) replaced by pass",
    "slice": "a slice bound e that is a name, attribute or call replaced by e + 1 and e - 1 (constant bounds: see constant)",
}

_COMPARE_SWAPS: dict[type, tuple[type, ...]] = {
    ast.Lt: (ast.LtE, ast.GtE), ast.LtE: (ast.Lt, ast.Gt), ast.Gt: (ast.GtE, ast.LtE),
    ast.GtE: (ast.Gt, ast.Lt), ast.Eq: (ast.NotEq,), ast.NotEq: (ast.Eq,),
    ast.Is: (ast.IsNot,), ast.IsNot: (ast.Is,), ast.In: (ast.NotIn,), ast.NotIn: (ast.In,),
}
_ARITH_SWAPS: dict[type, type] = {
    ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.FloorDiv, ast.FloorDiv: ast.Mult,
    ast.Mod: ast.FloorDiv, ast.BitOr: ast.BitAnd, ast.BitAnd: ast.BitOr,
    ast.LShift: ast.RShift, ast.RShift: ast.LShift,
}

# Written into the copy and loaded with -p: a deterministic Hypothesis, no example
# database (a failure found for one mutant must not be replayed for the next), and no
# deadline (a loaded machine must not kill a mutant).
_PLUGIN_NAME = "_mutation_profile"
_PLUGIN_SOURCE = '''"""Hypothesis settings for mutation runs (written by tests/mutation.py)."""


def pytest_configure(config):
    try:
        from hypothesis import settings
    except ImportError:
        return
    settings.register_profile("mutation", derandomize=True, database=None, deadline=None)
    settings.load_profile("mutation")
'''


# ------------------------------------------------------------ mutants


@dataclass(frozen=True)
class Mutant:
    """One change to one module: bytes ``start:end`` of its source become ``replacement``."""

    path: str
    line: int
    column: int
    index: int
    operator: str
    description: str
    scope: str
    contract: bool
    start: int
    end: int
    replacement: str

    @property
    def ident(self) -> str:
        """``path:line:column:index``, stable while the module does not change."""
        return f"{self.path}:{self.line}:{self.column}:{self.index}"

    def apply(self, source: bytes) -> bytes:
        """The mutated module's source."""
        return source[: self.start] + self.replacement.encode() + source[self.end :]


@dataclass
class _Edit:
    node: ast.expr | ast.stmt
    operator: str
    replacement: str
    before: str
    after: str


def _unparse(node: ast.AST) -> str:
    return ast.unparse(node)


def _short(text: str, limit: int = 70) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _with(node: ast.AST, **changes: object) -> ast.AST:
    """A shallow copy of ``node`` with ``changes``."""
    copy = type(node)(**{name: getattr(node, name) for name in node._fields})
    for name, value in changes.items():
        setattr(copy, name, value)
    return copy


def _is_predicate(function: ast.FunctionDef) -> bool:
    returns = function.returns
    return returns is not None and _unparse(returns) == "bool"


def _is_docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, str)


def _is_enabled_test(node: ast.If) -> bool:
    return isinstance(node.test, ast.Name) and node.test.id == "ENABLED"


def _has_effect(statement: ast.stmt) -> bool:
    """Statements whose removal leaves a valid program: they bind no new name."""
    if isinstance(statement, (ast.AugAssign, ast.Raise)):
        return True
    if isinstance(statement, ast.Assign):
        return all(isinstance(target, (ast.Attribute, ast.Subscript)) for target in statement.targets)
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)


class _Collector(ast.NodeVisitor):
    """Every mutation point of a module, with its enclosing function and whether it is a
    contract's."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.edits: list[tuple[_Edit, str, bool]] = []
        self.scope: list[str] = []
        self.contract_depth = 0
        self.predicate: list[bool] = []

    # where we are
    def _contract(self) -> bool:
        if self.path.endswith("conditions.py") or self.contract_depth > 0:
            return True
        names = CONTRACT_FUNCTIONS.get(self.path, frozenset())
        return any(name in names for name in self.scope)

    def _add(self, node: ast.expr | ast.stmt, operator: str, replacement: str, before: str, after: str) -> None:
        scope = ".".join(self.scope) or "<module>"
        self.edits.append((_Edit(node, operator, replacement, before, after), scope, self._contract()))

    def _expression(self, node: ast.expr, new: ast.expr, operator: str) -> None:
        text = _unparse(new)
        self._add(node, operator, f"({text})", _unparse(node), text)

    # what we skip: docstrings, f-strings (messages), annotations, imports, TYPE_CHECKING
    def visit_JoinedStr(self, node: ast.JoinedStr) -> None:
        return

    def visit_Import(self, node: ast.Import) -> None:
        return

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        return

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.value)

    def visit_arg(self, node: ast.arg) -> None:
        return

    def _body(self, statements: Sequence[ast.stmt]) -> None:
        for statement in statements:
            if _is_docstring(statement):
                continue
            if _has_effect(statement):
                self._add(statement, "statement", "pass", _unparse(statement), "pass")
            self.visit(statement)

    def visit_Module(self, node: ast.Module) -> None:
        for statement in node.body:
            if isinstance(statement, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id in {"__all__", "__slots__"} for target in statement.targets
            ):
                continue
            if not _is_docstring(statement):
                self.visit(statement)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self.scope.append(node.name)
        self._decorators(node.decorator_list)
        for statement in node.body:
            if isinstance(statement, ast.Assign) and any(
                isinstance(target, ast.Name) and target.id == "__slots__" for target in statement.targets
            ):
                continue
            if not _is_docstring(statement):
                self.visit(statement)
        self.scope.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        for default in node.args.defaults + [d for d in node.args.kw_defaults if d is not None]:
            self.visit(default)
        self.scope.append(node.name)
        self._decorators(node.decorator_list)
        self.predicate.append(_is_predicate(node))
        self._body(node.body)
        self.predicate.pop()
        self.scope.pop()

    def _decorators(self, decorators: Sequence[ast.expr]) -> None:
        for decorator in decorators:
            if isinstance(decorator, ast.Call) and _unparse(decorator.func).startswith("icontract."):
                self.contract_depth += 1
                for argument in decorator.args:
                    if isinstance(argument, ast.Lambda):
                        self._add(argument.body, "contract", "(True)", _unparse(argument.body), "True")
                    self.visit(argument)
                self.contract_depth -= 1
            else:
                self.visit(decorator)

    def visit_If(self, node: ast.If) -> None:
        if isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            return
        enabled = _is_enabled_test(node)
        if not enabled:
            self._add(node.test, "branch", "False", _unparse(node.test), "False")
            self.visit(node.test)
        self.contract_depth += enabled
        self._body(node.body)
        self.contract_depth -= enabled
        self._body(node.orelse)

    def visit_For(self, node: ast.For) -> None:
        self.visit(node.iter)
        self._body(node.body)
        self._body(node.orelse)

    def visit_While(self, node: ast.While) -> None:
        self.visit(node.test)
        self._body(node.body)
        self._body(node.orelse)

    def visit_With(self, node: ast.With) -> None:
        for item in node.items:
            self.visit(item.context_expr)
        self._body(node.body)

    def visit_Try(self, node: ast.Try) -> None:
        self._body(node.body)
        for handler in node.handlers:
            self._body(handler.body)
        self._body(node.orelse)
        self._body(node.finalbody)

    def visit_Return(self, node: ast.Return) -> None:
        value = node.value
        if value is not None and self.predicate and self.predicate[-1]:
            for constant in ("True", "False"):
                if not (isinstance(value, ast.Constant) and repr(value.value) == constant):
                    self._add(value, "return", constant, _unparse(value), constant)
        if value is not None:
            self.visit(value)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        swap = _ARITH_SWAPS.get(type(node.op))
        if swap is not None:
            new = _with(node, op=swap())
            text = _unparse(new)
            self._add(node, "augassign", text, _unparse(node), text)
        self.visit(node.value)
        self.visit(node.target)

    def visit_Compare(self, node: ast.Compare) -> None:
        for position, op in enumerate(node.ops):
            for swap in _COMPARE_SWAPS.get(type(op), ()):
                ops = list(node.ops)
                ops[position] = swap()
                self._expression(node, _with(node, ops=ops), "compare")  # type: ignore[arg-type]
        self.generic_visit(node)

    def visit_BinOp(self, node: ast.BinOp) -> None:
        swap = _ARITH_SWAPS.get(type(node.op))
        if swap is not None:
            self._expression(node, _with(node, op=swap()), "arith")  # type: ignore[arg-type]
        self.generic_visit(node)

    def visit_BoolOp(self, node: ast.BoolOp) -> None:
        other = ast.Or() if isinstance(node.op, ast.And) else ast.And()
        self._expression(node, _with(node, op=other), "boolop")  # type: ignore[arg-type]
        self.generic_visit(node)

    def visit_UnaryOp(self, node: ast.UnaryOp) -> None:
        if isinstance(node.op, (ast.Not, ast.Invert)):
            self._expression(node, node.operand, "not")
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        value = node.value
        if isinstance(value, bool):
            self._add(node, "bool", repr(not value), repr(value), repr(not value))
        elif isinstance(value, int):
            for changed in (value + 1, value - 1):
                self._add(node, "constant", f"({changed})", repr(value), repr(changed))

    def visit_Slice(self, node: ast.Slice) -> None:
        for bound in (node.lower, node.upper):
            if isinstance(bound, (ast.Name, ast.Attribute, ast.Call)):
                for sign in ("+", "-"):
                    text = f"{_unparse(bound)} {sign} 1"
                    self._add(bound, "slice", f"({text})", _unparse(bound), text)
        self.generic_visit(node)


def _offsets(source: bytes) -> list[int]:
    """The byte offset of each line's start (line numbers count from 1)."""
    starts = [0, 0]
    for position, byte in enumerate(source):
        if byte == 0x0A:
            starts.append(position + 1)
    return starts


def mutants_of(path: str, source: bytes) -> list[Mutant]:
    """Every mutant of one module, in source order; each parses, differs from the
    original and from every earlier mutant."""
    tree = ast.parse(source)
    collector = _Collector(path)
    collector.visit(tree)
    starts = _offsets(source)
    original = ast.dump(tree)
    seen: set[bytes] = set()
    mutants: list[Mutant] = []
    per_location: dict[tuple[int, int], int] = {}
    ordered = sorted(enumerate(collector.edits), key=lambda item: (item[1][0].node.lineno, item[1][0].node.col_offset, item[0]))
    for _, (edit, scope, contract) in ordered:
        node = edit.node
        start = starts[node.lineno] + node.col_offset
        end = starts[node.end_lineno or node.lineno] + (node.end_col_offset or 0)
        mutated = source[:start] + edit.replacement.encode() + source[end:]
        try:
            changed = ast.dump(ast.parse(mutated)) != original
        except SyntaxError:
            continue
        if not changed or mutated in seen:
            continue
        seen.add(mutated)
        location = (node.lineno, node.col_offset)
        index = per_location.get(location, 0)
        per_location[location] = index + 1
        description = f"{_short(edit.before)} -> {_short(edit.after)}"
        mutants.append(Mutant(path, node.lineno, node.col_offset, index, edit.operator, description, scope, contract, start, end, edit.replacement))
    return mutants


def sample(mutants: Sequence[Mutant], limit: int | None) -> list[Mutant]:
    """At most ``limit`` mutants, evenly spaced over the list (all of them if None)."""
    if limit is None or limit >= len(mutants):
        return list(mutants)
    return [mutants[index * len(mutants) // limit] for index in range(limit)]


# ------------------------------------------------------------ running


@dataclass
class Outcome:
    """What the tests said about one mutant (or the unmutated sources)."""

    status: str  # killed, survived, timeout, error
    seconds: float
    detail: str = ""


@dataclass
class Sandbox:
    """A copy of the project in which mutants are written and tested."""

    root: Path
    tests: tuple[str, ...]
    timeout: float = 600.0
    originals: dict[str, bytes] = field(default_factory=dict)

    def source(self, path: str) -> bytes:
        if path not in self.originals:
            self.originals[path] = (self.root / path).read_bytes()
        return self.originals[path]

    def run(self, mutant: Mutant | None = None) -> Outcome:
        """Run the tests with ``mutant`` written into the copy (the copy as it is if None)."""
        if mutant is None:
            return self._pytest()
        target = self.root / mutant.path
        original = self.source(mutant.path)
        _remove_bytecode(target)
        target.write_bytes(mutant.apply(original))
        try:
            return self._pytest()
        finally:
            target.write_bytes(original)

    def _pytest(self) -> Outcome:
        shutil.rmtree(self.root / ".hypothesis", ignore_errors=True)
        command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", "-p", _PLUGIN_NAME, *self.tests]
        began = time.monotonic()
        with started(command, cwd=self.root, env=_environment(self.root), stdout=subprocess.PIPE,
                     stderr=subprocess.STDOUT) as process:  # its whole session is ended on the way out
            try:
                output, _ = process.communicate(timeout=self.timeout)
            except subprocess.TimeoutExpired:
                return Outcome("timeout", time.monotonic() - began, f"no result after {self.timeout:.0f} s")
        seconds = time.monotonic() - began
        text = output.decode(errors="replace")
        if process.returncode == 0:
            return Outcome("survived", seconds)
        if process.returncode in (1, 2, 3):
            return Outcome("killed", seconds, _first_failure(text))
        return Outcome("error", seconds, f"pytest exit code {process.returncode}: {_short(text[-300:], 300)}")


def _environment(root: Path) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in {"HANABI_REF_COMPILED", "PYTHONSTARTUP"}}
    env.update(PYTHONPATH=str(root), HANABI_REF_CONTRACTS="1", PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0")
    return env


def _first_failure(text: str) -> str:
    for line in text.splitlines():
        if line.startswith(("FAILED ", "ERROR ")):
            return _short(line, 160)
    lines = [line for line in text.splitlines() if line.strip()]
    return _short(lines[-1], 160) if lines else ""


def _remove_bytecode(module: Path) -> None:
    for cached in (module.parent / "__pycache__").glob(f"{module.stem}.*.pyc"):
        cached.unlink()


def make_sandbox(source_root: Path, entries: Sequence[str], tests: Sequence[str], directory: Path) -> Sandbox:
    """Copy ``entries`` of ``source_root`` into ``directory``, compile them, add the
    Hypothesis profile plugin."""
    for entry in entries:
        origin = source_root / entry
        if origin.is_dir():
            shutil.copytree(origin, directory / entry, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".hypothesis"))
        elif origin.exists():
            shutil.copy2(origin, directory / entry)
    (directory / f"{_PLUGIN_NAME}.py").write_text(_PLUGIN_SOURCE)
    run_process([sys.executable, "-m", "compileall", "-q", str(directory)], check=False, stdout=subprocess.DEVNULL)
    return Sandbox(directory, tuple(tests))


# ------------------------------------------------------------ the report


def summarise(results: Sequence[tuple[Mutant, Outcome]]) -> dict[str, dict[str, float]]:
    """Per module, for the contract mutants and in total: mutants, killed, survived,
    timeouts, errors and the kill rate ((killed + timeouts) / judged mutants)."""
    groups: dict[str, list[Outcome]] = {}
    for mutant, outcome in results:
        groups.setdefault(mutant.path, []).append(outcome)
        if mutant.contract:
            groups.setdefault("contract mutants", []).append(outcome)
        groups.setdefault("total", []).append(outcome)
    table: dict[str, dict[str, float]] = {}
    for name, outcomes in groups.items():
        counts = {status: sum(o.status == status for o in outcomes) for status in ("killed", "survived", "timeout", "error")}
        judged = len(outcomes) - counts["error"]
        rate = (counts["killed"] + counts["timeout"]) / judged if judged else 0.0
        table[name] = {"mutants": len(outcomes), **counts, "kill_rate": round(100 * rate, 1)}
    return table


def render(table: dict[str, dict[str, float]], results: Sequence[tuple[Mutant, Outcome]]) -> str:
    """The text report: the table, then every survivor."""
    lines = [f"{'module':32} {'mutants':>7} {'killed':>7} {'survived':>8} {'timeouts':>8} {'errors':>6} {'kill rate':>9}"]
    for name, row in sorted(table.items(), key=lambda item: (item[0] in {"contract mutants", "total"}, item[0])):
        lines.append(
            f"{name:32} {row['mutants']:7.0f} {row['killed']:7.0f} {row['survived']:8.0f} "
            f"{row['timeout']:8.0f} {row['error']:6.0f} {row['kill_rate']:8.1f}%"
        )
    survivors = [(m, o) for m, o in results if o.status in {"survived", "error"}]
    lines += ["", f"survivors ({len(survivors)}):"]
    for mutant, outcome in survivors:
        mark = " [contract]" if mutant.contract else ""
        error = f" ERROR {outcome.detail}" if outcome.status == "error" else ""
        lines.append(f"  {mutant.ident} {mutant.operator}: {mutant.description}  (in {mutant.scope}){mark}{error}")
    return "\n".join(lines) + "\n"


def write_report(prefix: Path, results: Sequence[tuple[Mutant, Outcome]], meta: dict[str, object]) -> None:
    table = summarise(results)
    records = [{**{k: v for k, v in asdict(m).items() if k not in {"start", "end"}}, "id": m.ident, **asdict(o)} for m, o in results]
    prefix.parent.mkdir(parents=True, exist_ok=True)
    Path(f"{prefix}.json").write_text(json.dumps({"meta": meta, "summary": table, "mutants": records}, indent=1) + "\n")
    Path(f"{prefix}.txt").write_text(render(table, results))


# ------------------------------------------------------------ command line


def _module_path(name: str) -> str | None:
    path = name if name.endswith(".py") else f"hanabi_ref/{name}.py"
    return path if (ROOT / path).is_file() else None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m tests.mutation", description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--module", action="append", help="a module (name in hanabi_ref or path); repeatable; default: the five engine modules")
    parser.add_argument("--limit", type=int, help="at most N mutants per module, evenly spaced (deterministic sample)")
    parser.add_argument("--only", action="append", help="run only this mutant id (path:line:column:index); repeatable")
    parser.add_argument("--tests", nargs="+", help="test files to judge mutants by (default: the fast subset)")
    parser.add_argument("--timeout", type=float, help="seconds per mutant (default: 4 x the unmutated run, at least 60)")
    parser.add_argument("--report", type=Path, default=Path(tempfile.gettempdir()) / "hanabi_ref_mutation", help="report prefix: PREFIX.json and PREFIX.txt")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    return parser


def _selected(arguments: argparse.Namespace, sandbox: Sandbox, paths: Sequence[str]) -> Iterator[Mutant]:
    for path in paths:
        mutants = sample(mutants_of(path, sandbox.source(path)), arguments.limit)
        for mutant in mutants:
            if not arguments.only or mutant.ident in arguments.only:
                yield mutant


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    arguments = parser.parse_args(argv)
    if arguments.limit is not None and arguments.limit < 1:
        parser.error("--limit must be at least 1")
    paths = []
    for name in arguments.module or DEFAULT_MODULES:
        path = _module_path(name)
        if path is None:
            parser.error(f"--module {name!r}: no file {name if name.endswith('.py') else f'hanabi_ref/{name}.py'} in {ROOT}")
        paths.append(path)
    tests = tuple(arguments.tests or (t for t in DEFAULT_TESTS if (ROOT / t).exists()))
    with tempfile.TemporaryDirectory(prefix="hanabi_ref_mutation_") as directory:
        sandbox = make_sandbox(ROOT, COPIED, tests, Path(directory))
        mutants = list(_selected(arguments, sandbox, paths))
        if arguments.list:
            for mutant in mutants:
                print(f"{mutant.ident} {mutant.operator}: {mutant.description}  (in {mutant.scope}){' [contract]' if mutant.contract else ''}")
            print(f"{len(mutants)} mutants")
            return 0
        return _run(arguments, sandbox, mutants)


def _run(arguments: argparse.Namespace, sandbox: Sandbox, mutants: Sequence[Mutant]) -> int:
    baseline = sandbox.run()
    print(f"unmutated: {baseline.status} in {baseline.seconds:.1f} s", flush=True)
    if baseline.status != "survived":
        print(f"mutation: the tests fail on the unmutated sources: {baseline.detail}", file=sys.stderr)
        return 1
    sandbox.timeout = arguments.timeout or max(60.0, 4 * baseline.seconds)
    meta: dict[str, object] = {"tests": list(sandbox.tests), "timeout": sandbox.timeout, "baseline_seconds": round(baseline.seconds, 1), "limit": arguments.limit}
    results: list[tuple[Mutant, Outcome]] = []
    began = time.monotonic()
    for number, mutant in enumerate(mutants, 1):
        outcome = sandbox.run(mutant)
        results.append((mutant, outcome))
        print(f"[{number}/{len(mutants)}] {outcome.status:8} {outcome.seconds:5.1f}s {mutant.ident} {mutant.operator}: {mutant.description}", flush=True)
        meta["elapsed_seconds"] = round(time.monotonic() - began, 1)
        write_report(arguments.report, results, meta)
    print(render(summarise(results), results), end="")
    print(f"report: {arguments.report}.json, {arguments.report}.txt")
    return 1 if any(o.status == "error" for _, o in results) else 0


if __name__ == "__main__":
    sys.exit(main())
