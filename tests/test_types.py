"""The type check: ``mypy --strict`` over the package, the tests, the proofs and the docs' code.

The README's test command is the suite alone; this test is where its type checks run.  It is
the suite's longest single test (about a minute of one core from a cold cache, a few seconds
from a warm one), so ``tests/tiers.py`` hands it out first: under pytest-xdist one worker
checks the types while the others run the rest, instead of a minute with one core idle.
The quick tier leaves it out (run ``python -m mypy`` yourself; its cache makes that fast).
"""

from __future__ import annotations

from tests.processes import PY, ROOT, run_process

TYPE_CHECK = (PY, "-m", "mypy", "--strict", "hanabi_ref", "tests", "proofs", "docs")
"""The command, run in the repository root (its settings are pyproject.toml's [tool.mypy])."""


def test_the_code_type_checks_strictly() -> None:
    """mypy --strict finds no error in hanabi_ref, tests, proofs or docs."""
    done = run_process(TYPE_CHECK, cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, f"{' '.join(TYPE_CHECK[1:])} failed:\n{done.stdout[-6000:]}{done.stderr[-2000:]}"
