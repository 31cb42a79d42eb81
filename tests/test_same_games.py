"""The trace hash: the same games, action for action [SIM-trace-hash, SIM-jobs, SIM-crash].

Expected hashes are computed here from the clause text alone: each seed played with
``play_game``, its actions written with :func:`action_to_json` and the standard library's
``json`` (sorted keys, ``,``/``:`` separators: T-canonical), hashed with ``hashlib``, and
the digests hashed again in seed order.  Nothing of ``hanabi_ref.tools.sim`` is used for that.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from collections.abc import Iterable
from typing import Any

import pytest

from hanabi_ref.engine.actions import Action, Play, action_to_json
from hanabi_ref.engine.dealing import derive_seed
from hanabi_ref.players.runner import play_game
from hanabi_ref.players.strategy import Strategy, StrategyFactory
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.players.strategies import STRATEGIES, StrategySpec
from hanabi_ref.players.strategies.simple import SimpleStrategy
from hanabi_ref.engine.view import PlayerView
from tests.test_sim_runner import EXIT_FAILED, MIX, failing_spec, mix_factory, register, run, simulate_json
from tests.processes import run_process

PACKAGE_STRATEGIES = ("random", "simple", "thesis", "hat", "hat-classic", "recommendation", "info", "info-source",
                      "info-search")
"""Every strategy the package registers (hat and its kin need 4 or 5 players)."""


# ------------------------------------------------------------------ the independent reading


def canonical(document: object) -> bytes:
    """[T-canonical] sorted keys, no whitespace, UTF-8."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def clause_hash(config: GameConfig, factory: StrategyFactory, seeds: Iterable[int],
                failed: Iterable[int] = ()) -> str:
    """[SIM-trace-hash] the hash of the games of ``seeds`` by the clause; the seeds in
    ``failed`` contribute the failure marker's digest instead of a game."""
    lost = set(failed)
    outer = hashlib.sha256()
    for seed in seeds:
        if seed in lost:
            document: object = {"failed": True}
        else:
            record = play_game(config, factory, seed=seed)
            document = {"actions": [action_to_json(action) for action in record.trace.actions], "score": record.score}
        outer.update(hashlib.sha256(canonical(document)).digest())
    return outer.hexdigest()


def simulate_argv(strategy: str, players: int, games: int, seed: int, *extra: str) -> list[str]:
    return ["--strategy", strategy, "--players", str(players), "--games", str(games), "--seed", str(seed), *extra]


# ------------------------------------------------------------------ test-only strategy


class OneOtherPlay(SimpleStrategy):
    """The simple strategy, except that its first move, when ``swerve`` is set, plays a
    slot other than the simple strategy's choice (or plays instead of hinting or
    discarding).  Playing any slot of a hand is always legal [2.16-2c]."""

    def __init__(self, config: GameConfig, seat: int, seed: int, swerve: bool) -> None:
        super().__init__(config, seat, seed)
        self.swerve = swerve

    def act(self, view: PlayerView) -> Action:
        chosen = super().act(view)
        if not self.swerve:
            return chosen
        self.swerve = False
        return Play(1) if chosen == Play(0) else Play(0)


def one_other_play(game_seed: int) -> StrategyFactory:
    """Seat 0 of the game with ``game_seed`` makes one different first move (seat 0 is
    seeded with derive_seed(game seed, 1), D-seed)."""
    swerving = derive_seed(game_seed, 1)

    def factory(config: GameConfig, seat: int, seed: int) -> Strategy:
        return OneOtherPlay(config, seat, seed, seat == 0 and seed == swerving)

    return factory


# ------------------------------------------------------------------ the clause


@pytest.mark.checks("SIM-trace-hash")
def test_the_hash_is_the_clause_s_and_names_every_game(capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-trace-hash] ``simulate --json`` reports the hash computed here by the clause,
    and the text output prints the same hash on its ``trace sha256`` line."""
    argv = simulate_argv("random", 3, 12, 40, "--jobs", "1")
    result = simulate_json(argv, capsys)
    expected = clause_hash(make_config(3), STRATEGIES["random"], range(40, 52))
    assert result["trace_sha256"] == expected
    code, out, _ = run(["simulate", *argv], capsys)
    assert code == 0
    assert [line.split() for line in out.splitlines() if line.startswith("trace sha256")] == [["trace", "sha256", expected]]


@pytest.mark.checks("SIM-trace-hash", "SIM-jobs")
def test_the_hash_does_not_depend_on_workers_or_chunks(capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-trace-hash, SIM-jobs] one process, two workers with chunks of 3 and of 7 games:
    one hash, the clause's; games in another order (a leak of chunk order) would not give it."""
    argv = simulate_argv("simple", 3, 20, 7)
    hashes = {simulate_json(argv + extra, capsys)["trace_sha256"]
              for extra in (["--jobs", "1"], ["--jobs", "2", "--chunk-size", "3"], ["--jobs", "2", "--chunk-size", "7"])}
    assert hashes == {clause_hash(make_config(3), STRATEGIES["simple"], range(7, 27))}
    reordered = clause_hash(make_config(3), STRATEGIES["simple"], [*range(10, 27), *range(7, 10)])
    assert reordered not in hashes


