"""The learning steps of the recommendation team (spec/rl.md), each checked from its
clause on a few games: the examples, rates and passes of behaviour cloning
(RL-train-bc), the loss of a policy-gradient update (RL-train-pg), and the examples and
threshold of the judge (RL-train-judge-fit).

Expected values are computed here from the clauses: the labels from the deck the game
was dealt, the leave-one-out advantages and the loss with torch's own functions on the
trainer's networks, the threshold from the grid and the mean scores.
"""

from __future__ import annotations

import math
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from hanabi_ref.engine.dealing import deck_from_seed
from hanabi_ref.tools.rl.train.team import Decisions, play_team_games, teacher
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.view import PlayerView
from tests.oracles import oracle

CONFIG = make_config(4, preset="hle")


def learn_module() -> Any:
    oracle("torch")
    import hanabi_ref.tools.rl.train.learn as learn

    return learn


def teacher_hats(batch: np.ndarray) -> np.ndarray:
    rule = teacher(CONFIG)
    return np.array([rule(row) for row in batch], np.int64)


@pytest.mark.checks("RL-train-bc")
def test_behaviour_cloning_fits_the_teachers_hats_pass_by_pass(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """[RL-train-bc] the examples are the observation (kept as float16) and the teacher's
    hat of every recommendation of every reveal sent in bc_games games of the team; the
    passes are bc_epochs, each in minibatches of 256 at the rate 10^-3 max(0.05, 1 -
    e/E) for pass e from 0; the curve records each pass's accuracy (the last recomputed
    here from the network) and the teacher's mean score."""
    learn = learn_module()
    import torch

    trainer = learn.Trainer(learn.Settings(bc_games=8, bc_epochs=2, seed=2), tmp_path)
    real = learn.play_team_games
    seen: dict[str, Any] = {}

    def recording(config: Any, seeds: Any, recommender: Any, decisions: Decisions, embedding: str, **rest: Any) -> Any:
        records = real(config, seeds, recommender, decisions, embedding, **rest)
        seen.update(records=records, seeds=list(seeds), embedding=embedding, hats=list(decisions.hats),
                    observations=list(decisions.observations), reveals=sum(
                        1 for record in records for action in record.trace.actions if type(action).__name__ == "Hint"))
        return records

    rates: list[float] = []
    step = trainer.optimizer.step

    def counted_step(*args: Any, **kwargs: Any) -> Any:
        rates.append(trainer.optimizer.param_groups[0]["lr"])
        return step(*args, **kwargs)

    monkeypatch.setattr(learn, "play_team_games", recording)
    monkeypatch.setattr(trainer.optimizer, "step", counted_step)
    trainer.behaviour_cloning()

    rule = teacher(CONFIG)
    observations, hats = seen["observations"], seen["hats"]
    assert len(seen["seeds"]) == 8 and seen["embedding"] == "modular"
    assert all(observation.dtype == np.float16 for observation in observations)
    assert [rule(observation.astype(np.float32)) for observation in observations] == hats
    assert 0 < len(hats) <= 3 * seen["reveals"] and len(hats) % 3 == 0
    per_pass = math.ceil(len(hats) / 256)
    assert per_pass >= 2 and rates == pytest.approx([1e-3] * per_pass + [5e-4] * per_pass)
    assert [(point["phase"], point["epoch"]) for point in trainer.curve] == [("bc", 1), ("bc", 2)]
    scores = [record.score for record in seen["records"]]
    assert trainer.curve[-1]["teacher_mean_score"] == pytest.approx(sum(scores) / len(scores))
    with torch.no_grad():
        chosen = trainer.model(torch.from_numpy(np.stack(observations)).float()).argmax(1).numpy()
    assert trainer.curve[-1]["accuracy"] == pytest.approx(float(np.mean(chosen == np.array(hats))))


@pytest.mark.checks("RL-train-pg")
def test_a_policy_gradient_update_descends_the_loss_of_the_clause(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """[RL-train-pg] one update over 2 decks x 3 rollouts, whose games are stood in for:
    the gradient the optimiser receives is that of minus the mean over the
    recommendations of (score minus the mean of the other rollouts of its deck, over the
    batch's standard deviation) x log softmax(logits / 0.5) of the hat, plus kl x the
    mean KL divergence from the cloned policy, minus entropy x the mean entropy; the
    decks are dealt in rollouts; the update reports the games' mean score; games that
    all tie change nothing."""
    learn = learn_module()
    import torch

    settings = learn.Settings(decks=2, rollouts=3, seed=1, entropy=0.25, kl=0.5)
    trainer = learn.Trainer(settings, tmp_path)
    trainer.phase = "pg"
    trainer._pg_optimizer()
    rng = np.random.default_rng(0)
    inputs, outputs = trainer.meta["inputs"], trainer.meta["hats"]
    observations = rng.integers(0, 2, (12, inputs)).astype(np.float32)
    hats = rng.integers(0, outputs, 12).tolist()
    games = [index % 6 for index in range(12)]
    scores = [20, 23, 17, 25, 24, 21]
    dealt: list[list[int]] = []

    def stand_in(config: Any, seeds: Any, recommender: Any, decisions: Decisions, embedding: str, **rest: Any) -> Any:
        dealt.append(list(seeds))
        decisions.observations.extend(observations)
        decisions.hats.extend(hats)
        decisions.games.extend(games)
        return [SimpleNamespace(score=score, trace=SimpleNamespace(actions=(None,) * 5)) for score in scores]

    gradients: list[list[Any]] = []
    monkeypatch.setattr(learn, "play_team_games", stand_in)
    monkeypatch.setattr(trainer.optimizer, "step",
                        lambda *args, **kwargs: gradients.append([p.grad.detach().clone() for p in trainer.model.parameters()]))
    assert trainer.policy_gradient_update() == pytest.approx(sum(scores) / 6)
    seeds = dealt[0]
    assert len(seeds) == 6 and seeds[0] == seeds[1] == seeds[2] != seeds[3] == seeds[4] == seeds[5]

    table = np.array(scores, np.float64).reshape(2, 3)
    advantage = np.array([table[d, r] - np.delete(table[d], r).mean() for d in range(2) for r in range(3)])
    advantage /= advantage.std()
    x, chosen = torch.from_numpy(observations), torch.tensor(hats)
    log_policy = torch.log_softmax(trainer.model(x) / 0.5, 1)
    with torch.no_grad():
        cloned = torch.log_softmax(trainer.reference(x) / 0.5, 1)
    weights = torch.tensor(advantage[games], dtype=torch.float32)
    loss = (-(weights * log_policy[torch.arange(12), chosen]).mean()
            + 0.5 * (cloned.exp() * (cloned - log_policy)).sum(1).mean()
            - 0.25 * (-(log_policy.exp() * log_policy).sum(1)).mean())
    expected = torch.autograd.grad(loss, list(trainer.model.parameters()))
    assert len(gradients) == 1
    for got, want in zip(gradients[0], expected):
        assert torch.allclose(got, want, rtol=1e-4, atol=1e-7)

    scores[:] = [22] * 6
    before = [p.detach().clone() for p in trainer.model.parameters()]
    trainer.policy_gradient_update()
    assert len(gradients) == 1 and all(torch.equal(a, b) for a, b in zip(before, trainer.model.parameters()))


@pytest.mark.checks("RL-train-judge-fit")
def test_the_judge_learns_from_the_stale_moments_labelled_by_the_deck() -> None:
    """[RL-train-judge-fit] the examples of a deck are the stale moments of the teacher's
    team game (every moment the rule would decline a recommended play), with the judge's
    features and label 1 exactly when the card in the slot is playable, read here from
    the dealt deck; the threshold is the value of the grid whose team scores most (the
    lowest of equal ones), each mean the team's mean score with that threshold."""
    oracle("torch")
    from hanabi_ref.tools.rl.train.judge import THRESHOLDS, Judge, choose_threshold, fit_judge, judge_examples, judge_features, with_threshold

    every_feature: list[np.ndarray] = []
    every_label: list[float] = []
    for seed in range(5):
        features, labels, _ = judge_examples(CONFIG, [seed])
        deck = deck_from_seed(CONFIG, seed)
        moments: list[tuple[np.ndarray, float]] = []

        def recorder(view: PlayerView, memory: Any, slot: int) -> bool:
            identity = deck[view.hands[view.seat][slot]]
            suit, rank = divmod(identity, CONFIG.values)
            moments.append((judge_features(view, memory, slot), 1.0 if view.fireworks[suit] == rank else 0.0))
            return False

        play_team_games(CONFIG, [seed], teacher_hats, embedding="modular", judge=recorder)
        assert len(moments) == len(labels) == len(features)
        assert [label for _, label in moments] == labels.tolist()
        assert all(np.array_equal(mine, theirs) for (mine, _), theirs in zip(moments, features))
        every_feature.extend(features)
        every_label.extend(labels)
    assert len(every_label) > 40 and 0 < np.mean(every_label) < 1

    assert THRESHOLDS == (0.5, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99)
    model, losses = fit_judge(CONFIG, "hle", np.stack(every_feature), np.array(every_label, np.float32), 4, 0)
    assert len(losses) == 4 and losses[-1] < losses[0]
    seeds = [20, 21]
    chosen, means, _ = choose_threshold(CONFIG, model, teacher_hats, seeds, "modular")
    assert set(means) == set(THRESHOLDS)
    best = max(means.values())
    assert chosen.meta["threshold"] == min(t for t in THRESHOLDS if means[t] == best)
    for threshold in (THRESHOLDS[0], chosen.meta["threshold"]):
        records = play_team_games(CONFIG, seeds, teacher_hats, embedding="modular", judge=Judge(with_threshold(model, threshold)))
        assert means[threshold] == pytest.approx(sum(record.score for record in records) / len(records))


@pytest.mark.checks("RL-train-judge-fit")
def test_of_thresholds_whose_teams_score_alike_the_lowest_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    """[RL-train-judge-fit] with the games stood in for (every threshold from 0.9 up
    scores 21 on each deck, the others 20), the threshold is 0.9, the lowest of the best."""
    oracle("torch")
    from hanabi_ref.tools.rl.train import judge as judge_module
    from hanabi_ref.tools.rl.train.policy import NumpyPolicy

    def stand_in(config: Any, seeds: Any, recommender: Any, embedding: str, judge: Any) -> list[Any]:
        return [SimpleNamespace(score=21 if judge.threshold >= 0.9 else 20, trace=SimpleNamespace(actions=()))
                for _ in seeds]

    monkeypatch.setattr(judge_module, "play_team_games", stand_in)
    weights = {"w0": np.zeros((128, 64), np.float32), "b0": np.zeros(64, np.float32), "w1": np.zeros((64, 64), np.float32),
               "b1": np.zeros(64, np.float32), "w2": np.zeros((64, 1), np.float32), "b2": np.zeros(1, np.float32)}
    model = NumpyPolicy(weights, judge_module.judge_meta(CONFIG, "hle", 0.5))
    chosen, means, _ = judge_module.choose_threshold(CONFIG, model, teacher_hats, [1, 2], "modular")
    assert chosen.meta["threshold"] == 0.9 and means[0.99] == means[0.9] == 21 and means[0.85] == 20


@pytest.mark.checks("RL-train-offset-view")
def test_the_view_offset_learns_which_reveals_are_legal_where_the_sender_may_send() -> None:
    """[RL-train-offset-view] the examples of a deck are, at every turn of the teacher's
    team game (constant offset) where the acting seat may send (a token, and no play it
    was recommended), the sender's public observation and, for each of the R reveals,
    whether the engine allows it then; the model fitted to them is a ``view`` model of
    R outputs."""
    oracle("torch")
    from hanabi_ref.players.runner import play_game
    from hanabi_ref.engine.legality import is_legal
    from hanabi_ref.tools.rl.encoders import public_observation
    from hanabi_ref.tools.rl.train.offset import fit_view, legality_examples
    from hanabi_ref.tools.rl.train.team import TeamStrategy, recommended_play
    from hanabi_ref.engine.transition import apply, initial_state
    from hanabi_ref.engine.view import make_view

    rule = teacher(CONFIG)
    for seed in range(2):
        publics, legal = legality_examples(CONFIG, [seed])
        record = play_game(CONFIG, lambda config, seat, _: TeamStrategy(config, seat, rule, "constant"), seed=seed)
        seats = [TeamStrategy(CONFIG, seat, rule, "constant") for seat in range(4)]
        state, rows = initial_state(CONFIG, deck_from_seed(CONFIG, seed)), []
        for action in record.trace.actions:
            me, view = state.current_player, make_view(state, state.current_player)
            code = seats[me].code
            if state.clue_tokens > 0 and recommended_play(seats[me].memory, view, code.hand_size) is None:
                rows.append((public_observation(view, me),
                             [is_legal(state, code.reveal(e, me)) for e in range(code.reveals)]))
            state = apply(state, action)
            for seat, strategy in enumerate(seats):
                strategy.observe(make_view(state, seat), state.history[-1])
        assert len(rows) == len(publics) == len(legal) > 10
        assert all(np.array_equal(mine, theirs) for (mine, _), theirs in zip(rows, publics))
        assert [[bool(x) for x in mask] for _, mask in rows] == [[bool(x) for x in row] for row in legal]
    model = fit_view(CONFIG, "hle", range(2), epochs=1)
    assert model.meta["kind"] == "view" and model.logits(publics[0]).shape == (30,)
