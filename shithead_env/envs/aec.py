"""PettingZoo AEC environment: every engine decision is one step of the agent asked.

Swap-phase picks, turns, interrupt windows (``pass`` included) and
nominations are all steps; ``agent_selection`` is always the engine's
``current_player``. A seat that becomes safe gets its reward at once and is
never selected again; every agent terminates (or truncates, at the decision
cap) when the game ends. See docs/environments.md.
"""

from __future__ import annotations

import gymnasium
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from shithead_env.actions import NUM_ACTIONS, Action
from shithead_env.encoding import OBSERVATION_HIGH, OBSERVATION_LOW, OBSERVATION_SIZE, action_mask, encode_observation
from shithead_env.envs.common import RulesSpec, decided_rewards, table_rules
from shithead_env.game import Game
from shithead_env.render import render_game

ObsDict = dict[str, np.ndarray]


def env(**kwargs: object) -> AECEnv[str, ObsDict, int]:
    """The wrapped environment: an illegal action ends the game with -1 for the offender (PettingZoo classic)."""
    wrapped: AECEnv[str, ObsDict, int] = raw_env(**kwargs)  # type: ignore[arg-type]
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv[str, ObsDict, int]):
    """Shithead for ``num_players`` agents ``player_0``..; an illegal action raises ``IllegalActionError``."""

    metadata = {"name": "shithead_v0", "render_modes": ["human", "ansi"], "is_parallelizable": False}

    def __init__(
        self,
        rules: RulesSpec = "dead_last",
        num_players: int = 4,
        render_mode: str | None = None,
        max_decisions: int | None = None,
        reward: str = "placement",
    ) -> None:
        """``reward``: ``placement`` or ``loser_only`` (see ``shithead_env.scoring``); ``max_decisions``
        overrides the rules' truncation cap."""
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, got {render_mode!r}")
        self.rules = table_rules(rules, num_players, reward)
        self.num_players = num_players
        self.render_mode = render_mode
        self.max_decisions = max_decisions
        self.reward_scheme = reward
        self.possible_agents = [f"player_{i}" for i in range(num_players)]
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(OBSERVATION_LOW, OBSERVATION_HIGH, (OBSERVATION_SIZE,), np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self.game: Game | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal with ``Game.new(rules, num_players, seed=seed)``: the same seed deals the same game."""
        self.game = Game.new(self.rules, self.num_players, seed=seed, max_decisions=self.max_decisions)
        self._paid = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[self.game.current]

    def observe(self, agent: str) -> ObsDict:
        seat = self.agent_name_mapping[agent]
        return {"observation": encode_observation(self.game, seat), "action_mask": action_mask(self.game, seat)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        game.step(Action.from_index(int(action)))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        for seat, value in decided_rewards(game, self.reward_scheme, self._paid):
            self.rewards[self.possible_agents[seat]] = value
        self._paid = len(game.finish_order)
        if game.is_over:
            ended = self.truncations if game.truncated else self.terminations
            for name in self.agents:
                ended[name] = True
        else:
            self.agent_selection = self.possible_agents[game.current]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """The text table from the seat asked to act (everything face up once the game is over)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='human' or 'ansi'")
            return None
        text = render_game(self.game, self.game.current)
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        """Nothing to release: rendering is text only."""
