"""A person at a seat: ``hanabi-ref play --human SEAT`` [HU-play, HU-input, HU-end,
HU-bots, HU-view].

The person is played three ways: keys typed into the real command on a pseudo-terminal;
lines fed to :class:`~hanabi_ref.tools.human.HumanSeat` from a string; and a random person that
reads the screen and types what it finds there (a number of the list, the move in one of
its written forms, or nonsense), against every strategy.
"""

from __future__ import annotations

import functools
import io
import os
import random
import re
import select
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import icontract
import pytest

from hanabi_ref.engine.actions import Action, Discard, Hint, Play
from hanabi_ref.cli import EXIT_OK, main
from hanabi_ref.base.errors import HanabiError
from hanabi_ref.players.runner import play_game
from hanabi_ref.tools.human import BotFailed, GameQuit, HumanSeat, numbered_moves, play_human
from hanabi_ref.engine.cards import Identity
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.show import card_name, knowledge_text
from hanabi_ref.engine.state import Event, GameState
from hanabi_ref.players.strategies import STRATEGIES
from hanabi_ref.players.strategy import BaseStrategy, StrategyFactory
from hanabi_ref.formats.trace import GameRecord, load_trace, replay, replay_states
from hanabi_ref.engine.transition import apply, new_game
from hanabi_ref.engine.view import PlayerView, make_view
from tests.processes import end_session

REPO = Path(__file__).resolve().parents[1]
CELL = re.compile(r"(\d+)\. ((?:play|discard) \d+|hint \d+ \S+)")
PROMPT = re.compile(r"seat (\d+)> $")


# ------------------------------------------------------------------ helpers


def view_after(moves: Sequence[Action] = (), *, players: int = 4, preset: str = "hle", seed: int = 1) -> PlayerView:
    """The acting seat's view after ``moves`` (legal moves played from the deal)."""
    state = new_game(make_config(players, preset=preset), seed)
    for action in moves:
        state = apply(state, action)
    return make_view(state, state.current_player)


def ask(view: PlayerView, lines: str) -> tuple[Action, str]:
    """The move the seat reads from ``lines`` on its turn, and what it showed."""
    screen = io.StringIO()
    action = HumanSeat(view.config, view.seat, io.StringIO(lines), screen).act(view)
    return action, screen.getvalue()


def played(config: GameConfig, factory: StrategyFactory, seat: int, lines: str, *, seed: int,
           strategy_seed: int | None = None) -> tuple[GameRecord, str]:
    """The game of a person typing ``lines``, and the screen; a test failure (not a
    KeyboardInterrupt that stops the test run) if the lines run out first."""
    screen = io.StringIO()
    try:
        record = play_human(config, factory, seat, seed=seed, strategy_seed=strategy_seed, input=io.StringIO(lines),
                            output=screen)
    except GameQuit as stop:
        pytest.fail(f"the game was abandoned ({stop}); the screen ends {screen.getvalue()[-600:]!r}")
    return record, screen.getvalue()


def listed(screen: str) -> dict[int, str]:
    """The numbered moves of the last list on ``screen``, as typed text by number."""
    return {int(number): move for number, move in CELL.findall(screen[screen.rfind("your moves:"):])}


def words_of(config: GameConfig, action: Action) -> str:
    """An action written out from the configuration's own names (not :mod:`hanabi_ref.engine.show`)."""
    if isinstance(action, Hint):
        subject = config.colours[action.subject].lower() if action.kind == "colour" else str(action.subject)
        return f"hint {action.target} {subject}"
    return f"{'play' if isinstance(action, Play) else 'discard'} {action.slot}"


KIND_WEIGHTS = {"hint": 6, "discard": 3, "play": 1}
"""How often the random person picks each kind of move (random plays end games early)."""


