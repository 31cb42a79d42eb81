"""A person at one seat of a game against strategies: ``hanabi-ref play --human SEAT``
[HU-play, HU-input, HU-end, HU-bots, HU-view].

spec/human.md.  The person is a strategy like any other: :class:`HumanSeat` sits at the
seat, :func:`play_human` seats it among the bots and runs the game with
:func:`hanabi_ref.players.runner.play_game`, so the engine, the views and the bots are exactly
those of a game without a person.  The seat receives its :class:`PlayerView` and the
public events, and shows nothing else (2.17-view).  Text is read line by line from a
stream, so a terminal, a pipe or a test's string serve alike.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Protocol, TextIO

import icontract

from hanabi_ref.engine.actions import Action, Discard, Play
from hanabi_ref.base.errors import HanabiError
from hanabi_ref.players.runner import GameMoves
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.show import ParseError, action_text, event_text, parse_action, view_board
from hanabi_ref.engine.state import Event, GameState, score
from hanabi_ref.players.strategy import BaseStrategy, Strategy, StrategyFactory, observes
from hanabi_ref.formats.trace import GameRecord, Trace
from hanabi_ref.engine.view import PlayerView, view_action_problem
from hanabi_ref.engine.tables import tables_for

__all__ = ["HELP", "BotFailed", "GameQuit", "HumanSeat", "LineSource", "MoveRefused", "numbered_moves", "play_human",
           "read_move"]

HELP = """\
Type the number of a move from the list, or the move itself:
  play SLOT            play the card in SLOT of your hand (slots count from 0)
  discard SLOT         discard the card in SLOT
  hint SEAT COLOUR     hint seat SEAT's cards of a colour: hint 3 red, hint 3 r, hint 3 colour red
  hint SEAT VALUE      hint seat SEAT's cards of a value: hint 3 4, hint 3 value 4
  moves                list the legal moves, numbered
  board                show the board again
  help                 show this text
  quit                 stop the game (end of input, Ctrl-D, stops it too)"""

QUIT_WORDS = frozenset({"quit", "exit"})

MOVES_PER_LINE = 4


class LineSource(Protocol):
    """Where the person's lines come from: a terminal, a pipe, a test's text."""

    def readline(self) -> str:
        """The next line with its end, or "" at the end of the input."""
        ...


class GameQuit(KeyboardInterrupt):
    """[HU-end] The person typed ``quit`` or closed the input: the game is abandoned.

    A :class:`KeyboardInterrupt`, as Ctrl-C is: it passes every ``except Exception`` of
    the engine and the bots on its way out, and the command line reports it as an
    interruption (exit 130)."""


class MoveRefused(HanabiError):
    """[HU-input] Text that is no legal move now; the message is the reason, one line."""


class BotFailed(HanabiError):
    """[HU-bots] A bot's strategy raised an error during a game with a person, so the game
    cannot go on: the message names the turn, the seat, its strategy, what it was doing
    and the error, in one line (the error itself is the ``__cause__``)."""


# ------------------------------------------------------------ reading a move


def _display_key(action: Action) -> tuple[int, int]:
    """Plays first, then discards, then hints by target seat (the catalogue's order
    within each)."""
    if isinstance(action, Play):
        return (0, 0)
    if isinstance(action, Discard):
        return (1, 0)
    return (2, action.target)


def numbered_moves(legal: Sequence[Action]) -> list[Action]:
    """[HU-play] the legal moves in the order they are numbered: plays, discards, then
    hints seat by seat; move k of the list is number k + 1."""
    return sorted(legal, key=_display_key)


def moves_text(config: GameConfig, moves: Sequence[Action]) -> str:
    """[HU-play] the numbered moves, a few to a line, each kind (and each hinted seat) on
    lines of its own: ``   1. play 0        2. play 1``."""
    lines: list[str] = []
    row: list[str] = []
    for number, action in enumerate(moves, 1):
        if row and (len(row) == MOVES_PER_LINE or _display_key(action) != _display_key(moves[number - 2])):
            lines.append("".join(row).rstrip())
            row = []
        row.append(f"{number:>4}. {action_text(config, action)}".ljust(20))
    if row:
        lines.append("".join(row).rstrip())
    return "\n".join(lines)


def read_move(view: PlayerView, moves: Sequence[Action], text: str) -> Action:
    """[HU-input] the move ``text`` names: a number of the list ``moves`` or a move in
    words (:func:`hanabi_ref.engine.show.parse_action`); :class:`MoveRefused` with the reason,
    one line, for text that names no legal move now."""
    words = text.strip()
    if words.isdigit():
        if not 1 <= int(words) <= len(moves):
            raise MoveRefused(f"no move numbered {words} (choose 1..{len(moves)}, or type a move)")
        return moves[int(words) - 1]
    try:
        action = parse_action(view.config, words)
    except ParseError as error:
        raise MoveRefused(f"not a move: {error}") from None
    problem = view_action_problem(view, action)  # [2.16-2] the engine's predicate, from the view
    if problem is not None:
        raise MoveRefused(f"illegal: {words}: {problem[0]}: {problem[1]}")
    if action not in moves:  # the predicate and the enumerator disagree: a bug in us
        raise icontract.ViolationError(f"2.16-actions: {action!r} passes action_problem but is not listed")
    return action


# ------------------------------------------------------------ the seat


class HumanSeat(BaseStrategy):
    """[HU-play, HU-view] The seat a person plays: on its turn it shows the moves since
    the last one, the board as the seat sees it and the legal moves numbered, and reads a
    move [HU-input]; ``quit`` or the end of the input ends the game [HU-end].  All it is
    given is the seat's views and the public events (2.17-view)."""

    def __init__(self, config: GameConfig, seat: int, input: LineSource, output: TextIO, order: str | None = None) -> None:
        self.config = config
        self.seat = seat
        self.order = order
        """[SH-order] the hands' layout on its boards (None: the preset's)"""
        self._input = input
        self._output = output
        self._news: list[str] = []
        self._mid_line = False
        self.last_view: PlayerView | None = None
        """the latest view the seat was given (the final board at the end)"""

    def observe(self, view: PlayerView, event: Event) -> None:
        """[HU-play, 2.17-history] remember the move as a sentence, to show on the next turn;
        the card drawn is not named (the seat's view does not name its own)."""
        self._news.append(event_text(self.config, event, view.hands))
        self.last_view = view

    def act(self, view: PlayerView) -> Action:
        """[HU-play, HU-input] show the turn and read moves until one is legal."""
        self.last_view = view
        moves = numbered_moves(view.legal_actions())
        self._write(f"\n=== turn {view.turns}: your move, seat {self.seat} ===\n")
        self._show_news()
        self._show_board(view, moves)
        while True:
            text = self._ask()
            word = text.lower()
            if word in QUIT_WORDS:
                raise GameQuit("quit")
            if word in ("help", "?"):
                self._write(HELP + "\n")
            elif word == "board":
                self._show_board(view, moves)
            elif word in ("moves", "list"):
                self._write(f"your moves:\n{moves_text(self.config, moves)}\n")
            else:
                try:
                    return read_move(view, moves, text)
                except MoveRefused as refusal:
                    self._write(f"{refusal}\n")

    def greet(self) -> None:
        """[HU-play] say which seat the person has and how to play."""
        self._write(f"You are seat {self.seat} of {self.config.players} ({self.config.variant}, "
                    f"rules {self.config.preset}). Type help for the forms of a move, quit to stop.\n")

    def finish(self, final: GameState) -> None:
        """[HU-end] the moves since the last turn, the final board from the seat's view and
        the score."""
        self._write("\n=== game over ===\n")
        self._show_news()
        if self.last_view is not None:
            self._write(f"{view_board(self.last_view, self.order)}\n")
        self._write(f"final score: {score(final)}/{tables_for(self.config).max_score}\n")

    def tell(self, line: str) -> None:
        """[HU-bots] a line for the person, shown with the moves since the last turn."""
        self._news.append(line)

    def _show_news(self) -> None:
        for line in self._news:
            self._write(f"  {line}\n")
        self._news.clear()

    def _show_board(self, view: PlayerView, moves: Sequence[Action]) -> None:
        """[HU-play] the board; the moves are listed on request (``moves``)."""
        self._write(f"{view_board(view, self.order)}\n{len(moves)} legal moves: type one (play 0, discard 1, hint 2 red, hint 2 4), "
                    f"or moves to list them numbered, help for more\n")

    def _ask(self) -> str:
        """One line of input; [HU-end] its end stops the game.  Text from a pipe is
        echoed, so that a scripted game reads like one typed at a terminal."""
        self._write(f"seat {self.seat}> ")
        self._mid_line = True
        line = self._input.readline()
        if not line:
            raise GameQuit("end of input")
        self._mid_line = False
        if not _is_terminal(self._input):
            self._write(line if line.endswith("\n") else line + "\n")
        return line.strip()

    def abandon(self, stop: KeyboardInterrupt) -> None:
        """[HU-end] say that the game is abandoned, and why (``quit``, the end of the
        input, or an interruption)."""
        why = str(stop) if isinstance(stop, GameQuit) else "interrupted"
        turn = "" if self.last_view is None else f" at turn {self.last_view.turns}"
        self._write(("\n" if self._mid_line else "") + f"game abandoned{turn} ({why})\n")

    def _write(self, text: str) -> None:
        self._output.write(text)
        self._output.flush()


