"""A real learning check: a short MaskablePPO run on 2-player dead_last beats ``random`` in the harness.

The untrained network, played greedily, loses to random (it repeats a poor
fixed preference); after ~20k learner steps the trained agent's mean score
against random has its whole 95% interval (duplicate deals) above zero.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from train.config import load_config
from train.evaluate import evaluate
from train.trainer import train


def test_short_run_beats_random_with_interval_above_zero(tmp_path: Path) -> None:
    config = load_config("quick", [
        "num_players=2", "opponents={random: 1}", "n_envs=8", "vec_env=dummy", "workers=1", "n_steps=128",
        "batch_size=256", "net_arch=[64, 64]", "learning_rate=0.001", "total_timesteps=20480",
        "eval_every=0", "final_eval_games=0", "checkpoint_every=20480", "progress_bar=false", f"runs_dir={tmp_path}",
    ])
    run = train(config)
    (result,) = evaluate(run.best, "dead_last", 2, ["random"], 200, seed=5)
    assert result.games == 200
    assert result.score.low is not None and result.score.low > 0, result.score
