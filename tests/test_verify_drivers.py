"""Random games that reach every rule [EP-skilled, EP-random, EP-shrink, EP-compare].

Besides uniform and careful games, ``verify``'s random phase plays skilled games whose
drivers see every card (``hanabi_ref/tools/verify/drivers.py``).  Checked here: with the
default settings of ``hanabi-ref verify`` (game count, seed, presets, player counts) the
random phase alone (``--no-vectors``) finds each of seven classic bugs injected one at a
time into a small engine of the test suite's own (``tests/engines/buggy.py``, written
from spec/rules.md and sharing no code with ours), the correct small engine passes, and
the games themselves (not the drivers' intentions) show every situation the drivers aim
at.  The default set plays the first :data:`FIRST` games of the default random phase for
the last two; the deep set (``python -m pytest -m deep``) plays all of them.
"""

from __future__ import annotations

import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref.engine.actions import Action, action_to_json
from hanabi_ref.cli import EXIT_INVALID_GAME, build_parser, main
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.engine.cards import as_identities
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import config_to_json, make_config
from hanabi_ref.formats.serial import card_to_json
from hanabi_ref.engine.state import GameState
from hanabi_ref.formats.trace import action_from_json, load_trace, replay
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.tools.verify.session import random_game_configs
from hanabi_ref.tools.protocol.choosing import Chooser
from hanabi_ref.tools.verify.compare import play_compared
from hanabi_ref.tools.verify.drivers import DRIVERS, KINDS, kinds_for, make_driver
from hanabi_ref.tools.protocol.engine import ReferenceEngine, UnsupportedConfig
from hanabi_ref.tools.verify.run import verify_random_games
from tests.engines.buggy import BUGS, SmallEngine, Unsupported
from tests.processes import WAIT
from tests.shrinking import limit_shrinking
from hanabi_ref.engine.tables import tables_for

BUGGY = Path(__file__).resolve().parent / "engines" / "buggy.py"
FIRST = 40
"""Games of the default random phase (its first ones: one seeded generator draws them in
order) that the default test set plays where the whole phase is the deep set's."""
SITUATIONS = {
    "successful 5": 20, "5 at the token maximum": 5, "maximum score with cards left": 3,
    "last round over": 10, "third error": 10, "third error with points": 5,
    "third error in the last round": 3, "hanab-live early end": 3,
}
"""The least number of times the whole default random phase shows each situation."""


def default_random_phase() -> tuple[list[GameConfig], int, int]:
    """The configurations, game count and seed of ``hanabi-ref verify --no-vectors`` with
    nothing else given, read from the command line's own parser."""
    args = build_parser().parse_args(["verify", "--engine", "unused", "--no-vectors"])
    return random_game_configs(args), args.games, args.seed


class InProcessSmallEngine:
    """The small engine behind the :class:`~hanabi_ref.tools.protocol.engine.Engine` interface,
    speaking the protocol's JSON objects in-process (no subprocess, so the default run of
    every bug fits the quick test set)."""

    name = "small"
    shows_views = False  # the small engine shows no views (EP-observe)

    def __init__(self, bug: str | None = None) -> None:
        self.engine = SmallEngine(bug)

    def unsupported(self, config: GameConfig) -> str | None:
        return None

    def new_game(self, config: GameConfig, deck: tuple[int, ...]) -> None:
        try:
            self.engine.new_game(config_to_json(config), [card_to_json(card, config) for card in as_identities(deck)])
        except Unsupported as reason:
            raise UnsupportedConfig(str(reason)) from None

    def apply(self, action: Action) -> str | None:
        return self.engine.apply(action_to_json(action))

    def state(self) -> dict[str, Any]:
        return self.engine.state()

    def legal_actions(self) -> list[Action]:
        return [action_from_json(action, "action") for action in self.engine.legal_actions()]

    def observe(self, seat: int) -> dict[str, Any] | None:
        return None

    def close(self) -> None:
        pass


