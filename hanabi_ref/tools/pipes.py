"""A child process spoken to in JSON lines, one request and one answer a line
[EP-transport, EP-lifecycle, EP-failures, ISO-lifecycle, ISO-reap].

What the engine protocol (``verify --engine``) and the bot protocol (isolated seats and
``--bot``) share: the child runs in a new session, as the leader of a process group of
its own; a request must be written and its answer read within a time limit; only the
tail of its stderr is kept; stopping it ends and reaps the whole group, with
SIGINT, SIGTERM and SIGHUP held meanwhile.  :class:`LineProcess` is the transport; what
an answer means, and the exception a failure raises (:meth:`LineProcess._failure`),
belong to the protocol's subclass (:class:`hanabi_ref.tools.verify.process.ProcessEngine`,
:class:`hanabi_ref.tools.isolation.client.BotProcess`).

While a child runs (and while a run that starts children in workers is under way,
:func:`orphans_adopted`), this process is the subreaper of its descendants (Linux): a
process the child leaves behind in a session or group of its own (``setsid``, a double
fork) becomes ours, and when the last child ends, every such adopted process is ended
and reaped [ISO-reap].
"""

from __future__ import annotations

import ctypes
import json
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager, suppress
from typing import IO, Final, TypeVar

import attrs

from hanabi_ref.formats.serial import JsonRuleError, parse_json
from hanabi_ref.base.signals import signals_held

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


def quote(value: object) -> str:
    """What a child printed (or a value of its answer), for a one-line message: at most
    120 characters, quoted."""
    if isinstance(value, bytes):
        text = value.decode("utf-8", "replace")
    else:
        text = value if isinstance(value, str) else json.dumps(value)
    return repr(text[:120] + ("..." if len(text) > 120 else ""))


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


# ------------------------------------------------------------------ adopted descendants [ISO-reap]


@attrs.define
class _Adoption:
    """[ISO-reap] How many children (and runs) of this process want its descendants
    adopted now, the subreaper setting found before the first, and this process's
    children at that moment (process id and start time: they are not adoptees).  Kept per
    process: the kernel's setting is not inherited by a forked child."""

    owner: int = 0
    depth: int = 0
    previous: bool = False
    known: frozenset[tuple[int, int]] = frozenset()


_ADOPTION = _Adoption()
"""The one record of this process (the kernel's setting it mirrors is per process)."""


@contextmanager
def orphans_adopted() -> Iterator[None]:
    """[ISO-reap, EP-lifecycle] while inside, this process is the subreaper of its
    descendants (Linux); when the outermost such context of the process is left, every
    process adopted meanwhile is ended and reaped, then the setting found is restored.
    Nested uses (a child per seat, a run around them) share one adoption."""
    if _ADOPTION.owner != os.getpid():  # a forked child: the count of its parent is not its own
        _ADOPTION.owner, _ADOPTION.depth = os.getpid(), 0
    if _ADOPTION.depth == 0:
        _ADOPTION.previous = adopt_orphans(True)
        _ADOPTION.known = frozenset(_children())
    _ADOPTION.depth += 1
    try:
        yield
    finally:
        _ADOPTION.depth -= 1
        if _ADOPTION.depth == 0:
            with signals_held():
                end_adopted(_ADOPTION.known)
            adopt_orphans(_ADOPTION.previous)


def end_adopted(known: frozenset[tuple[int, int]], grace: float = GRACE, limit: float = REAP_LIMIT) -> None:
    """[ISO-reap] end and reap every child of this process that it adopted: those in
    another session than ours that are not among ``known`` (its children when the
    adoption began).  SIGTERM (and SIGCONT) to each and to its process group, SIGKILL to
    what is left after ``grace`` seconds; what they leave in turn is adopted and ended
    the same way; at most ``limit`` seconds more."""
    if not sys.platform.startswith("linux"):
        return
    started = time.monotonic()
    signalled: dict[int, int] = {}
    spared = _groups(known) | {os.getpgid(0)}
    while True:
        adopted = _adopted(known)
        if not adopted or time.monotonic() > started + grace + limit:
            return
        strong = time.monotonic() > started + grace
        for pid in adopted:
            if signalled.get(pid) != signal.SIGKILL and (strong or pid not in signalled):
                signalled[pid] = _end_adoptee(pid, signal.SIGKILL if strong else signal.SIGTERM, spared)
            with suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
        time.sleep(0.005)


