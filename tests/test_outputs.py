"""Outputs that never clobber, and errors writing standard output [OUT-atomic, OUT-special,
OUT-symlink, OUT-stdout].

Everything happens inside the test's temporary directory: device nodes are made there with
``mknod`` (skipped where that is not permitted), FIFOs with ``mkfifo`` and a reader thread.
The expected modes come from the clause (``0666 & ~umask`` for a new file, the old bits
for a replaced one), the expected bytes from what the writer was given.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import pytest

from hanabi_ref.base import atomic
from hanabi_ref.base.atomic import write_atomically, write_text_atomically
from hanabi_ref.cli import EXIT_OK, EXIT_USAGE, main
from hanabi_ref.tools.sim.executors import SetupError
from hanabi_ref.tools.sim.files import check_output_path
from tests.processes import run_process

SWEEP = ["sweep", "--strategy", "thesis", "--players", "2", "--games", "3", "--grid", "rho_h=1,2",
         "--format", "csv", "--jobs", "1"]
SIMULATE = ["simulate", "--strategy", "simple", "--players", "2", "--games", "5", "--jobs", "1"]


class FifoReader:
    """Everything written to a FIFO, read by a thread (a writer's open waits for a reader)."""

    def __init__(self, path: Path) -> None:
        self.data = b""
        self._thread = threading.Thread(target=self._read, args=(path,), daemon=True)
        self._thread.start()

    def _read(self, path: Path) -> None:
        with open(path, "rb") as fifo:
            self.data = fifo.read()

    def result(self) -> bytes:
        self._thread.join(timeout=30)
        assert not self._thread.is_alive(), "the FIFO was never closed by its writer"
        return self.data


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "fifo"
    os.mkfifo(path)
    return path


def device(tmp_path: Path, name: str, minor: int) -> Path:
    """A character device node in ``tmp_path`` with the numbers of /dev/null (1, 3) or
    /dev/full (1, 7); skipped where mknod or opening device nodes here is not permitted."""
    path = tmp_path / name
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, minor))
        os.close(os.open(path, os.O_WRONLY))
    except PermissionError:
        pytest.skip("mknod (or device nodes on this file system) not permitted")
    return path


def listing(directory: Path) -> list[str]:
    return sorted(path.name for path in directory.iterdir())


@pytest.fixture
def umask_027() -> Iterator[None]:
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


# ------------------------------------------------------------------ [OUT-atomic]


@pytest.mark.checks("OUT-atomic")
def test_a_new_file_gets_0666_less_the_umask(tmp_path: Path, umask_027: None) -> None:
    """[OUT-atomic] a new file: the content, mode 0666 & ~0027 = 0640, nothing else left."""
    target = tmp_path / "new.json"
    write_text_atomically(target, "fresh\n")
    assert target.read_text(encoding="utf-8") == "fresh\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert listing(tmp_path) == ["new.json"]


@pytest.mark.checks("OUT-atomic")
@pytest.mark.parametrize("mode", [0o600, 0o640, 0o604])
def test_a_replaced_file_keeps_its_mode(tmp_path: Path, mode: int) -> None:
    """[OUT-atomic] an existing 0600 file stays 0600 (and any other bits), whatever the umask."""
    target = tmp_path / "secret.json"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(mode)
    write_text_atomically(target, "new\n")
    assert target.read_text(encoding="utf-8") == "new\n"
    assert stat.S_IMODE(target.stat().st_mode) == mode


@pytest.mark.checks("OUT-atomic")
@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root may give a file away")
def test_a_replaced_file_keeps_its_owner_where_permitted(tmp_path: Path) -> None:
    """[OUT-atomic] as root, the replaced file keeps its owner and group."""
    target = tmp_path / "theirs.json"
    target.write_text("old\n", encoding="utf-8")
    os.chown(target, 12345, 23456)
    write_text_atomically(target, "new\n")
    status = target.stat()
    assert (status.st_uid, status.st_gid) == (12345, 23456)


