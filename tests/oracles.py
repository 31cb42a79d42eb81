"""Optional libraries the tests need, and the switch that makes them required.

The peer engines the differential tests compare against (OpenSpiel, pyhanabi, hanabython)
and the optional libraries that ``[dev]`` installs (numpy, PettingZoo, Gymnasium,
dask.distributed, matplotlib, mypyc), and PyTorch (``[train]``), are not needed to use hanabi_ref, so a test that
needs one skips where it is missing.  In CI a skip there would hide that an oracle was
never consulted: ``.ci/run`` installs them all and sets ``HANABI_REF_REQUIRE_ORACLES=1``,
and then a missing one FAILS the test instead of skipping it.

Every test goes through this module for such a library, never through
``pytest.importorskip`` or a ``skipif`` of its own (tests/test_oracles.py checks that):

* ``oracle("pyspiel")`` imports and returns the module, in a test, a fixture or at module
  level;
* ``@needs("mypyc")`` marks a test (or ``pytestmark = needs(...)`` a module) that needs
  the library without using the module object; tests/conftest.py runs the hook below.

The browser tests have their own switch, ``HANABI_REF_REQUIRE_BROWSER`` (tests/test_viewer.py).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from typing import Any, Final, NoReturn

import pytest

REQUIRE_ORACLES: Final = "HANABI_REF_REQUIRE_ORACLES"
"""When this environment variable is ``1``, a missing optional library fails its tests."""

ORACLES: Final = (
    "pyspiel",
    "hanabi_learning_environment.pyhanabi",
    "hanabython",
    "numpy",
    "torch",
    "pettingzoo",
    "gymnasium",
    "distributed",
    "matplotlib",
    "mypyc",
)
"""Every optional library a test may ask for (tests/test_oracles.py checks the tests ask
for no other); the session's summary names those missing here."""

INSTALL: Final[dict[str, str]] = {
    "hanabi_learning_environment": "CMAKE_POLICY_VERSION_MINIMUM=3.5 pip install '.[hle]' (needs a C++ compiler)",
    "hanabython": "pip install '.[hanabython]'",
    "torch": "pip install '.[train]' (PyTorch's CPU build is enough)",
}
"""How to install a library that ``[dev]`` does not bring, by top-level module."""


def is_required() -> bool:
    """Whether the switch is on: optional libraries must be installed."""
    return os.environ.get(REQUIRE_ORACLES) == "1"


def _install_hint(module: str) -> str:
    return INSTALL.get(module.partition(".")[0], "pip install '.[dev]'")


def missing(module: str, error: ImportError) -> NoReturn:
    """Skip the test (or the module) for want of ``module``; fail it under the switch."""
    why = f"{module} is not installed ({type(error).__name__}: {error}; {_install_hint(module)})"
    if is_required():
        pytest.fail(f"{REQUIRE_ORACLES}=1 and {why}", pytrace=False)
    pytest.skip(why, allow_module_level=True)


def oracle(module: str) -> Any:
    """``module`` imported, or the test skipped (failed under ``HANABI_REF_REQUIRE_ORACLES=1``).
    Only the libraries of :data:`ORACLES` may be asked for: CI installs exactly those."""
    if module not in ORACLES:
        raise ValueError(f"tests/oracles.py: {module!r} is not one of ORACLES; add it there and to what .ci/run installs")
    try:
        return importlib.import_module(module)
    except ImportError as error:
        absent = error
    missing(module, absent)  # outside the handler: the report is one line, not a chain


def needs(*modules: str) -> pytest.MarkDecorator:
    """The mark of a test that needs ``modules``: checked by :func:`pytest_runtest_setup`
    before the test runs, as :func:`oracle` would."""
    return pytest.mark.needs(*modules)


def pytest_configure(config: pytest.Config) -> None:
    """Registers the ``needs`` mark."""
    config.addinivalue_line(
        "markers",
        f"needs(*modules): optional libraries the test needs: skipped without one, failed under {REQUIRE_ORACLES}=1",
    )


def is_installed(module: str) -> bool:
    """Whether ``module`` can be found (without importing it, but for its packages)."""
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:
        return False


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """Names the optional libraries missing here, whose tests skipped (or, under the
    switch, failed), so that a run without an oracle does not look like one with it."""
    absent = [module for module in ORACLES if not is_installed(module)]
    if absent:
        terminalreporter.write_line(
            f"optional libraries not installed, their tests {'failed' if is_required() else 'skipped'}: "
            f"{', '.join(absent)} ({REQUIRE_ORACLES}={os.environ.get(REQUIRE_ORACLES, '')!r}; tests/oracles.py)"
        )


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Each ``needs`` mark's modules are imported before the test, as :func:`oracle` does."""
    for mark in item.iter_markers("needs"):
        for module in mark.args:
            oracle(module)
