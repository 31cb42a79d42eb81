"""Seats played by other processes: the game's side of the bot protocol [ISO-seat,
ISO-protocol, ISO-timeout, ISO-failures, ISO-changes, ISO-games].

:class:`IsolatedFactory` is a :class:`~hanabi_ref.players.strategy.StrategyFactory` like any
other, so :func:`~hanabi_ref.players.runner.play_game` and the simulation runner play isolated
seats and bots unchanged.  Each seat is one process (:class:`BotProcess`), started at
the seat's first game and kept for the next ones (``new_game`` starts each); the
:class:`IsolatedSeat` of a game forwards ``observe`` and ``act`` to it as JSON lines.

``observe`` is answered with ``{"ok": true}`` and nothing the game needs, so its answer
is read only when the seat is next asked to act (or the game ends): the seats think
about a move at the same time, and the game waits only for the seat that acts.

When every seat's process plays many games at once, :meth:`IsolatedFactory.play_games`
(which the simulation runner calls with a chunk's games) plays them together
(:class:`_Batch`): each process is written to about twice per round of all the games
rather than twice per move, and a write to a pipe, which wakes the process reading it,
is what one game at a time spends most of its time on.  The views' text is written with
orjson.

Whatever a seat's process does wrong (an answer that is not JSON or breaks the schema,
no answer in time, an exit, a refusal) stops that process's whole group and raises
:class:`SeatFailure`, one line naming the seat, the turn and what it did; an illegal
action is refused by the game (:class:`~hanabi_ref.players.strategy.StrategyError`, which names
the seat and the turn as well).
"""

from __future__ import annotations

import json
import os
import shlex
import time
from collections import deque
from collections.abc import Sequence
from types import TracebackType
from typing import Any, Final

import orjson

from hanabi_ref.engine.actions import Action
from hanabi_ref.base.errors import ConfigError, HanabiError
from hanabi_ref.players.runner import GameMoves, game_outcome
from hanabi_ref.tools.isolation.protocol import PROTOCOL, VERSION, answer_violation, is_plain_answer
from hanabi_ref.tools.isolation.wire import action_from_wire, event_to_json, view_changes, view_to_json
from hanabi_ref.tools.pipes import QUIT_WAIT, LineProcess, one_line, quote, remember
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import config_to_json
from hanabi_ref.engine.state import Event
from hanabi_ref.formats.trace import GameRecord
from hanabi_ref.engine.view import PlayerView, ViewMaker

MOVE_TIMEOUT: Final = 10.0
"""[ISO-timeout] seconds a seat may take to answer a request, by default (``--move-timeout``)."""

START_TIMEOUT: Final = 60.0
"""[ISO-timeout] seconds a seat's process may take to answer ``hello``, its first request,
if the move timeout is shorter: starting an interpreter and loading a bot can take
seconds on a busy machine, which says nothing of how fast the bot moves."""

_OK_LINE: Final = b'{"ok":true}'


class SeatFailure(HanabiError):
    """[ISO-failures] a seat's process failed; the message names the seat, the turn and
    what the process did."""


class SeatCommandError(ConfigError):
    """A seat's command line that cannot be parsed or started (a usage error)."""


def split_command(command: str, option: str = "--bot") -> list[str]:
    """``command`` as an argument vector, or :class:`SeatCommandError` naming ``option``."""
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise SeatCommandError(f"{option}: cannot parse the command: {error}") from None
    if not argv:
        raise SeatCommandError(f"{option}: the command is empty")
    return argv


