"""The session-end check: no process the test session started may outlive it (pytest
plugin; ``tests/conftest.py`` loads it, ``-p tests.leftover_processes`` loads it elsewhere).

At the start of the session a mark of its own goes into the environment,
``HANABI_TESTS_SESSION=<pid>-<random>``, which every process the tests start inherits,
however far it gets from its parent (``setsid``, a double fork, a parent that died).  At
the end, every live process that carries the mark, or whose parent is this process, is
a leftover, except the session's own helpers (multiprocessing's resource tracker and
fork server, which end with it).  Leftovers are named with their command lines, killed,
and the session fails.  Under pytest-xdist each worker checks the processes of its own
tests; the controller checks nothing (its children are the workers).  Linux only (it
reads ``/proc``); elsewhere it does nothing.
"""

from __future__ import annotations

import os
import secrets
import signal
import time
from contextlib import suppress
from pathlib import Path
from typing import Final

import pytest

MARK: Final = "HANABI_TESTS_SESSION"
SETTLE: Final = 5.0
"""Seconds a process that is being killed (SIGKILL pending: the last test's clean-up may
have just sent it) is given to be gone before it counts as a leftover."""


def mark_session() -> None:
    """Put this process's mark in the environment its tests' processes inherit (once per
    process: an xdist worker or a pytest run inside a test replaces the mark it inherited)."""
    if not os.environ.get(MARK, "").startswith(f"{os.getpid()}-"):
        os.environ[MARK] = f"{os.getpid()}-{secrets.token_hex(8)}"


def pytest_sessionstart(session: pytest.Session) -> None:
    """The mark, before any test runs."""
    if _checks(session.config):
        mark_session()


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Fail the session if a process it started is still alive; kill every such process."""
    mark = os.environ.get(MARK, "")
    if not _checks(session.config) or not mark.startswith(f"{os.getpid()}-"):
        return
    deadline = time.monotonic() + SETTLE
    left = leftovers(mark)
    while any(_dying(pid) for pid in left) and time.monotonic() < deadline:
        time.sleep(0.05)
        left = leftovers(mark)
    if not left:
        return
    lines = [f"{pid}: {command}" for pid, command in sorted(left.items())]
    _report(session, f"{len(left)} process(es) started by the tests outlived them (now killed):", lines)
    for pid in left:
        with suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _checks(config: pytest.Config) -> bool:
    """Whether this process runs tests (not an xdist controller) and can read ``/proc``."""
    controller = bool(getattr(config.option, "numprocesses", None)) and not hasattr(config, "workerinput")
    return not controller and Path("/proc/self/stat").exists()


def leftovers(mark: str) -> dict[int, str]:
    """Live processes other than this one that carry ``mark`` in their environment or
    whose parent is this process, by id, with their command lines."""
    me = os.getpid()
    helpers = _session_helpers()
    needle = f"{MARK}={mark}".encode()
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) in helpers or int(entry.name) == me:
            continue
        try:
            stat = (entry / "stat").read_bytes()
            state, parent = stat.rsplit(b")", 1)[1].split()[:2]
            if state in (b"Z", b"X"):
                continue
            if int(parent) == me or needle in (entry / "environ").read_bytes().split(b"\0"):
                found[int(entry.name)] = _command(entry)
        except (OSError, ValueError):
            continue
    return found


def _dying(pid: int) -> bool:
    """Whether process ``pid`` has a SIGKILL pending (it is about to be gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    pending = 0
    for line in status.splitlines():
        if line.startswith(("SigPnd:", "ShdPnd:")):
            pending |= int(line.split()[1], 16)
    return bool(pending >> (signal.SIGKILL - 1) & 1)


def _command(entry: Path) -> str:
    try:
        return (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace").strip() or "?"
    except OSError:
        return "?"


def _session_helpers() -> set[int]:
    """Processes multiprocessing keeps for the whole session (they end with it)."""
    from multiprocessing import forkserver, resource_tracker

    found = [getattr(resource_tracker._resource_tracker, "_pid", None),
             getattr(forkserver._forkserver, "_forkserver_pid", None)]
    return {pid for pid in found if isinstance(pid, int)}


def _report(session: pytest.Session, title: str, lines: list[str]) -> None:
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is None:
        print(title, *lines, sep="\n")
        return
    reporter.ensure_newline()
    reporter.write_sep("=", "leftover processes", red=True)
    reporter.write_line(title)
    for line in lines:
        reporter.write_line(f"  {line}")