@pytest.mark.checks("OUT-atomic")
def test_the_file_and_its_directory_are_fsynced_around_the_rename(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """[OUT-atomic] the complete temporary file is fsynced before the rename, the directory after."""
    target = tmp_path / "out.txt"
    target.write_text("old\n", encoding="utf-8")
    seen: list[tuple[str, str]] = []
    real_fsync = os.fsync

    def fsync(handle: int) -> None:
        kind = "directory" if stat.S_ISDIR(os.fstat(handle).st_mode) else "file"
        seen.append((kind, target.read_text(encoding="utf-8")))
        real_fsync(handle)

    monkeypatch.setattr(os, "fsync", fsync)
    write_text_atomically(target, "new\n")
    assert seen == [("file", "old\n"), ("directory", "new\n")]


@pytest.mark.checks("OUT-atomic")
def test_a_hard_link_keeps_the_old_content(tmp_path: Path) -> None:
    """[OUT-atomic] the path given is replaced: another hard link keeps the old file."""
    target = tmp_path / "a.json"
    target.write_text("old\n", encoding="utf-8")
    other = tmp_path / "b.json"
    os.link(target, other)
    write_text_atomically(target, "new\n")
    assert target.read_text(encoding="utf-8") == "new\n"
    assert other.read_text(encoding="utf-8") == "old\n"
    assert target.stat().st_ino != other.stat().st_ino and other.stat().st_nlink == 1


@pytest.mark.checks("OUT-atomic")
@pytest.mark.parametrize("error", [RuntimeError("disk on fire"), KeyboardInterrupt()])
@pytest.mark.parametrize("existing", [True, False])
def test_a_failing_writer_leaves_no_temporary(tmp_path: Path, error: BaseException, existing: bool) -> None:
    """[OUT-atomic] half-written data never reaches the target; the temporary is removed."""
    target = tmp_path / "table.csv"
    if existing:
        target.write_bytes(b"old")

    def half_then_fail(file: BinaryIO) -> None:
        file.write(b"half")
        assert len([name for name in listing(tmp_path) if name.startswith(".table.csv.")]) == 1
        raise error

    with pytest.raises(type(error)):
        write_atomically(target, half_then_fail)
    assert listing(tmp_path) == (["table.csv"] if existing else [])
    if existing:
        assert target.read_bytes() == b"old"


@pytest.mark.checks("OUT-atomic")
@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root may write any file")
def test_a_read_only_file_is_refused(tmp_path: Path) -> None:
    """[OUT-atomic] a file we may not write is refused like the shell's ``>``, not replaced."""
    target = tmp_path / "locked.json"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o444)
    with pytest.raises(PermissionError):
        write_text_atomically(target, "new\n")
    assert target.read_text(encoding="utf-8") == "old\n"


# ------------------------------------------------------------------ [OUT-special]


@pytest.mark.checks("OUT-special")
def test_a_fifo_stays_a_fifo_and_receives_the_data(fifo: Path) -> None:
    """[OUT-special] a FIFO is written through to its reader, never replaced."""
    reader = FifoReader(fifo)
    write_text_atomically(fifo, "through the pipe\n")
    assert reader.result() == b"through the pipe\n"
    assert stat.S_ISFIFO(fifo.lstat().st_mode)
    assert listing(fifo.parent) == ["fifo"]


@pytest.mark.checks("OUT-special")
def test_a_character_device_is_written_through(tmp_path: Path) -> None:
    """[OUT-special] a copy of /dev/null stays that device (same numbers), nothing beside it."""
    null = device(tmp_path, "null", 3)
    write_text_atomically(null, "into the void\n")
    status = null.lstat()
    assert stat.S_ISCHR(status.st_mode) and status.st_rdev == os.makedev(1, 3)
    assert listing(tmp_path) == ["null"]


@pytest.mark.checks("OUT-special")
def test_a_full_device_gives_its_error_and_stays_a_device(tmp_path: Path) -> None:
    """[OUT-special] a copy of /dev/full: the write fails with ENOSPC (so it really went to
    the device, not to a file beside it) and the node is left as it was."""
    full = device(tmp_path, "full", 7)
    with pytest.raises(OSError) as raised:
        write_text_atomically(full, "too much\n")
    assert raised.value.errno == errno.ENOSPC
    assert stat.S_ISCHR(full.lstat().st_mode) and listing(tmp_path) == ["full"]


