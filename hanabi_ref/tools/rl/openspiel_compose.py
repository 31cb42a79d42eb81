"""Our OpenSpiel game beside OpenSpiel's ``hanabi``, state by state [RL-os-compose].

Both games are loaded with the ``hle`` rules and the same player count and are given the
same actions: the chance outcomes are drawn from our game's ``chance_outcomes`` and the
moves chosen by the differential driver (PE-differential: uniformly random legal moves
in one game of three, the cheating driver with a tenth of random moves in the others).
At every state, chance nodes and the terminal state included, everything OpenSpiel's
API shows must be equal: the player to move, whether it is a chance node or the end,
the legal actions and the chance outcomes with their probabilities, the strings of
those actions, the rewards and returns, the history, ``str(state)`` and, for every
seat, the observation tensor and the observation string.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np

from hanabi_ref.base.stats import outcome_at
from hanabi_ref.engine.legality import legal_actions
from hanabi_ref.tools.peers.choosers import DriverChooser
from hanabi_ref.tools.rl.actions import plain_actions
from hanabi_ref.tools.rl.openspiel_game import GAME_NAME, HanabiRefState, load_game

PLAYERS = (2, 3, 4, 5)
"""The player counts of OpenSpiel's ``hanabi`` (the ``hle`` preset's), cycled through."""


class Divergence(NamedTuple):
    """The first state where the two games differ."""

    players: int
    game: int
    actions: tuple[int, ...]
    what: str

    def describe(self) -> str:
        return (f"{self.players} players, game {self.game}, after {len(self.actions)} actions "
                f"{list(self.actions)}: {self.what}")


class ComposeReport(NamedTuple):
    states: int
    games: int
    coverage: Counter[str]
    divergence: Divergence | None


def first_difference(ours: Any, theirs: Any, players: int) -> str | None:
    """What differs first between our state and OpenSpiel's, or None [RL-os-compose]."""
    checks: list[tuple[str, Callable[[Any], object]]] = [
        ("current player", lambda state: state.current_player()),
        ("is chance node", lambda state: state.is_chance_node()),
        ("is terminal", lambda state: state.is_terminal()),
        ("history", lambda state: state.history()),
        ("legal actions", lambda state: state.legal_actions()),
        ("chance outcomes", lambda state: state.chance_outcomes() if state.is_chance_node() else None),
        ("action strings", lambda state: [state.action_to_string(state.current_player(), action)
                                          for action in state.legal_actions()]),
        ("rewards", lambda state: state.rewards()),
        ("returns", lambda state: state.returns()),
        ("state string", str),
    ]
    for seat in range(players):
        checks.append((f"observation string of seat {seat}", _observation_string(seat)))
    for name, read in checks:
        mine, other = read(ours), read(theirs)
        if mine != other:
            return f"{name}: ours {_short(mine)}, OpenSpiel's {_short(other)}"
    for seat in range(players):
        mine_tensor = np.asarray(ours.observation_tensor(seat), np.float32)
        other_tensor = np.asarray(theirs.observation_tensor(seat), np.float32)
        if mine_tensor.shape != other_tensor.shape or not np.array_equal(mine_tensor, other_tensor):
            index = int(np.nonzero(mine_tensor != other_tensor)[0][0]) if mine_tensor.shape == other_tensor.shape else -1
            return f"observation tensor of seat {seat}: first difference at index {index}"
    return None


def _observation_string(seat: int) -> Callable[[Any], object]:
    def read(state: Any) -> object:
        return state.observation_string(seat)
    return read


def _short(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 400 else text[:400] + "..."


def chance_outcome(state: Any, rng: random.Random) -> int:
    """An outcome drawn by its probability: one uniform number and a cumulative scan."""
    return int(outcome_at(state.chance_outcomes(), rng.random()))


def compose(states: int, seed: int = 0, players: Sequence[int] = PLAYERS,
            progress: Callable[[int], None] | None = None) -> ComposeReport:
    """Play both games side by side until at least ``states`` states were compared; stop at
    the first difference [RL-os-compose]."""
    ours_games = {count: load_game(GAME_NAME, {"players": count, "rules": "hle"}) for count in players}
    their_games = {count: load_game("hanabi", {"players": count}) for count in players}
    coverage: Counter[str] = Counter()
    compared = games = 0
    while compared < states:
        count = players[games % len(players)]
        game_seed = seed * 1_000_003 + games
        ours, theirs = ours_games[count].new_initial_state(), their_games[count].new_initial_state()
        rng = random.Random(game_seed)
        chooser = DriverChooser(game_seed, random_rate=1.0 if games % 3 == 0 else 0.1, probe_rate=0.0)
        while True:
            what = first_difference(ours, theirs, count)
            if what is not None:
                return ComposeReport(compared, games + 1, coverage,
                                     Divergence(count, games, tuple(ours.history()), what))
            compared += 1
            _count(coverage, ours)
            if progress is not None:
                progress(1)
            if ours.is_terminal():
                break
            action = chance_outcome(ours, rng) if ours.is_chance_node() else driven_move(ours, chooser)
            ours.apply_action(action)
            theirs.apply_action(action)
        games += 1
    return ComposeReport(compared, games, coverage, None)


def driven_move(state: HanabiRefState, chooser: DriverChooser) -> int:
    """The driver's move for the player to move, as its plain index."""
    position = state.position
    settled = position.settled
    assert settled is not None
    action = chooser.choose(settled, legal_actions(settled))
    return plain_actions(position.config).index(action, settled.current_player)


def _count(coverage: Counter[str], state: HanabiRefState) -> None:
    """What the compared states contained."""
    position = state.position
    if position.settled is None:
        coverage["chance nodes of the deal"] += 1
        return
    if position.pending is not None:
        coverage["chance nodes of a draw"] += 1
    table = position.table
    if state.is_terminal():
        coverage["terminal states"] += 1
        if table.strikes == position.config.max_errors:
            coverage["games lost to errors"] += 1
        elif sum(table.fireworks) == position.config.suit_count * position.config.values:
            coverage["perfect games"] += 1
        else:
            coverage["games ended by the last round"] += 1
    if table.deck_size == 0 and not state.is_terminal():
        coverage["states of the last round"] += 1
    if table.history:
        event = table.history[-1]
        if event.success is False:
            coverage["states after a misplay"] += 1
        elif event.success and event.card is not None and table.tables.rank_of[event.card] == position.config.values - 1:
            coverage["states after a completed suit"] += 1


def run_compose(states: int, seed: int, as_json: bool) -> bool:
    """[RL-os-compose] ``hanabi-ref rl compose``: compare at least ``states`` states; print the
    count, the games, the situations and the first difference; True when there is none."""
    from hanabi_ref.tools.rl.tools import with_state_bar

    report = with_state_bar(states, lambda advance: compose(states, seed, progress=advance))
    difference = None if report.divergence is None else report.divergence.describe()
    if as_json:
        print(json.dumps({"against": "openspiel hanabi", "game": GAME_NAME, "states": report.states,
                          "games": report.games, "seed": seed, "coverage": dict(sorted(report.coverage.items())),
                          "difference": difference}, sort_keys=True))
    else:
        verdict = "0 differences" if difference is None else f"DIFFERENT: {difference}"
        print(f"hanabi_ref beside OpenSpiel's hanabi (hle, 2-5 players): {report.states} states, {report.games} games "
              f"(seed {seed}): {verdict}")
        print("situations: " + ", ".join(f"{name} {count}" for name, count in sorted(report.coverage.items())))
    return difference is None
