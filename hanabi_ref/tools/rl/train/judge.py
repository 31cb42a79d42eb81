"""The learned judge of stale recommendations [RL-train-judge, RL-train-judge-fit]
(PyTorch, the ``[rl]`` extra, for training; numpy for play).

A seat's recommended play goes stale when a card played since the recommendation may
have had the recommended card's identity: the rule of RL-train-turn then never plays it
(H-rec-turn's check, which reads neither the seat's knowledge of the card nor how likely
the played identity is).  Measured on the teacher's team (4 players, ``hle``, seeds
0–1,999): a judge that knew the card would score 24.08 with 52 % perfect games against
the rule's 22.56 and 12 %; playing every stale recommendation scores 13.9 (42 % of the
games struck out).  The judge learns, from the seat's view alone, the probability that
the card is still playable, and plays it when that probability exceeds a threshold.

Training is supervised from the full state (the notes' "cheat" supervision): in the
teacher's games every stale moment is an example whose label is whether the card in the
slot is playable; the threshold is the one of a grid whose team scores most on decks
apart from the examples'.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from hanabi_ref.tools.rl.train.improve import Move, Position, TeamRollouts
from hanabi_ref.tools.rl.train.policy import FORMAT, NumpyPolicy, judge_inputs, torch_weights
from hanabi_ref.tools.rl.train.team import BatchRecommender, SeatMemory, play_team_games
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.players.strategies.hat.recommendation import playable_identities
from hanabi_ref.players.strategies.knowledge import composition_counts, unseen_counts
from hanabi_ref.engine.view import PlayerView

JUDGE_HIDDEN: Final = 64
"""Units of each of the judge's two hidden layers."""

THRESHOLDS: Final = (0.5, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99)
"""The grid the threshold is chosen from."""


def judge_features(view: PlayerView, memory: SeatMemory, slot: int) -> npt.NDArray[np.float32]:
    """[RL-train-judge] what the judge reads, all from the seat's view and memory: for each
    identity x, whether the seat's knowledge of the slot allows x; whether x was playable
    when the play was recommended; the copies of x played since that were playable then;
    the copies of x the seat does not see, over the copies of x in the deck; whether x is
    playable now; then the tokens over their maximum, the errors over the limit, and the
    stack's size over the deck's."""
    config = view.config
    composition = composition_counts(config)
    identities = len(composition)
    out = np.zeros(5 * identities + 3, np.float32)
    known, then, now = view.own_knowledge[slot], memory.playable_then, playable_identities(view)
    unseen = unseen_counts(view, composition)
    for x in range(identities):
        out[x] = known >> x & 1
        out[identities + x] = then >> x & 1
        out[3 * identities + x] = unseen[x] / composition[x] if composition[x] else 0.0
        out[4 * identities + x] = now >> x & 1
    for card in memory.played_since:
        out[2 * identities + card] += 1
    limit = config.max_errors if config.max_errors else 3
    out[5 * identities:] = (view.clue_tokens / config.max_hints, view.strikes / limit, view.deck_size / sum(composition))
    return out


class Judge:
    """[RL-train-judge] the judge of a judge model: play a stale recommendation when the
    model's probability that the card is still playable exceeds the model's threshold."""

    def __init__(self, model: NumpyPolicy) -> None:
        self.model = model
        self.threshold = float(model.meta["threshold"])

    def probability(self, view: PlayerView, memory: SeatMemory, slot: int) -> float:
        logit = float(self.model.logits(judge_features(view, memory, slot))[0])
        return float(1 / (1 + np.exp(-logit)))

    def __call__(self, view: PlayerView, memory: SeatMemory, slot: int) -> bool:
        return self.probability(view, memory, slot) > self.threshold


def judge_meta(config: GameConfig, rules: str, threshold: float) -> dict[str, Any]:
    """The ``meta`` of a judge model file (RL-train-files' format, agent ``judge``)."""
    return {"format": FORMAT, "agent": "judge", "players": config.players, "rules": rules, "embedding": "any",
            "hand_size": config.hand_size, "inputs": judge_inputs(config), "hats": 1, "hidden": JUDGE_HIDDEN,
            "threshold": threshold}


