"""An engine in another process, driven over the JSON-lines protocol [EP-transport,
EP-requests, EP-observe, EP-perft, EP-failures, EP-lifecycle, EP-numbers, EP-schemas].

One request per line on the engine's stdin, one answer per line on its stdout; writing
the request and reading its answer must both be done within the time limit.  An engine
that hangs, stops reading, exits or prints something that is not an answer is stopped
and reported as an :class:`EngineFailure` naming the request; the last line of its
stderr is quoted.  Every answer is validated against the protocol's JSON Schema for its
request before it is interpreted (:mod:`hanabi_ref.tools.verify.answers`).  The engine runs
in a process group of its own, and stopping it ends the whole group, so that nothing it
started outlives ``verify``; only the tail of its stderr is kept in memory.
"""

from __future__ import annotations

import os
import shlex
import time
from typing import Any

from hanabi_ref.engine.actions import Action, action_to_json
from hanabi_ref.base.errors import TraceError
from hanabi_ref.engine.cards import as_identities
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import config_to_json
from hanabi_ref.tools.pipes import MAX_LINE as MAX_LINE
from hanabi_ref.tools.pipes import QUIT_WAIT, LineProcess, one_line, quote, remember
from hanabi_ref.tools.pipes import Tail as Tail
from hanabi_ref.tools.pipes import parse_line as parse_line
from hanabi_ref.formats.serial import canonical_json, card_to_json
from hanabi_ref.formats.trace import action_from_json, card_from_json
from hanabi_ref.tools.verify.answers import PROTOCOL as PROTOCOL
from hanabi_ref.tools.verify.answers import PROTOCOL_VERSION as PROTOCOL_VERSION
from hanabi_ref.tools.verify.answers import answer_violation
from hanabi_ref.tools.protocol.engine import EngineFailure, UnsupportedConfig, VerifyUsageError
from hanabi_ref.tools.protocol.seeded import Deal
from hanabi_ref.tools.perft.count import PerftCount

# ------------------------------------------------------------------ the engine