@pytest.mark.checks("OUT-special")
def test_a_dash_writes_to_standard_output(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """[OUT-special] ``-`` is standard output, after what was printed before; ``./-`` is a file."""
    monkeypatch.chdir(tmp_path)
    print("before")
    write_text_atomically("-", "the data\n")
    assert capsys.readouterr().out == "before\nthe data\n"
    assert listing(tmp_path) == []
    write_text_atomically("./-", "a file\n")
    assert (tmp_path / "-").read_text(encoding="utf-8") == "a file\n"
    assert capsys.readouterr().out == ""


@pytest.mark.checks("OUT-special")
@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
@pytest.mark.parametrize("form", ["/proc/self/fd/{}", "/dev/fd/{}", "{link}"])
def test_our_own_descriptor_is_written_to(tmp_path: Path, form: str) -> None:
    """[OUT-special] a path naming one of our descriptors (directly or through a link)
    writes to that descriptor, here a pipe's, and replaces nothing."""
    if form.startswith("/dev/fd") and not Path("/dev/fd").exists():
        pytest.skip("no /dev/fd")
    read_end, write_end = os.pipe()
    link = tmp_path / "link"
    link.symlink_to(f"/proc/self/fd/{write_end}")
    write_text_atomically(form.format(write_end, link=link), "to the descriptor\n")
    os.close(write_end)  # the writer's duplicate is closed too, or the read below never ends
    with os.fdopen(read_end, "rb") as reader:
        assert reader.read() == b"to the descriptor\n"
    assert listing(tmp_path) == ["link"] and link.is_symlink()


@pytest.mark.checks("OUT-special")
def test_a_directory_and_a_socket_are_refused(tmp_path: Path) -> None:
    """[OUT-special] neither a directory nor a socket is written or replaced."""
    with pytest.raises(IsADirectoryError):
        write_text_atomically(tmp_path, "x")
    path = tmp_path / "socket"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        with pytest.raises(OSError, match="neither a regular file"):
            write_text_atomically(path, "x")
        assert stat.S_ISSOCK(path.lstat().st_mode)


# ------------------------------------------------------------------ [OUT-symlink]


@pytest.mark.checks("OUT-symlink", "OUT-atomic")
def test_a_link_to_a_regular_file_replaces_the_file_and_keeps_the_link(tmp_path: Path) -> None:
    """[OUT-symlink, OUT-atomic] the link stays a link; the file it names is replaced in its
    own directory, keeping its mode."""
    (tmp_path / "real").mkdir()
    real = tmp_path / "real" / "table.csv"
    real.write_text("old\n", encoding="utf-8")
    real.chmod(0o600)
    link = tmp_path / "link.csv"
    link.symlink_to(Path("real") / "table.csv")
    write_text_atomically(link, "new\n")
    assert link.is_symlink() and os.readlink(link) == os.path.join("real", "table.csv")
    assert real.read_text(encoding="utf-8") == "new\n" and stat.S_IMODE(real.stat().st_mode) == 0o600
    assert listing(tmp_path) == ["link.csv", "real"] and listing(tmp_path / "real") == ["table.csv"]


@pytest.mark.checks("OUT-symlink", "OUT-special")
def test_a_link_to_a_fifo_writes_through(tmp_path: Path, fifo: Path) -> None:
    """[OUT-symlink, OUT-special] a link to a FIFO delivers to the FIFO's reader."""
    link = tmp_path / "link"
    link.symlink_to(fifo)
    reader = FifoReader(fifo)
    write_text_atomically(link, "via the link\n")
    assert reader.result() == b"via the link\n"
    assert link.is_symlink() and stat.S_ISFIFO(fifo.lstat().st_mode)


@pytest.mark.checks("OUT-symlink")
def test_a_dangling_link_is_refused(tmp_path: Path) -> None:
    """[OUT-symlink] a link that names nothing: an error naming its target, nothing created."""
    link = tmp_path / "link.json"
    link.symlink_to(tmp_path / "missing.json")
    with pytest.raises(FileNotFoundError, match="missing.json.*does not exist"):
        write_text_atomically(link, "x")
    assert listing(tmp_path) == ["link.json"] and link.is_symlink()
    with pytest.raises(SetupError, match=r"^--out .*link\.json: is a symbolic link to .*missing\.json"):
        check_output_path(str(link), "--out")


# ------------------------------------------------------------------ the commands


@pytest.mark.checks("OUT-special")
def test_output_checks_accept_special_files(tmp_path: Path, fifo: Path) -> None:
    """[SIM-errors, OUT-special] ``-``, a FIFO and a device need no writable directory;
    a directory is still refused before the run."""
    assert atomic.is_standard_output(check_output_path("-", "--out"))
    assert check_output_path(str(fifo), "--out") == fifo
    if Path("/dev/null").exists():
        assert check_output_path("/dev/null", "--out") == Path("/dev/null")
    with pytest.raises(SetupError, match="is a directory"):
        check_output_path(str(tmp_path), "--out")


@pytest.mark.checks("OUT-special")
def test_sweep_out_to_a_fifo(fifo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-sweep, OUT-special] ``sweep --out FIFO`` delivers the table to the reader."""
    reader = FifoReader(fifo)
    assert main(SWEEP + ["--out", str(fifo)]) == EXIT_OK
    assert reader.result().decode("utf-8").startswith("rho_h,mean_score,")
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and capsys.readouterr().out == ""


@pytest.mark.checks("OUT-special")
def test_sweep_out_to_a_device_node(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-sweep, OUT-special] ``sweep --out`` a copy of /dev/null leaves the node a device."""
    null = device(tmp_path, "null", 3)
    assert main(SWEEP + ["--out", str(null)]) == EXIT_OK
    assert stat.S_ISCHR(null.lstat().st_mode) and listing(tmp_path) == ["null"]
    assert capsys.readouterr().out == ""


@pytest.mark.checks("OUT-special")
def test_play_out_dash_prints_the_trace_and_the_summary_beside_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """[C-play, OUT-special] ``play --out -``: the trace (the same bytes as a file) on
    standard output, the summary on standard error."""
    monkeypatch.chdir(tmp_path)
    base = ["play", "--strategy", "simple", "--players", "3", "--seed", "4", "--json"]
    assert main(base + ["--out", "game.json"]) == EXIT_OK
    from_file = capsys.readouterr()
    assert main(base + ["--out", "-"]) == EXIT_OK
    to_stdout = capsys.readouterr()
    assert to_stdout.out == (tmp_path / "game.json").read_text(encoding="utf-8")
    assert json.loads(to_stdout.err) == json.loads(from_file.out)
    assert listing(tmp_path) == ["game.json"]


# ------------------------------------------------------------------ [OUT-stdout], in real processes


def command(argv: list[str]) -> list[str]:
    return [sys.executable, "-m", "hanabi_ref.cli", *argv]


def environment(unbuffered: bool) -> dict[str, str]:
    variables = {key: value for key, value in os.environ.items() if key != "PYTHONUNBUFFERED"}
    if unbuffered:
        variables["PYTHONUNBUFFERED"] = "1"
    return variables


def assert_one_line(stderr: str, fragment: str) -> None:
    assert stderr.count("\n") == 1 and fragment in stderr, stderr
    assert "Traceback" not in stderr and "Exception ignored" not in stderr


@pytest.mark.checks("OUT-stdout")
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("unbuffered", [False, True])
@pytest.mark.parametrize(("argv", "fragment"), [
    (SIMULATE, "hanabi-ref: standard output: cannot write: No space left on device"),
    (["play", "--strategy", "simple", "--players", "2", "--out", "-"], "--out: cannot write -: No space left"),
])
def test_a_full_standard_output_is_one_line_and_exit_2(unbuffered: bool, argv: list[str], fragment: str,
                                                        tmp_path: Path) -> None:
    """[OUT-stdout, C-exit] results that cannot be written: one line, exit 2, buffered or not."""
    with open("/dev/full", "wb") as full:
        done = run_process(command(argv), stdout=full, stderr=subprocess.PIPE, text=True,
                           env=environment(unbuffered), cwd=tmp_path, timeout=120, check=False)
    assert done.returncode == EXIT_USAGE
    assert_one_line(done.stderr, fragment)


@pytest.mark.checks("OUT-stdout")
def test_a_closed_standard_output_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """[OUT-stdout, C-exit] started with standard output closed: refused at once, exit 2."""
    done = run_process(["sh", "-c", 'exec "$@" >&-', "sh", *command(SIMULATE)], stderr=subprocess.PIPE,
                       text=True, cwd=tmp_path, timeout=120, check=False)
    assert done.returncode == EXIT_USAGE
    assert_one_line(done.stderr, "hanabi-ref: standard output is closed")


@pytest.mark.checks("OUT-stdout")
@pytest.mark.parametrize("unbuffered", [False, True])
@pytest.mark.parametrize("argv", [SIMULATE, SWEEP + ["--out", "-"]])
def test_a_broken_pipe_ends_quietly_with_0(unbuffered: bool, argv: list[str], tmp_path: Path) -> None:
    """[OUT-stdout] standard output is a pipe whose reader has gone before anything was
    written (every write fails with EPIPE): nothing on standard error, exit 0."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        done = run_process(command(argv), stdout=write_end, stderr=subprocess.PIPE, text=True,
                           env=environment(unbuffered), cwd=tmp_path, timeout=120, check=False)
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (EXIT_OK, "")
