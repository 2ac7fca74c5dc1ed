"""train.value: seeded positions, a fit, and an export the runtime reads back with the same numbers."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("torch")

from agents.value_net import FEATURE_SIZE, ValueNet
from shithead_env.actions import MAX_SEATS
from train.value import ValueConfig, export_value, fit, play_games


def test_positions_are_seeded_and_targets_are_the_games_final_scores():
    first = play_games("dead_last", 4, "heuristic", [0, 1, 2], positions=6)
    again = play_games("dead_last", 4, "heuristic", [0, 1, 2], positions=6)
    for key in first:
        assert np.array_equal(first[key], again[key])
    assert first["features"].shape == (18, FEATURE_SIZE)
    targets = first["targets"]
    assert targets.shape == (18, MAX_SEATS)
    assert np.allclose(targets[:, :4].sum(axis=1), 0.0, atol=1e-6)  # placement scores are zero-sum
    assert not targets[:, 4:].any()  # slots past the table stay empty
    assert {round(float(x), 4) for x in targets[:, :4].ravel()} <= {1.0, 0.3333, -0.3333, -1.0, 0.0}


def test_a_fitted_network_exports_and_the_runtime_reproduces_it(tmp_path):
    import torch

    config = ValueConfig(games=8, positions=8, epochs=1, batch_size=16, hidden=[32], holdout=0.25, workers=1)
    data = play_games(config.rules, config.players, config.bot, list(range(config.games)), config.positions)
    net, figures = fit(config, data, progress=False)
    assert figures["held_out_positions"] > 0 and "0.00-0.25" in figures["r2_by_stage"]
    out = export_value(net, tmp_path / "value_tiny", config, figures, seconds=1.0)
    runtime = ValueNet(out)
    assert runtime.covers("dead_last", 4) and not runtime.covers("dead_last", 3)
    assert runtime.card["training"]["games"] == 8
    rows = data["features"][:5].astype(np.float32)
    with torch.no_grad():
        expected = net(torch.from_numpy(rows)).numpy()
    assert np.allclose(runtime.run(rows), expected, atol=1e-5)


def test_an_expert_runs_self_play_games_give_positions_with_their_final_scores(tmp_path):
    from shithead_env import Action, Game
    from shithead_env.scoring import final_scores
    from train.config import load_config
    from train.expert import round_dir, selfplay_games
    from train.value import EXPERT_GAME_IDS, SOURCE_EXPERT, expert_positions

    run = tmp_path / "run"
    config = load_config("expert_dead_last_4p", ["max_decisions=200"])
    run.mkdir()
    config.save(run / "config.yaml")
    games = selfplay_games("dead_last", 4, "guided:sims=8", [3, 4], explore_moves=2, max_decisions=200)
    (round_dir(run, 1) / "data").mkdir(parents=True)
    np.savez(round_dir(run, 1) / "data" / "chunk_00000.npz", **games)

    positions = expert_positions(run, positions=5, workers=1)
    assert len(positions["targets"]) == 10 and set(positions["source"]) == {SOURCE_EXPERT}
    assert set(positions["game"]) == {EXPERT_GAME_IDS + 3, EXPERT_GAME_IDS + 4}
    moves = iter(games["actions"].tolist())
    game = Game.new("dead_last", 4, seed=3, max_decisions=200)
    for _ in range(int(games["lengths"][0])):
        game.step(Action.from_index(next(moves)))
    scores = final_scores(game)
    first = positions["targets"][:5, :4]
    assert all(np.allclose(sorted(row), sorted(scores)) for row in first)  # every seat's score, by slot
    assert np.all((positions["stage"] >= 0) & (positions["stage"] <= 1))


def test_help_explains_every_option_of_the_recipe(capsys):
    from dataclasses import fields

    from train.value import main

    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())  # argparse wraps the help
    for spec in fields(ValueConfig):
        assert spec.metadata["help"] in text, spec.name
    assert "(default: 16000)" in text


def test_a_device_torch_cannot_use_is_refused_before_any_game(tmp_path, capsys):
    import torch

    from train.value import main

    bad = ["gpu", f"cuda:{torch.cuda.device_count()}"] + ([] if torch.cuda.is_available() else ["cuda"])
    for name in bad:
        with pytest.raises(SystemExit):
            main(["--out", str(tmp_path / "value"), "--games", "4", "--device", name])
        assert f"--device {name}:" in capsys.readouterr().err
    assert not (tmp_path / "value").exists()

def test_the_command_ships_the_network_with_its_int8_copy(tmp_path, capsys):
    pytest.importorskip("onnx")
    from train.value import main

    out = tmp_path / "value_tiny"
    args = ["--out", str(out), "--games", "8", "--positions", "4", "--epochs", "1", "--batch-size", "8",
            "--hidden", "16", "--holdout", "0.25", "--workers", "1"]
    assert main(args) == 0
    assert ValueNet(out, precision="int8").card["model"]["int8"]["measured_on"]["games_per_table"] == 1000
    assert "int8 copy: R^2" in capsys.readouterr().out


def test_without_onnx_the_command_stops_before_any_game(tmp_path, capsys, monkeypatch):
    import importlib.util

    from train.value import main

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *rest: None if name == "onnx" else real(name, *rest))
    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "never"), "--games", "8"])
    assert "the int8 copy needs onnx: pip install 'shithead-env[export,runtime]'" in capsys.readouterr().err
    assert not (tmp_path / "never").exists()