class RandomPerson:
    """Input typed by a person who reads the screen: a random move of the last numbered
    list (a hint more often than a play), as its number or written in one of the forms of
    HU-input, and now and then a line that is no legal move."""

    def __init__(self, screen: io.StringIO, rng: random.Random) -> None:
        self.screen = screen
        self.rng = rng

    def readline(self) -> str:
        text = self.screen.getvalue()
        seat = PROMPT.search(text)
        assert seat is not None, f"input asked for without a prompt: {text[-200:]!r}"
        if self.rng.random() < 0.1:
            return self.rng.choice(["jump", "0", "999", "play 9", "hint 9 red", "hint 1 pink", "",
                                    f"hint {seat[1]} 1", "hint 1 value red", "board", "help"]) + "\n"
        if "your moves:" not in text[text.rfind("=== turn"):]:
            return "moves\n"  # the list is shown on request [HU-play]
        moves = list(listed(text).items())
        kinds = sorted({move.split()[0] for _, move in moves})
        kind = self.rng.choices(kinds, [KIND_WEIGHTS[kind] for kind in kinds])[0]
        number, move = self.rng.choice([(n, m) for n, m in moves if m.startswith(kind)])
        return self.rng.choice([str(number), move, self.other_form(move)]) + "\n"

    def other_form(self, move: str) -> str:
        words = move.split()
        if words[0] != "hint":
            return move.upper()
        subject = words[2]
        if subject.isdigit():
            return f"hint {words[1]} value {subject}"
        return f"hint {words[1]} {self.rng.choice(['colour', 'color'])} {subject}"


def person_game(config: GameConfig, factory: StrategyFactory, seat: int, seed: int,
                fallback: str | None = "thesis") -> tuple[GameRecord | HanabiError, str]:
    """A game of a random person at ``seat``: its record (or the error that ended it) and
    the screen."""
    screen = io.StringIO()
    person = RandomPerson(screen, random.Random(seed * 7 + seat))
    try:
        return (play_human(config, factory, seat, seed=seed, input=person, output=screen, fallback=fallback),
                screen.getvalue())
    except HanabiError as error:
        return error, screen.getvalue()


def supported(name: str) -> list[GameConfig]:
    """The configurations (2..5 players, presets hle and thesis) strategy ``name`` plays."""
    configs = []
    for preset in ("hle", "thesis"):
        for players in range(2, 6):
            config = make_config(players, preset=preset)
            try:
                STRATEGIES[name](config, 0, 0)
            except HanabiError:
                continue
            configs.append(config)
    return configs


@functools.cache
def person_games(name: str, games: int, fallback: str | None = "thesis") \
        -> tuple[tuple[GameRecord | HanabiError, GameConfig, int, str], ...]:
    """``games`` games of a random person against strategy ``name``, spread over the
    configurations it plays: (outcome, configuration, seed)."""
    configs = supported(name)
    outcomes = []
    for seed in range(games):
        config = configs[seed % len(configs)]
        outcome, screen = person_game(config, STRATEGIES[name], random.Random(seed).randrange(config.players), seed,
                                      fallback)
        outcomes.append((outcome, config, seed, screen))
    return tuple(outcomes)


# ------------------------------------------------------------------ a real terminal


class Terminal:
    """A command run on a pseudo-terminal: the text it printed so far, keys typed into it."""

    def __init__(self, argv: Sequence[str]) -> None:
        master, slave = os.openpty()
        env = dict(os.environ, PYTHONPATH=str(REPO))
        self.process = subprocess.Popen(list(argv), stdin=slave, stdout=slave, stderr=slave, cwd=REPO, env=env,
                                        start_new_session=True)
        os.close(slave)
        self.master = master
        self.screen = ""
        self.ended = False

    def read_until(self, done: Callable[[str], bool], timeout: float = 30.0) -> str:
        """Read the terminal until ``done(screen)``; the screen (line ends as ``\\n``)."""
        deadline = time.monotonic() + timeout
        while not done(self.screen):
            left = deadline - time.monotonic()
            assert left > 0 and not self.ended, f"waited in vain; the screen ends {self.screen[-1500:]!r}"
            if select.select([self.master], [], [], left)[0]:
                self._read()
        return self.screen

    def _read(self) -> None:
        try:
            chunk = os.read(self.master, 65536)
        except OSError:  # EIO: every end of the terminal's other side is closed
            chunk = b""
        self.ended = not chunk
        self.screen += chunk.decode().replace("\r\n", "\n")

    def prompt(self) -> str:
        """The screen once the command waits at its prompt."""
        return self.read_until(lambda screen: PROMPT.search(screen) is not None)

    def type(self, line: str) -> None:
        before = len(self.screen)
        os.write(self.master, (line + "\n").encode())
        self.read_until(lambda screen: len(screen) > before and line + "\n" in screen[before:])  # the echo

    def finish(self, timeout: float = 30.0) -> int:
        """Read to the end; the exit code."""
        self.read_until(lambda screen: self.ended, timeout)
        code = self.process.wait(timeout)
        os.close(self.master)
        return code


