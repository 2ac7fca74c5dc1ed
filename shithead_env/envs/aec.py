"""PettingZoo AEC environment: every engine decision is one step of the agent asked.

Swap-phase picks, turns, interrupt windows (``pass`` included) and
nominations are all steps; ``agent_selection`` is always the engine's
``current_player``. A seat that becomes safe gets its reward at once and is
never selected again; every agent terminates (or truncates, at the decision
cap) when the game ends. See docs/environments.md.

``reward_timing="own_turn"`` pays each seat on its own last step instead, for
trainers that credit ``env.rewards`` after a step to the agent that took it
(Tianshou's ``PettingZooEnv``, TorchRL's ``PettingZooWrapper``): a seat whose
place another seat's move decided (the shithead, the seats a truncated game
splits) gets one **closing turn** after the game ends, ``pass`` its only legal
action, and its reward on that step.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

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
from shithead_env.envs.single_agent import NO_DECISION_MASK, PASS
from shithead_env.errors import IllegalActionError
from shithead_env.game import Game
from shithead_env.knowledge import Knowledge

ObsDict = dict[str, np.ndarray]
ILLEGAL_ACTION_REWARD = -1.0  # the illegal_reward PettingZoo's classic envs pass to TerminateIllegalWrapper
# When a seat is paid: on the step its place is decided (whoever moved), or on its own last step (closing turns).
REWARD_TIMINGS = ("decided", "own_turn")


def env(**kwargs: Any) -> ClassicWrapper:
    """The wrapped environment: an illegal action ends the game with -1 for the offender (PettingZoo classic)."""
    return ClassicWrapper(raw_env(**kwargs))


class raw_env(AECEnv[str, ObsDict, int]):
    """Shithead for ``num_players`` agents ``player_0``..; an illegal action raises ``IllegalActionError``."""

    metadata = {"name": "shithead_v0", "render_modes": RENDER_MODES, "is_parallelizable": False}

    def __init__(
        self,
        rules: RulesSpec = "dead_last",
        num_players: int = 4,
        render_mode: str | None = None,
        max_decisions: int | None = None,
        reward: str = "placement",
        encoding: int = ENCODING_VERSION,
        reward_timing: str = "decided",
    ) -> None:
        """``reward``: ``placement`` or ``loser_only`` (see ``shithead_env.scoring``); ``max_decisions``
        overrides the rules' truncation cap; ``encoding``: the observation encoding version
        (``shithead_env.ENCODINGS``; a model is fed the version it was trained on); ``reward_timing``:
        ``decided`` or ``own_turn`` (the module doc)."""
        super().__init__()
        if reward_timing not in REWARD_TIMINGS:
            raise ValueError(f"reward_timing must be one of {list(REWARD_TIMINGS)}, got {reward_timing!r}")
        self.reward_timing = reward_timing
        self._own_turn = reward_timing == "own_turn"
        self.encoding = get_encoding(encoding)
        self._encode = self.encoding.encoder
        check_render_mode(render_mode)
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
                    "observation": spaces.Box(self.encoding.low, self.encoding.high, (self.encoding.size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(NUM_ACTIONS) for agent in self.possible_agents}
        self.game: Game | None = None
        self._deals: np.random.Generator | None = None  # seeded by reset(seed=...)

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Deal with ``Game.new``: the same seed deals the same game, and ``reset()`` without one deals the next game
        of the generator the last seed started (as Gymnasium and PettingZoo's classic envs do), so a library that
        seeds once and then resets on its own replays the same games."""
        if seed is not None or self._deals is None:
            self._deals = np.random.default_rng(seed)
        self.game = Game.new(self.rules, self.num_players, seed=self._deals, max_decisions=self.max_decisions)
        self._paid = 0
        self._held: dict[int, float] = {}  # own_turn: decided rewards not yet paid, by seat
        self._closing: list[int] = []  # own_turn: seats owed a closing turn, in the order they get it
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[self.game.current]

    def observe(self, agent: str) -> ObsDict:
        seat = self.agent_name_mapping[agent]
        game = self.game
        closing = self._closing
        mask = NO_DECISION_MASK.copy() if closing and closing[0] == seat else action_mask(game, seat)
        return {"observation": self._encode(Knowledge.from_game(game, seat)), "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if self._closing:
            self._close_turn(agent, action)
            return
        game = self.game
        game.step(Action.from_index(int(action)))
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if game.is_over or len(game.finish_order) > self._paid or self._held:  # most steps decide no place
            decided = decided_rewards(game, self.reward_scheme, self._paid)
            self._paid = len(game.finish_order)
            if self._own_turn:
                self._hold(decided, self.agent_name_mapping[agent])
            else:
                for seat, value in decided:
                    self.rewards[self.possible_agents[seat]] = value
            self._accumulate_rewards()
        if self._closing:
            self.agent_selection = self.possible_agents[self._closing[0]]
        elif game.is_over:
            self._end_all()
        else:
            self.agent_selection = self.possible_agents[game.current]
        if self.render_mode == "human":
            self.render()

    def _hold(self, decided: list[tuple[int, float]], seat: int) -> None:
        """own_turn: pay ``seat`` if this was its last step; owe every other decided seat a closing turn."""
        held, game = self._held, self.game
        held.update(decided)
        if seat in held and (game.is_over or game.current != seat):  # not when a nomination is still owed
            self.rewards[self.possible_agents[seat]] = held.pop(seat)
        if game.is_over and held:
            n = self.num_players
            self._closing = sorted(held, key=lambda s: (s - seat) % n)  # clockwise from the last mover

    def _close_turn(self, agent: str, action: int) -> None:
        """own_turn: the closing turn of ``agent`` (``pass`` alone is legal) pays its reward."""
        if int(action) != PASS.index:
            raise IllegalActionError(f"{agent}'s closing turn allows pass ({PASS.index}) alone, got {action}")
        seat = self._closing.pop(0)
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[agent] = self._held.pop(seat)
        self._accumulate_rewards()
        if self._closing:
            self.agent_selection = self.possible_agents[self._closing[0]]
        else:
            self._end_all()
        if self.render_mode == "human":
            self.render()

    def _end_all(self) -> None:
        """The game is over: every agent terminates, or truncates at the decision cap."""
        ended = self.truncations if self.game.truncated else self.terminations
        for name in self.agents:
            ended[name] = True

    def render(self) -> str | None:
        """The text table from the seat asked to act (everything face up once the game is over)."""
        return render_table(self.game, self.game.current, self.render_mode)

    def close(self) -> None:
        """Nothing to release: rendering is text only."""


def _after_reset(name: str) -> property:
    """Read ``name`` from the wrapped env without ``__getattr__``; before reset, OrderEnforcingWrapper's error."""

    def read(self: ClassicWrapper) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    return property(read)


class ClassicWrapper(OrderEnforcingWrapper[str, ObsDict, int]):
    """PettingZoo classic's ``TerminateIllegalWrapper(-1)``, ``AssertOutOfBoundsWrapper`` and
    ``OrderEnforcingWrapper`` as one layer over ``raw_env``: the same errors, warnings and outcomes,
    without three ``__getattr__`` hops on every attribute (they cost more than the encoder).

    tests/test_env_aec.py compares it call for call with PettingZoo's own chain. The hot methods
    read ``self`` once or twice and then the raw env: a class with ``__getattr__`` gets no fast
    attribute lookups from CPython, so each ``self.x`` here costs about twice a plain one.
    """

    env: raw_env

    def __init__(self, env: raw_env) -> None:
        super().__init__(env)
        self._terminated = False  # ended by an illegal action
        self._prev_mask: np.ndarray | None = None  # mask of the selected agent's last observation

    agents = _after_reset("agents")
    agent_selection = _after_reset("agent_selection")
    rewards = _after_reset("rewards")
    terminations = _after_reset("terminations")
    truncations = _after_reset("truncations")
    infos = _after_reset("infos")

    @property
    def _cumulative_rewards(self) -> dict[str, float]:
        return self.env._cumulative_rewards

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable[str, ObsDict, int]:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._terminated = False
        self._prev_mask = None
        super().reset(seed=seed, options=options)

    def observe(self, agent: str) -> ObsDict:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        obs = self.env.observe(agent)
        if agent == self.env.agent_selection:
            self._prev_mask = obs["action_mask"]
        return obs

    def last(self, observe: bool = True) -> tuple[ObsDict | None, float, bool, bool, dict[str, Any]]:
        """``AECEnv.last`` read straight off the raw env; keeps the mask for ``step``'s illegal-action check."""
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        raw = self.env
        agent = raw.agent_selection
        observation = None
        if observe:
            observation = raw.observe(agent)
            self._prev_mask = observation["action_mask"]
        return (
            observation,
            raw._cumulative_rewards[agent],
            raw.terminations[agent],
            raw.truncations[agent],
            raw.infos[agent],
        )

    def step(self, action: int | None) -> None:
        """The three wrappers' checks in their order: reset and agents left, action in space, action legal."""
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        raw = self.env
        self._has_updated = True
        if not raw.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = raw.agent_selection
        dead = raw.terminations[agent] or raw.truncations[agent]
        in_range = type(action) is int and 0 <= action < NUM_ACTIONS  # Discrete.contains, minus its numpy casts
        assert (action is None and dead) or in_range or raw.action_space(agent).contains(action), (
            "action is not in action space"
        )
        mask = self._prev_mask
        if mask is None:
            mask = self.observe(agent)["action_mask"]
        self._prev_mask = None
        if dead and self._terminated:
            raw._was_dead_step(action)
        elif not dead and not mask[action]:
            self._end_on_illegal(agent)
        else:
            raw.step(action)

    def _end_on_illegal(self, offender: str) -> None:
        """TerminateIllegalWrapper's outcome: every agent done, -1 for the offender, 0 for the others."""
        EnvLogger.warn_on_illegal_move()
        raw = self.env
        raw._cumulative_rewards[offender] = 0
        raw.terminations = dict.fromkeys(raw.agents, True)
        raw.truncations = dict.fromkeys(raw.agents, True)
        raw.rewards = dict.fromkeys(raw.truncations, 0)
        raw.rewards[offender] = ILLEGAL_ACTION_REWARD
        raw._accumulate_rewards()
        raw._deads_step_first()
        self._terminated = True

    def __str__(self) -> str:
        return str(self.env)


class _AgentIterable(AECOrderEnforcingIterable[str, ObsDict, int]):
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator[str, ObsDict, int]):
    """OrderEnforcingWrapper's ``agent_iter`` loop, reading the raw env directly."""

    env: ClassicWrapper

    def __next__(self) -> str:
        wrapper = self.env
        raw = wrapper.env
        if not raw.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        return raw.agent_selection
