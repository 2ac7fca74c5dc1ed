"""train.expert: seeded self-play labels, positions rebuilt from the moves, a resumable run of rounds."""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("torch")

from shithead_env import NUM_ACTIONS, Action, Game, Knowledge, action_mask, encode_observation
from shithead_env.scoring import final_scores
from train.config import ConfigError, load_config
from train.expert import (
    ROUND_FILE,
    _held_out,
    build_model,
    distil,
    load_positions,
    opponent_seats,
    policy_targets,
    replay_chunk,
    round_dir,
    searched_positions,
    selfplay_games,
    train,
    value_regret,
)

TEACHER = "guided:sims=8,opponents=search,root=ucb"  # as the expert config's teacher
MODELLING = "guided:sims=8"  # the default; searched from a view, so every other seat is modelled as heuristic


@pytest.mark.parametrize("teacher", [TEACHER, MODELLING])
def test_selfplay_is_seeded_and_labels_every_choice_with_shares_over_legal_moves(teacher, tmp_path):
    games = selfplay_games("dead_last", 4, teacher, [5, 6], explore_moves=4, max_decisions=300)
    again = selfplay_games("dead_last", 4, teacher, [5, 6], explore_moves=4, max_decisions=300)
    for key in games:
        assert np.array_equal(games[key], again[key], equal_nan=games[key].dtype.kind == "f"), key
    assert games["lengths"].sum() == len(games["actions"]) == len(games["searched"])
    assert games["searched"].sum() == len(games["shares"]) == len(games["values"]) == len(games["means"])
    assert np.allclose(games["shares"].astype(np.float64).sum(axis=1), 1.0, atol=1e-2)
    assert np.all(np.abs(games["values"]) <= 1.0)
    # Each root action's mean is there exactly where the search visited it, and the root's value is their
    # visit-weighted average.
    means = games["means"].astype(np.float64)
    assert np.array_equal(np.isfinite(means), games["shares"] > 0)
    assert np.all(np.abs(means[np.isfinite(means)]) <= 1.0)
    weighted = np.nansum(np.where(np.isfinite(means), means, 0.0) * games["shares"].astype(np.float64), axis=1)
    assert np.allclose(weighted, games["values"], atol=2e-2)

    # Replaying the moves reaches the same end, and each searched position's shares lie on its legal moves.
    moves = iter(games["actions"].tolist())
    labels = iter(games["shares"])
    for seed, length, scores in zip(games["seeds"], games["lengths"], games["scores"], strict=True):
        game = Game.new("dead_last", 4, seed=int(seed), max_decisions=300)
        for _ in range(length):
            legal = game.legal_actions()
            if len(legal) > 1:
                assert not np.any(next(labels)[~action_mask(game, game.current)])
            game.step(Action.from_index(next(moves)))
        assert game.is_over and np.allclose(final_scores(game), scores)

    path = tmp_path / "chunk.npz"
    np.savez(path, **games)
    positions = replay_chunk(path, "dead_last", 4, 300, 2, privileged=False)
    assert len(positions["observations"]) == games["searched"].sum()
    first = Game.new("dead_last", 4, seed=5, max_decisions=300)
    while len(first.legal_actions()) == 1:
        first.step(first.legal_actions()[0])
    assert np.array_equal(positions["observations"][0], encode_observation(first, first.current, 2).astype(np.float16))
    assert positions["masks"].shape == (len(positions["observations"]), NUM_ACTIONS)
    walked = [(number, row, game.current) for game, number, row in searched_positions(games, "dead_last", 4, 300)]
    assert [row for _, row, _ in walked] == list(range(len(positions["observations"])))
    assert np.array_equal(positions["outcomes"], [games["scores"][number][seat] for number, _, seat in walked])
    assert np.array_equal(positions["games"], [games["seeds"][number] for number, _, _ in walked])


def test_a_run_of_two_rounds_resumes_without_replaying_done_chunks(tmp_path):
    overrides = [f"runs_dir={tmp_path}", f"teacher={TEACHER}", "round_games=2", "explore_moves=2",
                 "max_decisions=200", "distil_epochs=1", "batch_size=32", "eval_games=4", "workers=1",
                 "progress_bar=false", "init_from=''"]
    config = load_config("expert_dead_last_4p", [*overrides, "rounds=1"])
    first = train(config)
    chunk = round_dir(first.run_dir, 1) / "data" / "chunk_00000.npz"
    stamp = chunk.stat().st_mtime_ns
    record = json.loads((round_dir(first.run_dir, 1) / ROUND_FILE).read_text())
    assert record["positions"] > 0 and "heuristic" in record["eval"]
    card = json.loads((round_dir(first.run_dir, 1) / "model" / "bot.json").read_text())
    assert card["tables"] == {"dead_last": [4]} and card["training"]["teacher"] == TEACHER  # the recipe on the card

    resumed = train(resume=first.run_dir, overrides=["rounds=2", "play_by=apprentice"])
    assert resumed.run_dir == first.run_dir and chunk.stat().st_mtime_ns == stamp
    second = json.loads((round_dir(first.run_dir, 2) / ROUND_FILE).read_text())
    assert second["played_by"] == f"model:{round_dir(first.run_dir, 1) / 'model'}"  # round 1's network moved
    assert second["positions"] > record["positions"]  # round 2 learns from both rounds' positions
    assert len((first.run_dir / "eval.csv").read_text().splitlines()) == 3  # header + one row a round


