"""What verify tells an engine's author: every differing field side by side, the
reproduction file, the story of ``explain``, coverage of fields and rules, ``--partial``
and the progress of a run [EP-report, EP-repro, EP-explain, EP-coverage, EP-partial,
EP-progress]."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from hanabi_ref.engine.actions import Discard, Hint, Play
from hanabi_ref.cli import EXIT_INVALID_GAME, EXIT_OK, EXIT_USAGE, main
from hanabi_ref.engine.configs import make_config
from hanabi_ref.formats.serial import state_to_json
from hanabi_ref.engine.transition import apply, initial_state
from hanabi_ref.tools.protocol.choosing import RandomChooser
from hanabi_ref.tools.verify.compare import play_compared, state_difference, state_differences
from hanabi_ref.tools.protocol.engine import ReferenceEngine
from hanabi_ref.tools.verify.report import Coverage, clause_of, exercised, render
from hanabi_ref.tools.verify.run import verify_random_games
from tests.helpers import stacked_deck
from tests.processes import WAIT
from tests.shrinking import limit_shrinking
from hanabi_ref.engine.tables import tables_for

ENGINES = Path(__file__).parent / "engines"
SERVE = f"{sys.executable} -m hanabi_ref.cli serve"


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


class Tampered(ReferenceEngine):
    """Our engine, whose state answers from turn ``turn`` on have fields replaced."""

    def __init__(self, turn: int, **changes: Any) -> None:
        super().__init__()
        self.turn, self.changes = turn, changes

    def state(self) -> dict[str, Any]:
        answer = super().state()
        if answer["turns"] >= self.turn:
            answer.update(self.changes)
        return answer


@pytest.mark.checks("EP-report")
def test_every_differing_field_side_by_side() -> None:
    """[EP-report] a wrong end of game shows every field that differs, not only the
    first: hands slot by slot with the differing slots marked and cards by name, the
    tokens and ``terminal`` side by side."""
    config = make_config(2, "hle")
    deck = stacked_deck(config, [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1)])
    ours = state_to_json(initial_state(config, deck))
    hands = json.loads(json.dumps(ours["hands"]))
    hands[1][2] = {"suit": 2, "value": 3}  # seat 1's slot 2 shows g3 instead of y3
    theirs = {**ours, "hands": hands, "terminal": True, "clue_tokens": 7}
    differences = state_differences(ours, theirs)
    assert [d.field for d in differences] == ["hands", "clue_tokens", "terminal"]
    lines = [line for d in differences for line in render(d, config)]
    assert lines[0].startswith("state.hands: seat by seat, slot by slot")
    assert lines[1] == "  seat 0:  0: r1   1: r2   2: r3   3: r4   4: r5"
    assert lines[2] == "  seat 1:  0: y1   1: y2  *2: y3 | g3   3: y4   4: y5"
    assert lines[3:] == ["state.clue_tokens: reference 8 | engine 7", "state.terminal: reference false | engine true"]


@pytest.mark.checks("EP-report", "EP-repro")
def test_the_json_report_and_the_reproduction_file_hold_everything(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-report, EP-repro] ``--json``: every difference with whole values, both states
    before and after the step; the file: a trace that ``replay`` reads, and a divergence
    object with the same."""
    out = tmp_path / "repro.json"
    engine = f"{sys.executable} {ENGINES / 'tampered.py'} 4 clue_tokens=9 strikes=2"
    with pytest.MonkeyPatch.context() as monkeypatch:
        limit_shrinking(monkeypatch, 20)  # each game through the process; the report is what is checked here
        code, text, err = run(["verify", "--engine", engine, "--no-vectors", "--games", "5", "--out", str(out),
                               "--json", "--timeout", str(WAIT)], capsys)
    assert code == EXIT_INVALID_GAME, err
    report = json.loads(text)["divergence"]
    assert [d["field"] for d in report["differences"]] == ["clue_tokens", "strikes"]
    assert report["after"]["engine"]["clue_tokens"] == 9 and report["after"]["engine"]["strikes"] == 2
    assert len(json.dumps(report["after"]["reference"]["knowledge"])) > 200  # whole, not cut at 200 characters
    assert report["before"]["reference"]["turns"] == report["after"]["reference"]["turns"] - 1
    data = json.loads(out.read_text())
    assert data["divergence"]["differences"] == report["differences"]
    assert data["divergence"]["before"] == report["before"] and data["divergence"]["after"] == report["after"]
    assert data["states"][-1] == report["after"]["reference"]
    code, text, err = run(["replay", str(out), "--json"], capsys)
    assert code == EXIT_OK, err


