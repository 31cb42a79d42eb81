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

The cache is a directory the user controls, possibly shared with other programs, and a
build is native code: every build directory carries our marker file (:data:`MARKER`,
naming this project and the build's key); a build is loaded only when its directory, the
directories below it and its files are owned by this user (or root) and writable by
nobody else; pruning old builds removes only directories carrying our marker, never
anything else in the cache.  A cache that cannot be inspected, or a build refused by that
rule, is not used: the process runs the sources and says why in one line on stderr.
"""

from __future__ import annotations

import errno
import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any
from hanabi_ref.base.extras import install_hint

ENVIRONMENT = "HANABI_REF_COMPILED"
"""``1`` (or ``on``, ``true``, ``yes``): opt in when ``hanabi_ref`` is imported; anything
else, ``0`` or unset: off."""

BUILD_COMMAND = "hanabi-ref compile"

STRATEGY_MODULES = (
    "hanabi_ref.players.strategies.knowledge",
    "hanabi_ref.players.strategies.thesis",
    "hanabi_ref.players.strategies.info.knowledge",
    "hanabi_ref.players.strategies.info.questions",
    "hanabi_ref.players.strategies.info.codes",
    "hanabi_ref.players.strategies.info.reading",
    "hanabi_ref.players.strategies.info.decisions",
    "hanabi_ref.players.strategies.info.player",
    "hanabi_ref.players.strategies.info.search",
    "hanabi_ref.players.strategies.adapt",
)
"""Compiled and always loaded from the build: the exact posteriors, Algorithm 4.6, the
information strategy, where most of the time goes, and the wrapper every convention bot
plays through (S-foreign: its guard looks at every play).  They hold no contracts."""

ENGINE_MODULES = (
    "hanabi_ref.engine.dealing",
    "hanabi_ref.engine.fastpath",
    "hanabi_ref.engine.legality",
    "hanabi_ref.engine.state",
    "hanabi_ref.engine.transition",
    "hanabi_ref.engine.view",
    "hanabi_ref.engine.cards",
    "hanabi_ref.engine.variants.ruleset",
    "hanabi_ref.engine.variants.orange",
    "hanabi_ref.engine.variants.updown",
    "hanabi_ref.api",
)
"""Compiled too, but loaded from the build only when contracts are off
(``HANABI_REF_CONTRACTS=0``): icontract reads its conditions' signatures and source,
which compiled lambdas do not have, so with contracts on the engine runs from its
sources.  ``hanabi_ref.players.strategy`` stays a source module: strategies written in Python
subclass its ``BaseStrategy``, and an interpreted class cannot subclass a compiled one.
The card decoders are among them (the strategies call them per card), and the rule sets
of the variant families, as the steps ask them on every move; their base class allows
subclasses in Python, so a family module not listed here works in a compiled process
too."""

HAT_MODULES = (
    "hanabi_ref.players.strategies.hat.core",
    "hanabi_ref.players.strategies.hat.codes",
    "hanabi_ref.players.strategies.hat.player",
    "hanabi_ref.players.strategies.hat.reclue",
    "hanabi_ref.players.strategies.hat.reclue_rules",
    "hanabi_ref.players.strategies.hat.recommendation",
    "hanabi_ref.players.strategies.hat.values",
)
"""The hat strategies; they hold contracts, so like the engine they are loaded from the
build only when contracts are off."""

CONTRACT_MODULES = ENGINE_MODULES + HAT_MODULES

MODULES = STRATEGY_MODULES + CONTRACT_MODULES

PACKAGE = Path(__file__).resolve().parent.parent
KEEP_BUILDS = 4
"""Builds kept in the cache (the newest of ours); older ones are removed by the next build."""

MARKER = "hanabi-ref-build.json"
"""The file every build directory of ours holds: ``{"project": PROJECT, "key": <its key>}``.
Only a directory whose marker parses and names us is ever loaded or removed."""

PROJECT = "hanabi-ref"


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


class UnusableBuildError(Exception):
    """The cache cannot be inspected, or the build breaks the ownership rule
    [B-compiled]; the message says why in one line."""


class CompiledTooLateError(RuntimeError):
    """:func:`enable` was called after a module of the build was imported from source."""


def _read_json(path: Path) -> Any:
    """The JSON in the regular file ``path``, not following a symlink there; None when
    it is missing, a symlink or not JSON.  Other errors (permissions) propagate."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as error:
        if error.errno == errno.ELOOP:  # a symlink: not a file our build wrote
            return None
        raise
    with os.fdopen(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(file.fileno()).st_mode):
            return None
        try:
            return json.loads(file.read())
        except ValueError:
            return None


def is_our_build(directory: Path) -> bool:
    """[B-compiled] whether ``directory`` carries our marker: a regular file that parses,
    names this project and, as key, the directory's own name."""
    marker = _read_json(directory / MARKER)
    return isinstance(marker, dict) and marker.get("project") == PROJECT and marker.get("key") == directory.name


def _manifest(directory: Path) -> dict[str, Any] | None:
    loaded = _read_json(directory / "manifest.json")
    return loaded if isinstance(loaded, dict) and isinstance(loaded.get("files"), dict) else None


def loadable_modules() -> tuple[str, ...]:
    """The modules an opted-in process loads from the build: all of :data:`MODULES` with
    contracts off, only :data:`STRATEGY_MODULES` with contracts on."""
    from hanabi_ref.base.contracts import ENABLED

    return STRATEGY_MODULES if ENABLED else MODULES


def find_build(modules: Sequence[str] | None = None) -> dict[str, Path] | None:
    """{module: extension file} of the usable build for exactly these sources, for
    ``modules`` (default :func:`loadable_modules`); None when it is missing, lacks one of
    them, or cannot be used (see :func:`locate_build`).  Hashes every source file."""
    try:
        return locate_build(modules)
    except UnusableBuildError:
        return None


def locate_build(modules: Sequence[str] | None = None) -> dict[str, Path] | None:
    """[B-compiled] :func:`find_build`, but a cache that cannot be inspected, or a build
    breaking the ownership rule, raises :class:`UnusableBuildError` saying why."""
    root = cache_root()
    try:
        if not _is_cache_directory(root):
            return None
        directory = root / build_key()
        manifest = _manifest(directory) if is_our_build(directory) else None
        files = None if manifest is None else _build_files(directory, manifest, modules)
        if files is not None:
            _check_ownership(directory, files.values())
    except OSError as error:
        raise UnusableBuildError(f"cache directory {root}: {_describe(error)}") from None
    return files


def _describe(error: OSError) -> str:
    """An OSError in a few words, with the path it names."""
    reason = error.strerror or str(error)
    return f"{error.filename}: {reason}" if error.filename is not None else reason


def _is_cache_directory(root: Path) -> bool:
    """Whether the cache directory exists (False when it does not); one that cannot be
    inspected, or is not a directory, raises :class:`UnusableBuildError`."""
    try:
        mode = os.stat(root).st_mode
    except FileNotFoundError:
        return False
    except OSError as error:
        raise UnusableBuildError(f"cache directory {root}: {error.strerror or error}") from None
    if not stat.S_ISDIR(mode):
        raise UnusableBuildError(f"cache directory {root}: not a directory")
    return True


def _build_files(directory: Path, manifest: dict[str, Any], modules: Sequence[str] | None) -> dict[str, Path] | None:
    """{module: file} of the build's manifest for ``modules``; None when one is missing."""
    wanted = set(modules or loadable_modules())
    # The build also holds each mypyc group's shared library (``<hash>__mypyc``), which
    # its modules import: everything but the modules not wanted.
    files = {}
    for name, relative in manifest["files"].items():
        if name in wanted or name not in MODULES:
            files[name] = _inside(directory, str(relative))
    if not wanted <= files.keys() or not all(file.is_file() for file in files.values()):
        return None
    return files


def _inside(directory: Path, relative: str) -> Path:
    """``directory / relative``, refusing a manifest entry that leads out of the build."""
    path = Path(relative)
    if path.is_absolute() or ".." in path.parts:
        raise UnusableBuildError(f"{directory}: its manifest names {relative!r}, outside the build")
    return directory / path


def _check_ownership(directory: Path, files: Iterable[Path]) -> None:
    """[B-compiled] the build directory, every directory below it leading to an extension,
    the extensions, the manifest and the marker: owned by this user or root, writable by
    neither group nor others; else :class:`UnusableBuildError`."""
    checked: set[Path] = set()
    for file in (directory / MARKER, directory / "manifest.json", *files):
        for path in _paths_down_to(directory, file):
            if path not in checked:
                _check_owner_and_mode(path)
                checked.add(path)


def _paths_down_to(directory: Path, file: Path) -> list[Path]:
    """``directory``, then each path below it leading to ``file``, ``file`` last."""
    paths = [directory]
    for part in file.relative_to(directory).parts:
        paths.append(paths[-1] / part)
    return paths


def _check_owner_and_mode(path: Path) -> None:
    """One path of :func:`_check_ownership`."""
    info = os.stat(path)
    if info.st_uid not in {os.geteuid(), 0}:
        raise UnusableBuildError(f"{path}: owned by uid {info.st_uid}, neither this user nor root")
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        raise UnusableBuildError(
            f"{path}: writable by group or others (mode {stat.S_IMODE(info.st_mode):04o})"
        )


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


def enable(*, strict: bool = False) -> bool:
    """Opt in to the compiled build for this process [B-compiled]; return whether a build
    of exactly these sources was found and will be loaded.

    A cache that cannot be inspected, or a build that breaks the ownership rule, is not
    loaded: one warning line on stderr says why and the result is False; with
    ``strict`` it raises :class:`UnusableBuildError` instead.

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
            f"hanabi_ref.tools.compiled.enable(): {late[0]} was already imported from source; call enable() "
            f"before importing the engine, or set {ENVIRONMENT}=1 before starting Python"
        )
    try:
        files = locate_build()
    except UnusableBuildError as error:
        if strict:
            raise
        warn_unusable(error)
        return False
    if files is None:
        return False
    sys.meta_path.insert(0, _CompiledFinder(files))
    return True


def warn_unusable(error: UnusableBuildError) -> None:
    """[B-compiled] the one stderr line saying the build is not used, and why."""
    if sys.stderr is not None:
        sys.stderr.write(f"hanabi-ref: warning: compiled build not used: {error}; running from sources\n")


def status() -> dict[str, Any]:
    """The build for these sources and which of :data:`MODULES` a process loads compiled.

    ``built``: a complete build of these sources exists; ``enabled``: this process opted
    in; ``would_load``: the modules an opted-in process with this contracts setting loads
    compiled; ``refused``: why the cache or build cannot be used, or None; ``modules``:
    what this process actually runs (imports them to find out)."""
    try:
        build, refused = locate_build(), None
    except UnusableBuildError as error:
        build, refused = None, str(error)
    modules = {}
    for name in loadable_modules():
        module = sys.modules.get(name) or importlib.import_module(name)
        modules[name] = is_compiled(module)
    return {
        "build": str(cache_root() / build_key()),
        "built": build is not None,
        "refused": refused,
        "enabled": is_enabled(),
        "would_load": {name: build is not None and name in build for name in MODULES},
        "compiled": all(modules.values()),
        "modules": modules,
    }


def compile_modules(verbose: bool = False) -> Path:
    """Compile :data:`MODULES` with mypyc into the cache and return the build directory.

    The package's sources are copied to a scratch directory and compiled there; the
    extensions are moved into place only when every one was built, so an interrupted or
    failed build leaves nothing behind [B-compiled].  The build carries our marker and is
    writable by its owner only; a directory of that key that is not ours is not replaced."""
    if importlib.util.find_spec("mypyc") is None:
        raise MypycMissingError(f"hanabi-ref compile needs mypyc, which comes with mypy: {install_hint('compile')}")
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
        (build / MARKER).write_text(json.dumps({"project": PROJECT, "key": key}) + "\n")
        _restrict_modes(build)
        _remove_old_build(target)
        os.replace(build, target)
    except OSError as error:
        raise CompileError(f"cache directory {root}: {error.strerror or error}") from None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    _prune(root, keep=KEEP_BUILDS, current=target)
    return target


def _restrict_modes(build: Path) -> None:
    """[B-compiled] clear the group and others write bits in the whole build, whatever the
    umask, so that the ownership rule accepts it."""
    for path in (build, *build.rglob("*")):
        mode = stat.S_IMODE(path.lstat().st_mode)
        if not path.is_symlink() and mode & (stat.S_IWGRP | stat.S_IWOTH):
            path.chmod(mode & ~(stat.S_IWGRP | stat.S_IWOTH))


def _remove_old_build(target: Path) -> None:
    """Remove an earlier build of the same key, only if it is ours [B-compiled]."""
    if not os.path.lexists(target):
        return
    if target.is_symlink() or not target.is_dir() or not is_our_build(target):
        raise CompileError(f"cache directory {target.parent}: {target.name} exists and is not a build of ours; not replaced")
    shutil.rmtree(target)


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


def _prune(root: Path, keep: int, current: Path | None = None) -> None:
    """Remove all but the ``keep`` newest of our builds under ``root`` (``current``
    always kept) [B-compiled]; nothing else in the cache is touched."""
    builds = sorted(_our_builds(root), key=lambda build: (build[1] != current, -build[0]))
    for _, old in builds[keep:]:
        shutil.rmtree(old, ignore_errors=True)  # never follows a symlink


def _our_builds(root: Path) -> list[tuple[float, Path]]:
    """(marker's modification time, directory) of each build of ours directly under
    ``root``: a directory (not a symlink to one), owned by this user, carrying our marker."""
    builds = []
    try:
        with os.scandir(root) as iterator:
            entries = list(iterator)
    except OSError:
        return []
    for entry in entries:
        directory = Path(entry.path)
        try:
            if not entry.is_dir(follow_symlinks=False) or entry.stat(follow_symlinks=False).st_uid != os.geteuid():
                continue
            if is_our_build(directory):
                builds.append((os.lstat(directory / MARKER).st_mtime, directory))
        except OSError:
            continue
    return builds
