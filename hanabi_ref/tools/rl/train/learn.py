"""Training the recommendation agent: behaviour cloning, then policy gradient
[RL-train-bc, RL-train-pg, RL-train-seeds, RL-train-files] (PyTorch, the ``[rl]`` extra).

1. **Behaviour cloning.**  The team plays ``bc_games`` games with the teacher
   (:func:`~hanabi_ref.tools.rl.train.team.teacher`); every recommendation of every reveal sent
   is an example (observation, teacher's hat); the network is fitted to them by
   cross-entropy for ``bc_epochs`` passes in minibatches of :data:`~hanabi_ref.tools.rl.train.fitting.MINIBATCH`.
2. **Policy gradient** with the leave-one-out baseline (RLOO): each update deals
   ``decks`` decks and plays each ``rollouts`` times, every recommendation drawn from the
   policy (softmax of the logits over ``temperature``); a game's advantage is its score
   minus the mean score of the other rollouts of the same deck, divided by the batch's
   standard deviation, and every recommendation of the game is pushed by it (REINFORCE);
   a KL term keeps the policy near the cloned one.  Why this and not PPO: the only reward is the score at the end, a
   game holds some 60 recommendations that share it, and the deck decides much of the
   score; comparing rollouts of one deck removes the deck's share of the variance without
   a learned value function, and one gradient step per batch of fresh games needs no
   clipping.
3. Everything is seeded from ``seed``: the decks (a ``random.Random`` stream), the
   network's initial weights and the draws of recommendations (torch generators), on one
   CPU thread with deterministic algorithms, so a run is the same bit for bit; a
   checkpoint holds every generator's state, so a run resumed after an interruption is the
   run that was not interrupted.
"""

from __future__ import annotations

import io
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import attrs
import numpy as np
import numpy.typing as npt

from hanabi_ref.base.atomic import write_bytes_atomically, write_text_atomically
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.train.checkpoint import check_checkpoint, read_checkpoint
from hanabi_ref.tools.rl.train.fitting import MINIBATCH, torch_module
from hanabi_ref.tools.rl.train.judge import Judge, choose_threshold, fit_judge, judge_examples
from hanabi_ref.tools.rl.train.policy import HIDDEN, NumpyPolicy, model_meta, save_model, torch_weights
from hanabi_ref.tools.rl.train.team import Decisions, play_team_games, teacher
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config

CHECKPOINT: Final = "checkpoint.pt"
MODEL: Final = "model.npz"
CLONED: Final = "model-cloned.npz"
"""the policy right after behaviour cloning"""
CURVE: Final = "curve.json"
JUDGE: Final = "judge.npz"
"""[RL-train-judge] the judge of stale recommendations, learned after cloning"""


@attrs.frozen
class Settings:
    """What a training run is [RL-train-seeds]; a run resumes only with the same settings."""

    players: int = 4
    rules: str = "hle"
    embedding: str = "modular"
    """[RL-hat-offsets] how the team embeds its sums (the model file records it)"""
    steps: int = 1_000_000
    """game moves to play in all (behaviour cloning's games included)"""
    seed: int = 0
    bc_games: int = 2000
    bc_epochs: int = 4
    decks: int = 32
    rollouts: int = 4
    learning_rate: float = 3e-5
    bc_learning_rate: float = 1e-3
    entropy: float = 0.0
    kl: float = 1.0
    """weight of KL(cloned policy || policy) in the policy-gradient loss"""
    temperature: float = 0.5
    """the policy is softmax(logits / temperature); play takes the largest logit either way"""
    checkpoint_every: int = 10
    """policy-gradient updates between checkpoints"""
    judge_games: int = 10000
    """[RL-train-judge-fit] the teacher's games whose stale moments the judge learns from"""
    judge_epochs: int = 20
    threshold_games: int = 1000
    """games per threshold of the grid the judge's threshold is chosen from"""

    def config(self) -> GameConfig:
        return make_config(self.players, preset=self.rules)


def _network(torch: Any, inputs: int, hats: int) -> Any:
    nn = torch.nn
    return nn.Sequential(nn.Linear(inputs, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, hats))


