"""PettingZoo Parallel API view of the game, turn-based: ``shithead_v0.parallel_env(...)``.

For libraries built on the Parallel API (AgileRL's IPPO, SuperSuit's
observation wrappers, MARL trainers that step every agent at once). Every
``step`` is one engine decision, as in the AEC env:

- **Observations** are flat ``Box`` vectors (the encoding; no ``Dict``), so
  observation wrappers apply unchanged.
- **``infos[agent]``** holds ``action_mask`` and ``acting``: the acting agent's
  mask is its legal actions; every other live agent's is ``pass`` alone
  (``NO_DECISION_MASK``), never all zero, and its action is ignored.
- **``step(actions)``** needs the acting agent's action (the others' may be
  given or left out). An illegal action ends the game: -1 for the offender,
  0 for the others, every live agent terminated (PettingZoo classic's
  ``TerminateIllegalWrapper``, as ``shithead_v0.env()``).
- **Rewards** are paid on the step a place is decided; a seat that becomes
  safe is terminated then and leaves ``agents``; the rest terminate (or
  truncate, at the decision cap) when the game ends. Over a game each seat's
  rewards sum to its ``final_scores`` value.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv

from shithead_env.actions import NUM_ACTIONS, Action
from shithead_env.encoding import ENCODING_VERSION, action_mask, get_encoding
from shithead_env.envs.common import (
    RENDER_MODES,
    RulesSpec,
    check_render_mode,
    decided_rewards,
    render_table,
    table_rules,
)
from shithead_env.envs.single_agent import ILLEGAL_ACTION_REWARD, NO_DECISION_MASK
from shithead_env.game import Game
from shithead_env.knowledge import Knowledge


def parallel_env(**kwargs: Any) -> ParallelShitheadEnv:
    """The Parallel API environment (arguments as ``shithead_v0.env``)."""
    return ParallelShitheadEnv(**kwargs)


class ParallelShitheadEnv(ParallelEnv[str, np.ndarray, int]):
    """Turn-based Shithead for ``num_players`` agents ``player_0``..; see the module doc."""

    metadata = {"name": "shithead_v0", "render_modes": RENDER_MODES}

    def __init__(
        self,
        rules: RulesSpec = "dead_last",
        num_players: int = 4,
        render_mode: str | None = None,
        max_decisions: int | None = None,
        reward: str = "placement",
        encoding: int = ENCODING_VERSION,
    ) -> None:
        check_render_mode(render_mode)
        self.encoding = get_encoding(encoding)
        self._encode = self.encoding.encoder
        self.rules = table_rules(rules, num_players, reward)
        self.num_players = num_players
        self.render_mode = render_mode
        self.max_decisions = max_decisions
        self.reward_scheme = reward
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agents: list[str] = []
        box = spaces.Box(self.encoding.low, self.encoding.high, (self.encoding.size,), np.float32)
        self.observation_spaces = {agent: box for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self.game: Game | None = None
        self._deals: np.random.Generator | None = None  # seeded by reset(seed=...)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def acting(self) -> str | None:
        """The agent whose action the next ``step`` takes (None once the game is over)."""
        game = self.game
        return None if game is None or game.is_over else self.possible_agents[game.current]

    def reset(self, seed: int | None = None, options: dict | None = None) -> tuple[dict[str, np.ndarray], dict]:
        """Deal with ``Game.new``: the same seed deals the same game, and ``reset()`` without one deals the next game
        of the generator the last seed started (as Gymnasium and PettingZoo's classic envs do), so a library that
        seeds once and then resets on its own replays the same games."""
        if seed is not None or self._deals is None:
            self._deals = np.random.default_rng(seed)
        self.game = Game.new(self.rules, self.num_players, seed=self._deals, max_decisions=self.max_decisions)
        self._paid = 0
        self.agents = self.possible_agents[:]
        return self._observations(self.agents), self._infos(self.agents, self.acting)

    def step(self, actions: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Play the acting agent's action (module doc); every live agent's observation, reward, ends, info."""
        if self.game is None:
            raise RuntimeError("step() before the first reset(): call env.reset() to deal a game")
        if not self.agents:
            raise RuntimeError("the game is over; call reset()")
        game, agent, live = self.game, self.acting, self.agents
        if not isinstance(actions, Mapping) or agent not in actions:
            raise ValueError(f"step() needs a dict with the action of the acting agent {agent!r}, got {actions!r}")
        action = actions[agent]
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) or not (
            0 <= action < NUM_ACTIONS
        ):
            raise ValueError(f"{agent}'s action must be an int in 0..{NUM_ACTIONS - 1}, got {action!r}")
        rewards = dict.fromkeys(live, 0.0)
        terminations = dict.fromkeys(live, False)
        truncations = dict.fromkeys(live, False)
        chosen = Action.from_index(int(action))
        if game.is_legal(chosen):
            game.step(chosen)
            for seat, value in decided_rewards(game, self.reward_scheme, self._paid):
                rewards[self.possible_agents[seat]] = value
            self._paid = len(game.finish_order)
            acting = self.acting
            ended = truncations if game.truncated else terminations
            for name in live:  # a safe seat leaves once it has nothing left to do (a nomination may follow)
                ended[name] = game.is_over or (not game.is_active(self.possible_agents.index(name)) and name != acting)
        else:
            acting = None
            rewards[agent] = ILLEGAL_ACTION_REWARD
            terminations = dict.fromkeys(live, True)
        observations, infos = self._observations(live), self._infos(live, acting)
        self.agents = [a for a in live if not (terminations[a] or truncations[a])]
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _observations(self, agents: list[str]) -> dict[str, np.ndarray]:
        game, seat_of = self.game, self.possible_agents.index
        return {agent: self._encode(Knowledge.from_game(game, seat_of(agent))) for agent in agents}

    def _infos(self, agents: list[str], acting: str | None) -> dict[str, dict[str, Any]]:
        seat_of = self.possible_agents.index
        return {
            agent: {
                "action_mask": action_mask(self.game, seat_of(agent)) if agent == acting else NO_DECISION_MASK.copy(),
                "acting": agent == acting,
            }
            for agent in agents
        }

    def render(self) -> str | None:
        """The text table from the acting seat (everything face up once the game is over)."""
        return render_table(self.game, self.game.current, self.render_mode)

    def close(self) -> None:
        """Nothing to release: rendering is text only."""
