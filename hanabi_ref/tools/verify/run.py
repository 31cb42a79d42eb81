"""``hanabi-ref verify``: an engine through the vectors, then through random games
[EP-vectors, EP-random, EP-shrink].

Random games draw every choice (the configuration, the deck card by card, the game's kind,
every move, an occasional illegal probe) from one seeded generator, which records them.
When the engine diverges, Hypothesis replays the recorded choices and shrinks them to a
minimal game that still diverges, and that game is returned as a replayable trace.
Hypothesis is kept out of the games themselves: its drawing costs more than the games.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final

import attrs
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.database import InMemoryExampleDatabase, choices_to_bytes

from hanabi_ref.engine.actions import Action, Hint, Play, describe
from hanabi_ref.formats.trace import Trace
from hanabi_ref.engine.cards import rank_of, suit_of
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import GameState
from hanabi_ref.tools.protocol.choosing import Chooser, illegal_candidates
from hanabi_ref.tools.verify.compare import (
    Divergence,
    legal_difference,
    differences_line,
    play_compared,
    state_differences,
)
from hanabi_ref.tools.protocol.engine import Engine, EngineFailure, UnsupportedConfig
from hanabi_ref.tools.verify.report import Coverage
from hanabi_ref.engine.tables import tables_for


@attrs.frozen
class Report:
    """What a verification run found: counts, and the first divergence if any."""

    checked: int
    skipped: int
    divergence: Divergence | None = None
    where: str = ""
    first_length: int | None = None  # actions of the divergence first found, before shrinking
    playing_seconds: float = 0.0
    """[EP-progress] the time spent playing games until the first divergence (or all)"""
    shrinking: int = 0
    """[EP-progress] games tried while shrinking"""
    shrinking_seconds: float = 0.0
    not_run: int = 0
    """[EP-not-run] the vectors left after the one that diverged"""


# ------------------------------------------------------------------ vectors


def verify_vectors(engine: Engine, vectors: Iterable[Any], coverage: Coverage | None = None) -> Report:
    """Run every transition and game vector on the engine; stop at the first divergence
    [EP-vectors], counting the vectors not run after it [EP-not-run]; ``coverage`` counts
    the fields of the engine's states [EP-coverage]."""
    from hanabi_ref.tools.protocol.seeded import dealing_engine

    games = [vector for vector in vectors if vector.kind in ("transition", "game")]
    checked = skipped = 0
    for index, vector in enumerate(games):
        if dealing_engine(engine):
            skipped += 1  # [EP-seed] a vector's deck cannot be handed to it
            continue
        try:
            divergence = check_vector(engine, vector, coverage)
        except UnsupportedConfig:
            skipped += 1
            continue
        checked += 1
        if divergence is not None:
            return Report(checked, skipped, divergence, f"vector {vector.name}", not_run=len(games) - index - 1)
    return Report(checked, skipped)


def check_vector(engine: Engine, vector: Any, coverage: Coverage | None = None) -> Divergence | None:
    """One vector: replay its actions, comparing with its expected states [EP-vectors].
    A state that differs after the vector's action is a divergence of that step, as in a
    random game: the trace ends with the action, so that ``explain`` names the clause
    that fixes each field after it (EP-explain)."""
    config, deck, data = vector.config(), vector.deck(), vector.data
    engine.new_game(config, deck)
    if vector.kind == "game":
        return _check_script(engine, config, deck, vector.actions(), data["states"], coverage)[0]
    prefix = vector.prefix()
    divergence, pre = _check_script(engine, config, deck, prefix, [None] * len(prefix) + [data["pre"]], coverage)
    if divergence is not None:
        return divergence
    trace = Trace(config, deck, prefix)
    if "legal" in data:
        from hanabi_ref.formats.trace import action_from_json

        expected = [action_from_json(a, "legal") for a in data["legal"]]
        difference = legal_difference(expected, engine.legal_actions())
        if difference is not None:
            return Divergence(f"before the vector's action: {difference}", trace)
    action = vector.action()
    before = {"reference": data["pre"], "engine": pre}
    refusal = engine.apply(action)
    if "error" in data:
        if refusal is None:
            return Divergence(f"engine accepted {describe(action)}, illegal by {data['error']['clause']}", trace, action)
        return None
    if refusal is not None:
        return Divergence(f"engine refused legal {describe(action)}: {refusal}", trace, action)
    theirs = engine.state()
    if coverage is not None:
        coverage.saw_state(theirs)
    differences = state_differences(data["post"], theirs)
    if not differences:
        return None
    after = {"reference": data["post"], "engine": theirs}
    return Divergence(f"after actions[{len(prefix)}] ({describe(action)}): {differences_line(differences, theirs, config)}",
                      Trace(config, deck, (*prefix, action)), None, tuple(differences), before, after, action)


