"""TorchRL 0.14.1: one masked policy for every seat (self-play REINFORCE) through ``PettingZooWrapper(use_mask=True)``.

Pins: .venvs/torchrl (scripts/venv.sh: torchrl 0.14.1, tensordict 0.14, torch 2.13.0); run by scripts/examples.sh.
TorchRL's pieces do the work: the wrapper, ``ProbabilisticActor`` with
``MaskedCategorical`` on each agent's ``action_mask``, ``env.rollout`` for a
whole game. ``reward_timing="own_turn"`` puts each seat's reward on a row where
that seat's ``mask`` is True (TorchRL reads ``env.rewards`` right after each
step; docs/environments.md), so a seat's rows and its return are read off the
same rows. TorchRL's wrapper costs 5-12 ms a step here, hence games capped at
400 decisions (a capped game splits the places left, so it still pays).
"""

from __future__ import annotations

import argparse
import time

import torch
from tensordict.nn import TensorDictModule
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import MarlGroupMapType
from torchrl.modules import MLP, MaskedCategorical, ProbabilisticActor

from shithead_env import shithead_v0

GROUP = "agents"  # MarlGroupMapType.ALL_IN_ONE_GROUP: every seat in one group, one network


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args()
    start = time.perf_counter()
    torch.set_num_threads(1)  # these networks are small: a second thread only waits, and slows a busy machine
    torch.manual_seed(0)
    table = shithead_v0.env(rules="harrogate", num_players=3, max_decisions=400, reward_timing="own_turn")
    env = PettingZooWrapper(env=table, use_mask=True, seed=0, group_map=MarlGroupMapType.ALL_IN_ONE_GROUP)
    size = env.observation_spec[GROUP, "observation", "observation"].shape[-1]
    actions = env.full_action_spec[GROUP, "action"].space.n
    net = MLP(in_features=size, out_features=actions, num_cells=[128])
    logits = TensorDictModule(net, in_keys=[(GROUP, "observation", "observation")], out_keys=[(GROUP, "logits")])
    actor = ProbabilisticActor(
        logits, in_keys={"logits": (GROUP, "logits"), "mask": (GROUP, "action_mask")}, out_keys=[(GROUP, "action")],
        distribution_class=MaskedCategorical,
    )
    optimizer = torch.optim.Adam(actor.parameters(), lr=1e-3)
    steps = 0
    for game in range(args.games):
        with torch.no_grad():
            first = env.reset(seed=game)  # TorchRL passes reset's keywords on: a seeded deal per game
            rollout = env.rollout(max_steps=1_000, policy=actor, auto_reset=False, tensordict=first)
        acted = rollout[GROUP, "mask"]  # (steps, seats): the seat that took each step
        rewards = rollout["next", GROUP, "reward"].squeeze(-1)
        returns = rewards.flip(0).cumsum(0).flip(0)  # each seat's return from each step on (no discount)
        log_prob = actor.get_dist(rollout).log_prob(rollout[GROUP, "action"])
        loss = -(log_prob * returns)[acted].mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        steps += len(rollout)
        stray = int(((rewards != 0) & ~acted).sum())  # rewards on a row the seat did not act on: 0 with own_turn
        print(f"game {game + 1}: {len(rollout)} steps, seat returns {rewards.sum(0).tolist()}, stray rewards {stray}")
    print(f"torchrl_reinforce: {steps} steps, done in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
