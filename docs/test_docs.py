"""Executable documentation: every ```python block in docs/*.md runs as a test.

The blocks of one file run in order in one shared namespace, so a later block can use
the names an earlier one defined; the assertions in the blocks are the checks.  A block
whose info string is ``python no-run`` is shown but not run; ``python needs=pyspiel`` runs
only where the optional library is installed (tests/oracles.py: skipped without it,
failed instead under ``HANABI_REF_REQUIRE_ORACLES=1``).  In ``console`` blocks every
``$ hanabi-ref ...`` line runs as a command (as ``hanabi-ref`` runs it, in a temporary
folder shared by the file's blocks, with any ``VAR=value`` prefix in its environment;
consecutive lines with the same prefix share one fresh interpreter) and must exit 0; a
``console no-run`` block (installation, the test run itself) is shown only.
A failure is reported at its line in the markdown file.

Clause links of the form ``[2.16-2b-token](../spec/rules.md)`` must name a clause that
spec/rules.md defines.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shlex
import sys
from pathlib import Path

import attrs
import pytest
from tests.oracles import oracle
from tests.processes import run_process

DOCS = Path(__file__).resolve().parent
SPEC = DOCS.parent / "spec" / "rules.md"
FENCE = re.compile(r"^(?P<indent> {0,3})(?P<fence>`{3,})(?P<info>[^`]*)$")
CLAUSE_LINK = re.compile(r"\[(?P<id>[A-Z0-9][\w.\-]*)\]\(\.\./spec/rules\.md(?:#[^)]*)?\)")


@attrs.frozen
class Block:
    """One fenced code block: its info string, the line its code starts on, its code."""

    info: str
    line: int
    code: str

    @property
    def runs(self) -> bool:
        """Whether the block is executed: ```python, but not ```python no-run."""
        words = self.info.split()
        return bool(words) and words[0] == "python" and "no-run" not in words[1:]

    @property
    def needs(self) -> tuple[str, ...]:
        """The optional libraries a block needs, ```python needs=pyspiel (several: comma
        separated): asked for through tests/oracles.py before the block runs, so the file's
        test skips from that block on where one is missing, and fails instead under
        ``HANABI_REF_REQUIRE_ORACLES=1``."""
        words = self.info.split()[1:]
        return tuple(module for word in words if word.startswith("needs=") for module in word[6:].split(","))


def code_blocks(text: str) -> list[Block]:
    """The fenced code blocks of a markdown text, in order.  An unclosed fence is an
    error rather than a block silently dropped."""
    blocks: list[Block] = []
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        opening = FENCE.match(lines[index])
        index += 1
        if opening is None:
            continue
        fence, start, body = opening["fence"], index, []
        while index < len(lines) and not lines[index].strip().startswith(fence):
            body.append(lines[index])
            index += 1
        if index == len(lines):
            raise ValueError(f"line {start}: code block opened with {fence} is never closed")
        index += 1
        blocks.append(Block(opening["info"].strip(), start + 1, "\n".join(body) + "\n"))
    return blocks


def run_blocks(path: Path) -> int:
    """Execute the runnable blocks of one file in one namespace; return how many ran."""
    namespace: dict[str, object] = {"__name__": f"docs.{path.stem}"}
    ran = 0
    for block in code_blocks(path.read_text(encoding="utf-8")):
        if not block.runs:
            continue
        for module in block.needs:
            oracle(module)  # skips (or fails under the switch) where the library is missing
        # Pad with blank lines so that tracebacks point at the markdown line.
        source = "\n" * (block.line - 1) + block.code
        exec(compile(source, str(path), "exec"), namespace)  # noqa: S102 - the docs are ours
        ran += 1
    return ran


@attrs.frozen
class Command:
    """One ``$ hanabi-ref ...`` line: where it is, its ``VAR=value`` prefix, its arguments."""

    where: str
    env: tuple[tuple[str, str], ...]
    arguments: tuple[str, ...]


def console_commands(path: Path) -> list[Command]:
    """The ``$ hanabi-ref`` lines of the file's runnable console blocks, in order."""
    commands = []
    for block in code_blocks(path.read_text(encoding="utf-8")):
        words = block.info.split()
        if not words or words[0] != "console" or "no-run" in words[1:]:
            continue
        for offset, line in enumerate(block.code.splitlines()):
            if not line.startswith("$ "):
                continue
            where = f"{path.name}:{block.line + offset}"
            tokens = shlex.split(line[2:], comments=True)
            env = []
            while tokens and re.fullmatch(r"[A-Z_]+=\S*", tokens[0]):
                name, _, value = tokens.pop(0).partition("=")
                env.append((name, value))
            assert tokens[:1] == ["hanabi-ref"], f"{where}: only hanabi-ref runs here; mark the block 'console no-run'"
            commands.append(Command(where, tuple(env), tuple(tokens[1:])))
    return commands


MARK = "docs runner: failed:"
RUNNER = """
import json, sys, traceback
from hanabi_ref.cli import main

for index, arguments in enumerate(json.loads(sys.argv[1])):
    try:
        code = main(arguments)
    except SystemExit as stop:  # how the command line ends on a usage error of argparse
        code = stop.code if isinstance(stop.code, int) else 0 if stop.code is None else 1
    except BaseException:
        traceback.print_exc()
        code = 1
    if code != 0:
        print(sys.argv[2], index, code, file=sys.stderr)
        sys.exit(1)
"""
"""Runs the commands given as a JSON list of argument lists, one after the other, as
``hanabi-ref`` runs each; stops at the first that does not exit 0, naming it."""


def run_console_blocks(path: Path, folder: Path) -> int:
    """Run every ``$ hanabi-ref`` line of the file's console blocks, in order, in
    ``folder``; return how many ran.  Consecutive lines with the same ``VAR=value``
    prefix run one after the other in one fresh interpreter (:data:`RUNNER`), each as
    ``hanabi-ref`` runs it: the prefix is read when the package is imported, so each
    new prefix starts a new interpreter."""
    commands = console_commands(path)
    for _, group in itertools.groupby(commands, key=lambda command: command.env):
        batch = list(group)
        env = dict(os.environ, PYTHONPATH=str(DOCS.parent), **dict(batch[0].env))
        arguments = json.dumps([command.arguments for command in batch])
        result = run_process([sys.executable, "-c", RUNNER, arguments, MARK], cwd=folder, env=env,
                             capture_output=True, text=True)
        if result.returncode != 0:
            failed = re.search(f"^{re.escape(MARK)} (\\d+) (-?\\d+)\n", result.stderr, re.MULTILINE)
            if failed is None:  # the interpreter itself failed
                raise AssertionError(f"{batch[0].where}: exit {result.returncode}: {result.stderr.strip()}")
            stderr = result.stderr.replace(failed[0], "").strip()
            raise AssertionError(f"{batch[int(failed[1])].where}: exit {failed[2]}: {stderr}")
    return len(commands)


MARKDOWN = sorted(DOCS.glob("*.md"))


@pytest.mark.parametrize("path", MARKDOWN, ids=[path.name for path in MARKDOWN])
def test_python_blocks_run(path: Path) -> None:
    """Every ```python block of the file runs without error, in order."""
    run_blocks(path)


@pytest.mark.parametrize("path", MARKDOWN, ids=[path.name for path in MARKDOWN])
def test_console_commands_run(path: Path, tmp_path: Path) -> None:
    """Every ``$ hanabi-ref ...`` line of a console block exits 0, in order."""
    run_console_blocks(path, tmp_path)


def test_console_runner_reports_a_failing_command(tmp_path: Path) -> None:
    """A console line whose command fails is reported with its line and exit code (so
    the test can fail), also after others that ran in the same interpreter, and also
    for a usage error."""
    page = tmp_path / "page.md"
    page.write_text("```console\n$ hanabi-ref replay missing.json\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError, match="page.md:2: exit 2: hanabi-ref: "):
        run_console_blocks(page, tmp_path)
    page.write_text("```console\n$ hanabi-ref --version\n$ HANABI_REF_CONTRACTS=0 hanabi-ref --version\n"
                    "$ HANABI_REF_CONTRACTS=0 hanabi-ref rules --no-such-option\n$ hanabi-ref --version\n```\n",
                    encoding="utf-8")
    with pytest.raises(AssertionError, match="page.md:4: exit 2: hanabi-ref: rules: "):
        run_console_blocks(page, tmp_path)


@pytest.mark.parametrize("path", MARKDOWN, ids=[path.name for path in MARKDOWN])
def test_clause_links_exist(path: Path) -> None:
    """Every [id](../spec/rules.md) link names a clause defined in spec/rules.md."""
    spec = SPEC.read_text(encoding="utf-8")
    defined = set(re.findall(r"\*\*\[([^\]]+)\]\*\*", spec))
    cited = {match["id"] for match in CLAUSE_LINK.finditer(path.read_text(encoding="utf-8"))}
    assert cited <= defined, f"{path.name} links to undefined clauses: {sorted(cited - defined)}"


def test_the_walkthroughs_have_code() -> None:
    """The quick start and the rules walk-through really run code (a renamed fence
    would otherwise turn them into prose silently)."""
    for name, least in (("quickstart.md", 8), ("rules-walkthrough.md", 10)):
        blocks = code_blocks((DOCS / name).read_text(encoding="utf-8"))
        assert sum(block.runs for block in blocks) >= least, name


def test_block_extraction() -> None:
    """The extractor: python blocks run, no-run and console blocks do not, longer
    fences work, and an unclosed fence is an error."""
    text = (
        "intro\n```python\nx = 1\n```\n"
        "```python no-run\nraise SystemExit\n```\n"
        "```console\n$ hanabi-ref replay game.json\n```\n"
        "````python\ny = x + 1\nassert y == 2\n````\n"
    )
    blocks = code_blocks(text)
    assert [block.info for block in blocks] == ["python", "python no-run", "console", "python"]
    assert [block.runs for block in blocks] == [True, False, False, True]
    assert blocks[3].line == 12 and blocks[3].code == "y = x + 1\nassert y == 2\n"
    with pytest.raises(ValueError, match="never closed"):
        code_blocks("```python\nx = 1\n")


def test_blocks_share_one_namespace(tmp_path: Path) -> None:
    """Names defined by one block are seen by the next; skipped blocks do not run."""
    page = tmp_path / "page.md"
    page.write_text(
        "```python\nvalue = 2\n```\n```python no-run\nvalue = 5\n```\n"
        "```console\n$ false\n```\n```python\nassert value == 2\n```\n",
        encoding="utf-8",
    )
    assert run_blocks(page) == 2


def test_failing_block_is_reported_at_its_line(tmp_path: Path) -> None:
    """A false assertion in a block fails the file, with the markdown line in the
    traceback."""
    page = tmp_path / "page.md"
    page.write_text("text\n\n```python\nvalue = 2\nassert value == 3\n```\n", encoding="utf-8")
    with pytest.raises(AssertionError) as failure:
        run_blocks(page)
    assert failure.traceback[-1].lineno + 1 == 5


def test_a_block_asks_the_oracles_for_the_libraries_it_needs(tmp_path: Path) -> None:
    """``python needs=A,B`` names optional libraries; each is asked for through
    tests/oracles.py before the block runs (which refuses a library it does not know)."""
    blocks = code_blocks("```python needs=pyspiel,numpy\nx = 1\n```\n```python\ny = 2\n```\n")
    assert [block.needs for block in blocks] == [("pyspiel", "numpy"), ()]
    assert all(block.runs for block in blocks)
    page = tmp_path / "page.md"
    page.write_text("```python\nfirst = 1\n```\n```python needs=no_such_library\nraise SystemExit\n```\n",
                    encoding="utf-8")
    with pytest.raises(ValueError, match="'no_such_library' is not one of ORACLES"):
        run_blocks(page)
