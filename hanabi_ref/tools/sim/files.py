"""Output files of simulations, checked before the run and written without clobbering
anything [SIM-errors, OUT-atomic, OUT-special, OUT-symlink].

A regular file is written to a temporary file in its directory and renamed into place, so
an error or Ctrl-C never leaves a half-written file, and an existing file is replaced only
by a complete one; ``-``, character devices and FIFOs are written straight through
(spec/outputs.md).  Paths are checked before any game is played.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from hanabi_ref.base import atomic
from hanabi_ref.tools.sim.executors import SetupError


def check_output_path(path: str, option: str, suffixes: tuple[str, ...] | None = None) -> Path:
    """``path`` as a writable target of ``option``, or :class:`SetupError` [SIM-errors,
    OUT-special, OUT-symlink]: its suffix must be one of ``suffixes``; a file to create or
    replace needs an existing, writable directory; ``-`` (standard output), a character
    device or a FIFO needs nothing more; a directory or a dangling link is refused."""
    target = _as_path(path)
    if suffixes is not None and target.suffix.lower() not in suffixes:
        shown = target.suffix or "none"
        raise SetupError(f"{option} {path}: unsupported file type {shown!r} (use {' or '.join(suffixes)})")
    directory = target.parent
    if not directory.is_dir():
        raise SetupError(f"{option} {path}: directory {str(directory)!r} does not exist")
    try:
        kind = atomic.classify(target)
    except OSError as error:
        raise SetupError(f"{option} {path}: {error.strerror or error}") from None
    if kind.kind in (atomic.Kind.NEW, atomic.Kind.REGULAR) and not os.access(kind.path.parent, os.W_OK):
        raise SetupError(f"{option} {path}: directory {str(kind.path.parent)!r} is not writable")
    return target


def _as_path(path: str) -> Path:
    """[OUT-special] ``-`` stays standard output; another path that :class:`Path` would
    shorten to ``-`` (``./-``) names the file ``-`` of the current directory."""
    target = Path(path)
    if path != atomic.STANDARD_OUTPUT and atomic.is_standard_output(target):
        return Path.cwd() / atomic.STANDARD_OUTPUT
    return target


def write_atomically(path: Path, write: Callable[[BinaryIO], None], option: str) -> None:
    """:func:`hanabi_ref.base.atomic.write_atomically`, with an OS error turned into
    :class:`SetupError` naming ``option`` [OUT-stdout]: a broken pipe on standard output is
    left to end the command quietly."""
    try:
        atomic.write_atomically(path, write)
    except BrokenPipeError:
        if atomic.is_standard_output(path):
            raise
        raise SetupError(f"{option} {path}: cannot write: the reader of the pipe has gone") from None
    except OSError as error:
        raise SetupError(f"{option} {path}: cannot write: {error.strerror or error}") from None


def write_text_atomically(path: Path, text: str, option: str) -> None:
    """:func:`write_atomically` for UTF-8 text."""
    data = text.encode("utf-8")

    def write(file: BinaryIO) -> None:
        file.write(data)

    write_atomically(path, write, option)