class BotProcess(LineProcess):
    """One seat's process, spoken to in the bot protocol [ISO-protocol, ISO-timeout]."""

    def __init__(self, argv: list[str], seat: int, timeout: float = MOVE_TIMEOUT, option: str = "--bot") -> None:
        self.seat = seat
        self.option = option
        self.name = os.path.basename(argv[0])
        self.updates: str | None = None
        """[ISO-changes] "full" or "changes", as the hello answer said (None until read)"""
        self.games: str | None = None
        """[ISO-games] "one" or "many", as the hello answer said (None until read)"""
        self._turn = 0
        self._op = "hello"
        self._pending: deque[tuple[str, float, int]] = deque()
        """requests sent and not yet answered: op, time sent, turn"""
        self._last_read = 0.0
        self._queue: list[tuple[str, str, int]] = []
        """requests not yet sent: op, line, turn"""
        self._known: dict[tuple[str, bytes], dict[str, Any]] = {}
        """answer lines read and checked, by op and line"""
        self.posted = 0
        """requests posted so far"""
        self.answered = 0
        """answers read so far (the bot answers in order: those of the first requests posted)"""
        super().__init__(argv, timeout)
        self.post({"op": "hello", "protocol": PROTOCOL, "version": VERSION}, 0)
        self.flush()  # the process starts up meanwhile

    @property
    def ended(self) -> bool:
        """Whether the process was stopped (it cannot play another game)."""
        return self._ended

    def _failure(self, text: str) -> SeatFailure:
        return SeatFailure(f"seat {self.seat} ({self.name}), turn {self._turn}: {text}")

    def _usage_error(self, text: str) -> SeatCommandError:
        return SeatCommandError(f"{self.option}: {text}")

    def _wait(self, deadline: float, what: str, allowed: float | None = None) -> list[int]:
        """[ISO-failures] as for any child; a seat whose process exited by itself while
        something it started holds its stdout open is reported as exited, not as late."""
        try:
            return super()._wait(deadline, what, allowed)
        except SeatFailure:
            how = self._how_it_ended()
            if how is None:  # still running when we ended it: late
                raise
            raise self._failure(f"{how} while answering {self._op}{self._stderr_note()}") from None

    # ------------------------------------------------------------ requests

    def post(self, request: dict[str, Any] | str, turn: int) -> None:
        """Queue ``request`` (an object, or its JSON text and ``op``): it is sent with the
        next request that needs its answer (:meth:`flush`), and its answer is read then
        [ISO-timeout]."""
        if isinstance(request, str):
            op = request[7:request.index('"', 7)]  # the text starts with {"op":"
        else:
            op, request = str(request["op"]), json.dumps(request, separators=(",", ":"))
        self._queue.append((op, request, turn))
        self.posted += 1

    def flush(self) -> None:
        """Send every queued request, in one write."""
        if not self._queue:
            return
        queue, self._queue = self._queue, []
        sent = time.monotonic()
        self._turn = queue[0][2]
        data = "\n".join(text for _, text, _ in queue) + "\n"
        self._send(queue[0][0], data.encode("utf-8"), sent + self.timeout)
        self._pending.extend((op, sent, turn) for op, _, turn in queue)

    def forget_queue(self) -> None:
        """Drop the requests not sent yet (those of a game that ended by an error)."""
        self.posted -= len(self._queue)
        self._queue.clear()

    def collect(self) -> dict[str, Any]:
        """Read the answer of every request sent; the last one's [ISO-timeout]: each is due
        ``timeout`` seconds after the later of its request being sent and the answer
        before it being read."""
        self.flush()
        answer: dict[str, Any] = {"ok": True}
        while self._pending:
            answer = self._next_answer()[1]
        return answer

    def next_act(self) -> dict[str, Any]:
        """[ISO-games] the answer of the first act request sent and not yet answered
        (reading the answers before it); what is queued meanwhile waits for the next
        :meth:`flush`."""
        while self._pending:
            op, answer = self._next_answer()
            if op == "act":
                return answer
        raise self._give_up("no act request outstanding")

    def _next_answer(self) -> tuple[str, dict[str, Any]]:
        """[ISO-timeout] the op and answer of the first request sent and not yet answered."""
        op, sent, turn = self._pending[0]
        self._turn, self._op = turn, op
        allowed = max(self.timeout, START_TIMEOUT) if op == "hello" else self.timeout
        line = self._read_line(op, max(sent, self._last_read) + allowed, allowed)
        self._last_read = time.monotonic()
        self._pending.popleft()
        answer = self._answer(op, line)
        self.answered += 1
        if op == "hello":
            self.name = one_line(str(answer.get("name", self.name)), 60)
            self.updates = str(answer.get("updates", "full"))
            self.games = str(answer.get("games", "one"))
        return op, answer

    def request(self, request: dict[str, Any] | str, turn: int) -> dict[str, Any]:
        """Send ``request`` and read its answer (and those of the requests before it)."""
        self.post(request, turn)
        return self.collect()

    def plays_many(self) -> bool:
        """[ISO-games] whether the bot plays many games at once."""
        if self.games is None:
            self.collect()
        return self.games == "many"

    def wants_changes(self) -> bool:
        """[ISO-changes] whether the bot asked for the changed fields of its views only."""
        if self.updates is None:
            self.collect()
        return self.updates == "changes"

    def _answer(self, op: str, line: bytes) -> dict[str, Any]:
        """[ISO-failures, ISO-schema] the answer line as a valid answer with ``"ok": true``
        (a line read and checked before is not read again: bots repeat their answers)."""
        if line == _OK_LINE and op != "act":
            return {"ok": True}
        known = self._known.get((op, line))
        if known is not None:
            return known
        answer = self._json_answer(op, line)
        if not is_plain_answer(op, answer):
            violation = answer_violation(op, answer)
            if violation is not None:
                raise self._give_up(f"answer to {op} is outside the protocol: {violation}")
            assert isinstance(answer, dict)  # the schema says so
            if answer["ok"] is not True:
                raise self._give_up(f"failed to answer {op}: {quote(answer['error'])}")
        assert isinstance(answer, dict)  # the check says so
        remember(self._known, (op, line), answer, line)
        return answer

    # ------------------------------------------------------------ the end

    def close(self) -> None:
        """[ISO-lifecycle] ask the bot to quit (unless answers are outstanding) and close
        its input, give it a moment to exit, then end its whole process group."""
        if self._ended:
            return
        try:
            if not self._pending and not self._queue and self._process.poll() is None:
                deadline = time.monotonic() + min(self.timeout, QUIT_WAIT)
                self._send("quit", b'{"op":"quit"}\n', deadline)
                if self._process.stdin is not None:
                    self._process.stdin.close()  # and the end of its input: a bot may wait for that
                self._drain_until_exit(deadline)
        except SeatFailure:
            pass
        finally:
            self._end()


