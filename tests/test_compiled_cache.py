"""The compiled build's cache is a directory the user controls [B-compiled]: pruning
removes only directories carrying our marker, a cache that cannot be inspected breaks no
command (one warning line, the sources run), and a build is loaded only when it and its
files are owned by this user or root and writable by nobody else.

The builds here are fakes (empty extension files under a manifest and a marker): they
are never loaded, only inspected, pruned or refused; a process that would load one is
never started.  The real build is made by the deep tests of tests/test_compiled.py.
"""

from __future__ import annotations

import importlib.machinery
import json
import os
import stat
import subprocess
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from hanabi_ref.tools import compiled
from hanabi_ref.cli import main
from tests.oracles import needs
from tests.processes import run_process

ROOT = Path(__file__).resolve().parents[1]
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
WRITE_BY_OTHERS = stat.S_IWGRP | stat.S_IWOTH


def _env(cache: Path, **extra: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith("HANABI_REF_")}
    env.update(PYTHONPATH=str(ROOT), HANABI_REF_CACHE=str(cache), **extra)
    return env


def _extension(name: str) -> str:
    return str(Path(*name.split("."))) + SUFFIX


def _write_fake_files(build: Path, modules: Sequence[str]) -> dict[str, str]:
    """Empty extension files for ``modules`` under ``build``; {module: relative path}."""
    files = {}
    for name in modules:
        path = build / _extension(name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"")
        files[name] = _extension(name)
    return files


def _fake_build(root: Path, key: str, marker: object = None) -> Path:
    """A directory shaped like one of our builds: extension files for every module, a
    manifest, and a marker (ours for ``key`` unless ``marker`` is given)."""
    directory = root / key
    files = _write_fake_files(directory, compiled.MODULES)
    (directory / "manifest.json").write_text(json.dumps({"key": key, "files": files}))
    written = {"project": "hanabi-ref", "key": key} if marker is None else marker
    (directory / compiled.MARKER).write_text(json.dumps(written))
    return directory


def _age(path: Path, seconds_ago: float) -> None:
    """Date the marker (or, for a foreign folder, the manifest) ``seconds_ago``."""
    for name in (compiled.MARKER, "manifest.json"):
        if (path / name).is_file() and not (path / name).is_symlink():
            os.utime(path / name, (1_000_000_000 - seconds_ago, 1_000_000_000 - seconds_ago))


def _tree(path: Path) -> list[str]:
    return sorted(str(item.relative_to(path)) for item in path.rglob("*"))


