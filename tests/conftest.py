"""Test session set-up: the contracts of hanabi_ref must be live while the tests run, and
no process the tests start may outlive the session.

The engine's icontract checks (invariants, pre- and postconditions, each citing its
clause) are part of what the tests exercise: every property test also runs every
contract on every state it reaches.  ``HANABI_REF_CONTRACTS=0`` removes them for speed,
so a test run with that setting would silently check much less; we refuse it.

A test that needs an optional library (a peer engine such as OpenSpiel or pyhanabi,
numpy, torch...) asks ``tests/oracles.py`` for it: skipped where it is missing, failed
instead under ``HANABI_REF_REQUIRE_ORACLES=1`` (set by ``.ci/run``, which installs them).

``tests/leftover_processes.py`` marks every process the tests start and fails the session
if one of them is still alive at its end (after killing it); tests start processes
through ``tests/processes.py``, which ends each one's whole session on every path.

``--quick`` runs the quick tier (``tests/tiers.py``).
"""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("HANABI_REF_CONTRACTS", "1")
# [SIM-progress] off a terminal a long run prints a progress line every 10 s; whether a test's
# run lasts that long depends on the machine's load, so the suite turns the lines off (the
# tests of the lines turn them on with their own interval)
os.environ["HANABI_REF_PROGRESS"] = "off"

from hanabi_ref.base.contracts import ENABLED  # noqa: E402  (after the environment is fixed)

from tests.leftover_processes import mark_session, pytest_sessionfinish, pytest_sessionstart  # noqa: E402, F401
from tests.tiers import pytest_addoption, pytest_collection_modifyitems  # noqa: E402, F401  (--quick)
from tests.oracles import pytest_configure, pytest_runtest_setup, pytest_terminal_summary  # noqa: E402, F401

mark_session()  # before anything a test module starts at import

if not ENABLED:
    raise pytest.UsageError(
        "tests/: HANABI_REF_CONTRACTS disables the engine's contracts; the tests need them on "
        f"(got HANABI_REF_CONTRACTS={os.environ.get('HANABI_REF_CONTRACTS')!r})"
    )