class _Recording(TeamRollouts):
    """The teacher's team with the rule's judgement (never play a stale recommendation),
    recording every stale moment: the judge's features and whether the card is playable."""

    def __init__(self, config: GameConfig, embedding: str) -> None:
        super().__init__(config, embedding)
        self.features: list[npt.NDArray[np.float32]] = []
        self.labels: list[float] = []

    def step(self, position: Position, override: tuple[int, int] | None = None) -> Move:
        state = position.state
        suit_of, rank_of = state.tables.suit_of, state.tables.rank_of

        def record(view: PlayerView, memory: SeatMemory, slot: int) -> bool:
            card = state.deck[state.hands[state.current_player][slot]]
            self.features.append(judge_features(view, memory, slot))
            self.labels.append(float(state.fireworks[suit_of[card]] == rank_of[card]))
            return False

        self.judge = record
        return super().step(position, override)


def judge_examples(config: GameConfig, seeds: Sequence[int],
                   embedding: str = "modular") -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], int]:
    """[RL-train-judge-fit] the stale moments of the teacher's games on decks ``seeds``:
    features, labels (1: the card is playable) and the moves played."""
    team = _Recording(config, embedding)
    for seed in seeds:
        team.finish(team.start(seed))
    width = judge_inputs(config)
    features = np.stack(team.features) if team.features else np.zeros((0, width), np.float32)
    return features, np.array(team.labels, np.float32), team.moves


def fit_judge(config: GameConfig, rules: str, features: npt.NDArray[np.float32], labels: npt.NDArray[np.float32],
              epochs: int, seed: int) -> tuple[NumpyPolicy, list[float]]:
    """[RL-train-judge-fit] a judge model fitted to the examples by logistic loss (Adam,
    rate 10⁻³, minibatches of 256, ``epochs`` passes; one thread, seeded); threshold 0.5
    until :func:`choose_threshold`.  The model and each pass's mean loss."""
    from hanabi_ref.tools.rl.train.fitting import fit_minibatches, seeded_torch

    torch, draws = seeded_torch(seed)
    nn = torch.nn
    network = nn.Sequential(nn.Linear(features.shape[1], JUDGE_HIDDEN), nn.ReLU(), nn.Linear(JUDGE_HIDDEN, JUDGE_HIDDEN),
                            nn.ReLU(), nn.Linear(JUDGE_HIDDEN, 1))
    losses = fit_minibatches(torch, network, torch.from_numpy(features), torch.from_numpy(labels)[:, None],
                             nn.BCEWithLogitsLoss(), epochs, draws)
    return NumpyPolicy(torch_weights(torch, network), judge_meta(config, rules, 0.5)), losses


def with_threshold(model: NumpyPolicy, threshold: float) -> NumpyPolicy:
    return NumpyPolicy(model.weights(), dict(model.meta, threshold=threshold))


def choose_threshold(config: GameConfig, model: NumpyPolicy, recommender: BatchRecommender, seeds: Sequence[int],
                     embedding: str = "modular") -> tuple[NumpyPolicy, dict[float, float], int]:
    """[RL-train-judge-fit] the model with the threshold of :data:`THRESHOLDS` whose team
    (``recommender``, the judge) scores most on decks ``seeds`` (the lowest of equal
    ones), every threshold's mean score, and the moves played."""
    means: dict[float, float] = {}
    moves = 0
    for threshold in THRESHOLDS:
        judge = Judge(with_threshold(model, threshold))
        records = play_team_games(config, seeds, recommender, embedding=embedding, judge=judge)
        means[threshold] = float(np.mean([record.score for record in records])) if records else 0.0
        moves += sum(len(record.trace.actions) for record in records)
    best = max(THRESHOLDS, key=lambda threshold: (means[threshold], -threshold))
    return with_threshold(model, best), means, moves

