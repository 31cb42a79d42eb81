"""``verify``: comparing engines turn by turn, the JSON-lines protocol, failures and
shrinking [EP-protocol, EP-compare, EP-random, EP-shrink, EP-transport, EP-requests,
EP-failures, EP-serve, C-verify, C-serve].

The negative controls are engines broken on purpose: each must be caught, and the
reported game must replay under our engine and still show the divergence.
"""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.cli import EXIT_INVALID_GAME, EXIT_OK, EXIT_USAGE, main
from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import GameState
from hanabi_ref.formats.trace import load_trace, replay
from hanabi_ref.tools.protocol.choosing import Chooser, RandomChooser
from hanabi_ref.tools.verify.compare import play_compared, state_difference
from hanabi_ref.tools.protocol.engine import EngineFailure, ReferenceEngine, UnsupportedConfig, check_supported
from hanabi_ref.tools.verify.process import ProcessEngine
from hanabi_ref.tools.verify.run import verify_random_games
from hanabi_ref.tools.verify.serve import answer_request, serve
from tests.helpers import reached, reaches_assertion, scripted_engine
from tests.processes import WAIT
from tests.shrinking import limit_shrinking
from tests.oracles import oracle

SERVE = f"{sys.executable} -m hanabi_ref.cli serve"
CONFIGS = [make_config(p, preset=r) for r in ("thesis", "hle", "hanab-live") for p in (2, 3, 5)]


# ------------------------------------------------------------------ engines broken on purpose


class ExtraTokenAfterSecondStrike(ReferenceEngine):
    """Reports one clue token too many once two errors were made and tokens are low."""

    def state(self) -> dict[str, Any]:
        state = super().state()
        if state["strikes"] == 2 and state["clue_tokens"] < 3:
            state["clue_tokens"] += 1
        return state


class AcceptsSelfHints(ReferenceEngine):
    """Accepts a hint to the player's own hand (2.16-2a-target) without changing anything."""

    def apply(self, action: Action) -> str | None:
        if isinstance(action, Hint) and action.target == self.current.current_player:
            return None
        return super().apply(action)


class RefusesPlayingSlotZeroLate(ReferenceEngine):
    """Refuses to play slot 0 once the stack is down to ten cards."""

    def apply(self, action: Action) -> str | None:
        if action == Play(0) and len(self.current.deck) - self.current.next_card <= 10:
            return "slot 0 is stuck"
        return super().apply(action)


class HidesDiscards(ReferenceEngine):
    """Omits discards from its legal actions when it has all 8 tokens minus one."""

    def legal_actions(self) -> list[Action]:
        actions = super().legal_actions()
        if self.current.clue_tokens == self.current.config.max_hints - 1:
            return [a for a in actions if not isinstance(a, Discard)]
        return actions


class PlaysOnlyHle(ReferenceEngine):
    """Declares every configuration but the hle preset unsupported."""

    def new_game(self, config: Any, deck: tuple[int, ...]) -> None:
        if config.preset != "hle":
            raise UnsupportedConfig("hle rules only")
        super().new_game(config, deck)


class DeclaresOnlyHle(ReferenceEngine):
    """Says through ``unsupported`` (as the peer adapters do) that it plays hle only."""

    def unsupported(self, config: Any) -> str | None:
        return None if config.preset == "hle" else "hle rules only"

    def new_game(self, config: Any, deck: tuple[int, ...]) -> None:
        check_supported(self, config)
        super().new_game(config, deck)


class Replay(Chooser):
    """Follows a fixed list of actions, then the given action."""

    def __init__(self, actions: tuple[Action, ...], then: Action | None) -> None:
        self._actions = list(actions) + ([then] if then is not None else [])

    def choose(self, state: GameState, legal: list[Action]) -> Action:
        return self._actions.pop(0) if self._actions else legal[0]

    def probe(self, state: GameState, legal: list[Action]) -> Action | None:
        # The offending action is offered as a probe when it is illegal for the reference.
        if len(self._actions) == 1 and state.turns == len(state.history):
            from hanabi_ref.engine.legality import illegality

            if illegality(state, self._actions[0]) is not None:
                return self._actions.pop(0)
        return None


# ------------------------------------------------------------------ in-process comparisons


