"""The command line: results, determinism, and one-line errors with documented exit codes
[C-cli, C-exit, C-simulate, C-play, C-replay, B-engine]."""

from __future__ import annotations

import io
import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref.cli import EXIT_INVALID_GAME, EXIT_OK, EXIT_USAGE, main
from hanabi_ref.players.runner import play_game
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.presets import PRESETS
from hanabi_ref.base.cliargs import PRESET_NAMES
from hanabi_ref.players.strategies import STRATEGIES
from hanabi_ref.formats.trace import replay as replay_trace
from hanabi_ref.formats.trace import load_trace
from tests.processes import run_process

REPO = Path(__file__).resolve().parents[1]


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def run_json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code, out, err = run(argv + ["--json"], capsys)
    assert code == EXIT_OK, err
    result: dict[str, Any] = json.loads(out)
    return result


@pytest.mark.checks("C-simulate")
def test_simulate_json_fields_and_consistency(capsys: pytest.CaptureFixture[str]) -> None:
    """[C-simulate] the JSON result has the documented keys, and its statistics agree
    with the per-game scores computed here by playing the same seeds directly."""
    result = run_json(["simulate", "--strategy", "simple", "--players", "3", "--games", "12", "--seed", "40"], capsys)
    for key in ("strategy", "players", "games", "seed", "rules", "variant", "mean_score", "std_error",
                "perfect_rate", "strikeout_rate", "score_histogram", "games_per_second"):
        assert key in result
    config = make_config(3)
    scores = [play_game(config, STRATEGIES["simple"], seed=40 + i).score for i in range(12)]
    assert result["mean_score"] == pytest.approx(sum(scores) / 12)
    assert result["score_histogram"] == [scores.count(s) for s in range(26)]
    mean = sum(scores) / 12
    std_error = (sum((s - mean) ** 2 for s in scores) / 11 / 12) ** 0.5
    assert result["std_error"] == pytest.approx(std_error)
    assert (result["rules"], result["variant"], result["players"]) == ("thesis", "No Variant", 3)


@pytest.mark.checks("C-simulate")
def test_simulate_is_deterministic_and_game_i_uses_seed_s_plus_i(capsys: pytest.CaptureFixture[str]) -> None:
    """[C-simulate, D-seed] two runs agree; the run from S minus the run from S+1 is the
    game of seed S alone."""
    base = ["simulate", "--strategy", "simple", "--players", "2", "--games", "6", "--rules", "hle"]
    first = run_json(base + ["--seed", "9"], capsys)
    second = run_json(base + ["--seed", "9"], capsys)
    for timing in ("games_per_second", "games_per_cpu_second"):
        first.pop(timing), second.pop(timing)
    assert first == second
    tail = run_json(["simulate", "--strategy", "simple", "--players", "2", "--games", "5", "--rules", "hle",
                     "--seed", "10"], capsys)
    difference = [a - b for a, b in zip(first["score_histogram"], tail["score_histogram"])]
    alone = play_game(make_config(2, preset="hle"), STRATEGIES["simple"], seed=9).score
    assert difference == [int(s == alone) for s in range(26)]


@pytest.mark.checks("C-simulate")
def test_simulate_counts_strikeouts_and_perfect_games(capsys: pytest.CaptureFixture[str]) -> None:
    """[C-simulate, 2.16-3-strikeout] random play strikes out in almost every game
    (Example 2.18); the strikeout rate equals the share of games ending with R = -1."""
    result = run_json(["simulate", "--strategy", "random", "--players", "3", "--games", "10", "--seed", "0"], capsys)
    config = make_config(3)
    finals = [play_game(config, STRATEGIES["random"], seed=i).final for i in range(10)]
    assert result["strikeout_rate"] == sum(f.remaining == -1 for f in finals) / 10
    assert result["perfect_rate"] == 0.0


def test_simulate_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    """[C-simulate] without --json a readable table is printed."""
    code, out, _ = run(["simulate", "--strategy", "simple", "--players", "4", "--games", "3",
                        "--rules", "hanab-live", "--variant", "Rainbow (6 Suits)"], capsys)
    assert code == EXIT_OK
    assert "mean score" in out and "hanab-live / Rainbow (6 Suits)" in out