@pytest.fixture
def crowded_cache(tmp_path: Path) -> Iterator[tuple[Path, dict[str, list[str]], Path]]:
    """A cache shared with other programs: five old builds of ours and, all older,
    things that are not ours; yields (cache, {name: tree of each foreign entry}, the
    directory a symlink in the cache points to)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    for index in range(5):
        _age(_fake_build(cache, f"{index}" * 24), 100 - index)  # "4"*24 is the newest
    foreign = cache / "other-project"
    foreign.mkdir()
    (foreign / "manifest.json").write_text('{"files": {}}')
    _age(_fake_build(cache, "f" * 24, marker={"project": "other-project", "key": "f" * 24}), 1000)
    _age(_fake_build(cache, "e" * 24, marker={"project": "hanabi-ref", "key": "d" * 24}), 1000)
    not_json = _fake_build(cache, "c" * 24)
    (not_json / compiled.MARKER).write_text("{not json")
    outside = tmp_path / "outside"
    outside.mkdir()
    linked_marker = _fake_build(cache, "b" * 24)
    (linked_marker / compiled.MARKER).rename(outside / compiled.MARKER)  # names us and "b"*24
    (linked_marker / compiled.MARKER).symlink_to(outside / compiled.MARKER)
    _age(_fake_build(outside, "a" * 24), -10)  # a genuine build of ours, the newest, reached by a symlink
    (cache / ("a" * 24)).symlink_to(outside / ("a" * 24), target_is_directory=True)
    (cache / "notes.txt").write_text("a file")
    trees = {name: _tree(cache / name) for name in ("other-project", "f" * 24, "e" * 24, "c" * 24, "b" * 24)}
    yield cache, trees, outside / ("a" * 24)


def _assert_foreign_entries_survive(cache: Path, trees: dict[str, list[str]], linked: Path) -> None:
    for name, tree in trees.items():
        assert (cache / name).is_dir() and _tree(cache / name) == tree, name
    assert (cache / ("a" * 24)).is_symlink() and compiled.is_our_build(linked)
    assert (cache / "notes.txt").read_text() == "a file"


@pytest.mark.checks("B-compiled")
def test_pruning_removes_only_our_oldest_builds(crowded_cache: tuple[Path, dict[str, list[str]], Path]) -> None:
    """[B-compiled] of the five builds carrying our marker the two oldest go; a folder with
    a manifest.json, a marker naming another project or another key, a marker that is not
    JSON or is a symlink, a symlink to one of our builds, and a file all stay."""
    cache, trees, linked = crowded_cache
    compiled._prune(cache, keep=3)
    assert sorted(path.name for path in cache.iterdir() if compiled.is_our_build(path) and not path.is_symlink()) == [
        "2" * 24, "3" * 24, "4" * 24]
    assert not (cache / ("0" * 24)).exists() and not (cache / ("1" * 24)).exists()
    _assert_foreign_entries_survive(cache, trees, linked)


def _fake_compile_group(scratch: Path, group: Sequence[str], build: Path, verbose: bool) -> dict[str, str]:
    """Stands for mypyc: empty extension files, written under the process's umask."""
    return _write_fake_files(build, group)


@pytest.mark.checks("B-compiled")
@needs("mypyc")
def test_compile_marks_its_build_keeps_it_private_and_prunes_only_ours(
    monkeypatch: pytest.MonkeyPatch, crowded_cache: tuple[Path, dict[str, list[str]], Path]
) -> None:
    """[B-compiled] ``compile`` (mypyc stood in for) under a umask letting the group write:
    the new build carries our marker naming its key, nothing in it is writable by group or
    others, it is found and passes the ownership rule; with it, the four newest of ours
    are kept and every foreign entry of the shared cache is untouched."""
    cache, trees, linked = crowded_cache
    monkeypatch.setenv("HANABI_REF_CACHE", str(cache))
    monkeypatch.setattr(compiled, "_compile_group", _fake_compile_group)
    previous = os.umask(0o002)
    try:
        target = compiled.compile_modules()
    finally:
        os.umask(previous)
    assert target == cache / compiled.build_key() and compiled.is_our_build(target)
    assert all(not path.lstat().st_mode & WRITE_BY_OTHERS for path in (target, *target.rglob("*")))
    assert compiled.locate_build(compiled.MODULES) == {name: target / _extension(name) for name in compiled.MODULES}
    ours = sorted(path.name for path in cache.iterdir() if compiled.is_our_build(path) and not path.is_symlink())
    assert ours == sorted(["2" * 24, "3" * 24, "4" * 24, target.name])
    _assert_foreign_entries_survive(cache, trees, linked)


