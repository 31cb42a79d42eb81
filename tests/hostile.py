"""Hostile inputs under resource limits: every input the project reads is refused in one
line or accepted as what it is, within 2 CPU seconds and 200 MB a case [L-config,
L-moves, L-files, T-limits, T-json, EP-numbers, EP-serve, EP-failures].

Run from the repository root::

    python -m tests.hostile --examples 20000            # the deep run (tests/test_hostile_inputs.py)
    python -m tests.hostile --examples 200 --seed 3     # a quick one
    python -m tests.hostile --examples 50 --kinds answer

Hypothesis draws *recipes*, small descriptions of damage (set a field to a huge or
wrongly typed value, grow a list past its limit, nest a value a million levels deep,
give a key twice, put NaN, ``1e400`` or a 5,000-digit number where a number goes, cut
the text short, put a byte that is not UTF-8 in it, pad it past 16 MiB, fill it with
half a million empty lists) and the harness builds the bytes from a few real games of
our own.  Each case goes through the code a user's input goes through:

* ``trace`` and ``hanablive``: the bytes are a game file, given to ``hanabi-ref replay``
  (``main([...])`` in this process).  It must exit 0 (a valid game, replayed) or 1 or 2
  with one line on standard error that starts with ``hanabi-ref:`` (C-exit).
* ``request``: the bytes are a line to ``serve`` after ``hello`` and a valid
  ``new_game``; every line must get one answer object with a boolean ``ok``, and the
  server must go on to answer the ``state`` request after it (EP-serve).
* ``answer``: the bytes are what an engine under ``verify`` answers to ``new_game``,
  ``apply``, ``state`` or ``legal_actions``.  A real engine process
  (``tests/engines/relay.py``) writes them; the request must come back or end in an
  ``EngineFailure`` or ``UnsupportedConfig`` of one line (EP-failures).

Anything else (another exception, a traceback, a second line) fails the run, as does a
case that takes more than 2 seconds of this process's CPU time (the engine process's
time is its own) or more than 200 MB of memory: the peak resident memory during the case
(reset before it through ``/proc/self/clear_refs`` on Linux; elsewhere the lifetime peak,
which can only overcharge) above the resident memory at its start.  The harness's own
copies of the input count against the case.  A limit on the address space (1 GiB above
the warm-up) turns a runaway into a failing case instead of a machine out of memory.

The first failing case is printed with its recipe (``--shrink`` lets Hypothesis shrink
it first, which is slow for large inputs; ``--recipe "Recipe(...)"`` runs one again).  The summary is one
JSON object on standard output: cases and outcomes by kind, the largest CPU time and
the largest memory of a case, each with its recipe.  Exit codes: 0 every case held, 1 one did not,
2 a usage error.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import resource
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RELAY = ROOT / "tests" / "engines" / "relay.py"
KINDS = ("trace", "hanablive", "request", "answer")
CPU_LIMIT = 2.0
MEMORY_LIMIT = 200 << 20
ADDRESS_GUARD = 1 << 30
FILE_LIMIT = 16 << 20


# ------------------------------------------------------------------ JSON with holes


@dataclass(frozen=True)
class Raw:
    """JSON text put in as it is (NaN, a huge literal, a deep nest, a grown list)."""

    text: str


@dataclass(frozen=True)
class Pairs:
    """An object written from its pairs, so that a key may come twice."""

    pairs: tuple[tuple[str, Any], ...]


def emit(node: Any) -> str:
    """The JSON text of ``node``; :class:`Raw` and :class:`Pairs` as they say."""
    if isinstance(node, Raw):
        return node.text
    if isinstance(node, Pairs):
        return "{" + ",".join(f"{json.dumps(key)}:{emit(value)}" for key, value in node.pairs) + "}"
    if isinstance(node, dict):
        return "{" + ",".join(f"{json.dumps(key)}:{emit(value)}" for key, value in node.items()) + "}"
    if isinstance(node, list):
        return "[" + ",".join(emit(item) for item in node) + "]"
    return json.dumps(node)


def paths(node: Any, here: tuple[Any, ...] = ()) -> Iterator[tuple[Any, ...]]:
    """Every place in ``node`` (itself included), parents before children."""
    yield here
    if isinstance(node, dict):
        for key, value in node.items():
            yield from paths(value, (*here, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from paths(value, (*here, index))


def places(node: Any) -> list[tuple[Any, ...]]:
    """The places of ``node``, shallow ones first (Hypothesis's small numbers pick the
    configuration and the top-level fields most often)."""
    return sorted(paths(node), key=lambda path: (len(path), repr(path)))


def get(node: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        node = node[step]
    return node


def put(node: Any, path: tuple[Any, ...], value: Any) -> Any:
    """``node`` with the value at ``path`` replaced (the root itself when path is empty)."""
    if not path:
        return value
    get(node, path[:-1])[path[-1]] = value
    return node


# ------------------------------------------------------------------ the games we damage


def _bases() -> dict[str, list[Any]]:
    """Real inputs of each kind, from games of our own."""
    from hanabi_ref.engine.actions import action_to_json
    from hanabi_ref.players.runner import play_game
    from hanabi_ref.formats.hanablive import trace_to_hanablive
    from hanabi_ref.engine.legality import legal_actions
    from hanabi_ref.engine.configs import config_to_json, make_config
    from hanabi_ref.engine.cards import as_identities
    from hanabi_ref.formats.serial import card_to_json, state_to_json
    from hanabi_ref.players.strategies import STRATEGIES
    from hanabi_ref.formats.trace import trace_to_json
    from hanabi_ref.engine.transition import initial_state

    simple = STRATEGIES["simple"]
    thesis = play_game(make_config(2, "thesis"), simple, seed=1)
    rainbow = play_game(make_config(4, "hanab-live", "rainbow"), simple, seed=2)
    custom = play_game(make_config(3, "thesis", hints=40, composition=[[2, 2, 1], [3, 1, 1], [1, 1, 1]], hand_size=2), simple, seed=3)
    live3 = play_game(make_config(3, "hanab-live"), simple, seed=4)
    live5 = play_game(make_config(5, "hanab-live", "black"), simple, seed=5)
    config, deck = live3.trace.config, live3.trace.deck
    state = initial_state(config, deck)
    legal = legal_actions(state)
    new_game = {"op": "new_game", "config": config_to_json(config), "deck": [card_to_json(card, config) for card in as_identities(deck)]}
    return {
        "trace": [trace_to_json(thesis.trace), trace_to_json(rainbow.trace, with_states=True), trace_to_json(custom.trace)],
        "hanablive": [trace_to_hanablive(live3.trace), trace_to_hanablive(live5.trace)],
        "request": [
            {"op": "hello", "protocol": "hanabi-ref/engine", "version": 1},
            new_game,
            {"op": "apply", "action": action_to_json(legal[0])},
            {"op": "state"},
            {"op": "legal_actions"},
        ],
        "answer": [
            {"op": "new_game", "answer": {"ok": True}},
            {"op": "apply", "answer": {"ok": False, "illegal": "not your turn"}},
            {"op": "state", "answer": {"ok": True, "state": state_to_json(state)}},
            {"op": "legal_actions", "answer": {"ok": True, "actions": [action_to_json(a) for a in legal]}},
        ],
        "_prefix": [new_game],
        "_game": [(config, deck, legal[0])],
    }


BIG_INTS = (-1, 0, 1, 2, 5, 6, 99, 100, 101, 10_000, 10_001, 25_000, 25_001, 100_001, 10**8, 10**10, 2**63, 2**64, -(2**63))
ODD_VALUES: tuple[Any, ...] = (
    1.0, 0.5, 1e308, True, False, None, "", "x" * 5000, "é\u0000\u202e", [], {}, [[10**8]], [[100] * 100] * 100,
    {"players": 10**6}, [0] * 50, Raw("NaN"), Raw("-Infinity"), Raw("1e400"), Raw("9" * 4301), Raw("-" + "9" * 4300),
    Raw("1" + "0" * 100_000), Raw("0." + "1" * 100_000),
)
LENGTHS = (0, 1, 10_001, 45_101, 100_001, 300_000)
DEPTHS = (64, 1_000, 100_000, 1_000_000)


@dataclass(frozen=True)
class Damage:
    """One change to a JSON tree: ``what`` at the ``where``-th place, with ``how``."""

    what: str
    where: int
    how: int

    def apply(self, tree: Any) -> Any:
        spots = places(tree)
        path = spots[self.where % len(spots)]
        here = get(tree, path)
        if self.what == "value":
            pool = (*BIG_INTS, *ODD_VALUES)
            return put(tree, path, _fresh(pool[self.how % len(pool)]))
        if self.what == "grow":
            item = emit(here[0]) if isinstance(here, list) and here else "0"
            # no longer than it takes to pass the file limit: the input is built in memory
            count = min(LENGTHS[self.how % len(LENGTHS)], FILE_LIMIT // (len(item) + 1) + 2)
            return put(tree, path, Raw("[" + ",".join([item] * count) + "]"))
        if self.what == "nest":
            depth = DEPTHS[self.how % len(DEPTHS)]
            return put(tree, path, Raw("[" * depth + "]" * depth))
        if self.what == "bomb":
            count = (10_000, 170_000, 499_990, 2_000_000)[self.how % 4]
            return put(tree, path, Raw("[" + ",".join(["[]"] * count) + "]"))
        if self.what == "twice" and isinstance(here, dict) and here:
            pairs = tuple(here.items())
            again = pairs[self.how % len(pairs)]
            other = (again[0], _fresh(ODD_VALUES[self.how % len(ODD_VALUES)])) if self.how % 2 else again
            return put(tree, path, Pairs((*pairs, other)))
        if self.what == "drop" and path:
            parent = get(tree, path[:-1])
            del parent[path[-1]]
            return tree
        if self.what == "extra" and isinstance(here, dict):
            here["zz" + str(self.how % 3)] = self.how
            return tree
        if self.what == "swap":
            other = spots[self.how % len(spots)]
            if other[: len(path)] != path and path[: len(other)] != other:
                value = get(tree, other)
                return put(tree, path, value if _has_holes(value) else json.loads(json.dumps(value)))
        return tree


def _fresh(value: Any) -> Any:
    """A copy of a pool value that shares nothing (``[[100] * 100] * 100`` holds one row
    a hundred times; a later change to one row must not change them all)."""
    return value if isinstance(value, Raw) else json.loads(json.dumps(value))


def _has_holes(node: Any) -> bool:
    if isinstance(node, (Raw, Pairs)):
        return True
    if isinstance(node, dict):
        return any(_has_holes(value) for value in node.values())
    if isinstance(node, list):
        return any(_has_holes(value) for value in node)
    return False


@dataclass(frozen=True)
class TextDamage:
    """A change to the bytes: ``cut`` short, a ``byte`` that is not UTF-8, ``pad`` to the
    size limit (either side), a ``bom``, or a ``crlf`` line end."""

    what: str
    at: float
    how: int

    def apply(self, data: bytes) -> bytes:
        spot = int(len(data) * self.at)
        if self.what == "cut":
            return data[:spot]
        if self.what == "byte":
            return data[:spot] + bytes([(0x80, 0xFF, 0xC0, 0xED, 0x00)[self.how % 5]]) + data[spot:]
        if self.what == "pad":
            target = FILE_LIMIT + (1 if self.how % 2 else 0)
            return data + b" " * max(0, target - len(data))
        if self.what == "bom":
            return b"\xef\xbb\xbf" + data
        return data.replace(b",", b",\r\n", 3)


@dataclass(frozen=True)
class Recipe:
    kind: str
    base: int
    damages: tuple[Damage, ...]
    text: TextDamage | None

    def build(self, bases: dict[str, list[Any]]) -> tuple[str | None, bytes]:
        """The op (for answers) and the damaged bytes."""
        pool = bases[self.kind]
        original = pool[self.base % len(pool)]
        op = original["op"] if self.kind == "answer" else None
        tree = json.loads(json.dumps(original["answer"] if self.kind == "answer" else original))
        for damage in self.damages:
            tree = damage.apply(tree)
        data = emit(tree).encode("utf-8", "surrogatepass") + (b"\n" if self.kind == "answer" else b"")
        if self.text is not None:
            data = self.text.apply(data)
        return op, data


def recipes(kinds: tuple[str, ...]) -> Any:
    """The Hypothesis strategy of recipes."""
    from hypothesis import strategies as st

    damage = st.builds(
        Damage,
        st.sampled_from(("value", "value", "value", "grow", "nest", "bomb", "twice", "drop", "extra", "swap")),
        st.integers(0, 10_000),
        st.integers(0, 1_000),
    )
    text = st.none() | st.builds(
        TextDamage,
        st.sampled_from(("cut", "cut", "byte", "byte", "pad", "bom", "crlf")),
        st.floats(0, 1),
        st.integers(0, 100),
    )
    return st.builds(
        Recipe, st.sampled_from(kinds), st.integers(0, 10), st.lists(damage, max_size=3).map(tuple),
        st.one_of(st.none(), st.none(), text),
    )


# ------------------------------------------------------------------ running one case


class CaseFailed(AssertionError):
    """A case that broke the rules of this harness."""


def _one_line(message: str, what: str) -> None:
    if not message or "\n" in message.rstrip("\n") or "Traceback" in message:
        raise CaseFailed(f"{what}: not one line: {message[:500]!r}")


def run_file(kind: str, data: bytes, workdir: Path) -> str:
    """[C-replay, C-exit] ``hanabi-ref replay`` on the bytes as a file."""
    from hanabi_ref.cli import main

    path = workdir / "case.json"
    path.write_bytes(data)
    argv = ["replay", str(path)] + (["--format", "hanab-live"] if kind == "hanablive" else [])
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    if code == 0:
        return "valid"
    if code not in (1, 2):
        raise CaseFailed(f"replay exited {code}: {err.getvalue()[:500]!r}")
    _one_line(err.getvalue(), "replay's error")
    if not err.getvalue().startswith("hanabi-ref: "):
        raise CaseFailed(f"replay's error lacks the prefix: {err.getvalue()[:300]!r}")
    return f"refused-{code}"


def run_request(data: bytes, bases: dict[str, list[Any]]) -> str:
    """[EP-serve] the bytes as request lines after hello and new_game, then ``state``."""
    from hanabi_ref.tools.protocol.engine import ReferenceEngine
    from hanabi_ref.tools.verify.serve import serve

    hello = b'{"op": "hello", "protocol": "hanabi-ref/engine", "version": 1}\n'
    prefix = hello + (json.dumps(bases["_prefix"][0]) + "\n").encode()
    lines = prefix + data.rstrip(b"\n") + b"\n" + b'{"op": "state"}\n'
    out = io.StringIO()
    serve(ReferenceEngine(), io.BytesIO(lines), out)
    answers = out.getvalue().splitlines()
    for answer in answers:
        value = json.loads(answer)
        if not isinstance(value, dict) or not isinstance(value.get("ok"), bool):
            raise CaseFailed(f"serve answered {answer[:300]!r}")
        if value["ok"] is False:
            reasons = [value.get(key) for key in ("error", "illegal", "unsupported") if key in value]
            if len(reasons) != 1 or not isinstance(reasons[0], str):
                raise CaseFailed(f"serve refused without one reason: {answer[:300]!r}")
    quits = b'"quit"' in data
    if not quits and (len(answers) < 3 or json.loads(answers[-1]).get("state") is None):
        raise CaseFailed(f"serve did not go on to answer state: {answers[-2:]!r}")
    return "answered-ok" if len(answers) >= 3 and json.loads(answers[2])["ok"] else "answered-error"


def run_answer(op: str, data: bytes, bases: dict[str, list[Any]], workdir: Path) -> str:
    """[EP-failures] ``verify``'s engine, a real process, answering ``op`` with the bytes."""
    from hanabi_ref.tools.protocol.engine import EngineFailure, UnsupportedConfig
    from hanabi_ref.tools.verify.process import ProcessEngine

    from hanabi_ref.engine.legality import legal_actions
    from hanabi_ref.formats.serial import state_to_json
    from hanabi_ref.engine.transition import initial_state
    from hanabi_ref.tools.verify.compare import legal_difference, state_difference

    payload = workdir / "answer.bin"
    payload.write_bytes(data)
    config, deck, action = bases["_game"][0]
    state = initial_state(config, deck)
    engine = ProcessEngine(f"{sys.executable} -I -S {RELAY} {payload}", timeout=5.0)
    calls: dict[str, Callable[[], object]] = {
        "new_game": lambda: engine.new_game(config, deck),
        "apply": lambda: engine.apply(action),
        "state": engine.state,
        "legal_actions": engine.legal_actions,
    }
    try:
        taken = calls[op]()
        outcome = "taken"
        if op == "state":  # compared as verify compares it [EP-types]
            difference = state_difference(state_to_json(state), taken)
            outcome = "taken-differs" if difference is not None else "taken-same"
            if difference is not None:
                _one_line(difference, "the state difference")
        elif op == "legal_actions":
            assert isinstance(taken, list)
            outcome = "taken-differs" if legal_difference(legal_actions(state), taken) is not None else "taken-same"
    except (EngineFailure, UnsupportedConfig) as error:
        _one_line(str(error), f"verify's report of the answer to {op}")
        outcome = "failure" if isinstance(error, EngineFailure) else "unsupported"
    finally:
        engine.close()
    return outcome