@pytest.mark.checks("HU-play", "HU-input", "HU-end")
def test_a_person_plays_a_game_in_a_terminal() -> None:
    """[HU-play, HU-input, HU-end] the command on a pseudo-terminal: the greeting, the
    board from seat 0 with its own cards hidden, the numbered moves and the prompt; a move
    the rules forbid brings back the prompt after its reason; moves chosen from the screen
    until the game ends; the final score, the summary and exit 0."""
    terminal = Terminal([sys.executable, "-m", "hanabi_ref.cli", "play", "--human", "0", "--strategy", "hat",
                         "--players", "4", "--rules", "hle", "--seed", "1"])
    try:
        screen = terminal.prompt()
        deal = new_game(make_config(4, preset="hle"), 1)
        others = [card_name(deal.config, deal.deck[card_id]) for card_id in deal.hands[1]]
        assert screen.startswith("You are seat 0 of 4")
        assert re.search(r"\n> seat 0 you  #  +#  +#  +#\n", screen)
        assert re.search(r"\n  seat 1 {6}" + " +".join(others) + "\n", screen)
        assert "legal moves: type one" in screen and "   1. play 0" not in screen and screen.endswith("seat 0> ")
        terminal.type("moves")  # the numbered list, on request
        screen = terminal.prompt()
        assert "   1. play 0" in screen and screen.endswith("seat 0> ")
        terminal.type("hint 0 red")
        screen = terminal.prompt()
        assert screen.endswith("seat 0> hint 0 red\nillegal: hint 0 red: 2.16-2a-target: "
                               "a player cannot hint its own hand (erratum E-4)\nseat 0> ")
        turns = 0
        while "=== game over ===" not in screen:
            terminal.type("moves")
            screen = terminal.prompt()
            moves = listed(screen)
            discards = [number for number, move in moves.items() if move.startswith("discard")]
            terminal.type(str(discards[0] if discards else 1))
            turns += 1
            screen = terminal.read_until(lambda text: "=== game over ===" in text or text.endswith("seat 0> "))
        code = terminal.finish()
    finally:
        end_session(terminal.process.pid)  # the command and anything it started
        terminal.process.wait()
    screen = terminal.screen
    final = re.search(r"final score: (\d+)/25\n", screen)
    assert code == EXIT_OK and final is not None and turns >= 2, screen[-2000:]
    assert re.match(rf"score +{final[1]}\n", screen[final.end():]), "the summary follows with the same score"


# ------------------------------------------------------------------ what a turn shows


@pytest.mark.checks("HU-play")
def test_a_turn_shows_the_board_and_numbered_legal_moves() -> None:
    """[HU-play, 2.16-actions] the list numbers every legal move once from 1, plays then
    discards then hints seat by seat; the board is the seat's view; then the prompt."""
    view = view_after([Hint(1, "value", 5)])
    _, screen = ask(view, "moves\n1\n")
    moves = listed(screen)
    legal = view.legal_actions()
    assert sorted(moves) == list(range(1, len(legal) + 1))
    assert sorted(moves.values()) == sorted(words_of(view.config, action) for action in legal)
    kinds = [text.split()[0] for text in moves.values()]
    assert kinds == sorted(kinds, key=["play", "discard", "hint"].index)
    targets = [int(text.split()[1]) for text in moves.values() if text.startswith("hint")]
    assert targets == sorted(targets)
    assert str(view) in screen and screen.index(str(view)) < screen.index("your moves:")
    assert screen.endswith("seat 1> 1\n")


@pytest.mark.checks("HU-play", "HU-view")
def test_news_since_the_last_turn_is_one_sentence_a_move() -> None:
    """[HU-play, HU-view] a seat's turn begins with the moves since its last one, its own
    first, naming a played or discarded card but never a drawn one."""
    config = make_config(4, preset="hle")
    record, text = played(config, STRATEGIES["simple"], 2, "play 0\n" * 30, seed=5)
    turn = text.split("=== turn 6: your move, seat 2 ===\n")[1].split("turn 6 ·")[0]
    news = [line.strip() for line in turn.splitlines()]
    states = replay_states(record.trace)
    own = states[3].history[-1]  # the move of turn 2, the seat's last
    assert own.player == 2 and own.card is not None
    assert news[0] == f"seat 2 plays {card_name(config, Identity(own.card))} from slot 0 " + (
        "(success)" if own.success else "(fails: a strike)")
    assert [line.split()[:2] for line in news] == [["seat", str(s)] for s in (2, 3, 0, 1)]
    assert "draws" not in text