@pytest.mark.checks("C-play", "C-replay")
def test_play_then_replay_reproduces_the_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[C-play, C-replay, T-trace] the trace written by play replays to the same summary,
    and equals replaying it through the library."""
    path = tmp_path / "game.json"
    played = run_json(["play", "--strategy", "simple", "--players", "5", "--seed", "3", "--out", str(path),
                       "--rules", "hanab-live", "--variant", "black"], capsys)
    replayed = run_json(["replay", str(path)], capsys)
    assert played == replayed
    final = replay_trace(load_trace(path))
    assert replayed["score"] == sum(final.fireworks) and replayed["turns"] == final.turns
    assert set(replayed) == {"score", "fireworks", "clue_tokens", "strikes", "deck_size", "turns", "terminal"}


def _write_trace_with_illegal_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "game.json"
    assert main(["play", "--strategy", "simple", "--players", "3", "--seed", "1", "--out", str(path)]) == EXIT_OK
    capsys.readouterr()
    data = json.loads(path.read_text())
    data["actions"][3] = {"type": "hint", "target": data["actions"][3].get("target", 0), "kind": "value", "value": 1}
    current = 3 % 3
    data["actions"][3]["target"] = current  # a hint to oneself breaks 2.16-2a-target
    path.write_text(json.dumps(data))
    return path


@pytest.mark.checks("C-exit", "C-replay")
def test_replay_illegal_action_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[C-exit, C-replay] an illegal action in a trace: exit 1, one line naming the index."""
    path = _write_trace_with_illegal_action(tmp_path, capsys)
    code, out, err = run(["replay", str(path)], capsys)
    assert code == EXIT_INVALID_GAME
    assert out == ""
    assert err.count("\n") == 1 and "actions[3]" in err and "2.16-2a-target" in err


@pytest.mark.parametrize(
    ("content", "fragment"),
    [
        ("{", "not valid JSON"),
        ("[]", "must be a JSON object"),
        ('{"format": "hanabi-ref/trace", "version": 1}', "config: missing"),
        ('{"format": "other", "version": 1}', "format"),
    ],
)
@pytest.mark.checks("C-exit", "C-replay")
def test_replay_malformed_file_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, fragment: str) -> None:
    """[C-exit, C-replay] a malformed trace file: exit 1 and one line naming the problem."""
    path = tmp_path / "bad.json"
    path.write_text(content)
    code, out, err = run(["replay", str(path)], capsys)
    assert code == EXIT_INVALID_GAME and out == ""
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err