@pytest.mark.checks("EP-explain")
def test_explain_tells_the_story(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-explain] the deal, each move in words, then "the engine says X, the rules say Y
    (clause)" with the clause that fixes the field after that move; a plain trace is
    refused in one line."""
    out = tmp_path / "repro.json"
    engine = f"{sys.executable} {ENGINES / 'tampered.py'} 3 clue_tokens=9"
    with pytest.MonkeyPatch.context() as monkeypatch:
        limit_shrinking(monkeypatch, 20)  # each game through the process; the story is what is checked here
        run(["verify", "--engine", engine, "--no-vectors", "--games", "5", "--out", str(out), "--timeout", str(WAIT)],
            capsys)
    code, text, err = run(["explain", str(out)], capsys)
    assert code == EXIT_OK, err
    lines = text.splitlines()
    assert lines[0].startswith("A game of ") and lines[1].startswith("The deal: seat 0 holds ")
    moves = [line for line in lines if line[:3].strip().isdigit()]
    assert len(moves) == 3 and all(" seat " in line for line in moves)
    data = json.loads(out.read_text())
    last = data["actions"][-1]
    clause = {"hint": "2.16-2a-cost", "discard": "2.16-2b-token", "play": None}[last["type"]]
    said = f"the engine says clue_tokens 9, the rules say {data['states'][-1]['clue_tokens']}"
    assert any(line.strip().startswith(said) for line in lines), text
    if clause is not None:
        assert f"({clause})" in text
    plain = tmp_path / "plain.json"
    code, _, err = run(["play", "--strategy", "simple", "--players", "2", "--out", str(plain)], capsys)
    code, text, err = run(["explain", str(plain)], capsys)
    assert code == EXIT_INVALID_GAME and text == "" and "no divergence object" in err and err.count("\n") == 1
    code, text, err = run(["explain", str(tmp_path / "missing.json")], capsys)
    assert code == EXIT_USAGE and err.count("\n") == 1


@pytest.mark.checks("EP-explain")
def test_the_clause_behind_each_field() -> None:
    """[EP-explain] the clause a field is judged by after each kind of move, by the
    clauses' own text in spec/rules.md: a hint's token (2.16-2a-cost), a discard's token
    (2.16-2b-token), a completed suit's token (2.16-2c-five), a failed play's error
    (2.16-2c-fail), the end by the third error (2.16-3-strikeout), the next seat (2.16-2-next)."""
    config = make_config(2, "hle", errors=1)
    deck = stacked_deck(config, [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (2, 1), (2, 1), (3, 1), (4, 1), (5, 1)])
    state = initial_state(config, deck)
    hinted = apply(state, Hint(1, "value", 2))
    assert clause_of("clue_tokens", Hint(1, "value", 2), state, hinted) == "2.16-2a-cost"
    assert clause_of("knowledge", Hint(1, "value", 2), state, hinted) == "2.16-2a-value"
    assert clause_of("current", Hint(1, "value", 2), state, hinted) == "2.16-2-next"
    discarded = apply(hinted, Discard(0))
    assert clause_of("clue_tokens", Discard(0), hinted, discarded) == "2.16-2b-token"
    assert clause_of("hands", Discard(0), hinted, discarded) == "2.16-2b-draw"
    played = apply(state, Play(0))  # r1 scores
    assert clause_of("fireworks", Play(0), state, played) == "2.16-2c-success"
    failed = apply(played, Play(0))  # seat 1's y2 fails: the only error allowed
    assert clause_of("strikes", Play(0), played, failed) == "2.16-2c-fail"
    assert clause_of("terminal", Play(0), played, failed) == "2.16-3-strikeout"
    assert clause_of("hands", None, None, state) == "2.16-1-deal"


@pytest.mark.checks("EP-coverage")
def test_exercised_clauses_of_hand_built_moves() -> None:
    """[EP-coverage] what single moves exercise, by the clauses' text: a completed suit
    (2.16-2c-five), a discard at the maximum under the thesis' rules (E-2), the third error
    (2.16-2c-strikeout and 2.16-3-strikeout), a hint touching nothing (2.16-2a-empty)."""
    config = make_config(2, "thesis", composition=[[1, 1]], hand_size=1)
    deck = stacked_deck(config, [(1, 0), (2, 0)])
    state = initial_state(config, deck)
    assert "E-2" in exercised(state, Discard(0), apply(state, Discard(0)))
    scored = apply(state, Play(0))
    five = apply(scored, Play(0))
    assert {"2.16-2c-success", "2.16-2c-five", "2.16-3-max"} <= set(exercised(scored, Play(0), five))
    config = make_config(2, "thesis", errors=1)
    state = initial_state(config, stacked_deck(config, [(2, 0)]))
    lost = apply(state, Play(0))
    assert {"2.16-2c-fail", "2.16-2c-strikeout", "2.16-3-strikeout"} <= set(exercised(state, Play(0), lost))
    hint = Hint(1, "colour", 4)
    assert "2.16-2a-empty" in exercised(state, hint, apply(state, hint))


@pytest.mark.checks("EP-coverage")
def test_coverage_counts_fields_and_the_rules_reached(capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-coverage] against our own engine every field is reported in every state
    answer, and the common clauses are reached; the text report lists them.  The vectors
    (a few cases of the hle preset here, both kinds, instead of all of them) add their
    state answers to the count, and no clause: only the random games count those."""
    import tempfile

    from hanabi_ref.tools.vectors import iter_vectors

    vectors = tuple(iter_vectors(presets=("hle",), cases=("hint_refused", "strikeout", "games")))
    # A folder of its own for a divergence's file, and a bound on answers that load cannot reach.
    folder = tempfile.TemporaryDirectory()
    options = ["--out", str(Path(folder.name) / "d.json"), "--timeout", str(WAIT)]
    with folder, pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr("hanabi_ref.tools.vectors.all_vectors", lambda: vectors)
        code, text, err = run(["verify", "--engine", SERVE, "--games", "5", "--rules", "hle", "--json", *options], capsys)
        assert code == EXIT_OK, err
        report = json.loads(text)
        code, text, err = run(["verify", "--engine", SERVE, "--games", "2", "--no-vectors", *options], capsys)
    assert code == EXIT_OK, err
    assert "rules           " in text and "reachable clauses exercised" in text
    assert report["vectors"] == {"checked": sum(v.kind in ("transition", "game") for v in vectors), "skipped": 0,
                                 "not_run": 0}
    coverage = report["coverage"]
    assert coverage["states"] > 100 and set(coverage["fields"].values()) == {coverage["states"]}
    for clause in ("2.16-1-deal", "2.16-2a-cost", "2.16-2b-discard", "2.16-2c-success", "2.16-2c-fail",
                   "2.16-2-next", "2.16-2a-empty", "2.16-2a-target"):
        assert coverage["clauses"][clause] > 0, clause
    assert coverage["clauses"]["2.16-1-deal"] == report["random_games"]["games"]


