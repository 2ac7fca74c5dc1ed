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