@pytest.mark.checks("HU-input")
def test_help_and_board_show_again_and_reprompt() -> None:
    """[HU-input] ``help`` shows the forms, ``board`` the board and the list again; neither
    is a move."""
    view = view_after()
    action, screen = ask(view, "help\nboard\nmoves\nplay 1\n")
    assert action == Play(1)
    assert "hint SEAT COLOUR" in screen and "quit" in screen
    # the board twice (the turn, board), the list once, on request (moves)
    assert screen.count("legal moves: type one") == 2 and screen.count("your moves:") == 1
    assert screen.count("seat 0> ") == 4


# ------------------------------------------------------------------ input


@pytest.mark.checks("HU-input")
def test_a_number_chooses_that_move_of_the_list() -> None:
    """[HU-input] a number is the move shown with that number."""
    view = view_after([Hint(1, "value", 5), Play(0)])
    for number in (1, 4, 9):
        action, screen = ask(view, f"moves\n{number}\n")
        assert words_of(view.config, action) == listed(screen)[number]
        assert action in view.legal_actions()


@pytest.mark.checks("HU-input")
def test_typed_forms_name_the_move() -> None:
    """[HU-input, SH-parse] ``play SLOT``, ``discard SLOT``, ``hint SEAT red``, its initial,
    ``colour red``/``color red`` and ``hint SEAT 3``/``value 3`` each give that move."""
    view = view_after([Hint(1, "value", 5)])
    config = view.config
    assert ask(view, "play 2\n")[0] == Play(2)
    assert ask(view, "  Discard 0 \n")[0] == Discard(0)
    hints = [action for action in view.legal_actions() if isinstance(action, Hint)]
    for hint in hints:
        target = hint.target
        if hint.kind == "colour":
            name = config.colours[hint.subject].lower()
            forms = [name, f"colour {name}", f"color {name}", name.upper()]
            forms += [name[0]] if [c.lower()[0] for c in config.colours].count(name[0]) == 1 else []
        else:
            forms = [str(hint.subject), f"value {hint.subject}"]
        for form in forms:
            assert ask(view, f"hint {target} {form}\n")[0] == hint, form


REFUSED = [
    # (the moves before: the deal, or hints until no token is left; the line typed; the reason)
    ("deal", "jump 3", "not a move: unknown move 'jump'"),
    ("deal", "play", "not a move: play takes one slot number"),
    ("deal", "hint 1", "not a move: hint takes a seat and a colour or value"),
    ("deal", "hint 1 pink", "not a move: 'pink' is not a clue colour or value here"),
    ("deal", "0", "no move numbered 0 (choose 1.."),
    ("deal", "999", "no move numbered 999 (choose 1.."),
    ("deal", "play 4", "illegal: play 4: 2.16-2c: slot 4 is not in the hand (0..3)"),
    ("deal", "discard 0", "illegal: discard 0: E-2: discarding is not allowed with all 8 hint tokens"),
    ("deal", "hint 0 red", "illegal: hint 0 red: 2.16-2a-target: a player cannot hint its own hand"),
    ("deal", "hint 7 red", "illegal: hint 7 red: 2.16-2a-target: hint target 7 is not a seat (0..3)"),
    ("deal", "hint 1 9", "illegal: hint 1 9: 2.16-2a-value: hint value 9 is not in 1..5"),
    ("deal", "hint 1 red", "illegal: hint 1 red: 2.16-2a-empty: the hint touches no card of seat 1"),
    ("no tokens", "hint 1 4", "illegal: hint 1 4: 2.16-2a-token: no hint token is left (t = 0)"),
]


def prepared(before: str) -> GameState:
    """The state of the table's rows (4 players, hle, deck seed 1): the deal, or the deal
    followed by a legal hint from every seat in turn until no token is left."""
    from hanabi_ref.engine.legality import legal_actions

    state = new_game(make_config(4, preset="hle"), 1)
    while before == "no tokens" and state.clue_tokens:
        state = apply(state, next(a for a in legal_actions(state) if isinstance(a, Hint)))
    return state


@pytest.mark.checks("HU-input")
@pytest.mark.parametrize(("before", "line", "reason"), REFUSED)
def test_bad_input_reprompts_with_the_reason(before: str, line: str, reason: str) -> None:
    """[HU-input, 2.16-2] each kind of bad line (no move, a number off the list, a move
    the rules forbid now) is answered by one line naming the problem (the clause for an
    illegal move) and the prompt again; the next good line is the move."""
    state = prepared(before)
    view = make_view(state, state.current_player)
    good = words_of(view.config, view.legal_actions()[-1])
    action, screen = ask(view, f"{line}\n{good}\n")
    prompt = f"seat {view.seat}> "
    answer = screen.split(f"{prompt}{line}\n")[1]
    assert answer.startswith(reason) and answer.count("\n") == 2 and f"\n{prompt}{good}\n" in answer
    assert action == view.legal_actions()[-1]


