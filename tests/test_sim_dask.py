"""The dask.distributed executor: exactly the results of the local run, failures by
seed, and a scheduler that cannot be reached [SIM-dask, SIM-crash, SIM-errors].

The cluster is a small ``LocalCluster`` in this process (two single-threaded workers,
``processes=False``), so the test-only strategies registered here reach its workers.
The oracle is the same command run locally in one process.
"""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref.cli import EXIT_OK, EXIT_USAGE
from tests.test_sim_runner import EXIT_FAILED, MIX, failing_spec, register, run, without_timing
from tests.oracles import oracle

distributed: Any = oracle("distributed")


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a two-worker cluster that lives as long as this module's tests."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        yield str(cluster.scheduler_address)


def closed_port() -> int:
    """A local TCP port on which nothing listens (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.checks("SIM-dask", "SIM-jobs")
def test_simulate_on_dask_equals_the_local_run(scheduler: str, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-dask, SIM-jobs] the same JSON as one local process, apart from timing and the
    executor; ``jobs`` is the cluster's two worker threads."""
    argv = ["simulate", "--strategy", "random", "--players", "4", "--games", "17", "--seed", "30", "--json"]
    code, local, err = run(argv + ["--jobs", "1"], capsys)
    assert code == EXIT_OK, err
    code, remote, err = run(argv + ["--executor", "dask", "--scheduler", scheduler, "--chunk-size", "3"], capsys)
    assert code == EXIT_OK, err
    local_result, remote_result = json.loads(local), json.loads(remote)
    assert without_timing(remote_result) == without_timing(local_result)
    assert (remote_result["executor"], remote_result["jobs"]) == ("dask", 2)


@pytest.mark.checks("SIM-dask", "SIM-sweep")
def test_sweep_on_dask_equals_the_local_run(scheduler: str, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-dask, SIM-sweep] the same CSV, byte for byte."""
    register(monkeypatch, MIX)
    argv = ["sweep", "--strategy", "mix", "--players", "3", "--games", "6", "--seed", "2",
            "--grid", "random_seats=0,1", "--grid", "style=plain,fancy", "--format", "csv"]
    local = run(argv + ["--jobs", "1"], capsys)
    remote = run(argv + ["--executor", "dask", "--scheduler", scheduler], capsys)
    assert local[0] == remote[0] == EXIT_OK and remote[1] == local[1] and remote[2] == ""


@pytest.mark.checks("SIM-dask", "SIM-crash")
def test_failing_game_on_dask(scheduler: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-dask, SIM-crash] a game that raises on a worker is reported by seed, as locally."""
    register(monkeypatch, failing_spec("flaky", illegal_on=(9,)))
    argv = ["simulate", "--strategy", "flaky", "--players", "2", "--games", "6", "--seed", "7", "--json"]
    local = run(argv + ["--jobs", "1"], capsys)
    remote = run(argv + ["--executor", "dask", "--scheduler", scheduler], capsys)
    assert local[0] == remote[0] == EXIT_FAILED
    assert without_timing(json.loads(remote[1])) == without_timing(json.loads(local[1]))
    assert json.loads(remote[1])["failed_seeds"] == [9]
    assert remote[2] == local[2] and "seed 9" in remote[2]


@pytest.mark.checks("SIM-dask", "SIM-errors")
@pytest.mark.parametrize("address", ["tcp://127.0.0.1:{port}", "127.0.0.1:{port}", "tcp://[::1", "tcp://host:port"])
def test_unreachable_scheduler_exits_2_before_writing(address: str, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-dask, SIM-errors] nothing listens there (or it is no address): one line naming
    --scheduler, exit 2, and the output file is never created."""
    address = address.replace("{port}", str(closed_port()))
    target = tmp_path / "table.csv"
    code, out, err = run(["sweep", "--strategy", "thesis", "--players", "3", "--games", "2", "--grid", "omega_p=0.5",
                          "--executor", "dask", "--scheduler", address, "--out", str(target)], capsys)
    assert code == EXIT_USAGE and out == "" and err.count("\n") == 1
    assert err.startswith(f"hanabi-ref: --scheduler {address}: ")
    assert not target.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.checks("SV-estimate", "SIM-dask")
def test_solve_on_dask_equals_the_local_run(scheduler: str, capsys: pytest.CaptureFixture[str]) -> None:
    """[SV-estimate, SIM-dask] ``solve`` on the cluster gives the local run's answers (the
    budget is counted in positions), apart from the CPU times."""
    argv = ["solve", "--players", "3", "--games", "5", "--seed", "7", "--max-nodes", "20000", "--json"]
    code, local, err = run(argv + ["--jobs", "1"], capsys)
    assert code == EXIT_OK, err
    code, remote, err = run(argv + ["--executor", "dask", "--scheduler", scheduler], capsys)
    assert code == EXIT_OK, err
    timing = ("median_cpu_seconds", "p99_cpu_seconds", "slowest")
    local_result, remote_result = json.loads(local), json.loads(remote)
    assert {key: value for key, value in remote_result.items() if key not in timing} == \
        {key: value for key, value in local_result.items() if key not in timing}
    assert [deck["seed"] for deck in remote_result["slowest"]] == [deck["seed"] for deck in local_result["slowest"]]
