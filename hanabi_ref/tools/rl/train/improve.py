"""Policy improvement by rollouts: what each recommendation of the teacher's team is worth
[RL-train-rollouts].

The team of RL-train-team is deterministic and, with the deck fixed, so is every game it
plays.  :class:`TeamRollouts` plays the teacher's team on the engine's states (no
observation vectors), one move at a time, from any position: the state and what each
seat remembers.  :func:`rollout_advantages` plays a deck's game and, at every turn where
the acting seat asks for the hats of its receivers, replaces one receiver's hat by each
other recommendation in turn and plays the rest of the game with the teacher: the score
it ends with, minus the score of the game itself, is that recommendation's *advantage*
over the teacher's there.  Those advantages, with the recommendation observation of the
receiver, are what the learner fits (one step of approximate policy iteration: the
policy then takes the recommendation of the largest predicted advantage).
"""

from __future__ import annotations

from typing import Final

import attrs
import numpy as np
import numpy.typing as npt

from hanabi_ref.engine.actions import Hint
from hanabi_ref.tools.rl.encoders import recommendation_observation
from hanabi_ref.tools.rl.hat import HatCode
from hanabi_ref.tools.rl.layout import layout
from hanabi_ref.tools.rl.train.team import Judge, SeatMemory, recommended_play, team_action, teacher_hat
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.state import GameState, score
from hanabi_ref.engine.transition import apply, new_game
from hanabi_ref.engine.view import PlayerView, ViewMaker

OBSERVATION_DTYPE: Final = np.float16
"""observations are kept as float16: their values are 0, 1 and belief fractions, which
float16 holds to 3 decimal digits; the learner reads them as float32"""


@attrs.frozen
class Position:
    """A point of a team game: the state and what every seat remembers (never changed
    once built: a move makes new memories)."""

    state: GameState
    memories: tuple[SeatMemory, ...]


def _copied(memory: SeatMemory) -> SeatMemory:
    return SeatMemory(memory.received, memory.playable_then, list(memory.played_since))


@attrs.frozen
class Move:
    """One move of :meth:`TeamRollouts.step`: the position after it, the hats the acting
    seat asked for (empty if it did not ask) and its view before the move."""

    after: Position
    hats: dict[int, int]
    view: PlayerView


class TeamRollouts:
    """The teacher's team (RL-train-team, RL-train-turn with the recommender
    :func:`~hanabi_ref.tools.rl.train.team.teacher_hat`) played move by move on states; the same
    games as :func:`~hanabi_ref.tools.rl.train.team.play_team_games` with the teacher (a test
    checks it, action for action)."""

    def __init__(self, config: GameConfig, embedding: str = "modular", judge: Judge | None = None) -> None:
        self.config = config
        self.judge = judge
        self.code = HatCode(config, "recommendation", embedding)
        self.views = ViewMaker(config)
        self.moves = 0
        """moves applied so far (the training run counts them as its steps)"""

    def start(self, seed: int) -> Position:
        return Position(new_game(self.config, seed), tuple(SeatMemory() for _ in range(self.config.players)))

    def step(self, position: Position, override: tuple[int, int] | None = None) -> Move:
        """The acting seat's move; ``override`` = (receiver, hat): that receiver's hat is
        ``hat`` instead of the teacher's, for this move only."""
        code, state, memories = self.code, position.state, position.memories
        seat = state.current_player
        view = self.views.views(state, (seat,))[0]
        hats: dict[int, int] = {}
        if view.clue_tokens > 0 and recommended_play(memories[seat], view, code.hand_size, self.judge) is None:
            hats = {target: teacher_hat(view, target) for target in code.receivers(seat)}
            if override is not None:
                hats[override[0]] = override[1]
        total = sum(hats.values())
        action = team_action(code, memories[seat], view, lambda: code.encoding_for(total % code.alphabet, view),
                             self.judge)
        after = apply(state, action)
        self.moves += 1
        copies = tuple(_copied(memory) for memory in memories)
        event = after.history[-1]
        for index, memory in enumerate(copies):
            memory.note(index, event)
        if isinstance(action, Hint):
            received = code.embedding.recover(code.encoding_of(action, seat), _no_public)
            for target, hat in hats.items():  # [RL-hat-decode] what each receiver decodes
                if received < code.alphabet:
                    copies[target].receive((received - total + hat) % code.alphabet, view)
                else:
                    copies[target].received = None
        return Move(Position(after, copies), hats, view)

    def finish(self, position: Position) -> GameState:
        """The final state of the team's game from ``position``."""
        while not position.state.terminal:
            position = self.step(position).after
        return position.state


def _no_public() -> npt.NDArray[np.float32]:
    raise AssertionError("the team's embeddings read no public observation")


@attrs.frozen
class Advantages:
    """Examples of one or more decks: the receiver's recommendation observation (float16),
    every recommendation's advantage over the teacher's (points), the teacher's hat."""

    observations: npt.NDArray[np.float16]
    advantages: npt.NDArray[np.float32]
    hats: npt.NDArray[np.int64]
    scores: tuple[int, ...]
    """the teacher's score on each deck"""
    moves: int
    """moves applied, the game's and every rollout's"""

    @staticmethod
    def joined(parts: list[Advantages]) -> Advantages:
        return Advantages(np.concatenate([part.observations for part in parts]),
                          np.concatenate([part.advantages for part in parts]),
                          np.concatenate([part.hats for part in parts]),
                          tuple(s for part in parts for s in part.scores), sum(part.moves for part in parts))


def rollout_advantages(config: GameConfig, seed: int, embedding: str = "modular") -> Advantages:
    """[RL-train-rollouts] the teacher's team on deck ``seed`` and, for every hat it asked
    for, the advantage of every recommendation over the teacher's: the score of the game
    played with that one hat changed (the rest by the teacher) minus the game's score."""
    team = TeamRollouts(config, embedding)
    alphabet = team.code.alphabet
    position = team.start(seed)
    asked: list[tuple[Position, Move]] = []
    while not position.state.terminal:
        move = team.step(position)
        if move.hats:
            asked.append((position, move))
        position = move.after
    base = score(position.state)
    observations, rows, hats = [], [], []
    for before, move in asked:
        for target, hat in move.hats.items():
            row = np.zeros(alphabet, np.float32)
            for other in range(alphabet):
                if other != hat:
                    row[other] = score(team.finish(team.step(before, (target, other)).after)) - base
            observations.append(recommendation_observation(move.view, target).astype(OBSERVATION_DTYPE))
            rows.append(row)
            hats.append(hat)
    length = len(observations)
    width = layout("recommendation", config).size
    return Advantages(np.stack(observations) if length else np.zeros((0, width), OBSERVATION_DTYPE),
                      np.stack(rows) if length else np.zeros((0, alphabet), np.float32),
                      np.array(hats, np.int64), (base,), team.moves)


def advantage_table(examples: Advantages) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64],
                                                   npt.NDArray[np.int64]]:
    """[RL-train-rollouts] for each teacher's hat (row) the mean advantage of every other
    recommendation (column) over the examples where the teacher gave it, its standard
    error, and how many examples each row holds."""
    alphabet = examples.advantages.shape[1]
    means = np.zeros((alphabet, alphabet))
    errors = np.zeros((alphabet, alphabet))
    counts = np.zeros(alphabet, np.int64)
    for hat in range(alphabet):
        rows = examples.advantages[examples.hats == hat].astype(np.float64)
        counts[hat] = len(rows)
        if len(rows) > 1:
            means[hat] = rows.mean(0)
            errors[hat] = rows.std(0, ddof=1) / np.sqrt(len(rows))
    return means, errors, counts