def test_replay_truncated_trace_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[C-exit] a trace cut short is reported, not a traceback."""
    path = tmp_path / "game.json"
    assert main(["play", "--strategy", "simple", "--players", "3", "--seed", "1", "--out", str(path)]) == EXIT_OK
    capsys.readouterr()
    text = path.read_text()
    path.write_text(text[: len(text) // 2])
    code, _, err = run(["replay", str(path)], capsys)
    assert code == EXIT_INVALID_GAME and "not valid JSON" in err and err.count("\n") == 1


def test_replay_deck_not_matching_variant_exit_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[C-exit, D-explicit] a deck that is not the variant's composition is an invalid game."""
    path = tmp_path / "game.json"
    assert main(["play", "--strategy", "simple", "--players", "3", "--seed", "1", "--out", str(path)]) == EXIT_OK
    capsys.readouterr()
    data = json.loads(path.read_text())
    data["deck"][0] = {"suit": 0, "value": 5}
    data["deck"][1] = {"suit": 0, "value": 5}
    path.write_text(json.dumps(data))
    code, _, err = run(["replay", str(path)], capsys)
    assert code == EXIT_INVALID_GAME and "deck" in err and err.count("\n") == 1


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["simulate", "--strategy", "nope", "--players", "3", "--games", "2"], "--strategy"),
        (["simulate", "--strategy", "simple", "--players", "7", "--games", "2", "--rules", "hle"], "players"),
        (["simulate", "--strategy", "simple", "--players", "3", "--games", "2", "--rules", "nope"], "preset"),
        (["simulate", "--strategy", "simple", "--players", "3", "--games", "2", "--variant", "nope"], "variant"),
        (["simulate", "--strategy", "simple", "--players", "3", "--games", "0"], "--games"),
        (["simulate", "--strategy", "simple", "--players", "x", "--games", "2"], "--players"),
        (["simulate", "--strategy", "simple", "--players", "3", "--games", "2", "--seed", "-1"], "--seed"),
        (["simulate", "--strategy", "simple", "--players", "3", "--games", "2", "--hand-size", "30"], "hand_size"),
        (["simulate", "--players", "3", "--games", "2"], "--strategy"),
        (["frobnicate"], "invalid choice"),
        ([], "required"),
        (["replay"], "file"),
        (["bench", "engine", "--seconds", "0"], "--seconds"),
        (["bench", "engine", "--players", "9", "--rules", "hle"], "players"),
        (["replay", "/nonexistent/trace.json"], "cannot read"),
    ],
)
@pytest.mark.checks("C-exit")
def test_usage_errors_exit_2_with_one_line(argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    """[C-exit] usage errors: exit code 2, one line on stderr naming the argument, no output."""
    code, out, err = run(argv, capsys)
    assert code == EXIT_USAGE
    assert out == ""
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err


def test_play_unwritable_output_leaves_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[C-exit, C-play] writing into a missing directory fails with exit 2, nothing written."""
    target = tmp_path / "missing" / "game.json"
    code, _, err = run(["play", "--strategy", "simple", "--players", "3", "--out", str(target)], capsys)
    assert code == EXIT_USAGE and "--out" in err
    assert not target.exists() and not target.parent.exists()


def test_console_script_runs_as_module() -> None:
    """[C-cli] ``python -m hanabi_ref.cli`` behaves like the console script, exit codes included."""
    env = dict(os.environ, PYTHONPATH=str(REPO))
    ok = run_process([sys.executable, "-m", "hanabi_ref.cli", "simulate", "--strategy", "simple",
                         "--players", "2", "--games", "2", "--json"], env=env, capture_output=True, text=True)
    assert ok.returncode == EXIT_OK and json.loads(ok.stdout)["games"] == 2
    bad = run_process([sys.executable, "-m", "hanabi_ref.cli", "simulate", "--players", "2"],
                      env=env, capture_output=True, text=True)
    assert bad.returncode == EXIT_USAGE and bad.stderr.count("\n") == 1


def test_bench_engine_reports_both_modes(capsys: pytest.CaptureFixture[str]) -> None:
    """[B-engine] the benchmark measures in child processes with contracts off and on
    (speed itself is not asserted: it is measured, never timed in tests)."""
    env_before = os.environ.get("PYTHONPATH")
    os.environ["PYTHONPATH"] = str(REPO) + (os.pathsep + env_before if env_before else "")
    try:
        code, out, err = run(["bench", "engine", "--seconds", "0.05", "--repeats", "1", "--json"], capsys)
    finally:
        if env_before is None:
            del os.environ["PYTHONPATH"]
        else:
            os.environ["PYTHONPATH"] = env_before
    assert code == EXIT_OK, err
    report = json.loads(out)
    (result,) = report["results"]
    assert result["variants"]["source-off"]["moves"] > 0 and result["variants"]["source-on"]["moves"] > 0
    assert result["ratios"]["source-off/source-on"] > 0


@pytest.mark.parametrize("file_format", ["trace", "hanab-live"])
def test_unreadable_game_file_exit_2_in_every_format(tmp_path: Path, capsys: pytest.CaptureFixture[str], file_format: str) -> None:
    """[C-exit, C-replay] a file that cannot be read at all is a usage error (exit 2) in
    both formats; its content is never half-reported."""
    code, out, err = run(["replay", str(tmp_path / "absent.json"), "--format", file_format], capsys)
    assert code == EXIT_USAGE and out == "" and "cannot read" in err and err.count("\n") == 1


@pytest.mark.parametrize("command", ["simulate", "play"])
def test_strategy_help_names_every_strategy(
    command: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The --strategy help lists exactly the registered strategies."""
    monkeypatch.setenv("COLUMNS", "400")  # argparse would wrap "hat-classic" at its hyphen
    with pytest.raises(SystemExit):
        main([command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    start = text.index("strategy name (") + len("strategy name (")
    listed = {name.strip() for name in text[start : text.index(")", start)].split(",")}
    assert listed == set(STRATEGIES)


# ------------------------------------------------------------------ rules --list

RULES_MD = REPO / "spec" / "rules.md"

# The presets' options that differ from the defaults, player counts and variants, transcribed
# from the table of differences of spec/rules.md section 10 (hanabi-rs from its bullet).
PRESET_TABLE: dict[str, tuple[dict[str, Any], int, int | None, list[str] | None]] = {
    "thesis": ({}, 1, None, None),
    "hle": ({"empty_hints": False, "discard_at_max_hints": False, "draw_after_final_move": False}, 2, 5, ["No Variant"]),
    "hanab-live": ({"empty_hints": False, "discard_at_max_hints": False, "end_when_no_points_possible": True,
                    "end_when_nothing_playable": True}, 2, 6,
                   ["No Variant", "6 Suits", "Black (6 Suits)", "Rainbow (6 Suits)"]),
    "hanabi-rs": ({"empty_hints": False, "discard_at_max_hints": False, "strikeout_score": "fireworks"}, 2, 5, ["No Variant"]),
    "physical": ({"empty_hints": False, "discard_at_max_hints": False}, 2, 5,
                 ["No Variant", "6 Suits", "Dutch Rainbow (Example 2.12)"]),
}


def _spec_value(text: str) -> bool | str:
    text = text.strip()
    return text == "true" if text in ("true", "false") else text.strip('"')


def spec_options() -> list[dict[str, Any]]:
    """The table of P-options in spec/rules.md: name, values, default and clauses, read
    from the markdown."""
    lines = RULES_MD.read_text(encoding="utf-8").split("**[P-options]**", 1)[1].splitlines()
    rows = [line for line in lines[: lines.index("An unknown option or a value outside its list is rejected with a message naming it.")]
            if line.startswith("| `")]
    options = []
    for row in rows:
        name, values, default, clauses = (cell.strip() for cell in row.strip("|").split("|"))
        options.append({
            "name": name.strip("`"),
            "values": [_spec_value(value) for value in values.split("(")[0].split("/")],
            "default": _spec_value(default.split(":")[0]),
            "clauses": clauses.split(", "),
        })
    return options


def spec_preset_names() -> list[str]:
    """The presets in the order P-presets lists them."""
    text = RULES_MD.read_text(encoding="utf-8").split("**[P-presets]**", 1)[1].split("**[R-1]**", 1)[0]
    return [line.split("`")[1] for line in text.splitlines() if line.startswith("- `")]


@pytest.mark.checks("C-rules")
def test_rules_list_json_is_the_spec_tables(capsys: pytest.CaptureFixture[str]) -> None:
    """[C-rules, P-options, P-presets] ``rules --list --json``: the options of the P-options
    table (names, values, defaults, clauses) in its order, which are RuleOptions' fields
    and defaults; the presets in the order of P-presets with the options of the table of
    differences, their player counts and variants, and their whole bundles."""
    import attrs

    from hanabi_ref.engine.presets import PRESETS, RuleOptions

    listing = run_json(["rules", "--list"], capsys)
    assert listing["options"] == spec_options()
    assert [o["name"] for o in listing["options"]] == [f.name for f in attrs.fields(RuleOptions)]
    assert {o["name"]: o["default"] for o in listing["options"]} == attrs.asdict(RuleOptions())
    assert [p["name"] for p in listing["presets"]] == spec_preset_names() == list(PRESETS) == list(PRESET_TABLE)
    for preset in listing["presets"]:
        sets, low, high, variants = PRESET_TABLE[preset["name"]]
        assert (preset["sets"], preset["min_players"], preset["max_players"], preset["variants"]) == (sets, low, high, variants)
        assert preset["options"] == {**attrs.asdict(RuleOptions()), **sets} == attrs.asdict(PRESETS[preset["name"]].options)


@pytest.mark.checks("C-rules")
def test_rules_list_text(capsys: pytest.CaptureFixture[str]) -> None:
    """[C-rules] the text form: a line per option with its values, default and clauses,
    and per preset its player counts, variants and the options it sets as NAME=VALUE."""
    code, out, err = run(["rules", "--list"], capsys)
    assert code == EXIT_OK and err == ""
    lines = out.splitlines()

    def shown(value: bool | str) -> str:
        return ("true" if value else "false") if isinstance(value, bool) else value

    for option in spec_options():
        (line,) = [line for line in lines if line.split()[0] == option["name"]]
        assert " | ".join(shown(v) for v in option["values"]) in line
        assert f"default {shown(option['default'])}" in line and line.endswith(", ".join(option["clauses"]))
    for name, (sets, low, high, variants) in PRESET_TABLE.items():
        index = [line.split()[0] for line in lines].index(name)
        players = f"{low}+" if high is None else f"{low}-{high}"
        assert f"players {players}" in lines[index]
        named = ", hanab.live's names (spec/variants.md)" if name == "hanab-live" else ""  # P-presets, VAR-engine
        assert lines[index].endswith(", ".join(variants) + named if variants else "all, custom compositions too")
        written = ", ".join(f"{key}={shown(value)}" for key, value in sets.items()) or "the defaults"
        assert lines[index + 1].split() == ["options", *written.split()]


@pytest.mark.checks("C-rules")
def test_rules_without_list_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """[C-rules, C-exit] ``rules`` alone: exit 2, one line naming --list."""
    code, out, err = run(["rules"], capsys)
    assert code == EXIT_USAGE and out == "" and err.count("\n") == 1 and "--list" in err


# ------------------------------------------------------------------ the first hour


@pytest.mark.checks("T-hanab-live-hint")
def test_a_hanab_live_file_replayed_as_a_trace_says_to_add_the_format(capsys: pytest.CaptureFixture[str]) -> None:
    """[T-hanab-live-hint] a hanab.live export read as a trace: one line that says what it
    looks like and the option to add, exit 1; with the option it replays. A file that is
    neither keeps the plain trace error."""
    game = Path(__file__).resolve().parent / "fixtures" / "hanab-live" / "no_variant_5p.json"
    code, out, err = run(["replay", str(game)], capsys)
    assert code == EXIT_INVALID_GAME and out == "" and err.count("\n") == 1
    assert err.startswith(f"hanabi-ref: {game}: this looks like a hanab.live game, not a trace: add --format hanab-live")
    assert run(["replay", str(game), "--format", "hanab-live"], capsys)[0] == EXIT_OK


@pytest.mark.checks("OUT-report", "C-play", "C-replay")
def test_commands_say_which_file_they_wrote(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[OUT-report] play --out and replay --html end with one line naming the file and its
    size; --out - (standard output) says nothing. The summary shows the fields as the board
    does (SH-board), the JSON keeps them a list."""
    game, page = tmp_path / "game.json", tmp_path / "game.html"
    code, out, err = run(["play", "--strategy", "simple", "--players", "2", "--seed", "4", "--out", str(game)], capsys)
    assert code == EXIT_OK and err == f"hanabi-ref: wrote {game} ({game.stat().st_size:,} bytes)\n"
    fields = next(line for line in out.splitlines() if line.startswith("fireworks"))
    heights = replay_trace(load_trace(game)).fireworks
    assert fields.split()[1:] == [f"{letter}{height}" for letter, height in zip("rygbp", heights)]
    code, _, err = run(["replay", str(game), "--html", str(page)], capsys)
    assert code == EXIT_OK and err == f"hanabi-ref: wrote {page} ({page.stat().st_size:,} bytes)\n"
    code, out, err = run(["play", "--strategy", "simple", "--players", "2", "--seed", "4", "--json"], capsys)
    assert code == EXIT_OK and err == "" and json.loads(out)["fireworks"] == list(heights)
    code, out, err = run(["play", "--strategy", "simple", "--players", "2", "--seed", "4", "--out", "-"], capsys)
    assert code == EXIT_OK and "wrote" not in err


@pytest.mark.checks("HU-rules", "C-help")
def test_a_person_plays_the_hanab_live_rules_unless_told_otherwise(monkeypatch: pytest.MonkeyPatch,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """[HU-rules] play --human without --rules: hanab-live, named in the greeting; play
    without --human keeps thesis; the help lists every preset and shows that simulate needs
    --strategy or --bot."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert main(["play", "--human", "0", "--players", "2", "--seed", "1"]) == 130
    assert "rules hanab-live" in capsys.readouterr().out
    code, out, _ = run(["play", "--strategy", "simple", "--players", "2", "--seed", "1", "--json"], capsys)
    assert code == EXIT_OK
    assert PRESET_NAMES == tuple(PRESETS)  # the help's list is the presets', none left out
    for command in ("simulate", "play", "sweep"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = " ".join(capsys.readouterr().out.split())
        assert "rule preset: " + ", ".join(PRESETS) in text
        if command == "simulate":
            assert "(--strategy STRATEGY | --bot CMD)" in text