# ------------------------------------------------------------ the bots


FALLBACK = "thesis"
"""[HU-bots] the strategy a bot that cannot follow a person's moves plays on as: the
thesis' Algorithm 4.6, which reads nothing but the seat's view (it needs no convention
and observes nothing, so it takes over at any move)."""


class _Bot(BaseStrategy):
    """[HU-bots] A bot's strategy as it is, every call passed on.  A strategy written for
    partners that follow its convention may raise on a person's move; the seat then plays
    on as ``fallback`` (said to the person in one line), or, without one or when the
    fallback fails too, the error becomes :class:`BotFailed` naming the seat.  A contract
    violation is a bug in us and passes unchanged."""

    def __init__(self, strategy: Strategy, seat: int, fallback: Callable[[], Strategy] | None = None,
                 tell: Callable[[str], None] | None = None, explain: bool = False) -> None:
        self.strategy = strategy
        self.seat = seat
        self.fallback = fallback
        self.tell = tell
        self.replaced = False
        self.explain = explain
        self.left: str | None = None
        self.told = 0

    def act(self, view: PlayerView) -> Action:
        try:
            action = self.strategy.act(view)
        except icontract.ViolationError:
            raise
        except Exception as error:
            self.replace(view.turns, "choosing its move", error)
            return self.act(view)
        self.report()
        return action

    def report(self) -> None:
        """[HU-bots, S-foreign, NAT-explain] tell the person, in one line each, that this bot
        left its convention, and (``explain``) what it took from the clues it received."""
        if self.tell is None:
            return
        left = getattr(self.strategy, "left", None)
        if isinstance(left, str) and self.left is None:
            self.left = left
            self.tell(f"seat {self.seat} stops reading moves by its convention ({left}); "
                      f"it plays on as the {FALLBACK} strategy")
        heard = getattr(self.strategy, "heard", None)
        if self.explain and isinstance(heard, list):
            for line in heard[self.told:]:
                self.tell(str(line))
            self.told = len(heard)

    def replace(self, turn: int, doing: str, error: Exception) -> None:
        """[HU-bots] put the fallback in the failed strategy's place, or raise
        :class:`BotFailed` (no fallback, or the fallback is what failed)."""
        failure = self.failure(turn, doing, error)
        if self.fallback is None or self.replaced:
            raise failure from error
        self.strategy, self.replaced = self.fallback(), True
        if self.tell is not None:
            self.tell(f"{str(failure).removeprefix(f'turn {turn}: ')}; it plays on as the {FALLBACK} strategy")

    def failure(self, turn: int, doing: str, error: Exception) -> BotFailed:
        """The one-line error of this seat's failure."""
        name = type(self.strategy).__name__
        detail = str(error).splitlines()[0] if str(error) else ""
        return BotFailed(f"turn {turn}: seat {self.seat} ({name}) failed {doing}: {type(error).__name__}"
                         + (f": {detail}" if detail else ""))


