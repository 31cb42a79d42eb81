"""An optional compiled build of the strategies' hot modules [B-compiled].

``hanabi-ref compile`` compiles the modules in :data:`MODULES` with mypyc (part of mypy)
into a cache directory; from then on, every process that imports ``hanabi_ref`` loads
those compiled modules instead of the Python sources.  The compiled code *is* the
source: mypyc translates the same functions, so every result is the same, only faster
(tests/test_compiled.py plays the same games both ways and compares them).

The build is keyed by a hash of every source file of the package and the interpreter's
ABI: after any edit, or under another Python, the key differs and the pure sources are
used until ``hanabi-ref compile`` runs again.  A stale build is never loaded.
``HANABI_REF_COMPILED=0`` switches the compiled modules off for one process.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

STRATEGY_MODULES = (
    "hanabi_ref.strategies.knowledge",
    "hanabi_ref.strategies.thesis",
)
"""Compiled and always loaded from the build: the exact posteriors and Algorithm 4.6,
where most of the time goes.  They hold no contracts."""

ENGINE_MODULES = (
    "hanabi_ref.dealing",
    "hanabi_ref.legality",
    "hanabi_ref.state",
    "hanabi_ref.transition",
    "hanabi_ref.view",
)
"""Compiled too, but loaded from the build only when contracts are off
(``HANABI_REF_CONTRACTS=0``): icontract reads its conditions' signatures and source,
which compiled lambdas do not have, so with contracts on the engine runs from its
sources.  ``hanabi_ref.game`` stays a source module: strategies written in Python
subclass its ``BaseStrategy``, and an interpreted class cannot subclass a compiled one."""

HAT_MODULES = (
    "hanabi_ref.strategies.hat.core",
    "hanabi_ref.strategies.hat.codes",
    "hanabi_ref.strategies.hat.player",
    "hanabi_ref.strategies.hat.reclue",
    "hanabi_ref.strategies.hat.recommendation",
)
"""The hat strategies; they hold contracts, so like the engine they are loaded from the
build only when contracts are off."""

CONTRACT_MODULES = ENGINE_MODULES + HAT_MODULES

MODULES = STRATEGY_MODULES + CONTRACT_MODULES

PACKAGE = Path(__file__).resolve().parent
KEEP_BUILDS = 4
"""Builds kept in the cache (the newest); older ones are removed by the next build."""


class CompileError(Exception):
    """The compiled build could not be made; the message says why in one line."""


class MypycMissingError(CompileError):
    """mypyc (part of mypy) is not installed."""


def cache_root() -> Path:
    """Where builds live: ``$HANABI_REF_CACHE``, else ``$XDG_CACHE_HOME/hanabi-ref``,
    else ``~/.cache/hanabi-ref``."""
    explicit = os.environ.get("HANABI_REF_CACHE")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "hanabi-ref"


def build_key() -> str:
    """The hash of the interpreter's ABI and every source file of the package."""
    digest = hashlib.sha256()
    digest.update(f"{sys.version}|{sysconfig.get_config_var('SOABI')}".encode())
    for path in sorted(PACKAGE.rglob("*.py")):
        digest.update(str(path.relative_to(PACKAGE)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:24]


class _CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the compiled extension of each module the build holds."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def _manifest(directory: Path) -> dict[str, Any] | None:
    try:
        loaded = json.loads((directory / "manifest.json").read_text())
    except (OSError, ValueError):
        return None
    return loaded if isinstance(loaded, dict) else None


def install() -> bool:
    """Put the finder of the current build first on ``sys.meta_path``, if there is a
    build for exactly these sources and ``HANABI_REF_COMPILED`` is not ``0``."""
    if os.environ.get("HANABI_REF_COMPILED") == "0" or any(isinstance(f, _CompiledFinder) for f in sys.meta_path):
        return False
    root = cache_root()
    if not root.is_dir():
        return False
    directory = root / build_key()
    manifest = _manifest(directory)
    if manifest is None:
        return False
    from hanabi_ref.contracts import ENABLED

    files = {
        name: directory / relative
        for name, relative in manifest["files"].items()
        if not (ENABLED and name in CONTRACT_MODULES)
    }
    if not all(file.is_file() for file in files.values()):
        return False
    sys.meta_path.insert(0, _CompiledFinder(files))
    return True


def status() -> dict[str, Any]:
    """Which of :data:`MODULES` this process runs compiled, and the build it would use."""
    from hanabi_ref.contracts import ENABLED

    modules = {}
    for name in STRATEGY_MODULES if ENABLED else MODULES:
        module = sys.modules.get(name) or importlib.import_module(name)
        modules[name] = not str(getattr(module, "__file__", "")).endswith(".py")
    return {
        "compiled": all(modules.values()),
        "modules": modules,
        "build": str(cache_root() / build_key()),
    }


def compile_modules(verbose: bool = False) -> Path:
    """Compile :data:`MODULES` with mypyc into the cache and return the build directory.

    The package's sources are copied to a scratch directory and compiled there; the
    extensions are moved into place only when every one was built, so an interrupted or
    failed build leaves nothing behind [B-compiled]."""
    if importlib.util.find_spec("mypyc") is None:
        raise MypycMissingError("hanabi-ref compile needs mypyc, which comes with mypy: pip install 'hanabi-ref[compile]'")
    key = build_key()
    root = cache_root()
    target = root / key
    try:
        root.mkdir(parents=True, exist_ok=True)
        scratch = Path(tempfile.mkdtemp(prefix="build-", dir=root))
    except OSError as error:
        raise CompileError(f"cache directory {root}: {error.strerror or error}") from None
    try:
        build = scratch / "built"
        files: dict[str, str] = {}
        # Two groups, compiled apart: within one mypyc group a module imports the others
        # directly, past sys.meta_path, and the engine must stay free to run from source.
        for index, group in enumerate((STRATEGY_MODULES, ENGINE_MODULES, HAT_MODULES)):
            files.update(_compile_group(scratch / f"group-{index}", group, build, verbose))
        missing = [name for name in MODULES if name not in files]
        if missing:
            raise CompileError(f"mypyc built no extension for {', '.join(missing)}")
        (build / "manifest.json").write_text(json.dumps({"key": key, "files": files}, indent=2) + "\n")
        if target.exists():
            shutil.rmtree(target)
        os.replace(build, target)
    except OSError as error:
        raise CompileError(f"cache directory {root}: {error.strerror or error}") from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    _prune(root, keep=KEEP_BUILDS)
    return target


def _compile_group(scratch: Path, group: Sequence[str], build: Path, verbose: bool) -> dict[str, str]:
    """Compile the modules ``group`` in a copy of the package under ``scratch``; copy the
    extensions into ``build`` and return {module name: path relative to ``build``}."""
    shutil.copytree(PACKAGE, scratch / "hanabi_ref", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    sources = [str(Path(*name.split(".")).with_suffix(".py")) for name in group]
    result = subprocess.run([sys.executable, "-m", "mypyc", *sources], cwd=scratch, capture_output=True, text=True)
    if verbose:
        sys.stderr.write(result.stdout + result.stderr)
    if result.returncode != 0:
        lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
        raise CompileError(f"mypyc failed: {lines[-1] if lines else 'exit code ' + str(result.returncode)}")
    files = {}
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for extension in sorted(scratch.glob(f"**/*{suffix}")):
        relative = extension.relative_to(scratch)
        if relative.parts[0] == "build":
            continue
        name = ".".join(relative.parts)[: -len(suffix)]
        (build / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(extension, build / relative)
        files[name] = str(relative)
    return files


def _prune(root: Path, keep: int) -> None:
    """Remove all but the ``keep`` newest builds under ``root``."""
    builds = sorted(
        (path for path in root.iterdir() if (path / "manifest.json").is_file()),
        key=lambda path: (path / "manifest.json").stat().st_mtime,
        reverse=True,
    )
    for old in builds[keep:]:
        shutil.rmtree(old, ignore_errors=True)
