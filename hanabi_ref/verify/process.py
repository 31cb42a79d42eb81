"""An engine in another process, driven over the JSON-lines protocol [EP-transport,
EP-requests, EP-observe, EP-failures, EP-lifecycle, EP-numbers, EP-schemas].

One request per line on the engine's stdin, one answer per line on its stdout; writing
the request and reading its answer must both be done within the time limit.  An engine
that hangs, stops reading, exits or prints something that is not an answer is stopped
and reported as an :class:`EngineFailure` naming the request; the last line of its
stderr is quoted.  Every answer is validated against the protocol's JSON Schema for its
request before it is interpreted (:mod:`hanabi_ref.verify.answers`).  The engine runs
in a process group of its own, and stopping it ends the whole group, so that nothing it
started outlives ``verify``; only the tail of its stderr is kept in memory.
"""

from __future__ import annotations

import ctypes
import json
import os
import selectors
import shlex
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import IO, Any, Final, TypeVar

from hanabi_ref.actions import Action, action_to_json
from hanabi_ref.errors import TraceError
from hanabi_ref.rules import GameConfig, config_to_json
from hanabi_ref.serial import MAX_DIGITS, JsonRuleError, NumberTooLong, canonical_json, card_to_json, parse_json
from hanabi_ref.trace import action_from_json, card_from_json
from hanabi_ref.verify.answers import PROTOCOL as PROTOCOL
from hanabi_ref.verify.answers import PROTOCOL_VERSION as PROTOCOL_VERSION
from hanabi_ref.verify.answers import answer_violation
from hanabi_ref.verify.engine import EngineFailure, UnsupportedConfig, VerifyUsageError
from hanabi_ref.verify.seeded import Deal

MAX_LINE = 1 << 20
STDERR_TAIL = 64 * 1024
QUIT_WAIT = 2.0  # seconds an engine may take to exit after quit
GRACE = 0.5  # seconds between SIGTERM and SIGKILL to the engine's group
REAP_LIMIT = 5.0  # seconds to wait for a killed group to be gone
CHUNK = 65536
PR_SET_CHILD_SUBREAPER = 36
PR_GET_CHILD_SUBREAPER = 37


# ------------------------------------------------------------------ answers as JSON


def parse_line(line: bytes | str) -> object:
    """One protocol line as JSON [EP-transport, EP-numbers]: UTF-8, integers of at most
    :data:`MAX_DIGITS` digits (whatever the interpreter's own limit), read strictly
    [T-json].  Raises ValueError (:class:`JsonRuleError` for what JSON allows but our
    rules refuse, :class:`NumberTooLong` among them) or RecursionError."""
    text = line.decode("utf-8") if isinstance(line, bytes) else line
    return parse_json(text)


def one_line(text: str, limit: int = 200) -> str:
    """``text`` without line breaks or control characters, cut to ``limit`` characters."""
    flat = "".join(c if c.isprintable() else " " for c in text[: limit + 1])
    return flat if len(flat) <= limit else flat[: limit - 3] + "..."


# ------------------------------------------------------------------ the engine's stderr


class Tail:
    """The last ``size`` bytes written to a stream [EP-lifecycle]: an engine may log
    gigabytes; only the end is kept, to quote its last line."""

    def __init__(self, size: int = STDERR_TAIL) -> None:
        self._size = size
        self._data = bytearray()

    def add(self, chunk: bytes) -> None:
        self._data += chunk
        excess = len(self._data) - self._size
        if excess > 0:
            del self._data[:excess]

    def __len__(self) -> int:
        return len(self._data)

    def last_line(self) -> str:
        """The last non-empty line, on one line and cut to 200 characters ("" if none)."""
        lines = bytes(self._data).decode("utf-8", "replace").strip().splitlines()
        return one_line(lines[-1]) if lines else ""


# ------------------------------------------------------------------ the engine's process group


def end_group(process: subprocess.Popen[bytes], grace: float = GRACE, limit: float = REAP_LIMIT) -> None:
    """[EP-lifecycle] end the process group led by ``process``: SIGTERM, then SIGKILL to
    what is left after ``grace`` seconds; reap the leader and the members adopted by us,
    and wait at most ``limit`` seconds more for the group to be gone."""
    group = process.pid
    if not _signal_group(group, signal.SIGTERM):
        process.poll()
        return
    _signal_group(group, signal.SIGCONT)  # a stopped member can only act on SIGTERM once continued
    if not _wait_group_gone(process, group, grace):
        _signal_group(group, signal.SIGKILL)
        _wait_group_gone(process, group, limit)