def test_the_teacher_must_search_the_table():
    with pytest.raises(ConfigError, match="not a search bot"):
        load_config("expert_dead_last_4p", ["teacher=heuristic"])
    from agents.onnx_bot import PRETRAINED_DIR

    one_table = f"teacher=guided:sims=200,value={PRETRAINED_DIR / 'value_dead_last_4p'}"  # value=auto plays them all
    with pytest.raises(ConfigError, match=r"teacher: .* plays dead_last 4 \(its value network's tables\), "
                                          r"not dead_last with 5 players"):
        load_config("expert_dead_last_4p", ["num_players=5", one_table])
    with pytest.raises(ConfigError, match="not harrogate with 4 players"):
        load_config("expert_dead_last_4p", ["rules=harrogate", one_table])
    assert load_config("expert_dead_last_4p", ["rules=harrogate", "num_players=5"]).num_players == 5
    with pytest.raises(ConfigError, match="takes no prior"):
        load_config("expert_dead_last_4p", ["teacher=ismcts", "teacher_prior=true"])
    with pytest.raises(ConfigError, match=r"teacher_prior: the teacher 'guided:sims=200' needs root=ucb"):
        load_config("expert_dead_last_4p", ["teacher=guided:sims=200", "teacher_prior=true"])
    assert load_config("expert_dead_last_4p", ["teacher_prior=true"]).teacher_prior  # the shipped teacher's root
    with pytest.raises(ConfigError, match="target_power: 0 would make the targets uniform over the visited moves"):
        load_config("expert_dead_last_4p", ["target_power=0"])


def test_sharpened_targets_keep_their_order_and_sum_to_one():
    shares = np.array([[0.5, 0.3, 0.2, 0.0], [0.25, 0.25, 0.5, 0.0]], np.float16)
    sharp = policy_targets(shares, 4.0)
    assert np.allclose(sharp.sum(axis=1), 1.0) and not sharp[:, 3].any()
    assert (np.argsort(sharp, axis=1) == np.argsort(shares.astype(np.float32), axis=1)).all()
    assert sharp[0, 0] > 0.8
    assert np.allclose(policy_targets(shares, 1.0), shares.astype(np.float32), atol=1e-3)


def test_after_the_exploration_the_player_bot_moves_and_the_teacher_still_labels():
    from agents import make_bot

    greedy = make_bot("greedy")  # deterministic: its move is a function of the position
    games = selfplay_games("dead_last", 4, TEACHER, [9], explore_moves=0, max_decisions=200, player="greedy")
    game = Game.new("dead_last", 4, seed=9, max_decisions=200)
    rng = np.random.default_rng(0)
    for index, searched in zip(games["actions"].tolist(), games["searched"].tolist(), strict=True):
        if searched:
            assert index == greedy.act_game(game, game.current, rng).index
        game.step(Action.from_index(index))
    assert games["searched"].sum() == len(games["shares"]) > 0


def test_with_learner_seats_the_opponents_play_the_other_seats_unsearched():
    from agents import make_bot

    greedy = make_bot("greedy")  # deterministic: its move is a function of the position
    seeds = [9, 10]
    games = selfplay_games("dead_last", 4, TEACHER, seeds, explore_moves=2, max_decisions=200,
                           opponents={"greedy": 1.0}, learner_seats=1)
    moves = iter(zip(games["actions"].tolist(), games["searched"].tolist(), strict=True))
    rng = np.random.default_rng(0)
    for seed, length in zip(seeds, games["lengths"].tolist(), strict=True):
        assert opponent_seats(4, 1, seed, {"greedy": 1.0}) == {s: "greedy" for s in range(4) if s != seed % 4}
        game = Game.new("dead_last", 4, seed=seed, max_decisions=200)
        learner_searched = 0
        for _ in range(length):
            index, searched = next(moves)
            if game.current != seed % 4:
                assert not searched
                assert index == greedy.act_game(game, game.current, rng).index
            else:
                learner_searched += searched
            game.step(Action.from_index(index))
        assert learner_searched > 0
    assert games["searched"].sum() == len(games["shares"])
    assert opponent_seats(4, 0, 9, {"greedy": 1.0}) == {}
    draws = [opponent_seats(4, 2, seed, {"greedy": 1.0, "random": 1.0}) for seed in range(40)]
    assert {spec for seats in draws for spec in seats.values()} == {"greedy", "random"}
    assert all(len(seats) == 2 for seats in draws)


def test_learner_seats_cannot_exceed_the_table():
    with pytest.raises(ConfigError, match="learner_seats: 5 is more than the table's 4 seats"):
        load_config("expert_dead_last_4p", ["learner_seats=5", f"teacher={TEACHER}"])


