"""Output files of simulations, written atomically [SIM-errors].

A table or a chart is written to a temporary file in the target's directory and renamed
into place, so an error or Ctrl-C never leaves a half-written file, and an existing file
is replaced only by a complete one.  Paths are checked before any game is played.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

from hanabi_ref import atomic
from hanabi_ref.sim.executors import SetupError


def check_output_path(path: str, option: str, suffixes: tuple[str, ...] | None = None) -> Path:
    """``path`` as a writable target of ``option``, or :class:`SetupError`: its directory
    must exist, it must not be a directory, and its suffix must be one of ``suffixes``."""
    target = Path(path)
    if suffixes is not None and target.suffix.lower() not in suffixes:
        shown = target.suffix or "none"
        raise SetupError(f"{option} {path}: unsupported file type {shown!r} (use {' or '.join(suffixes)})")
    directory = target.parent
    if not directory.is_dir():
        raise SetupError(f"{option} {path}: directory {str(directory)!r} does not exist")
    if target.is_dir():
        raise SetupError(f"{option} {path}: is a directory")
    if not os.access(directory, os.W_OK):
        raise SetupError(f"{option} {path}: directory {str(directory)!r} is not writable")
    return target


def write_atomically(path: Path, write: Callable[[BinaryIO], None], option: str) -> None:
    """:func:`hanabi_ref.atomic.write_atomically`, with an OS error turned into
    :class:`SetupError` naming ``option``."""
    try:
        atomic.write_atomically(path, write)
    except OSError as error:
        raise SetupError(f"{option} {path}: cannot write: {error.strerror or error}") from None


def write_text_atomically(path: Path, text: str, option: str) -> None:
    """:func:`write_atomically` for UTF-8 text."""
    data = text.encode("utf-8")

    def write(file: BinaryIO) -> None:
        file.write(data)

    write_atomically(path, write, option)
