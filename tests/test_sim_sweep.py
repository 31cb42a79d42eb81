"""Sweeps: the grid, its rows in three formats, charts, atomic output files, failing games
and usage errors [SIM-sweep, SIM-plot, SIM-errors, SIM-crash, SIM-jobs].

The rows are checked against the games of every point played directly on the same seeds
and against statistics computed here by hand (mean ± 1.96 standard errors; Wilson's
bound z²/(n + z²) for zero perfect games in n).
"""

from __future__ import annotations

import csv
import io
import json
import sys
from pathlib import Path
from typing import BinaryIO

import pytest

from hanabi_ref.base.extras import install_hint
from hanabi_ref.cli import EXIT_OK, EXIT_USAGE
from hanabi_ref.engine.configs import make_config
from hanabi_ref.tools.sim.executors import SetupError
from hanabi_ref.tools.sim.files import write_atomically
from hanabi_ref.tools.sim.sweep import parse_grid, points
from hanabi_ref.players.strategies import ParamError
from tests.test_sim_runner import EXIT_FAILED, MIX, direct, failing_spec, mix_factory, register, run
from tests.oracles import oracle

Z = 1.959963984540054
SEEDS = range(5, 13)
SWEEP = ["sweep", "--strategy", "mix", "--players", "3", "--games", "8", "--seed", "5", "--jobs", "2"]
COLUMNS = ["mean_score", "mean_score_ci95_low", "mean_score_ci95_high", "std_error", "perfect_rate",
           "perfect_rate_ci95_low", "perfect_rate_ci95_high", "strikeout_rate", "lowest_score", "highest_score",
           "games", "failed_games"]


@pytest.fixture(autouse=True)
def _mix(monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch, MIX)


def expected_row(random_seats: int) -> dict[str, float]:
    """The statistics of the point's games played directly on the seeds, by hand."""
    scores, strikeouts = direct(make_config(3), mix_factory(random_seats), SEEDS)
    n = len(scores)
    mean = sum(scores) / n
    error = (sum((s - mean) ** 2 for s in scores) / (n - 1) / n) ** 0.5
    assert 25 not in scores  # so the Wilson interval is [0, z²/(n + z²)]
    return {
        "mean_score": mean, "mean_score_ci95_low": mean - Z * error, "mean_score_ci95_high": mean + Z * error,
        "std_error": error, "perfect_rate": 0.0, "perfect_rate_ci95_low": 0.0,
        "perfect_rate_ci95_high": Z * Z / (n + Z * Z), "strikeout_rate": strikeouts / n,
        "lowest_score": min(scores), "highest_score": max(scores), "games": n, "failed_games": 0,
    }


# ------------------------------------------------------------------ [SIM-sweep]


@pytest.mark.checks("SIM-sweep")
def test_grid_points_follow_the_order_given() -> None:
    """[SIM-sweep] the cartesian product, first key slowest, values checked and typed."""
    axes = parse_grid(["random_seats=2,0", "style=plain,fancy"], MIX, {})
    assert points(axes) == [
        {"random_seats": 2, "style": "plain"}, {"random_seats": 2, "style": "fancy"},
        {"random_seats": 0, "style": "plain"}, {"random_seats": 0, "style": "fancy"},
    ]
    assert parse_grid([" weight = 0.25, 1 "], MIX, {})[0].values == (0.25, 1.0)


