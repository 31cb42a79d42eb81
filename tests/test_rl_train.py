"""The recommendation team and its training [RL-train-team, RL-train-turn, RL-train-teacher,
RL-train-policy, RL-train-files, RL-train-bc, RL-train-pg, RL-train-seeds, RL-train-rollouts,
RL-train-judge, RL-train-judge-fit, RL-train-offset, RL-train-info].

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

from hanabi_ref.engine.actions import Action, Hint
from hanabi_ref.players.runner import play_game
from hanabi_ref.tools.rl.encoders import recommendation_observation
from hanabi_ref.tools.rl.errors import RLError
from hanabi_ref.tools.rl.train.policy import load_model, model_meta, save_model
from hanabi_ref.tools.rl.train.team import play_team_games, team_factory, team_unsupported, teacher, teacher_hat
from hanabi_ref.engine.config import GameConfig
from hanabi_ref.engine.configs import make_config
from hanabi_ref.engine.state import Event
from hanabi_ref.players.strategies import factory_for
from hanabi_ref.players.strategy import Strategy
from hanabi_ref.engine.transition import apply, new_game
from hanabi_ref.engine.view import PlayerView, make_view
from tests.oracles import oracle

CONFIG = make_config(4, preset="hle")


@pytest.mark.checks("RL-train-teacher")
@pytest.mark.parametrize("games", [4, pytest.param(10, marks=pytest.mark.deep)])
def test_the_teacher_reads_from_the_observation_what_the_paper_reads_from_the_view(games: int) -> None:
    """[RL-train-teacher] on every state of ``games`` games (4, and 10 in the deep set),
    for every seat and every target it sees, the teacher computed from the recommendation
    observation alone is H-rec-action's recommendation computed from the view."""
    rule = teacher(CONFIG)
    compared = 0
    for seed in range(games):
        state = new_game(CONFIG, seed)
        for action in play_game(CONFIG, factory_for("simple"), seed=seed).trace.actions:
            for seat in range(4):
                view = make_view(state, seat)
                for target in range(4):
                    if target != seat:
                        assert rule(recommendation_observation(view, target)) == teacher_hat(view, target)
                        compared += 1
            state = apply(state, action)
    assert compared > 400 * games  # some 30 moves a game, each compared 12 times


def _some_public_offset(public: np.ndarray) -> int:
    """An offset that moves with the public observation (its weighted sum), for tests."""
    return int(np.round(float(public @ np.arange(len(public), dtype=np.float64)) * 7)) % 30


@pytest.mark.checks("RL-train-team", "RL-hat-decode")
@pytest.mark.parametrize("games", [4, pytest.param(12, marks=pytest.mark.deep)])
@pytest.mark.parametrize("embedding", ["constant", "modular", "permutation", "public"])
def test_games_played_together_are_the_games_of_the_strategy(embedding: str, games: int) -> None:
    """[RL-train-team, RL-train-turn, RL-hat-decode, RL-hat-offsets] the games the training
    plays (every receiver handed what decoding gives it) are, action for action, the games
    of :class:`TeamStrategy`, whose seats decode every reveal from their own views (with a
    public offset: each from the sender's public observation as its own view shows it):
    ``games`` games an embedding (4, and 12 in the deep set)."""
    rule = teacher(CONFIG)
    seeds = list(range(games))
    together = play_team_games(CONFIG, seeds, lambda batch: np.array([rule(row) for row in batch], np.int64),
                               embedding=embedding, permutation=7, offset=_some_public_offset)
    alone = [play_game(CONFIG, team_factory(rule, embedding, permutation=7, offset=_some_public_offset), seed=seed)
             for seed in seeds]
    assert [record.trace.actions for record in together] == [record.trace.actions for record in alone]
    assert all(record.final.strikes < 3 for record in alone)  # the teacher's team never strikes out here


@pytest.mark.checks("RL-train-team")
def test_configurations_the_team_cannot_play_are_named() -> None:
    """[RL-train-team] hands of four cards and at least three players."""
    assert team_unsupported(CONFIG) is None
    assert "hands of 4 cards" in str(team_unsupported(make_config(2, preset="hle")))


@pytest.mark.checks("RL-train-files", "RL-train-policy")
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