@pytest.mark.checks("HU-input")
def test_the_refused_moves_are_refused_by_the_engine_too() -> None:
    """[HU-input, 2.16-2] the moves the table refuses as illegal are illegal in the
    engine's own state, under the clause named (the table's states are what it claims)."""
    from hanabi_ref.engine.legality import illegality
    from hanabi_ref.engine.show import parse_action

    for before, line, reason in REFUSED:
        if reason.startswith("illegal"):
            state = prepared(before)
            problem = illegality(state, parse_action(state.config, line))
            assert problem is not None and reason.split(": ")[2] == problem[0], line


# ------------------------------------------------------------------ the end


@pytest.mark.checks("HU-end")
@pytest.mark.parametrize(("lines", "why"), [("quit\n", "quit"), ("exit\n", "quit"), ("", "end of input"),
                                            ("jump\n", "end of input")])
def test_quit_and_end_of_input_abandon_the_game(lines: str, why: str) -> None:
    """[HU-end] ``quit``/``exit`` and the end of the input raise :class:`GameQuit` (a
    KeyboardInterrupt) after a line saying the game is abandoned."""
    screen = io.StringIO()
    with pytest.raises(GameQuit) as stopped:
        play_human(make_config(4, preset="hle"), STRATEGIES["hat"], 0, seed=1, input=io.StringIO(lines),
                   output=screen)
    assert isinstance(stopped.value, KeyboardInterrupt) and str(stopped.value) == why
    assert screen.getvalue().endswith(f"game abandoned at turn 0 ({why})\n")