@pytest.mark.checks("SIM-sweep")
def test_csv_rows_are_the_games_of_each_point(capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-sweep] one CSV row per point in grid order, each the statistics of that point's
    games on the same seeds S .. S+N-1."""
    code, out, err = run(SWEEP + ["--grid", "random_seats=0,1,3", "--grid", "weight=0.2,0.9", "--format", "csv"], capsys)
    assert code == EXIT_OK, err
    rows = list(csv.DictReader(io.StringIO(out)))
    assert list(rows[0]) == ["random_seats", "weight", *COLUMNS]
    assert [(row["random_seats"], row["weight"]) for row in rows] == [
        ("0", "0.2"), ("0", "0.9"), ("1", "0.2"), ("1", "0.9"), ("3", "0.2"), ("3", "0.9")]
    for row in rows:
        expected = expected_row(int(row["random_seats"]))
        for column in COLUMNS:
            assert float(row[column]) == pytest.approx(expected[column], abs=1e-12), column


@pytest.mark.checks("SIM-sweep")
def test_json_and_table_formats(capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-sweep] JSON: settings, the fixed parameters, the grid, per point its values, all
    its parameters and the statistics; the table: a heading and one line per point."""
    argv = SWEEP + ["--grid", "random_seats=1,0", "--param", "style=fancy"]
    code, out, err = run(argv + ["--format", "json"], capsys)
    assert code == EXIT_OK, err
    document = json.loads(out)
    assert document["grid"] == [{"name": "random_seats", "values": [1, 0]}]
    assert document["params"] == {"weight": 0.5, "style": "fancy"}
    assert (document["strategy"], document["games"], document["seed"], document["players"]) == ("mix", 8, 5, 3)
    assert [row["values"] for row in document["rows"]] == [{"random_seats": 1}, {"random_seats": 0}]
    assert document["rows"][0]["params"] == {"random_seats": 1, "weight": 0.5, "style": "fancy"}
    for row in document["rows"]:
        expected = expected_row(row["values"]["random_seats"])
        assert row["mean_score"] == pytest.approx(expected["mean_score"])
        assert row["mean_score_ci95"] == pytest.approx([expected["mean_score_ci95_low"], expected["mean_score_ci95_high"]])
        assert row["perfect_rate_ci95"] == pytest.approx([0.0, expected["perfect_rate_ci95_high"]])
        assert sum(row["score_histogram"]) == 8 and row["failed_seeds"] == []
    code, out, _ = run(argv, capsys)
    lines = out.splitlines()
    assert code == EXIT_OK and len(lines) == 3
    assert lines[0].split()[:3] == ["random_seats", "mean", "score"]
    assert lines[1].split()[1] == f"{expected_row(1)['mean_score']:.3f}"


@pytest.mark.checks("SIM-sweep", "SIM-jobs")
def test_workers_and_chunks_do_not_change_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-sweep, SIM-jobs] the same CSV in one process and in two workers with small chunks."""
    argv = ["sweep", "--strategy", "mix", "--players", "2", "--games", "9", "--seed", "40",
            "--grid", "random_seats=0,2", "--format", "csv"]
    one = run(argv + ["--jobs", "1"], capsys)
    two = run(argv + ["--jobs", "2", "--chunk-size", "2"], capsys)
    assert one[0] == two[0] == EXIT_OK and one[1] == two[1]


# ------------------------------------------------------------------ output files [SIM-errors]


@pytest.mark.checks("SIM-sweep", "SIM-errors")
def test_out_replaces_the_file_and_leaves_nothing_else(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-sweep, SIM-errors] --out writes the table there (not to stdout), replacing an
    old file; no temporary file is left behind."""
    target = tmp_path / "table.csv"
    target.write_text("old\n", encoding="utf-8")
    code, out, err = run(SWEEP + ["--grid", "random_seats=0", "--format", "csv", "--out", str(target)], capsys)
    assert code == EXIT_OK and out == "" and err == ""
    assert target.read_text(encoding="utf-8").startswith("random_seats,mean_score,")
    assert [path.name for path in tmp_path.iterdir()] == ["table.csv"]


@pytest.mark.checks("SIM-errors")
@pytest.mark.parametrize("error", [RuntimeError("disk on fire"), KeyboardInterrupt()])
def test_an_interrupted_write_changes_nothing(tmp_path: Path, error: BaseException) -> None:
    """[SIM-errors] a write that fails half-way leaves the old file as it was, and no
    temporary file."""
    target = tmp_path / "chart.png"
    target.write_bytes(b"old")

    def half_then_fail(file: BinaryIO) -> None:
        file.write(b"half a chart")
        raise error

    with pytest.raises(type(error)):
        write_atomically(target, half_then_fail, "--plot")
    assert target.read_bytes() == b"old"
    assert [path.name for path in tmp_path.iterdir()] == ["chart.png"]


