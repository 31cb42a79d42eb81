"""The mutation runner (tests/mutation.py) judges mutants correctly, on a tiny module.

The module is the absolute value ``-x if x < 0 else x``.  Replacing ``<`` by ``>=``
breaks it (|-3| would be -3), so the runner must report the mutant killed; replacing
``<`` by ``<=`` changes only the case x = 0, where -0 == 0, so no test can see it and the
runner must report it as a survivor.  A mutant that loops for ever must time out.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests import mutation

MODULE = '''"""A tiny module to mutate."""


def absolute(x: int) -> int:
    if x < 0:
        return -x
    return x


def is_adult(age: int) -> bool:
    return age >= 18


def count_down(n: int) -> int:
    steps = 0
    while n > 0:
        n -= 1
        steps += 1
    return steps
'''

TESTS = '''from tinypackage.tiny import absolute, count_down, is_adult


def test_absolute() -> None:
    assert absolute(-3) == 3 and absolute(0) == 0 and absolute(2) == 2


def test_is_adult() -> None:
    assert is_adult(18) and not is_adult(17)


def test_count_down() -> None:
    assert count_down(3) == 3
'''


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> mutation.Sandbox:
    # the tiny tests need no installed plugin: each run then starts in a third of the time
    # (what is judged, the runner's verdict on pytest's exit, is the same)
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    source = tmp_path / "source"
    (source / "tinypackage").mkdir(parents=True)
    (source / "tinypackage" / "__init__.py").write_text("")
    (source / "tinypackage" / "tiny.py").write_text(MODULE)
    (source / "test_tiny.py").write_text(TESTS)
    (source / "pytest.ini").write_text("[pytest]\n")
    copy = tmp_path / "copy"
    copy.mkdir()
    box = mutation.make_sandbox(source, ("tinypackage", "test_tiny.py", "pytest.ini"), ("test_tiny.py",), copy)
    box.timeout = 20.0
    return box


def _mutant(mutants: list[mutation.Mutant], description: str) -> mutation.Mutant:
    matches = [m for m in mutants if m.description == description]
    assert len(matches) == 1, [m.description for m in mutants]
    return matches[0]


def test_runner_kills_a_real_mutant_and_keeps_an_equivalent_one(sandbox: mutation.Sandbox) -> None:
    path = "tinypackage/tiny.py"
    original = sandbox.source(path)
    mutants = mutation.mutants_of(path, original)
    assert sandbox.run().status == "survived"  # the unmutated sources pass
    wrong = _mutant(mutants, "x < 0 -> x >= 0")
    equivalent = _mutant(mutants, "x < 0 -> x <= 0")
    predicate = _mutant(mutants, "age >= 18 -> True")
    assert (wrong.line, wrong.operator) == (5, "compare")
    assert sandbox.run(wrong).status == "killed"
    assert sandbox.run(equivalent).status == "survived"
    assert sandbox.run(predicate).status == "killed"
    assert (sandbox.root / path).read_bytes() == original  # the copy is restored


def test_runner_times_out_an_endless_mutant(sandbox: mutation.Sandbox) -> None:
    path = "tinypackage/tiny.py"
    endless = _mutant(mutation.mutants_of(path, sandbox.source(path)), "n -= 1 -> n += 1")
    sandbox.timeout = 3.0
    assert sandbox.run(endless).status == "timeout"


def test_mutants_leave_docstrings_messages_and_annotations_alone() -> None:
    source = b'"""Doc 1 < 2."""\n\ndef f(x: int = 3) -> bool:\n    """x > 1."""\n    raise ValueError(f"{x + 1} is wrong")\n'
    mutants = mutation.mutants_of("m.py", source)
    # the default 3 (twice: 4 and 2) and the removal of the raise; nothing in strings
    assert sorted(m.description for m in mutants) == ["3 -> 2", "3 -> 4", "raise ValueError(f'{x + 1} is wrong') -> pass"]


def test_sample_is_evenly_spaced_and_deterministic() -> None:
    mutants = mutation.mutants_of("tiny.py", MODULE.encode())
    assert len(mutants) > 6
    chosen = mutation.sample(mutants, 3)
    assert chosen == [mutants[0], mutants[len(mutants) // 3], mutants[2 * len(mutants) // 3]]
    assert mutation.sample(mutants, None) == mutants