def _check_script(
    engine: Engine, config: GameConfig, deck: tuple[int, ...], actions: Sequence[Action], states: Sequence[Any],
    coverage: Coverage | None = None,
) -> tuple[Divergence | None, object]:
    """Apply ``actions`` in order; compare with ``states[i]`` (after i actions) where given.
    Also returns the engine's last state answer (None if none was asked for)."""
    theirs: object = None
    for index in range(len(actions) + 1):
        expected = states[index]
        if expected is not None:
            theirs = engine.state()
            if coverage is not None:
                coverage.saw_state(theirs)
            differences = state_differences(expected, theirs)
            if differences:
                where = "after the deal" if index == 0 else f"after actions[{index - 1}] ({describe(actions[index - 1])})"
                after = {"reference": expected, "engine": theirs}
                step = actions[index - 1] if index else None
                return Divergence(f"{where}: {differences_line(differences, theirs, config)}",
                                  Trace(config, deck, tuple(actions[:index])), None, tuple(differences), None, after,
                                  step), theirs
        if index < len(actions):
            refusal = engine.apply(actions[index])
            if refusal is not None:
                trace = Trace(config, deck, tuple(actions[:index]))
                return Divergence(f"engine refused legal {describe(actions[index])}: {refusal}", trace,
                                  actions[index]), theirs
    return None, theirs


# ------------------------------------------------------------------ random games

Draw = Callable[[int], int]
"""``draw(n)``: an index in ``range(n)``; for n <= 1 it is 0 and nothing is drawn."""


class GameChooser(Chooser):
    """The moves of a random game, every choice taken from ``draw`` [EP-random, EP-shrink].

    Each game first draws its *kind* [EP-random]: *uniform* (any legal move), *careful*
    (never a play that would fail, when another move exists, so that games also reach
    the end of the stack and the last round) or one of the skilled drivers, which see
    the whole state and steer the game into completed suits, the maximum score with
    cards left, a 5 played with every token, strikeouts and the early end of hanab-live
    [EP-skilled].  The kinds a configuration offers come from
    :func:`hanabi_ref.tools.verify.drivers.kinds_for`; every choice a driver leaves open is
    drawn here too.  In the random phase ``draw`` is a seeded generator that records its
    choices; while shrinking it is Hypothesis, replaying and shrinking those choices."""

    def __init__(self, draw: Draw, probe_rate: int) -> None:
        self._draw = draw
        self._probe_rate = probe_rate
        self.kind: str | None = None  # drawn at the first move, once the configuration is known
        self._driver: Chooser | None = None  # the skilled driver, if the kind is one

    def _draw_kind(self, state: GameState) -> None:
        from hanabi_ref.tools.verify.drivers import DRIVERS, kinds_for, make_driver

        kinds = kinds_for(state.config)
        self.kind = kinds[self._draw(len(kinds))]
        self._driver = make_driver(self.kind, self._draw) if self.kind in DRIVERS else None

    def choose(self, state: GameState, legal: list[Action]) -> Action:
        if self.kind is None:
            self._draw_kind(state)
        if self._driver is not None:
            return self._driver.choose(state, legal)
        moves = _hints_last(legal)
        if self.kind == "careful":
            moves = [a for a in moves if not _is_failing_play(state, a)] or moves
        return moves[self._draw(len(moves))]

    def probe(self, state: GameState, legal: list[Action]) -> Action | None:
        if self.kind is None:
            self._draw_kind(state)
        # The last of probe_rate equally likely choices probes, so that shrinking (which
        # lowers choices) takes probes away.
        if self._probe_rate == 0 or self._draw(self._probe_rate) != self._probe_rate - 1:
            return None
        illegal = illegal_candidates(state, legal)
        return illegal[self._draw(len(illegal))] if illegal else None


