"""The must-run switch of the optional libraries (tests/oracles.py): a test that needs a
missing peer engine or library skips, and fails instead under HANABI_REF_REQUIRE_ORACLES=1;
every test asks for such a library through that module, so that the switch reaches it."""

from __future__ import annotations

import re
import sys
import types
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

from tests.oracles import ORACLES, REQUIRE_ORACLES, oracle
from tests.processes import PY, ROOT, checkout_env, run_process

PROBE = '''
import sys
sys.modules["hanabython"] = None  # as if it were not installed

from tests.oracles import needs, oracle


def test_asks() -> None:
    oracle("hanabython")


@needs("hanabython")
def test_marked() -> None:
    pass


def test_unaffected() -> None:
    pass
'''

MODULE_PROBE = '''
import sys
sys.modules["hanabython"] = None

from tests.oracles import oracle

oracle("hanabython")


def test_in_a_skipped_module() -> None:
    pass
'''


def test_a_missing_library_skips_and_fails_under_the_switch(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without the switch a missing library skips; with it, it fails, naming the library
    and the switch; a library that is there is returned either way."""
    monkeypatch.setitem(sys.modules, "pyspiel", None)  # makes the import fail
    monkeypatch.delenv(REQUIRE_ORACLES, raising=False)
    with pytest.raises(pytest.skip.Exception, match="pyspiel is not installed"):
        oracle("pyspiel")
    monkeypatch.setenv(REQUIRE_ORACLES, "1")
    with pytest.raises(pytest.fail.Exception, match=f"{REQUIRE_ORACLES}=1 and pyspiel is not installed"):
        oracle("pyspiel")
    present = types.ModuleType("pyspiel")
    monkeypatch.setitem(sys.modules, "pyspiel", present)
    assert oracle("pyspiel") is present
    monkeypatch.setenv(REQUIRE_ORACLES, "0")
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(pytest.skip.Exception):
        oracle("pyspiel")


def test_only_the_listed_libraries_may_be_asked_for() -> None:
    """A library CI does not install cannot be made optional by asking for it."""
    with pytest.raises(ValueError, match="not one of ORACLES"):
        oracle("json")


def _outcomes(tmp_path: Path, switch: str | None) -> tuple[int, dict[str, str], str]:
    """Runs the probes in a pytest of their own, with the hooks of tests/oracles.py: its
    exit code, each test's outcome (from its JUnit report) and its output."""
    (tmp_path / "test_probe.py").write_text(PROBE)
    (tmp_path / "test_module_probe.py").write_text(MODULE_PROBE)
    report = tmp_path / f"report-{switch}.xml"
    env = checkout_env()
    env["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # only tests/oracles.py's hooks: hypothesis's alone cost seconds
    env.pop(REQUIRE_ORACLES, None)
    if switch is not None:
        env[REQUIRE_ORACLES] = switch
    argv = [PY, "-m", "pytest", "-p", "tests.oracles", "-p", "no:cacheprovider", "-p", "no:xdist",
            "--continue-on-collection-errors", f"--junit-xml={report}", "test_probe.py", "test_module_probe.py"]
    done = run_process(argv, cwd=tmp_path, env=env, capture_output=True, text=True)
    outcomes = {}
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        kinds = [child.tag for child in case if child.tag in ("skipped", "failure", "error")]
        outcomes[case.get("name") or case.get("classname") or ""] = kinds[0] if kinds else "passed"
    return done.returncode, outcomes, done.stdout + done.stderr


def test_the_switch_turns_skips_into_failures(tmp_path: Path) -> None:
    """End to end, in a pytest run of its own: a test asking for a missing library, a test
    marked ``needs`` it and a module asking for it at import are skipped without the
    switch (exit 0) and fail under it (exit 1); a test that needs nothing passes both
    times; the summary names the missing library."""
    code, outcomes, output = _outcomes(tmp_path, None)
    assert code == 0, output
    assert outcomes == {"test_asks": "skipped", "test_marked": "skipped", "test_unaffected": "passed",
                        "test_module_probe": "skipped"}, output
    # the summary names hanabython among the libraries missing here (others may be missing too)
    assert re.search(r"optional libraries not installed, their tests skipped: [^\n(]*\bhanabython\b", output), output
    code, outcomes, output = _outcomes(tmp_path, "1")
    assert code == 1, output
    assert outcomes == {"test_asks": "failure", "test_marked": "error", "test_unaffected": "passed",
                        "test_module_probe": "error"}, output
    assert output.count(f"{REQUIRE_ORACLES}=1 and hanabython is not installed") >= 3, output
    assert re.search(r"optional libraries not installed, their tests failed: [^\n(]*\bhanabython\b", output), output


# ------------------------------------------------------------------ every test goes through it


UNGUARDED = (
    re.compile(r"importorskip\("),
    re.compile(r"skipif\([^)]*(find_spec|import)", re.DOTALL),
)
ASKED = re.compile(r"\b(?:oracle|needs)\(([^()]*)\)")


def unguarded(text: str) -> list[str]:
    """The ways ``text`` skips on a missing library around the switch."""
    return [match.group(0) for pattern in UNGUARDED for match in pattern.finditer(text)]


def asked_for(text: str) -> set[str]:
    """The libraries ``text`` asks tests/oracles.py for by name."""
    return {name for match in ASKED.finditer(text) for name in re.findall(r'"([^"]+)"', match.group(1))}


def test_the_guard_sees_a_skip_around_the_switch() -> None:
    """The scan below finds each way around the switch (its negative controls)."""
    assert unguarded('np = pytest.importorskip("numpy")\n')
    assert unguarded('@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="no torch")\n')
    assert not unguarded('@pytest.mark.skipif(not LINUX, reason="reads /proc")\nnp = oracle("numpy")\n')
    assert asked_for('oracle("numpy")\n@needs("pyspiel", "torch")\n') == {"numpy", "pyspiel", "torch"}


def test_every_optional_library_is_asked_for_through_the_switch() -> None:
    """No test, proof check or documentation test skips on a missing library by itself
    (``pytest.importorskip``, a ``skipif`` on an import), and every library asked for is
    one of those ORACLES that .ci/run installs."""
    sources = [path for folder in ("tests", "proofs", "docs") for path in sorted((ROOT / folder).rglob("*.py"))]
    offenders = {}
    asked: set[str] = set()
    for path in sources:
        if path.name in ("oracles.py", "test_oracles.py") and path.parent.name == "tests":
            continue
        text = path.read_text(encoding="utf-8")
        asked |= asked_for(text)
        if found := unguarded(text):
            offenders[str(path.relative_to(ROOT))] = found
    assert not offenders, f"skips that bypass tests/oracles.py: {offenders}"
    assert asked and asked <= set(ORACLES), asked - set(ORACLES)


def test_ci_installs_the_oracles_and_sets_the_switch() -> None:
    """.ci/run installs the peers that [dev] does not (pyhanabi, hanabython) and sets
    the switch, so that in CI a missing oracle fails."""
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(rf"^\s*export {REQUIRE_ORACLES}=1$", script, re.MULTILINE), script
    assert re.search(r"CMAKE_POLICY_VERSION_MINIMUM=3\.5 .*pip install .*\[hle,hanabython\]", script), script