class Encoder:
    """JSON text of the values of views, each value written once per move [ISO-changes]:
    the views of one state share most of their fields (the same objects), so the seats'
    requests after a move share their text."""

    def __init__(self) -> None:
        self._event: Event | None = None
        self._event_text = ""
        self._texts: dict[int, tuple[object, str]] = {}

    def event(self, event: Event) -> str:
        """The event's text; a new event starts a new move."""
        if event is not self._event:
            self._event, self._texts = event, {}
            self._event_text = _dumps(event_to_json(event))
        return self._event_text

    def changes(self, changes: dict[str, Any]) -> str:
        """The text of a changes object, reusing the text of values written already."""
        texts = self._texts
        parts = []
        for name, value in changes.items():
            kind = type(value)
            if kind is int:
                parts.append(f'"{name}":{value}')
                continue
            if kind is not tuple:
                parts.append(f'"{name}":{_dumps(value)}')  # a boolean, or None
                continue
            known = texts.get(id(value))
            if known is None or known[0] is not value:
                known = texts[id(value)] = (value, _dumps(value))
            parts.append(f'"{name}":{known[1]}')
        return "{" + ",".join(parts) + "}"


def _dumps(value: object) -> str:
    return orjson.dumps(value).decode()


class IsolatedSeat:
    """A seat's strategy in another process, seen from the game [ISO-seat]: a
    :class:`~hanabi_ref.players.strategy.Strategy` whose ``observe`` and ``act`` are requests.
    ``game``: the name of its game in its process, when that process plays many games
    at once [ISO-games]."""

    def __init__(self, bot: BotProcess, factory: IsolatedFactory, game: int | None = None) -> None:
        self._bot = bot
        self._factory = factory
        self._last: PlayerView | None = None
        self._game = game
        self._tag = "" if game is None else f'"game":{game},'

    @property
    def name(self) -> str:
        """The name the seat's process gave in its hello answer."""
        return self._bot.name

    def _view(self, view: PlayerView) -> str:
        """[ISO-view, ISO-changes] the view as the bot wants it, as the text of a
        request's member: whole, or the fields that changed since the last view it was
        sent in this game."""
        last, self._last = self._last, view
        if last is None or not self._bot.wants_changes():
            return f'"view":{_dumps(view_to_json(view))}'
        return f'"changes":{self._factory.encoder.changes(view_changes(view, last))}'

    def observe(self, view: PlayerView, event: Event) -> None:
        """[ISO-protocol] the observe request, sent with the seat's next request; every
        answer is read at the end of the game, before the game counts."""
        event_text = self._factory.encoder.event(event)
        self._bot.post(f'{{"op":"observe",{self._tag}"event":{event_text},{self._view(view)}}}', view.turns)
        if view.terminal and self._game is None:
            self._factory.collect_all()  # [ISO-games] many games at once: the runner reads them

    def act(self, view: PlayerView) -> Action:
        """[ISO-protocol, ISO-timeout] the act request and the action of its answer; the
        seat after this one is sent what it has to observe meanwhile, so that it thinks
        while this one does (the others get theirs with their own next request: one write
        fewer per seat and move, which on two cores is worth more than their thinking ahead)."""
        self.ask(view)
        self._bot.flush()
        self._factory.flush_seat((view.seat + 1) % view.config.players)
        return action_from_wire(self._bot.collect()["action"])

    def ask(self, view: PlayerView) -> None:
        """[ISO-games] queue the act request of ``view``, to be sent with the others."""
        self._bot.post(f'{{"op":"act",{self._tag}{self._view(view)}}}', view.turns)

    def answer(self) -> Action:
        """[ISO-games] the action of this seat's oldest act request not yet answered."""
        return action_from_wire(self._bot.next_act()["action"])


