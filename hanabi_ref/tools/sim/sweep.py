"""Parameter sweeps: a grid of strategy parameters, every point on the same seeds, as a
table [SIM-sweep, SIM-errors].

``--grid omega_p=0.4,0.6 --grid rho_h=1,3`` is the grid of the points (0.4, 1), (0.4, 3),
(0.6, 1), (0.6, 3): the cartesian product in the order given, the first key varying
slowest.  Every value is checked by its parameter before a game is played.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

import attrs

from hanabi_ref.tools.sim.runner import CellResult
from hanabi_ref.players.strategies import ParamError, StrategySpec, Value

FORMATS = ("table", "csv", "json")

STAT_COLUMNS = (
    "mean_score", "mean_score_ci95_low", "mean_score_ci95_high", "std_error",
    "perfect_rate", "perfect_rate_ci95_low", "perfect_rate_ci95_high", "strikeout_rate",
    "lowest_score", "highest_score", "games", "failed_games",
)
"""The columns after the grid values, in the CSV header and in the table."""


@attrs.frozen
class Axis:
    """One key of the grid and its values, checked and in the order given."""

    name: str
    values: tuple[Value, ...]


def parse_grid(items: Sequence[str], spec: StrategySpec, fixed: Mapping[str, object]) -> tuple[Axis, ...]:
    """``--grid key=v1,v2,...`` items as axes, each value checked by the strategy's
    parameter; malformed items raise :class:`ParamError` naming the item [SIM-errors]."""
    axes: list[Axis] = []
    for item in items:
        axis = _parse_axis(item, spec)
        where = f"--grid {item!r}"
        if any(axis.name == other.name for other in axes):
            raise ParamError(f"{where}: parameter {axis.name} given twice")
        if axis.name in fixed:
            raise ParamError(f"{where}: parameter {axis.name} is also given by --param")
        axes.append(axis)
    return tuple(axes)


def _parse_axis(item: str, spec: StrategySpec) -> Axis:
    where = f"--grid {item!r}"
    key, sep, text = item.partition("=")
    key = key.strip()
    if not sep:
        raise ParamError(f"{where}: expected key=v1,v2,...")
    if not key:
        raise ParamError(f"{where}: missing parameter name before '='")
    if not text.strip():
        raise ParamError(f"{where}: empty value list")
    try:
        param = spec.param(key)
    except ParamError as error:
        raise ParamError(f"{where}: {error}") from None
    values: list[Value] = []
    for position, word in enumerate(text.split(","), start=1):
        if not word.strip():
            raise ParamError(f"{where}: empty value at position {position}")
        try:
            value = param.check(word, spec.name)
        except ParamError as error:
            raise ParamError(f"{where}: {error}") from None
        if value in values:
            raise ParamError(f"{where}: value {word.strip()!r} given twice")
        values.append(value)
    return Axis(key, tuple(values))


def points(axes: Sequence[Axis]) -> list[dict[str, Value]]:
    """Every point of the grid, the first axis varying slowest [SIM-sweep]."""
    return [dict(zip((axis.name for axis in axes), combination))
            for combination in itertools.product(*(axis.values for axis in axes))]


# ------------------------------------------------------------------ rows


def row(point: Mapping[str, Value], result: CellResult) -> dict[str, Any]:
    """One row of the table: the point's values, then :data:`STAT_COLUMNS` (``None``
    where no game of the cell finished)."""
    stats = result.statistics()
    low, high = stats["mean_score_ci95"] or (None, None)
    perfect_low, perfect_high = stats["perfect_rate_ci95"] or (None, None)
    return {
        **point,
        "mean_score": stats["mean_score"],
        "mean_score_ci95_low": low,
        "mean_score_ci95_high": high,
        "std_error": stats["std_error"],
        "perfect_rate": stats["perfect_rate"],
        "perfect_rate_ci95_low": perfect_low,
        "perfect_rate_ci95_high": perfect_high,
        "strikeout_rate": stats["strikeout_rate"],
        "lowest_score": stats["lowest_score"],
        "highest_score": stats["highest_score"],
        "games": stats["games_completed"],
        "failed_games": len(result.failures),
    }


def render_csv(axes: Sequence[Axis], rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows as CSV with a header line; numbers at full precision, empty cells for
    statistics of a cell where no game finished."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    columns = [axis.name for axis in axes] + list(STAT_COLUMNS)
    writer.writerow(columns)
    for entry in rows:
        writer.writerow(["" if entry[column] is None else entry[column] for column in columns])
    return buffer.getvalue()


def render_json(header: Mapping[str, Any], axes: Sequence[Axis], cells: Sequence[tuple[Mapping[str, Value], CellResult]]) -> str:
    """One JSON object: the run's settings, the grid, and per point its values, all its
    resolved parameters, the statistics of ``simulate --json``, its trace hash and its
    outcome hash [SIM-sweep, SIM-trace-hash, SIM-outcome-hash]."""
    document = {
        **header,
        "grid": [{"name": axis.name, "values": list(axis.values)} for axis in axes],
        "rows": [
            {"values": dict(point), "params": dict(result.cell.setup.params), **result.statistics(),
             "games": result.cell.games, "failed_seeds": result.failed_seeds, "trace_sha256": result.trace_sha256,
             "outcome_sha256": result.outcome_sha256}
            for point, result in cells
        ],
    }
    return json.dumps(document, indent=2) + "\n"


def render_table(axes: Sequence[Axis], rows: Sequence[Mapping[str, Any]]) -> str:
    """The rows as an aligned text table for a terminal."""
    headings = [axis.name for axis in axes] + ["mean score", "95% CI", "std err", "perfect", "95% CI",
                                               "strikeouts", "min", "max", "games"]
    lines = [[str(entry[axis.name]) for axis in axes] + _table_statistics(entry) for entry in rows]
    widths = [max(len(cells[i]) for cells in [headings, *lines]) for i in range(len(headings))]
    text = ["  ".join(cell.rjust(width) for cell, width in zip(cells, widths)).rstrip() for cells in [headings, *lines]]
    return "\n".join(text) + "\n"


def _table_statistics(entry: Mapping[str, Any]) -> list[str]:
    games = str(entry["games"]) + (f" ({entry['failed_games']} failed)" if entry["failed_games"] else "")
    if entry["mean_score"] is None:
        return ["-", "-", "-", "-", "-", "-", "-", "-", games]
    return [
        f"{entry['mean_score']:.3f}",
        f"[{entry['mean_score_ci95_low']:.3f}, {entry['mean_score_ci95_high']:.3f}]",
        f"{entry['std_error']:.3f}",
        _percent(entry["perfect_rate"]),
        f"[{_percent(entry['perfect_rate_ci95_low'])}, {_percent(entry['perfect_rate_ci95_high'])}]",
        _percent(entry["strikeout_rate"]),
        str(entry["lowest_score"]),
        str(entry["highest_score"]),
        games,
    ]


def _percent(rate: float) -> str:
    return f"{100 * rate:.2f}%" if math.isfinite(rate) else "-"


def point_label(point: Mapping[str, Value]) -> str:
    """``omega_p=0.6, rho_h=3``: a point as text for messages and plot legends."""
    return ", ".join(f"{key}={value}" for key, value in point.items())