@pytest.mark.checks("EP-partial")
def test_an_engine_reporting_nothing_fails_unless_partial(capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-partial] every state answered with ``{}``: INCOMPLETE and exit 1, even with no
    divergence; with ``--partial`` and two fields the run passes and says what was not
    checked."""
    blank = f"{sys.executable} {ENGINES / 'partial.py'}"
    code, text, err = run(["verify", "--engine", blank, "--games", "3", "--no-vectors"], capsys)
    assert code == EXIT_INVALID_GAME
    assert "divergences     0" in text and "INCOMPLETE" in text and "--partial" in text
    some = f"{sys.executable} {ENGINES / 'partial.py'} score fireworks"
    code, text, err = run(["verify", "--engine", some, "--games", "3", "--no-vectors", "--partial", "--json"], capsys)
    assert code == EXIT_OK, err
    report = json.loads(text)
    assert report["unchecked_fields"] == ["clue_tokens", "strikes", "hands", "terminal", "current"]
    assert report["partial"] is True


@pytest.mark.checks("EP-progress")
def test_progress_and_shrinking_are_reported_apart() -> None:
    """[EP-progress] the progress callback hears every game played, then the shrinking;
    the games' time excludes the shrinking, which is reported with its own count."""
    config = make_config(2, "hle")
    heard: list[tuple[str, int, int]] = []
    report = verify_random_games(ReferenceEngine(), [config], 6, 0, progress=lambda *event: heard.append(event))
    assert [event for event in heard if event[0] == "game"] == [("game", n, 0) for n in range(1, 7)]
    assert report.shrinking == 0 and report.playing_seconds > 0
    heard.clear()
    report = verify_random_games(Tampered(2, strikes=1), [config], 6, 0, shrink_budget=20,
                                 progress=lambda *event: heard.append(event))
    assert report.divergence is not None and heard[0] == ("game", 1, 1)  # the first game diverges
    shrinks = [event for event in heard if event[0] == "shrink"]
    assert shrinks and report.shrinking == len(shrinks) and report.shrinking_seconds > 0