@pytest.mark.checks("HU-end")
def test_the_command_exits_130_on_quit_and_end_of_input(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """[HU-end, C-exit, OUT-report] quitting ends ``play`` as an interruption, exit 130,
    after the trace of the moves made so far is written to --out (and a line says so): it
    replays to the turn the game stopped at."""
    out = tmp_path / "game.json"
    for lines in ("1\nquit\n", "1\n"):
        out.unlink(missing_ok=True)
        monkeypatch.setattr(sys, "stdin", io.StringIO(lines))
        code = main(["play", "--human", "1", "--strategy", "simple", "--players", "3", "--seed", "2", "--out", str(out)])
        captured = capsys.readouterr()
        assert code == 130
        assert captured.err == f"hanabi-ref: wrote {out} ({out.stat().st_size:,} bytes)\nhanabi-ref: interrupted\n"
        assert "game abandoned at turn 4" in captured.out
        trace = load_trace(out)
        assert len(trace.actions) == 4 and trace.seed == 2
        assert replay_states(trace)[-1].turns == 4


@pytest.mark.checks("HU-play")
def test_a_seat_that_does_not_exist_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """[HU-play, C-exit] ``--human 4`` with 4 players: one line, exit 2; the library
    refuses it too."""
    code = main(["play", "--human", "4", "--strategy", "hat", "--players", "4", "--rules", "hle"])
    assert code == 2 and capsys.readouterr().err.startswith("hanabi-ref: --human: seat 4 does not exist")
    with pytest.raises(HanabiError, match="seat 4 does not exist"):
        play_human(make_config(4), STRATEGIES["hat"], 4, seed=1, input=io.StringIO(), output=io.StringIO())


@pytest.mark.checks("HU-play", "HU-end")
def test_out_writes_a_trace_that_replays(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    """[HU-play, HU-end, T-trace] ``--out`` with ``--human``: the trace replays to the
    final state the screen and the summary report, and the person's moves are in it."""
    out = tmp_path / "game.json"
    monkeypatch.setattr(sys, "stdin", io.StringIO("jump\n" + "play 0\n" * 40))
    code = main(["play", "--human", "2", "--strategy", "thesis", "--players", "3", "--rules", "hle", "--seed", "8",
                 "--out", str(out)])
    screen = capsys.readouterr().out
    assert code == EXIT_OK
    trace = load_trace(out)
    final = replay(trace)
    assert f"final score: {final.score}/25\n" in screen and re.search(rf"\nturns +{final.turns}\n", screen)
    states = replay_states(trace)
    ours = [action for state, action in zip(states, trace.actions) if state.current_player == 2]
    assert ours and all(action == Play(0) for action in ours)


@pytest.mark.checks("HU-play", "HU-bots")
def test_the_game_is_the_one_without_a_person() -> None:
    """[HU-play, HU-bots] a person who types exactly the moves a bot made at the seat gets
    exactly the bots' game: same deck, bots seeded alike (also with a strategy seed)."""
    config = make_config(4, preset="hle")
    for name, seed, strategy_seed in (("hat", 3, None), ("info", 4, 99), ("thesis", 5, None)):
        bots = play_game(config, STRATEGIES[name], seed=seed, strategy_seed=strategy_seed)
        states = replay_states(bots.trace)
        typed = "".join(f"{words_of(config, action)}\n" for state, action in zip(states, bots.trace.actions)
                        if state.current_player == 1)
        record, _ = played(config, STRATEGIES[name], 1, typed, seed=seed, strategy_seed=strategy_seed)
        assert record.trace == bots.trace and record.final == bots.final


@pytest.mark.checks("HU-end", "HU-view")
def test_the_end_shows_the_last_moves_the_final_board_and_the_score() -> None:
    """[HU-end, HU-view] after the last move: the moves since the seat's last turn, the
    board as the seat sees the final state, and the score."""
    record, screen = played(make_config(3, preset="hle"), STRATEGIES["simple"], 0, "play 0\n" * 40, seed=4)
    end = screen.split("=== game over ===\n")[1]
    final = record.final
    assert str(make_view(final, 0)) in end
    assert end.endswith(f"final score: {final.score}/25\n")
    assert end.startswith("  seat ")


# ------------------------------------------------------------------ what the person sees


@pytest.mark.checks("HU-view")
def test_the_person_sees_only_the_seats_view() -> None:
    """[HU-view, 2.17-view] on every turn of the person, the own hand's row is ``#`` only
    and the row under it is the true knowledge sets; the seat is given only views of its
    own seat; no sentence names a drawn card."""
    config = make_config(4, preset="hle")
    seen: list[PlayerView] = []

    class Watched(HumanSeat):
        def observe(self, view: PlayerView, event: Event) -> None:
            seen.append(view)
            super().observe(view, event)

        def act(self, view: PlayerView) -> Action:
            seen.append(view)
            return super().act(view)

    for seed in range(3):
        screen = io.StringIO()
        person = Watched(config, 2, RandomPerson(screen, random.Random(seed)), screen)
        record = play_game(config, lambda c, s, r: person if s == 2 else STRATEGIES["simple"](c, s, r), seed=seed)
        states = replay_states(record.trace)
        turns = screen.getvalue().split("=== turn ")[1:]
        assert len(turns) == sum(state.current_player == 2 for state in states[:-1]) > 3
        for text in turns:
            check_turn(states[int(text.split(":")[0])], text)
        assert all(type(view) is PlayerView and view.seat == 2 for view in seen)
        assert "draws" not in screen.getvalue()


def check_turn(state: GameState, text: str) -> None:
    """[HU-view] the own hand on the turn's board: ``#`` for every card, then the knowledge."""
    rows = text.splitlines()
    row = next(index for index, line in enumerate(rows) if line.startswith("> seat 2 you"))
    assert rows[row].split()[4:] == ["#"] * len(state.hands[2])
    known = [knowledge_text(state.config, mask, compact=True) for mask in state.knowledge[2]]
    assert rows[row + 1].split() == known


# ------------------------------------------------------------------ the bots


class Failing(BaseStrategy):
    """A bot that fails on its turn."""

    def act(self, view: PlayerView) -> Action:
        raise ValueError("no move found\nsecond line")


class FailingObserver(BaseStrategy):
    """A bot that fails on the first move it sees."""

    def observe(self, view: PlayerView, event: Event) -> None:
        raise KeyError("lost")

    def act(self, view: PlayerView) -> Action:
        return view.legal_actions()[0]


class Violating(BaseStrategy):
    """A bot whose contract fails (a bug of hanabi_ref)."""

    def act(self, view: PlayerView) -> Action:
        raise icontract.ViolationError("X-1: broken")


@pytest.mark.checks("HU-bots")
def test_a_failing_bot_ends_the_game_with_one_line() -> None:
    """[HU-bots] an error a bot raises, choosing its move or observing one, becomes
    :class:`BotFailed` (a HanabiError: one line on the command line) naming the turn, the
    seat, the strategy and what it was doing; a contract violation passes unchanged."""
    config = make_config(3, preset="hle")

    def seats(bot: type[BaseStrategy]) -> StrategyFactory:
        return lambda c, seat, seed: bot() if seat == 1 else STRATEGIES["simple"](c, seat, seed)

    with pytest.raises(BotFailed) as failed:
        play_human(config, seats(Failing), 0, seed=1, input=io.StringIO("play 0\n"), output=io.StringIO(),
                   fallback=None)
    assert str(failed.value) == "turn 1: seat 1 (Failing) failed choosing its move: ValueError: no move found"
    with pytest.raises(BotFailed) as failed:
        play_human(config, seats(FailingObserver), 0, seed=1, input=io.StringIO("play 0\n"), output=io.StringIO(),
                   fallback=None)
    message = str(failed.value)
    assert message.startswith("turn 0: seat 1 (FailingObserver) failed observing the move 'seat 0 plays ")
    assert message.endswith(" from slot 0 (fails: a strike)': KeyError: 'lost'") or message.endswith("(success)': KeyError: 'lost'")
    with pytest.raises(icontract.ViolationError):
        play_human(config, seats(Violating), 0, seed=1, input=io.StringIO("play 0\n"), output=io.StringIO())


@pytest.mark.checks("HU-bots")
def test_a_failing_bot_plays_on_as_the_fallback_and_the_person_is_told() -> None:
    """[HU-bots] by default a bot that fails on a move, choosing or observing, is replaced
    at that moment by the thesis strategy: the game goes on, the person reads one line
    naming the seat, its strategy, what failed and what plays on, and the trace replays;
    a fallback that fails too ends the game with :class:`BotFailed`."""
    config = make_config(3, preset="hle")

    def seats(bot: type[BaseStrategy]) -> StrategyFactory:
        return lambda c, seat, seed: bot() if seat == 1 else STRATEGIES["simple"](c, seat, seed)

    for bot, said in ((Failing, "seat 1 (Failing) failed choosing its move: ValueError: no move found; "
                                "it plays on as the thesis strategy"),
                      (FailingObserver, "seat 1 (FailingObserver) failed observing the move 'seat 0 ")):
        screen = io.StringIO()
        person = RandomPerson(screen, random.Random(3))
        record = play_human(config, seats(bot), 0, seed=1, input=person, output=screen)
        assert record.final.terminal and replay(record.trace) == record.final
        assert said in screen.getvalue() and screen.getvalue().count("it plays on as the thesis strategy") == 1
    screen = io.StringIO()
    with pytest.raises(BotFailed):
        play_human(config, seats(Failing), 0, seed=1, input=RandomPerson(screen, random.Random(3)),
                   output=screen, fallback=lambda c, seat, seed: Failing())


@pytest.mark.checks("HU-bots", "S-foreign-detect")
def test_a_bot_that_cannot_read_a_hint_plays_on_on_the_command_line(monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """[HU-bots, S-foreign, C-exit] a person's colour hint that the recommendation
    strategy's code does not decode: every seat of it leaves the code, the person is told
    once per seat, nothing fails; the game goes on to the end of the input (exit 130, one
    line), never a traceback."""
    monkeypatch.setattr(sys, "stdin", io.StringIO("hint 0 red\n"))
    code = main(["play", "--human", "1", "--strategy", "recommendation", "--players", "4", "--rules", "hle",
                 "--seed", "1"])
    captured = capsys.readouterr()
    assert (code, captured.err) == (130, "hanabi-ref: interrupted\n")
    for seat in (0, 2, 3):
        assert captured.out.count(f"seat {seat} stops reading moves by its convention (turn 1: H-code-error: ") == 1
    assert "failed" not in captured.out


# ------------------------------------------------------------------ a random person


CONVENTION_BOTS = ("hat", "hat-classic", "recommendation", "info", "info-source", "info-search", "learned-recommendation")
"""The strategies that read every partner's moves by their convention: a person's moves
made them fail (H-code-error, I-questions) until they learnt to leave it (S-foreign); the
learned team leaves it too since it checks its partners' moves (S-foreign-order) and
reveals (S-foreign-detect)."""
GAMES = 16
"""Two games for each configuration a strategy plays (at most 8: 2-5 players, hle and thesis);
400 in the deep set (:func:`test_many_games_with_a_random_person_end_cleanly`)."""


@pytest.mark.checks("HU-play", "HU-input", "HU-bots")
@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_games_with_a_random_person_end_cleanly(name: str) -> None:
    """[HU-play, HU-input, HU-bots, T-trace] 16 games of a person typing random moves (and
    nonsense) against each strategy, 2-5 players: each ends with a trace of legal moves
    that replays to its final state; a bot that failed was replaced and the person told."""
    outcomes = person_games(name, GAMES)
    assert len(outcomes) == GAMES
    replaced = 0
    for outcome, config, seed, screen in outcomes:
        assert isinstance(outcome, GameRecord), (seed, outcome)
        assert outcome.final.terminal and replay(outcome.trace) == outcome.final, (config, seed)
        replaced += "it plays on as the thesis strategy" in screen
    if name not in CONVENTION_BOTS:
        assert replaced == 0


@pytest.mark.checks("HU-bots", "S-foreign")
@pytest.mark.parametrize("name", CONVENTION_BOTS)
def test_without_a_fallback_the_convention_bots_do_not_fail(name: str) -> None:
    """[HU-bots, S-foreign] without the fallback, the strategies that read moves by their
    convention play the random person's games to the end (they failed on some before
    S-foreign), and tell the person when they leave their convention."""
    outcomes = person_games(name, GAMES, None)
    assert all(isinstance(outcome, GameRecord) for outcome, _, _, _ in outcomes)
    assert any("stops reading moves by its convention" in screen for _, _, _, screen in outcomes)


@pytest.mark.checks("HU-play", "HU-bots")
@pytest.mark.deep
@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_many_games_with_a_random_person_end_cleanly(name: str) -> None:
    """[HU-play, HU-bots, T-trace] 400 games a strategy: every game ends with a replaying
    trace (failed bots replaced by the fallback), never an exception."""
    for outcome, config, seed, _ in person_games(name, 400):
        assert isinstance(outcome, GameRecord), (seed, outcome)
        assert replay(outcome.trace) == outcome.final, (config, seed)


@pytest.mark.checks("HU-play")
def test_the_numbered_order_is_plays_discards_hints() -> None:
    """[HU-play] :func:`numbered_moves` keeps every legal move once, in the documented order."""
    view = view_after([Hint(1, "value", 5)])
    moves = numbered_moves(view.legal_actions())
    assert sorted(map(repr, moves)) == sorted(map(repr, view.legal_actions()))
    ranks = [0 if isinstance(m, Play) else 1 if isinstance(m, Discard) else 2 for m in moves]
    assert ranks == sorted(ranks)


@pytest.mark.checks("HU-partner", "NAT-bot", "NAT-explain")
def test_the_default_partner_reads_clues_and_explains_them(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """[HU-partner, NAT-explain] without --strategy the bots are the natural bot; with
    --explain the seat a person clues says, in one line, what it took from the clue."""
    config = make_config(3, "hanab-live")
    state = new_game(config, 2)
    value = state.deck[state.hands[1][-1]] % config.values + 1  # seat 1's newest card
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"hint 1 {value}\n"))
    code = main(["play", "--human", "0", "--players", "3", "--rules", "hanab-live", "--seed", "2", "--explain"])
    out = capsys.readouterr().out
    assert code == 130
    assert re.search(r"^  seat 1: slot 1 is .*\(.*\)", out, re.M), out
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"hint 1 {value}\n"))
    assert main(["play", "--human", "0", "--players", "3", "--rules", "hanab-live", "--seed", "2"]) == 130
    assert "seat 1: slot" not in capsys.readouterr().out  # said only with --explain


