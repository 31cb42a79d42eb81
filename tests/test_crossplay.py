"""``hanabi-ref crossplay`` (spec/simulation.md XP-matrix, XP-seats, XP-plot): every cell is
the games of its team on the common seeds, checked against games played here seat by
seat, and the diagonal against ``simulate``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref.cli import EXIT_OK, EXIT_USAGE, main
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.players.runner import play_game
from hanabi_ref.players.strategies import factory_for
from hanabi_ref.players.strategy import Strategy, StrategyFactory
from tests.oracles import oracle
from tests.test_sim_runner import failing_spec, register

GAME = ["--players", "4", "--rules", "hanab-live", "--games", "3", "--seed", "5", "--jobs", "1"]


def crossplay(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["crossplay", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def seated(row: str, column: str, seats: int) -> StrategyFactory:
    """The team of a cell, composed here: seats 0 .. seats - 1 play ``column``."""
    own, other = factory_for(row), factory_for(column)

    def factory(config: GameConfig, seat: int, seed: int) -> Strategy:
        return (other if seat < seats else own)(config, seat, seed)

    return factory


@pytest.mark.checks("XP-matrix", "XP-seats")
@pytest.mark.parametrize("seats", [1, 2])
def test_every_cell_is_its_teams_games(seats: int, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = crossplay(["--strategies", "thesis,hat,simple", "--seats", str(seats), "--json", *GAME], capsys)
    assert code == EXIT_OK, err
    result: dict[str, Any] = json.loads(out)
    assert [(cell["row"], cell["column"]) for cell in result["cells"]] == [
        (row, column) for row in ("thesis", "hat", "simple") for column in ("thesis", "hat", "simple")]
    config = make_config(4, "hanab-live")
    for cell in result["cells"]:
        records = [play_game(config, seated(cell["row"], cell["column"], seats), seed=seed) for seed in (5, 6, 7)]
        scores = [record.score for record in records]
        assert cell["games"] == 3 and cell["failures"] == 0
        assert cell["mean_score"] == pytest.approx(sum(scores) / 3)
        assert cell["perfect_rate"] == sum(score == 25 for score in scores) / 3
        assert cell["strikeout_rate"] == sum(record.final.remaining == -1 for record in records) / 3


@pytest.mark.checks("XP-matrix")
def test_the_diagonal_is_simulates_self_play(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = crossplay(["--strategies", "hat,thesis", "--json", *GAME], capsys)
    cells = {(cell["row"], cell["column"]): cell for cell in json.loads(out)["cells"]}
    for name in ("hat", "thesis"):
        assert main(["simulate", "--strategy", name, "--json", *GAME]) == EXIT_OK
        simulated = json.loads(capsys.readouterr().out)
        assert cells[(name, name)]["trace_sha256"] == simulated["trace_sha256"]
        assert cells[(name, name)]["mean_score"] == simulated["mean_score"]
    assert cells[("hat", "thesis")]["trace_sha256"] != cells[("hat", "hat")]["trace_sha256"]


@pytest.mark.checks("XP-matrix")
def test_the_table_and_a_failing_cell(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    register(monkeypatch, failing_spec("fails-on-6", illegal_on=[6]))
    code, out, err = crossplay(["--strategies", "simple,fails-on-6", *GAME], capsys)
    assert code == 1, err
    lines = out.splitlines()
    assert lines[0].startswith("4 players, hanab-live / No Variant, 1 column seat, 3 games per cell (seeds 5..7)")
    assert any(line.startswith("mean score:") for line in lines)
    assert any(line.startswith("strike-outs:") for line in lines)
    # seat 0 plays the column strategy: it fails on seed 6 in column fails-on-6 only
    assert "simple with fails-on-6: 1 of 3; first: seed 6:" in out
    assert "fails-on-6 with simple" not in out


@pytest.mark.checks("XP-plot")
def test_the_heat_map(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    oracle("matplotlib")
    picture = tmp_path / "matrix.png"
    code, _, err = crossplay(["--strategies", "thesis,simple", "--plot", str(picture), *GAME], capsys)
    assert code == EXIT_OK, err
    assert picture.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.checks("XP-matrix", "XP-seats")
@pytest.mark.parametrize("argv, message", [
    (["--strategies", "thesis,nope", "--players", "4"], "--strategies: unknown strategy 'nope'"),
    (["--strategies", "thesis,thesis", "--players", "4"], "--strategies: 'thesis' is named twice"),
    (["--strategies", "thesis,,hat", "--players", "4"], "none empty"),
    (["--strategies", "thesis,hat", "--players", "3"], "--strategies hat: strategy 'hat': supports 4 or 5 players"),
    (["--strategies", "thesis,hat", "--players", "4", "--seats", "4"], "--seats 4: the column strategy takes 1 to 3"),
    (["--strategies", "thesis,hat", "--players", "4", "--plot", "matrix.txt"], "--plot matrix.txt: unsupported file type"),
])
def test_bad_input_is_one_line_and_exit_2(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = crossplay([*argv, "--games", "2", "--jobs", "1"], capsys)
    assert code == EXIT_USAGE and out == ""
    assert err.count("\n") == 1 and message in err