@pytest.mark.checks("EP-coverage")
def test_the_random_games_count_coverage_until_the_first_divergence() -> None:
    """[EP-coverage] a compared game counts its state answers and moves; a game played
    by hand-built moves gives the counts it must."""
    config = make_config(2, "hle")
    coverage = Coverage()
    divergence = play_compared(ReferenceEngine(), config, tables_for(config).canonical_deck, RandomChooser(3, 0.0), coverage=coverage)
    assert divergence is None
    moves = sum(coverage.clauses[c] for c in ("2.16-2-next",))
    assert coverage.states == moves + 1 and coverage.clauses["2.16-1-deal"] == 1


# ------------------------------------------------------------------ a run stopped by a vector


def _verify_on_vectors(cases: tuple[str, ...], engine: str, out: Path, capsys: pytest.CaptureFixture[str],
                       *extra: str, preset: str = "hle") -> tuple[int, str, str]:
    """``verify`` with only the vectors of ``preset`` (hle unless told) of ``cases``
    (instead of all of them)."""
    from hanabi_ref.tools.vectors import iter_vectors

    vectors = tuple(iter_vectors(presets=(preset,), cases=cases))
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr("hanabi_ref.tools.vectors.all_vectors", lambda: vectors)
        return run(["verify", "--engine", engine, "--rules", preset, "--out", str(out), "--timeout", str(WAIT), *extra],
                   capsys)


def _story_of_buggy(bug: str, cases: tuple[str, ...], tmp_path: Path, capsys: pytest.CaptureFixture[str],
                    preset: str = "hle") -> list[str]:
    """The lines of ``explain`` on the first vector of ``cases`` that ``tests/engines/buggy.py
    --bug BUG`` fails."""
    out = tmp_path / "repro.json"
    engine = f"{sys.executable} {ENGINES / 'buggy.py'} --bug {bug}"
    code, text, err = _verify_on_vectors(cases, engine, out, capsys, preset=preset)
    assert code == EXIT_INVALID_GAME, text + err
    code, story, err = run(["explain", str(out)], capsys)
    assert code == EXIT_OK, err
    return story.splitlines()


@pytest.mark.checks("EP-explain", "E-6")
def test_explain_names_the_stop_check_after_the_deal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-explain, E-6] an engine without the stop check after the deal fails the vector
    whose deal takes the whole stack (hle/empty_deal_games/p2-h25): the last round must
    start before the first move, which E-6 decides under the option initial_stop_check,
    not step 1 in general (2.16-1)."""
    story = _story_of_buggy("no-initial-stop-check", ("empty_deal_games",), tmp_path, capsys)
    said = [line.strip() for line in story if line.strip().startswith("the engine says remaining")]
    assert said and said[0].endswith("(E-6; option initial_stop_check = true)"), story
    assert "(2.16-1)" not in "\n".join(story)


@pytest.mark.checks("EP-explain", "R-3")
def test_explain_names_the_final_moves_draw(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-explain, R-3] an engine whose game-ending move draws under hle (which sets
    draw_after_final_move = false) fails a strikeout vector: the hands and the stack
    after that move are judged by R-3 with the option's value, not by the ordinary draw
    of 2.16-2c-draw / 2.16-2b-draw."""
    story = _story_of_buggy("final-draw-always", ("strikeout",), tmp_path, capsys)
    said = [line.strip() for line in story if line.strip().startswith("the engine says")]
    assert said and all(line.endswith("(R-3; option draw_after_final_move = false)") for line in said), story
    assert "2.16-2c-draw" not in "\n".join(story) and "2.16-2b-draw" not in "\n".join(story)