def _signal_group(group: int, signum: int) -> bool:
    """Send ``signum`` to every member of ``group``; whether the group still existed."""
    try:
        os.killpg(group, signum)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # a member we may not signal: nothing more we can do than wait
    return True


def _wait_group_gone(process: subprocess.Popen[bytes], group: int, seconds: float) -> bool:
    """Reap members and poll until no process of ``group`` exists, at most ``seconds``."""
    deadline = time.monotonic() + seconds
    while True:
        _reap_group(process, group)
        if not _signal_group(group, 0):
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.005)


def _reap_group(process: subprocess.Popen[bytes], group: int) -> None:
    """Collect every ended child of ours in ``group``: the leader through ``process`` (so
    that it keeps its exit code), the members adopted as their subreaper directly."""
    process.poll()
    while hasattr(os, "waitid"):
        try:
            ended = os.waitid(os.P_PGID, group, os.WEXITED | os.WNOHANG | os.WNOWAIT)
        except ChildProcessError:
            return
        if ended is None:
            return
        if ended.si_pid == process.pid:
            process.wait()
        else:
            os.waitpid(ended.si_pid, 0)


@contextmanager
def signals_held() -> Iterator[None]:
    """[EP-lifecycle] hold SIGINT, SIGTERM and SIGHUP while an engine's group is ended,
    so that no signal cuts the clean-up short; one that came meanwhile is delivered after."""
    held = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def adopt_orphans(on: bool) -> bool:
    """[EP-lifecycle] make this process the subreaper of its descendants (Linux), so that
    the children an engine leaves behind become ours to end and reap even when the
    system's init never reaps; returns the previous setting (False where unknown)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
        previous = ctypes.c_int(0)
        prctl(PR_GET_CHILD_SUBREAPER, ctypes.byref(previous), 0, 0, 0)
        prctl(PR_SET_CHILD_SUBREAPER, int(on), 0, 0, 0)
    except (OSError, AttributeError):
        return False
    return bool(previous.value)


# ------------------------------------------------------------------ the engine


REMEMBERED: Final = 4096
"""How many answer lines of each kind a ProcessEngine keeps, read and checked, to reuse
when the same line comes again (shrinking replays games over and over)."""
REMEMBERED_LENGTH: Final = 1 << 16
"""Longer answer lines are not kept."""

K = TypeVar("K")
V = TypeVar("V")


def _remember(memory: dict[K, V], key: K, value: V, line: bytes) -> None:
    """Keep ``value``, read from ``line``, under ``key``; forget everything once
    :data:`REMEMBERED` are kept."""
    if len(line) > REMEMBERED_LENGTH:
        return
    if len(memory) >= REMEMBERED:
        memory.clear()
    memory[key] = value


class ProcessEngine:
    """An external engine started from a command line [EP-transport, EP-lifecycle]."""

    def __init__(self, command: str, timeout: float = 10.0) -> None:
        self.command = command
        self.timeout = timeout
        argv = _split(command)
        self.name = os.path.basename(argv[0])
        self._buffer = b""
        self._known: dict[tuple[str, bytes], dict[str, Any]] = {}
        """answers already read and checked, by request op and answer line"""
        self._actions_of: dict[bytes, list[Action]] = {}
        """legal_actions answer lines already turned into actions"""
        self._line = b""  # the last answer line
        self._busy = False
        self._ended = False
        self._tail = Tail()
        self._selector = selectors.DefaultSelector()
        self._was_subreaper = adopt_orphans(True)
        try:
            self._process = _start(argv)
        except BaseException:
            self._selector.close()
            adopt_orphans(self._was_subreaper)
            raise
        try:
            self._watch_pipes()
            hello = self._request({"op": "hello", "protocol": PROTOCOL, "version": PROTOCOL_VERSION})
        except BaseException:
            self._end()
            raise
        self.name = one_line(str(hello.get("name", self.name)), 60)
        self.shows_views = hello.get("observe") is True
        """[EP-observe] whether the engine said in its hello answer that it answers observe"""
        self.deals_from_seed = hello.get("deals") == "seed"
        """[EP-seed] whether the engine said in its hello answer that it deals from its own seed"""
        self._config: GameConfig | None = None
        self._drawn: tuple[int, ...] = ()

    @property
    def group(self) -> int:
        """The id of the engine's process group (its leader's process id)."""
        return self._process.pid

    # ------------------------------------------------------------ Engine interface

    def unsupported(self, config: GameConfig) -> str | None:
        return None  # [EP-requests] the engine says so in its answer to new_game

    def new_game(self, config: GameConfig, deck: tuple[int, ...]) -> None:
        answer = self._request(
            {"op": "new_game", "config": config_to_json(config), "deck": [card_to_json(c, config) for c in deck]},
            refusals=("unsupported",),
        )
        if answer.get("ok") is not True:
            raise UnsupportedConfig(f"{self.name}: unsupported configuration: {one_line(answer['unsupported'])}")
        self._config = config

    def new_seeded_game(self, config: GameConfig, seed: int) -> Deal:
        """[EP-seed] a game dealt from the engine's own ``seed``: what its answer revealed,
        the whole stack (``deck``) or the cards dealt so far (``dealt``)."""
        answer = self._request({"op": "new_game", "config": config_to_json(config), "seed": seed},
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
        _remember(self._actions_of, self._line, found, self._line)
        return list(found)

    def observe(self, seat: int) -> dict[str, Any] | None:
        """[EP-observe] the engine's view of ``seat``; None, and nothing asked, unless its
        hello answer said ``"observe": true``."""
        if not self.shows_views:
            return None
        answer = self._request({"op": "observe", "seat": seat})
        view: dict[str, Any] = answer["view"]  # an object: the answer is valid [EP-schemas]
        return view

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
            raise self._give_up(f"failed to answer {op}: {_quote(reason)}")
        violation = answer_violation(op, answer)
        if violation is not None:
            raise self._give_up(f"answer to {op} is outside the protocol: {violation}")
        _remember(self._known, (op, line), answer, line)
        return answer

    def _parse(self, op: str, line: bytes) -> dict[str, Any]:
        """[EP-failures, EP-numbers] the answer line as an object with "ok"."""
        try:
            answer = parse_line(line)
        except JsonRuleError as error:
            raise self._give_up(f"answer to {op}: {error}") from None
        except (ValueError, RecursionError):
            raise self._give_up(f"printed garbage in answer to {op}: {_quote(line)}") from None
        if not isinstance(answer, dict) or "ok" not in answer:
            raise self._give_up(f"answer to {op} is not an object with \"ok\": {_quote(line)}")
        return answer

    # ------------------------------------------------------------ transport

    def _watch_pipes(self) -> None:
        """Make our ends of the pipes non-blocking; watch stderr from now on."""
        for pipe in (self._process.stdin, self._process.stdout, self._process.stderr):
            os.set_blocking(_fd(pipe), False)
        self._selector.register(_fd(self._process.stderr), selectors.EVENT_READ)

    def _send(self, op: str, data: bytes, deadline: float) -> None:
        """[EP-lifecycle] write ``data`` to the engine's stdin, giving up at ``deadline``
        if the engine does not read it."""
        stdin = _fd(self._process.stdin)
        data = data[self._write(op, stdin, data):]
        if not data:
            return
        with self._watching(stdin, selectors.EVENT_WRITE):
            while data:
                if stdin in self._wait(deadline, f"did not read the {op} request"):
                    data = data[self._write(op, stdin, data):]

    def _write(self, op: str, stdin: int, data: bytes) -> int:
        try:
            return os.write(stdin, data)
        except BlockingIOError:
            return 0
        except OSError:
            raise self._exited(op) from None

    def _read_line(self, op: str, deadline: float) -> bytes:
        """The next answer line [EP-transport, EP-failures]."""
        stdout = _fd(self._process.stdout)
        if b"\n" not in self._buffer:
            with self._watching(stdout, selectors.EVENT_READ):
                while not self._read_more(op, stdout, deadline):
                    pass
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _read_more(self, op: str, stdout: int, deadline: float) -> bool:
        """Read what stdout has; whether the buffer now holds a complete line."""
        if stdout not in self._wait(deadline, f"no answer to {op}"):
            return False
        try:
            chunk = os.read(stdout, CHUNK)
        except BlockingIOError:
            return False
        if not chunk:
            raise self._exited(op)
        self._buffer += chunk
        if b"\n" in chunk:
            return True
        if len(self._buffer) > MAX_LINE:
            raise self._give_up(f"answer to {op} longer than {MAX_LINE} bytes")
        return False

    def _wait(self, deadline: float, what: str) -> list[int]:
        """The watched pipes ready before ``deadline`` (stderr is drained here), or an
        EngineFailure saying ``what`` did not happen in time."""
        left = deadline - time.monotonic()
        events = self._selector.select(left) if left > 0 else []
        if not events:
            raise self._give_up(f"{what} within {self.timeout:g} s")
        ready: list[int] = []
        for key, _ in events:
            if key.fd == _fd(self._process.stderr):
                self._drain_stderr()
            else:
                ready.append(key.fd)
        return ready

    @contextmanager
    def _watching(self, fd: int, events: int) -> Iterator[None]:
        self._selector.register(fd, events)
        try:
            yield
        finally:
            if not self._ended:
                self._selector.unregister(fd)

    # ------------------------------------------------------------ stderr and the end

    def _drain_stderr(self) -> bool:
        """Read one chunk of stderr into the tail; whether more may come."""
        stderr = _fd(self._process.stderr)
        try:
            chunk = os.read(stderr, CHUNK)
        except BlockingIOError:
            return True
        if not chunk:
            if stderr in self._selector.get_map():
                self._selector.unregister(stderr)
            return False
        self._tail.add(chunk)
        return True

    def _drain_until_exit(self, deadline: float) -> None:
        """Keep reading stderr until the engine's leader exits or ``deadline`` passes."""
        while self._process.poll() is None and time.monotonic() < deadline:
            if self._selector.get_map():
                for _ in self._selector.select(min(0.05, max(deadline - time.monotonic(), 0))):
                    self._drain_stderr()
            else:
                time.sleep(0.01)

    def _end(self) -> None:
        """[EP-lifecycle] end the engine's process group, keep the rest of its stderr,
        close our ends of the pipes; at most once."""
        if self._ended:
            return
        self._ended = True
        with signals_held():
            self._end_now()

    def _end_now(self) -> None:
        try:
            end_group(self._process)
        finally:
            for _ in range(16):  # the writers are gone: what is left in the pipe, bounded
                if not self._drain_stderr():
                    break
            for pipe in (self._process.stdin, self._process.stdout, self._process.stderr):
                if pipe is not None:
                    pipe.close()
            self._selector.close()
            adopt_orphans(self._was_subreaper)

    def _give_up(self, message: str) -> EngineFailure:
        """Stop the engine; the failure to raise [EP-failures]."""
        self._end()
        return EngineFailure(f"{self.name}: {message} (stopped){self._stderr_note()}")

    def _exited(self, op: str) -> EngineFailure:
        """The engine closed its side while ``op`` was under way [EP-failures]."""
        if not self._ended:
            self._drain_until_exit(time.monotonic() + self.timeout)
        self._end()
        code = self._process.returncode
        return EngineFailure(f"{self.name}: exited with code {code} while answering {op}{self._stderr_note()}")

    def _stderr_note(self) -> str:
        line = self._tail.last_line()
        return f"; last stderr line: {line}" if line else ""


def _split(command: str) -> list[str]:
    try:
        argv = shlex.split(command)
    except ValueError as error:
        raise VerifyUsageError(f"--engine: cannot parse the command: {error}") from None
    if not argv:
        raise VerifyUsageError("--engine: the command is empty")
    return argv


def _start(argv: list[str]) -> subprocess.Popen[bytes]:
    """[EP-lifecycle] the engine, in a new session and process group of its own."""
    try:
        return subprocess.Popen(
            argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
            start_new_session=True,
        )
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise VerifyUsageError(f"--engine: cannot start {argv[0]!r}: {one_line(reason)}") from None


def _fd(pipe: IO[bytes] | None) -> int:
    if pipe is None:
        raise EngineFailure("no pipe to the engine")
    return pipe.fileno()


def _quote(value: object) -> str:
    text = value.decode("utf-8", "replace") if isinstance(value, bytes) else (value if isinstance(value, str) else json.dumps(value))
    return repr(text[:120] + ("..." if len(text) > 120 else ""))
