"""Shithead's PettingZoo AEC env as an RLlib ``MultiAgentEnv``: every seat of the shared policy is an agent.

Why a thin adapter instead of ``ray.rllib.env.wrappers.pettingzoo_env.PettingZooEnv``:
the wrapper hands every seat to RLlib, so a seat played by a baseline bot (which
reads the engine's game, not the observation vector an RL module sees) cannot be
expressed; and it reports a seat's reward only when that seat is asked to act,
so the reward of a seat that got safe reaches RLlib only through the wrapper's
clean-up loop at the end. This adapter steps the same AEC env
(``shithead_env.envs.aec.raw_env``) through its public API, but

- per game draws which seats the shared policy plays: one seat always, every
  other seat with probability ``1 - opponent_share``; the rest are opponents
  from the ``LeagueSampler`` (baseline bots by ``opponents`` weights, or frozen
  snapshots of the policy at ``snapshot_share`` once the pool has one), played
  inside ``step`` so RLlib only ever sees policy decisions;
- returns the observation (with its action mask) of the one policy seat to act
  next, and that seat's reward accumulated since it last acted;
- at the end of the game returns every policy seat that has acted, with its
  final observation, its remaining reward and ``terminated`` (``truncated`` at
  the decision cap), plus ``__all__``.

The rewards of a policy seat sum to its ``final_scores`` (zero-sum placement).
Deals and draws come from ``np.random.default_rng([reset seed, worker index])``
at the first (seeded) reset, so env runners never replay each other's deals.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from ray.rllib.env.env_context import EnvContext
from ray.rllib.env.multi_agent_env import MultiAgentEnv

from shithead_env import ENCODING_VERSION, Action, Game
from shithead_env.envs.aec import raw_env
from train.rllib.league import LeagueSampler

MultiAgentDict = dict[str, Any]


class ShitheadSelfPlayEnv(MultiAgentEnv):
    """The AEC env with the shared policy in some seats and league opponents in the others."""

    def __init__(self, config: EnvContext | Mapping[str, Any] | None = None) -> None:
        super().__init__()
        self.worker_index = int(getattr(config, "worker_index", 0))  # an EnvContext knows its env runner
        config = dict(config or {})
        self.aec = raw_env(rules=config.get("rules", "dead_last"), num_players=int(config.get("num_players", 4)),
                           reward=config.get("reward", "placement"), max_decisions=config.get("max_decisions") or None,
                           encoding=int(config.get("encoding", ENCODING_VERSION)))
        self.opponent_share = float(config.get("opponent_share", 0.0))
        self.sampler = LeagueSampler(
            config.get("opponents", {"random": 1.0}),
            float(config.get("snapshot_share", 0.0)),
            bool(config.get("snapshot_deterministic", False)),
            seed=[0, self.worker_index, 7919],
        )
        self.possible_agents = list(self.aec.possible_agents)
        self.agents: list[str] = []
        self.observation_spaces = {a: self.aec.observation_space(a) for a in self.possible_agents}
        self.action_spaces = {a: self.aec.action_space(a) for a in self.possible_agents}
        self.observation_space = gymnasium.spaces.Dict(self.observation_spaces)
        self.action_space = gymnasium.spaces.Dict(self.action_spaces)
        self.rng = np.random.default_rng([0, self.worker_index])
        self.opponents: dict[str, tuple[str, Any]] = {}  # agent -> (name, bot) for this game
        self.pending: dict[str, float] = {}
        self.acted: set[str] = set()

    @property
    def game(self) -> Game:
        return self.aec.game

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[MultiAgentDict, MultiAgentDict]:
        if seed is not None:
            self.rng = np.random.default_rng([seed, self.worker_index])
            self.sampler.rng = np.random.default_rng([seed, self.worker_index, 7919])
        self.aec.reset(seed=int(self.rng.integers(2**63)))
        self._draw_seats()
        self.pending = dict.fromkeys(self.agents, 0.0)
        self.acted = set()
        self._play_opponents()
        return self._next_observation(), {}

    def step(
        self, action_dict: MultiAgentDict
    ) -> tuple[MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict, MultiAgentDict]:
        agent = self.aec.agent_selection
        if set(action_dict) != {agent}:
            raise ValueError(f"expected an action for {agent!r} alone, got {sorted(action_dict)}")
        self.acted.add(agent)
        self._aec_step(int(action_dict[agent]))
        self._play_opponents()
        if not self.game.is_over:
            obs = self._next_observation()
            nxt = next(iter(obs))
            return obs, {nxt: self._take_reward(nxt)}, {"__all__": False}, {"__all__": False}, {}
        truncated = bool(self.game.truncated)
        done = sorted(self.acted)
        obs = {a: self.aec.observe(a) for a in done}
        rewards = {a: self._take_reward(a) for a in done}
        terminateds = {a: not truncated for a in done} | {"__all__": not truncated}
        truncateds = {a: truncated for a in done} | {"__all__": truncated}
        self.agents = []
        return obs, rewards, terminateds, truncateds, {}

    # ------------------------------------------------------------------ internals
    def _draw_seats(self) -> None:
        """The policy's seats for this game (one at least) and an opponent for every other seat."""
        seats = self.possible_agents
        anchor = int(self.rng.integers(len(seats)))
        others = [a for i, a in enumerate(seats) if i != anchor and self.rng.random() < self.opponent_share]
        self.opponents = dict(zip(others, self.sampler.draw(len(others)), strict=True))
        self.agents = [a for a in seats if a not in self.opponents]

    def _aec_step(self, action: int) -> None:
        self.aec.step(action)
        for agent in self.pending:
            self.pending[agent] += self.aec.rewards[agent]

    def _play_opponents(self) -> None:
        """Let the opponents act until a policy seat is to act or the game is over."""
        game, seat_of = self.game, self.aec.agent_name_mapping
        policy_seats = {seat_of[agent] for agent in self.agents}

        def move(seat: int) -> Action:
            _, bot = self.opponents[self.aec.possible_agents[seat]]
            return bot.act_game(game, seat, self.rng)

        # The AEC asks the policy every decision, a lone pass included, so the loop does not pass for it.
        game.play_until(policy_seats, move, step=lambda action: self._aec_step(action.index), pass_for_deciders=False)

    def _next_observation(self) -> MultiAgentDict:
        agent = self.aec.agent_selection
        return {agent: self.aec.observe(agent)}

    def _take_reward(self, agent: str) -> float:
        reward, self.pending[agent] = self.pending[agent], 0.0
        return reward
