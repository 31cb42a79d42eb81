"""Files a command reads are data, read bounded [L-files, RL-train-files].

Inputs not covered by their own subsystem's tests: the learning curve that ``rl curve``
reads is read as every JSON input is (a regular file, bounded in bytes and values), so a
FIFO, a directory or a file far too large is refused in one line and never hangs.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from hanabi_ref.cli import main


def run_cli(arguments: list[str]) -> subprocess.CompletedProcess[str]:
    """``hanabi-ref ARGUMENTS`` in a session of its own, ended whole on every path; a run
    that never ends fails the test after a limit no healthy run comes near."""
    process = subprocess.Popen([sys.executable, "-m", "hanabi_ref.cli", *arguments], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = process.communicate(timeout=300)
        return subprocess.CompletedProcess(process.args, process.returncode, out, err)
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()


def test_a_curve_that_is_a_fifo_is_refused_at_once(tmp_path: Path) -> None:
    """[L-files, RL-train-files] ``rl curve DIR`` whose curve.json is a FIFO nobody writes
    is refused in one line, exit 2, without waiting for a writer."""
    os.mkfifo(tmp_path / "curve.json")
    result = run_cli(["rl", "curve", str(tmp_path), "--png", str(tmp_path / "c.png")])
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "not a regular file" in result.stderr, result
    assert not (tmp_path / "c.png").exists()


@pytest.mark.parametrize("content, problem", [(b"[" * 600_000, "JSON values"), (b" " * (17 << 20), "MiB"),
                                              (b'{"points": 3}', "not a list")])
def test_a_curve_too_large_or_malformed_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes,
                                                  problem: str) -> None:
    """[L-files, RL-train-files] a curve of more values or bytes than any game file may
    hold, or of the wrong shape, is refused in one line naming the file, exit 2."""
    (tmp_path / "curve.json").write_bytes(content)
    assert main(["rl", "curve", str(tmp_path), "--png", str(tmp_path / "c.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "curve.json" in err and problem in err, err
