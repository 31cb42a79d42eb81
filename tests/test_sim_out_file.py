"""``simulate --out``'s file: written first before any game, the report kept when the file
cannot be written, locked for the run, and an unfinished run's checkpoint not
overwritten by mistake [SIM-out-early, SIM-out-lock, SIM-out, SIM-resume].

A full disk is played by a file size limit (``RLIMIT_FSIZE``) on a child process, which
ignores ``SIGXFSZ`` so that a write past the limit fails with ``EFBIG`` instead of killing
it: a tmpfs of a few kilobytes would need privileges a test cannot count on.  The child
counts the games it plays (``--jobs 1`` plays them in its own process), so "before any
game" is a count, not a time.  Locks are held by the test itself with ``flock`` on the
lock file the clause names, or by a real run in a subprocess.
"""

from __future__ import annotations

import fcntl
import json
import os
import signal
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from hanabi_ref.cli import EXIT_USAGE
from hanabi_ref.players.strategies import StrategySpec
from tests.test_sim_lifecycle import EXIT_INTERRUPTED, InterruptAt, run_main, wait_for
from tests.test_sim_runner import register

EXIT_OK = 0
ROOT = Path(__file__).resolve().parent.parent
SIMULATE = ["simulate", "--strategy", "simple", "--players", "3", "--games", "20", "--jobs", "1", "--chunk-size", "10"]

LIMITED = textwrap.dedent("""
    import resource, signal, sys
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails (EFBIG), it does not kill
    limit = int(sys.argv[1])
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    import hanabi_ref.tools.sim.chunks as chunks
    played = []
    original = chunks.play_games
    def counted(*args, **kwargs):
        for record in original(*args, **kwargs):
            played.append(record)
            yield record
    chunks.play_games = counted
    from hanabi_ref.cli import main
    code = main(sys.argv[2:])
    sys.stdout.flush()
    print(f"games played: {len(played)}", file=sys.stderr)
    sys.exit(code)
""")


