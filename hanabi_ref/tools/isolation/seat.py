"""A strategy behind the bot protocol: the other side of an isolated seat [ISO-seat,
ISO-protocol, ISO-changes, ISO-games].

    python -m hanabi_ref.tools.isolation.seat --strategy NAME [--param KEY=VALUE ...]

runs one of our strategies as a bot: it reads requests on stdin and answers each on
stdout.  What it knows of a game is what the requests carry: the configuration, its seat
and its strategy seed (``new_game``), then views and events (``observe``, ``act``),
from which it rebuilds real :class:`~hanabi_ref.engine.view.PlayerView` objects
(:mod:`hanabi_ref.tools.isolation.wire`).  No game state exists in this process, so a strategy
that reads the interpreter (its callers' frames, the garbage collector's objects) finds
nothing of the game [ISO-attacks].  The strategy is built with the seed it would get
in-process and observes exactly when it would in-process, so it plays the same games
[ISO-same].  It plays many games at once (``"games": "many"``), each under the name its
requests give, and reads its requests with orjson (they come from our own process).

:func:`serve` does the same for any :class:`~hanabi_ref.players.strategy.StrategyFactory`, so a
strategy written in Python can be seated with ``--bot`` without being registered.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import IO, Any, Final

import orjson

from hanabi_ref.engine.actions import action_to_json
from hanabi_ref.tools.isolation.protocol import PROTOCOL, VERSION
from hanabi_ref.tools.isolation.wire import apply_changes, event_from_json, view_from_json
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import config_from_json
from hanabi_ref.engine.state import Event
from hanabi_ref.players.strategy import Strategy, StrategyFactory, observes
from hanabi_ref.engine.view import PlayerView

_OK: Final = b'{"ok":true}\n'
CHUNK: Final = 1 << 16


class SeatGame:
    """One game of the bot: its configuration, its strategy and the last view it was given."""

    def __init__(self, config: GameConfig, strategy: Strategy) -> None:
        self.config = config
        self.strategy = strategy
        self.observing = observes(strategy)
        self.view: PlayerView | None = None

    def view_of(self, request: dict[str, Any], event: Event | None) -> PlayerView:
        """[ISO-view, ISO-changes] the view a request carries, whole or as changes."""
        if "view" in request:
            self.view = view_from_json(request["view"], self.config)
        elif self.view is None:
            raise ValueError("changes before any whole view in this game")
        else:
            self.view = apply_changes(self.view, request["changes"], event)
        return self.view


class Session:
    """One bot's games [ISO-games]: those under way, by the name their requests give
    (``"game"``; a request without one names the game None)."""

    def __init__(self, factory: StrategyFactory, name: str) -> None:
        self.factory = factory
        self.name = name
        self.games: dict[int | None, SeatGame] = {}
        self.done = False

    def answer(self, line: bytes) -> bytes:
        """The answer line to one request line; a request this bot cannot answer (a
        strategy that raises included) is refused with the reason [ISO-failures]."""
        try:
            request = orjson.loads(line)
            return self._handle(request["op"], request)
        except Exception as error:  # answered, not raised: the game names the seat and turn
            text = " ".join(str(error).split())
            reason = f"{type(error).__name__}: {text}" if text else type(error).__name__
            return (json.dumps({"ok": False, "error": reason}) + "\n").encode("utf-8")

    def _handle(self, op: str, request: dict[str, Any]) -> bytes:
        if op == "observe":
            game = self._game(request)
            event = event_from_json(request["event"])
            view = game.view_of(request, event)
            if game.observing:
                game.strategy.observe(view, event)
            if view.terminal:
                del self.games[request.get("game")]  # [ISO-games] its name may be given to a new game
            return _OK
        if op == "act":
            game = self._game(request)
            action = game.strategy.act(game.view_of(request, None))
            return orjson.dumps({"ok": True, "action": action_to_json(action)}) + b"\n"
        if op == "new_game":
            config = config_from_json(request["config"])
            self.games[request.get("game")] = SeatGame(config, self.factory(config, request["seat"], request["seed"]))
            return _OK
        if op == "hello":
            hello = {"ok": True, "name": self.name, "protocol": PROTOCOL, "version": VERSION, "updates": "changes",
                     "games": "many"}
            return (json.dumps(hello) + "\n").encode("utf-8")
        if op == "quit":
            self.done = True
            return _OK
        raise ValueError(f"unknown op {op!r}")

    def _game(self, request: dict[str, Any]) -> SeatGame:
        game = self.games.get(request.get("game"))
        if game is None:
            raise ValueError("no game started (new_game first)")
        return game


def serve(factory: StrategyFactory, name: str, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None) -> int:
    """Answer bot-protocol requests from ``stdin`` with ``factory``'s strategies until
    ``quit`` or the end of the input [ISO-protocol]; the exit code.  The requests that
    came together are answered together, in one write."""
    source = sys.stdin.buffer if stdin is None else stdin
    sink = sys.stdout.buffer if stdout is None else stdout
    session = Session(factory, name)
    read = getattr(source, "read1", source.read)
    rest = b""
    while not session.done:
        chunk = read(CHUNK)
        if not chunk:
            break
        *lines, rest = (rest + chunk).split(b"\n")
        answers = []
        for line in lines:
            answers.append(session.answer(line))
            if session.done:
                break
        sink.write(b"".join(answers))
        sink.flush()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hanabi_ref.tools.isolation.seat --strategy NAME [--param K=V ...]``."""
    from hanabi_ref.players.strategies import factory_for, parse_assignments

    parser = argparse.ArgumentParser(prog="python -m hanabi_ref.tools.isolation.seat")
    parser.add_argument("--strategy", required=True)
    parser.add_argument("--param", action="append", default=[])
    args = parser.parse_args(argv)
    factory = factory_for(args.strategy, parse_assignments(args.param))
    return serve(factory, f"hanabi-ref {args.strategy}")


if __name__ == "__main__":
    sys.exit(main())
