"""Every conformance vector on one engine, without stopping at the first divergence.

Usage: python -m tests.engines.peers.vector_matrix "ENGINE COMMAND" [PRESET ...]

``hanabi-ref verify`` stops at the first divergence (EP-vectors). A public engine plays
rules of its own (docs/conformance.md): it diverges on the first vector of a rule it plays
otherwise, and that one hides the rest. Here each transition and game vector of the presets
named (default: all three) is checked in a game of its own, as ``verify`` checks it
(``check_vector``); each divergence is written as ``verify`` writes its reproduction and
told as ``hanabi-ref explain`` tells it, and the verdict lines name the clause. Printed:
one line per diverging vector (its name, what it is about, the first of the clauses it
covers, the verdict), then how many vectors diverged under each clause that a verdict
names (or, where none names one, the vector's first clause). An engine that crashes or leaves the
protocol is restarted for the next vector, and the failure is printed for that vector.
"""

from __future__ import annotations

import re
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

from hanabi_ref.tools.protocol.engine import EngineFailure, UnsupportedConfig
from hanabi_ref.tools.vectors import iter_vectors
from hanabi_ref.tools.verify.explain import explain
from hanabi_ref.tools.verify.process import ProcessEngine
from hanabi_ref.tools.verify.run import Report, check_vector
from hanabi_ref.tools.verify.session import _write_divergence

PRESETS = ("thesis", "hle", "hanab-live")
CLAUSE = re.compile(r"\(([^()]*)\)\s*$")


def verdicts(vector: Any, divergence: Any, folder: Path) -> list[str]:
    """The lines of ``explain`` that give the engine's value beside the rules' (EP-explain)."""
    path = folder / "divergence.json"
    _write_divergence(Report(1, 0, divergence, f"vector {vector.name}"), str(path))
    story = explain(path)
    found = [line.strip() for line in story if line.strip().startswith("the engine")]
    return found or [story[-1].strip()]


def clause_of(verdict: str) -> str:
    """The clause a verdict line ends with, ``(2.16-3-strikeout)``, without the option or
    the reason that may follow it (``(R-3; option draw_after_final_move = false)``,
    ``(E-2: discarding is not allowed ...)``); '?' if none."""
    match = CLAUSE.search(verdict)
    return re.split(r"[;:,]", match.group(1))[0].strip() if match else "?"


def run(command: str, presets: tuple[str, ...]) -> Counter[str]:
    """Print one line per diverging vector and return the counts by outcome and clause."""
    counts: Counter[str] = Counter()
    engine = ProcessEngine(command)
    with tempfile.TemporaryDirectory() as folder:
        for vector in iter_vectors(presets=presets):
            if vector.kind not in ("transition", "game"):
                continue
            try:
                divergence = check_vector(engine, vector)
            except UnsupportedConfig:
                counts["unsupported"] += 1
                continue
            except EngineFailure as failure:
                counts["engine failed"] += 1
                print(f"FAILS    {vector.name} ({vector.data['description']}): {failure}")
                engine.close()
                engine = ProcessEngine(command)
                continue
            if divergence is None:
                counts["agree"] += 1
                continue
            counts["diverge"] += 1
            found = verdicts(vector, divergence, Path(folder))
            subject = vector.data["clauses"][0]  # the rule the vector is about
            named = {clause_of(verdict) for verdict in found} - {"?"}
            for clause in sorted(named) or [subject]:
                counts[f"clause {clause}"] += 1
            print(f"DIVERGES {vector.name} ({vector.data['description']}; about {subject}): {'; '.join(found)}")
    engine.close()
    return counts


def main(argv: list[str]) -> int:
    if not argv or any(preset not in PRESETS for preset in argv[1:]):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    counts = run(argv[0], tuple(argv[1:]) or PRESETS)
    outcomes = ("agree", "diverge", "unsupported", "engine failed")
    print("vectors  " + ", ".join(f"{counts[name]} {name}" for name in outcomes))
    clauses = sorted((key[7:], n) for key, n in counts.items() if key.startswith("clause "))
    print("clauses  " + ", ".join(f"{clause} {n}" for clause, n in clauses))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
