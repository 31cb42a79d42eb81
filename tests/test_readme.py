"""The README's first screen: one sentence saying what hanabi_ref is and for whom (engine
authors, researchers running bots, RL users, readers), then the two commands that work on
a fresh machine with Python 3.11 and pip (install and run the main job; install and run
the whole suite, the command ``.ci/run`` runs), a picture that exists, a library example
that runs, and links to pages that exist (the details of the suite are docs/testing.md,
every command docs/cli.md)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def fenced(info: str) -> list[str]:
    """The bodies of the README's fenced blocks with this info string, in order."""
    return re.findall(rf"^```{info}\n(.*?)^```$", README, flags=re.S | re.M)


def test_the_first_screen_says_what_and_for_whom_then_the_two_commands() -> None:
    lines = README.splitlines()
    first_block = lines.index("```sh")
    assert first_block < 15, "the two commands are on the first screen"
    before = " ".join(lines[:first_block])
    assert "reference implementation" in before and all(
        who in before for who in ("engine", "researchers", "RL", "readers"))
    install, test = fenced("sh")[0].splitlines()
    assert install.startswith("pip install . && hanabi-ref ")
    assert test == "pip install '.[dev]' && python -m pytest -n auto"
    assert (ROOT / ".ci" / "run").read_text(encoding="utf-8").rstrip().endswith(test.replace("pip install", "pip install --quiet"))
    pictures = re.findall(r"!\[[^\]]*\]\(([^)]+)\)", README)
    assert pictures and all((ROOT / picture).is_file() for picture in pictures)
    assert README.index(pictures[0]) < README.index("```python")


def test_the_readmes_library_example_runs() -> None:
    (code,) = fenced("python")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=600)
    assert done.returncode == 0, done.stderr
    assert "fireworks" in done.stdout and done.stdout.strip().splitlines()[-1].isdigit()


def test_every_page_the_readme_links_exists() -> None:
    links = re.findall(r"\]\(((?:docs|spec)/[^)#]+)", README)
    assert links and [link for link in links if not (ROOT / link).exists()] == []
