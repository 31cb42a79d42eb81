"""Seeing a game on the command line [SH-show, C-play, C-replay]: ``play --show`` and
``replay FILE --show [--from N --to M]`` for our traces and hanab.live files, and bad input
refused as ``replay`` refuses it.

Each shown move is checked against the engine's states replayed here: its sentence names
the action's kind, the actor and the card, and the board after it carries the state's
numbers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from hanabi_ref.cli import main
from hanabi_ref.formats.hanablive import load_hanablive
from hanabi_ref.engine.state import GameState, score
from hanabi_ref.formats.trace import load_trace, replay_states

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "hanab-live"


def _sections(out: str) -> list[tuple[str, str]]:
    """(heading, board) for each ``=== ... ===`` section of --show's output."""
    parts = re.split(r"^=== (.*) ===$", out, flags=re.M)
    return [(parts[i], parts[i + 1].strip()) for i in range(1, len(parts) - 1, 2)]


def _check_sections(sections: list[tuple[str, str]], states: list[GameState], first: int, last: int) -> None:
    assert sections[0][0] == ("the deal" if first == 1 else f"after move {first - 1}")
    assert len(sections) == last - first + 2
    for (heading, board), index in zip(sections[1:], range(first, last + 1)):
        state = states[index]
        event = state.history[-1]
        match = re.match(rf"move {index}: seat {event.player} (hints|plays|discards) ", heading)
        assert match, heading
        kind = {"hints": "Hint", "plays": "Play", "discards": "Discard"}[match.group(1)]
        assert type(event.action).__name__ == kind
        top = board.splitlines()[0]
        assert f"clue tokens {state.clue_tokens}/" in top and f"strikes {state.strikes}" in top
        assert f"deck {len(state.deck) - state.next_card}" in top and f"turn {state.turns} " in top


@pytest.mark.checks("SH-show")
def test_play_show_prints_every_move_and_the_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SH-show, C-play] ``play --show`` shows the deal and every move of the game it
    writes to ``--out``; the summary follows."""
    out = tmp_path / "g.json"
    assert main(["play", "--strategy", "hat", "--players", "4", "--rules", "hle", "--seed", "3", "--show",
                 "--out", str(out)]) == 0
    text = capsys.readouterr().out
    states = replay_states(load_trace(out))
    body, _, summary = text.rpartition("\nscore ")
    _check_sections(_sections(body), states, 1, len(states) - 1)
    assert summary.split()[0] == str(score(states[-1]))


@pytest.mark.checks("SH-show")
def test_replay_show_from_to_limits_the_moves(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SH-show] ``--from N --to M`` shows the board after move N - 1 and moves N..M; a
    range past the end is cut to it."""
    trace = tmp_path / "g.json"
    assert main(["play", "--strategy", "thesis", "--players", "3", "--seed", "5", "--out", str(trace)]) == 0
    capsys.readouterr()
    states = replay_states(load_trace(trace))
    assert main(["replay", str(trace), "--show", "--from", "4", "--to", "9"]) == 0
    _check_sections(_sections(capsys.readouterr().out.split("\nscore ")[0]), states, 4, 9)
    assert main(["replay", str(trace), "--show", "--from", "5", "--to", "100000"]) == 0
    _check_sections(_sections(capsys.readouterr().out.split("\nscore ")[0]), states, 5, len(states) - 1)


@pytest.mark.parametrize("name", ["no_variant_3p.json", "no_variant_5p.json"])
def test_replay_show_reads_hanab_live_files(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """[SH-show, C-replay] hanab.live games are shown as our traces are."""
    path = FIXTURES / name
    assert main(["replay", str(path), "--format", "hanab-live", "--show"]) == 0
    states = replay_states(load_hanablive(str(path), "hanab-live"))
    _check_sections(_sections(capsys.readouterr().out.split("\nscore ")[0]), states, 1, len(states) - 1)


@pytest.mark.parametrize("argv", [["--from", "3"], ["--to", "3"], ["--show", "--from", "5", "--to", "2"],
                                  ["--show", "--from", "-1"]])
@pytest.mark.checks("SH-show")
def test_bad_show_options_are_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                           argv: list[str]) -> None:
    """[SH-show, C-exit] ``--from``/``--to`` without ``--show`` or out of order: exit 2,
    one line, nothing shown."""
    trace = tmp_path / "g.json"
    assert main(["play", "--strategy", "thesis", "--players", "2", "--out", str(trace)]) == 0
    capsys.readouterr()
    assert main(["replay", str(trace), *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.startswith("hanabi-ref: ") and captured.err.count("\n") == 1


def test_a_malformed_file_shows_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SH-show, C-exit] a trace with an illegal action is refused with replay's one line
    (exit 1) and nothing is shown, not even the moves before it; with ``--html`` no page
    is written."""
    trace = tmp_path / "g.json"
    assert main(["play", "--strategy", "thesis", "--players", "2", "--out", str(trace)]) == 0
    capsys.readouterr()
    data = json.loads(trace.read_text())
    data["actions"][6] = {"type": "play", "slot": 9}
    trace.write_text(json.dumps(data))
    assert main(["replay", str(trace)]) == 1
    plain = capsys.readouterr().err
    page = tmp_path / "page.html"
    assert main(["replay", str(trace), "--show", "--html", str(page)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == plain and "actions[6]" in plain
    assert not page.exists()
