"""Tianshou 2.0.1: a masked DQN for player_0 against random seats, through Tianshou's own ``PettingZooEnv``.

Pins: .venvs/tianshou (scripts/venv.sh: tianshou 2.0.1, pandas < 3, torch 2.13.0); run by scripts/examples.sh.
``reward_timing="own_turn"`` is what makes Tianshou's multi-agent split see each
seat's reward (docs/environments.md): it credits ``env.rewards`` after a step to
the agent that took it. The pattern is Tianshou's ``test/pettingzoo/tic_tac_toe.py``.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("NUMBA_DISABLE_JIT", "1")  # Tianshou's numba kernels take ~40 s to compile; too long here

import numpy as np
import torch
from tianshou.algorithm import DQN, MARLRandomDiscreteMaskedOffPolicyAlgorithm, MultiAgentOffPolicyAlgorithm
from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
from tianshou.algorithm.optim import AdamOptimizerFactory
from tianshou.data import Collector, CollectStats, VectorReplayBuffer
from tianshou.env import DummyVectorEnv
from tianshou.env.pettingzoo_env import PettingZooEnv
from tianshou.trainer import OffPolicyTrainerParams
from tianshou.utils.net.common import Net

from shithead_env import shithead_v0


def make_env() -> PettingZooEnv:
    return PettingZooEnv(shithead_v0.env(rules="harrogate", num_players=3, reward_timing="own_turn"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=400, help="environment steps to train for")
    args = parser.parse_args()
    start = time.perf_counter()
    torch.set_num_threads(1)  # these networks are small: a second thread only waits, and slows a busy machine
    torch.manual_seed(0)
    np.random.seed(0)
    env = make_env()
    size = env.observation_space["observation"].shape[0]
    actions = int(env.action_space.n)  # a Python int: Tianshou's spaces helpers choke on np.int64
    net = Net(state_shape=size, action_shape=actions, hidden_sizes=[128, 128])
    policy = DiscreteQLearningPolicy(model=net, action_space=env.action_space, eps_training=0.2, eps_inference=0.0)
    learner = DQN(policy=policy, optim=AdamOptimizerFactory(lr=1e-3), gamma=0.99, target_update_freq=100)
    opponents = [MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space) for _ in range(2)]
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, *opponents], env=env)
    train_envs, test_envs = DummyVectorEnv([make_env] * 2), DummyVectorEnv([make_env])
    train_envs.seed(0)
    test_envs.seed(1)
    train_collector = Collector[CollectStats](algorithm, train_envs, VectorReplayBuffer(5_000, 2),
                                              exploration_noise=True)
    test_collector = Collector[CollectStats](algorithm, test_envs, exploration_noise=True)
    train_collector.reset()
    train_collector.collect(n_step=64)
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=train_collector,
            test_collector=test_collector,
            max_epochs=1,
            epoch_num_steps=args.steps,
            collection_step_num_env_steps=20,
            test_step_num_episodes=1,
            batch_size=32,
            update_step_num_gradient_steps_per_sample=0.1,  # as tic_tac_toe.py
            multi_agent_return_reduction=lambda returns: returns[:, 0],  # player_0's return
            show_progress=False,
            verbose=False,
        )
    )
    print(f"trained {result.update_step} gradient steps on {result.train_step} environment steps; "
          f"player_0's test return {result.best_reward:+.2f}")
    print(f"tianshou_dqn: done in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