@pytest.mark.checks("RL-train-seeds", "RL-train-files")
@pytest.mark.deep
def test_training_moves_the_loss_and_resumes_bit_for_bit(tmp_path: Path) -> None:
    """[RL-train-bc, RL-train-pg, RL-train-seeds, RL-train-files, RL-train-judge-fit] a few
    seconds of training: behaviour cloning lowers its loss, and so does the judge's fit; a run stopped after its second update and
    resumed from its checkpoint ends with the same weights, curve and moves as the run
    that went straight through."""
    oracle("torch")
    from hanabi_ref.tools.rl.train import learn
    settings = learn.Settings(steps=9000, bc_games=40, bc_epochs=3, decks=3, rollouts=2, checkpoint_every=1, seed=5,
                              judge_games=30, judge_epochs=2, threshold_games=3)
    straight = learn.Trainer(settings, tmp_path / "straight")
    straight.run()
    losses = [point["loss"] for point in straight.curve if point["phase"] == "bc"]
    assert losses[-1] < losses[0]
    assert straight.updates >= 4 and straight.moves >= 9000

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
    judged = [point for point in straight.curve if point["phase"] == "judge"]
    assert len(judged) == 1 and judged[0]["losses"][-1] < judged[0]["losses"][0]  # the judge's loss moves too
    assert load_model(tmp_path / "resumed" / "judge.npz", agent="judge").meta["threshold"] == judged[0]["threshold"]
    other = learn.Trainer(learn.Settings(steps=9000, bc_games=40, bc_epochs=3, decks=3, rollouts=2, seed=6,
                                         judge_games=30, judge_epochs=2, threshold_games=3),
                          tmp_path / "resumed")
    with pytest.raises(RLError, match=r"^RL-train-files: .*checkpoint.pt: a run with other settings"):
        other.resume()


@pytest.mark.checks("RL-train-extra")
def test_training_without_pytorch_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """[RL-train-extra] without torch, training is refused in one line naming the extra."""
    import sys

    from hanabi_ref.tools.rl.train.fitting import torch_module

    monkeypatch.setitem(sys.modules, "torch", None)
    with pytest.raises(RLError, match=r"^RL-train-extra: .*pip install '.*\[train\]'"):
        torch_module()