# ------------------------------------------------------------------ the run


def _status(field: str) -> int:
    """A ``/proc/self/status`` memory field (VmRSS, VmHWM) in bytes."""
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    raise OSError(f"/proc/self/status has no {field}")


def _reset_peak() -> bool:
    """Reset the process's peak resident memory (VmHWM) to its current size (Linux 4.0
    and later); whether that worked."""
    try:
        with open("/proc/self/clear_refs", "w") as clear:
            clear.write("5")
        return True
    except OSError:
        return False


def _case_memory(before: int, reset: bool) -> int:
    """An upper bound on what a case took above the memory held when it started: the
    peak since the reset (exact) or, without one, the process's lifetime peak."""
    peak = _status("VmHWM") if reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return max(0, peak - before)


def _address_space() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")


@dataclass
class Tally:
    outcomes: Counter[str]
    cases: int = 0
    slowest: float = 0.0
    slowest_recipe: str = ""
    baseline: int = 0
    peak_recipe: str = ""
    peak: int = 0
    exact: bool = True


def run(examples: int, seed: int, kinds: tuple[str, ...], shrink: bool = False, only: Recipe | None = None) -> tuple[Tally, str | None]:
    """Run ``examples`` cases; the tally and the failure (None when every case held)."""
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as fix_seed

    os.environ["HANABI_REF_CONTRACTS"] = os.environ.get("HANABI_REF_CONTRACTS", "0")
    bases = _bases()
    tally = Tally(Counter())
    with tempfile.TemporaryDirectory(prefix="hanabi_ref_hostile_") as tmp:
        workdir = Path(tmp)

        def one(recipe: Recipe) -> str:
            op, data = recipe.build(bases)
            if recipe.kind in ("trace", "hanablive"):
                return run_file(recipe.kind, data, workdir)
            if recipe.kind == "request":
                return run_request(data, bases)
            assert op is not None
            return run_answer(op, data, bases, workdir)

        for kind in kinds:  # the warm-up: every kind once, undamaged
            warm_up = Recipe(kind, 0, (), None)
            try:
                one(warm_up)
            except Exception as error:
                return tally, f"{warm_up!r} (the warm-up): {type(error).__name__}: {error}"
        tally.baseline = _status("VmRSS")
        limit = resource.getrlimit(resource.RLIMIT_AS) if hasattr(resource, "RLIMIT_AS") else None
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_AS, (_address_space() + ADDRESS_GUARD, limit[1]))
        try:
            @fix_seed(seed)
            @settings(max_examples=examples, database=None, deadline=None, suppress_health_check=list(HealthCheck),
                      phases=(Phase.generate, Phase.shrink) if shrink else (Phase.generate,), print_blob=False,
                      report_multiple_bugs=False)
            @given(recipes(kinds))
            def check(recipe: Recipe) -> None:
                try:
                    measure(recipe)
                except Exception as error:
                    failures.append(f"{recipe!r}: {type(error).__name__}: {' '.join(str(error).split())[:800]}")
                    raise

            def measure(recipe: Recipe) -> None:
                before = _status("VmRSS")
                reset = _reset_peak()
                tally.exact = tally.exact and reset
                started = time.process_time()
                try:
                    outcome = one(recipe)
                except MemoryError:
                    raise CaseFailed(f"out of memory ({ADDRESS_GUARD >> 20} MiB of address space above the warm-up)") from None
                spent = time.process_time() - started
                tally.cases += 1
                tally.outcomes[f"{recipe.kind}: {outcome}"] += 1
                if spent > tally.slowest:
                    tally.slowest, tally.slowest_recipe = spent, repr(recipe)
                used = _case_memory(before, reset)
                if used > tally.peak:
                    tally.peak, tally.peak_recipe = used, repr(recipe)
                if spent > CPU_LIMIT:
                    raise CaseFailed(f"took {spent:.2f} CPU seconds, more than {CPU_LIMIT:g}")
                if used > MEMORY_LIMIT:
                    raise CaseFailed(f"took {used >> 20} MiB of memory at its peak, more than {MEMORY_LIMIT >> 20}")

            failures: list[str] = []
            if only is not None:
                try:
                    measure(only)
                except Exception as error:
                    return tally, f"{only!r}: {type(error).__name__}: {error}"
                return tally, None
            try:
                check()
            except Exception:  # the (shrunk, with --shrink) failing case is the run's result
                return tally, failures[-1] if failures else "the run failed outside a case"
        finally:  # the guard is this run's: the process (often pytest's) goes on without it
            if limit is not None:
                resource.setrlimit(resource.RLIMIT_AS, limit)
    return tally, None


