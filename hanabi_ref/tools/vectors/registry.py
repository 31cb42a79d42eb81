"""The table of case functions and the table of clauses no vector can show [VEC-cases,
VEC-coverage].

A case function takes a :class:`~hanabi_ref.tools.vectors.build.Maker` (its own name and one
preset) and yields vectors; its checks run while it yields, so running it is a test and
collecting what it yields is the generator.  Each ``cases_*`` module lists its case
functions in its ``CASES``; :func:`case_table` puts them together, module by module in the
order of :data:`CASE_MODULES` (nothing registers itself on import).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from typing import Final

from hanabi_ref.tools.vectors import (cases_deck_plays, cases_endings, cases_moves, cases_setup, cases_variant_rules,
                                      cases_variants)
from hanabi_ref.tools.vectors.build import Maker
from hanabi_ref.tools.vectors.model import PRESET_NAMES, Vector

CaseFunction = Callable[[Maker], Iterator[Vector]]

CASE_MODULES: Final = (cases_setup, cases_moves, cases_endings, cases_variants, cases_deck_plays, cases_variant_rules)
"""The modules of case functions; their order is the order of :func:`iter_vectors`."""

# [VEC-coverage] (clause, preset) pairs that no vector covers, with the reason.  Every
# other clause of spec/rules.md outside "Not formalized" (except the command line, C-*,
# and the benchmarks, B-engine, B-strategy, B-verify and B-isolate) has a vector under every preset.
NOT_APPLICABLE: Final[dict[tuple[str, str], str]] = {
    ("E-17", preset): (
        "an unbounded stack cannot be written down: every vector's deck is a finite list, "
        "so there is no input on which an engine could accept or refuse N = infinity"
    )
    for preset in PRESET_NAMES
}

# [VEC-coverage] clauses about our own command line and benchmarks, not about the game.
EXEMPT_PREFIXES: Final = ("C-", "L-")
EXEMPT_CLAUSES: Final = frozenset({"B-engine", "B-strategy", "B-verify", "B-isolate"})


def case_table() -> dict[str, CaseFunction]:
    """Every case function under its own name, module by module in the order of
    :data:`CASE_MODULES` [VEC-cases]; a name listed twice is a ValueError."""
    table: dict[str, CaseFunction] = {}
    for module in CASE_MODULES:
        for function in module.CASES:
            if function.__name__ in table:
                raise ValueError(f"case {function.__name__} is listed twice")
            table[function.__name__] = function
    return table


def run_case(name: str, preset: str) -> list[Vector]:
    """Every vector of one case function under one preset, its checks run [VEC-cases]."""
    return list(case_table()[name](Maker(name, preset)))


def iter_vectors(presets: Sequence[str] = PRESET_NAMES, cases: Sequence[str] | None = None) -> Iterator[Vector]:
    """Every vector, preset by preset and case by case in the order of :func:`case_table`
    [VEC-generate]; each case's checks run as it yields."""
    table = case_table()
    for preset in presets:
        for name in table if cases is None else cases:
            yield from table[name](Maker(name, preset))


@functools.cache
def all_vectors() -> tuple[Vector, ...]:
    """Every vector of :func:`iter_vectors`, generated (and checked) once per process and
    kept: ``verify`` reads them and never changes them [VEC-generate, EP-vectors].  Cached
    at module level on purpose: one entry (no argument), an immutable tuple that depends
    only on the package's source."""
    return tuple(iter_vectors())