@pytest.mark.parametrize("games", [20, pytest.param(60, marks=pytest.mark.deep)])
def test_reference_agrees_with_itself_over_random_games(games: int) -> None:
    """[EP-random, EP-compare] our engine behind the Engine interface never diverges from
    itself (20 games over the nine configurations by default, 60 in the deep set)."""
    report = verify_random_games(ReferenceEngine(), CONFIGS, games=games, seed=1)
    assert report.divergence is None and report.checked == games and report.skipped == 0


@pytest.mark.parametrize(
    "broken",
    [ExtraTokenAfterSecondStrike, AcceptsSelfHints, RefusesPlayingSlotZeroLate, HidesDiscards],
)
@pytest.mark.checks("EP-protocol", "EP-compare", "EP-shrink")
def test_broken_engines_are_caught_and_shrunk(broken: type[ReferenceEngine]) -> None:
    """[EP-compare, EP-shrink, EP-protocol] every broken engine diverges; shrinking (20
    games) shortens the game; the shrunk game replays under our rules and still diverges
    when played again on the broken engine."""
    # Under these seeds each engine is caught within a few games (the fault shows in the
    # first game that meets its situation), and 20 games of shrinking already find a
    # shorter game than the first one.
    seed = {ExtraTokenAfterSecondStrike: 1, AcceptsSelfHints: 4, RefusesPlayingSlotZeroLate: 4, HidesDiscards: 5}[broken]
    report = verify_random_games(broken(), CONFIGS, games=300, seed=seed, shrink_budget=20)
    divergence = report.divergence
    assert divergence is not None, f"{broken.__name__} was not caught"
    assert report.first_length is not None and len(divergence.trace.actions) < report.first_length
    replay(divergence.trace)  # the reproduction is a legal game of ours
    again = play_compared(broken(), divergence.trace.config, divergence.trace.deck,
                          Replay(divergence.trace.actions, divergence.offending))
    assert again is not None and again.what == divergence.what


@pytest.mark.checks("EP-shrink")
def test_shrinking_shortens_a_late_divergence() -> None:
    """[EP-shrink] a bug that shows only once the stack is down to ten cards is first met
    in a long game; shrinking (budget 20 games) reports a strictly shorter one, which
    still needs the stack run down: at least 50 - 5*4 - 10 = 20 draws (5 players deal
    the most cards)."""
    report = verify_random_games(RefusesPlayingSlotZeroLate(), CONFIGS, games=300, seed=2, shrink_budget=20)
    assert report.divergence is not None and report.first_length is not None
    shrunk = len(report.divergence.trace.actions)
    assert 20 <= shrunk < report.first_length


@pytest.mark.checks("EP-requests")
def test_unsupported_configurations_are_skipped() -> None:
    """[EP-requests] configurations an engine declares unsupported are counted, not failures."""
    report = verify_random_games(PlaysOnlyHle(), CONFIGS, games=40, seed=4)
    assert report.divergence is None and report.skipped > 0 and report.checked > 0


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["thesis", "hle", "hanab-live", "physical"]), st.integers(2, 5), st.integers(0, 2**32),
       st.lists(st.integers(0, 10**6), max_size=40))
def test_illegal_candidates_are_the_candidates_illegality_refuses(preset: str, players: int, seed: int,
                                                                   moves: list[int]) -> None:
    """[EP-random, 2.16-actions] the probes' fast set difference (candidates not among the
    legal actions) equals asking :func:`illegality` of every candidate, in every state of
    random games; and every legal action is a candidate."""
    from hanabi_ref.engine.legality import illegality, legal_actions
    from hanabi_ref.engine.transition import apply, initial_state
    from hanabi_ref.tools.protocol.choosing import candidate_actions, illegal_candidates

    config = make_config(players, preset=preset)
    state = initial_state(config, deck_from_seed(config, seed))
    for move in [*moves, None]:
        legal = legal_actions(state)
        candidates = candidate_actions(config)
        assert set(legal) <= set(candidates)
        assert illegal_candidates(state, legal) == [a for a in candidates if illegality(state, a) is not None]
        if move is None or state.terminal:
            break
        state = apply(state, legal[move % len(legal)])


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 3) | st.floats(-3, 3, allow_nan=False) | st.sampled_from(["a", "b"]),
    lambda inner: st.lists(inner, max_size=3) | st.lists(inner, max_size=3).map(tuple)
    | st.dictionaries(st.sampled_from(["a", "b", "c"]), inner, max_size=3),
    max_leaves=8,
)