def _groups(known: frozenset[tuple[int, int]]) -> set[int]:
    """The process groups of the ``known`` processes still there (never ended wholesale)."""
    groups = set()
    for pid, _ in known:
        with suppress(OSError):
            groups.add(os.getpgid(pid))
    return groups


def _end_adoptee(pid: int, signum: int, spared: set[int]) -> int:
    """Send ``signum`` to the adopted process ``pid`` and to its process group (unless it
    is one of the ``spared`` groups: ours, or one a process we did not adopt belongs to),
    then SIGCONT; the signal sent."""
    with suppress(OSError):
        group = os.getpgid(pid)
        if group not in spared:
            os.killpg(group, signum)
            os.killpg(group, signal.SIGCONT)
    with suppress(OSError):
        os.kill(pid, signum)
        os.kill(pid, signal.SIGCONT)
    return signum


def _adopted(known: frozenset[tuple[int, int]]) -> list[int]:
    """This process's children that it adopted: in another session than ours (a child we
    start ourselves in a session of its own has ended before this is asked), and not
    among ``known``."""
    ours = os.getsid(0)
    found = []
    for pid, start in _children():
        if (pid, start) in known:
            continue
        with suppress(OSError):
            if os.getsid(pid) != ours:
                found.append(pid)
    return found


def _children() -> list[tuple[int, int]]:
    """This process's children, each as its process id and start time, read from
    ``/proc`` (empty where there is none)."""
    me = os.getpid()
    found = []
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for name in entries:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as file:
                fields = file.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[1]) == me:
            found.append((int(name), int(fields[19])))
    return found


# ------------------------------------------------------------------ the transport


REMEMBERED: Final = 4096
"""How many answer lines of each kind a child's reader keeps, read and checked, to reuse
when the same line comes again (games repeat states and actions)."""
REMEMBERED_LENGTH: Final = 1 << 16
"""Longer answer lines are not kept."""

K = TypeVar("K")
V = TypeVar("V")


def remember(memory: dict[K, V], key: K, value: V, line: bytes) -> None:
    """Keep ``value``, read from ``line``, under ``key``; forget everything once
    :data:`REMEMBERED` are kept."""
    if len(line) > REMEMBERED_LENGTH:
        return
    if len(memory) >= REMEMBERED:
        memory.clear()
    memory[key] = value