def limited_run(limit: int, argv: list[str], cwd: Path) -> tuple[int, str, list[str], int]:
    """``hanabi-ref ARGV`` in a child whose files may not grow past ``limit`` bytes: its exit
    code, standard output, its own lines on standard error, and the games it played."""
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
                   "HANABI_REF_CONTRACTS": "0"}
    child = subprocess.Popen([sys.executable, "-c", LIMITED, str(limit), *argv], cwd=cwd, env=environment,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = child.communicate(timeout=300)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.communicate()
    *lines, count = err.splitlines()
    assert count.startswith("games played: "), err
    return child.returncode, out, lines, int(count.removeprefix("games played: "))


# ------------------------------------------------------------------ [SIM-out-early]


@pytest.mark.checks("SIM-out-early")
def test_an_out_file_that_cannot_be_written_fails_before_any_game(tmp_path: Path) -> None:
    """[SIM-out-early] a file that cannot take a byte (a full disk): one line naming it,
    exit 2, no report, and not one game played."""
    out = tmp_path / "run.json"
    code, stdout, lines, played = limited_run(0, [*SIMULATE, "--out", str(out)], tmp_path)
    assert (code, stdout, played) == (EXIT_USAGE, "", 0)
    assert len(lines) == 1 and lines[0].startswith(f"hanabi-ref: --out {out}: cannot write: "), lines
    assert not out.exists()


@pytest.mark.checks("SIM-out-early")
def test_the_report_survives_an_out_file_that_cannot_be_written(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-out-early] a disk that fills up after the first checkpoint (512 bytes: the first
    checkpoint, of no chunk, fits; one with a chunk's 10 games, or the result, does not):
    the checkpoints that fail do not stop the run (one warning line), every game is played,
    the report is printed in full, then one line says the result could not be written,
    exit 2; the file keeps the last checkpoint written."""
    out = tmp_path / "run.json"
    code, stdout, lines, played = limited_run(512, [*SIMULATE, "--checkpoint-every", "0", "--out", str(out)],
                                              tmp_path)
    assert (code, played) == (EXIT_USAGE, 20)
    assert len(lines) == 2, lines
    assert lines[0].startswith(f"hanabi-ref: warning: --out {out}: cannot write: ")
    assert lines[0].endswith(f"; the run goes on, and {out} keeps its last checkpoint")
    assert lines[1].startswith(f"hanabi-ref: --out {out}: cannot write: ")
    assert json.loads(out.read_text())["chunks"] == []
    plain_code, plain, _ = run_main(SIMULATE, capsys)
    assert plain_code == EXIT_OK
    assert without_speed(stdout) == without_speed(plain) and "outcome sha256" in stdout


@pytest.mark.checks("SIM-out-early", "SIM-sweep")
def test_a_sweep_table_that_cannot_be_written_goes_to_standard_output(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-out-early, SIM-sweep] ``sweep --out F`` on a full disk: the table it could not
    write is on standard output, then one line naming F, exit 2, and no F."""
    out = tmp_path / "sweep.csv"
    argv = ["sweep", "--strategy", "thesis", "--players", "2", "--games", "3", "--jobs", "1", "--grid", "rho_h=1,2",
            "--format", "csv"]
    code, stdout, lines, played = limited_run(0, [*argv, "--out", str(out)], tmp_path)
    assert (code, played) == (EXIT_USAGE, 6)
    assert len(lines) == 1 and lines[0].startswith(f"hanabi-ref: --out {out}: cannot write: "), lines
    assert not out.exists()
    plain_code, plain, _ = run_main(argv, capsys)
    assert (plain_code, stdout) == (EXIT_OK, plain)


def without_speed(report: str) -> list[str]:
    return [line for line in report.splitlines() if not line.startswith("games per second")]


# ------------------------------------------------------------------ [SIM-out-lock]


@contextmanager
def held(lock: Path) -> Iterator[None]:
    """The lock the clause names, held by this process with ``flock``."""
    descriptor = os.open(lock, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        yield
    finally:
        os.close(descriptor)


@pytest.mark.checks("SIM-out-lock")
@pytest.mark.parametrize("linked", [False, True])
def test_a_locked_out_file_is_refused_at_once(linked: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-out-lock] while another process holds the lock ``.NAME.lock`` beside the file
    (through a symbolic link: beside the file it names), ``--out`` and ``--resume`` of that
    file are refused on one line naming it, exit 2, and nothing is written; once the lock
    is free the run goes on and removes the lock file."""
    real = tmp_path / "real" / "run.json"
    real.parent.mkdir()
    real.write_text("{}\n")  # a link to nothing would be refused for that (OUT-symlink)
    out = tmp_path / "link.json" if linked else real
    if linked:
        out.symlink_to(real)
    lock = real.parent / ".run.json.lock"
    with held(lock):
        for option in ("--out", "--resume"):
            code, stdout, err = run_main([*SIMULATE, option, str(out)], capsys)
            assert (code, stdout, err.count("\n")) == (EXIT_USAGE, "", 1), err
            assert err.startswith(f"hanabi-ref: {option} {out}: another run is writing it (it holds the lock {lock})")
        assert real.read_text() == "{}\n"
    code, _, err = run_main([*SIMULATE, "--out", str(out)], capsys)
    assert code == EXIT_OK, err
    assert "trace_sha256" in json.loads(real.read_text()) and not lock.exists()


@pytest.mark.checks("SIM-out-lock", "SIM-out-early")
def test_a_second_run_on_the_same_out_file_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-out-lock, SIM-out-early] a run under way (its first checkpoint written) holds its
    file: a second run on it is refused at once and the first run's checkpoint is left as
    it was.  Once the first is killed (SIGKILL: its lock goes with it, its lock file stays),
    a new run takes the lock over, but its file is an unfinished run's checkpoint."""
    out = tmp_path / "run.json"
    argv = ["simulate", "--strategy", "simple", "--players", "3", "--games", "1000000", "--jobs", "1",
            "--checkpoint-every", "3600", "--out", str(out)]
    first = subprocess.Popen([sys.executable, "-m", "hanabi_ref.cli", *argv], cwd=tmp_path, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, start_new_session=True,
                             env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])})
    try:
        assert wait_for(out.exists, 120), "the first run wrote no checkpoint"
        before = out.read_bytes()
        code, stdout, err = run_main([*SIMULATE, "--out", str(out)], capsys)
        assert (code, stdout, err.count("\n")) == (EXIT_USAGE, "", 1), err
        assert "another run is writing it" in err
        assert out.read_bytes() == before
    finally:
        os.killpg(first.pid, signal.SIGKILL)
        first.wait(timeout=30)
    assert (tmp_path / ".run.json.lock").exists()
    code, _, err = run_main([*SIMULATE, "--out", str(out)], capsys)
    assert code == EXIT_USAGE and "holds the checkpoint of a run that has not finished" in err, err
    assert out.read_bytes() == before