def _hints_last(legal: list[Action]) -> list[Action]:
    """``legal`` (hints first, then discards and plays: 2.16-actions) with the hints moved to
    the end, so that the smallest choices draw cards and a shrunk game is a short one."""
    split = len(legal)
    while split and not isinstance(legal[split - 1], Hint):
        split -= 1
    return legal[split:] + legal[:split]


def _is_failing_play(state: GameState, action: Action) -> bool:
    """Whether ``action`` plays a card that does not continue its field (2.16-2c-fail)."""
    if not isinstance(action, Play):
        return False
    card = state.deck[state.hands[state.current_player][action.slot]]
    n = state.config.values
    return state.fireworks[suit_of(card, n)] != rank_of(card, n)


class RecordedDraws:
    """Choices from a seeded generator, recorded so that Hypothesis can replay and shrink
    the game they made [EP-random, EP-shrink]."""

    def __init__(self, generator: random.Random) -> None:
        self._below = generator.randrange
        self.choices: list[int] = []

    def __call__(self, n: int) -> int:
        if n <= 1:
            return 0
        choice = self._below(n)
        self.choices.append(choice)
        return choice


SEEDS: Final = 1 << 31
"""The seeds handed to an engine that deals from its own seed: 0 to 2**31 - 1 [EP-seed]."""


def deal(configs: Sequence[GameConfig], draw: Draw, from_seed: bool = False) -> tuple[GameConfig, tuple[int, ...], int]:
    """A game's configuration and deck from ``draw`` [EP-random]: the configuration by
    index, then the deck card by card, each drawn from the cards not yet placed in
    canonical order, so that choices of 0 give the canonical deck (shrinking aims there).
    For an engine that deals from its own seed, a seed instead (below :data:`SEEDS`; the
    deck is then the canonical one, replaced by the engine's deal) [EP-seed]."""
    config = configs[draw(len(configs))]
    if from_seed:
        return config, tables_for(config).canonical_deck, draw(SEEDS)
    left = list(tables_for(config).canonical_deck)
    return config, tuple(left.pop(draw(len(left))) for _ in range(len(left))), 0


class _Diverged(Exception):
    """Raised inside the Hypothesis test when a game diverges."""


SHRINK_BUDGET = 400


def verify_random_games(
    engine: Engine, configs: Sequence[GameConfig], games: int, seed: int, probe_rate: int = 5,
    shrink_budget: int = SHRINK_BUDGET, coverage: Coverage | None = None,
    progress: Callable[[str, int, int], None] | None = None, views: str = "acting",
) -> Report:
    """Play ``games`` seeded random games over ``configs``; shrink the first that diverges
    [EP-random, EP-shrink].

    The games draw every choice from one generator seeded with ``seed``.  Shrinking tries
    at most ``shrink_budget`` games after the first divergence (a fixed count, so that the
    reproduction is the same on every machine).  ``coverage`` counts what the games
    compared before the first divergence [EP-coverage]; ``progress`` is told ("game",
    games played, divergences) after every game and ("shrink", games tried, 1) while
    shrinking [EP-progress]; ``views`` selects the views compared [EP-views]."""
    from hanabi_ref.tools.protocol.seeded import dealing_engine

    from_seed = dealing_engine(engine)
    generator = random.Random(seed)
    checked = skipped = 0
    start = time.perf_counter()
    for _ in range(games):
        draws = RecordedDraws(generator)
        config, deck, deal_seed = deal(configs, draws, from_seed)
        game = Coverage()
        try:
            divergence = play_compared(engine, config, deck, GameChooser(draws, probe_rate), coverage=game,
                                       views=views, seed=deal_seed)
        except UnsupportedConfig:
            skipped += 1
            continue
        checked += 1
        if divergence is None and coverage is not None:
            coverage.merge(game)
        if progress is not None:
            progress("game", checked, 0 if divergence is None else 1)
        if divergence is not None:
            playing = time.perf_counter() - start
            first = len(divergence.trace.actions)
            # [EP-shrink] views are asked while shrinking only to shrink a divergence of views
            in_views = any(difference.field.startswith("view[") for difference in divergence.differences)
            shortest, tried = _shrink(engine, configs, draws.choices, divergence, shrink_budget, seed, probe_rate,
                                      progress, views if in_views else "none")
            shrinking = time.perf_counter() - start - playing
            return Report(checked, skipped, shortest, "random game", first, playing, tried, shrinking)
    return Report(checked, skipped, None, "random game", None, time.perf_counter() - start)


