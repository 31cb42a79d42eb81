"""``hanabi-ref crossplay``: every strategy beside every other [XP-matrix, XP-seats].

Cell (row R, column C) plays ``--games`` games, seeds S .. S+N-1 as in ``simulate``,
with seats 0 .. k-1 played by C and the others by R (k = ``--seats``); the diagonal is
R's self-play.  Every cell uses the same seeds, so cells compare game for game.  The
cells run under simulate's executors with its progress bar; a game that raises counts
as a failure of its cell (reported, never hidden) [SIM-crash].
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from hanabi_ref.base.contracts import ENABLED
from hanabi_ref.base.errors import ConfigError
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.tables import tables_for
from hanabi_ref.players.strategies import strategy_spec
from hanabi_ref.tools.sim.chunks import GameSetup
from hanabi_ref.tools.sim.executors import SetupError
from hanabi_ref.tools.sim.files import check_output_path, write_atomically
from hanabi_ref.tools.sim.runner import Cell, CellResult
from hanabi_ref.tools.sim.simulate import open_executor, run, strategy_seed


def parse_strategies(text: str) -> list[str]:
    """[XP-matrix] ``a,b,c``: known strategy names, each once, at least one."""
    names = [name.strip() for name in text.split(",")]
    if not names or any(not name for name in names):
        raise SetupError(f"--strategies {text!r}: a comma-separated list of strategy names, none empty")
    for name in names:
        if names.count(name) > 1:
            raise SetupError(f"--strategies: {name!r} is named twice")
        try:
            strategy_spec(name)
        except ConfigError as error:  # names the known strategies
            raise ConfigError(f"--strategies: {error}") from None
    return names


def setups(args: argparse.Namespace, names: Sequence[str]) -> tuple[list[GameSetup], GameConfig]:
    """[XP-seats] one setup per cell, row by row; every strategy must play the game."""
    seats = args.seats
    if not 1 <= seats < args.players:
        raise SetupError(f"--seats {seats}: the column strategy takes 1 to {args.players - 1} of the {args.players} seats")
    seed_of_strategies = strategy_seed(args)
    base = GameSetup(args.players, args.rules, args.variant, args.hand_size, names[0], (), seed_of_strategies)
    config = base.config()
    for name in names:
        try:
            strategy_spec(name).check_config(config)
        except ConfigError as error:
            raise ConfigError(f"--strategies {name}: {error}") from None
    if args.seed + args.games > 2**64:
        raise SetupError("--seed: seed + games must stay below 2^64")
    cells = [
        GameSetup(args.players, args.rules, args.variant, args.hand_size, row, (), seed_of_strategies,
                  partner=None if row == column else column, partner_seats=0 if row == column else seats)
        for row in names for column in names
    ]
    return cells, config


def cell_entry(row: str, column: str, result: CellResult) -> dict[str, Any]:
    """[XP-matrix] one cell's numbers: mean score (failed games excluded, and counted as 0
    in ``mean_score_failed_as_zero``), perfect and strike-out rates, failures."""
    stats = result.statistics()
    games = len(result.scores) + len(result.failures)
    return {
        "row": row,
        "column": column,
        "games": games,
        "failures": len(result.failures),
        "first_failure": None if not result.failures else {"seed": result.failures[0].seed, "error": result.failures[0].error},
        "mean_score": stats["mean_score"],
        "mean_score_ci95": stats["mean_score_ci95"],
        "mean_score_failed_as_zero": sum(result.scores) / games if games else None,
        "perfect_rate": stats["perfect_rate"],
        "strikeout_rate": stats["strikeout_rate"],
        "trace_sha256": result.trace_sha256,
    }


def render_table(names: Sequence[str], entries: Sequence[dict[str, Any]], seats: int) -> str:
    """[XP-matrix] three matrices as text: mean score, perfect rate, strike-out rate; a
    cell with failed games is marked ``!`` and the failures listed below."""
    label = max(14, *(len(name) for name in names)) + 1
    widths = [max(7, len(name)) + 2 for name in names]
    lookup = {(entry["row"], entry["column"]): entry for entry in entries}
    lines = [f"rows: the strategy of the other seats; columns: the strategy of seat{'s' if seats > 1 else ''} "
             f"0{'..' + str(seats - 1) if seats > 1 else ''} (the diagonal: self-play)"]
    for title, key, form in (("mean score", "mean_score", "{:.2f}"), ("perfect games", "perfect_rate", "{:.1%}"),
                             ("strike-outs", "strikeout_rate", "{:.1%}")):
        lines.append("")
        lines.append(f"{title}:".ljust(label) + "".join(name.rjust(width) for name, width in zip(names, widths)))
        for row in names:
            cells = []
            for column, width in zip(names, widths):
                entry = lookup[(row, column)]
                value = entry[key]
                text = "-" if value is None else form.format(value)
                cells.append((text + ("!" if entry["failures"] else "")).rjust(width))
            lines.append(row.ljust(label) + "".join(cells))
    failed = [entry for entry in entries if entry["failures"]]
    lines.append("")
    if failed:
        lines.append("games that raised (!):")
        for entry in failed:
            first = entry["first_failure"]
            lines.append(f"  {entry['row']} with {entry['column']}: {entry['failures']} of {entry['games']}; "
                         f"first: seed {first['seed']}: {first['error']}")
    else:
        lines.append("no game raised")
    return "\n".join(lines) + "\n"


def save_heatmap(path: Path, names: Sequence[str], entries: Sequence[dict[str, Any]], title: str) -> None:
    """[XP-plot] the mean-score matrix as a heat map, the value written in each cell."""
    from matplotlib.figure import Figure

    lookup = {(entry["row"], entry["column"]): entry for entry in entries}
    grid = [[lookup[(row, column)]["mean_score"] for column in names] for row in names]
    values = [[float("nan") if value is None else value for value in line] for line in grid]
    size = 1.0 + 0.85 * len(names)
    figure = Figure(figsize=(size + 2.2, size + 0.6), layout="constrained")
    plot = figure.add_subplot()
    image = plot.imshow(values, cmap="viridis", vmin=0, vmax=25)
    for i, line in enumerate(grid):
        for j, value in enumerate(line):
            text = "-" if value is None else f"{value:.1f}"
            colour = "white" if value is None or value < 15 else "black"
            plot.text(j, i, text, ha="center", va="center", color=colour, fontsize="small")
    plot.set_xticks(range(len(names)), names, rotation=40, ha="right")
    plot.set_yticks(range(len(names)), names)
    plot.set_xlabel("strategy of the column seats")
    plot.set_ylabel("strategy of the other seats")
    plot.set_title(title, fontsize="medium")
    figure.colorbar(image, ax=plot, label="mean score")
    file_format = path.suffix.lower().lstrip(".")

    def write(file: Any) -> None:
        figure.savefig(file, format=file_format, metadata={"Date": None} if file_format == "svg" else None)

    write_atomically(path, write, "--plot")


def command_crossplay(args: argparse.Namespace) -> int:
    """[XP-matrix] play every cell on the same seeds and print the matrices (or JSON);
    exit 1 when a game raised [SIM-crash]."""
    if args.seed is None:
        args.seed = 0
    names = parse_strategies(args.strategies)
    cells, config = setups(args, names)
    plot = None
    if args.plot is not None:
        from hanabi_ref.tools.sim.plot import PLOT_SUFFIXES, require_matplotlib

        plot = check_output_path(args.plot, "--plot", PLOT_SUFFIXES)
        require_matplotlib()
    executor = open_executor(args)
    result = run([Cell(setup, args.seed, args.games) for setup in cells], executor, args.chunk_size)
    entries = [cell_entry(setup.strategy, setup.partner or setup.strategy, cell) for setup, cell in zip(cells, result.cells)]
    title = (f"{config.players} players, {config.preset} / {config.variant}, {args.seats} column seat"
             f"{'s' if args.seats > 1 else ''}, {args.games} games per cell (seeds {args.seed}..{args.seed + args.games - 1})")
    if args.json:
        header = {"strategies": names, "players": config.players, "rules": config.preset, "variant": config.variant,
                  "hand_size": config.hand_size, "max_score": tables_for(config).max_score, "seats": args.seats,
                  "games": args.games, "seed": args.seed, "contracts": ENABLED, "jobs": result.workers,
                  "seconds": result.seconds}
        sys.stdout.write(json.dumps({**header, "cells": entries}, indent=1) + "\n")
    else:
        sys.stdout.write(title + "\n" + render_table(names, entries, args.seats))
    if plot is not None:
        save_heatmap(plot, names, entries, title)
    return 1 if any(entry["failures"] for entry in entries) else 0


__all__ = ["cell_entry", "command_crossplay", "parse_strategies", "render_table", "save_heatmap", "setups"]
