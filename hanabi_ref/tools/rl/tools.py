"""What the ``hanabi-ref rl`` commands run [RL-cli] (their parsers are
:mod:`hanabi_ref.tools.rl.commands`): ``check`` (the encoders against OpenSpiel) and ``play``
(one game's encodings, section by section, for people writing an encoder)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from typing import Any, TypeVar
import numpy as np

from hanabi_ref.engine.actions import describe
from hanabi_ref.players.runner import play_game
from hanabi_ref.tools.rl.encoders import encode
from hanabi_ref.tools.rl.layout import Layout, layout
from hanabi_ref.engine.cards import Identity, suit_of, value_of
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.players.strategy import StrategyFactory
from hanabi_ref.engine.transition import initial_state
from hanabi_ref.engine.transition import apply as apply_action
from hanabi_ref.engine.view import make_view
from hanabi_ref.base.extras import install_hint


Result = TypeVar("Result")


def with_state_bar(states: int, run: Callable[[Callable[[int], None]], Result]) -> Result:
    """``run`` given a function that advances a bar of ``states`` states on standard error
    (shown only on a terminal), as ``rl check`` and ``rl compose`` count their states."""
    from tqdm import tqdm

    with tqdm(total=states, unit="state", file=sys.stderr, disable=not sys.stderr.isatty(), leave=False) as bar:
        def advance(count: int) -> None:
            bar.update(count)

        return run(advance)


def run_check(states: int, seed: int, as_json: bool) -> bool:
    """[RL-check, RL-cli] compare at least ``states`` (state, seat) pairs per encoding with
    OpenSpiel; print the count and the first difference; True when there is none."""
    from hanabi_ref.tools.rl.check import check_against_openspiel

    report = with_state_bar(states, lambda advance: check_against_openspiel(states, seed, progress=advance))
    difference = None if report.difference is None else report.difference.describe()
    if as_json:
        print(json.dumps({"against": "openspiel", "encodings": ["canonical", "minimal"], "states": report.states,
                          "games": report.games, "configurations": report.configs,
                          "coverage": dict(sorted(report.coverage.items())), "difference": difference},
                         sort_keys=True))
    else:
        verdict = "0 differences" if difference is None else f"DIFFERENT: {difference}"
        print(f"canonical and minimal against OpenSpiel: {report.states} states per encoding, {report.games} games, "
              f"{report.configs} configurations (seed {seed}): {verdict}")
        print("situations: " + ", ".join(f"{name} {count}" for name, count in sorted(report.coverage.items())))
    return difference is None


def _name(config: GameConfig, card: Identity) -> str:
    """A card identity as its suit letter and value, e.g. ``R3``."""
    return f"{config.suits[suit_of(card, config.values)].abbreviation}{value_of(card, config.values)}"


def sections_of(lay: Layout, config: GameConfig, vector: np.ndarray) -> Iterator[tuple[str, str, str]]:
    """Each section's name, clause and its content in words: the offsets set to one, and
    for the belief, card by card (relative seat, slot), the identities with their weights."""
    dims = lay.dims
    per = dims.identities + dims.colours + dims.ranks
    for section in lay.sections:
        part = vector[section.start:section.stop]
        if section.name != "belief":
            yield section.name, section.clause, " ".join(str(int(index)) for index in np.nonzero(part)[0])
            continue
        cards = []
        for index in range(section.length // per):
            card = part[index * per:(index + 1) * per]
            if card.any():
                weights = " ".join(f"{_name(config, Identity(int(i)))}:{card[i]:.3f}" for i in np.nonzero(card[:dims.identities])[0])
                shown = [int(i) for i in np.nonzero(card[dims.identities:])[0]]
                cards.append(f"(+{index // dims.hand_size} slot {index % dims.hand_size}: {weights}; revealed {shown})")
        yield section.name, section.clause, " ".join(cards)


def run_play(encoding: str, config: GameConfig, factory: StrategyFactory, seed: int, all_seats: bool,
             as_json: bool) -> None:
    """[RL-cli] play the game of ``seed`` and print, before every move and at the end, the
    encoding of the acting seat's view (every seat's with ``all_seats``)."""
    lay = layout(encoding, config)  # refuse the name or the configuration before playing
    record = play_game(config, factory, seed=seed)
    state = initial_state(config, record.trace.deck)
    actions = list(record.trace.actions)
    for index in range(len(actions) + 1):
        seats = range(config.players) if all_seats or state.terminal else [state.current_player]
        action = describe(actions[index]) if index < len(actions) else None
        for seat in seats:
            vector = encode(encoding, make_view(state, seat))
            if as_json:
                print(json.dumps({"turn": state.turns, "seat": seat, "acting": seat == state.current_player and not state.terminal,
                                  "action": action if seat == state.current_player else None, "encoding": encoding,
                                  "vector": [float(value) for value in vector]}))
            else:
                head = f"turn {state.turns} seat {seat}" + (f" (then {action})" if action and seat == state.current_player else "")
                print(head)
                for name, clause, entries in sections_of(lay, config, vector):
                    print(f"  {name:<22} [{clause}] {entries}")
        if index < len(actions):
            state = apply_action(state, actions[index])


def single_bench(config: GameConfig, steps: int, seed: int = 0) -> float:
    """[RL-bench] encoded steps per CPU second of the PettingZoo environment (canonical
    encoding): random legal actions from the masks (Python's ``random``, as OpenSpiel's
    loop chooses), the whole loop timed."""
    import random
    import time

    from hanabi_ref.tools.rl.env import HanabiAECEnv

    env = HanabiAECEnv(config=config)
    rng = random.Random(seed)
    done, game = 0, seed
    start = time.process_time()
    while done < steps:
        env.reset(seed=game)
        game += 1
        while env.agents and done < steps:
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
            done += 1
    spent = time.process_time() - start
    return done / spent if spent > 0 else float("inf")


def run_bench(config: GameConfig, sizes: list[int], repeats: int, as_json: bool) -> None:
    """[RL-bench, RL-cli] the medians of ``repeats`` runs of each measure, in one process,
    interleaved, with the ratios to OpenSpiel's ``observation_tensor`` per step and the
    machine's load average (one minute) at the start and the end."""
    import importlib.util
    import os
    import statistics

    from hanabi_ref.tools.rl.batch import bench, openspiel_bench
    from hanabi_ref.tools.rl.errors import RLError

    if importlib.util.find_spec("pyspiel") is None:  # [C-extras] before anything runs: exit 2, one line
        raise RLError("RL-bench", f"rl bench measures against OpenSpiel, which needs open-spiel: {install_hint('openspiel')}")

    measures: dict[str, Any] = {
        "openspiel observation_tensor": lambda: openspiel_bench(config, 20_000),
        "openspiel observer buffer": lambda: openspiel_bench(config, 20_000, observer=True),
        "single environment (PettingZoo)": lambda: single_bench(config, 3_000),
    }
    for n in sizes:
        measures[f"batch N={n}"] = (lambda n: lambda: bench(config, n, max(20, 200_000 // n // 4)))(n)
    runs: dict[str, list[float]] = {name: [] for name in measures}
    load_before = os.getloadavg()[0]
    for _ in range(repeats):
        for name, measure in measures.items():
            runs[name].append(measure())
    medians = {name: statistics.median(values) for name, values in runs.items()}
    bar = medians["openspiel observation_tensor"]
    load = [round(load_before, 2), round(os.getloadavg()[0], 2)]
    if as_json:
        print(json.dumps({"players": config.players, "hand_size": config.hand_size, "repeats": repeats, "load": load,
                          "steps_per_cpu_second": medians, "runs": runs,
                          "ratio_to_openspiel_observation_tensor": {name: value / bar for name, value in medians.items()}},
                         sort_keys=True))
        return
    print(f"encoded steps per CPU second, {config.players} players, hand {config.hand_size}, canonical encoding, "
          f"median of {repeats} interleaved runs (one core), load average {load[0]} at the start, {load[1]} at the end:")
    for name, value in medians.items():
        print(f"  {name:<34} {value:>12,.0f}  {value / bar:6.2f}x")


# ------------------------------------------------------------------ learned agents

AGENTS = ("recommendation",)
"""[RL-train-cli] the agents ``rl train`` trains."""


def run_train(agent: str, players: int, rules: str, steps: int, seed: int, out: str, options: dict[str, Any]) -> None:
    """[RL-train-cli] train ``agent`` into directory ``out`` (resuming the run there), with a
    progress bar of game moves (their rate, the running mean score); a summary at the end.
    [SV-signals] Ctrl-C goes on to the command line (exit 130); SIGTERM and SIGHUP end the
    process here with their line (exit 143, 129); the checkpoint keeps what was last saved,
    each of its files whole (RL-train-files)."""
    import time
    from pathlib import Path

    from tqdm import tqdm

    from hanabi_ref.tools.rl.errors import RLError
    from hanabi_ref.tools.rl.train.learn import Settings, Trainer
    from hanabi_ref.tools.rl.train.team import team_unsupported
    from hanabi_ref.base.signals import Stopped, exit_now, signals_stop_run

    if agent not in AGENTS:
        raise RLError("RL-train-cli", f"--agent: unknown agent {agent!r} (known: {', '.join(AGENTS)})")
    settings = Settings(players=players, rules=rules, steps=steps, seed=seed, **options)
    problem = team_unsupported(settings.config())
    if problem is not None:
        raise RLError("RL-train-team", problem)
    trainer = Trainer(settings, Path(out))
    resumed = trainer.resume()
    recent: list[float] = []
    start = time.monotonic()
    with tqdm(total=steps, initial=min(trainer.moves, steps), unit="move", file=sys.stderr,
              disable=not sys.stderr.isatty(), dynamic_ncols=True) as bar:
        def progress(moves: int, score: float | None) -> None:
            if score is not None:
                recent.append(score)
                del recent[:-20]
                bar.set_postfix_str(f"mean score {sum(recent) / len(recent):.2f} (last {len(recent)} updates)")
            bar.update(min(moves, steps) - bar.n)

        with signals_stop_run():  # [SV-signals] SIGTERM and SIGHUP stop it as Ctrl-C does
            try:
                trainer.run(progress)
            except Stopped as stop:
                print(stop.line, file=sys.stderr)
                exit_now(stop.code)
    last = [point for point in trainer.curve if point["phase"] == "pg"][-20:]
    mean = sum(point["mean_score"] for point in last) / len(last) if last else float("nan")
    print(f"rl train: {agent}, {players} players, {rules} rules, seed {seed}: {trainer.moves} moves, "
          f"{trainer.updates} updates{' (resumed)' if resumed else ''}, {time.monotonic() - start:.0f} s; "
          f"mean score of the last {len(last)} updates' games {mean:.2f}; wrote {out}/model.npz")


def model_path(directory: str) -> str:
    """The model file of a training directory (or the file itself)."""
    import os

    return os.path.join(directory, "model.npz") if os.path.isdir(directory) else directory


def eval_arguments(directory: str, games: int, seed: int, jobs: int | None, as_json: bool) -> list[str]:
    """[RL-train-cli] the ``simulate`` arguments that play a trained model's team (with the
    run's judge of stale plays, ``judge.npz``, when the directory holds one)."""
    import os

    from hanabi_ref.tools.rl.learned import model_file

    path = model_path(directory)
    meta = model_file(path).meta  # read once: simulate, in this process, finds it read
    judge = os.path.join(directory, "judge.npz") if os.path.isdir(directory) else "none"
    if judge != "none" and not os.path.exists(judge):
        judge = "none"
    arguments = ["simulate", "--strategy", "learned-recommendation", "--param", f"model={path}", "--param", f"judge={judge}",
                 "--players", str(meta["players"]), "--rules", str(meta["rules"]), "--games", str(games), "--seed", str(seed)]
    if jobs is not None:
        arguments += ["--jobs", str(jobs)]
    return arguments + (["--json"] if as_json else [])


def write_curve(directory: str, png: str) -> None:
    """[RL-train-cli] the learning curve of a training directory as a PNG: the mean score of
    every update's games (and its running mean) against the game moves played."""
    import os
    from pathlib import Path

    from hanabi_ref.base.errors import FileReadError, TraceError
    from hanabi_ref.tools.rl.errors import RLError
    from hanabi_ref.tools.sim.files import write_atomically
    from hanabi_ref.formats.trace import read_json_file

    source = os.path.join(directory, "curve.json")
    try:  # [L-files] read as any JSON input: a regular file, bounded in bytes and values
        data = read_json_file(source)
        points = data.get("points") if isinstance(data, dict) else None
        if not isinstance(points, list) or not all(isinstance(point, dict) for point in points):
            raise TypeError("points is not a list of objects")
    except (FileReadError, TraceError, KeyError, TypeError) as error:
        raise RLError("RL-train-files", f"{source}: not a training curve ({' '.join(str(error).split())})") from None
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise RLError("RL-train-extra", f"--png: needs matplotlib: {install_hint('plot')}") from None
    updates = [point for point in points if point.get("phase") == "pg"]
    cloning = [point for point in points if point.get("phase") == "bc"]
    figure = Figure(figsize=(7.5, 4.5), layout="constrained")
    plot = figure.add_subplot()
    moves = [point["moves"] for point in updates]
    scores = [point["mean_score"] for point in updates]
    plot.plot(moves, scores, ".", markersize=2, alpha=0.4, label="games of one update")
    window = 25
    running = [sum(scores[max(0, i - window + 1):i + 1]) / len(scores[max(0, i - window + 1):i + 1]) for i in range(len(scores))]
    plot.plot(moves, running, "-", label=f"running mean of {window} updates")
    if cloning:
        plot.axhline(cloning[-1]["teacher_mean_score"], linestyle="--", color="grey", label="the teacher's team")
    judged = [point for point in points if point.get("phase") == "judge"]
    if judged:  # [RL-train-judge-fit] the cloned recommender with the judge, at the chosen threshold
        last = judged[-1]
        plot.axhline(last["thresholds"][str(last["threshold"])], linestyle=":", color="black",
                     label="cloned, with the judge")
    plot.set_xlabel("game moves played")
    plot.set_ylabel("mean score")
    plot.legend(loc="lower right")

    def write(file: Any) -> None:
        figure.savefig(file, format="png", metadata={"Software": None})

    write_atomically(Path(png), write, "--png")
