"""``hanabi-ref rl``: the check against OpenSpiel, one game's encodings, and one-line
refusals with exit 2 [RL-cli, RL-errors]."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from hanabi_ref.cli import EXIT_OK, EXIT_USAGE, main
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.configs import make_config
from tests.oracles import needs


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.checks("RL-cli", "RL-check")
@needs("pyspiel")
def test_rl_check_reports_states_and_no_difference(capsys: pytest.CaptureFixture[str]) -> None:
    """[RL-cli, RL-check] ``rl check --against openspiel --states N --json``: at least N
    states, the situations met, no difference, exit 0."""
    code, out, err = run(["rl", "check", "--against", "openspiel", "--states", "400", "--seed", "3", "--json"], capsys)
    assert code == EXIT_OK, err
    report = json.loads(out)
    assert report["states"] >= 400 and report["difference"] is None
    assert report["encodings"] == ["canonical", "minimal"] and report["games"] >= 2


@pytest.mark.checks("RL-cli", "RL-canonical")
@needs("pyspiel")
def test_rl_play_prints_each_observation(capsys: pytest.CaptureFixture[str]) -> None:
    """[RL-cli, RL-canonical] ``rl play --json``: one line per acting seat and per seat at
    the end; the first vector is OpenSpiel's tensor of seat 0 at the deal."""
    from hanabi_ref.tools.peers.openspiel import OpenSpielEngine

    argv = ["rl", "play", "--encoding", "canonical", "--strategy", "simple", "--players", "3", "--rules", "hle",
            "--seed", "11", "--json"]
    code, out, err = run(argv, capsys)
    assert code == EXIT_OK, err
    lines = [json.loads(line) for line in out.splitlines()]
    config = make_config(3, "hle")
    engine = OpenSpielEngine()
    engine.new_game(config, deck_from_seed(config, 11))
    first = np.array(lines[0]["vector"], np.float32)
    assert np.array_equal(first, np.asarray(engine.game_state.observation_tensor(0), np.float32))
    acting = [line for line in lines if line["acting"]]
    assert [line["turn"] for line in acting] == list(range(len(acting)))
    assert len(lines) == len(acting) + 3 and all(line["action"] for line in acting)
    code, out, err = run(argv[:-1], capsys)
    assert code == EXIT_OK and "[RL-knowledge]" in out and out.startswith("turn 0 seat 0 (then ")


@pytest.mark.checks("RL-errors", "RL-cli")
@pytest.mark.parametrize(("argv", "message"), [
    (["rl", "play", "--encoding", "sad", "--strategy", "simple", "--players", "2", "--rules", "hle"],
     "RL-encodings: unknown encoding 'sad'"),
    (["rl", "play", "--encoding", "notes", "--strategy", "simple", "--players", "3", "--rules", "hle"],
     "RL-notes: "),
    (["rl", "play", "--encoding", "v0", "--strategy", "simple", "--players", "3", "--rules", "hanab-live",
      "--variant", "Rainbow (6 Suits)"], "RL-configs: "),
    (["rl", "check", "--states", "10"], "--against"),
    (["rl", "check", "--against", "hle", "--states", "10"], "--against"),
    (["rl", "check", "--against", "openspiel", "--states", "0"], "--states"),
])
def test_rl_refusals_are_one_line_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    """[RL-errors, RL-cli] bad names, configurations and arguments: one line naming what,
    exit 2, nothing on standard output."""
    code, out, err = run(argv, capsys)
    assert code == EXIT_USAGE and out == ""
    assert err.count("\n") == 1 and message in err


def _a_tenth_of_the_steps(measure: Callable[..., float]) -> Callable[..., float]:
    """``measure`` called with its last positional argument, the steps, divided by 10."""
    def measured(*arguments: Any, **options: Any) -> float:
        return measure(*arguments[:-1], arguments[-1] // 10, **options)
    return measured


@pytest.mark.checks("RL-bench", "RL-cli")
@needs("pyspiel")
def test_rl_bench_reports_every_measure_beside_openspiel(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """[RL-bench, RL-cli] ``rl bench --json``: the single environment, each batch size and
    both OpenSpiel measures, as medians with their runs, the ratios to OpenSpiel's
    ``observation_tensor`` and the load average before and after (numbers are measured,
    not checked here, so each measure runs a tenth of its steps)."""
    from hanabi_ref.tools.rl import batch, tools

    for module, name in ((batch, "openspiel_bench"), (batch, "bench"), (tools, "single_bench")):
        monkeypatch.setattr(module, name, _a_tenth_of_the_steps(getattr(module, name)))
    code, out, err = run(["rl", "bench", "--players", "2", "--batch", "4", "--repeats", "1", "--json"], capsys)
    assert code == EXIT_OK, err
    report = json.loads(out)
    names = {"openspiel observation_tensor", "openspiel observer buffer", "single environment (PettingZoo)",
             "batch N=4"}
    assert set(report["steps_per_cpu_second"]) == names == set(report["ratio_to_openspiel_observation_tensor"])
    assert all(len(runs) == 1 and runs[0] > 0 for runs in report["runs"].values())
    assert report["ratio_to_openspiel_observation_tensor"]["openspiel observation_tensor"] == 1
    assert len(report["load"]) == 2 and all(load >= 0 for load in report["load"])  # before and after
    code, out, err = run(["rl", "bench", "--players", "1", "--repeats", "1"], capsys)
    assert code == EXIT_USAGE and out == "" and "players" in err and err.count("\n") == 1
