"""Text from input reaches the terminal only escaped [OUT-escape, C-exit].

Every error path of the command line that quotes input is fed the characters that could
change a terminal or forge a line: ESC (a title or colour sequence), BEL, CR, LF, U+2028
(a line separator) and U+202E (right-to-left override).  What the command prints, on
standard error and standard output, must hold none of them raw, and the error must be
one line; the escapes must still say what the input held.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from hanabi_ref.cli import main
from hanabi_ref.base.escape import escape_text
from tests.helpers import scripted_engine

HOSTILE = "\x1b]0;PWNED\x07\x1b[31m\r\nhanabi-ref: all good\u2028\u202eevil"
"""ESC and BEL (a terminal title and a colour), CR and LF (a forged line), U+2028, U+202E."""
ENGINES = Path(__file__).resolve().parent / "engines"
RAW = ("\x1b", "\x07", "\r", "\u2028", "\u202e")


@pytest.mark.checks("OUT-escape")
def test_escape_text_writes_every_unsafe_character_as_its_escape() -> None:
    """[OUT-escape] controls (C0, DEL, C1), format characters and separators become
    their Python escapes; letters of any script, spaces and punctuation stay as they are."""
    assert escape_text(HOSTILE) == "\\x1b]0;PWNED\\x07\\x1b[31m\\r\\nhanabi-ref: all good\\u2028\\u202eevil"
    assert escape_text("\x00\t\x7f\x9b\u200b\u2029\ufeff\U000e0001") == "\\x00\\t\\x7f\\x9b\\u200b\\u2029\\ufeff\\U000e0001"
    plain = "Rot & Grün (6 Suits) – 中文 · ñ ü \\ 'quoted' \u00a0"
    assert escape_text(plain) == plain
    assert escape_text("") == ""


def is_clean(text: str) -> bool:
    """No raw control, format or separator character but the newlines that end lines."""
    return not any(character in text for character in RAW) and escape_text(text.replace("\n", "")) == text.replace("\n", "")


def says_what_it_held(text: str) -> bool:
    """The escapes still say what the input held (ours, or JSON's inside a quoted value)."""
    return "PWNED" in text and ("\\x1b" in text or "\\u001b" in text)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_clean_line(code: int, out: str, err: str) -> None:
    assert code != 0
    assert err.count("\n") == 1 and err.startswith("hanabi-ref: "), err
    assert is_clean(err) and is_clean(out), (out, err)
    assert says_what_it_held(err), err


def hanablive_game(tmp_path: Path, **options: object) -> Path:
    """A 3-player No Variant game file of hanab.live with no moves and ``options``."""
    deck = [{"suitIndex": suit, "rank": rank} for suit in range(5) for rank in (1, 1, 1, 2, 2, 3, 3, 4, 4, 5)]
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"players": ["A", "B", "C"], "deck": deck, "actions": [], "options": options}),
                    encoding="utf-8")
    return path


@pytest.mark.checks("OUT-escape")
@pytest.mark.parametrize("variant", [f"No {HOSTILE} Variant", f"Rainbow & {HOSTILE} (6 Suits)",
                                     f"{HOSTILE} (5 Suits)"])
def test_a_hanablive_variant_name(tmp_path: Path, capsys: pytest.CaptureFixture[str], variant: str) -> None:
    """[OUT-escape, HL-options] an unknown variant, an unknown special suit and an unknown
    single suit: each refusal quotes the name escaped."""
    path = hanablive_game(tmp_path, variant=variant)
    assert_one_clean_line(*run(["replay", str(path), "--format", "hanab-live"], capsys))


@pytest.mark.checks("OUT-escape")
def test_a_hanablive_option_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[OUT-escape, HL-options] an unknown option's name is quoted escaped."""
    path = hanablive_game(tmp_path, **{HOSTILE: True})
    assert_one_clean_line(*run(["replay", str(path), "--format", "hanab-live"], capsys))