class IsolatedFactory:
    """Seats in processes of their own, one per seat, kept from game to game [ISO-seat,
    ISO-lifecycle]: ``commands[seat]`` (or the only command) starts seat ``seat``'s
    process; one that failed is started again for the next game.  Close it (or use it
    as a context manager) to end them all.  Processes that play many games at once are
    given the games of :meth:`play_games` together [ISO-games]."""

    def __init__(self, commands: Sequence[Sequence[str]], timeout: float = MOVE_TIMEOUT, option: str = "--bot") -> None:
        if not commands:
            raise SeatCommandError(f"{option}: no command")
        self._commands = [list(argv) for argv in commands]
        self.timeout = timeout
        self.option = option
        self._bots: dict[int, BotProcess] = {}
        self.encoder = Encoder()
        self._game: int | None = None
        """the name of the game whose seats are being made, while many are started together"""

    def pids(self) -> list[int]:
        """The process ids of the seats' processes running now."""
        return [bot.group for bot in self._bots.values() if not bot.ended]

    def flush_seat(self, seat: int) -> None:
        """Send ``seat`` what it has to observe, if it has a process."""
        bot = self._bots.get(seat)
        if bot is not None:
            bot.flush()

    def flush_all(self) -> None:
        """Send every seat the requests queued for it."""
        for bot in self._bots.values():
            bot.flush()

    def collect_all(self) -> None:
        """Read every seat's outstanding answers (the end of a game)."""
        for bot in self._bots.values():
            bot.collect()

    def _bot(self, config: GameConfig, seat: int) -> BotProcess:
        """Seat ``seat``'s process, started if it is not running."""
        bot = self._bots.get(seat)
        if bot is None or bot.ended:
            if seat >= len(self._commands) > 1:
                raise SeatCommandError(f"{self.option}: {len(self._commands)} commands for {config.players} seats")
            argv = self._commands[seat] if len(self._commands) > 1 else self._commands[0]
            bot = self._bots[seat] = BotProcess(argv, seat, self.timeout, self.option)
        return bot

    def __call__(self, config: GameConfig, seat: int, seed: int) -> IsolatedSeat:
        bot = self._bot(config, seat)
        game = self._game
        request: dict[str, Any] = {"op": "new_game", "config": config_to_json(config, in_full=True), "seat": seat, "seed": seed}
        if game is None:
            bot.forget_queue()  # what a game that failed left unsent is of no use to the next
        else:
            request["game"] = game  # [ISO-games]
        bot.post(request, 0)
        return IsolatedSeat(bot, self, game)

    def _all_play_many(self, config: GameConfig) -> bool:
        """[ISO-games] whether every seat's process plays many games at once (starting
        those not running); False if one cannot be started or fails hello (the games,
        played one at a time, report it)."""
        try:
            return all(self._bot(config, seat).plays_many() for seat in range(config.players))
        except HanabiError:
            self.close()
            return False

    def play_games(self, config: GameConfig, games: Sequence[tuple[int, int | None]],
                   views: ViewMaker) -> list[GameRecord | Exception]:
        """[ISO-games] the games ``(seed, strategy_seed)``, each played as
        :func:`~hanabi_ref.players.runner.play_game` plays it, together when every seat's process
        plays many games at once (else one after the other).  A failure of a seat's
        process fails every game that has not counted yet (all have a seat in it); every
        seat's process is then ended, and started again for the next games."""
        if not self._all_play_many(config):
            return [game_outcome(config, self, seed, strategy_seed, views) for seed, strategy_seed in games]
        batch = _Batch(self, config, views)
        try:
            for index, (seed, strategy_seed) in enumerate(games):
                batch.begin(index, seed, strategy_seed)
            batch.play()
            self.collect_all()
            batch.count()
        except SeatFailure as error:  # every game not counted yet has a seat in the failed process
            batch.fail(error, len(games))
            self.close()
        finally:
            self._game = None
        return [batch.results[index] for index in range(len(games))]

    def close(self) -> None:
        """[ISO-lifecycle] end every seat's process group, the last started first."""
        bots, self._bots = self._bots, {}
        for seat in sorted(bots, reverse=True):
            bots[seat].close()

    def __enter__(self) -> IsolatedFactory:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None) -> None:
        self.close()