class Following(Chooser):
    """Replays a trace's actions, then any legal move to the end of the game."""

    def __init__(self, actions: tuple[Action, ...]) -> None:
        self._actions = list(actions)

    def choose(self, state: GameState, legal: list[Action]) -> Action:
        return self._actions.pop(0) if self._actions else legal[0]


class Situations(ReferenceEngine):
    """Our engine, counting what its games show: it looks only at the states before and
    after every move."""

    def __init__(self) -> None:
        super().__init__()
        self.seen: Counter[str] = Counter()

    def apply(self, action: Action) -> str | None:
        before = self.current
        refusal = super().apply(action)
        if refusal is None:
            self._count(before, self.current)
        return refusal

    def _count(self, before: GameState, after: GameState) -> None:
        config, seen = after.config, self.seen
        n = config.values
        if after.fireworks.count(n) > before.fireworks.count(n):
            seen["successful 5"] += 1
            if before.clue_tokens == config.max_hints:
                seen["5 at the token maximum"] += 1
        if not after.terminal:
            return
        if after.remaining == -1:
            seen["third error"] += 1
            if sum(after.fireworks) > 0:
                seen["third error with points"] += 1
            if before.remaining is not None:
                seen["third error in the last round"] += 1
        elif after.remaining == 0:
            seen["last round over"] += 1
        elif sum(after.fireworks) == tables_for(config).max_score:
            if after.remaining is None:
                seen["maximum score with cards left"] += 1
        elif config.preset == "hanab-live":
            seen["hanab-live early end"] += 1


# ------------------------------------------------------------------ the drivers


@pytest.mark.checks("EP-skilled")
def test_skilled_drivers_choose_legal_moves_and_finish_games() -> None:
    """[EP-skilled] whatever they draw, the drivers choose only legal moves, under every
    preset, and their games end."""
    rng = random.Random(7)
    for preset in ("thesis", "hle", "hanab-live", "hanabi-rs"):
        for players in (2, 5):
            config = make_config(players, preset=preset)
            for kind in DRIVERS:
                driver = make_driver(kind, rng.randrange)
                state = initial_state(config, deck_from_seed(config, rng.randrange(1 << 32)))
                while not state.terminal:
                    legal = legal_actions(state)
                    action = driver.choose(state, legal)
                    assert action in legal, f"{kind} chose {action} under {preset}"
                    state = apply(state, action)


@pytest.mark.checks("EP-random", "EP-skilled")
def test_kinds_offered_by_each_configuration() -> None:
    """[EP-random, EP-skilled] every kind but the spoiler everywhere, each as likely; the
    spoiler only where R-1 ends games early, there as likely as all the others together."""
    others = tuple(k for k in KINDS if k != "spoiler")
    assert kinds_for(make_config(3, preset="hle")) == others
    live = Counter(kinds_for(make_config(3, preset="hanab-live")))
    assert set(live) == set(KINDS) and live["spoiler"] == len(others) and all(live[k] == 1 for k in others)