@pytest.mark.checks("SIM-trace-hash")
def test_one_other_action_changes_the_hash(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-trace-hash] seat 0 of the game with seed 5 makes one different first move:
    the run's hash changes, and it is the clause's hash of the changed games."""
    config, factory = make_config(3), one_other_play(5)
    changed = play_game(config, factory, seed=5).trace.actions
    assert changed[0] != play_game(config, STRATEGIES["simple"], seed=5).trace.actions[0]
    register(monkeypatch, StrategySpec("one-other-play", "test only", (), lambda values: factory))
    argv = ["--players", "3", "--games", "6", "--seed", "2", "--jobs", "1"]
    plain = simulate_json(["--strategy", "simple", *argv], capsys)["trace_sha256"]
    swerved = simulate_json(["--strategy", "one-other-play", *argv], capsys)["trace_sha256"]
    assert plain == clause_hash(config, STRATEGIES["simple"], range(2, 8))
    assert swerved == clause_hash(config, factory, range(2, 8)) != plain


@pytest.mark.checks("SIM-trace-hash", "SIM-crash")
def test_a_failed_game_contributes_the_failure_marker(monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-trace-hash, SIM-crash] games 13 and 16 raise: in one process or two workers
    they contribute SHA-256 of ``{"failed":true}``, the others their games."""
    register(monkeypatch, failing_spec("flaky", illegal_on=(13, 16)))
    expected = clause_hash(make_config(3), STRATEGIES["simple"], range(11, 19), failed=(13, 16))
    for jobs in ("1", "2"):
        result = simulate_json(simulate_argv("flaky", 3, 8, 11, "--jobs", jobs, "--chunk-size", "3"), capsys,
                               expected=EXIT_FAILED)
        assert result["failed_seeds"] == [13, 16]
        assert result["trace_sha256"] == expected


@pytest.mark.checks("SIM-trace-hash", "SIM-sweep")
def test_a_sweep_has_one_hash_per_point(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-trace-hash, SIM-sweep] ``sweep --format json``: each row's hash is the clause's
    hash of that point's games; points that play differently have different hashes."""
    register(monkeypatch, MIX)
    code, out, err = run(["sweep", "--strategy", "mix", "--players", "3", "--games", "6", "--seed", "30",
                          "--grid", "random_seats=0,3", "--format", "json", "--jobs", "2", "--chunk-size", "4"], capsys)
    assert code == 0, err
    rows: list[dict[str, Any]] = json.loads(out)["rows"]
    expected = [clause_hash(make_config(3), mix_factory(seats), range(30, 36)) for seats in (0, 3)]
    assert [row["trace_sha256"] for row in rows] == expected
    assert expected[0] != expected[1]


# ------------------------------------------------------------------ contracts never steer

CHILD = """
import contextlib, io, json, sys
from hanabi_ref.cli import main
from hanabi_ref.base.contracts import ENABLED
assert not ENABLED, "the child must run without contracts"
for argv in json.loads(sys.argv[1]):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(argv) == 0, argv
    print(out.getvalue().strip())
"""


@pytest.mark.checks("SIM-trace-hash")
@pytest.mark.parametrize(("names", "games"), [
    pytest.param(PACKAGE_STRATEGIES[:-1], 4, id="fast"),
    pytest.param(PACKAGE_STRATEGIES[-1:], 1, id="info-search"),
    pytest.param(PACKAGE_STRATEGIES[:-1], 24, id="fast-at-length", marks=pytest.mark.deep),
    pytest.param(PACKAGE_STRATEGIES[-1:], 8, id="info-search-at-length", marks=pytest.mark.deep),
])
def test_contracts_never_steer(names: tuple[str, ...], games: int, capsys: pytest.CaptureFixture[str]) -> None:
    """[SIM-trace-hash] every strategy plays the same games with contracts off (a child
    process with HANABI_REF_CONTRACTS=0) as with them on (this process: conftest): 4
    games each, and 1 of the searching ``info-search`` (each of its moves plays dozens of
    games to their end); 24 and 8 in the deep set."""
    rules = {name: ["--rules", "hle"] for name in ("info", "info-source", "info-search")}  # they refuse the thesis preset
    runs = [["simulate", *simulate_argv(name, 4, games, 300, *rules.get(name, []), "--jobs", "1", "--json")]
            for name in names]
    environment = {**os.environ, "HANABI_REF_CONTRACTS": "0"}
    child = run_process([sys.executable, "-c", CHILD, json.dumps(runs)], env=environment, capture_output=True,
                        text=True, check=False, timeout=600)
    assert child.returncode == 0, child.stderr
    without = [json.loads(line) for line in child.stdout.splitlines()]
    assert [result["contracts"] for result in without] == [False] * len(runs)
    for argv, off in zip(runs, without):
        on = simulate_json(argv[1:-1], capsys)
        assert on["contracts"] is True
        assert (argv[2], on["trace_sha256"]) == (argv[2], off["trace_sha256"])
