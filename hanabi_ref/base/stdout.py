"""Standard output watched by the command line [OUT-stdout]: a write that fails is
remembered, so that an OS error is reported as standard output's only when it is, and a
failed stream is pointed at /dev/null before the interpreter's own flush at exit.
"""

from __future__ import annotations

import os
from typing import Any


class WatchedOutput:
    """[OUT-stdout] Standard output, remembering the error of a failed write, so that an OS
    error is reported as standard output's only when it is."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.failure: OSError | None = None

    def write(self, text: str) -> int:
        try:
            return int(self.stream.write(text))
        except OSError as error:
            self.failure = error
            raise

    def flush(self) -> None:
        try:
            self.stream.flush()
        except OSError as error:
            self.failure = error
            raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)


def is_failing(stream: Any) -> bool:
    """[OUT-stdout] Whether ``stream`` cannot take what it holds (a buffered stream keeps
    what it could not write)."""
    try:
        stream.flush()
    except (OSError, ValueError):
        return True
    return False


def point_at_devnull(stream: Any) -> None:
    """[OUT-stdout] Point a failed stream's descriptor at /dev/null, so that Python's own
    flush at exit fails no more (no "Exception ignored" message, no changed exit code)."""
    try:
        descriptor = stream.fileno()
    except (OSError, ValueError):
        return
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, descriptor)
    os.close(null)
