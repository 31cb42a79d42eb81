"""Processes that tests start, and what they leave behind, read from ``/proc`` (Linux).

Every test that starts a process starts it through :func:`started` or :func:`run_process`: in a
session of its own, so that on every way out of the test (pass, fail, timeout) the whole
session is killed and nothing it started outlives the test.  Readiness is waited for
(:func:`wait_until`, :func:`catches`), never slept for.  The session-end check of
``tests/leftover_processes.py`` catches what slips through anyway.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Final, NamedTuple

LINUX: Final = sys.platform.startswith("linux") and Path("/proc/self/stat").exists()
"""Whether processes can be read from ``/proc``."""

ROOT: Final = Path(__file__).resolve().parents[1]
PY: Final = sys.executable
WAIT: Final = 120.0
"""Seconds a test waits for something that should take well under one (a generous bound,
never the thing tested)."""


class Stat(NamedTuple):
    """The fields of ``/proc/PID/stat`` the tests use."""

    state: str
    ppid: int
    group: int
    session: int
    start: int


def stat(pid: int) -> Stat | None:
    """Process ``pid``'s state letter, parent, group, session and start time; None if gone."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except (OSError, ValueError):
        return None
    fields = text[text.rindex(")") + 2:].split()
    return Stat(fields[0], int(fields[1]), int(fields[2]), int(fields[3]), int(fields[19]))


def is_alive(pid: int) -> bool:
    """Running or stopped; a zombie is dead (whoever inherits it may be slow to reap it)."""
    found = stat(pid)
    return found is not None and found.state not in ("Z", "X")


def all_pids() -> list[int]:
    """Every process id in ``/proc``."""
    return [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]


def session_members(session: int) -> list[int]:
    """The live processes of session ``session``."""
    found = []
    for pid in all_pids():
        info = stat(pid)
        if info is not None and info.session == session and info.state not in ("Z", "X"):
            found.append(pid)
    return found


def catches(pid: int, signum: int) -> bool:
    """Whether process ``pid`` has a handler of its own for ``signum`` (``SigCgt``): a
    command that handles a signal only while its run is under way is then ready for it."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    for line in status.splitlines():
        if line.startswith("SigCgt:"):
            return bool(int(line.split()[1], 16) >> (signum - 1) & 1)
    return False


def wait_until(condition: Callable[[], bool], seconds: float = WAIT, interval: float = 0.02) -> bool:
    """Poll ``condition`` until it holds (True) or ``seconds`` pass (its last value)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(interval)
    return condition()


def end_session(session: int) -> None:
    """SIGKILL to the process group ``session`` and to every other live process of the
    session (one that moved to a group of its own)."""
    with suppress(ProcessLookupError, PermissionError):
        os.killpg(session, signal.SIGKILL)
    if LINUX:
        for pid in session_members(session):
            with suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)


@contextmanager
def _ctrl_c_at_default() -> Iterator[None]:
    """While inside, a child started inherits Ctrl-C (SIGINT) and SIGHUP at their defaults.

    A suite started as a shell's background job (``pytest ... &`` in a script) runs with
    SIGINT ignored, one started under ``nohup`` with SIGHUP ignored, and a child inherits
    that; our commands keep a signal that was ignored when they started ignored
    (SV-signals), so a test that stops one with SIGINT or SIGHUP would wait for nothing.
    Only then is each set back to its default here, for the moment of the start (in the
    main thread, where handlers can be set); otherwise nothing changes.  Not through
    ``preexec_fn``: a child forked for that shows its parent's handlers in ``/proc`` until
    it runs the command, which tests read to know when it is under way."""
    ignored = [signum for signum in (signal.SIGINT, signal.SIGHUP) if signal.getsignal(signum) is signal.SIG_IGN]
    if threading.current_thread() is not threading.main_thread() or not ignored:
        yield
        return
    for signum in ignored:
        signal.signal(signum, signal.SIG_DFL)
    try:
        yield
    finally:
        for signum in ignored:
            signal.signal(signum, signal.SIG_IGN)


@contextmanager
def started(argv: Sequence[str], **options: Any) -> Iterator[subprocess.Popen[Any]]:
    """``argv`` started in a session of its own, with Ctrl-C at its default
    (``subprocess.Popen`` ``options`` else); on the way out, however the test went, that
    whole session is killed and the process reaped."""
    with _ctrl_c_at_default():
        process = subprocess.Popen(list(argv), start_new_session=True, **options)
    try:
        yield process
    finally:
        end_session(process.pid)
        with suppress(subprocess.TimeoutExpired):
            process.communicate(timeout=WAIT)


def run_process(argv: Sequence[str], timeout: float | None = None, **options: Any) -> subprocess.CompletedProcess[Any]:
    """``subprocess.run(argv, timeout=timeout, **options)``, but in a session of its own,
    ended whole on the way out (after a timeout too: ``TimeoutExpired`` is raised then)."""
    if options.pop("capture_output", False):
        options["stdout"] = options["stderr"] = subprocess.PIPE
    check = options.pop("check", False)
    given = options.pop("input", None)
    if given is not None:
        options["stdin"] = subprocess.PIPE
    with started(argv, **options) as process:
        out, err = process.communicate(given, timeout=timeout)
        code = process.wait()
    done = subprocess.CompletedProcess(list(argv), code, out, err)
    if check:
        done.check_returncode()
    return done


def cli(*arguments: str) -> list[str]:
    """The command line that runs ``hanabi-ref ARGUMENTS`` from this checkout."""
    return [PY, "-m", "hanabi_ref.cli", *arguments]


def checkout_env(**extra: str) -> dict[str, str]:
    """The environment with this checkout first on the module path."""
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH", "")]))
    return {**os.environ, "PYTHONPATH": path, **extra}