def test_a_run_stopped_before_its_first_network_ends_without_a_misleading_summary(tmp_path, capsys):
    from train.cli import report
    from train.trainer import RunResult

    report(RunResult(tmp_path, 0, 12.0, None, []))  # expert iteration stopped by max_seconds in round 1's self-play
    assert capsys.readouterr().out == ""
    report(RunResult(tmp_path, 1000, 12.0, tmp_path / "best" / "model.zip", []))
    out = capsys.readouterr().out
    assert out.startswith("trained 1000 steps in 12 s") and "shithead evaluate" in out


def test_label_stages_has_the_teacher_search_only_there_and_the_network_play_the_rest():
    from agents import make_bot

    greedy = make_bot("greedy")  # deterministic: its move is a function of the position
    games = selfplay_games("dead_last", 4, TEACHER, [4], explore_moves=0, max_decisions=300,
                           label_stages=("hand",), network="greedy")
    game = Game.new("dead_last", 4, seed=4, max_decisions=300)
    rng = np.random.default_rng(0)
    stages = set()
    for index, searched in zip(games["actions"].tolist(), games["searched"].tolist(), strict=True):
        knowledge = Knowledge.from_game(game, game.current)
        choice = len(knowledge.legal) > 1
        assert searched == (choice and knowledge.stage == "hand")
        if choice and not searched:
            stages.add(knowledge.stage)
            assert index == greedy.act_game(game, game.current, rng).index
        game.step(Action.from_index(index))
    assert games["searched"].sum() > 0 and {"swap", "pile"} <= stages
    with pytest.raises(ValueError, match="needs a network"):
        selfplay_games("dead_last", 4, TEACHER, [4], explore_moves=0, max_decisions=300, label_stages=("hand",))


@pytest.mark.parametrize(("overrides", "named"), [
    (["label_stages=[endgame]"], "label_stages"),
    (["label_stages=[]"], "label_stages"),
    (["label_stages=[hand, hand]"], "label_stages"),
    (["label_stages=[hand]", "init_from="], "needs init_from"),
])
def test_bad_label_stages_are_refused_by_name(overrides, named):
    with pytest.raises(ConfigError, match=named):
        load_config("expert_dead_last_4p", overrides)


def test_value_regret_is_the_teachers_best_mean_minus_its_mean_of_the_networks_move():
    log_probs = np.log(np.array([[0.2, 0.5, 0.3, 1e-30],    # argmax: move 1
                                 [0.6, 0.1, 0.3, 1e-30],    # argmax: move 0, which the teacher did not value
                                 [0.1, 0.2, 0.7, 1e-30]]))  # argmax: move 2, the teacher's best among legal moves
    means = np.array([[0.4, 0.1, -0.2, 0.9],  # move 3 illegal: its mean is no one's best
                      [np.nan, 0.3, 0.0, np.nan],
                      [0.1, 0.0, 0.2, np.nan]], np.float16)
    masks = np.array([[True, True, True, False]] * 3)
    regret, coverage = value_regret(log_probs, means, masks)
    assert regret == pytest.approx((0.3 + 0.0) / 2, abs=1e-3) and coverage == pytest.approx(2 / 3)
    assert np.isnan(value_regret(log_probs[1:2], means[1:2], masks[1:2])[0])  # nothing valued: no figure


def test_distillation_reports_the_value_regret_of_the_network_before_and_after_the_fit(tmp_path):
    import torch

    config = load_config("expert_dead_last_4p", ["workers=1", "max_decisions=150", "distil_epochs=1",
                                                 "batch_size=16", "progress_bar=false", "init_from="])
    seeds = np.arange(200)
    held = _held_out(seeds, config.seed)
    games = [int(seeds[held][0]), int(seeds[~held][0])]  # one game held out for the figures, one to fit
    data = round_dir(tmp_path, 1) / "data"
    data.mkdir(parents=True)
    np.savez(data / "chunk_00000.npz", **selfplay_games("dead_last", 4, TEACHER, games, 2, 150))
    positions = load_positions(config, tmp_path, 1, config.privileged_critic)
    model = build_model(config, None)
    rows = _held_out(positions["games"], config.seed)
    observations = torch.as_tensor(positions["observations"][rows], dtype=torch.float32)

    def regret_now() -> float:
        with torch.no_grad():
            logits = model.policy.get_distribution(observations, action_masks=positions["masks"][rows])
        return value_regret(logits.distribution.logits.numpy(), positions["means"][rows], positions["masks"][rows])[0]

    before = regret_now()
    figures = distil(model, positions, config, 1)
    assert figures["start_value_regret"] == pytest.approx(before, abs=1e-4)
    assert figures["value_regret"] == pytest.approx(regret_now(), abs=1e-4) and figures["regret_coverage"] > 0


def test_a_run_without_self_play_data_is_named_instead_of_failing_inside(tmp_path):
    config = load_config("expert_dead_last_4p", ["workers=1"])
    with pytest.raises(ValueError, match=r"no self-play data in rounds 1\.\.2"):
        load_positions(config, tmp_path, 2, config.privileged_critic)