@pytest.mark.checks("SIM-errors")
def test_a_write_into_a_vanished_directory_is_a_usage_error(tmp_path: Path) -> None:
    """[SIM-errors] an OS error while writing becomes a one-line usage error naming the option."""
    with pytest.raises(SetupError, match="--out .*: cannot write"):
        write_atomically(tmp_path / "gone" / "table.csv", lambda file: None, "--out")


@pytest.mark.checks("SIM-plot")
@pytest.mark.parametrize(("kind", "suffix", "grid"), [
    ("mean", ".png", ["--grid", "random_seats=0,1,2", "--grid", "style=plain,fancy"]),
    ("mean", ".svg", ["--grid", "style=plain,fancy"]),
    ("distribution", ".png", ["--grid", "random_seats=0,2", "--grid", "weight=0.1,0.7"]),
    ("distribution", ".svg", ["--grid", "random_seats=1"]),
])
def test_plots(kind: str, suffix: str, grid: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-plot] a chart of the requested kind in the requested format, beside the table."""
    oracle("matplotlib")
    chart = tmp_path / f"chart{suffix}"
    code, _, err = run(SWEEP + grid + ["--plot", str(chart), "--plot-kind", kind, "--out", str(tmp_path / "t.txt")], capsys)
    assert code == EXIT_OK, err
    data = chart.read_bytes()
    assert data.startswith(b"\x89PNG") if suffix == ".png" else b"<svg" in data
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted([chart.name, "t.txt"])


@pytest.mark.checks("SIM-plot", "SIM-errors")
def test_plot_without_matplotlib(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-plot, SIM-errors] without the optional package: how to install it, exit 2,
    nothing written."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    code, out, err = run(SWEEP + ["--grid", "random_seats=0", "--plot", str(tmp_path / "c.png"),
                                  "--out", str(tmp_path / "t.csv")], capsys)
    assert code == EXIT_USAGE and out == "" and err.count("\n") == 1
    assert install_hint("plot") in err
    assert list(tmp_path.iterdir()) == []


# ------------------------------------------------------------------ [SIM-crash]


@pytest.mark.checks("SIM-crash", "SIM-sweep")
def test_failing_games_in_a_sweep(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-crash, SIM-sweep] seed 6 fails at every point: the table is still written with
    the other seven games per point, the error line names the points and the seed, exit 1."""
    register(monkeypatch, failing_spec("flakymix", illegal_on=(6,), params=MIX.params))
    target = tmp_path / "t.csv"
    code, out, err = run(["sweep", "--strategy", "flakymix", "--players", "3", "--games", "8", "--seed", "5",
                          "--jobs", "2", "--grid", "weight=0.2,0.9", "--format", "csv", "--out", str(target)], capsys)
    assert code == EXIT_FAILED and out == "" and err.count("\n") == 1
    assert "2 of 16 games failed (weight=0.2: seed 6; weight=0.9: seed 6)" in err and "StrategyError" in err
    rows = list(csv.DictReader(io.StringIO(target.read_text(encoding="utf-8"))))
    assert [(row["games"], row["failed_games"]) for row in rows] == [("7", "1"), ("7", "1")]
    scores, _ = direct(make_config(3), mix_factory(0), [seed for seed in SEEDS if seed != 6])
    assert float(rows[0]["mean_score"]) == pytest.approx(sum(scores) / 7)


# ------------------------------------------------------------------ [SIM-errors]


