"""CleanRL-style masked PPO on ``gymnasium.make_vec`` of the single-agent view, default (next-step) autoreset.

Pins: the main venv (scripts/venv.sh: torch 2.13.0, gymnasium); run by scripts/examples.sh.
Under ``AutoresetMode.NEXT_STEP`` the step after an episode ends only resets that
env: its action is ignored and its row is no transition, so it is left out of the
loss (``valid``). The mask is never all zero (docs/environments.md), so the
masked distribution is defined on every row, that one included.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import gymnasium
import numpy as np
import torch
from torch import nn

import shithead_env  # noqa: F401  (registers shithead_env/Shithead-v0)


@dataclass
class Config:
    num_envs: int = 4  # tables stepped by one SyncVectorEnv
    num_steps: int = 64  # steps per env between updates
    updates: int = 3  # num_envs * num_steps * updates learner steps in all
    epochs: int = 2  # passes over each rollout
    minibatches: int = 4
    lr: float = 3e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    clip: float = 0.2
    entropy: float = 0.01
    seed: int = 0


class Agent(nn.Module):
    """Actor and critic on the observation; the mask is applied to the logits, outside the network."""

    def __init__(self, size: int, actions: int) -> None:
        super().__init__()
        self.actor = nn.Sequential(nn.Linear(size, 128), nn.Tanh(), nn.Linear(128, actions))
        self.critic = nn.Sequential(nn.Linear(size, 128), nn.Tanh(), nn.Linear(128, 1))

    def dist(self, obs: torch.Tensor, mask: torch.Tensor) -> torch.distributions.Categorical:
        logits = self.actor(obs).masked_fill(~mask, float("-inf"))  # a row with no legal action would raise here
        return torch.distributions.Categorical(logits=logits)

    def value(self, obs: torch.Tensor) -> torch.Tensor:
        return self.critic(obs).squeeze(-1)


def train(cfg: Config) -> float:
    """Train; returns the mean return of the episodes finished during the last update."""
    torch.set_num_threads(1)  # these networks are small: a second thread only waits, and slows a busy machine
    torch.manual_seed(cfg.seed)
    envs = gymnasium.make_vec("shithead_env/Shithead-v0", num_envs=cfg.num_envs, vectorization_mode="sync",
                              rules="dead_last", num_players=3, opponents="random")
    size, actions = envs.single_observation_space.shape[0], int(envs.single_action_space.n)
    agent = Agent(size, actions)
    optimizer = torch.optim.Adam(agent.parameters(), lr=cfg.lr)
    shape = (cfg.num_steps, cfg.num_envs)
    obs_buf, mask_buf = torch.zeros((*shape, size)), torch.zeros((*shape, actions), dtype=torch.bool)
    act_buf, logp_buf, rew_buf, val_buf = (torch.zeros(shape) for _ in range(4))
    done_buf, valid_buf = torch.zeros(shape), torch.zeros(shape, dtype=torch.bool)
    obs, info = envs.reset(seed=cfg.seed)
    obs, mask = torch.as_tensor(obs), torch.as_tensor(info["action_mask"], dtype=torch.bool)
    resetting = np.zeros(cfg.num_envs, dtype=bool)  # this step only resets the env (NEXT_STEP autoreset)
    returns: list[float] = []
    for update in range(cfg.updates):
        returns.clear()
        for t in range(cfg.num_steps):
            with torch.no_grad():
                dist = agent.dist(obs, mask)
                action = dist.sample()
                obs_buf[t], mask_buf[t], act_buf[t] = obs, mask, action
                logp_buf[t], val_buf[t] = dist.log_prob(action), agent.value(obs)
            valid_buf[t] = torch.as_tensor(~resetting)
            next_obs, reward, terminated, truncated, info = envs.step(action.numpy())
            ended = np.logical_or(terminated, truncated)
            rew_buf[t], done_buf[t] = torch.as_tensor(reward), torch.as_tensor(ended, dtype=torch.float32)
            returns += [float(r) for r in reward[ended]]
            resetting = ended
            obs, mask = torch.as_tensor(next_obs), torch.as_tensor(info["action_mask"], dtype=torch.bool)
        with torch.no_grad():  # GAE: an episode's last row does not bootstrap; reset rows are dropped below
            next_value = agent.value(obs)
            advantages = torch.zeros(shape)
            gae = torch.zeros(cfg.num_envs)
            for t in reversed(range(cfg.num_steps)):
                following = next_value if t == cfg.num_steps - 1 else val_buf[t + 1]
                live = 1.0 - done_buf[t]
                delta = rew_buf[t] + cfg.gamma * following * live - val_buf[t]
                gae = delta + cfg.gamma * cfg.gae_lambda * live * gae
                advantages[t] = gae
            targets = advantages + val_buf
        valid = valid_buf.flatten()
        flat = [x.flatten(0, 1)[valid] for x in (obs_buf, mask_buf, act_buf, logp_buf, advantages, targets)]
        b_obs, b_mask, b_act, b_logp, b_adv, b_target = flat
        batch = len(b_obs)
        for _ in range(cfg.epochs):
            order = torch.randperm(batch)
            for part in order.chunk(cfg.minibatches):
                dist = agent.dist(b_obs[part], b_mask[part])
                ratio = (dist.log_prob(b_act[part]) - b_logp[part]).exp()
                adv = (b_adv[part] - b_adv[part].mean()) / (b_adv[part].std() + 1e-8)
                policy_loss = -torch.min(ratio * adv, ratio.clamp(1 - cfg.clip, 1 + cfg.clip) * adv).mean()
                value_loss = 0.5 * (agent.value(b_obs[part]) - b_target[part]).pow(2).mean()
                loss = policy_loss + 0.5 * value_loss - cfg.entropy * dist.entropy().mean()
                optimizer.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
                optimizer.step()
        mean = float(np.mean(returns)) if returns else float("nan")
        print(f"update {update + 1}/{cfg.updates}: {batch} transitions, {len(returns)} episodes, return {mean:+.3f}")
    envs.close()
    return mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--updates", type=int, default=Config.updates)
    start = time.perf_counter()
    train(Config(updates=parser.parse_args().updates))
    print(f"cleanrl_ppo: done in {time.perf_counter() - start:.1f} s")


if __name__ == "__main__":
    main()