COHORTS: Final = 2
"""[ISO-games] the games played together are played as this many cohorts in turn, so that
while the seats of one think, the game's process applies the moves of another."""


class _Batch:
    """Games played together by seats that play many games at once [ISO-games,
    ISO-timeout].  The games are split into :data:`COHORTS` cohorts; in turn, each cohort
    reads its acting seats' answers, applies its moves (which queues the observe requests)
    and asks its next acts, and the seats that act next are sent their requests at once.
    A game over counts once every seat's process has answered every request of it (each
    process answers in order: an answer to a later request shows it)."""

    def __init__(self, factory: IsolatedFactory, config: GameConfig, views: ViewMaker) -> None:
        self.factory = factory
        self.config = config
        self.views = views
        self.bots = [factory._bot(config, seat) for seat in range(config.players)]
        self.cohorts: list[dict[int, GameMoves]] = [{} for _ in range(COHORTS)]
        self.results: dict[int, GameRecord | Exception] = {}
        self.over: list[tuple[int, list[int], GameRecord]] = []
        """games over and not counted yet: index, every process's request count after the game's last, record"""

    def begin(self, index: int, seed: int, strategy_seed: int | None) -> None:
        """Start game ``index`` (its seats named ``index`` in their processes)."""
        self.factory._game = index
        game = GameMoves(self.config, self.factory, seed=seed, views=self.views, strategy_seed=strategy_seed)
        self.factory._game = None
        if game.turn is None:
            self._over(index, game)
        else:
            self.cohorts[index % COHORTS][index] = game

    def play(self) -> None:
        """Play every game to its end."""
        asked: list[list[tuple[int, IsolatedSeat]]] = [[] for _ in self.cohorts]
        while any(self.cohorts):
            for number, cohort in enumerate(self.cohorts):
                for index, seat in asked[number]:
                    self._move(cohort, index, seat.answer())
                asked[number] = [(index, self._ask(game)) for index, game in cohort.items()]
                for acting in {game.turn[0] for game in cohort.values() if game.turn is not None}:
                    self.factory.flush_seat(acting)
                    self.factory.flush_seat((acting + 1) % self.config.players)
                self.count()

    def _move(self, cohort: dict[int, GameMoves], index: int, action: Action) -> None:
        game = cohort[index]
        try:
            if game.send(action) is None:
                del cohort[index]
                self._over(index, game)
        except Exception as error:  # an illegal action (or a bug): this game fails alone
            del cohort[index]
            self.results[index] = error

    @staticmethod
    def _ask(game: GameMoves) -> IsolatedSeat:
        """Queue the act request of the game's acting seat; that seat."""
        assert game.turn is not None  # the games over have left their cohort
        seat, view = game.turn
        strategy = game.strategies[seat]
        assert isinstance(strategy, IsolatedSeat)
        strategy.ask(view)
        return strategy

    def _over(self, index: int, game: GameMoves) -> None:
        self.over.append((index, [bot.posted for bot in self.bots], game.record()))

    def count(self) -> None:
        """Count the games over whose every request was answered."""
        if not self.over:
            return
        answered = [bot.answered for bot in self.bots]
        waiting = []
        for index, marks, record in self.over:
            if all(done >= mark for done, mark in zip(answered, marks)):
                self.results[index] = record
            else:
                waiting.append((index, marks, record))
        self.over = waiting

    def fail(self, error: Exception, games: int) -> None:
        """Every one of the ``games`` games that did not count yet failed with ``error``."""
        self.over = []
        for cohort in self.cohorts:
            cohort.clear()
        for index in range(games):
            self.results.setdefault(index, error)