def _shrink(
    engine: Engine, configs: Sequence[GameConfig], choices: list[int], found: Divergence, budget: int, seed: int,
    probe_rate: int, progress: Callable[[str, int, int], None] | None, views: str,
) -> tuple[Divergence, int]:
    """[EP-shrink] Hypothesis replays the diverging game from its recorded choices and
    shrinks them (fewer and smaller choices) to a game that still diverges, trying at most
    ``budget`` games; returns the diverging game with the fewest actions (the later one on
    a tie: Hypothesis orders games by their choices, not by their length) and the number
    of games tried.  An engine that fails while shrinking ends the run with that failure."""
    from hanabi_ref.tools.protocol.seeded import dealing_engine

    from_seed = dealing_engine(engine)
    key = b"hanabi-ref verify: shrink"
    database = InMemoryExampleDatabase()
    # Hypothesis keeps the games it has shrunk under the key itself and replays them
    # without shrinking again; games found but not yet shrunk go under "<key>.secondary".
    database.save(key + b".secondary", choices_to_bytes(choices))
    diverging = [found]
    failures: list[EngineFailure] = []
    tried = [0]

    indices: dict[int, st.SearchStrategy[int]] = {}

    @st.composite
    def compared_game(draw: st.DrawFn) -> Divergence | None:
        if failures or tried[0] >= budget:
            return None  # budget spent (or the engine gone): no smaller example can win any more
        tried[0] += 1
        if progress is not None:
            progress("shrink", tried[0], 1)

        def draw_index(n: int) -> int:
            if n <= 1:
                return 0
            if n not in indices:
                indices[n] = st.integers(0, n - 1)
            return draw(indices[n])

        config, deck, deal_seed = deal(configs, draw_index, from_seed)
        try:
            return play_compared(engine, config, deck, GameChooser(draw_index, probe_rate), views=views, seed=deal_seed)
        except UnsupportedConfig:
            return None
        except EngineFailure as failure:
            failures.append(failure)
            return None

    def still_diverges(divergence: Divergence | None) -> None:
        if divergence is not None:
            diverging.append(divergence)
            raise _Diverged

    # The seed makes the shrinker's own random choices the same on every run; a seed
    # switches Hypothesis' database off, so the settings holding ours come after it.
    test = settings(
        database=database, phases=(Phase.reuse, Phase.shrink), deadline=None, verbosity=Verbosity.quiet,
        suppress_health_check=list(HealthCheck), report_multiple_bugs=False,
    )(hypothesis_seed(seed)(given(compared_game())(still_diverges)))
    test._hypothesis_internal_database_key = key  # type: ignore[attr-defined]  # as hypothesis.find sets it
    try:
        test()
    except _Diverged:
        pass
    except Exception:
        # After an engine failure, or once the budget is spent, games end early and
        # Hypothesis may report flaky or inconsistent runs: what we recorded counts.
        if not failures and len(diverging) == 1:
            raise
    if failures:
        raise failures[0]
    return min(reversed(diverging), key=lambda d: len(d.trace.actions)), min(tried[0], budget)
