"""Output of ``hanabi-ref playability`` [PL-cli] (its parser is :mod:`hanabi_ref.tools.playability.commands`)."""

from __future__ import annotations

import json

from hanabi_ref.tools.playability.composition import parse_composition
from hanabi_ref.tools.playability.exact import exact_count
from hanabi_ref.tools.playability.sampling import estimate
from hanabi_ref.tools.playability.table import HAND_SIZES, appendix_a


def print_count(counts: str, hand_size: int, samples: int | None, seed: int, as_json: bool) -> int:
    """``playability count``: exact by default, sampled with ``--samples`` [PL-cli]."""
    composition = parse_composition(counts)
    described = f"composition {composition.describe()}, hand size {hand_size}"
    if samples is None:
        result = exact_count(composition, hand_size)
        if as_json:
            print(json.dumps({"playable": result.playable, "total": result.total, "fraction": result.fraction}, sort_keys=True))
        else:
            print(f"{described}: {result.playable} of {result.total} orders are playable ({result.fraction:.6f})")
        return 0
    sampled = estimate(composition, hand_size, samples, seed)
    if as_json:
        report = {
            "samples": sampled.samples,
            "playable_samples": sampled.playable_samples,
            "fraction": sampled.fraction,
            "ci95": [sampled.low, sampled.high],
            "seed": seed,
            "total": composition.total,
        }
        print(json.dumps(report, sort_keys=True))
    else:
        print(
            f"{described}: {sampled.playable_samples} of {sampled.samples} sampled orders are playable "
            f"({sampled.fraction:.6f}, 95% interval {sampled.low:.6f} to {sampled.high:.6f}, seed {seed})"
        )
    return 0


def print_table(as_json: bool) -> int:
    """``playability table``: Appendix A, computed [PL-table]."""
    rows = appendix_a()
    if as_json:
        report = [
            {"counts": list(row.counts), "total": row.total, "playable": list(row.playable), "fractions": list(row.fractions)}
            for row in rows
        ]
        print(json.dumps(report, sort_keys=True))
        return 0
    header = "(x1, x2, x3, x4, x5)  " + "  ".join(f" m = {m}" for m in HAND_SIZES)
    print(header)
    for row in rows:
        cells = "  ".join(f"{fraction:.4f}" for fraction in row.fractions)
        print(f"{str(row.counts):<21} {cells}")
    return 0