class _ObservingBot(_Bot):
    """[HU-bots] :class:`_Bot` for a strategy that observes: ``observe`` is passed on too
    (to the fallback only if it observes)."""

    def observe(self, view: PlayerView, event: Event) -> None:
        if self.replaced and not observes(self.strategy):
            return
        try:
            self.strategy.observe(view, event)
        except icontract.ViolationError:
            raise
        except Exception as error:
            move = event_text(view.config, event, view.hands)
            self.replace(event.turn, f"observing the move '{move}'", error)
            return
        self.report()


def as_bot(strategy: Strategy, seat: int, fallback: Callable[[], Strategy] | None = None,
           tell: Callable[[str], None] | None = None, explain: bool = False) -> _Bot:
    """[HU-bots] ``strategy`` at ``seat``, its errors named, ``fallback`` (if any) taking
    over when it fails; it observes exactly when the strategy does (the runner builds
    views for observers only); ``explain``: it says what it took from clues [NAT-explain]."""
    if observes(strategy):
        return _ObservingBot(strategy, seat, fallback, tell, explain)
    return _Bot(strategy, seat, fallback, tell, explain)


class _Seating:
    """[HU-play, HU-bots] The factory of a game with a person: the person at its seat, the
    bots of ``factory`` (built with the seat and seed the runner gives) everywhere else,
    each with the fallback of ``fallback`` (a factory, or None for none)."""

    def __init__(self, person: HumanSeat, factory: StrategyFactory, fallback: StrategyFactory | None,
                 explain: bool = False) -> None:
        self.person = person
        self.factory = factory
        self.fallback = fallback
        self.explain = explain

    def __call__(self, config: GameConfig, seat: int, seed: int) -> Strategy:
        if seat == self.person.seat:
            return self.person
        fallback = self.fallback
        spare = None if fallback is None else (lambda: fallback(config, seat, seed))
        return as_bot(self.factory(config, seat, seed), seat, spare, self.person.tell, self.explain)