@pytest.mark.checks("HU-partner")
def test_explain_needs_a_person(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--players", "3", "--strategy", "natural", "--explain"]) == 2
    assert capsys.readouterr().err == "hanabi-ref: --explain: only with --human SEAT\n"


@pytest.mark.checks("SH-order", "HU-play")
def test_a_person_under_hanab_live_rules_sees_hands_newest_first(monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """[SH-order] under hanab-live the person's board shows every hand newest card first,
    with the slots of its own hand above it; --hand-order oldest-left gives the other
    layout (no slot line: positions are slots)."""
    config = make_config(3, preset="hanab-live")
    deal = new_game(config, 5)
    others = [card_name(config, deal.deck[card_id]) for card_id in deal.hands[1]]
    for order, expected, slot_line in ((None, others[::-1], True), ("oldest-left", others, False)):
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        argv = ["play", "--human", "0", "--players", "3", "--seed", "5"] + (["--hand-order", order] if order else [])
        assert main(argv) == 130
        screen = capsys.readouterr().out
        assert re.search(r"\n  seat 1 {6}" + " +".join(expected) + "\n", screen), screen
        slots = " +".join(f"slot {slot}" for slot in range(len(deal.hands[0]))[::-1])
        assert bool(re.search(r"\n {14}" + slots + "\n> seat 0 you", screen)) == slot_line
