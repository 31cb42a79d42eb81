"""The quick tier: ``python -m pytest -n auto --quick``, a developer's loop of about a minute.

The whole suite (README) is what CI runs; the quick tier is every test function of it
except the slow ones, listed in ``tests/slow.txt``, and of a parametrized function at
most three cases (the first, the last and one between).  What the tier must still do
is checked by ``tests/test_tiers.py``: every test module keeps at least one test, and every
clause family of ``spec/`` (the letters before an id's first hyphen, ``E`` of ``E-17``)
keeps at least one test whose ``checks`` marker names a clause of it.

``tests/slow.txt`` is made from a timed run of the whole suite, never by hand::

    python -m pytest -n auto -p no:randomly --durations=0 > /tmp/durations.txt
    python -m tests.tiers /tmp/durations.txt      # rewrites tests/slow.txt

A test function is slow when one of its cases took :data:`SLOW_CASE` seconds or more, or
all of them together :data:`SLOW_FUNCTION` seconds or more (setup and teardown count).
"""

from __future__ import annotations

import re
import sys
from collections import defaultdict
from pathlib import Path
from typing import Final

import pytest

ROOT: Final = Path(__file__).resolve().parent.parent
SLOW_LIST: Final = ROOT / "tests" / "slow.txt"
SLOW_CASE: Final = 0.4
"""Seconds of one case (one parameter set) that make its test function slow."""
SLOW_FUNCTION: Final = 1.2
"""Seconds of all of a function's cases together that make it slow."""
DURATION_RE: Final = re.compile(r"^\s*([0-9.]+)s (?:call|setup|teardown)\s+(\S+)\s*$")
HEADER: Final = """\
# The quick tier leaves these test functions out (tests/tiers.py says how this list is made:
# python -m tests.tiers DURATIONS, from a `--durations=0` run of the whole suite).
"""


def function_id(nodeid: str) -> str:
    """The id of the test function a node id belongs to: parameters and a state
    machine's ``::runTest`` dropped (``tests/a.py::test_b[1-2]`` -> ``tests/a.py::test_b``)."""
    base = nodeid.split("[", 1)[0]
    return base.removesuffix("::runTest")


def read_slow_list(path: Path = SLOW_LIST) -> frozenset[str]:
    """The function ids of ``tests/slow.txt`` (blank lines and ``#`` comments skipped)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return frozenset()
    return frozenset(line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#"))


def case_times(durations: str) -> dict[str, float]:
    """Seconds per test case (setup, call and teardown) of a ``--durations=0`` report."""
    per_case: dict[str, float] = defaultdict(float)
    for line in durations.splitlines():
        match = DURATION_RE.match(line)
        if match:
            per_case[match.group(2)] += float(match.group(1))
    return dict(per_case)


def function_times(durations: str) -> dict[str, float]:
    """Seconds per test function (all its cases) of a ``--durations=0`` report."""
    per_function: dict[str, float] = defaultdict(float)
    for nodeid, seconds in case_times(durations).items():
        per_function[function_id(nodeid)] += seconds
    return dict(per_function)


def slow_functions(durations: str) -> list[str]:
    """The slow test functions of a ``--durations=0`` report, sorted."""
    per_function: dict[str, list[float]] = defaultdict(list)
    for nodeid, seconds in case_times(durations).items():
        per_function[function_id(nodeid)].append(seconds)
    return sorted(name for name, cases in per_function.items()
                  if max(cases) >= SLOW_CASE or sum(cases) >= SLOW_FUNCTION)


def keep_samples(slow: list[str], times: dict[str, float], samples: list[list[str]]) -> list[str]:
    """``slow`` less, for each group of ``samples`` (the test functions of one module, or
    those that check one clause family) that it would empty, the group's fastest function."""
    left = set(slow)
    for group in samples:
        if group and all(name in left for name in group):
            left.discard(min(group, key=lambda name: times.get(name, 0.0)))
    return sorted(left)


QUICK_CASES: Final = 3
"""Cases of one parametrized test function that the quick tier runs: the first, the last
and one between."""


def sampled(group: list[pytest.Item]) -> list[pytest.Item]:
    """At most :data:`QUICK_CASES` cases of one test function, evenly spread."""
    if len(group) <= QUICK_CASES:
        return group
    step = (len(group) - 1) / (QUICK_CASES - 1)
    return [group[round(index * step)] for index in range(QUICK_CASES)]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--quick", action="store_true", default=False,
                     help="the quick tier: leave out the slow test functions of tests/slow.txt (tests/tiers.py)")


FIRST: Final = "tests/test_types.py::test_the_code_type_checks_strictly"
"""The suite's longest single test (the type check), handed out first: pytest-xdist gives
tests to its workers in collection order, so a long test collected late would finish alone
on one worker while the others wait.  The quick tier leaves it out (mypy's own cache makes a
developer's ``python -m mypy`` fast)."""


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.nodeid != FIRST)  # stable: the rest keep their order
    if not config.getoption("--quick"):
        return
    slow = read_slow_list() | {FIRST}
    cases: dict[str, list[pytest.Item]] = defaultdict(list)
    for item in items:
        if function_id(item.nodeid) not in slow:
            cases[function_id(item.nodeid)].append(item)
    chosen = {id(item) for group in cases.values() for item in sampled(group)}
    kept = [item for item in items if id(item) in chosen]
    left_out = [item for item in items if id(item) not in chosen]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
    items[:] = kept


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m tests.tiers DURATIONS  (the output of a --durations=0 run)", file=sys.stderr)
        return 2
    try:
        text = Path(argv[0]).read_text(encoding="utf-8", errors="replace")
    except OSError as error:
        print(f"tests.tiers: cannot read {argv[0]}: {error.strerror}", file=sys.stderr)
        return 2
    slow = slow_functions(text)
    if not slow:
        print(f"tests.tiers: {argv[0]} holds no durations (run pytest with --durations=0)", file=sys.stderr)
        return 2
    from tests.test_tiers import module_samples, family_samples

    slow = keep_samples(slow, function_times(text), [*module_samples(), *family_samples()])
    SLOW_LIST.write_text(HEADER + "".join(f"{name}\n" for name in slow), encoding="utf-8")
    print(f"tests/slow.txt: {len(slow)} slow test functions")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
