"""ShitheadVectorEnv is SyncVectorEnv of single-agent envs, batched: the same results bit for bit, same-step reset."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from gymnasium.vector import AutoresetMode, SyncVectorEnv

from shithead_env import NUM_ACTIONS
from shithead_env.envs.single_agent import ShitheadEnv
from shithead_env.envs.vector import ShitheadVectorEnv

ILLEGAL_EVERY = 37  # now and then one row plays an action its mask forbids


def assert_same(got: Any, expected: Any, where: str = "") -> None:
    """Equal in structure, dtype, shape and every byte (infos: the same keys, ``_key`` masks included)."""
    if isinstance(expected, tuple):  # what reset and step return
        assert isinstance(got, tuple) and len(got) == len(expected), where
        for index, (mine, theirs) in enumerate(zip(got, expected, strict=True)):
            assert_same(mine, theirs, f"{where}[{index}]")
    elif isinstance(expected, dict):
        assert got.keys() == expected.keys(), where
        for key in expected:
            assert_same(got[key], expected[key], f"{where}.{key}")
    elif isinstance(expected, np.ndarray) and expected.dtype == object:  # final_obs: one array or None per row
        assert got.dtype == object and got.shape == expected.shape, where
        for mine, theirs in zip(got, expected, strict=True):
            assert (mine is None) == (theirs is None), where
            if theirs is not None:
                assert_same(mine, theirs, where)
    else:
        got, expected = np.asarray(got), np.asarray(expected)
        assert (got.dtype, got.shape) == (expected.dtype, expected.shape), where
        assert got.tobytes() == expected.tobytes(), where


def masked_actions(masks: np.ndarray, rng: np.random.Generator, step: int) -> np.ndarray:
    actions = np.array([rng.choice(np.flatnonzero(row)) for row in masks])
    if step % ILLEGAL_EVERY == 3:
        row = step % len(masks)
        actions[row] = int(np.flatnonzero(masks[row] == 0)[0])
    return actions


@pytest.mark.parametrize(
    ("options", "steps"),
    [
        ({"opponents": "random"}, 100),
        ({"rules": "pub", "num_players": 3, "opponents": "heuristic"}, 100),
        ({"rules": "power_deck", "num_players": 5, "max_decisions": 60, "learner_seat": 2}, 100),  # truncations
    ],
)
def test_same_as_sync_vector_env_of_single_agent_envs(options: dict[str, Any], steps: int) -> None:
    num_envs = 6
    sync = SyncVectorEnv(
        [lambda: ShitheadEnv(**options) for _ in range(num_envs)], autoreset_mode=AutoresetMode.SAME_STEP
    )
    batched = ShitheadVectorEnv(num_envs, **options)
    expected, got = sync.reset(seed=7), batched.reset(seed=7)
    assert_same(got, expected, "reset")
    rng = np.random.default_rng(0)
    ends = illegal = 0
    for step in range(steps):
        actions = masked_actions(expected[-1]["action_mask"], rng, step)
        expected, got = sync.step(actions), batched.step(actions)
        assert_same(got, expected, f"step {step}")
        assert np.array_equal(batched.action_masks(), expected[-1]["action_mask"].astype(bool))
        ends += int(np.sum(expected[2] | expected[3]))
        illegal += "illegal_action" in expected[-1].get("final_info", {})
    assert ends > num_envs and illegal  # episodes ended, by illegal actions too, and were dealt again


def test_gymnasium_vector_conventions() -> None:
    env = ShitheadVectorEnv(3, rules="pub", num_players=3)
    assert env.metadata["autoreset_mode"] == AutoresetMode.SAME_STEP
    assert env.single_observation_space == ShitheadEnv(rules="pub", num_players=3).observation_space
    assert env.observation_space.shape == (3, env.single_observation_space.shape[0])
    assert env.action_space.shape == (3,) and env.single_action_space.n == NUM_ACTIONS
    observations, infos = env.reset(seed=[1, 2, None])
    assert observations in env.observation_space
    assert infos["action_mask"].shape == (3, NUM_ACTIONS) and infos["action_mask"].dtype == np.int8
    assert infos["action_mask"].any(axis=1).all()
    assert env.reset(seed=1)[0].tobytes() == env.reset(seed=1)[0].tobytes()  # deterministic per seed


def test_errors_say_what_to_do() -> None:
    env = ShitheadVectorEnv(2)
    with pytest.raises(RuntimeError, match="call reset"):
        env.step([0, 0])
    with pytest.raises(RuntimeError, match="call reset"):
        env.action_masks()
    env.reset(seed=0)
    with pytest.raises(ValueError, match=r"shape \(2,\)"):
        env.step([0, 0, 0])
    with pytest.raises(ValueError, match="one seed per table"):
        env.reset(seed=[1])
    with pytest.raises(ValueError, match="positive int"):
        ShitheadVectorEnv(0)
