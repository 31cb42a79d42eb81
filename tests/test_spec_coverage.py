"""Every clause of spec/ is implemented and tested; no code cites a clause that does not exist.

A clause is defined in ``spec/*.md`` by a bold marker ``**[ID]**``; ids mentioned in running
text do not define anything.  Clauses listed in a "Not formalized" section are exempt
from the coverage checks.  A clause is *cited* by a file when its id occurs there as a
whole token: ``2.16-2a`` is not cited by a mention of ``2.16-2a-token``.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "spec"
PACKAGE = ROOT / "hanabi_ref"
EVIDENCE = (ROOT / "tests", ROOT / "proofs")
THIS_FILE = Path(__file__).resolve()

# A thesis-numbered id (2.9, 2.16-2a-token) or one of ours (E-4, P-presets, PR-length).
# A thesis number starts with a non-zero digit, so decimals such as 0.6 are not ids.
ID_PATTERN = r"(?:[1-9][0-9]*\.[0-9]+(?:-[A-Za-z0-9]+)*|[A-Z]{1,3}(?:-[A-Za-z0-9]+)+)"
ID_RE = re.compile(ID_PATTERN)
MARKER_RE = re.compile(r"\*\*\[([^\]]*)\]\*\*")
HEADING_RE = re.compile(r"^(#{1,6})\s+(.*)$")
BRACKETS_RE = re.compile(r"\[([^\[\]]*)\]")
CONTRACT_DECORATORS = {"require", "ensure", "invariant"}
IGNORED_DIRECTORIES = {"__pycache__", ".mypy_cache", ".pytest_cache", ".hypothesis"}


# ------------------------------------------------------------------ reading spec/


def spec_files() -> list[Path]:
    return sorted(SPEC.glob("*.md"))


def clause_markers() -> Iterator[tuple[Path, int, str, str, bool]]:
    """(file, line number, id, line, in a Not formalized section) for every marker."""
    for path in spec_files():
        not_formalized_level: int | None = None
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            heading = HEADING_RE.match(line)
            if heading:
                level = len(heading.group(1))
                if not_formalized_level is not None and level <= not_formalized_level:
                    not_formalized_level = None
                if not_formalized_level is None and "not formalized" in heading.group(2).lower():
                    not_formalized_level = level
            for marker in MARKER_RE.finditer(line):
                yield path, number, marker.group(1), line, not_formalized_level is not None


@cache
def defined_ids() -> frozenset[str]:
    return frozenset(clause for _, _, clause, _, _ in clause_markers())


@cache
def formalized_ids() -> tuple[str, ...]:
    """Ids that must be implemented and tested, in the spec's order, without repeats."""
    ordered = [clause for _, _, clause, _, exempt in clause_markers() if not exempt]
    return tuple(dict.fromkeys(ordered))


# ------------------------------------------------------------------ reading the tree


def text_files(directory: Path) -> Iterator[tuple[Path, str]]:
    """Every UTF-8 text file below ``directory`` (binary and cache files are skipped)."""
    if not directory.is_dir():
        return
    for path in sorted(directory.rglob("*")):
        if not path.is_file() or IGNORED_DIRECTORIES & set(path.parts):
            continue
        if path.resolve() == THIS_FILE:
            continue
        try:
            yield path, path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue


@cache
def corpus(*directories: Path) -> str:
    return "\n".join(text for directory in directories for _, text in text_files(directory))


def is_cited(clause: str, text: str) -> bool:
    """Whether ``clause`` occurs in ``text`` as a whole id, not as part of a longer one."""
    pattern = rf"(?<![A-Za-z0-9.\-]){re.escape(clause)}(?![A-Za-z0-9\-]|\.[A-Za-z0-9])"
    return re.search(pattern, text) is not None


def missing(text: str) -> list[str]:
    return [clause for clause in formalized_ids() if not is_cited(clause, text)]


# ------------------------------------------------------------------ citations in code


def bracket_citations(source: str) -> Iterator[str]:
    """Ids in ``[...]`` groups (comma-separated) inside comments, docstrings and strings."""
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    for token in tokens:
        if token.type not in (tokenize.COMMENT, tokenize.STRING):
            continue
        for group in BRACKETS_RE.finditer(token.string):
            for part in group.group(1).split(","):
                if ID_RE.fullmatch(part.strip()):
                    yield part.strip()


def _is_contract_call(node: ast.Call) -> bool:
    function = node.func
    name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", None)
    return name in CONTRACT_DECORATORS


def _description(node: ast.Call) -> ast.expr | None:
    for keyword in node.keywords:
        if keyword.arg == "description":
            return keyword.value
    return node.args[1] if len(node.args) >= 2 else None