@pytest.mark.checks("OUT-escape")
def test_a_trace_field(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[OUT-escape, T-schema] a game's trace whose preset is hostile text."""
    path = tmp_path / "trace.json"
    assert main(["play", "--strategy", "simple", "--players", "2", "--seed", "1", "--out", str(path)]) == 0
    capsys.readouterr()
    data = json.loads(path.read_text(encoding="utf-8"))
    data["config"]["preset"] = HOSTILE
    path.write_text(json.dumps(data), encoding="utf-8")
    assert_one_clean_line(*run(["replay", str(path)], capsys))


@pytest.mark.checks("OUT-escape")
def test_a_file_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[OUT-escape] a missing file whose name holds the characters."""
    assert_one_clean_line(*run(["replay", str(tmp_path / HOSTILE)], capsys))


@pytest.mark.checks("OUT-escape")
@pytest.mark.parametrize("argv", [["simulate", "--strategy", HOSTILE, "--players", "3", "--games", "1"],
                                  ["simulate", "--strategy", "thesis", "--players", "3", "--games", "1", "--param",
                                   f"omega_p={HOSTILE}"],
                                  ["simulate", "--strategy", "thesis", "--players", "3", "--games", "1", "--rules", HOSTILE],
                                  ["simulate", "--strategy", "thesis", "--players", "3", "--games", "1", "--variant", HOSTILE],
                                  [HOSTILE]])
def test_a_command_line_argument(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """[OUT-escape, C-exit] a strategy, a parameter's value, a preset, a variant and a
    command that are hostile text: each usage error quotes them escaped."""
    assert_one_clean_line(*run(argv, capsys))


@pytest.mark.checks("OUT-escape")
@pytest.mark.parametrize("answers", [
    ['{"ok": false, "error": "\\u001b]0;PWNED\\u0007\\r\\nhanabi-ref: all good\\u2028\\u202e"}'],
    ['{"ok": true, "name": "x"}', '{"ok": false, "error": "\\u001b]0;PWNED\\u0007 no\\u2028\\u202e"}'],
    ['{"ok": true, "name": "x"}', '{"ok": true}', '{"ok": true, "state": {"clue_tokens": "\\u001b]0;PWNED\\u0007\\u202e"}}'],
])
def test_an_engine_answer(tmp_path: Path, capsys: pytest.CaptureFixture[str], answers: list[str]) -> None:
    """[OUT-escape, EP-failures] an engine's error text and a wrong value in its state,
    quoted in verify's failure line, are escaped."""
    engine = scripted_engine(tmp_path, answers)
    code, out, err = run(["verify", "--engine", engine, "--no-vectors", "--games", "1", "--timeout", "20"], capsys)
    assert code != 0 and is_clean(out) and is_clean(err), (out, err)
    assert err.count("\n") == 1 and says_what_it_held(err), (out, err)


@pytest.mark.checks("OUT-escape")
def test_an_engine_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[OUT-escape, EP-failures] what a crashing engine wrote to its standard error is
    quoted in the failure line, escaped."""
    script = tmp_path / "crash.py"
    script.write_text(f"import sys\nsys.stdin.readline()\nsys.stderr.write({HOSTILE!r})\nsys.exit(3)\n", encoding="utf-8")
    code, out, err = run(["verify", "--engine", f"{sys.executable} {script}", "--no-vectors", "--games", "1",
                          "--timeout", "20"], capsys)
    assert code != 0 and is_clean(out) and is_clean(err) and err.count("\n") == 1, (out, err)


@pytest.mark.checks("OUT-escape")
def test_explain_of_a_hostile_reproduction(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[OUT-escape, EP-repro] ``explain`` of a reproduction whose divergence texts are
    hostile prints them escaped."""
    engine = f"{sys.executable} {ENGINES / 'tampered.py'} 3 clue_tokens=9"
    out_file = tmp_path / "repro.json"
    run(["verify", "--engine", engine, "--no-vectors", "--games", "5", "--players", "3", "--rules", "hle",
         "--out", str(out_file)], capsys)
    assert out_file.exists(), "verify wrote no reproduction"
    data = json.loads(out_file.read_text(encoding="utf-8"))
    data["divergence"]["what"] = HOSTILE
    data["divergence"]["where"] = HOSTILE
    for difference in data["divergence"].get("differences", []):
        difference["note"] = HOSTILE
    out_file.write_text(json.dumps(data), encoding="utf-8")
    code, out, err = run(["explain", str(out_file)], capsys)
    assert is_clean(out) and is_clean(err), (out, err)
    assert says_what_it_held(out + err), (out, err)
