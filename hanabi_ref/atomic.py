"""Writing a file atomically: nothing half-written, an old file replaced only by a whole new one.

The data goes to a temporary file beside the target, which is renamed into place once it
is complete; on any error (or Ctrl-C) the temporary file is removed and the target is
untouched.  The new file gets the permissions an ordinary ``open`` would give it (the
process' umask), not the private mode of a temporary file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def write_atomically(path: str | Path, write: Callable[[BinaryIO], None]) -> None:
    """Call ``write`` on a temporary file beside ``path``, then rename it to ``path``.
    OS errors propagate; callers turn them into their own messages."""
    target = Path(path)
    handle, temporary = tempfile.mkstemp(dir=target.parent or Path("."), prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            write(file)
        os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, target)
    except BaseException:
        os.unlink(temporary)
        raise


def write_text_atomically(path: str | Path, text: str) -> None:
    """:func:`write_atomically` for UTF-8 text."""
    data = text.encode("utf-8")

    def write(file: BinaryIO) -> None:
        file.write(data)

    write_atomically(path, write)


def _umask() -> int:
    """The process' umask (a temporary file is created 0600; the result should not be)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
