"""The small things a user trips on [C-version, C-help, C-extras, C-exit]: ``--version``,
help texts that name every default, one exit code (2) and one line naming the ``pip
install`` for every missing optional package, one error prefix everywhere."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import pytest

from hanabi_ref import __version__
from hanabi_ref.cli import build_parser, main
from tests.processes import run_process

ROOT = Path(__file__).resolve().parents[1]

BLOCKER = """
import importlib.util, sys
blocked = sys.argv[1]
real = importlib.util.find_spec
def find_spec(name, *args, **kwargs):
    if name.split(".")[0] == blocked:
        return None
    return real(name, *args, **kwargs)
importlib.util.find_spec = find_spec
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == blocked:
            raise ImportError(f"No module named {name!r}")
        return None
sys.meta_path.insert(0, Block())
from hanabi_ref.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.checks("C-version")
def test_version_is_printed_and_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    """[C-version] ``hanabi-ref --version`` prints the package's version, exit 0, no
    subcommand needed."""
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"hanabi-ref {__version__}\n"


def _options(parser: argparse.ArgumentParser, name: str) -> list[tuple[str, argparse.Action, argparse.ArgumentParser]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub, subparser in action.choices.items():
                found += _options(subparser, f"{name} {sub}")
        elif not isinstance(action, argparse._HelpAction):
            found.append((name, action, parser))
    return found


@pytest.mark.checks("C-help")
def test_every_option_has_help_naming_its_default() -> None:
    """[C-help] every option and argument of every command has a help text, and the text
    shown names the default of every option that has one."""
    missing, silent = [], []
    for command, action, parser in _options(build_parser(), "hanabi-ref"):
        where = f"{command} {'/'.join(action.option_strings) or action.dest}"
        if not action.help:
            missing.append(where)
            continue
        default = action.default
        if default in (None, False, True, argparse.SUPPRESS) or default == []:
            continue
        formatted = " ".join(parser.format_help().split())  # argparse wraps long lines
        if "default" not in action.help and f"(default: {default})" not in formatted:
            silent.append(where)
    assert missing == [] and silent == []


@pytest.mark.parametrize(("module", "argv", "extra"), [
    ("pyspiel", ["bench", "engine", "--against", "openspiel", "--players", "2", "--rules", "hle"], "openspiel"),
    ("pyspiel", ["verify", "--against", "openspiel", "--games", "1", "--no-vectors"], "openspiel"),
    ("distributed", ["simulate", "--strategy", "thesis", "--players", "2", "--games", "2", "--executor", "dask",
                     "--scheduler", "tcp://127.0.0.1:1"], "dask"),
    ("matplotlib", ["sweep", "--strategy", "thesis", "--players", "2", "--games", "2", "--grid", "omega_p=0.5,1",
                    "--plot", "{tmp}/plot.png"], "plot"),
    ("numpy", ["rl", "check", "--against", "openspiel", "--states", "3"], "rl"),
    ("numpy", ["simulate", "--strategy", "learned-recommendation", "--players", "2", "--games", "1"], "rl"),
    ("torch", ["rl", "train", "--agent", "recommendation", "--steps", "10", "--out", "{tmp}/model"], "train"),
    ("pyspiel", ["rl", "bench"], "openspiel"),
    ("pyspiel", ["rl", "compose", "--states", "3"], "openspiel"),
    ("pyspiel", ["bench", "openspiel-game", "--players", "2"], "openspiel"),
])
@pytest.mark.checks("C-extras")
def test_a_missing_optional_package_is_exit_2_naming_the_install(tmp_path: Path, module: str, argv: list[str],
                                                                  extra: str) -> None:
    """[C-extras] with the package made unimportable, the command stops before it starts:
    exit code 2, one line on standard error that begins ``hanabi-ref:`` and names the
    ``pip install`` of the extra; nothing written."""
    args = [arg.replace("{tmp}", str(tmp_path)) for arg in argv]
    done = run_process([sys.executable, "-c", BLOCKER, module, *args], capture_output=True, text=True,
                       cwd=tmp_path, timeout=300, env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    lines = done.stderr.strip().splitlines()
    assert done.returncode == 2, done.stderr
    assert len(lines) == 1 and lines[0].startswith("hanabi-ref: "), done.stderr
    # run from the checkout ROOT, elsewhere: the hint names the checkout
    assert f"pip install '{ROOT}[{extra}]'" in lines[0]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("argv", [
    ["simulate", "--players", "2", "--games", "1", "--strategy", "nope"],
    ["bench", "solver", "--players", "2,3"],
    ["play", "--strategy", "thesis"],
    ["replay", "/nonexistent/game.json"],
    ["nope"],
    ["rules"],
])
@pytest.mark.checks("C-exit")
def test_every_error_line_starts_with_one_prefix(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    """[C-exit] errors of argparse, of the commands and of files all begin ``hanabi-ref:``."""
    assert main(argv) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hanabi-ref: "), lines