@pytest.mark.checks("RL-train-cli", "RL-train-files")
def test_the_command_line_trains_evaluates_and_draws(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """[RL-train-cli, RL-train-files] ``rl train`` writes the run's files and resumes it;
    other settings in the same directory, an unknown agent, one rollout or a missing model
    are one line each, exit 2; ``rl eval`` prints simulate's summary of the model's team;
    ``rl curve`` writes a PNG."""
    oracle("torch")
    oracle("matplotlib")
    from hanabi_ref.cli import main

    run = tmp_path / "run"
    train = ["rl", "train", "--agent", "recommendation", "--steps", "1000", "--out", str(run), "--judge-games", "10",
             "--threshold-games", "2", "--bc-games", "10", "--bc-epochs", "1", "--decks", "2", "--rollouts", "2"]
    assert main(train) == 0
    assert {path.name for path in run.iterdir()} == {"checkpoint.pt", "model.npz", "model-cloned.npz", "curve.json",
                                                     "judge.npz"}
    assert "(resumed)" not in capsys.readouterr().out
    assert main(train) == 0 and "(resumed)" in capsys.readouterr().out
    longer = [*train[:5], "1500", *train[6:]]
    assert main(longer) == 0  # a larger --steps goes on with the same run
    out = capsys.readouterr().out
    assert "(resumed)" in out and int(out.split(" moves,")[0].split()[-1]) >= 1500
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
    assert summary["params"]["judge"] == str(run / "judge.npz")  # the run's judge plays with its model
    assert main(["rl", "curve", str(run), "--png", str(tmp_path / "curve.png")]) == 0
    assert (tmp_path / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.checks("RL-train-shipped")
def test_the_teacher_team_is_a_strategy_of_the_command_line() -> None:
    """[RL-train-team, RL-train-shipped] ``learned-recommendation`` with ``model=teacher``
    plays the games of the teacher's team; a model for another configuration is refused."""
    rule = teacher(CONFIG)
    for embedding in ("constant", "modular"):
        factory = factory_for("learned-recommendation", {"model": "teacher", "embedding": embedding})
        for seed in (3, 4):
            expected = play_game(CONFIG, team_factory(rule, embedding), seed=seed).trace
            assert play_game(CONFIG, factory, seed=seed).trace == expected


@pytest.mark.checks("RL-train-shipped")
def test_the_shipped_model_plays_games() -> None:
    """[RL-train-shipped] the model shipped in the package loads, is the 4-player hle
    model, and its team plays whole games (every seat decoding every reveal)."""
    from hanabi_ref.tools.rl.learned import shipped_model

    meta = load_model(shipped_model()).meta
    assert (meta["players"], meta["rules"], meta["inputs"], meta["hats"]) == (4, "hle", 838, 8)
    factory = factory_for("learned-recommendation")
    records = [play_game(CONFIG, factory, seed=seed) for seed in range(3)]
    assert all(record.final.terminal and record.score > 0 for record in records)


@pytest.mark.checks("RL-train-files", "RL-train-shipped")
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


SMALL = make_config(3, composition=[[3, 2, 2, 2, 1]] * 3, hand_size=4, hints=8, errors=3, empty_hints=False,
                    discard_at_max_hints=False, draw_after_final_move=False)
"""Three players, three suits, the hle rules: shorter games, fewer recommendations to roll out."""


@pytest.mark.checks("RL-train-rollouts")
@pytest.mark.parametrize("config", [SMALL, pytest.param(CONFIG, marks=pytest.mark.deep)],
                         ids=["3-players-3-suits", "4-players-hle"])
def test_rollouts_play_the_teams_games_and_price_a_changed_hat_as_the_batch_driver_does(config: GameConfig) -> None:
    """[RL-train-rollouts] :class:`TeamRollouts` plays, from the first move, the teacher's
    games of ``play_team_games``, action for action; and an advantage it reports is the
    score ``play_team_games`` reaches with that one hat changed (a recommender that answers
    the teacher's hat to every ask but one), minus the teacher's score.  On a small deck by
    default (every rollout of a deck is a game from each recommendation on), on the 4-player
    hle game in the deep set."""
    from hanabi_ref.tools.rl.train.improve import TeamRollouts, rollout_advantages

    rule = teacher(config)
    team = TeamRollouts(config, "modular")
    for seed in range(6):
        record = play_team_games(config, [seed], lambda batch: np.array([rule(row) for row in batch], np.int64),
                                 embedding="modular")[0]
        final = team.finish(team.start(seed))
        assert tuple(event.action for event in final.history) == record.trace.actions
    examples = rollout_advantages(config, 3, "modular")
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

            replayed = play_team_games(config, [3], one_changed, embedding="modular")[0]
            assert replayed.score - examples.scores[0] == examples.advantages[row, other]
            changed += replayed.score != examples.scores[0]
    assert changed > 0  # some changed hat changes the score, so the comparison is not vacuous


@pytest.mark.checks("RL-train-judge")
def test_the_judges_features_read_the_seats_view() -> None:
    """[RL-train-judge] every block of the judge's features, recomputed from the view by
    other means: the slot's knowledge set, the identities playable then and now, the copies
    played since, the unseen copies over the deck's, and the three counters."""
    from hanabi_ref.tools.rl.train.judge import judge_features
    from hanabi_ref.tools.rl.train.policy import judge_inputs
    from hanabi_ref.tools.rl.train.team import SeatMemory

    checked = 0
    state = new_game(CONFIG, 11)
    for action in play_game(CONFIG, factory_for("simple"), seed=11).trace.actions[:30]:
        view = make_view(state, state.current_player)
        memory = SeatMemory(received=5, playable_then=0b1011, played_since=[0, 3, 3])
        for slot, known in enumerate(view.own_knowledge):
            features = judge_features(view, memory, slot)
            assert features.shape == (judge_inputs(CONFIG),) == (128,)
            identities = [(suit, value) for suit in range(5) for value in range(5)]
            seen: list[int | None] = [card for seat, cards in enumerate(view.cards) if seat != view.seat for card in cards]
            seen += [card for _, card in view.discard] + [card for _, card in view.played]
            for x, (suit, value) in enumerate(identities):
                copies = (3, 2, 2, 2, 1)[value]
                assert features[x] == (known >> x & 1)
                assert features[25 + x] == (x in (0, 1, 3))
                assert features[50 + x] == [0, 3, 3].count(x)
                assert features[75 + x] == pytest.approx((copies - seen.count(x)) / copies)
                assert features[100 + x] == (view.fireworks[suit] == value)
            assert features[125:].tolist() == pytest.approx([view.clue_tokens / 8, view.strikes / 3, view.deck_size / 50])
            checked += 1
        state = apply(state, action)
    assert checked == 120


@pytest.mark.checks("RL-train-judge", "RL-train-team")
def test_a_judge_decides_alike_in_both_drivers_and_one_that_never_plays_is_the_rule(tmp_path: Path) -> None:
    """[RL-train-judge, RL-train-team] the team's games with a judge are the same in
    ``play_team_games`` and as a strategy (every seat asking its judge from its own view);
    a judge that always declines plays the rule's games; a judge model file round-trips
    and a foreign one is refused."""
    oracle("torch")
    from hanabi_ref.tools.rl.train.judge import Judge, fit_judge, judge_examples, with_threshold

    features, labels, moves = judge_examples(CONFIG, range(20))
    assert len(features) == len(labels) > 50 and 0 < labels.mean() < 1 and moves > 20 * 30
    model, losses = fit_judge(CONFIG, "hle", features, labels, 3, 0)
    path = tmp_path / "judge.npz"
    save_model(path, model.weights(), model.meta)
    judge = Judge(with_threshold(load_model(path, agent="judge"), 0.6))
    rule = teacher(CONFIG)
    hats = lambda batch: np.array([rule(row) for row in batch], np.int64)  # noqa: E731
    seeds = list(range(4))
    together = play_team_games(CONFIG, seeds, hats, embedding="modular", judge=judge)
    alone = [play_game(CONFIG, team_factory(rule, "modular", judge=judge), seed=seed) for seed in seeds]
    assert [record.trace.actions for record in together] == [record.trace.actions for record in alone]
    plain = play_team_games(CONFIG, seeds, hats, embedding="modular")
    assert [r.trace.actions for r in play_team_games(CONFIG, seeds, hats, embedding="modular",
                                                      judge=lambda view, memory, slot: False)] == \
        [r.trace.actions for r in plain]
    assert [r.trace.actions for r in together] != [r.trace.actions for r in plain]  # the judge did play some
    with pytest.raises(RLError, match=r"^RL-train-files: .*judge.npz: not a recommendation model"):
        load_model(path)


@pytest.mark.checks("RL-train-offset", "RL-train-offset-two-level")
def test_the_public_offset_is_learned_from_the_senders_view_and_by_two_levels() -> None:
    """[RL-train-offset, RL-train-offset-view, RL-train-offset-two-level] the expected
    number of legal sums of each offset is the brute-force count; a model fitted to the
    sender's legal reveals gives offsets in range that the team plays with; two-level
    optimisation runs its updates, alternating the levels."""
    torch = oracle("torch")
    from hanabi_ref.tools.rl.train.offset import (OffsetFunction, expected_legal_sums, fit_view, legality_examples,
                                            play_with_offset, two_level)

    legal = np.random.default_rng(3).random(30)
    brute = [sum(legal[(s + o) % 30] for s in range(8)) for o in range(30)]
    assert expected_legal_sums(legal, 8) == pytest.approx(brute)
    publics, masks = legality_examples(CONFIG, range(5))
    assert publics.shape[1] == 737 and masks.shape[1] == 30 and 0 < masks.mean() < 1
    model = fit_view(CONFIG, "hle", range(8), epochs=2)
    function = OffsetFunction(model, 8)
    assert all(0 <= function(row) < 30 for row in publics[:20])
    rule = teacher(CONFIG)
    scores = play_with_offset(CONFIG, range(3), lambda batch: np.array([rule(row) for row in batch], np.int64), model)
    assert len(scores) == 3 and all(0 <= score <= 25 for score in scores)
    recommender = torch.nn.Sequential(torch.nn.Linear(838, 128), torch.nn.ReLU(), torch.nn.Linear(128, 128),
                                      torch.nn.ReLU(), torch.nn.Linear(128, 8))
    offsets, recommender, curve = two_level(CONFIG, "hle", recommender, updates=4, period=2, decks=2, rollouts=2)
    assert [point["level"] for point in curve] == ["offset", "offset", "recommender", "recommender"]
    assert offsets.meta["kind"] == "policy" and 0 <= OffsetFunction(offsets, 8)(publics[0]) < 30


@pytest.mark.checks("RL-train-shipped", "RL-train-judge", "RL-train-offset")
def test_the_strategys_judge_and_offset_parameters() -> None:
    """[RL-train-shipped, RL-train-judge, RL-train-offset] ``learned-recommendation``: the
    shipped judge plays with the shipped model unless told ``judge=none``; the public
    embedding and ``offset`` go together."""
    from hanabi_ref.tools.rl.train.judge import Judge
    from hanabi_ref.tools.rl.learned import SHIPPED_JUDGE, shipped_model
    from hanabi_ref.players.strategies.params import ParamError

    shipped = load_model(shipped_model())
    judge = Judge(load_model(shipped_model(SHIPPED_JUDGE), agent="judge"))
    for params, expected in [({}, team_factory(shipped, "modular", judge=judge)),
                             ({"judge": "none"}, team_factory(shipped, "modular"))]:
        for seed in (1, 2):
            assert play_game(CONFIG, factory_for("learned-recommendation", params), seed=seed).trace == \
                play_game(CONFIG, expected, seed=seed).trace
    for params in ({"embedding": "public"}, {"offset": "/nonexistent.npz"}, {"judge": "/nonexistent.npz"}):
        with pytest.raises(ParamError):
            factory_for("learned-recommendation", params)


@pytest.mark.checks("RL-train-info", "RL-hat-decode")
@pytest.mark.parametrize("games", [8, pytest.param(25, marks=pytest.mark.deep)])
def test_the_information_team_decodes_every_message_and_keeps_one_public_record(games: int) -> None:
    """[RL-train-info, RL-train-info-turn, RL-hat-decode] in ``games`` real games of the
    information team (8, and 25 in the deep set), every identity a receiver learns from a
    reveal that was a message is the identity of the card it names (checked against the
    deck), and after every move every seat holds the same sets of named cards."""
    import hanabi_ref.tools.rl.train.info as info

    forced: set[tuple[int, int]] = set()  # (game, turn) of reveals sent for want of a message

    class Checked(info.InfoSeat):
        learned: list[tuple[int, int, int]]

        def observe(self, view: PlayerView, event: Event) -> None:
            was = dict(self.known)
            super().observe(view, event)
            self.learned += [(view.turns - 1, card, identity) for card, identity in self.known.items()
                             if was.get(card) != identity]
            table[view.seat] = (view.turns, [set(named) for named in self.named])
            if all(entry is not None and entry[0] == view.turns for entry in table):  # every seat saw this move
                assert all(entry == table[0] for entry in table)
                compared.append(view.turns)

        def act(self, view: PlayerView) -> Action:
            action = info.info_action(self, view)
            if isinstance(action, Hint) and info.message(self, view) != action:
                forced.add((game, view.turns))
            return action

    learned = checked = 0
    compared: list[int] = []
    for game in range(games):
        seats: list[Checked] = []
        table: list[tuple[int, list[set[int]]] | None] = [None] * 4

        def build(config: GameConfig, seat: int, seed: int) -> Strategy:
            strategy = Checked(config, seat)
            strategy.learned = []
            seats.append(strategy)
            return strategy

        record = play_game(CONFIG, build, seed=game)
        for seat in seats:
            for turn, card, identity in seat.learned:
                learned += 1
                if (game, turn) not in forced:
                    assert record.final.deck[card] == identity, (game, turn, seat.seat)
                    checked += 1
    assert checked > 20 * games and checked > 0.9 * learned and len(compared) > games * 40


@pytest.mark.checks("RL-train-info-actor")
def test_the_learned_information_actor_is_cloned_from_the_rule_and_plays(tmp_path: Path) -> None:
    """[RL-train-info-actor, RL-train-files] a few seconds of cloning give an actor whose
    file round-trips and whose team plays whole games with legal moves only."""
    oracle("torch")
    from hanabi_ref.tools.rl.train.info import LearnedActor, fit_actor, play_info_games

    model, accuracy = fit_actor(CONFIG, "hle", range(3), 3)
    assert 0.3 < accuracy <= 1
    path = tmp_path / "actor.npz"
    save_model(path, model.weights(), model.meta)
    loaded = load_model(path, agent="info-actor")
    assert loaded.meta["inputs"] == 254
    records = play_info_games(CONFIG, range(3), LearnedActor(loaded))
    assert all(record.final.terminal for record in records)
