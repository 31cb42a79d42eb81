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

``solve``, ``simulate`` and ``sweep`` use this module; ``verify`` raises its own
exception for SIGTERM and SIGHUP through :func:`stop_signals`, and also stops the engine
under test (``hanabi_ref/tools/verify/session.py``).
"""

from __future__ import annotations

import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any, Final, NoReturn

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
    with stop_signals(STOP_SIGNALS, Stopped):
        yield


class _FirstStop:
    """The handler of a run's stop signals: the first raises :class:`KeyboardInterrupt`
    (SIGINT) or what ``stop`` makes of it, and the ones after are ignored, unless Python
    dropped that exception (:meth:`dropped`): then the signal is sent again until its
    handler raises the stop anew."""

    def __init__(self, stop: Callable[[int], BaseException]) -> None:
        self.stop = stop
        self.signum = 0
        self.raised: BaseException | None = None
        self.again = False  # the stop was dropped: raise it once more
        self.hooking = False  # in the hook, where a stop would be dropped too
        self.active = True
        self.sending = threading.Lock()

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.hooking or (self.raised is not None and not self.again):
            return  # the run is stopping (one signal is enough), or the resender will try again
        self.again = False
        self.signum = signum
        self.raised = KeyboardInterrupt() if signum == signal.SIGINT else self.stop(signum)
        raise self.raised

    def dropped(self, unraisable: Any) -> bool:
        """Whether ``unraisable`` (what :data:`sys.unraisablehook` is given) is the stop
        this handler raised."""
        return self.raised is not None and unraisable.exc_value is self.raised

    def raise_again(self) -> None:
        """Have a thread send the signal to the main thread until the handler has raised
        the stop anew.  Not from here: called in the hook, the handler would raise inside
        it, where the stop would be dropped once more (the hook sets :attr:`hooking`
        meanwhile, and the handler waits for the next signal)."""
        self.again = True
        threading.Thread(target=self._resend, name="stop-again", daemon=True).start()

    def _resend(self) -> None:
        main = threading.main_thread().ident
        assert main is not None
        while True:
            with self.sending:  # never after the run has put its own handlers back (:meth:`close`)
                if not (self.again and self.active):
                    return
                signal.pthread_kill(main, self.signum)
            time.sleep(0.05)

    def close(self) -> None:
        """The run is leaving: no signal is sent again from now on.  One sent before is
        still handled here, at the latest when the first handler is put back
        (``signal.signal`` runs the pending handlers before it changes one)."""
        with self.sending:
            self.active = False


@contextmanager
def stop_signals(signums: Iterable[int], stop: Callable[[int], BaseException]) -> Iterator[None]:
    """[SV-signals, EP-lifecycle] While inside (in the main thread), the first of
    ``signums`` to arrive raises :class:`KeyboardInterrupt` if it is SIGINT (as Python's
    own handler does), else ``stop(signum)``, and those that follow are ignored; the
    previous handlers come back on the way out.  A signal ignored on the way in stays
    ignored.  Outside the main thread, where handlers cannot be set, nothing changes.

    Python runs a signal's handler between any two bytecodes, also inside a weakref's
    callback or a ``__del__`` (an import's module-lock callback, say), where an exception
    cannot propagate: Python prints "Exception ignored in ..." and goes on as if the
    signal had never come, and the run would not stop.  While inside, such a dropped stop
    is not printed: the signal is sent again, so that its handler runs once more in the
    code that runs next, and the stop propagates from there."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    handler = _FirstStop(stop)
    wanted = [signum for signum in signums if signal.getsignal(signum) is not signal.SIG_IGN]
    before = sys.unraisablehook

    def unraisable(what: Any) -> None:
        if handler.dropped(what):
            handler.hooking = True
            handler.raise_again()
            handler.hooking = False  # the last statement: no signal is handled after it in here
        else:
            before(what)

    previous = {signum: signal.signal(signum, handler) for signum in wanted}
    sys.unraisablehook = unraisable
    try:
        yield
    finally:
        handler.close()
        sys.unraisablehook = before
        for signum, old in previous.items():
            signal.signal(signum, old)


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
