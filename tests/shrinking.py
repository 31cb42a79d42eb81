"""A smaller shrinking budget for tests that run ``hanabi-ref verify`` in this process
[EP-shrink].

The command shrinks a divergence by trying at most
:data:`hanabi_ref.tools.verify.run.SHRINK_BUDGET` games (400, a fixed count so that the
reproduction is the same on every machine); through an engine process that takes tens of
seconds.  A test about what the command does with a divergence (its exit code, its report,
the reproduction file) rather than about how far shrinking gets asks for fewer games with
:func:`limit_shrinking`: the command then shrinks exactly as before, only with a smaller
budget.  How far shrinking gets is tested on ``verify_random_games`` itself
(``tests/test_verify.py``).
"""

from __future__ import annotations

import functools

import pytest

import hanabi_ref.tools.verify.run as run


def limit_shrinking(monkeypatch: pytest.MonkeyPatch, budget: int) -> None:
    """Until the test ends, ``verify`` (which looks ``verify_random_games`` up in
    :mod:`hanabi_ref.tools.verify.run` when it runs) shrinks with at most ``budget`` games."""
    assert 0 < budget < run.SHRINK_BUDGET
    monkeypatch.setattr(run, "verify_random_games", functools.partial(run.verify_random_games, shrink_budget=budget))
