"""AgileRL 2.58.0: masked PPO on the single-agent view, with AgileRL's own on-policy trainer.

Pins: .venvs/agilerl (scripts/venv.sh: agilerl 2.58.0 with peft and transformers, which it imports
unconditionally; pettingzoo < 1.27, tensordict 0.13; torch 2.13.0); run by scripts/examples.sh.
AgileRL's rollout reads the mask from ``info["action_mask"]`` and stores every
step as a transition, so the vector env autoresets on the same step (the step
that ends an episode returns the next episode's first observation and mask).
IPPO on ``shithead_v0.parallel_env`` is not shown: 2.58.0's IPPO cannot read
numpy masks and learns without them (docs/environments.md, AgileRL).
"""

from __future__ import annotations

import argparse
import time

import gymnasium
import numpy as np
import torch
from agilerl.algorithms import PPO
from agilerl.training.train_on_policy import train_on_policy
from gymnasium.vector import AutoresetMode

import shithead_env  # noqa: F401  (registers shithead_env/Shithead-v0)

NUM_ENVS = 2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=384, help="learner steps to train for")
    args = parser.parse_args()
    start = time.perf_counter()
    torch.set_num_threads(1)  # these networks are small: a second thread only waits, and slows a busy machine
    torch.manual_seed(0)
    np.random.seed(0)
    env = gymnasium.make_vec("shithead_env/Shithead-v0", num_envs=NUM_ENVS, vectorization_mode="sync",
                             vector_kwargs={"autoreset_mode": AutoresetMode.SAME_STEP},
                             rules="dead_last", num_players=3, opponents="random")
    agent = PPO(
        observation_space=env.single_observation_space,
        action_space=env.single_action_space,
        net_config={"encoder_config": {"hidden_size": [128]}},
        num_envs=NUM_ENVS,
        batch_size=64,
        learn_step=128,
        update_epochs=2,
        lr=3e-4,
    )
    population, fitnesses = train_on_policy(
        env, env_name="Shithead-v0", algo="PPO", pop=[agent], max_steps=args.steps, evo_steps=args.steps // 2,
        eval_steps=64, eval_loop=1, verbose=False,
    )
    print(f"PPO trained {population[0].steps} steps; evaluation fitness {np.round(fitnesses, 3).tolist()}")
    print(f"agilerl_ppo: done in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