class ProcessEngine(LineProcess):
    """An external engine started from a command line [EP-transport, EP-lifecycle]; the
    transport is :class:`hanabi_ref.tools.pipes.LineProcess`."""

    def __init__(self, command: str, timeout: float = 10.0) -> None:
        self.command = command
        argv = _split(command)
        self.name = os.path.basename(argv[0])
        self._known: dict[tuple[str, bytes], dict[str, Any]] = {}
        """answers already read and checked, by request op and answer line"""
        self._actions_of: dict[bytes, list[Action]] = {}
        """legal_actions answer lines already turned into actions"""
        self._line = b""  # the last answer line
        super().__init__(argv, timeout)
        try:
            hello = self._request({"op": "hello", "protocol": PROTOCOL, "version": PROTOCOL_VERSION})
        except BaseException:
            self._end()
            raise
        self.name = one_line(str(hello.get("name", self.name)), 60)
        self.shows_views = hello.get("observe") is True
        """[EP-observe] whether the engine said in its hello answer that it answers observe"""
        self.deals_from_seed = hello.get("deals") == "seed"
        """[EP-seed] whether the engine said in its hello answer that it deals from its own seed"""
        self.counts_perft = hello.get("perft") is True
        """[EP-perft] whether the engine said in its hello answer that it answers perft"""
        self._config: GameConfig | None = None
        self._drawn: tuple[int, ...] = ()

    def _failure(self, text: str) -> EngineFailure:
        return EngineFailure(f"{self.name}: {text}")

    def _usage_error(self, text: str) -> VerifyUsageError:
        return VerifyUsageError(f"--engine: {text}")

    # ------------------------------------------------------------ Engine interface

    def unsupported(self, config: GameConfig) -> str | None:
        return None  # [EP-requests] the engine says so in its answer to new_game

    def new_game(self, config: GameConfig, deck: tuple[int, ...]) -> None:
        """[EP-config] ``new_game`` with the configuration in full, every option written."""
        answer = self._request(
            {"op": "new_game", "config": config_to_json(config, in_full=True), "deck": [card_to_json(c, config) for c in as_identities(deck)]},
            refusals=("unsupported",),
        )
        if answer.get("ok") is not True:
            raise UnsupportedConfig(f"{self.name}: unsupported configuration: {one_line(answer['unsupported'])}")
        self._config = config

    def new_seeded_game(self, config: GameConfig, seed: int) -> Deal:
        """[EP-seed] a game dealt from the engine's own ``seed``: what its answer revealed,
        the whole stack (``deck``) or the cards dealt so far (``dealt``); the configuration
        is sent in full (EP-config)."""
        answer = self._request({"op": "new_game", "config": config_to_json(config, in_full=True), "seed": seed},
                               refusals=("unsupported",))
        if answer.get("ok") is not True:
            raise UnsupportedConfig(f"{self.name}: unsupported configuration: {one_line(answer['unsupported'])}")
        if "deck" not in answer and "dealt" not in answer:
            raise self._give_up("answer to new_game with a seed reveals no card (EP-seed: give deck or dealt)")
        self._config = config
        key = "deck" if "deck" in answer else "dealt"
        return Deal(self._cards(answer[key], f"new_game: {key}"), key == "deck")

    def drawn(self) -> tuple[int, ...]:
        """[EP-seed] the cards the last accepted action dealt, as its answer revealed them."""
        return self._drawn

    @property
    def game_config(self) -> GameConfig:
        """[EP-seed] the configuration of the game being played."""
        if self._config is None:
            raise EngineFailure(f"{self.name}: no game started")
        return self._config

    def _cards(self, cards: list[Any], where: str) -> tuple[int, ...]:
        """Cards of an answer (valid CARD objects, EP-schemas) as identities of the game's
        configuration; a card outside it is a failure of the engine."""
        config = self.game_config
        try:
            return tuple(card_from_json(card, f"{where}[{i}]", config) for i, card in enumerate(cards))
        except TraceError as error:
            raise self._give_up(f"answer to {one_line(str(error))}") from None

    def apply(self, action: Action) -> str | None:
        answer = self._request({"op": "apply", "action": action_to_json(action)}, refusals=("illegal",))
        if answer.get("ok") is not True:
            self._drawn = ()
            return one_line(answer["illegal"])
        self._drawn = self._cards(answer["dealt"], "apply: dealt") if "dealt" in answer else ()
        return None

    def state(self) -> dict[str, Any]:
        answer = self._request({"op": "state"})
        state: dict[str, Any] = answer["state"]  # an object: the answer is valid [EP-schemas]
        return state

    def legal_actions(self) -> list[Action]:
        answer = self._request({"op": "legal_actions"})
        known = self._actions_of.get(self._line)
        if known is not None:
            return list(known)
        actions: list[Any] = answer["actions"]  # a list of action objects [EP-schemas]
        try:
            found = [action_from_json(a, f"actions[{i}]") for i, a in enumerate(actions)]
        except TraceError as error:
            raise EngineFailure(f"{self.name}: answer to legal_actions: {one_line(str(error))}") from None
        remember(self._actions_of, self._line, found, self._line)
        return list(found)

    def observe(self, seat: int) -> dict[str, Any] | None:
        """[EP-observe] the engine's view of ``seat``; None, and nothing asked, unless its
        hello answer said ``"observe": true``."""
        if not self.shows_views:
            return None
        answer = self._request({"op": "observe", "seat": seat})
        view: dict[str, Any] = answer["view"]  # an object: the answer is valid [EP-schemas]
        return view

    def perft(self, depth: int, divide: bool) -> PerftCount:
        """[EP-perft] the engine's count from its position, and its divide if asked for
        (an answer without one is a failure); asked only of an engine whose hello answer
        said ``"perft": true``."""
        if not self.counts_perft:
            raise self._failure("does not answer perft (its hello answer does not say \"perft\": true, EP-perft)")
        answer = self._request({"op": "perft", "depth": depth, "divide": divide})
        if not divide or depth == 0:
            return PerftCount(depth, answer["nodes"])
        if "divide" not in answer:
            raise self._give_up("answer to perft has no divide, which the request asked for (EP-perft)")
        try:
            split = tuple((action_from_json(entry["action"], f"divide[{i}].action"), entry["nodes"])
                          for i, entry in enumerate(answer["divide"]))
        except TraceError as error:
            raise self._give_up(f"answer to perft: {one_line(str(error))}") from None
        return PerftCount(depth, answer["nodes"], split)

    def close(self) -> None:
        """[EP-lifecycle] ask the engine to quit (unless a request is unanswered), then end
        its whole process group."""
        if self._ended:
            return
        try:
            if not self._busy and self._process.poll() is None:
                deadline = time.monotonic() + min(self.timeout, QUIT_WAIT)
                self._send("quit", (canonical_json({"op": "quit"}) + "\n").encode("utf-8"), deadline)
                self._drain_until_exit(deadline)
        except EngineFailure:
            pass
        finally:
            self._end()

    # ------------------------------------------------------------ one request

    def _request(self, request: dict[str, Any], refusals: tuple[str, ...] = ()) -> dict[str, Any]:
        """Send one request and read its answer [EP-requests, EP-failures, EP-schemas]:
        an answer outside the schema of its request is a failure naming where it breaks
        the schema, before anything in it is used."""
        op = str(request["op"])
        deadline = time.monotonic() + self.timeout
        self._busy = True
        self._send(op, (canonical_json(request) + "\n").encode("utf-8"), deadline)
        line = self._read_line(op, deadline)
        self._busy = False
        self._line = line
        known = self._known.get((op, line))
        if known is not None:
            return known  # the same line was read and checked before: games repeat states
        answer = self._parse(op, line)
        if answer["ok"] is False and not any(key in answer for key in refusals):
            reason = answer.get("error", "no reason given")
            raise self._give_up(f"failed to answer {op}: {quote(reason)}")
        violation = answer_violation(op, answer)
        if violation is not None:
            raise self._give_up(f"answer to {op} is outside the protocol: {violation}")
        remember(self._known, (op, line), answer, line)
        return answer

    def _parse(self, op: str, line: bytes) -> dict[str, Any]:
        """[EP-failures, EP-numbers] the answer line as an object with "ok"."""
        answer = self._json_answer(op, line)
        if not isinstance(answer, dict) or "ok" not in answer:
            raise self._give_up(f"answer to {op} is not an object with \"ok\": {quote(line)}")
        return answer


def _split(command: str) -> list[str]:
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise VerifyUsageError(f"--engine: cannot parse the command: {error}") from None
    if not argv:
        raise VerifyUsageError("--engine: the command is empty")
    return argv