class Trainer:
    """One training run in directory ``out`` [RL-train-files]: ``checkpoint.pt`` (everything
    needed to go on), ``model.npz`` (the policy, for play), ``curve.json`` (the mean score
    of every update's games against the game moves played)."""

    def __init__(self, settings: Settings, out: Path) -> None:
        torch = self.torch = torch_module()
        torch.set_num_threads(1)
        torch.use_deterministic_algorithms(True)
        self.settings, self.out = settings, out
        self.config = settings.config()
        self.meta = model_meta(self.config, settings.rules, settings.embedding)
        torch.manual_seed(settings.seed)
        self.model = _network(torch, self.meta["inputs"], self.meta["hats"])
        self.reference = _network(torch, self.meta["inputs"], self.meta["hats"])
        """the cloned policy, which the policy-gradient loss keeps the policy near"""
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=settings.bc_learning_rate)
        self.draws = torch.Generator().manual_seed(settings.seed + 1)
        self.decks = random.Random(settings.seed)
        self.moves = 0
        self.updates = 0
        self.phase = "bc"
        self.curve: list[dict[str, Any]] = []
        self.judge: NumpyPolicy | None = None

    # ---------------------------------------------------------------- files

    def resume(self) -> bool:
        """[RL-train-files, RL-train-limits] load ``checkpoint.pt`` if there is one: True if
        it was loaded; :class:`RLError` naming it if it is not a checkpoint of this run (read
        as data only and checked whole before anything of it is applied:
        :mod:`hanabi_ref.tools.rl.train.checkpoint`)."""
        path = self.out / CHECKPOINT
        if not path.exists():
            return False
        state = read_checkpoint(self.torch, str(path))
        judge = check_checkpoint(self.torch, state, str(path), attrs.asdict(self.settings), (self.model, self.reference),
                                 self.optimizer, self.draws, self.config)
        try:
            self.model.load_state_dict(state["model"])
            self.reference.load_state_dict(state["reference"])
            if state["phase"] == "pg":
                self._pg_optimizer()
            self.optimizer.load_state_dict(state["optimizer"])
            self.draws.set_state(state["draws"])
            self.decks.setstate(state["decks"])
        except Exception as error:  # checked above; still one line naming the file, never a traceback
            raise RLError("RL-train-files", f"{path}: not a checkpoint of this run ({' '.join(str(error).split())[:200]})") from None
        self.moves, self.updates, self.phase, self.curve = state["moves"], state["updates"], state["phase"], state["curve"]
        self.judge = judge
        return True

    def save(self) -> None:
        """[RL-train-files] write the checkpoint, the model and the curve, each whole; the
        checkpoint holds only what torch's weights-only loader reads back (tensors, dicts,
        lists, tuples, numbers, text, None: the judge's weights as tensors)."""
        self.out.mkdir(parents=True, exist_ok=True)
        buffer = io.BytesIO()
        self.torch.save({"settings": attrs.asdict(self.settings), "model": self.model.state_dict(),
                         "reference": self.reference.state_dict(),
                         "optimizer": self.optimizer.state_dict(), "draws": self.draws.get_state(),
                         "decks": self.decks.getstate(), "moves": self.moves, "updates": self.updates,
                         "phase": self.phase, "curve": self.curve,
                         "judge": None if self.judge is None else {
                             "weights": {key: self.torch.from_numpy(value.copy()) for key, value in self.judge.weights().items()},
                             "meta": self.judge.meta}}, buffer)
        write_bytes_atomically(self.out / CHECKPOINT, buffer.getvalue())
        save_model(self.out / MODEL, self.weights(), self.meta)
        if self.judge is not None:
            save_model(self.out / JUDGE, self.judge.weights(), self.judge.meta)
        write_text_atomically(self.out / CURVE,
                              json.dumps({"settings": attrs.asdict(self.settings), "points": self.curve}, indent=1) + "\n")

    def weights(self) -> dict[str, npt.NDArray[np.float32]]:
        """The network's weights in the model file's layout (inputs x outputs)."""
        return torch_weights(self.torch, self.model)

    # ---------------------------------------------------------------- training

    def run(self, progress: Callable[[int, float | None], None] | None = None) -> None:
        """Train until ``steps`` game moves were played, checkpointing as it goes;
        ``progress(moves, mean score of the last update)`` after every update."""
        report = progress or (lambda moves, score: None)
        if self.phase == "bc":
            self.behaviour_cloning()
            self.reference.load_state_dict(self.model.state_dict())
            self.phase = "judge"
            self.save()
            save_model(self.out / CLONED, self.weights(), self.meta)
            report(self.moves, None)
        if self.phase == "judge":
            self.learn_judge()
            self.phase = "pg"
            self._pg_optimizer()
            self.save()
            report(self.moves, None)
        while self.moves < self.settings.steps:
            score = self.policy_gradient_update()
            if self.updates % self.settings.checkpoint_every == 0:
                self.save()
            report(self.moves, score)
        self.save()

    def _pg_optimizer(self) -> None:
        self.optimizer = self.torch.optim.Adam(self.model.parameters(), lr=self.settings.learning_rate)

    def _seeds(self, count: int) -> list[int]:
        return [self.decks.randrange(2 ** 31) for _ in range(count)]

    def behaviour_cloning(self) -> None:
        """[RL-train-bc] fit the teacher's recommendations in the teacher's own games."""
        torch, settings = self.torch, self.settings
        rule = teacher(self.config)
        decisions = Decisions(half=True)
        records = play_team_games(self.config, self._seeds(settings.bc_games),
                                  lambda batch: np.array([rule(row) for row in batch], np.int64), decisions,
                                  settings.embedding)
        scores = [record.score for record in records]
        self.moves += sum(len(record.trace.actions) for record in records)
        inputs = torch.from_numpy(np.stack(decisions.observations))
        labels = torch.tensor(decisions.hats, dtype=torch.int64)
        del decisions
        loss_of = torch.nn.CrossEntropyLoss()
        for epoch in range(settings.bc_epochs):
            for group in self.optimizer.param_groups:  # the rate falls linearly to 5 % over the passes
                group["lr"] = settings.bc_learning_rate * max(0.05, 1 - epoch / settings.bc_epochs)
            order = torch.randperm(len(labels), generator=self.draws)
            total = 0.0
            for start in range(0, len(labels), MINIBATCH):
                rows = order[start:start + MINIBATCH]
                loss = loss_of(self.model(inputs[rows].float()), labels[rows])
                self.optimizer.zero_grad()
                loss.backward()
                self.optimizer.step()
                total += float(loss.detach()) * len(rows)
            with torch.no_grad():
                right = sum(int((self.model(inputs[at:at + 65536].float()).argmax(1) == labels[at:at + 65536]).sum())
                            for at in range(0, len(labels), 65536))
                accuracy = right / len(labels)
            self.curve.append({"phase": "bc", "epoch": epoch + 1, "moves": self.moves, "loss": total / len(labels),
                               "accuracy": accuracy, "teacher_mean_score": float(np.mean(scores))})

    def greedy(self) -> Callable[[npt.NDArray[np.float32]], npt.NDArray[np.int64]]:
        """The network's greedy recommendations of a batch of observations."""
        torch = self.torch

        def recommend(batch: npt.NDArray[np.float32]) -> npt.NDArray[np.int64]:
            with torch.no_grad():
                chosen: npt.NDArray[np.int64] = self.model(torch.from_numpy(batch)).argmax(1).numpy()
            return chosen

        return recommend

    def learn_judge(self) -> None:
        """[RL-train-judge-fit] the judge of stale recommendations: fitted to the stale
        moments of the teacher's games, its threshold chosen with the cloned recommender."""
        settings = self.settings
        features, labels, moves = judge_examples(self.config, self._seeds(settings.judge_games), settings.embedding)
        self.moves += moves
        model, losses = fit_judge(self.config, settings.rules, features, labels, settings.judge_epochs, settings.seed)
        self.judge, means, moves = choose_threshold(self.config, model, self.greedy(),
                                                    self._seeds(settings.threshold_games), settings.embedding)
        self.moves += moves
        self.curve.append({"phase": "judge", "moves": self.moves, "examples": len(labels),
                           "playable": float(labels.mean()) if len(labels) else 0.0, "losses": losses,
                           "thresholds": {str(key): value for key, value in means.items()},
                           "threshold": self.judge.meta["threshold"]})

    def policy_gradient_update(self) -> float:
        """[RL-train-pg] one RLOO update; the mean score of its games."""
        torch, settings = self.torch, self.settings
        decks = self._seeds(settings.decks)
        seeds = [seed for seed in decks for _ in range(settings.rollouts)]
        decisions = Decisions()

        def sample(batch: npt.NDArray[np.float32]) -> npt.NDArray[np.int64]:
            with torch.no_grad():
                probabilities = torch.softmax(self.model(torch.from_numpy(batch)) / settings.temperature, 1)
            drawn: npt.NDArray[np.int64] = torch.multinomial(probabilities, 1, generator=self.draws)[:, 0].numpy()
            return drawn

        judge = None if self.judge is None else Judge(self.judge)
        records = play_team_games(self.config, seeds, sample, decisions, settings.embedding, judge=judge)
        scores = [record.score for record in records]
        self.moves += sum(len(record.trace.actions) for record in records)
        self.updates += 1
        table = np.array(scores, np.float64).reshape(settings.decks, settings.rollouts)
        others = (table.sum(1, keepdims=True) - table) / (settings.rollouts - 1)
        advantage = (table - others).reshape(-1)
        spread = float(advantage.std())
        if decisions.hats and spread > 0:
            inputs = torch.from_numpy(np.stack(decisions.observations))
            hats = torch.tensor(decisions.hats, dtype=torch.int64)
            weights = torch.from_numpy((advantage[np.array(decisions.games)] / spread).astype(np.float32))
            log_probabilities = torch.log_softmax(self.model(inputs) / settings.temperature, 1)
            chosen = log_probabilities.gather(1, hats[:, None])[:, 0]
            with torch.no_grad():
                cloned = torch.log_softmax(self.reference(inputs) / settings.temperature, 1)
            divergence = (cloned.exp() * (cloned - log_probabilities)).sum(1).mean()
            entropy = -(log_probabilities.exp() * log_probabilities).sum(1).mean()
            loss = -(weights * chosen).mean() + settings.kl * divergence - settings.entropy * entropy
            self.optimizer.zero_grad()
            loss.backward()
            self.optimizer.step()
        mean = float(np.mean(scores))
        self.curve.append({"phase": "pg", "update": self.updates, "moves": self.moves, "mean_score": mean})
        return mean