class LineProcess:
    """A child started from ``argv``, spoken to in lines [EP-transport, EP-lifecycle,
    ISO-lifecycle]; subclasses say what its failures are (:meth:`_failure`) and how a
    command that cannot be started is reported (:meth:`_usage_error`)."""

    timeout: float

    def __init__(self, argv: list[str], timeout: float) -> None:
        self.timeout = timeout
        self._buffer = b""
        self._busy = False
        self._ended = False
        self._own_end: int | None = None
        """the leader's exit code if it ended before we ended its group (EP-failures)"""
        self._tail = Tail()
        self._selector = selectors.DefaultSelector()
        self._adoption = ExitStack()
        self._adoption.enter_context(orphans_adopted())  # [ISO-reap]
        try:
            self._process = self._start(argv)
        except BaseException:
            self._selector.close()
            self._adoption.close()
            raise
        try:
            self._watch_pipes()
        except BaseException:
            self._end()
            raise

    @property
    def group(self) -> int:
        """The id of the child's process group (its leader's process id)."""
        return self._process.pid

    # ------------------------------------------------------------ what subclasses say

    def _failure(self, text: str) -> Exception:
        """The exception that reports ``text`` (what went wrong, stderr's last line)."""
        raise NotImplementedError

    def _usage_error(self, text: str) -> Exception:
        """The exception that reports a command that cannot be started."""
        raise NotImplementedError

    # ------------------------------------------------------------ starting

    def _start(self, argv: list[str]) -> subprocess.Popen[bytes]:
        """[EP-lifecycle] the child, in a new session and process group of its own."""
        try:
            return subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0,
                start_new_session=True,
            )
        except (OSError, ValueError) as error:
            reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
            raise self._usage_error(f"cannot start {argv[0]!r}: {one_line(reason)}") from None

    # ------------------------------------------------------------ transport

    def _watch_pipes(self) -> None:
        """Make our ends of the pipes non-blocking; watch stderr from now on."""
        for pipe in (self._process.stdin, self._process.stdout, self._process.stderr):
            os.set_blocking(self._fd(pipe), False)
        self._selector.register(self._fd(self._process.stderr), selectors.EVENT_READ)

    def _send(self, op: str, data: bytes, deadline: float) -> None:
        """[EP-lifecycle] write ``data`` to the child's stdin, giving up at ``deadline``
        if the child does not read it."""
        stdin = self._fd(self._process.stdin)
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

    def _read_line(self, op: str, deadline: float, allowed: float | None = None) -> bytes:
        """The next answer line [EP-transport, EP-failures]; ``allowed`` is the time the
        answer was given, for the failure's message (by default ``timeout``)."""
        stdout = self._fd(self._process.stdout)
        if b"\n" not in self._buffer:
            with self._watching(stdout, selectors.EVENT_READ):
                while not self._read_more(op, stdout, deadline, allowed):
                    pass
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line

    def _read_more(self, op: str, stdout: int, deadline: float, allowed: float | None = None) -> bool:
        """Read what stdout has; whether the buffer now holds a complete line."""
        if stdout not in self._wait(deadline, f"no answer to {op}", allowed):
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

    def _wait(self, deadline: float, what: str, allowed: float | None = None) -> list[int]:
        """The watched pipes ready before ``deadline`` (stderr is drained here), or the
        failure saying ``what`` did not happen in time.  A pipe that is ready when the
        deadline has passed already still counts: an answer read late by us (the bot
        protocol reads some answers only when it needs them, ISO-timeout) came in time."""
        left = deadline - time.monotonic()
        events = self._selector.select(max(left, 0))  # past the deadline: one last look
        ready: list[int] = []
        for key, _ in events:
            if key.fd == self._fd(self._process.stderr):
                self._drain_stderr()
            else:
                ready.append(key.fd)
        if not ready and (not events or left <= 0):
            raise self._give_up(f"{what} within {self.timeout if allowed is None else allowed:g} s")
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
        stderr = self._fd(self._process.stderr)
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
        """Keep reading stderr until the child's leader exits or ``deadline`` passes."""
        while self._process.poll() is None and time.monotonic() < deadline:
            if self._selector.get_map():
                for _ in self._selector.select(min(0.05, max(deadline - time.monotonic(), 0))):
                    self._drain_stderr()
            else:
                time.sleep(0.01)

    def _end(self) -> None:
        """[EP-lifecycle] end the child's process group, keep the rest of its stderr,
        close our ends of the pipes; at most once."""
        if self._ended:
            return
        self._ended = True
        with signals_held():
            self._end_now()

    def _end_now(self) -> None:
        self._own_end = self._process.poll()  # [EP-failures] before our signals: its own exit, if any
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
            self._adoption.close()  # [ISO-reap] the last child of this process: what they left is ended

    def _json_answer(self, op: str, line: bytes) -> object:
        """[EP-failures, EP-numbers, ISO-failures] the answer line to ``op`` read as JSON by
        our rules; a line that is not is the child's failure, in one line."""
        try:
            return parse_line(line)
        except JsonRuleError as error:
            raise self._give_up(f"answer to {op}: {error}") from None
        except (ValueError, RecursionError):
            raise self._give_up(f"printed garbage in answer to {op}: {quote(line)}") from None

    def _give_up(self, message: str) -> Exception:
        """Stop the child; the failure to raise [EP-failures]."""
        self._end()
        return self._failure(f"{message} (stopped){self._stderr_note()}")

    def _exited(self, op: str) -> Exception:
        """The child closed its side while ``op`` was under way [EP-failures]: it exited
        (given the time limit to do so), or it closed its output and went on, and was
        ended by us.  A code or signal of our own doing is never reported as the child's."""
        if not self._ended:
            self._drain_until_exit(time.monotonic() + self.timeout)
        self._end()
        how = self._how_it_ended()
        if how is None:
            return self._failure(f"closed its output while answering {op} (stopped){self._stderr_note()}")
        return self._failure(f"{how} while answering {op}{self._stderr_note()}")

    def _how_it_ended(self) -> str | None:
        """[EP-failures] how the child's leader ended by itself ("exited with code 3",
        "was killed by SIGSEGV"), or None when it was still running as we ended it (or
        has not been ended)."""
        code = self._own_end
        if code is None:
            return None
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"was killed by {name}"
        return f"exited with code {code}"

    def _stderr_note(self) -> str:
        line = self._tail.last_line()
        return f"; last stderr line: {line}" if line else ""

    def _fd(self, pipe: IO[bytes] | None) -> int:
        if pipe is None:
            raise self._failure("no pipe to the child process")
        return pipe.fileno()