def _is_terminal(stream: LineSource) -> bool:
    isatty: Callable[[], bool] | None = getattr(stream, "isatty", None)
    return bool(isatty is not None and isatty())


def play_human(
    config: GameConfig,
    factory: StrategyFactory,
    seat: int,
    *,
    seed: int,
    strategy_seed: int | None = None,
    deck: Sequence[int] | None = None,
    input: LineSource | None = None,
    output: TextIO | None = None,
    fallback: StrategyFactory | None | str = FALLBACK,
    explain: bool = False,
    order: str | None = None,
) -> GameRecord:
    """[HU-play] play one game with a person at ``seat`` and ``factory``'s strategies at
    the others, reading moves from ``input`` and writing to ``output`` (standard input and
    output by default); the record is :func:`hanabi_ref.players.runner.play_game`'s, the bots seeded
    as there, so the trace replays [T-trace].  :class:`GameQuit` when the person stops
    and :class:`KeyboardInterrupt` at Ctrl-C, each after a line saying so and carrying, once
    the game has begun, the trace of the moves made so far as ``trace`` [HU-end];
    ``fallback``: the strategy (a name or a factory) a bot that fails on the person's
    moves plays on as, None to end the game with :class:`BotFailed` instead [HU-bots]."""
    if not 0 <= seat < config.players:
        raise HanabiError(f"seat {seat} does not exist ({config.players} players: seats 0..{config.players - 1})")
    person = HumanSeat(config, seat, sys.stdin if input is None else input, sys.stdout if output is None else output,
                       order)
    person.greet()
    try:
        if isinstance(fallback, str):
            from hanabi_ref.players.strategies import STRATEGIES

            fallback = STRATEGIES[fallback]
        seating = _Seating(person, factory, fallback, explain)
        game = GameMoves(config, seating, seed=seed, deck=deck, strategy_seed=strategy_seed)  # play_game's game
    except KeyboardInterrupt as stop:
        person.abandon(stop)
        raise
    try:
        turn = game.turn
        while turn is not None:
            turn = game.send(game.strategies[turn[0]].act(turn[1]))
    except KeyboardInterrupt as stop:
        person.abandon(stop)
        stop.trace = game.trace_so_far()  # type: ignore[attr-defined]  # [HU-end] kept for --out
        raise
    record = game.record()
    person.finish(record.final)
    return record