@pytest.mark.checks("B-compiled")
@needs("mypyc")
def test_compile_does_not_replace_a_foreign_directory_of_its_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """[B-compiled] a directory named like the build's key without our marker is not ours:
    compile stops with one line, exit code 1, and leaves it as it was."""
    foreign = tmp_path / compiled.build_key()
    foreign.mkdir()
    (foreign / "manifest.json").write_text('{"files": {}}')
    monkeypatch.setenv("HANABI_REF_CACHE", str(tmp_path))
    monkeypatch.setattr(compiled, "_compile_group", _fake_compile_group)
    assert main(["compile"]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and "is not a build of ours; not replaced" in error
    assert _tree(foreign) == ["manifest.json"]
    assert [path.name for path in tmp_path.iterdir()] == [foreign.name]  # no scratch left


HELP_WITH_PERMISSION_DENIED = """
import os, sys
real_stat = os.stat
def stat(path, *args, **kwargs):
    if os.fspath(path) == os.environ["HANABI_REF_CACHE"]:
        raise PermissionError(13, "Permission denied", os.fspath(path))
    return real_stat(path, *args, **kwargs)
os.stat = stat
from hanabi_ref.cli import main
main(["--help"])
"""


def _assert_one_warning(run: subprocess.CompletedProcess[str], reason: str) -> None:
    assert run.returncode == 0 and run.stdout.startswith("usage: hanabi-ref"), run.stderr
    assert run.stderr.count("\n") == 1 and "Traceback" not in run.stderr
    assert run.stderr.startswith("hanabi-ref: warning: compiled build not used: ") and reason in run.stderr
    assert run.stderr.endswith("; running from sources\n")


@pytest.mark.checks("B-compiled")
def test_a_cache_under_a_file_breaks_no_command(tmp_path: Path) -> None:
    """[B-compiled] opted in by the environment, the cache path under a regular file
    (cannot be inspected): ``hanabi-ref --help`` works, with one warning line naming the
    path and why."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    command = [sys.executable, "-m", "hanabi_ref.cli", "--help"]
    run = run_process(command, env=_env(blocker / "sub", HANABI_REF_COMPILED="1"), capture_output=True, text=True)
    _assert_one_warning(run, f"cache directory {blocker / 'sub'}: Not a directory")


@pytest.mark.checks("B-compiled")
def test_a_cache_that_is_a_file_breaks_no_command(tmp_path: Path) -> None:
    """[B-compiled] the cache path is itself a regular file: the same, "not a directory"."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    command = [sys.executable, "-m", "hanabi_ref.cli", "--help"]
    run = run_process(command, env=_env(blocker, HANABI_REF_COMPILED="1"), capture_output=True, text=True)
    _assert_one_warning(run, f"cache directory {blocker}: not a directory")


@pytest.mark.checks("B-compiled")
def test_a_cache_without_permission_breaks_no_command(tmp_path: Path) -> None:
    """[B-compiled] the issue's case: inspecting the cache raises PermissionError (stood
    in for, as tests run as root): ``--help`` works, one warning line."""
    run = run_process([sys.executable, "-c", HELP_WITH_PERMISSION_DENIED],
                      env=_env(tmp_path / "cache", HANABI_REF_COMPILED="1"), capture_output=True, text=True)
    _assert_one_warning(run, f"cache directory {tmp_path / 'cache'}: Permission denied")


@pytest.mark.checks("B-compiled")
def test_an_uninspectable_cache_is_no_build_to_status_and_strict_enable(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """[B-compiled] find_build says None, locate_build and enable(strict=True) raise
    UnusableBuildError with the one-line reason, status() reports it."""
    monkeypatch.setenv("HANABI_REF_CACHE", str(tmp_path / "file" / "sub"))
    (tmp_path / "file").write_text("")
    assert compiled.find_build() is None
    with pytest.raises(compiled.UnusableBuildError, match="Not a directory"):
        compiled.locate_build()
    monkeypatch.setattr(compiled, "loadable_modules", lambda: ())  # nothing imported too early
    with pytest.raises(compiled.UnusableBuildError, match="Not a directory"):
        compiled.enable(strict=True)
    assert not compiled.is_enabled()
    assert compiled.status()["refused"] == f"cache directory {tmp_path / 'file' / 'sub'}: Not a directory"


@pytest.fixture
def build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fake build of exactly these sources, with the modes a build gets."""
    monkeypatch.setenv("HANABI_REF_CACHE", str(tmp_path))
    directory = _fake_build(tmp_path, compiled.build_key())
    for path in (directory, *directory.rglob("*")):
        path.chmod(0o755 if path.is_dir() else 0o644)
    return directory


def test_a_private_build_passes_the_ownership_rule(build: Path) -> None:
    """[B-compiled] the control for the refusals below: the same build, private, is found."""
    assert compiled.locate_build(compiled.MODULES) == {name: build / _extension(name) for name in compiled.MODULES}


@pytest.mark.checks("B-compiled")
@pytest.mark.parametrize("relative, mode", [
    (".", 0o775),
    (".", 0o757),
    ("hanabi_ref/players/strategies", 0o775),
    (_extension("hanabi_ref.players.strategies.thesis"), 0o664),
    (_extension("hanabi_ref.engine.transition"), 0o646),
    ("manifest.json", 0o666),
])
def test_a_build_writable_by_others_is_refused(build: Path, relative: str, mode: int) -> None:
    """[B-compiled] a build directory, a directory on the way to an extension, an extension
    or the manifest writable by group or others: refused, naming the path and its mode."""
    (build / relative).chmod(mode)
    with pytest.raises(compiled.UnusableBuildError, match=f"writable by group or others \\(mode {mode:04o}\\)"):
        compiled.locate_build(compiled.MODULES)
    assert compiled.find_build(compiled.MODULES) is None


@pytest.mark.checks("B-compiled")
@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another user needs root")
def test_a_build_owned_by_another_user_is_refused(build: Path) -> None:
    """[B-compiled] an extension owned by another user (not root): refused."""
    os.chown(build / _extension("hanabi_ref.players.strategies.knowledge"), 54321, 54321)
    with pytest.raises(compiled.UnusableBuildError, match="owned by uid 54321, neither this user nor root"):
        compiled.locate_build(compiled.MODULES)


@pytest.mark.checks("B-compiled")
def test_a_manifest_leading_out_of_the_build_is_refused(build: Path) -> None:
    """[B-compiled] a manifest naming a file outside its build directory: refused."""
    manifest = json.loads((build / "manifest.json").read_text())
    manifest["files"]["hanabi_ref.players.strategies.thesis"] = "../elsewhere" + SUFFIX
    (build / "manifest.json").write_text(json.dumps(manifest))
    (build.parent / ("elsewhere" + SUFFIX)).write_bytes(b"")
    with pytest.raises(compiled.UnusableBuildError, match="outside the build"):
        compiled.locate_build(compiled.MODULES)


@pytest.mark.checks("B-compiled")
def test_a_group_writable_build_is_not_loaded_by_an_opted_in_command(build: Path) -> None:
    """[B-compiled] opted in by the environment with contracts off, a group-writable build
    of these sources: ``--help`` works, the build is not loaded, one warning line."""
    build.chmod(0o775)
    command = [sys.executable, "-m", "hanabi_ref.cli", "--help"]
    run = run_process(command, env=_env(build.parent, HANABI_REF_COMPILED="1", HANABI_REF_CONTRACTS="0"),
                      capture_output=True, text=True)
    _assert_one_warning(run, f"{build}: writable by group or others (mode 0775)")


@pytest.mark.checks("B-compiled")
def test_a_build_without_our_marker_is_not_loaded(build: Path) -> None:
    """[B-compiled] the same build with its marker removed, or naming another project:
    there is no build (nothing loaded, nothing said)."""
    (build / compiled.MARKER).write_text(json.dumps({"project": "other-project", "key": build.name}))
    assert compiled.locate_build(compiled.MODULES) is None
    (build / compiled.MARKER).unlink()
    assert compiled.locate_build(compiled.MODULES) is None


@pytest.mark.checks("B-compiled")
def test_compiled_flag_with_an_unusable_cache_is_one_usage_line(tmp_path: Path) -> None:
    """[B-compiled, C-exit] ``--compiled`` asked for on the command line with a cache that
    cannot be used: exit 2 with one line naming --compiled and why (not a warning and
    then a second error)."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    command = [sys.executable, "-m", "hanabi_ref.cli", "simulate", "--compiled", "--games", "1", "--strategy", "simple", "--players", "2"]
    run = run_process(command, env=_env(blocker), capture_output=True, text=True)
    assert run.returncode == 2 and run.stderr.count("\n") == 1, run.stderr
    assert run.stderr.startswith(f"hanabi-ref: --compiled: cache directory {blocker}: not a directory"), run.stderr
