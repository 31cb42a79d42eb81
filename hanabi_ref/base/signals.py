"""The signals that end a long run, handled alike by every command that runs one
[SV-signals, SIM-orphans, EP-lifecycle].

Ctrl-C (SIGINT), SIGTERM (``kill PID``, systemd, docker) and SIGHUP (the terminal went
away) each stop the run in the main thread: SIGINT raises :class:`KeyboardInterrupt`, as
Python's own handler does (the command line prints ``hanabi-ref: interrupted`` and exits
with 130); SIGTERM and SIGHUP raise :class:`Stopped`, whose :attr:`Stopped.line` and
:attr:`Stopped.code` the command reports once its workers are ended (``hanabi-ref:
terminated``, 143; ``hanabi-ref: hung up``, 129).  Only the first of these signals counts:
the ones that follow while the run is being cleaned up are ignored, so that nothing cuts
the clean-up short.  :func:`exit_now` then ends the process as the signal's default action
would, without the interpreter's exit handlers.

``solve``, ``simulate`` and ``sweep`` use this module; ``verify`` keeps its own, which
also stops the engine under test (``hanabi_ref/tools/verify/session.py``).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Final, NoReturn

STOP_SIGNALS: Final = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
"""The signals that stop a run (SV-signals)."""

LINES: Final = {signal.SIGTERM: "hanabi-ref: terminated", signal.SIGHUP: "hanabi-ref: hung up"}
"""[SV-signals] the one line each signal that :class:`Stopped` stands for prints."""


class Stopped(BaseException):
    """[SV-signals] SIGTERM or SIGHUP arrived: unwind like Ctrl-C (a BaseException, so
    that no ``except Exception`` on the way takes it for a failure), ending the workers."""

    def __init__(self, signum: int) -> None:
        self.signum = signum
        super().__init__(self.line)

    @property
    def line(self) -> str:
        """The one line on stderr that reports the stop."""
        return LINES.get(signal.Signals(self.signum), f"hanabi-ref: terminated by {signal.Signals(self.signum).name}")

    @property
    def code(self) -> int:
        """The exit code: 128 + the signal's number, as a shell reports a process it ended."""
        return 128 + self.signum


@contextmanager
def signals_stop_run() -> Iterator[None]:
    """[SV-signals] While inside (in the main thread), the first of SIGINT, SIGTERM and
    SIGHUP raises :class:`KeyboardInterrupt` (SIGINT) or :class:`Stopped`, and the others
    are ignored from then on; the previous handlers come back on the way out.  A signal
    ignored when the run starts stays ignored (``nohup`` ignores SIGHUP, a shell's
    background job SIGINT).  Outside the main thread, where handlers cannot be set,
    nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: FrameType | None) -> None:
        for each in previous:  # one is enough: the run is stopping
            signal.signal(each, signal.SIG_IGN)
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Stopped(signum)

    wanted = [signum for signum in STOP_SIGNALS if signal.getsignal(signum) is not signal.SIG_IGN]
    previous = {signum: signal.signal(signum, stop) for signum in wanted}
    try:
        yield
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


@contextmanager
def signals_held() -> Iterator[None]:
    """[EP-lifecycle, SV-signals] hold SIGINT, SIGTERM and SIGHUP while processes are being
    ended, so that no signal cuts the clean-up short; one that came meanwhile is delivered
    after."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, set(STOP_SIGNALS))
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def exit_now(code: int) -> NoReturn:
    """[SV-signals, SIM-orphans] End the process as a signal's default action would, once
    the run has been cleaned up (its workers ended, its line printed): the interpreter's
    exit handlers are skipped, as they are under that default.  They would gain nothing,
    and one of them (concurrent.futures' wake-up of a pool's manager thread) races the
    thread it wakes and can print an "Exception ignored ... Bad file descriptor" traceback
    as the process ends."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)