# ------------------------------------------------------------------ [SIM-out-lock]: --overwrite


INTERRUPTED = ["simulate", "--strategy", "interrupt", "--players", "3", "--seed", "0", "--games", "12", "--jobs", "1",
               "--chunk-size", "4"]


@pytest.fixture
def unfinished(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """The checkpoint of a run stopped by Ctrl-C at seed 9 (chunks of seeds 0..7 kept)."""
    out = tmp_path / "ck.json"
    monkeypatch.setattr(InterruptAt, "stop_seed", 9)
    register(monkeypatch, StrategySpec("interrupt", "test only", (), lambda values: InterruptAt))
    assert run_main(INTERRUPTED + ["--out", str(out)], capsys)[0] == EXIT_INTERRUPTED
    monkeypatch.setattr(InterruptAt, "stop_seed", -1)
    assert len(json.loads(out.read_text())["chunks"]) == 2
    return out


@pytest.mark.checks("SIM-out-lock")
def test_an_unfinished_run_s_checkpoint_is_not_overwritten(unfinished: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-out-lock] a run without ``--resume`` over the checkpoint of a run that has not
    finished is refused on one line naming the file and both ways on, exit 2, the file
    unchanged; ``--overwrite`` starts again over it, and the result it writes is replaced
    by the next run without being asked (a finished result is no unfinished work)."""
    before = unfinished.read_bytes()
    code, stdout, err = run_main(INTERRUPTED + ["--out", str(unfinished)], capsys)
    assert (code, stdout, err.count("\n")) == (EXIT_USAGE, "", 1), err
    assert err == (f"hanabi-ref: --out {unfinished}: holds the checkpoint of a run that has not finished; "
                   f"go on with it (--resume {unfinished}), or start again over it (--overwrite)\n")
    assert unfinished.read_bytes() == before
    code, _, err = run_main(INTERRUPTED + ["--json", "--out", str(unfinished), "--overwrite"], capsys)
    assert code == EXIT_OK, err
    finished = json.loads(unfinished.read_text())
    assert "trace_sha256" in finished
    code, _, err = run_main(INTERRUPTED + ["--out", str(unfinished), "--seed", "1"], capsys)
    assert code == EXIT_OK, err
    assert json.loads(unfinished.read_text())["seed"] == 1
    assert sorted(path.name for path in unfinished.parent.iterdir()) == [unfinished.name]


@pytest.mark.checks("SIM-out-lock", "SIM-resume")
def test_resume_writes_its_own_checkpoint_but_not_another(unfinished: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-out-lock, SIM-resume] ``--resume F --out G`` is refused when G holds another
    unfinished checkpoint (exit 2, G unchanged) and allowed with ``--overwrite``;
    ``--overwrite`` without ``--out`` is a usage error; ``--resume F --out F`` writes F."""
    other = unfinished.parent / "other.json"
    other.write_bytes(unfinished.read_bytes())
    code, _, err = run_main(INTERRUPTED + ["--resume", str(unfinished), "--out", str(other)], capsys)
    assert code == EXIT_USAGE and f"--out {other}: holds the checkpoint of a run that has not finished" in err, err
    assert other.read_bytes() == unfinished.read_bytes()
    code, _, err = run_main(INTERRUPTED + ["--resume", str(unfinished), "--overwrite"], capsys)
    assert code == EXIT_USAGE and err == "hanabi-ref: --overwrite: only with --out FILE\n"
    code, _, err = run_main(INTERRUPTED + ["--resume", str(unfinished), "--out", str(other), "--overwrite"], capsys)
    assert code == EXIT_OK, err
    assert "trace_sha256" in json.loads(other.read_text())
    code, _, err = run_main(INTERRUPTED + ["--resume", str(unfinished), "--out", str(unfinished)], capsys)
    assert code == EXIT_OK, err
    assert json.loads(unfinished.read_text()) == json.loads(other.read_text()) | {
        key: json.loads(unfinished.read_text())[key] for key in ("games_per_second", "games_per_cpu_second", "jobs", "chunk_size")}
