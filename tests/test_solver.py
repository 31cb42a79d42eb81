"""The exact solver of open Hanabi [SV-open, SV-moves, SV-bounds, SV-key,
SV-result, SV-input, SV-estimate, SV-late].

The solver is checked against an independent search: the open-game model of
``hanabi_ref.tools.playability.opengame`` (which shares no code with the engine) decides the
same small games exhaustively; every winning line the solver returns is replayed by the
engine, action by action, to the target; every deck the hat player wins is found
winnable.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.players.runner import play_game
from hanabi_ref.tools.playability.opengame import OpenGame, is_open_game_playable
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.tools.solver import core
from hanabi_ref.tools.solver.search import Solution, best_score, plain_search, replay, solve_deck
from hanabi_ref.engine.state import score
from hanabi_ref.players.strategies import factory_for
from tests.test_playability_opengame import engine_config, engine_deck, small_games
from hanabi_ref.engine.tables import tables_for


@pytest.mark.checks("SV-open", "SV-moves", "SV-bounds", "SV-key")
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # 300 more in the deep set
@given(small_games())
def test_the_solver_decides_small_games_as_the_open_game_models_exhaustive_search(game: OpenGame) -> None:
    """[SV-open, SV-moves, SV-bounds, SV-key] on random small open games (up to
    3 values, 2 colours, 3 players, 10 cards, the thesis preset), the solver reaches the
    maximum exactly when the independent model's exhaustive search says the game is
    playable, and its line replays in the engine to the maximum."""
    config, deck = engine_config(game), engine_deck(game)
    solution = solve_deck(config, deck)
    assert solution.reachable is not None
    assert solution.reachable == is_open_game_playable(game)
    if solution.reachable:
        assert solution.line is not None
        assert score(replay(config, deck, solution.line)) == tables_for(config).max_score


@pytest.mark.checks("SV-result")
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_winning_lines_of_real_decks_replay_to_25(players: int) -> None:
    """[SV-result] on seeded real decks (No Variant, hle), every winning line the solver
    returns is a legal game of the engine that ends with 25 points; the decks it cannot
    decide within the budget are reported undecided, never guessed."""
    config = make_config(players, preset="hle")
    decided = 0
    for seed in range(12):
        deck = deck_from_seed(config, seed)
        solution = solve_deck(config, deck, max_nodes=20_000)
        if solution.reachable:
            assert solution.line is not None
            final = replay(config, deck, solution.line)
            assert score(final) == 25 and final.terminal
            decided += 1
        else:
            assert solution.line is None
    assert decided >= 8


@pytest.mark.checks("SV-result")
def test_every_deck_the_hat_player_wins_is_winnable() -> None:
    """[SV-result] a perfect game of the hat player is a winning line of the open game,
    so the solver must find every such deck winnable."""
    config = make_config(4, preset="hle")
    wins = 0
    for seed in range(40):
        if play_game(config, factory_for("hat"), seed=seed).score == 25:
            wins += 1
            assert solve_deck(config, deck_from_seed(config, seed), max_nodes=200_000).reachable is True, seed
    assert wins > 20


@pytest.mark.checks("SV-result", "SV-input")
def test_a_spent_budget_is_undecided_and_bad_input_is_named() -> None:
    """[SV-result, SV-input] a budget too small to finish gives "undecided" (no
    line); a deck that is not a permutation of the cards, a target out of range and a
    budget that is not positive are refused in one line naming them."""
    config = make_config(4, preset="hle")
    deck = deck_from_seed(config, 0)
    small = solve_deck(config, deck, max_nodes=5)
    assert small.reachable is None and small.line is None and small.nodes > 5
    red_fives_for_red_ones = tuple(4 if card == 0 else card for card in deck)
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: solve_deck(config, deck[:-1]), "deck: its 49 cards are not the composition of variant 'No Variant' \\(50"),
        (lambda: solve_deck(config, red_fives_for_red_ones), "deck: its 50 cards are not the composition"),
        (lambda: solve_deck(config, deck, target=26), "target: must be 0 .. 25"),
        (lambda: solve_deck(config, deck, max_nodes=0), "node budget"),
        (lambda: solve_deck(config, deck, seconds=0.0), "time limit"),
    ]
    for call, message in calls:
        with pytest.raises(ConfigError, match=message):
            call()


@pytest.mark.checks("SV-bounds")
def test_too_few_turns_is_a_cheap_reason_and_a_lower_target_is_still_searched() -> None:
    """[SV-bounds] one suit of five single cards, two players with hands of two: one
    card is left to draw, so at most 1 + 2 turns can play and 5 points are out of reach,
    found without search; the solver still reaches 2 points, and the engine replays it."""
    config = make_config(2, composition=[[1, 1, 1, 1, 1]], hand_size=2)
    deck = (0, 1, 2, 3, 4)
    solution = solve_deck(config, deck)
    assert solution.reachable is False and solution.nodes == 0
    assert solution.reason == "5 cards still to play but at most 3 turns that play"
    lower = solve_deck(config, deck, target=2)
    assert lower.reachable is True and lower.line is not None
    assert score(replay(config, deck, lower.line)) >= 2


@pytest.mark.checks("SV-estimate", "SV-input")
def test_the_solve_command_counts_decks_alike_for_any_jobs_and_refuses_bad_input(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[SV-estimate, SV-input] ``solve`` prints the winnable, lost and undecided counts of
    seeded decks, the same for one or two worker processes (the budget is counted in
    positions); ``--out`` gets the JSON summary; a bad count, an unsupported configuration:
    one line, exit 2."""
    from hanabi_ref.cli import main

    runs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"solve-{jobs}.json"
        assert main(["solve", "--players", "3", "--games", "6", "--seed", "40", "--jobs", jobs, "--json",
                     "--out", str(out)]) == 0
        printed = json.loads(capsys.readouterr().out)
        assert json.loads(out.read_text()) == printed
        runs.append({key: value for key, value in printed.items()
                     if key not in ("median_cpu_seconds", "p99_cpu_seconds", "slowest")})
    assert runs[0] == runs[1]
    config = make_config(3, preset="hle")
    expected = [solve_deck(config, deck_from_seed(config, seed), max_nodes=200_000).reachable for seed in range(40, 46)]
    assert (runs[0]["winnable"], runs[0]["lost"], runs[0]["undecided"]) == \
        (expected.count(True), expected.count(False), expected.count(None))
    assert main(["solve", "--players", "4", "--games", "3"]) == 0
    assert "winnable     3" in capsys.readouterr().out
    for arguments, message in [(["--players", "4", "--games", "0"], "--games"),
                               (["--players", "9"], "players"),
                               (["--players", "4", "--max-nodes", "-1"], "--max-nodes"),
                               (["--players", "4", "--time-limit", "0"], "--time-limit"),
                               (["--players", "4", "--executor", "dask"], "--scheduler"),
                               (["--players", "4", "--scheduler", "tcp://127.0.0.1:9"], "--scheduler")]:
        assert main(["solve", *arguments]) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and message in err, err


