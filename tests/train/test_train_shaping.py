"""Potential-based reward shaping by the full-state value network: the returns shift by the deal's value only."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from agents.value_net import ValueNet
from train.config import ConfigError, load_config
from train.envs import ValueShaping, _env_fn

VALUE = "value_dead_last_4p"
TINY = ["n_envs=2", "vec_env=dummy", "workers=1", "n_steps=64", "batch_size=64", "progress_bar=false",
        "final_eval_games=0"]


def _episode(env: ValueShaping, seed: int) -> tuple[list[float], list[float], dict]:
    """One episode by the first legal action: the shaped rewards, the potentials seen, the last info."""
    env.reset(seed=seed)
    potentials, shaped = [env.potential], []
    while True:
        action = int(np.flatnonzero(env.unwrapped.action_masks())[0])
        _, reward, terminated, truncated, info = env.step(action)
        shaped.append(reward)
        potentials.append(env.potential)
        if terminated or truncated:
            return shaped, potentials, info


def _shaped_env(tmp_path: Path, *extra: str) -> ValueShaping:
    config = load_config("quick", [*TINY, f"runs_dir={tmp_path}", f"shaping_value={VALUE}", *extra])
    env = _env_fn(config, 0, None)()
    assert isinstance(env, ValueShaping) and env.gamma == config.gamma
    return env


def test_each_step_pays_the_reward_plus_the_change_in_the_learners_value(tmp_path: Path) -> None:
    env = _shaped_env(tmp_path, "gamma=0.9")
    net = ValueNet(VALUE)
    for seed in range(3):
        env.reset(seed=seed)
        base = env.unwrapped
        assert env.potential == pytest.approx(net.scores([base.game])[0][base.learner])
        shaped, potentials, info = _episode(env, seed)
        game_return = info["episode"]["r"]  # Monitor, inside the shaping, keeps the game's own return
        assert potentials[-1] == 0.0 and game_return != 0.0
        paid = [r - 0.9 * after + before for r, before, after in zip(shaped, potentials, potentials[1:], strict=False)]
        assert sum(paid) == pytest.approx(game_return, abs=1e-5)  # every step but the last paid nothing
        assert np.allclose(paid[:-1], 0.0, atol=1e-5)


def test_undiscounted_shaped_returns_are_the_games_less_the_value_at_the_deal(tmp_path: Path) -> None:
    env = _shaped_env(tmp_path, "gamma=1.0")
    for seed in range(3):
        shaped, potentials, info = _episode(env, seed)
        assert sum(shaped) == pytest.approx(info["episode"]["r"] - potentials[0], abs=1e-4)


def test_a_truncated_episode_keeps_the_value_where_it_was_cut(tmp_path: Path) -> None:
    env = _shaped_env(tmp_path, "gamma=1.0", "max_decisions=20")
    shaped, potentials, info = _episode(env, 0)
    assert info.get("episode_cap") and info["episode"]["r"] == 0.0
    assert potentials[-1] != 0.0  # the critic bootstraps the rest; the potential is not a loss
    assert sum(shaped) == pytest.approx(potentials[-1] - potentials[0], abs=1e-4)


def test_a_shaping_network_must_score_every_table_of_the_run(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="shaping_value: 'value_pub_4p' scores pub 4, not dead_last with 4"):
        load_config("quick", [f"runs_dir={tmp_path}", "shaping_value=value_pub_4p"])
    with pytest.raises(ConfigError, match="shaping_value: nowhere: not a value network directory"):
        load_config("quick", [f"runs_dir={tmp_path}", "shaping_value=nowhere"])
    with pytest.raises(ConfigError, match="shaping_value: only the sb3 backend"):
        load_config("rllib_quick", [f"runs_dir={tmp_path}", f"shaping_value={VALUE}"])
