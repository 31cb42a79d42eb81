"""The conformance adapters of public engines built from source (docs/conformance.md).

The adapters (tests/engines/peers/) are built outside the repository by
``tests/engines/peers/build.sh`` from the peers' public sources, which are never in the
repository; ``HANABI_REF_PEERS`` names the folder they were built into. The tests of an
adapter skip when it is not there. What they check is what docs/conformance.md reports:

* hanabi.rs plays the ``hanabi-rs`` preset, except that a deal which empties the stack
  gives p + 1 moves: the literal Algorithm 2.16 of E-6 (``initial_stop_check = false``).
* Quuxplusone's server accepts a play or discard of the index just past the hand (a bug,
  docs/peers/quuxplusone-slot-past-hand.cc); past that, it plays ``hanabi-rs`` except that
  the move of the last allowed error draws no card while the move that completes the
  fireworks does (R-3: neither value of ``draw_after_final_move``).

The tests of the tools around them (the vector matrix, the build script's usage) always run.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.actions import Play
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.tools.protocol.choosing import Chooser, RandomChooser
from hanabi_ref.tools.protocol.engine import EngineFailure
from hanabi_ref.tools.verify.compare import Divergence, play_compared
from hanabi_ref.tools.verify.drivers import make_driver
from hanabi_ref.tools.verify.process import ProcessEngine
from tests.engines.peers.vector_matrix import clause_of
from tests.engines.peers.vector_matrix import main as vector_matrix
from tests.processes import ROOT, run_process

PEERS = "HANABI_REF_PEERS"
"""The folder ``build.sh`` built the adapters into."""


def adapter(name: str) -> Path:
    """The built adapter ``name``; the test skips when it is not built."""
    folder = os.environ.get(PEERS)
    path = Path(folder, name) if folder else None
    if path is None or not path.is_file():
        pytest.skip(f"{name} is not built: tests/engines/peers/build.sh, then {PEERS}=FOLDER (docs/conformance.md)")
    return path


class WithoutRemaining(ProcessEngine):
    """An engine's answers with ``remaining`` left out: the counters of the last round are
    read differently before the first move of a deal that empties the stack (ours is
    null there under ``initial_stop_check = false``, hanabi.rs's counts p + 1 moves), and
    the game's length is what the rule decides."""

    def state(self) -> Any:
        state = super().state()
        if isinstance(state, dict):
            state.pop("remaining", None)
        return state


@pytest.fixture
def hanabi_rs() -> Iterator[ProcessEngine]:
    engine = ProcessEngine(str(adapter("hanabi-rs-engine")))
    yield engine
    engine.close()


def first_divergence(engine: ProcessEngine, config: GameConfig, seeds: range, driver: str | None = None
                     ) -> Divergence | None:
    """The first divergence of games on the seeds' decks: random moves with illegal probes,
    or the moves of one of verify's skilled drivers (EP-skilled)."""
    for seed in seeds:
        chooser: Chooser = RandomChooser(seed)
        if driver is not None:
            generator = random.Random(seed)
            chooser = make_driver(driver, lambda n: generator.randrange(n) if n > 1 else 0)
        found = play_compared(engine, config, deck_from_seed(config, seed), chooser)
        if found is not None:
            return found
    return None


def test_hanabi_rs_plays_the_hanabi_rs_preset(hanabi_rs: ProcessEngine) -> None:
    for players in range(2, 6):
        assert first_divergence(hanabi_rs, make_config(players, "hanabi-rs"), range(3)) is None


def test_hanabi_rs_reads_the_empty_stack_after_the_deal_literally() -> None:
    engine = WithoutRemaining(str(adapter("hanabi-rs-engine")))
    try:
        literal = make_config(2, "hanabi-rs", hand_size=25, initial_stop_check=False)
        assert first_divergence(engine, literal, range(5)) is None
        found = first_divergence(engine, make_config(2, "hanabi-rs", hand_size=25), range(1))
        assert found is not None and found.what.startswith("after actions[1]")  # p moves, not p + 1
        assert "state.terminal: reference true, engine false" in found.what
    finally:
        engine.close()


def test_quuxplusone_accepts_the_slot_past_the_hand() -> None:
    engine = ProcessEngine(str(adapter("quuxplusone-engine")))
    try:
        config = make_config(2, "hanabi-rs")
        engine.new_game(config, deck_from_seed(config, 0))
        with pytest.raises(EngineFailure, match=r"aborted while applying \{\"slot\":5,\"type\":\"play\"\}"):
            engine.apply(Play(5))
    finally:
        engine.close()


@pytest.mark.parametrize(("option", "driver"), [("true", "striker"), ("false", "finisher")])
def test_quuxplusone_draws_after_a_win_not_after_a_strikeout(option: str, driver: str) -> None:
    engine = ProcessEngine(f"{adapter('quuxplusone-engine')} --refuse-slot-past-hand")
    try:
        config = make_config(2, "hanabi-rs", draw_after_final_move=option == "true")
        found = first_divergence(engine, config, range(5), driver)
    finally:
        engine.close()
    assert found is not None and found.after is not None
    ours = found.after["reference"]
    assert {d.field for d in found.differences} == {"deck_size", "hands"}  # the final move's draw
    assert ours["terminal"] and (ours["strikes"] == 3 if driver == "striker" else ours["score"] == 25)


def test_the_vector_matrix_reads_the_clause_of_a_verdict() -> None:
    assert clause_of("the engine says score 1, the rules say 0 (2.16-3-strikeout)") == "2.16-3-strikeout"
    assert clause_of("the engine says (a) thing") == "?"
    assert clause_of("no clause here") == "?"
    assert clause_of("the engine says deck_size 5, the rules say 6 (R-3; option draw_after_final_move = false)") == "R-3"
    assert clause_of('the engine lists "seat 0 discards slot 0: r1"; the rules forbid it (E-2: discarding is not '
                     "allowed with all 8 hint tokens, under the rule option discard_at_max_hints = false)") == "E-2"


def test_the_vector_matrix_refuses_an_unknown_preset(capsys: pytest.CaptureFixture[str]) -> None:
    assert vector_matrix(["hanabi-ref serve", "hanabi-rs"]) == 2
    assert vector_matrix([]) == 2
    assert "Usage: python -m tests.engines.peers.vector_matrix" in capsys.readouterr().err


def test_the_build_script_names_its_usage(tmp_path: Path) -> None:
    script = str(ROOT / "tests" / "engines" / "peers" / "build.sh")
    wrong = run_process(["bash", script, "cobol", str(tmp_path), str(tmp_path / "out")], capture_output=True, text=True,
                        timeout=60)
    assert wrong.returncode == 2 and "unknown peer cobol" in wrong.stderr
    empty = run_process(["bash", script, "quuxplusone", str(tmp_path), str(tmp_path / "out")], capture_output=True,
                        text=True, timeout=60)
    assert empty.returncode == 1 and "has no HanabiServer.cc" in empty.stderr
    usage = run_process(["bash", script], capture_output=True, text=True, timeout=60)
    assert usage.returncode == 2 and "usage: build.sh" in usage.stderr