def contract_messages(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """(line, message) of every icontract require/ensure/invariant with a literal message."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and _is_contract_call(node):
            description = _description(node)
            if isinstance(description, ast.Constant) and isinstance(description.value, str):
                yield node.lineno, description.value


def message_ids(message: str) -> list[str]:
    """The ids a message starts with ("2.16-2a-value, 2.16-2a-suit: ..."); [] if none."""
    head, colon, _ = message.partition(":")
    parts = [part.strip() for part in head.split(",")]
    if not colon or not all(ID_RE.fullmatch(part) for part in parts):
        return []
    return parts


def code_citations() -> dict[str, list[str]]:
    """Every id the package cites, with the places that cite it.

    Cited means: inside ``[...]`` in a comment, docstring or string; at the start of an
    icontract message; or as a whole string constant (the clause of an
    ``IllegalActionError``, e.g. ``("2.16-2a-target", reason)``).
    """
    places: dict[str, list[str]] = {}
    for path, source in text_files(PACKAGE):
        if path.suffix != ".py":
            continue
        where = str(path.relative_to(ROOT))
        found = list(bracket_citations(source))
        tree = ast.parse(source, filename=where)
        for _, message in contract_messages(tree):
            found.extend(message_ids(message))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and ID_RE.fullmatch(node.value):
                found.append(node.value)
        for clause in found:
            places.setdefault(clause, []).append(where)
    return places


# ------------------------------------------------------------------ the tests


def test_spec_defines_clauses() -> None:
    """The spec exists and its markers are well-formed ids, each defined once, each
    starting its line (after a heading's or a list item's prefix)."""
    assert spec_files(), f"no spec/*.md under {ROOT}"
    counts = Counter(clause for _, _, clause, _, _ in clause_markers())
    assert len(counts) >= 50, f"only {len(counts)} clause ids found in spec/"
    problems = [
        f"{path.relative_to(ROOT)}:{number}: {clause!r}"
        for path, number, clause, line, _ in clause_markers()
        if not ID_RE.fullmatch(clause)
        or not re.match(rf"^(?:#{{1,6}}\s+|[-*]\s+)?\*\*\[{re.escape(clause)}\]\*\*", line)
    ]
    assert not problems, "malformed or mid-line clause markers:\n" + "\n".join(problems)
    repeated = sorted(clause for clause, count in counts.items() if count > 1)
    assert not repeated, f"clause ids defined more than once: {', '.join(repeated)}"


def test_every_clause_is_implemented_and_tested() -> None:
    """Every formalized clause is cited (a) under hanabi_ref/ and (b) under tests/ or proofs/."""
    not_implemented = missing(corpus(PACKAGE))
    not_tested = missing(corpus(*EVIDENCE))
    report = []
    if not_implemented:
        report.append(
            f"{len(not_implemented)} clause(s) not cited under hanabi_ref/:\n  "
            + "\n  ".join(not_implemented)
        )
    if not_tested:
        report.append(
            f"{len(not_tested)} clause(s) not cited under tests/ or proofs/:\n  "
            + "\n  ".join(not_tested)
        )
    assert not report, "\n".join(report)


def test_no_dangling_citations() -> None:
    """Every id cited by the package is defined in spec/ (formalized or not)."""
    defined = defined_ids()
    dangling = {
        clause: sorted(set(places))
        for clause, places in code_citations().items()
        if clause not in defined
    }
    assert not dangling, "ids cited in hanabi_ref/ but not defined in spec/:\n" + "\n".join(
        f"  {clause}: {', '.join(places)}" for clause, places in sorted(dangling.items())
    )


def test_contract_messages_start_with_clause_ids() -> None:
    """Every icontract message begins with the id(s) of the clause it checks (STYLE habit 1)."""
    unlabelled = []
    for path, source in text_files(PACKAGE):
        if path.suffix != ".py":
            continue
        for line, message in contract_messages(ast.parse(source)):
            if not message_ids(message):
                unlabelled.append(f"{path.relative_to(ROOT)}:{line}: {message!r}")
    assert not unlabelled, "contract messages without a leading clause id:\n" + "\n".join(unlabelled)


def test_citation_matching_respects_id_boundaries() -> None:
    """The whole-token rule itself: a longer id does not cite its prefix."""
    assert is_cited("2.16-2a", "see [2.16-2a] here")
    assert is_cited("2.16-2a", "[2.16-2a, 2.16-2b]")
    assert is_cited("2.9", "Definition 2.9.")
    assert not is_cited("2.16-2a", "[2.16-2a-token]")
    assert not is_cited("2.16-2", "2.16-2c")
    assert not is_cited("R-1", "PR-1")
    assert not is_cited("2.9", "2.9-cards")
    assert not is_cited("2.1", "2.16")
    assert message_ids("2.16-2a-value, 2.16-2a-suit: only the target changes") == [
        "2.16-2a-value",
        "2.16-2a-suit",
    ]
    assert message_ids("the deck: is wrong") == []
    assert list(bracket_citations('"""x [2.13, 2.14,\n    2.16-1] y [int, ...] z [0.6]"""\n')) == [
        "2.13",
        "2.14",
        "2.16-1",
    ]
    assert list(bracket_citations("deck[N-1]  # not a comment citation: [E-4]\n")) == ["E-4"]
