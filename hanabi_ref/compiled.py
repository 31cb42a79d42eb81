"""An optional compiled build of the hot modules, loaded only on request [B-compiled].

``hanabi-ref compile`` compiles the modules in :data:`MODULES` with mypyc (part of mypy)
into a cache directory.  A process runs them only when it opts in, before the engine is
imported, in one of three ways:

* the environment variable ``HANABI_REF_COMPILED=1`` (read when ``hanabi_ref`` is
  imported; child processes and simulation workers inherit it);
* the API call :func:`enable`;
* the command-line flag ``--compiled`` of ``simulate``, ``sweep``, ``play`` and ``bench``.

Without one of them, importing ``hanabi_ref`` reads no file and changes no import
machinery; ``HANABI_REF_COMPILED=0`` (or unset) means off.  The compiled code *is* the
source: mypyc translates the same functions, so every result is the same, only faster
(tests/test_compiled.py plays the same games both ways and compares them).

The build is keyed by a hash of every source file of the package and the interpreter's
ABI: after any edit, or under another Python, the key differs and an opted-in process runs
the pure sources until ``hanabi-ref compile`` runs again.  A stale build is never loaded.
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

ENVIRONMENT = "HANABI_REF_COMPILED"
"""``1`` (or ``on``, ``true``, ``yes``): opt in when ``hanabi_ref`` is imported; anything
else, ``0`` or unset: off."""

BUILD_COMMAND = "hanabi-ref compile"

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
sources.  ``hanabi_ref.strategy`` stays a source module: strategies written in Python
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


class CompiledTooLateError(RuntimeError):
    """:func:`enable` was called after a module of the build was imported from source."""


def _manifest(directory: Path) -> dict[str, Any] | None:
    try:
        loaded = json.loads((directory / "manifest.json").read_text())
    except (OSError, ValueError):
        return None
    return loaded if isinstance(loaded, dict) and isinstance(loaded.get("files"), dict) else None


def loadable_modules() -> tuple[str, ...]:
    """The modules an opted-in process loads from the build: all of :data:`MODULES` with
    contracts off, only :data:`STRATEGY_MODULES` with contracts on."""
    from hanabi_ref.contracts import ENABLED

    return STRATEGY_MODULES if ENABLED else MODULES


def find_build(modules: Sequence[str] | None = None) -> dict[str, Path] | None:
    """{module: extension file} of the build for exactly these sources, for ``modules``
    (default :func:`loadable_modules`); None when it is missing or lacks one of them.
    Hashes every source file."""
    root = cache_root()
    if not root.is_dir():
        return None
    directory = root / build_key()
    manifest = _manifest(directory)
    if manifest is None:
        return None
    wanted = set(modules or loadable_modules())
    # The build also holds each mypyc group's shared library (``<hash>__mypyc``), which
    # its modules import: everything but the modules not wanted.
    files = {name: directory / str(relative) for name, relative in manifest["files"].items()
             if name in wanted or name not in MODULES}
    if not wanted <= files.keys() or not all(file.is_file() for file in files.values()):
        return None
    return files


def is_enabled() -> bool:
    """Whether this process has opted in and loads the build (its finder is installed)."""
    return any(isinstance(finder, _CompiledFinder) for finder in sys.meta_path)


def is_compiled(module: ModuleType) -> bool:
    """Whether ``module`` was loaded from a compiled extension rather than a ``.py`` file."""
    return not str(getattr(module, "__file__", "") or "").endswith(".py")


def is_requested() -> bool:
    """Whether ``HANABI_REF_COMPILED`` asks for the build (``1``, ``on``, ``true``, ``yes``)."""
    return os.environ.get(ENVIRONMENT, "").strip().lower() in {"1", "on", "true", "yes"}


def is_switched_off() -> bool:
    """Whether ``HANABI_REF_COMPILED`` forbids the build (``0``, ``off``, ``false``, ``no``)."""
    return os.environ.get(ENVIRONMENT, "").strip().lower() in {"0", "off", "false", "no"}


def enable_from_environment() -> bool:
    """The opt-in by environment, run when ``hanabi_ref`` is imported: :func:`enable` if
    ``HANABI_REF_COMPILED`` asks for it, else nothing (no file read, no finder)."""
    return enable() if is_requested() else False


def enable() -> bool:
    """Opt in to the compiled build for this process [B-compiled]; return whether a build
    of exactly these sources was found and will be loaded.

    Call it before the engine is imported: a module of the build already imported from
    source raises :class:`CompiledTooLateError` (set ``HANABI_REF_COMPILED=1`` before
    starting Python instead).  ``HANABI_REF_COMPILED=0`` keeps it off (returns False).
    Child processes do not inherit this call; set the environment variable for them."""
    if is_switched_off():
        return False
    if is_enabled():
        return True
    late = [name for name in loadable_modules() if name in sys.modules and not is_compiled(sys.modules[name])]
    if late:
        raise CompiledTooLateError(
            f"hanabi_ref.compiled.enable(): {late[0]} was already imported from source; call enable() "
            f"before importing the engine, or set {ENVIRONMENT}=1 before starting Python"
        )
    files = find_build()
    if files is None:
        return False
    sys.meta_path.insert(0, _CompiledFinder(files))
    return True


def status() -> dict[str, Any]:
    """The build for these sources and which of :data:`MODULES` a process loads compiled.

    ``built``: a complete build of these sources exists; ``enabled``: this process opted
    in; ``would_load``: the modules an opted-in process with this contracts setting loads
    compiled; ``modules``: what this process actually runs (imports them to find out)."""
    build = find_build()
    modules = {}
    for name in loadable_modules():
        module = sys.modules.get(name) or importlib.import_module(name)
        modules[name] = is_compiled(module)
    return {
        "build": str(cache_root() / build_key()),
        "built": build is not None,
        "enabled": is_enabled(),
        "would_load": {name: build is not None and name in build for name in MODULES},
        "compiled": all(modules.values()),
        "modules": modules,
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