@pytest.mark.checks("EP-explain", "R-4")
def test_explain_names_the_end_when_nothing_is_playable(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-explain, R-4] an engine that plays the last round out where nobody still to
    move holds a playable card fails hanab-live's nothing_playable vector: the end is
    R-4's, under end_when_nothing_playable = true, not R-1's (no points possible)."""
    story = _story_of_buggy("no-nothing-playable-end", ("nothing_playable",), tmp_path, capsys, preset="hanab-live")
    said = [line.strip() for line in story if line.strip().startswith("the engine says terminal")]
    assert said and said[0].endswith("(R-4; option end_when_nothing_playable = true)"), story
    assert "(R-1" not in "\n".join(story)


@pytest.mark.checks("EP-explain", "E-2")
def test_explain_names_the_clause_of_a_wrong_legal_action(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-explain, E-2] an engine that lists discards with every hint token under hle
    fails the first discard vector before its action: ``explain`` names the listed move
    and the clause that forbids it (E-2), with the option under which it is illegal."""
    story = _story_of_buggy("discard-at-max", ("discard",), tmp_path, capsys)
    assert "legal actions: engine lists" in story[-2], story
    assert story[-1].strip().startswith('the engine lists "seat ') and " discards slot 0: " in story[-1]
    assert story[-1].endswith("the rules forbid it (E-2: discarding is not allowed with all 8 hint tokens, "
                              "under the rule option discard_at_max_hints = false)")


@pytest.mark.checks("EP-explain", "E-2")
def test_legal_lines_name_the_clause_that_allows_a_missing_action() -> None:
    """[EP-explain, E-2] a legal action the engine leaves out of its list is told with
    the clause that allows it: under the thesis' rules a discard with every hint token
    (E-2, option discard_at_max_hints = true); an example the rules forbid is not told."""
    from hanabi_ref.tools.verify.explain import legal_lines

    config = make_config(2, "thesis")
    state = initial_state(config, tables_for(config).canonical_deck)
    lines = legal_lines('legal actions: engine lacks 5 legal action(s), e.g. {"slot":0,"type":"discard"}', state)
    assert lines == ['the engine does not list "seat 0 discards slot 0: r1"; the rules allow it (E-2: a discard '
                     "with every hint token is legal under the rule option discard_at_max_hints = true)"]
    assert legal_lines('legal actions: engine lacks 1 legal action(s), e.g. {"target":0,"kind":"value","value":1,'
                       '"type":"hint"}', state) == []


