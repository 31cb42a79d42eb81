"""The package's layers hold (pyproject.toml, ``[tool.importlinter]``): no module imports
from a layer above its own, and no import cycle runs between the subpackages or modules
of any package.  import-linter checks the contracts; the second test shows that the
same contracts catch an upward import and a cycle planted in a copy of the package."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.processes import ROOT


def lint(package_parent: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with the repository's contracts, on the ``hanabi_ref`` found first
    in ``package_parent``; no cache is read or written."""
    code = ("import sys; from importlinter.cli import lint_imports; "
            f"sys.exit(lint_imports(config_filenames=({str(ROOT / 'pyproject.toml')!r},), no_cache=True, no_logo=True))")
    env = {**os.environ, "PYTHONPATH": str(package_parent)}
    return subprocess.run([sys.executable, "-c", code], cwd=package_parent, env=env, capture_output=True, text=True,
                          check=False)


def test_the_layers_hold() -> None:
    """The contracts are kept by the package as it is."""
    result = lint(ROOT)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "3 kept, 0 broken" in result.stdout


def test_an_upward_import_and_a_cycle_break_the_contracts(tmp_path: Path) -> None:
    """A copy of the package whose kernel imports the command line (an upward import,
    which also closes a cycle through it) breaks every contract, and the report names
    the import."""
    shutil.copytree(ROOT / "hanabi_ref", tmp_path / "hanabi_ref",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so", "models", "schemas"))
    state = tmp_path / "hanabi_ref" / "engine" / "state.py"
    state.write_text(state.read_text(encoding="utf-8") + "\nimport hanabi_ref.cli\n", encoding="utf-8")
    result = lint(tmp_path)
    assert result.returncode == 1, result.stdout + result.stderr
    assert "0 kept, 3 broken" in result.stdout
    assert "hanabi_ref.engine.state is not allowed to import hanabi_ref.cli" in result.stdout


def test_the_architecture_page_shows_the_contracts_layers() -> None:
    """docs/architecture.md's picture lists the layers of the contract, in its order, with
    the same modules in each."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contract = next(c for c in config["tool"]["importlinter"]["contracts"] if c["id"] == "layers")
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    picture = page.split("```text\n", 1)[1].split("```", 1)[0]
    shown = [line[15:].strip() for line in picture.splitlines()]
    assert shown == contract["layers"]
