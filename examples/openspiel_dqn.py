"""OpenSpiel's own PyTorch DQN, one agent per seat, on ``python_shithead`` through ``rl_environment``.

Pins: the main venv (scripts/venv.sh: open_spiel 2.0.2, torch 2.13.0); run by scripts/examples.sh.
The loop is OpenSpiel's (``examples/dqn_breakthrough_pytorch.py``): every agent
steps on its turn and once more on the final time step, which is where OpenSpiel
hands each seat its return.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
import torch
from open_spiel.python import rl_environment
from open_spiel.python.algorithms import random_agent
from open_spiel.python.pytorch import dqn

import shithead_env.envs.openspiel  # noqa: F401  (registers python_shithead)

PLAYERS = 2


def play(env: rl_environment.Environment, agents: list, evaluate: bool = False) -> list[float]:
    """One game; the returns of each seat."""
    time_step = env.reset()
    while not time_step.last():
        player = time_step.observations["current_player"]
        time_step = env.step([agents[player].step(time_step, is_evaluation=evaluate).action])
    for agent in agents:
        agent.step(time_step, is_evaluation=evaluate)
    return list(time_step.rewards)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="training games (about 80 steps each)")
    args = parser.parse_args()
    start = time.perf_counter()
    torch.set_num_threads(1)  # these networks are small: a second thread only waits, and slows a busy machine
    game = pyspiel.load_game("python_shithead", {"rules": "harrogate", "players": PLAYERS})
    env = rl_environment.Environment(game, seed=0)
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = [
        dqn.DQN(player_id=seat, state_representation_size=size, num_actions=actions, hidden_layers_sizes=[128],
                batch_size=32, min_buffer_size_to_learn=64, learn_every=8, replay_buffer_capacity=5_000,
                epsilon_decay_duration=1_000, seed=seat)
        for seat in range(PLAYERS)
    ]
    steps = 0
    for _ in range(args.games):
        play(env, agents)
        steps = sum(len(agent.replay_buffer) for agent in agents)
    print(f"trained on {args.games} games: {steps} transitions, last loss {[agent.loss for agent in agents]}")
    randoms = [random_agent.RandomAgent(player_id=seat, num_actions=actions) for seat in range(PLAYERS)]
    score = np.mean([play(env, [agents[0], randoms[1]], evaluate=True)[0] for _ in range(4)])
    print(f"seat 0's DQN against a random seat 1 over 4 games: {score:+.2f}")
    print(f"openspiel_dqn: done in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