def summary(tally: Tally, failure: str | None, seconds: float) -> dict[str, Any]:
    return {
        "cases": tally.cases,
        "outcomes": dict(sorted(tally.outcomes.items())),
        "slowest_cpu_seconds": round(tally.slowest, 3),
        "slowest_recipe": tally.slowest_recipe,
        "baseline_mib": tally.baseline >> 20,
        "largest_case_mib": round(tally.peak / (1 << 20), 1),
        "largest_case_recipe": tally.peak_recipe,
        "memory_measured": "per case (peak reset before each)" if tally.exact else "lifetime peak above the case's start (an upper bound)",
        "limits": {"cpu_seconds": CPU_LIMIT, "memory_mib": MEMORY_LIMIT >> 20},
        "wall_seconds": round(seconds, 1),
        "failure": failure,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.hostile", description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=300, help="cases to run (default 300)")
    parser.add_argument("--seed", type=int, default=0, help="Hypothesis seed (default 0)")
    parser.add_argument("--kinds", default=",".join(KINDS), help=f"comma-separated, of {', '.join(KINDS)}")
    parser.add_argument("--shrink", action="store_true", help="shrink a failing case (slow for large inputs)")
    parser.add_argument("--recipe", help="run this one recipe (as printed by a failing run) and nothing else")
    args = parser.parse_args(argv)
    kinds = tuple(kind for kind in args.kinds.split(",") if kind)
    if args.examples < 1 or not kinds or any(kind not in KINDS for kind in kinds):
        parser.error(f"--examples must be >= 1 and --kinds a list of {', '.join(KINDS)}")
    started = time.monotonic()
    only = None
    if args.recipe is not None:
        namespace = {"Recipe": Recipe, "Damage": Damage, "TextDamage": TextDamage}
        only = eval(args.recipe, {"__builtins__": {}}, namespace)  # noqa: S307 - a recipe of our own printing
        kinds = (only.kind,)
    tally, failure = run(args.examples, args.seed, kinds, args.shrink, only)
    print(json.dumps(summary(tally, failure, time.monotonic() - started), indent=1))
    return 1 if failure else 0


if __name__ == "__main__":
    sys.exit(main())