@given(JSON_VALUES, JSON_VALUES)
def test_same_encoding_implies_json_equality(ours: object, theirs: object) -> None:
    """[EP-types] the comparison's fast test never calls two values equal that
    :func:`json_equal` tells apart (a boolean for an integer, a float for an integer)."""
    from hanabi_ref.tools.verify.equality import json_equal, same_encoding

    if same_encoding(ours, theirs):
        assert json_equal(ours, theirs)
    assert same_encoding(ours, ours) and json_equal(ours, ours)


@pytest.mark.checks("EP-types")
def test_same_encoding_tells_json_types_apart() -> None:
    """[EP-types] values Python finds equal but JSON does not: 1 and true, 1 and 1.0."""
    from hanabi_ref.tools.verify.equality import same_encoding

    assert not same_encoding({"fireworks": [1, 0]}, {"fireworks": [True, 0]})
    assert not same_encoding({"clue_tokens": 8}, {"clue_tokens": 8.0})
    assert not same_encoding({"terminal": False}, {"terminal": 0})
    assert same_encoding({"fireworks": [1, 0]}, {"fireworks": [1, 0]})


@pytest.mark.checks("EP-compare")
def test_state_difference_reports_first_field_and_unknown_fields() -> None:
    """[EP-compare, T-state] omitted fields are skipped; an unknown field is a divergence."""
    config = make_config(3, preset="hle")
    engine = ReferenceEngine()
    engine.new_game(config, deck_from_seed(config, 5))
    ours = engine.state()
    assert state_difference(ours, {"score": 0}) is None
    assert state_difference(ours, {**ours, "strikes": 1}) == "state.strikes: reference 0, engine 1"
    assert state_difference(ours, {"lives": 3}) is not None
    assert state_difference(ours, []) is not None


# ------------------------------------------------------------------ the protocol, in and out of process