LATE_CONFIG = make_config(2, composition=[[1, 1, 1, 1, 1], [3, 2, 2, 2, 1]], hand_size=2, hints=2)
LATE_DECK = (5, 5, 5, 6, 6, 7, 7, 8, 8, 9, 1, 2, 3, 4, 0)
"""The second suit (1, 1, 1, 2, 2, 3, 3, 4, 4, 5), then the first suit's 2, 3, 4, 5 and,
last of all, its 1."""


@pytest.mark.checks("SV-late", "SV-bounds")
def test_cards_that_wait_for_the_last_draw_are_a_cheap_reason() -> None:
    """[SV-late, SV-bounds] two suits (one copy of each value of the first), two players
    with hands of two, the first suit's 1 as the very last card: after it is drawn the
    last round leaves two turns, but five cards of its suit must follow it.  The deal
    alone shows it (that the deck indeed cannot reach the maximum is the open-game
    model's finding in the deep set, below; proofs/check_solver_pruning.py checks the
    rule against a brute force on every deck of its small compositions)."""
    solution = solve_deck(LATE_CONFIG, LATE_DECK)
    assert solution.reachable is False and solution.nodes == 0
    assert solution.reason == "the cards that wait for late draws outnumber the turns after them"


@pytest.mark.deep
def test_the_deck_whose_cards_wait_for_the_last_draw_is_lost_by_exhaustive_search() -> None:
    """The open-game model's exhaustive search agrees that the deck of the cheap-reason
    test above cannot reach the maximum (some seconds of search)."""
    from hanabi_ref.tools.playability.opengame import make_open_game

    game = make_open_game(5, 2, 2, 2, [(card % 5 + 1, card // 5 + 1) for card in LATE_DECK], 2, 3)
    assert not is_open_game_playable(game)


@st.composite
def small_configs(draw: st.DrawFn) -> tuple[GameConfig, tuple[int, ...], int]:
    """A random small configuration under rule options the §3 model does not have
    (no discard with every token, no empty hints, the early end, no draw after the last
    move), a random deck of it and a random target."""
    values = draw(st.sampled_from([2, 3]))
    suits = draw(st.sampled_from([1, 2]))
    counts = [[draw(st.integers(min_value=1, max_value=2)) for _ in range(values)] for _ in range(suits)]
    cards = [suit * values + value for suit in range(suits) for value in range(values) for _ in range(counts[suit][value])]
    players = draw(st.sampled_from([players for players in (2, 3) if players <= len(cards)]))
    hand = draw(st.sampled_from([hand for hand in (1, 2) if players * hand <= len(cards)]))
    config = make_config(
        players, composition=counts, hand_size=hand, hints=draw(st.sampled_from([0, 1, 2, 3])),
        errors=draw(st.sampled_from([None, 1, 2])),
        discard_at_max_hints=draw(st.booleans()), empty_hints=draw(st.booleans()),
        end_when_no_points_possible=draw(st.booleans()), draw_after_final_move=draw(st.booleans()))
    deck = tuple(draw(st.permutations(cards)))
    target = draw(st.integers(min_value=max(0, tables_for(config).max_score - 3), max_value=tables_for(config).max_score))
    return config, deck, target


@pytest.mark.checks("SV-core", "SV-hold", "SV-relax", "SV-restarts")
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # 360 more in the deep set
@given(small_configs())
def test_the_solvers_model_decides_as_the_plain_search_over_the_engines_states(
        case: tuple[GameConfig, tuple[int, ...], int]) -> None:
    """[SV-core, SV-hold, SV-relax, SV-restarts] on random small configurations under
    the rule options of hle and hanab.live, the solver (its own positions, SV-hold,
    restarts) reaches a target exactly when the plain search over the engine's states
    does (no pruning rule turns a winnable deck into a lost one, nor the reverse), its
    line replays in the engine; and the relaxed game never calls lost a deck the plain
    search wins."""
    config, deck, target = case
    plain = plain_search(config, deck, target)
    solved = solve_deck(config, deck, target)
    assert plain.reachable is not None and solved.reachable is not None
    assert solved.reachable == plain.reachable
    if solved.reachable:
        assert solved.line is not None and score(replay(config, deck, solved.line)) >= target
    game = core.OpenGame(config, deck)
    if not game.start_terminal:
        relaxed = core.search(game, target, 10**9, None, core.Stats(), relaxed=True)
        if relaxed is None:
            assert plain.reachable is False


@pytest.mark.checks("SV-relax")
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])  # 180 more in the deep set
@given(small_games())
def test_the_relaxed_game_decides_the_thesis_rules_exactly(game: OpenGame) -> None:
    """[SV-relax] under the thesis' rules (a discard is legal with every token) the
    relaxed game only drops misplays, which a discard of the same card dominates: on
    random small open games it is won exactly when the open-game model's exhaustive
    search says the game is playable."""
    config, deck = engine_config(game), engine_deck(game)
    model = core.OpenGame(config, deck)
    if model.start_terminal:
        return
    relaxed = core.search(model, tables_for(config).max_score, 10**9, None, core.Stats(), relaxed=True)
    assert (relaxed is not None) == is_open_game_playable(game)


@pytest.mark.checks("SV-hold")
def test_a_seat_cannot_play_two_cards_in_the_last_round() -> None:
    """[SV-hold] one suit 1, 2, 3 with one copy each, two players with hands of two:
    the deal gives seat 0 the 1 and the 2 and seat 1 the 3 and nothing is left to draw,
    so the last round starts at once.  Seat 0 must play both its cards but has one turn:
    the holders' rule sees it at the deal, and the plain search agrees."""
    config = make_config(2, composition=[[1, 1, 1, 1]], hand_size=2)
    deck = (0, 1, 2, 3)
    game = core.OpenGame(config, deck)
    fields, hands, drawn, _, _, seat, remaining = game.start
    assert remaining == 2
    assert not core.holders_fit(game, fields, hands, drawn, seat, remaining)
    assert plain_search(config, deck).reachable is False
    assert solve_deck(config, deck).reachable is False


@pytest.mark.checks("SV-restarts")
def test_restart_lengths_follow_the_luby_sequence() -> None:
    """[SV-restarts] the first fifteen terms of the Luby-Sinclair-Zuckerman sequence."""
    assert [core.luby(index) for index in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]


@pytest.mark.checks("SV-best")
def test_the_best_score_of_a_deck_that_misses_the_maximum() -> None:
    """[SV-best] the deck of the cheap-reason test above reaches 2 of its 5 points: with
    one card to draw after the deal and two players, three turns can play, but the 3 is
    the last card, so the team plays the 1 and the 2 and the drawer of the 3 has no turn
    left to follow with the 4 and 5 it cannot hold.  The exhaustive plain search gives
    the same best score."""
    config = make_config(2, composition=[[1, 1, 1, 1, 1]], hand_size=2)
    deck = (0, 1, 2, 3, 4)
    best, solution = best_score(config, deck)
    plain_best = max(target for target in range(6) if plain_search(config, deck, target).reachable)
    assert best == plain_best
    assert solution.line is not None and score(replay(config, deck, solution.line)) == best


@pytest.mark.checks("SV-core", "SV-result")
@pytest.mark.parametrize(("counts", "hand", "printed"), [
    ((1, 1, 1, 1, 6), 2, "0.1460"),
    pytest.param((1, 1, 1, 6, 1), 3, "0.2821", marks=pytest.mark.deep),  # as many decks, twice as long
])
def test_the_solver_reproduces_cells_of_the_thesis_appendix_a(counts: tuple[int, ...], hand: int, printed: str) -> None:
    """[SV-core, SV-result] the single-colour sequences of Appendix A are open games of
    one player with no passes and no limit on errors (Definition 3.10): solving every
    distinct ordering of a row's ten cards and counting the winnable ones gives the
    fraction the thesis prints (to its four decimals)."""
    from itertools import permutations

    from tests.playability_appendix_a import APPENDIX_A

    printed_rows = {tuple(row): cells for row, cells in APPENDIX_A}  # the transcription of the printed table
    assert printed_rows[counts][hand - 1] == printed
    config = make_config(1, composition=[list(counts)], hand_size=hand, hints=0, errors=None)
    cards = [value for value, count in enumerate(counts) for _ in range(count)]
    decks = set(permutations(cards))
    winnable = 0
    for deck in decks:
        solution = solve_deck(config, deck)
        assert solution.reachable is not None
        winnable += solution.reachable
    assert f"{winnable / len(decks):.4f}" == printed


@pytest.mark.checks("SV-against")
def test_solve_against_a_strategy_counts_its_perfect_games_and_refuses_a_contradiction(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """[SV-against] ``--against hat`` counts the hat player's perfect games on the decks
    solved, as ``simulate`` plays them (the same seeds, the same games), and none of them
    is found lost; a solver that called a deck the strategy won lost is a contradiction:
    one line naming the seed, exit 1."""
    from hanabi_ref.cli import main
    from hanabi_ref.tools.solver import estimate

    argv = ["solve", "--players", "4", "--games", "6", "--seed", "3", "--against", "hat", "--json"]
    assert main(argv) == 0
    row = json.loads(capsys.readouterr().out)["against"]["hat"]
    assert main(["simulate", "--strategy", "hat", "--players", "4", "--rules", "hle", "--games", "6", "--seed", "3",
                 "--jobs", "1", "--json"]) == 0
    simulated = json.loads(capsys.readouterr().out)
    assert row["perfect"] == round(simulated["perfect_rate"] * 6) and row["won_but_lost"] == []

    def always_lost(*args: object, **kwargs: object) -> Solution:
        return Solution(25, False, None, 1, 0.0)

    monkeypatch.setattr(estimate, "solve_deck", always_lost)
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "decks a strategy won but the solver found lost" in err


@pytest.mark.checks("SV-bench")
def test_bench_solver_measures_every_idea_on_the_same_decks(capsys: pytest.CaptureFixture[str]) -> None:
    """[SV-bench] ``bench solver`` solves the same decks with the whole solver and without
    each idea, and reports per variant the decks decided, the CPU time and the positions;
    every variant decides these easy decks alike.  One player count only: two is a usage
    error (exit 2)."""
    from hanabi_ref.cli import main

    assert main(["bench", "solver", "--players", "3", "--games", "3", "--max-nodes", "20000", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report["variants"]) == {"all"} | {f"without {idea}" for idea in core.IDEAS}
    for row in report["variants"].values():
        assert row["decided"] + row["undecided"] == 3 and row["total_nodes"] > 0
    assert main(["bench", "solver", "--players", "3,4"]) == 2
    assert "one player count" in capsys.readouterr().err


@pytest.mark.checks("SV-signals", "SV-estimate")
def test_an_interrupted_solve_leaves_no_output_file(tmp_path: Path) -> None:
    """[SV-estimate, SV-signals] Ctrl-C during ``solve --out FILE``: one line, exit 130,
    and FILE is not there (it is written whole once every deck is solved).  The signal is
    sent once the run is under way (its handler for SIGTERM is set), and the process's
    session is killed whatever happens."""
    import signal
    import subprocess

    from tests.processes import catches, checkout_env, cli, started, wait_until

    out = tmp_path / "solve.json"
    argv = cli("solve", "--players", "2", "--games", "100000", "--jobs", "1", "--out", str(out))
    with started(argv, stderr=subprocess.PIPE, text=True, env=checkout_env()) as process:
        assert wait_until(lambda: process.poll() is not None or catches(process.pid, signal.SIGTERM))
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=120)
    assert process.returncode == 130 and err.strip() == "hanabi-ref: interrupted"
    assert not out.exists() and list(tmp_path.iterdir()) == []


@pytest.mark.deep
@pytest.mark.parametrize("test", [
    test_the_solver_decides_small_games_as_the_open_game_models_exhaustive_search,
    test_the_solvers_model_decides_as_the_plain_search_over_the_engines_states,
    test_the_relaxed_game_decides_the_thesis_rules_exactly,
], ids=lambda test: test.__name__.removeprefix("test_"))
def test_properties_at_length(test: Any) -> None:
    """Each property test above, three more runs."""
    for _ in range(3):
        test()
