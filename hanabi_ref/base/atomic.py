"""Writing an output file without clobbering anything [OUT-atomic, OUT-special, OUT-symlink].

What happens depends on what the path names (spec/outputs.md):

* ``-``: standard output, written straight through [OUT-special];
* a path that does not exist yet, or a regular file: a temporary file beside it is written,
  flushed and fsynced, given the old file's permission bits (a new file: ``0666 & ~umask``),
  renamed over it, and the directory is fsynced [OUT-atomic].  On any error (or Ctrl-C) the
  temporary file is removed and the target is untouched.  Other hard links of a replaced
  file keep the old content;
* a character device (``/dev/null``) or a FIFO: opened and written straight through, never
  replaced [OUT-special];
* one of this process' own descriptors (``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N``,
  ``/proc/self/fd/N``): written to that descriptor, as the shell does [OUT-special];
* a symbolic link: followed; the rules above apply to the file it finally names, and a
  link that names nothing is refused [OUT-symlink];
* anything else (a directory, a block device, a socket): refused.

Errors are :class:`OSError` with a short ``strerror``; callers turn them into their own
one-line messages.
"""

from __future__ import annotations

import contextlib
import enum
import errno
import os
import re
import stat
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

import attrs

STANDARD_OUTPUT = "-"
MAX_LINK_HOPS = 40  # the kernel's own limit on symbolic links in one lookup (ELOOP)


class Kind(enum.Enum):
    """What an output path names, which decides how it is written."""

    NEW = "new"  # nothing there yet: created atomically [OUT-atomic]
    REGULAR = "regular"  # a regular file (perhaps behind links): replaced atomically [OUT-atomic]
    STREAM = "stream"  # a character device or a FIFO: written through [OUT-special]
    DESCRIPTOR = "descriptor"  # one of our own open descriptors: written to it [OUT-special]
    STANDARD_OUTPUT = "standard output"  # ``-`` [OUT-special]


@attrs.frozen
class Target:
    """Where an output goes: ``path`` is the file to create or replace (links resolved) or
    the stream to open; ``descriptor`` our own descriptor; ``existing`` the status of the
    regular file being replaced."""

    kind: Kind
    path: Path
    descriptor: int | None = None
    existing: os.stat_result | None = None


def write_atomically(path: str | Path, write: Callable[[BinaryIO], None]) -> None:
    """Call ``write`` on the output ``path`` names, by the rules of spec/outputs.md [OUT-atomic,
    OUT-special, OUT-symlink].  OS errors propagate; callers turn them into their own messages."""
    target = classify(path)
    if target.kind is Kind.STANDARD_OUTPUT:
        _write_standard_output(write)
    elif target.kind is Kind.DESCRIPTOR:
        assert target.descriptor is not None
        _write_descriptor(target.descriptor, write)
    elif target.kind is Kind.STREAM:
        _write_stream(target.path, write)
    else:
        _replace(target, write)


def wrote(path: str | Path) -> str | None:
    """[OUT-report] the line a command prints on standard error after writing the file
    ``path`` names: ``hanabi-ref: wrote PATH (N bytes)``; None for standard output, one of
    our descriptors, a device or a FIFO (nothing stays there to name)."""
    if is_standard_output(path):
        return None
    file = Path(path)
    try:
        if not file.is_file():
            return None
        size = file.stat().st_size
    except OSError:
        return None
    return f"hanabi-ref: wrote {path} ({size:,} byte{'' if size == 1 else 's'})"


def report_written(path: str | Path) -> None:
    """[OUT-report] print :func:`wrote`'s line on standard error, if there is one."""
    line = wrote(path)
    if line is not None:
        print(line, file=sys.stderr, flush=True)


def write_text_atomically(path: str | Path, text: str) -> None:
    """:func:`write_atomically` for UTF-8 text."""
    write_bytes_atomically(path, text.encode("utf-8"))


def write_bytes_atomically(path: str | Path, data: bytes) -> None:
    """:func:`write_atomically` for bytes."""

    def write(file: BinaryIO) -> None:
        file.write(data)

    write_atomically(path, write)


def is_standard_output(path: str | Path) -> bool:
    """[OUT-special] ``-`` names standard output (``./-`` is a file called ``-``)."""
    return os.fspath(path) == STANDARD_OUTPUT


def classify(path: str | Path) -> Target:
    """What ``path`` names, symbolic links followed [OUT-special, OUT-symlink]; a dangling
    link, a directory, a block device, a socket or a regular file we may not write is
    refused with an :class:`OSError`."""
    text = os.fspath(path)
    if text == STANDARD_OUTPUT:
        return Target(Kind.STANDARD_OUTPUT, Path(text))
    descriptor = own_descriptor(text)
    if descriptor is not None:
        return Target(Kind.DESCRIPTOR, Path(text), descriptor=descriptor)
    try:
        status = os.stat(text)
    except FileNotFoundError:
        if os.path.islink(text):
            raise FileNotFoundError(errno.ENOENT, f"is a symbolic link to {os.readlink(text)!r}, which does not exist") from None
        return Target(Kind.NEW, Path(text))
    return _existing_target(text, status)


