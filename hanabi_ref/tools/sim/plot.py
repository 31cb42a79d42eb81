"""Charts of a sweep with matplotlib (the optional ``plot`` extra) [SIM-plot].

``mean``: the mean score against the first grid key with 95% intervals as error bars,
one line per combination of the other keys.  ``distribution``: the score distribution
of every point of the grid, one small histogram each, with the mean marked.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from hanabi_ref.tools.sim.executors import SetupError
from hanabi_ref.tools.sim.files import write_atomically
from hanabi_ref.tools.sim.runner import CellResult
from hanabi_ref.tools.sim.sweep import Axis, point_label
from hanabi_ref.players.strategies import Value
from hanabi_ref.base.extras import install_hint

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PLOT_SUFFIXES = (".png", ".svg")
PLOT_KINDS = ("mean", "distribution")

Cells = Sequence[tuple[Mapping[str, Value], CellResult]]


def require_matplotlib() -> None:
    """[SIM-errors] matplotlib is importable, or :class:`SetupError` saying how to install it."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise SetupError(f"--plot: needs matplotlib: {install_hint('plot')}") from None


def save_plot(path: Path, kind: str, axes: Sequence[Axis], cells: Cells, title: str) -> None:
    """Draw the ``kind`` chart and write it to ``path`` (PNG or SVG by its suffix) [SIM-plot]:
    a regular file atomically, a FIFO or a device straight through [OUT-atomic, OUT-special]."""
    figure = mean_figure(axes, cells, title) if kind == "mean" else distribution_figure(cells, title)
    file_format = path.suffix.lower().lstrip(".")

    def write(file: BinaryIO) -> None:
        metadata = {"Date": None} if file_format == "svg" else None  # the same sweep, the same file
        figure.savefig(file, format=file_format, metadata=metadata)

    write_atomically(path, write, "--plot")


def _is_number(value: Value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def mean_figure(axes: Sequence[Axis], cells: Cells, title: str) -> Figure:
    """Mean score against the first key, one line (with 95% error bars) per combination
    of the other keys [SIM-plot]."""
    from matplotlib.figure import Figure

    first = axes[0]
    numeric = all(_is_number(value) for value in first.values)
    positions = {value: (float(value) if numeric else float(place)) for place, value in enumerate(first.values)}
    series: dict[str, list[tuple[Value, CellResult]]] = {}
    for point, result in cells:
        rest = {key: value for key, value in point.items() if key != first.name}
        series.setdefault(point_label(rest), []).append((point[first.name], result))
    figure = Figure(figsize=(7.5, 4.8), layout="constrained")
    plot = figure.add_subplot()
    spacing = min((b - a for a, b in zip(sorted(positions.values()), sorted(positions.values())[1:])), default=1.0)
    for number, (label, members) in enumerate(series.items()):
        dodge = (number - (len(series) - 1) / 2) * 0.12 * spacing / max(1, len(series) - 1) if len(series) > 1 else 0.0
        xs, ys, below, above = [], [], [], []
        for value, result in members:
            stats = result.statistics()
            if stats["mean_score"] is None:
                continue  # no game of this point finished
            low, high = stats["mean_score_ci95"]
            xs.append(positions[value] + dodge)
            ys.append(stats["mean_score"])
            below.append(stats["mean_score"] - low)
            above.append(high - stats["mean_score"])
        plot.errorbar(xs, ys, yerr=[below, above], marker="o", capsize=3, label=label or None)
    if not numeric:
        plot.set_xticks([positions[value] for value in first.values], [str(value) for value in first.values])
    plot.set_xlabel(first.name)
    plot.set_ylabel("mean score (95% interval)")
    plot.set_title(title, fontsize="medium")
    plot.grid(True, alpha=0.3)
    if len(series) > 1:
        plot.legend(title=", ".join(axis.name for axis in axes[1:]), fontsize="small")
    return figure


def distribution_figure(cells: Cells, title: str) -> Figure:
    """The share of games ending with each score, one panel per point [SIM-plot]."""
    from matplotlib.figure import Figure

    columns = min(4, math.ceil(math.sqrt(len(cells))))
    rows = math.ceil(len(cells) / columns)
    figure = Figure(figsize=(3.2 * columns + 0.5, 2.4 * rows + 0.8), layout="constrained")
    panels = figure.subplots(rows, columns, sharex=True, sharey=True, squeeze=False)
    for place, (point, result) in enumerate(cells):
        panel = panels[place // columns][place % columns]
        stats = result.statistics()
        finished = max(1, stats["games_completed"])
        panel.bar(range(result.max_score + 1), [count / finished for count in stats["score_histogram"]], width=0.9)
        if stats["mean_score"] is not None:
            panel.axvline(stats["mean_score"], color="black", linewidth=1, linestyle="--")
            panel.set_title(f"{point_label(point)}\nmean {stats['mean_score']:.2f}", fontsize="small")
        else:
            panel.set_title(f"{point_label(point)}\nno game finished", fontsize="small")
    for place in range(len(cells), rows * columns):
        panels[place // columns][place % columns].set_visible(False)
    for place in range(max(0, len(cells) - columns), len(cells)):  # the lowest panel of each column
        panels[place // columns][place % columns].set_xlabel("score")
        panels[place // columns][place % columns].xaxis.set_tick_params(labelbottom=True)
    for panel in panels[:, 0]:
        panel.set_ylabel("share of games")
    figure.suptitle(title, fontsize="medium")
    return figure
