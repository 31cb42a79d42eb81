"""The recommendation team and its training [RL-train-team, RL-train-turn, RL-train-teacher,
RL-train-policy, RL-train-files, RL-train-bc, RL-train-pg, RL-train-seeds, RL-train-rollouts].

The teacher read from the observation vector is compared with the paper's rule read from
the view (two readings of one rule); the games the training plays at once, where each
receiver is handed its hat, are compared action for action with the games of the team as
a strategy, where every receiver decodes every reveal from its own view; training runs
for a few seconds: the loss moves, and a run interrupted and resumed from its checkpoint
ends with the very weights of the run that was not interrupted.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from hanabi_ref.game import play_game
from hanabi_ref.rl.encoders import recommendation_observation
from hanabi_ref.rl.errors import RLError
from hanabi_ref.rl.train.policy import load_model, model_meta, save_model
from hanabi_ref.rl.train.team import play_team_games, team_factory, team_unsupported, teacher, teacher_hat
from hanabi_ref.rules import make_config
from hanabi_ref.strategies import factory_for
from hanabi_ref.transition import apply, new_game
from hanabi_ref.view import make_view

CONFIG = make_config(4, preset="hle")


def test_the_teacher_reads_from_the_observation_what_the_paper_reads_from_the_view() -> None:
    """[RL-train-teacher] on every state of ten games, for every seat and every target it
    sees, the teacher computed from the recommendation observation alone is H-rec-action's
    recommendation computed from the view."""
    rule = teacher(CONFIG)
    compared = 0
    for seed in range(10):
        state = new_game(CONFIG, seed)
        for action in play_game(CONFIG, factory_for("simple"), seed=seed).trace.actions:
            for seat in range(4):
                view = make_view(state, seat)
                for target in range(4):
                    if target != seat:
                        assert rule(recommendation_observation(view, target)) == teacher_hat(view, target)
                        compared += 1
            state = apply(state, action)
    assert compared > 4000


@pytest.mark.parametrize("embedding", ["constant", "modular", "permutation"])
def test_games_played_together_are_the_games_of_the_strategy(embedding: str) -> None:
    """[RL-train-team, RL-train-turn, RL-hat-decode, RL-hat-offsets] the games the training
    plays (every receiver handed what decoding gives it) are, action for action, the games
    of :class:`TeamStrategy`, whose seats decode every reveal from their own views."""
    rule = teacher(CONFIG)
    seeds = list(range(12))
    together = play_team_games(CONFIG, seeds, lambda batch: np.array([rule(row) for row in batch], np.int64),
                               embedding=embedding, permutation=7)
    alone = [play_game(CONFIG, team_factory(rule, embedding, permutation=7), seed=seed) for seed in seeds]
    assert [record.trace.actions for record in together] == [record.trace.actions for record in alone]
    assert all(record.final.errors < 3 for record in alone)  # the teacher's team never strikes out here


def test_configurations_the_team_cannot_play_are_named() -> None:
    """[RL-train-team] hands of four cards and at least three players."""
    assert team_unsupported(CONFIG) is None
    assert "hands of 4 cards" in str(team_unsupported(make_config(2, preset="hle")))


def test_model_files_round_trip_and_bad_ones_are_named(tmp_path: Path) -> None:
    """[RL-train-files, RL-train-policy] weights written and read back give the same
    recommendations; a missing, foreign, truncated or misshapen file is refused with
    RL-train-files naming it."""
    meta = model_meta(CONFIG, "hle", "modular")
    rng = np.random.default_rng(0)
    shapes = {"w0": (meta["inputs"], meta["hidden"]), "b0": (meta["hidden"],), "w1": (meta["hidden"], meta["hidden"]),
              "b1": (meta["hidden"],), "w2": (meta["hidden"], meta["hats"]), "b2": (meta["hats"],)}
    weights = {name: rng.standard_normal(shape).astype(np.float32) for name, shape in shapes.items()}
    path = tmp_path / "model.npz"
    save_model(path, weights, meta)
    policy = load_model(path)
    observation = recommendation_observation(make_view(new_game(CONFIG, 1), 0), 1)
    hidden = np.maximum(np.maximum(observation @ weights["w0"] + weights["b0"], 0) @ weights["w1"] + weights["b1"], 0)
    assert policy(observation) == int(np.argmax(hidden @ weights["w2"] + weights["b2"]))
    (tmp_path / "short.npz").write_bytes(path.read_bytes()[:100])
    (tmp_path / "text.npz").write_text("not a model")
    save_model(tmp_path / "shape.npz", {**weights, "b2": weights["b2"][:3]}, meta)
    for name in ("missing.npz", "short.npz", "text.npz", "shape.npz"):
        with pytest.raises(RLError, match=rf"^RL-train-files: .*{name}: "):
            load_model(tmp_path / name)
    with pytest.raises(RLError, match="RL-train-files"):
        policy.check_config(make_config(5, preset="hle"), str(path))


def test_training_moves_the_loss_and_resumes_bit_for_bit(tmp_path: Path) -> None:
    """[RL-train-bc, RL-train-pg, RL-train-seeds, RL-train-files] a few seconds of
    training: behaviour cloning lowers its loss; a run stopped after its second update and
    resumed from its checkpoint ends with the same weights, curve and moves as the run
    that went straight through."""
    learn = pytest.importorskip("hanabi_ref.rl.train.learn", exc_type=ImportError)
    pytest.importorskip("torch")
    settings = learn.Settings(steps=4000, bc_games=40, bc_epochs=3, decks=3, rollouts=2, checkpoint_every=1, seed=5)
    straight = learn.Trainer(settings, tmp_path / "straight")
    straight.run()
    losses = [point["loss"] for point in straight.curve if point["phase"] == "bc"]
    assert losses[-1] < losses[0]
    assert straight.updates >= 4 and straight.moves >= 4000

    class Stop(Exception):
        pass

    def stop_after_two(moves: int, score: float | None) -> None:
        if interrupted.updates == 2:
            raise Stop

    interrupted = learn.Trainer(settings, tmp_path / "resumed")
    with pytest.raises(Stop):
        interrupted.run(stop_after_two)
    resumed = learn.Trainer(settings, tmp_path / "resumed")
    assert resumed.resume() and resumed.updates == 2
    resumed.run()
    assert resumed.curve == straight.curve and resumed.moves == straight.moves
    for name, value in straight.weights().items():
        assert np.array_equal(value, resumed.weights()[name]), name
    assert load_model(tmp_path / "resumed" / "model.npz")(np.zeros(straight.meta["inputs"], np.float32)) in range(8)
    other = learn.Trainer(learn.Settings(steps=4000, bc_games=40, bc_epochs=3, decks=3, rollouts=2, seed=6),
                          tmp_path / "resumed")
    with pytest.raises(RLError, match=r"^RL-train-files: .*checkpoint.pt: a run with other settings"):
        other.resume()


def test_training_without_pytorch_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """[RL-train-extra] without torch, training is refused in one line naming the extra."""
    import sys

    from hanabi_ref.rl.train.learn import torch_module

    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(RLError, match=r"^RL-train-extra: .*pip install 'hanabi-ref\[rl\]'"):
        torch_module()


def test_the_command_line_trains_evaluates_and_draws(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[RL-train-cli, RL-train-files] ``rl train`` writes the run's files and resumes it;
    other settings in the same directory, an unknown agent, one rollout or a missing model
    are one line each, exit 2; ``rl eval`` prints simulate's summary of the model's team;
    ``rl curve`` writes a PNG."""
    pytest.importorskip("torch")
    pytest.importorskip("matplotlib")
    from hanabi_ref.cli import main

    run = tmp_path / "run"
    train = ["rl", "train", "--agent", "recommendation", "--steps", "2500", "--out", str(run), "--bc-games", "20",
             "--bc-epochs", "1", "--decks", "2", "--rollouts", "2"]
    assert main(train) == 0
    assert {path.name for path in run.iterdir()} == {"checkpoint.pt", "model.npz", "model-cloned.npz", "curve.json"}
    assert "(resumed)" not in capsys.readouterr().out
    assert main(train) == 0 and "(resumed)" in capsys.readouterr().out
    longer = [*train[:5], "4000", *train[6:]]
    assert main(longer) == 0  # a larger --steps goes on with the same run
    out = capsys.readouterr().out
    assert "(resumed)" in out and int(out.split(" moves,")[0].split()[-1]) >= 4000
    for arguments, expected in [
        ([*train[:-6], "--seed", "4"], "RL-train-files: "),
        (["rl", "train", "--agent", "offset", "--steps", "10", "--out", str(tmp_path / "x")], "RL-train-cli: --agent"),
        ([*train[:-1], "1"], "--rollouts: at least 2"),
        (["rl", "eval", str(tmp_path / "none"), "--games", "2"], "RL-train-files: "),
    ]:
        assert main(arguments) == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and expected in err, err
    assert main(["rl", "eval", str(run), "--games", "3", "--jobs", "1", "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["strategy"] == "learned-recommendation" and summary["games_completed"] == 3
    assert main(["rl", "curve", str(run), "--png", str(tmp_path / "curve.png")]) == 0
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_teacher_team_is_a_strategy_of_the_command_line() -> None:
    """[RL-train-team, RL-train-shipped] ``learned-recommendation`` with ``model=teacher``
    plays the games of the teacher's team; a model for another configuration is refused."""
    rule = teacher(CONFIG)
    for embedding in ("constant", "modular"):
        factory = factory_for("learned-recommendation", {"model": "teacher", "embedding": embedding})
        for seed in (3, 4):
            expected = play_game(CONFIG, team_factory(rule, embedding), seed=seed).trace
            assert play_game(CONFIG, factory, seed=seed).trace == expected


def test_the_shipped_model_plays_games() -> None:
    """[RL-train-shipped] the model shipped in the package loads, is the 4-player hle
    model, and its team plays whole games (every seat decoding every reveal)."""
    from hanabi_ref.strategies.learned import shipped_model

    meta = load_model(shipped_model()).meta
    assert (meta["players"], meta["rules"], meta["inputs"], meta["hats"]) == (4, "hle", 838, 8)
    factory = factory_for("learned-recommendation")
    records = [play_game(CONFIG, factory, seed=seed) for seed in range(3)]
    assert all(record.final.terminal and record.score > 0 for record in records)


@pytest.mark.parametrize(("arguments", "expected"), [
    (["--players", "5"], "RL-train-files: shipped: the model takes 838 inputs"),
    (["--players", "4", "--param", "model=/nonexistent/model.npz"], "RL-train-files: /nonexistent/model.npz: no such model file"),
    (["--players", "3"], "hands of 4 cards"),
])
def test_a_model_the_run_cannot_use_is_one_line_before_any_game(arguments: list[str], expected: str,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """[RL-train-files, RL-train-team, RL-train-shipped] a model for other players, a
    missing model file or a configuration the team cannot play: exit 2, one line."""
    from hanabi_ref.cli import main

    assert main(["simulate", "--strategy", "learned-recommendation", "--rules", "hle", "--games", "1", *arguments]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and expected in err and "Traceback" not in err, err


def test_rollouts_play_the_teams_games_and_price_a_changed_hat_as_the_batch_driver_does() -> None:
    """[RL-train-rollouts] :class:`TeamRollouts` plays, from the first move, the teacher's
    games of ``play_team_games``, action for action; and an advantage it reports is the
    score ``play_team_games`` reaches with that one hat changed (a recommender that answers
    the teacher's hat to every ask but one), minus the teacher's score."""
    from hanabi_ref.rl.train.improve import TeamRollouts, rollout_advantages

    rule = teacher(CONFIG)
    team = TeamRollouts(CONFIG, "modular")
    for seed in range(6):
        record = play_team_games(CONFIG, [seed], lambda batch: np.array([rule(row) for row in batch], np.int64),
                                 embedding="modular")[0]
        final = team.finish(team.start(seed))
        assert tuple(event.action for event in final.history) == record.trace.actions
    examples = rollout_advantages(CONFIG, 3, "modular")
    assert len(examples.hats) == len(examples.observations) > 20
    assert all(examples.advantages[row, hat] == 0 for row, hat in enumerate(examples.hats))
    changed = 0
    for row in (0, len(examples.hats) // 2, len(examples.hats) - 1):
        for other in range(8):
            if other == examples.hats[row]:
                continue
            asked = [0]

            def one_changed(batch: np.ndarray, row: int = row, other: int = other) -> np.ndarray:
                hats = []
                for observation in batch:
                    hats.append(other if asked[0] == row else rule(observation))
                    asked[0] += 1
                return np.array(hats, np.int64)

            replayed = play_team_games(CONFIG, [3], one_changed, embedding="modular")[0]
            assert replayed.score - examples.scores[0] == examples.advantages[row, other]
            changed += replayed.score != examples.scores[0]
    assert changed > 0  # some changed hat changes the score, so the comparison is not vacuous
