"""An engine in another process, driven over the JSON-lines protocol [EP-transport,
EP-requests, EP-failures].

One request per line on the engine's stdin, one answer per line on its stdout; every
answer must arrive within the time limit.  An engine that hangs, exits or prints
something that is not an answer is stopped and reported as an :class:`EngineFailure`
naming the request; its last lines of stderr are quoted.
"""

from __future__ import annotations

import json
import os
import selectors
import shlex
import subprocess
import tempfile
import time
from typing import IO, Any

from hanabi_ref.actions import Action, action_to_json
from hanabi_ref.errors import TraceError
from hanabi_ref.rules import GameConfig, config_to_json
from hanabi_ref.serial import canonical_json, card_to_json
from hanabi_ref.trace import action_from_json
from hanabi_ref.verify.engine import EngineFailure, UnsupportedConfig

PROTOCOL = "hanabi-ref/engine"
PROTOCOL_VERSION = 1
MAX_LINE = 1 << 20


class ProcessEngine:
    """An external engine started from a command line [EP-transport]."""

    def __init__(self, command: str, timeout: float = 10.0) -> None:
        self.command = command
        self.timeout = timeout
        self._stderr = tempfile.TemporaryFile()
        try:
            argv = shlex.split(command)
        except ValueError as error:
            raise EngineFailure(f"--engine: cannot parse the command: {error}") from None
        if not argv:
            raise EngineFailure("--engine: the command is empty")
        try:
            self._process = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._stderr, bufsize=0
            )
        except OSError as error:
            raise EngineFailure(f"--engine: cannot start {argv[0]!r}: {error.strerror or error}") from None
        self._buffer = b""
        self.name = os.path.basename(argv[0])
        hello = self._request({"op": "hello", "protocol": PROTOCOL, "version": PROTOCOL_VERSION})
        self.name = str(hello.get("name", self.name))

    # ------------------------------------------------------------ Engine interface

    def unsupported(self, config: GameConfig) -> str | None:
        return None  # [EP-requests] the engine says so in its answer to new_game

    def new_game(self, config: GameConfig, deck: tuple[int, ...]) -> None:
        answer = self._request(
            {"op": "new_game", "config": config_to_json(config), "deck": [card_to_json(c, config) for c in deck]},
            refusals=("unsupported",),
        )
        if answer.get("ok") is not True:
            raise UnsupportedConfig(f"{self.name}: unsupported configuration: {answer['unsupported']}")

    def apply(self, action: Action) -> str | None:
        answer = self._request({"op": "apply", "action": action_to_json(action)}, refusals=("illegal",))
        return None if answer.get("ok") is True else str(answer["illegal"])

    def state(self) -> dict[str, Any]:
        answer = self._request({"op": "state"})
        state = answer.get("state")
        if not isinstance(state, dict):
            raise EngineFailure(f"{self.name}: answer to state has no state object: {_quote(answer)}")
        return state

    def legal_actions(self) -> list[Action]:
        answer = self._request({"op": "legal_actions"})
        actions = answer.get("actions")
        if not isinstance(actions, list):
            raise EngineFailure(f"{self.name}: answer to legal_actions has no actions list: {_quote(answer)}")
        try:
            return [action_from_json(a, f"actions[{i}]") for i, a in enumerate(actions)]
        except TraceError as error:
            raise EngineFailure(f"{self.name}: answer to legal_actions: {error}") from None

    def close(self) -> None:
        if self._process.poll() is None:
            try:
                self._send({"op": "quit"})
                self._process.wait(timeout=min(self.timeout, 2.0))
            except (OSError, subprocess.TimeoutExpired, EngineFailure):
                self._process.kill()
                self._process.wait()
        self._stderr.close()

    # ------------------------------------------------------------ transport

    def _request(self, request: dict[str, Any], refusals: tuple[str, ...] = ()) -> dict[str, Any]:
        """Send one request and read its answer [EP-requests, EP-failures]."""
        op = request["op"]
        self._send(request)
        line = self._read_line(op)
        try:
            answer = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
            self._stop()
            raise EngineFailure(f"{self.name}: printed garbage in answer to {op}: {_quote(line)}") from None
        if not isinstance(answer, dict) or "ok" not in answer:
            self._stop()
            raise EngineFailure(f"{self.name}: answer to {op} is not an object with \"ok\": {_quote(line)}")
        if answer["ok"] is not True and not any(isinstance(answer.get(key), str) for key in refusals):
            self._stop()
            reason = answer.get("error", "no reason given")
            raise EngineFailure(f"{self.name}: failed to answer {op}: {_quote(reason)}")
        return answer

    def _send(self, request: dict[str, Any]) -> None:
        stdin = self._pipe(self._process.stdin)
        try:
            stdin.write((canonical_json(request) + "\n").encode("utf-8"))
            stdin.flush()
        except OSError:
            raise self._exited(str(request["op"])) from None

    def _read_line(self, op: str) -> bytes:
        stdout = self._pipe(self._process.stdout)
        deadline = time.monotonic() + self.timeout
        with selectors.DefaultSelector() as selector:
            selector.register(stdout, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0 or not selector.select(left):
                    self._stop()
                    raise EngineFailure(f"{self.name}: no answer to {op} within {self.timeout:g} s (stopped)")
                chunk = os.read(stdout.fileno(), 65536)
                if not chunk:
                    raise self._exited(op)
                self._buffer += chunk
                if len(self._buffer) > MAX_LINE and b"\n" not in self._buffer:
                    self._stop()
                    raise EngineFailure(f"{self.name}: answer to {op} longer than {MAX_LINE} bytes (stopped)")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _pipe(self, pipe: IO[bytes] | None) -> IO[bytes]:
        if pipe is None:
            raise EngineFailure(f"{self.name}: no pipe to the engine")
        return pipe

    def _stop(self) -> None:
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()

    def _exited(self, op: str) -> EngineFailure:
        try:
            code = self._process.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            self._stop()
            code = self._process.returncode
        return EngineFailure(f"{self.name}: exited with code {code} while answering {op}{self._stderr_tail()}")

    def _stderr_tail(self) -> str:
        self._stderr.seek(0)
        lines = self._stderr.read().decode("utf-8", "replace").strip().splitlines()
        return f"; last stderr line: {lines[-1][:200]}" if lines else ""


def _quote(value: object) -> str:
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else (value if isinstance(value, str) else json.dumps(value))
    return repr(text[:120] + ("..." if len(text) > 120 else ""))