@pytest.mark.checks("SIM-errors")
@pytest.mark.parametrize(
    ("extra", "fragment"),
    [
        (["--grid", "random_seats"], "--grid 'random_seats': expected key=v1,v2,..."),
        (["--grid", "random_seats="], "--grid 'random_seats=': empty value list"),
        (["--grid", "=1,2"], "--grid '=1,2': missing parameter name"),
        (["--grid", "random_seats=1,,2"], "--grid 'random_seats=1,,2': empty value at position 2"),
        (["--grid", "random_seats=1,"], "empty value at position 2"),
        (["--grid", "random_seats=1,2", "--grid", "random_seats=3"], "parameter random_seats given twice"),
        (["--grid", "random_seats=1,2", "--param", "random_seats=3"], "also given by --param"),
        (["--grid", "random_seats=1,9"], "parameter random_seats: must be an integer in [0, 5], got '9'"),
        (["--grid", "random_seats=1.5"], "parameter random_seats"),
        (["--grid", "style=plain,ornate"], "parameter style: must be one of plain, fancy"),
        (["--grid", "weight=0.5,0.50"], "value '0.50' given twice"),
        (["--grid", "colour=1,2"], "--grid 'colour=1,2': strategy 'mix': unknown parameter 'colour'"),
        (["--grid", "weight=0.5", "--param", "colour=1"], "--param: strategy 'mix': unknown parameter 'colour'"),
        (["--grid", "weight=0.5", "--param", "weight"], "--param: expected key=value"),
        (["--grid", "weight=0.5", "--jobs", "0"], "--jobs"),
        (["--grid", "weight=0.5", "--executor", "dask"], "--executor dask: needs --scheduler"),
        (["--grid", "weight=0.5", "--plot", "{tmp}/chart.pdf"], "unsupported file type '.pdf'"),
        (["--grid", "weight=0.5", "--plot", "{tmp}/chart"], "unsupported file type 'none'"),
        (["--grid", "weight=0.5", "--plot", "{tmp}/missing/chart.png"], "does not exist"),
        (["--grid", "weight=0.5", "--out", "{tmp}/missing/t.csv"], "--out {tmp}/missing/t.csv: directory"),
        (["--grid", "weight=0.5", "--out", "{tmp}"], "is a directory"),
        (["--grid", "weight=0.5", "--plot-kind", "distribution"], "--plot-kind: only with --plot"),
        (["--grid", "weight=0.5", "--plot-kind", "pie", "--plot", "{tmp}/c.png"], "--plot-kind"),
        (["--grid", "weight=0.5", "--format", "xml"], "--format"),
        (["--grid", "weight=0.5", "--variant", "nope"], "variant"),
        ([], "--grid"),
    ],
)
def test_usage_errors_exit_2_and_write_nothing(extra: list[str], fragment: str, tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-errors] one line naming the option and value, exit 2, nothing on stdout and no
    file written (the table would have gone to ``--out`` in the same directory)."""
    argv = [word.replace("{tmp}", str(tmp_path)) for word in extra]
    if "--out" not in argv:
        argv += ["--out", str(tmp_path / "table.txt")]
    code, out, err = run(SWEEP + argv, capsys)
    assert code == EXIT_USAGE, err
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert fragment.replace("{tmp}", str(tmp_path)) in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.checks("SIM-errors")
@pytest.mark.parametrize(("strategy", "grid", "fragment"), [
    ("nope", "a=1", "--strategy: unknown strategy 'nope'"),
    ("simple", "omega_p=0.5", "strategy 'simple': unknown parameter 'omega_p' (known: none)"),
])
def test_unknown_strategy_or_parameter(strategy: str, grid: str, fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-errors] the strategy must exist and declare the grid's parameter."""
    code, out, err = run(["sweep", "--strategy", strategy, "--players", "3", "--games", "2", "--grid", grid], capsys)
    assert code == EXIT_USAGE and out == "" and fragment in err and err.count("\n") == 1


@pytest.mark.checks("SIM-errors")
def test_grid_errors_are_param_errors() -> None:
    """[SIM-errors] the parser itself raises ParamError (exit 2 through the command line)."""
    with pytest.raises(ParamError, match="empty value list"):
        parse_grid(["weight= "], MIX, {})
    assert parse_grid(["weight=1"], MIX, {"style": "plain"})[0].values == (1.0,)