@pytest.mark.checks("EP-skilled")
def test_default_random_phase_reaches_every_situation() -> None:
    """[EP-skilled, EP-random] over the first games of the default random phase against our
    own engine, the games show every situation the drivers aim at, counted from the
    states: suits completed (2.16-2c-five), a 5 played at the token maximum, the maximum
    score with cards left (2.16-3-max), games ended by the last round (2.16-3-last-round,
    2.16-3-R0), by the last allowed error (2.16-3-strikeout) with points on the
    fireworks and within the last round, and hanab-live games ended early (R-1); each at
    least a fifth as often (and at least once) as the whole phase must show it."""
    assert_situations_reached(FIRST, {what: max(1, least // 5) for what, least in SITUATIONS.items()})


# ------------------------------------------------------------------ the injected bugs


@pytest.mark.checks("EP-compare")
def test_the_correct_small_engine_passes_the_default_random_phase() -> None:
    """[EP-random, EP-compare] without a bug, the small engine agrees with ours over the
    first games of the default random phase: the bugs below are the only reason it
    diverges (each bug's test also replays its diverging game on the correct engine)."""
    configs, games, seed = default_random_phase()
    report = verify_random_games(InProcessSmallEngine(), configs, FIRST, seed)
    assert report.divergence is None and report.checked == FIRST and report.skipped == 0


@pytest.mark.parametrize("bug", sorted(BUGS))
@pytest.mark.checks("EP-compare", "EP-random", "EP-skilled")
def test_each_injected_bug_is_found_by_the_default_random_phase(bug: str) -> None:
    """[EP-skilled, EP-random, EP-compare] each classic bug, injected alone into the small
    engine, is found within the default game count and seed by the random games alone;
    the correct small engine agrees on the diverging game, so the bug made the
    difference.  (Shrinking is skipped here; the command-line test below shrinks.)"""
    configs, games, seed = default_random_phase()
    report = verify_random_games(InProcessSmallEngine(bug), configs, games, seed, shrink_budget=0)
    divergence = report.divergence
    assert divergence is not None, f"{bug} ({BUGS[bug]}) was not found in {report.checked} games"
    trace = divergence.trace
    replay(trace)
    assert play_compared(InProcessSmallEngine(), trace.config, trace.deck, Following(trace.actions)) is None


@pytest.mark.checks("C-verify")
def test_verify_command_finds_an_injected_bug_through_the_protocol(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-skilled, EP-shrink, C-verify] through the command line, with the defaults and
    ``--no-vectors``, the small engine as a process with a bug switched on diverges (exit
    1), and the shrunk reproduction is a legal game of ours.  Shrinking tries at most 20
    games here instead of 400, each through the process (tests/test_verify.py tests how
    far shrinking gets)."""
    out = tmp_path / "divergence.json"
    command = f"{sys.executable} {BUGGY} --bug five-past-max"
    with pytest.MonkeyPatch.context() as monkeypatch:
        limit_shrinking(monkeypatch, 20)
        code = main(["verify", "--engine", command, "--no-vectors", "--out", str(out), "--json", "--timeout", str(WAIT)])
    report = json.loads(capsys.readouterr().out)
    assert code == EXIT_INVALID_GAME and report["divergence"] is not None, report
    assert "clue_tokens" in report["divergence"]["what"]
    assert 0 < report["random_games"]["shrinking"]["games"] <= 20
    replay(load_trace(out))


# ------------------------------------------------------------------ the whole default random phase (deep set)


@pytest.mark.deep
def test_the_whole_default_random_phase_reaches_every_situation_often() -> None:
    """[EP-skilled, EP-random] over the whole default random phase against our own engine,
    the games show each situation of :func:`test_default_random_phase_reaches_every_situation`
    at least :data:`SITUATIONS` times (the default set plays the first :data:`FIRST`)."""
    assert_situations_reached(None, SITUATIONS)


def assert_situations_reached(first: int | None, wanted: dict[str, int]) -> None:
    """Play the default random phase (only its ``first`` games, if given) against our
    engine and check that every situation of ``wanted`` is seen at least that often."""
    configs, games, seed = default_random_phase()
    games = games if first is None else first
    engine = Situations()
    report = verify_random_games(engine, configs, games, seed)
    assert report.divergence is None and report.checked == games
    short = {what: engine.seen[what] for what, least in wanted.items() if engine.seen[what] < least}
    assert not short, f"too few games reach {short} (all counts: {dict(engine.seen)})"


@pytest.mark.deep
def test_the_correct_small_engine_passes_the_whole_default_random_phase() -> None:
    """[EP-random, EP-compare] without a bug, the small engine agrees with ours over the
    whole default random phase (the default set plays the first :data:`FIRST` games)."""
    configs, games, seed = default_random_phase()
    report = verify_random_games(InProcessSmallEngine(), configs, games, seed)
    assert report.divergence is None and report.checked == games and report.skipped == 0