@pytest.mark.checks("EP-explain", "EP-not-run")
def test_a_vector_divergence_names_its_clause_and_what_was_not_run(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-explain, EP-not-run, EP-vectors] an engine whose completed suit gives no token
    back (``tests/engines/buggy.py``) fails a vector of the play_five case: the report says
    the random games were not played and why, counts no rule clause (none listed as not
    reached) and how many vectors were not run; ``explain`` tells the vector's last move and
    names the clause of the token a completed suit gives back (2.16-2c-five, one of the
    vector's own clauses), not the move's legality (2.16-2)."""
    from hanabi_ref.tools.vectors import iter_vectors

    out = tmp_path / "repro.json"
    engine = f"{sys.executable} {ENGINES / 'buggy.py'} --bug five-no-token"
    code, text, err = _verify_on_vectors(("play", "play_five", "discard"), engine, out, capsys)
    assert code == EXIT_INVALID_GAME, err
    assert "random games    not played (a vector diverged)" in text
    assert "rules           not counted" in text and "reachable clauses" not in text and "not reached" not in text
    assert "views           not compared" in text and "(in the vectors)" in text
    replayed = [v for v in iter_vectors(presets=("hle",), cases=("play", "play_five", "discard"))
                if v.kind in ("transition", "game")]
    name = next(line for line in text.splitlines() if line.startswith("DIVERGENCE")).split()[2].rstrip(":")
    index = [v.name for v in replayed].index(name)
    assert name.startswith("hle/play_five/")
    assert f"stopped at the first divergence, {len(replayed) - index - 1} not run" in text
    code, story, err = run(["explain", str(out)], capsys)
    assert code == EXIT_OK, err
    assert f"It is the conformance vector {name} (spec/vectors/hle/play_five.json)." in story
    said = next(line for line in story.splitlines() if line.strip().startswith("the engine says clue_tokens"))
    assert said.endswith("(2.16-2c-five)") and "2.16-2c-five" in replayed[index].clauses
    assert "(2.16-2)" not in story
    code, text, err = run(["verify", "--engine", engine, "--rules", "hle", "--no-vectors", "--games", "0",
                           "--out", str(out), "--json"], capsys)
    assert json.loads(text)["not_run"] == {"vectors": "--no-vectors", "random_games": "--games 0"}


@pytest.mark.checks("EP-explain")
def test_explain_names_the_option_a_vector_needs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[EP-explain, R-deck-plays] an engine that refuses the play of the stack's last card
    (``tests/engines/tampered.py no-deck-plays``) fails hle/deck_plays/red-5-completes;
    ``explain`` names the option the vector's configuration sets otherwise than hle
    (deck_plays = true) and the clause and option that make the move legal, and keeps
    the engine's reason."""
    out = tmp_path / "repro.json"
    engine = f"{sys.executable} {ENGINES / 'tampered.py'} 10000 no-deck-plays"
    code, text, err = _verify_on_vectors(("deck_plays",), engine, out, capsys)
    assert code == EXIT_INVALID_GAME, err
    assert "DIVERGENCE      vector hle/deck_plays/red-5-completes: engine refused legal play 5" in text
    code, story, err = run(["explain", str(out)], capsys)
    assert code == EXIT_OK, err
    lines = story.splitlines()
    assert lines[0].startswith("A game of 2 players, preset hle with deck_plays = true (2.16-2c, R-deck-plays), ")
    assert lines[-2] == "Then seat 1 plays slot 5: r5 (the stack's last card) (scores)."
    assert lines[-1] == ("Here the engine refused it: no slot 5 in this hand; the rules allow the move (R-deck-plays: "
                         "the stack's last card may be played as slot h' under the rule option deck_plays = true).")


@pytest.mark.checks("EP-not-run")
def test_a_run_that_compared_no_state_says_so() -> None:
    """[EP-not-run, EP-coverage] the lines of a run stopped by the first vector before any
    state answer: no count of zero states, rules or views, and what was not run."""
    from hanabi_ref.tools.verify.session import phase_lines

    coverage = Coverage().to_json()
    result = {"vectors": {"checked": 1, "skipped": 0, "not_run": 99}, "random_games": None, "coverage": coverage,
              "not_run": {"random_games": "a vector diverged"}, "deals": "deck",
              "views": {"offered": True, "checked": True, "mode": "acting"}}
    lines = phase_lines(result)
    assert lines[0] == "vectors         1 checked, 0 unsupported; stopped at the first divergence, 99 not run"
    assert lines[1] == "random games    not played (a vector diverged)"
    assert lines[2].startswith("fields          no state compared")
    assert [line[:16].strip() for line in lines] == ["vectors", "random games", "fields", "views", "rules"]
    assert not any(" 0 " in line or "0 of" in line for line in lines[2:])


# ------------------------------------------------------------------ the one-line summary


@pytest.mark.checks("EP-summary")
def test_the_summary_leads_with_the_decisive_field_in_words() -> None:
    """[EP-summary] a game that the engine lets go on after the last point (it drew a card
    the rules do not draw): ``terminal`` first, then the others by name; a hand told by
    the seat where it differs, cards by name, never JSON; the discard pile after the cards
    both have; a knowledge set by its slot."""
    config = make_config(2, "hle")
    deck = stacked_deck(config, [(1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (1, 1), (2, 1), (3, 1), (4, 1), (5, 1)])
    ours = state_to_json(apply(initial_state(config, deck), Play(0)))  # seat 0 plays r1; r1 scores
    theirs = json.loads(json.dumps(ours))
    theirs["terminal"] = True
    theirs["hands"][1].append({"suit": 2, "value": 1})  # a g1 the rules do not deal
    theirs["deck_size"] -= 1
    line = state_difference(ours, theirs, config)
    assert line == ("state.terminal: reference false, engine true; 2 more field(s) differ: deck_size, hands")
    hands_only = json.loads(json.dumps(ours))
    hands_only["hands"][1][2] = {"suit": 2, "value": 3}
    line = state_difference(ours, hands_only, config)
    assert line == "state.hands, seat 1: reference y1 y2 y3 y4 y5, engine y1 y2 g3 y4 y5"
    discarded = {**ours, "discard": [{"suit": 0, "value": 1}]}
    assert state_difference(ours, discarded, config) == "state.discard: reference [], engine r1"
    knowing = json.loads(json.dumps(ours))
    knowing["knowledge"][0][3] = {"suits": [0], "values": [5]}
    assert state_difference(ours, knowing, config) == (
        "state.knowledge, seat 0 slot 3: reference {r,y,g,b,p}{1,2,3,4,5}, engine {r}{5}")
    long = {**ours, "fireworks": list(range(40))}
    assert state_difference(ours, long, config) == (
        f"state.fireworks: reference [1, 0, 0, 0, 0], engine a JSON array of {len(json.dumps(list(range(40))))} "
        "characters (whole in the reproduction file)")
