"""The session-end check of tests/leftover_processes.py can fail, and names what it finds.

A pytest run in a subprocess, with the check as its only plugin, runs a small test file
whose test leaves a process behind: a child of the pytest process, or one that escaped
into a session of its own and lost its parent.  That run must fail, name the process, and
have killed it; a run whose test ends what it starts passes.
"""

from __future__ import annotations

import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.leftover_processes import MARK
from tests.processes import LINUX, PY, ROOT, is_alive, run_process, wait_until, WAIT

pytestmark = pytest.mark.skipif(not LINUX, reason="the check reads /proc")

LEAVES_A_CHILD = '''
import subprocess
from pathlib import Path

def test_leaves_a_child():
    sleeper = subprocess.Popen(["sleep", "60"])
    Path("pids.txt").write_text(f"{sleeper.pid}\\n")
'''

LEAVES_AN_ORPHAN = '''
import subprocess

def test_leaves_an_orphan():
    subprocess.run(["sh", "-c", "setsid sleep 61 & echo $! > pids.txt"], check=True)
'''

ENDS_WHAT_IT_STARTS = '''
import subprocess

def test_ends_what_it_starts():
    sleeper = subprocess.Popen(["sleep", "60"])
    sleeper.kill()
    sleeper.wait()
'''


@pytest.fixture
def project(tmp_path: Path) -> Iterator[Path]:
    """A directory of its own for the inner run; whatever it recorded in ``pids.txt`` is
    killed on the way out."""
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="ascii")
    try:
        yield tmp_path
    finally:
        pids = tmp_path / "pids.txt"
        for pid in (int(text) for text in pids.read_text().split()) if pids.exists() else ():
            if is_alive(pid):
                os.kill(pid, signal.SIGKILL)


def _pytest(project: Path, source: str) -> subprocess.CompletedProcess[str]:
    (project / "test_inner.py").write_text(source, encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    env.pop(MARK, None)
    return run_process([PY, "-m", "pytest", "-p", "tests.leftover_processes", "-p", "no:cacheprovider", "-q",
                "test_inner.py"], cwd=project, env=env, capture_output=True, text=True, timeout=WAIT)


@pytest.mark.parametrize(("source", "command"), [(LEAVES_A_CHILD, "sleep 60"), (LEAVES_AN_ORPHAN, "sleep 61")],
                         ids=["child", "orphan"])
def test_a_process_left_behind_fails_the_session_and_is_killed(project: Path, source: str, command: str) -> None:
    """The test itself passes; the session fails (exit 1) because of the process it left,
    which is named with its command line and is dead afterwards."""
    done = _pytest(project, source)
    output = done.stdout + done.stderr
    assert "1 passed" in output and done.returncode == pytest.ExitCode.TESTS_FAILED, output
    pid = int((project / "pids.txt").read_text())
    assert f"{pid}: {command}" in output, output
    assert wait_until(lambda: not is_alive(pid), 30)


def test_a_session_that_ends_its_processes_passes(project: Path) -> None:
    """Nothing left behind: the session passes, and the check says nothing."""
    done = _pytest(project, ENDS_WHAT_IT_STARTS)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "leftover" not in done.stdout