@pytest.mark.checks("EP-requests", "EP-serve")
def test_serve_answers_every_request_kind() -> None:
    """[EP-serve, EP-requests] a scripted session through serve(): hello, new game, state,
    legal actions, an illegal action refused, a legal one accepted, quit."""
    config = make_config(2, preset="hle")
    deck = [{"suit": c // 5, "value": c % 5 + 1} for c in deck_from_seed(config, 9)]
    requests = [
        {"op": "hello", "protocol": "hanabi-ref/engine", "version": 1},
        {"op": "new_game", "config": {"players": 2, "preset": "hle"}, "deck": deck},
        {"op": "legal_actions"},
        {"op": "apply", "action": {"type": "hint", "target": 0, "kind": "value", "value": 1}},
        {"op": "apply", "action": {"type": "discard", "slot": 0}},
        {"op": "state"},
        {"op": "quit"},
        {"op": "state"},
    ]
    out = io.StringIO()
    serve(ReferenceEngine(), io.BytesIO("".join(json.dumps(r) + "\n" for r in requests).encode()), out)
    answers = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(answers) == 7  # nothing after quit
    assert answers[0]["ok"] and answers[1] == {"ok": True}
    partner = deck[5:10]  # blocks of h = 5: seat 1 holds deck[5..9] (2.16-1-deal)
    touching_hints = len({c["suit"] for c in partner}) + len({c["value"] for c in partner})
    # hle at 8 tokens: only hints touching a card (2.16-2a-empty), no discard (E-2), 5 plays.
    assert len(answers[2]["actions"]) == touching_hints + 5
    assert answers[3]["ok"] is False and answers[3]["illegal"].startswith("2.16-2a-target")
    assert answers[4]["ok"] is False and answers[4]["illegal"].startswith("E-2")
    assert answers[5]["state"]["clue_tokens"] == 8 and answers[5]["state"]["turns"] == 0


@pytest.mark.parametrize("request_", [None, 5, [], {}, {"op": 3}, {"op": "fly"}, {"op": "apply", "action": {"type": "play"}},
                                      {"op": "new_game", "config": {"players": 0}, "deck": []},
                                      {"op": "new_game", "config": {"players": 2}, "deck": "x"},
                                      {"op": "hello", "protocol": "other", "version": 1}, {"op": "state"}])
@pytest.mark.checks("EP-serve")
def test_serve_reports_malformed_requests(request_: object) -> None:
    """[EP-serve] a malformed request is answered with ok false and an error, never an exception."""
    answer = answer_request(ReferenceEngine(), request_)
    assert answer["ok"] is False and isinstance(answer["error"], str)


@pytest.mark.checks("C-serve", "EP-transport", "EP-requests")
def test_process_engine_through_serve_agrees() -> None:
    """[EP-transport, EP-requests, C-serve] our engine behind `hanabi-ref serve`, driven as
    an external process, agrees over random games and refuses an unsupported config."""
    engine = ProcessEngine(SERVE, timeout=WAIT)  # a bound a busy machine cannot reach
    try:
        report = verify_random_games(engine, [make_config(3, preset="hle"), make_config(4)], games=8, seed=6)
        assert report.divergence is None and report.checked == 8
        assert engine.name == "hanabi-ref"
    finally:
        engine.close()


HELLO = '{"ok": true, "name": "scripted"}'


@pytest.mark.parametrize(
    ("lines", "fragment"),
    [
        (["HANG"], "no answer to hello within 2 s"),
        ([HELLO, "HANG"], "no answer to new_game within 2 s"),
        ([HELLO, "EXIT"], "exited with code 3 while answering new_game; last stderr line: scripted engine"),
        ([HELLO, "Segmentation fault"], "printed garbage in answer to new_game"),
        ([HELLO, "[1, 2]"], "is not an object with \"ok\""),
        ([HELLO, '{"ok": false, "error": "kaputt"}'], "failed to answer new_game: 'kaputt'"),
        ([HELLO, '{"ok": true}', '{"ok": true, "state": 5}'],
         'answer to state is outside the protocol: at $.state: 5 is not of type "object"'),
        ([HELLO, '{"ok": true}', '{"ok": true, "state": {}}', '{"ok": true, "actions": [{"type": "jump"}]}'],
         'answer to legal_actions is outside the protocol: at $.actions[0].type: "jump" is not one of'),
    ],
)
@pytest.mark.checks("EP-failures", "C-exit")
def test_failing_engines_exit_1_with_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], lines: list[str], fragment: str) -> None:
    """[EP-failures, C-verify, C-exit] hangs, crashes, garbage and protocol breaches end
    the run with exit 1 and one line naming the request; nothing is waited on forever.
    Only the hangs test the time limit (2 s); the other cases are given a bound load
    cannot reach, so that a slow start on a busy machine is not taken for their failure."""
    timeout = "2" if "HANG" in lines else str(WAIT)
    code = main(["verify", "--engine", scripted_engine(tmp_path, lines), "--no-vectors", "--games", "2",
                 "--timeout", timeout, "--rules", "hle", "--players", "2", "--out", str(tmp_path / "d.json")])
    err = capsys.readouterr().err
    assert code == EXIT_INVALID_GAME, err
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err


ANSWER = st.one_of(
    st.text(max_size=30).map(lambda t: t.replace("\n", " ")),
    st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=5),
                 lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.sampled_from(["ok", "state", "actions", "illegal", "unsupported", "error"]), inner, max_size=3),
                 max_leaves=8).map(json.dumps),
)


@reaches_assertion()
@settings(max_examples=25, deadline=None)
@given(st.lists(ANSWER, min_size=1, max_size=6))
def test_fuzzed_engine_answers_never_crash_verify(answers: list[str]) -> None:
    """[EP-failures] whatever an engine prints after a valid hello, verify ends with a
    one-line EngineFailure, an unsupported configuration or a divergence, never another
    exception."""
    import tempfile

    with tempfile.TemporaryDirectory() as directory:
        command = scripted_engine(Path(directory), [HELLO, *answers])
        try:
            engine = ProcessEngine(command, timeout=5)
        except EngineFailure:
            return
        reached()
        try:
            config = make_config(2, preset="hle")
            divergence = play_compared(engine, config, deck_from_seed(config, 0), RandomChooser(0))
            assert divergence is not None  # a fake engine cannot play a whole game right
        except (EngineFailure, UnsupportedConfig) as failure:
            assert "\n" not in str(failure)
        finally:
            engine.close()


# ------------------------------------------------------------------ the command