def _existing_target(text: str, status: os.stat_result) -> Target:
    """[OUT-atomic, OUT-special] The target for an existing file of this status."""
    if stat.S_ISREG(status.st_mode):
        if not os.access(text, os.W_OK):
            raise PermissionError(errno.EACCES, "permission denied (the file is not writable)")
        return Target(Kind.REGULAR, Path(os.path.realpath(text)), existing=status)
    if stat.S_ISCHR(status.st_mode) or stat.S_ISFIFO(status.st_mode):
        return Target(Kind.STREAM, Path(text))
    if stat.S_ISDIR(status.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a directory")
    raise OSError(errno.EINVAL, "is neither a regular file, a character device nor a FIFO")


def own_descriptor(text: str) -> int | None:
    """[OUT-special] The descriptor N if ``text`` names one of this process' own open
    descriptors (``/proc/self/fd/N``, ``/dev/fd/N``, ``/dev/stdout`` ...), links followed;
    else None."""
    current = os.path.abspath(text)
    for _ in range(MAX_LINK_HOPS):
        name = os.path.basename(current)
        if name.isdigit() and _is_own_descriptor_directory(os.path.realpath(os.path.dirname(current))):
            return int(name)
        if not os.path.islink(current):
            return None
        current = os.path.join(os.path.dirname(current), os.readlink(current))
    return None


def _is_own_descriptor_directory(directory: str) -> bool:
    """[OUT-special] ``/proc/PID/fd`` (or a thread's ``/proc/PID/task/TID/fd``) of this process."""
    return re.fullmatch(rf"/proc/{os.getpid()}(/task/\d+)?/fd", directory) is not None


# ------------------------------------------------------------------ written through [OUT-special]


def _write_standard_output(write: Callable[[BinaryIO], None]) -> None:
    """[OUT-special] ``-``: after what was printed before, flushed so errors show here."""
    if sys.stdout is None:
        raise OSError(errno.EBADF, "standard output is closed")
    sys.stdout.flush()
    write(sys.stdout.buffer)
    sys.stdout.buffer.flush()


def _write_descriptor(descriptor: int, write: Callable[[BinaryIO], None]) -> None:
    """[OUT-special] Our own descriptor, as the shell's ``>/dev/stdout`` does: a duplicate of
    it, after flushing what Python holds for standard output and error."""
    for stream in (sys.stdout, sys.stderr):
        if stream is not None:
            stream.flush()
    with os.fdopen(os.dup(descriptor), "wb") as file:
        write(file)


def _write_stream(path: Path, write: Callable[[BinaryIO], None]) -> None:
    """[OUT-special] A character device or a FIFO: opened without creating or truncating
    anything (a FIFO waits for its reader), and written."""
    handle = os.open(path, os.O_WRONLY | os.O_NOCTTY)
    mode = os.fstat(handle).st_mode
    if not (stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)):  # changed since we looked: write nothing
        os.close(handle)
        raise OSError(errno.EAGAIN, "changed while being opened")
    with os.fdopen(handle, "wb") as file:
        write(file)


# ------------------------------------------------------------------ replaced atomically [OUT-atomic]


def _replace(target: Target, write: Callable[[BinaryIO], None]) -> None:
    """[OUT-atomic] Temporary file beside the target: written, flushed, given the target's
    owner and mode, fsynced, renamed over it; then the directory is fsynced.  The temporary
    file never outlives an error or an interrupt."""
    directory = target.path.parent
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=f".{target.path.name}.", suffix=".tmp")
    replaced = False
    try:
        with os.fdopen(handle, "wb") as file:
            write(file)
            file.flush()
            _keep_owner_and_mode(file.fileno(), target.existing)
            os.fsync(file.fileno())
        os.replace(temporary, target.path)
        replaced = True
        _fsync_directory(directory)
    except BaseException:
        if not replaced:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
        raise


def _keep_owner_and_mode(handle: int, existing: os.stat_result | None) -> None:
    """[OUT-atomic] The replaced file's owner (where we may set it) and permission bits; a
    new file gets those an ordinary ``open`` would give (``0666 & ~umask``)."""
    if existing is None:
        os.fchmod(handle, 0o666 & ~_umask())
        return
    mine = os.fstat(handle)
    if (mine.st_uid, mine.st_gid) != (existing.st_uid, existing.st_gid):
        with contextlib.suppress(PermissionError):
            os.fchown(handle, existing.st_uid, existing.st_gid)
    os.fchmod(handle, stat.S_IMODE(existing.st_mode) & 0o777)


def _fsync_directory(directory: Path) -> None:
    """[OUT-atomic] Make the rename durable; file systems that cannot fsync a directory
    (EINVAL) are left as they are."""
    handle = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        os.fsync(handle)
    except OSError as error:
        if error.errno not in (errno.EINVAL, errno.ENOTSUP):
            raise
    finally:
        os.close(handle)


def _umask() -> int:
    """The process' umask (a temporary file is created 0600; the result should not be)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
