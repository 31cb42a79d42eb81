"""The learned public offset of the RL notes [RL-train-offset, RL-train-offset-view,
RL-train-offset-two-level] (PyTorch, the ``[rl]`` extra, for training; numpy for play).

Under the notes' embedding a sum s is sent as reveal (s + offset) mod R, and under rules
without empty hints that reveal must touch a card: with a constant offset about a third
of the messages cannot be sent.  A *public* offset is a function f of the public
observation (RL-hat-observations, counted from the sender), which every receiver can
compute as well, so it may change from turn to turn.  Two ways to learn f:

* **From the sender's full view** (the notes' "cheat game", in the form of what the
  sender alone knows): at every turn where a seat may send, the sender sees which of the
  R reveals are legal.  A network learns the probability of each from the public
  observation (logistic loss); f takes the offset that makes the most of the M sums'
  reveals legal in expectation.
* **Two-level optimisation**: f is an offset policy (R logits) trained by REINFORCE with
  the leave-one-out baseline on the score, offsets drawn from it while the recommender
  is held fixed (level one); then the recommender is trained the same way (RL-train-pg)
  while f is held fixed at its greedy offset (level two); the levels alternate.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from hanabi_ref.tools.rl.encoders import Vector, public_observation
from hanabi_ref.tools.rl.hat import HatCode
from hanabi_ref.tools.rl.layout import layout
from hanabi_ref.tools.rl.train.improve import TeamRollouts
from hanabi_ref.tools.rl.train.policy import FORMAT, HIDDEN, NumpyPolicy, torch_weights
from hanabi_ref.tools.rl.train.team import BatchRecommender, play_team_games
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.view import view_is_legal

def offset_meta(config: GameConfig, rules: str, kind: str) -> dict[str, Any]:
    """The ``meta`` of an offset model file (RL-train-files' format, agent ``offset``)."""
    public = layout("public", config)
    reveals = HatCode(config, "recommendation").reveals
    return {"format": FORMAT, "agent": "offset", "kind": kind, "players": config.players, "rules": rules,
            "embedding": "public", "hand_size": public.dims.hand_size, "inputs": public.size, "hats": reveals,
            "hidden": HIDDEN}


def expected_legal_sums(legal: npt.NDArray[np.float64], alphabet: int) -> npt.NDArray[np.float64]:
    """For each offset o, the sum over the M sums s of ``legal[(s + o) mod R]``: with
    legality probabilities, the expected number of sums whose reveal is legal."""
    reveals = len(legal)
    window = np.concatenate([legal, legal[:alphabet - 1]])
    out: npt.NDArray[np.float64] = np.convolve(window, np.ones(alphabet), "valid")[:reveals]
    return out


class OffsetFunction:
    """[RL-train-offset] the public offset of an offset model: a function of the public
    observation, computed in numpy so that every seat gets the same offset."""

    def __init__(self, model: NumpyPolicy, alphabet: int) -> None:
        self.model, self.alphabet = model, alphabet
        self.kind = str(model.meta["kind"])

    def __call__(self, public: Vector) -> int:
        logits = self.model.logits(public).astype(np.float64)
        if self.kind == "policy":
            return int(np.argmax(logits))
        return int(np.argmax(expected_legal_sums(1 / (1 + np.exp(-logits)), self.alphabet)))


def legality_examples(config: GameConfig, seeds: Sequence[int]) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """[RL-train-offset-view] the teacher's team with the constant offset on decks
    ``seeds``: at every turn where the acting seat may send, its public observation and
    which of the R reveals it could make (1: legal)."""
    team = TeamRollouts(config, "constant")
    code = team.code
    publics: list[Vector] = []
    legal: list[npt.NDArray[np.float32]] = []
    for seed in seeds:
        position = team.start(seed)
        while not position.state.terminal:
            move = team.step(position)
            if move.hats:
                seat = move.view.seat
                publics.append(public_observation(move.view, seat))
                legal.append(np.array([view_is_legal(move.view, code.reveal(e, seat)) for e in range(code.reveals)],
                                      np.float32))
            position = move.after
    return np.stack(publics), np.stack(legal)


def _network(torch: Any, inputs: int, outputs: int) -> Any:
    nn = torch.nn
    return nn.Sequential(nn.Linear(inputs, HIDDEN), nn.ReLU(), nn.Linear(HIDDEN, HIDDEN), nn.ReLU(),
                         nn.Linear(HIDDEN, outputs))


def fit_view(config: GameConfig, rules: str, seeds: Sequence[int], epochs: int, seed: int = 0) -> NumpyPolicy:
    """[RL-train-offset-view] an offset model of kind ``view`` fitted to
    :func:`legality_examples` of ``seeds`` (logistic loss, Adam 10⁻³, minibatches of 256,
    ``epochs`` passes; one thread, seeded)."""
    from hanabi_ref.tools.rl.train.fitting import fit_minibatches, seeded_torch

    torch, draws = seeded_torch(seed)
    publics, legal = legality_examples(config, seeds)
    inputs, targets = torch.from_numpy(publics), torch.from_numpy(legal)
    network = _network(torch, inputs.shape[1], targets.shape[1])
    fit_minibatches(torch, network, inputs, targets, torch.nn.BCEWithLogitsLoss(), epochs, draws)
    return NumpyPolicy(torch_weights(torch, network), offset_meta(config, rules, "view"))


def two_level(config: GameConfig, rules: str, recommender: Any, updates: int, period: int, decks: int,
              rollouts: int, seed: int = 0, learning_rate: float = 1e-3, recommender_rate: float = 3e-5,
              kl: float = 1.0, temperature: float = 0.5,
              report: Callable[[int, str, float], None] | None = None) -> tuple[NumpyPolicy, Any, list[dict[str, Any]]]:
    """[RL-train-offset-two-level] alternate ``period`` updates of the offset policy
    (offsets drawn from softmax(logits), the recommender greedy) with ``period`` updates of
    the recommender (a torch network, as RL-train-pg: hats drawn from softmax(logits /
    temperature), a KL term to its starting point; offsets greedy), ``updates`` in all,
    each of ``decks`` decks × ``rollouts`` games with the leave-one-out baseline.  The
    offset model, the recommender and the curve (every update's mean score)."""
    from hanabi_ref.tools.rl.train.fitting import seeded_torch

    torch, draws = seeded_torch(seed)
    deck_stream = random.Random(seed)
    meta = offset_meta(config, rules, "policy")
    network = _network(torch, meta["inputs"], meta["hats"])
    offset_optimizer = torch.optim.Adam(network.parameters(), lr=learning_rate)
    reference = _network(torch, recommender[0].in_features, recommender[-1].out_features)
    reference.load_state_dict(recommender.state_dict())
    recommender_optimizer = torch.optim.Adam(recommender.parameters(), lr=recommender_rate)
    curve: list[dict[str, Any]] = []
    for update in range(updates):
        level = "offset" if (update // period) % 2 == 0 else "recommender"
        seeds = [deck for deck in [deck_stream.randrange(2 ** 31) for _ in range(decks)] for _ in range(rollouts)]
        publics: list[Vector] = []
        chosen: list[int] = []
        games: list[int] = []
        hats_seen: list[Vector] = []
        hats_chosen: list[int] = []
        hat_games: list[int] = []
        current = [0]

        def offset(public: Vector) -> int:
            with torch.no_grad():
                logits = network(torch.from_numpy(public[None, :]))[0]
            if level == "offset":
                value = int(torch.multinomial(torch.softmax(logits, 0), 1, generator=draws)[0])
                publics.append(public)
                chosen.append(value)
                games.append(current[0])
                return value
            return int(torch.argmax(logits))

        def hats(batch: npt.NDArray[np.float32]) -> npt.NDArray[np.int64]:
            with torch.no_grad():
                logits = recommender(torch.from_numpy(batch))
            if level == "offset":
                greedy: npt.NDArray[np.int64] = logits.argmax(1).numpy()
                return greedy
            drawn: npt.NDArray[np.int64] = torch.multinomial(torch.softmax(logits / temperature, 1), 1,
                                                             generator=draws)[:, 0].numpy()
            hats_seen.extend(batch)
            hats_chosen.extend(drawn.tolist())
            hat_games.extend([current[0]] * len(drawn))
            return drawn

        scores = []
        for index, deck in enumerate(seeds):  # one game at a time, so every draw knows its game
            current[0] = index
            scores.append(play_team_games(config, [deck], hats, embedding="public", offset=offset)[0].score)
        table = np.array(scores, np.float64).reshape(decks, rollouts)
        advantage = (table - (table.sum(1, keepdims=True) - table) / (rollouts - 1)).reshape(-1)
        spread = float(advantage.std())
        if spread > 0 and level == "offset" and chosen:
            weights = torch.from_numpy((advantage[np.array(games)] / spread).astype(np.float32))
            log_probabilities = torch.log_softmax(network(torch.from_numpy(np.stack(publics))), 1)
            loss = -(weights * log_probabilities.gather(1, torch.tensor(chosen)[:, None])[:, 0]).mean()
            offset_optimizer.zero_grad()
            loss.backward()
            offset_optimizer.step()
        elif spread > 0 and level == "recommender" and hats_chosen:
            inputs = torch.from_numpy(np.stack(hats_seen))
            weights = torch.from_numpy((advantage[np.array(hat_games)] / spread).astype(np.float32))
            log_probabilities = torch.log_softmax(recommender(inputs) / temperature, 1)
            with torch.no_grad():
                anchor = torch.log_softmax(reference(inputs) / temperature, 1)
            divergence = (anchor.exp() * (anchor - log_probabilities)).sum(1).mean()
            loss = -(weights * log_probabilities.gather(1, torch.tensor(hats_chosen)[:, None])[:, 0]).mean() \
                + kl * divergence
            recommender_optimizer.zero_grad()
            loss.backward()
            recommender_optimizer.step()
        mean = float(np.mean(scores))
        curve.append({"update": update + 1, "level": level, "mean_score": mean})
        if report is not None:
            report(update + 1, level, mean)
    return NumpyPolicy(torch_weights(torch, network), meta), recommender, curve


def play_with_offset(config: GameConfig, seeds: Sequence[int], recommender: BatchRecommender,
                     model: NumpyPolicy) -> list[int]:
    """The scores of the team with ``model``'s public offset on decks ``seeds``."""
    function = OffsetFunction(model, HatCode(config, "recommendation").alphabet)
    return [record.score for record in play_team_games(config, seeds, recommender, embedding="public",
                                                       offset=function)]