@pytest.mark.checks("C-verify", "T-states")
def test_verify_command_writes_a_replayable_reproduction(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """[C-verify, EP-shrink, T-states] a diverging engine: exit 1, the report names the
    divergence, the trace file replays and carries our expected states."""
    import hanabi_ref.tools.verify.session as verify_session

    monkeypatch.setattr(verify_session, "make_engine", lambda name: ExtraTokenAfterSecondStrike())
    limit_shrinking(monkeypatch, 20)  # the reproduction is what is checked here, not how short it gets
    monkeypatch.setattr("hanabi_ref.tools.peers.peer_config", lambda name, players: make_config(players, preset="hle"), raising=False)
    out = tmp_path / "divergence.json"
    code = main(["verify", "--against", "openspiel", "--no-vectors", "--games", "300", "--players", "2,3", "--out", str(out), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == EXIT_INVALID_GAME
    assert "clue_tokens" in report["divergence"]["what"] and report["divergence"]["trace"] == str(out)
    trace = load_trace(out)
    assert trace.states is not None and len(trace.states) == len(trace.actions) + 1
    replay(trace)


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["verify", "--engine", "x", "--players", "two"], "--players"),
        (["verify", "--engine", "x", "--players", "0-3"], "--players"),
        (["verify", "--engine", "x", "--rules", "chess"], "--rules"),
        (["verify", "--engine", "x", "--against", "openspiel"], "not allowed with"),
        (["verify"], "one of the arguments"),
        (["verify", "--engine", "x", "--games", "-1"], "--games"),
        (["verify", "--engine", "x", "--timeout", "0"], "--timeout"),
        (["serve", "--engine", "chess"], "--engine"),
        (["replay", "game.json", "--rules", "hle"], "--rules"),
    ],
)
@pytest.mark.checks("C-serve")
def test_verify_and_serve_usage_errors_exit_2(argv: list[str], fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    """[C-exit, C-verify, C-serve] bad arguments: exit 2, one line naming the argument."""
    code = main(argv)
    err = capsys.readouterr().err
    assert code == EXIT_USAGE and err.count("\n") == 1 and fragment in err, err


@pytest.mark.parametrize(
    "command, fragment",
    [
        ("/nonexistent/engine --flag", "--engine: cannot start '/nonexistent/engine'"),
        ("", "--engine: the command is empty"),
        ("   ", "--engine: the command is empty"),
        ("engine 'unclosed", "--engine: cannot parse the command"),
    ],
)
def test_verify_engine_command_that_cannot_start_exits_2(command: str, fragment: str, capsys: pytest.CaptureFixture[str]) -> None:
    """[C-exit, C-verify] an ``--engine`` that is empty, cannot be parsed or names no
    program is a usage error: exit 2, one line naming --engine."""
    code = main(["verify", "--engine", command, "--no-vectors"])
    err = capsys.readouterr().err
    assert code == EXIT_USAGE and err.count("\n") == 1 and err.startswith(f"hanabi-ref: {fragment}"), err


@pytest.mark.checks("C-verify", "C-serve")
def test_verify_serve_end_to_end(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """[C-verify, C-serve] `verify --engine "hanabi-ref serve"` reports 0 divergences."""
    code = main(["verify", "--engine", SERVE, "--no-vectors", "--games", "5", "--players", "2", "--rules", "hle",
                 "--out", str(tmp_path / "d.json"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == EXIT_OK and report["divergence"] is None and report["random_games"]["games"] == 5
    assert not (tmp_path / "d.json").exists()


@pytest.mark.checks("EP-vectors")
def test_vectors_pass_on_the_reference_and_catch_a_broken_engine() -> None:
    """[EP-vectors] every transition and game vector passes on our engine; an engine that
    accepts self-hints is caught by a vector that expects the refusal; vectors of presets
    an engine does not play are skipped and counted (of every tenth vector, all presets
    and kinds among them)."""
    from hanabi_ref.tools.vectors import all_vectors
    from hanabi_ref.tools.verify.run import verify_vectors

    vectors = list(all_vectors())
    report = verify_vectors(ReferenceEngine(), vectors)
    assert report.divergence is None and report.checked > 100 and report.skipped == 0
    broken = verify_vectors(AcceptsSelfHints(), vectors)
    assert broken.divergence is not None and "2.16-2a-target" in broken.divergence.what
    sample = vectors[::10]
    for engine in (PlaysOnlyHle(), DeclaresOnlyHle()):
        hle_only = verify_vectors(engine, sample)
        assert hle_only.divergence is None and hle_only.skipped > 0 and hle_only.checked > 0


def test_verify_against_openspiel_runs_the_vectors_it_supports(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """[C-verify, EP-vectors] `verify --against openspiel` with its vectors: those under
    other presets are skipped, the hle ones pass, and a few random games agree."""
    oracle("pyspiel")
    code = main(["verify", "--against", "openspiel", "--games", "3", "--players", "2",
                 "--out", str(tmp_path / "d.json"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == EXIT_OK and report["divergence"] is None
    assert report["vectors"]["checked"] > 0 and report["vectors"]["skipped"] > 0


@pytest.mark.parametrize("preset", ["thesis", "hle", "hanab-live"])
def test_every_vector_passes_through_serve(preset: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """[EP-vectors, C-verify, C-serve] `verify --engine "hanabi-ref serve" --games 0`: every
    transition and game vector, replayed through the protocol on our own engine, passes,
    and none is skipped (one preset's vectors per test, so that the three share the time)."""
    from hanabi_ref.tools.vectors import PRESET_NAMES, all_vectors

    assert set(PRESET_NAMES) == {"thesis", "hle", "hanab-live"}  # every preset with vectors has its test
    vectors = tuple(vector for vector in all_vectors() if vector.preset == preset)
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr("hanabi_ref.tools.vectors.all_vectors", lambda: vectors)
        code = main(["verify", "--engine", SERVE, "--games", "0", "--out", str(tmp_path / "d.json"), "--json",
                     "--timeout", str(WAIT)])
    report = json.loads(capsys.readouterr().out)
    assert code == EXIT_OK and report["divergence"] is None, report["divergence"]
    replayed = sum(vector.kind in ("transition", "game") for vector in vectors)
    assert replayed > 50 and report["vectors"] == {"checked": replayed, "skipped": 0, "not_run": 0}
    assert report["random_games"] is None and report["not_run"] == {"random_games": "--games 0"}


# ------------------------------------------------------------------ rule options on top of a preset

ONE_RULE_SET = Path(__file__).resolve().parent / "engines" / "one_rule_set.py"


def _one_rule_set(log: Path, options: dict[str, Any]) -> str:
    """The command line of an engine that plays exactly these options (all of them)."""
    import shlex

    return f"{shlex.quote(sys.executable)} {shlex.quote(str(ONE_RULE_SET))} {shlex.quote(str(log))} {shlex.quote(json.dumps(options))}"


@pytest.mark.checks("EP-options")
def test_verify_option_plays_the_random_games_under_the_changed_rules(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """[EP-options, C-verify, P-presets] ``--rules physical --option ...``: an engine that
    plays only the printed rulebook with a round-robin deal and no draw after the final
    move gets every random game (each config named ``physical`` and carrying exactly
    those options) and agrees; the vectors are replayed unchanged, each with its own
    options, so this engine declines them all and they are counted as skipped."""
    import attrs

    from hanabi_ref.engine.presets import RuleOptions

    # The physical preset as P-presets describes it, with the two options changed, every
    # option written, deck_plays at its default too (EP-config).
    wanted = attrs.asdict(RuleOptions(empty_hints=False, discard_at_max_hints=False, deal="round-robin",
                                      draw_after_final_move=False))
    log = tmp_path / "configs.jsonl"
    code = main(["verify", "--engine", _one_rule_set(log, wanted), "--rules", "physical", "--players", "2,4",
                 "--option", "deal=round-robin", "--option", "draw_after_final_move=false",
                 "--games", "6", "--out", str(tmp_path / "d.json"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == EXIT_OK and report["divergence"] is None
    assert report["random_games"]["games"] == 6 and report["random_games"]["skipped"] == 0
    assert report["vectors"]["checked"] == 0 and report["vectors"]["skipped"] > 100
    configs = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    played = [config for config in configs if config["played"]]
    assert len(played) == 6 and {config["preset"] for config in played} == {"physical"}
    assert {config["players"] for config in played} <= {2, 4}
    assert all(config["options"] == wanted for config in played)
    # Every vector reached the engine with its own preset's configuration, none of them physical.
    assert {config["preset"] for config in configs if not config["played"]} == {"thesis", "hle", "hanab-live"}


def test_verify_option_through_the_reference_engine(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """[EP-options, C-verify] `verify --engine "hanabi-ref serve" --rules physical,hle
    --option ...`: our engine, which plays every option, agrees over the random games
    and reports them."""
    code = main(["verify", "--engine", SERVE, "--no-vectors", "--rules", "physical,hle", "--players", "3",
                 "--option", "draw_position=newest-first", "--option", "empty_hints=true",
                 "--games", "4", "--out", str(tmp_path / "d.json")])
    out = capsys.readouterr().out
    assert code == EXIT_OK, out
    assert "random games    4 played" in out and "divergences     0" in out


PROTOCOL_PAGE = Path(__file__).resolve().parents[1] / "spec" / "engine-protocol.md"

ADAPTER_ENGINE = """
import attrs
from hanabi_ref.engine.presets import PRESETS
from hanabi_ref.tools.protocol.engine import ReferenceEngine
from hanabi_ref.tools.verify.serve import answer_request

HLE = attrs.asdict(PRESETS["hle"].options)
engine = ReferenceEngine()

def my_unsupported(config):
    return None if config["options"] == HLE and config["variant"] == "No Variant" else "hle rules only"

def my_new_game(config, deck):
    assert answer_request(engine, {"op": "new_game", "config": config, "deck": deck}) == {"ok": True}

def my_apply(action):
    answer = answer_request(engine, {"op": "apply", "action": action})
    return None if answer["ok"] else answer["illegal"]

def my_state():
    return answer_request(engine, {"op": "state"})["state"]

def my_legal_actions():
    return answer_request(engine, {"op": "legal_actions"})["actions"]
"""
"""An engine for the adapter of the protocol page: ours, playing the hle preset's rules only."""


@pytest.mark.checks("EP-requests", "EP-config")
def test_the_protocol_page_opens_with_an_adapter_that_passes(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """[EP-requests, EP-config] spec/engine-protocol.md opens with its adapter: the first
    section, a page long, whose Python block, with ``my_*`` standing for an engine that
    plays the hle rules and refuses every other configuration by its options, agrees with
    verify over the vectors of the last round, the deck emptied at the deal, unbounded
    errors and deck plays (those that set deck_plays are refused and counted) and over
    random games."""
    from hanabi_ref.tools.vectors import iter_vectors

    page = PROTOCOL_PAGE.read_text(encoding="utf-8")
    first = page.split("\n## ")[1]
    assert first.startswith("An adapter in 15 minutes\n") and len(first.split()) < 800
    for rule in ("R-3", "E-6", "`errors: null`", "EP-config"):
        assert rule in first, rule
    block = first.split("```python\n", 1)[1].split("```", 1)[0]
    adapter = tmp_path / "my_adapter.py"
    adapter.write_text(ADAPTER_ENGINE + block, encoding="utf-8")
    vectors = tuple(iter_vectors(presets=("hle",), cases=("last_round", "empty_deal_games", "strikeout", "deck_plays")))
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr("hanabi_ref.tools.vectors.all_vectors", lambda: vectors)
        code = main(["verify", "--engine", f"{sys.executable} {adapter}", "--rules", "hle", "--players", "2,3",
                     "--games", "4", "--out", str(tmp_path / "d.json"), "--json", "--timeout", str(WAIT)])
    report = json.loads(capsys.readouterr().out)
    assert code == EXIT_OK and report["divergence"] is None, report["divergence"]
    deck_plays = sum(v.kind == "transition" and v.data["config"]["options"].get("deck_plays") is True for v in vectors)
    assert report["vectors"]["skipped"] == deck_plays > 0 and report["vectors"]["checked"] > 10
    assert report["random_games"]["games"] == 4


@pytest.mark.checks("EP-config", "EP-options")
def test_every_configuration_is_sent_with_every_option(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """[EP-config, EP-requests] an engine that checks its options strictly, playing the hle
    preset's bundle exactly and every option in it (deck_plays false included), is sent
    every option in every new_game, the random games' and the vectors' alike: it plays
    every random game and each hle vector of its rules, and declines only those whose
    configuration sets deck_plays."""
    import attrs

    from hanabi_ref.engine.presets import OPTIONS, PRESETS
    from hanabi_ref.tools.vectors import iter_vectors

    log = tmp_path / "configs.jsonl"
    vectors = tuple(iter_vectors(presets=("hle",), cases=("deck_plays", "discard")))
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr("hanabi_ref.tools.vectors.all_vectors", lambda: vectors)
        code = main(["verify", "--engine", _one_rule_set(log, attrs.asdict(PRESETS["hle"].options)), "--rules", "hle",
                     "--players", "2,3", "--games", "4", "--out", str(tmp_path / "d.json"), "--json"])
    report = json.loads(capsys.readouterr().out)
    assert code == EXIT_OK and report["divergence"] is None
    assert report["random_games"]["games"] == 4 and report["random_games"]["skipped"] == 0
    configs = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert all(set(config["options"]) == set(OPTIONS) for config in configs)
    deck_plays = sum(v.kind == "transition" and v.data["config"]["options"].get("deck_plays") is True for v in vectors)
    assert report["vectors"]["skipped"] == deck_plays > 0 and report["vectors"]["checked"] > 0
    assert [config["played"] for config in configs].count(False) == deck_plays


@pytest.mark.checks("EP-options")
def test_random_game_configs_carry_the_options() -> None:
    """[EP-options, EP-random] each preset of --rules (and a peer's configuration) gets the
    options on top; the others keep the preset's values and the preset its name."""
    import attrs

    from hanabi_ref.cli import build_parser
    from hanabi_ref.engine.presets import PRESETS
    from hanabi_ref.tools.verify.session import random_game_configs

    args = build_parser().parse_args(["verify", "--engine", "x", "--rules", "physical,hle,thesis", "--players", "2-3",
                                      "--option", "strikeout_score=fireworks", "--option", "end_when_no_points_possible=true"])
    configs = random_game_configs(args)
    assert [(c.preset, c.players) for c in configs] == [(r, p) for r in ("physical", "hle", "thesis") for p in (2, 3)]
    for config in configs:
        expected = attrs.evolve(PRESETS[config.preset].options, strikeout_score="fireworks", end_when_no_points_possible=True)
        assert config.options == expected
    peer = build_parser().parse_args(["verify", "--against", "hanabython", "--players", "3", "--option", "empty_hints=true"])
    (config,) = random_game_configs(peer)
    assert config.options.empty_hints is True and config.options.deal == "round-robin"  # hanabython's own deal kept


@pytest.mark.parametrize(
    ("option", "fragments"),
    [
        ("colour_blind=true", ["--option", "unknown rule option 'colour_blind'", "draw_after_final_move"]),
        ("empty_hints=yes", ["--option", "empty_hints: must be true or false, got 'yes'"]),
        ("empty_hints=True", ["--option", "must be true or false"]),
        ("deal=shuffled", ["--option", "deal: must be one of blocks, round-robin, got 'shuffled'"]),
        ("strikeout_score=", ["--option", "strikeout_score: must be one of zero, fireworks"]),
        ("deal", ["--option", "expected NAME=VALUE", "empty_hints"]),
        ("self_hints=true", ["--option: under preset hle: options.self_hints"]),
    ],
)
@pytest.mark.checks("EP-options")
def test_verify_option_usage_errors_exit_2(option: str, fragments: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """[EP-options, C-exit] an unknown option, a value outside its list, a pair without
    ``=`` or an option a preset of --rules refuses: exit 2 and one line naming --option
    and the known options or values, before the engine is started (it does not exist)."""
    code = main(["verify", "--engine", "/nonexistent/engine", "--rules", "thesis,hle", "--option", option,
                 "--out", str(tmp_path / "d.json")])
    err = capsys.readouterr().err
    assert code == EXIT_USAGE and err.count("\n") == 1, err
    assert all(fragment in err for fragment in fragments), err


def test_verify_option_given_twice_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-options, C-exit] one option twice is ambiguous: a usage error naming it."""
    code = main(["verify", "--engine", "/nonexistent/engine", "--option", "deal=blocks", "--option", "deal=round-robin"])
    err = capsys.readouterr().err
    assert code == EXIT_USAGE and err == "hanabi-ref: --option: deal is given twice\n", err
