"""Self-play over N tables behind Gymnasium's ``VectorEnv`` API: every seat is the shared policy, no scripted opponents.

The game is turn-based, so each table has one decision at a time: row i of a
step is the decision of the seat now to act at table i (``infos["seat"]``),
and over a game every seat of every table passes through the batch. Forced
passes (a seat asked in an interrupt window it cannot use) are played by the
env, as the single-agent view plays the learner's, so every row is a real
decision.

Rewards come per seat, since a step can decide places other than the actor's
(the game's end pays every seat still holding cards): ``infos["rewards"]``
``(N, num_players)`` holds each seat's reward decided on the step (over a
game a seat's rewards sum to its ``final_scores``), ``infos["placed"]``
``(N, num_players)`` marks the seats whose episode ended on the step (paid
and nothing left to do: a seat that went out on a nominating card still
nominates first); the step's ``rewards`` is the acting seat's own share. A
per-seat learner (PPO with one trajectory per seat) adds ``infos["rewards"]``
to each seat's last transition and closes it on ``placed``.

``terminated`` / ``truncated`` say the table's game ended (truncated: at the
decision cap). Autoreset is same-step: the table is dealt again within the
step; ``infos["final_obs"][i]`` holds every seat's terminal observation,
``(num_players, size)``, and ``infos["final_info"]["illegal_action"]`` whether
an illegal action ended it (the offender gets -1 and the others 0 on that step,
the rewards already paid stay, as ``shithead_v0.env()`` does).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from shithead_env.actions import NUM_ACTIONS, Action
from shithead_env.encoding import ENCODING_VERSION, encode_batch, get_encoding, legal_masks
from shithead_env.envs.common import RulesSpec, decided_rewards, table_rules
from shithead_env.envs.single_agent import ILLEGAL_ACTION_REWARD, PASS
from shithead_env.envs.vector import Seeds, batch_actions, final_rows, row_flags, table_seeds
from shithead_env.game import Game
from shithead_env.knowledge import Knowledge


class _Table:
    """One table's game, generator, and how far its seats' rewards and episodes have been handed out."""

    __slots__ = ("game", "paid", "placed", "rng")

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.game: Game | None = None
        self.paid = 0
        self.placed: list[bool] = []


class SelfPlayVectorEnv(VectorEnv):
    """``num_envs`` tables of ``rules`` with ``num_players`` seats, every seat played by the caller's policy."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(
        self,
        num_envs: int,
        rules: RulesSpec = "dead_last",
        num_players: int = 4,
        reward: str = "placement",
        max_decisions: int | None = None,
        encoding: int = ENCODING_VERSION,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        self.encoding = get_encoding(encoding)
        self.rules = table_rules(rules, num_players, reward)
        self.num_envs = num_envs
        self.num_players = num_players
        self.reward_scheme = reward
        self.max_decisions = max_decisions
        size = self.encoding.size
        self.single_observation_space = spaces.Box(self.encoding.low, self.encoding.high, (size,), np.float32)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._tables: list[_Table] = []
        self._masks: np.ndarray | None = None

    @property
    def games(self) -> list[Game]:
        """Each table's engine game (read-only: stepping one by hand desynchronises the env)."""
        return [table.game for table in self._tables]

    def reset(self, *, seed: Seeds = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """Deal every table from its own generator: table i seeded by ``seed + i`` (or ``seed[i]``)."""
        self._tables = [_Table(seeding.np_random(table_seed)[0]) for table_seed in table_seeds(seed, self.num_envs)]
        for table in self._tables:
            self._deal(table)
        observations, masks = self._observe()
        zeros = np.zeros((self.num_envs, self.num_players))
        return observations, self._infos(masks, zeros, np.zeros((self.num_envs, self.num_players), bool))

    def step(self, actions: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """The acting seat's decision at every table; a table whose game ends is dealt again at once."""
        actions = batch_actions(actions, self.num_envs, dealt=self._masks is not None)
        n = self.num_players
        seat_rewards = np.zeros((self.num_envs, n))
        placed = np.zeros((self.num_envs, n), bool)
        rewards = np.zeros(self.num_envs)
        terminations = np.zeros(self.num_envs, bool)
        truncations = np.zeros(self.num_envs, bool)
        ended, illegal, final = [], [], []
        for row, (table, action) in enumerate(zip(self._tables, actions.tolist(), strict=True)):
            game = table.game
            actor = game.current
            chosen = Action.from_index(int(action))
            if game.is_legal(chosen):
                game.step(chosen)
                while game.only_pass:  # nothing to decide (docs/environments.md): the env passes
                    game.step(PASS)
                for seat, value in decided_rewards(game, self.reward_scheme, table.paid):
                    seat_rewards[row, seat] = value
                table.paid = len(game.finish_order)
                over = game.is_over
            else:
                seat_rewards[row, actor] = ILLEGAL_ACTION_REWARD
                illegal.append(row)
                over = True
            rewards[row] = seat_rewards[row, actor]
            done = table.placed
            for seat in range(n):
                if not done[seat] and (over or not (game.active[seat] or game.current == seat)):
                    done[seat] = placed[row, seat] = True
            if over:
                ended.append(row)
                truncations[row] = game.truncated
                terminations[row] = not game.truncated
                final += [Knowledge.from_game(game, seat) for seat in range(n)]
                self._deal(table)  # a new Game: the final views above keep reading the old one
        observations, masks = self._observe(final)
        infos = self._infos(masks, seat_rewards, placed)
        if ended:
            size = self.encoding.size
            infos["final_obs"] = final_rows(self.num_envs, ended, observations[self.num_envs :].reshape(-1, n, size))
            infos["_final_obs"] = row_flags(self.num_envs, ended)
            infos["final_info"] = {
                "illegal_action": row_flags(self.num_envs, illegal),
                "_illegal_action": row_flags(self.num_envs, ended),
            }
            infos["_final_info"] = row_flags(self.num_envs, ended)
        return observations[: self.num_envs], rewards, terminations, truncations, infos

    def _deal(self, table: _Table) -> None:
        game = table.game = Game.new(self.rules, self.num_players, seed=table.rng, max_decisions=self.max_decisions)
        table.paid = 0
        table.placed = [False] * self.num_players
        while game.only_pass:
            game.step(PASS)

    def _observe(self, extra: Sequence[Knowledge] = ()) -> tuple[np.ndarray, np.ndarray]:
        """The acting seats' observations and masks, then the rows of ``extra`` views, in one batch."""
        views = [Knowledge.from_game(table.game, table.game.current) for table in self._tables]
        views += extra
        legal = legal_masks(views)
        self._masks = legal[: self.num_envs]
        return encode_batch(views, self.encoding.version, legal), self._masks

    def _infos(self, masks: np.ndarray, seat_rewards: np.ndarray, placed: np.ndarray) -> dict[str, Any]:
        every = row_flags(self.num_envs)
        return {
            "action_mask": masks,
            "_action_mask": every,
            "seat": np.array([table.game.current for table in self._tables]),
            "_seat": every,
            "rewards": seat_rewards,
            "_rewards": every,
            "placed": placed,
            "_placed": every,
        }

    def action_masks(self) -> np.ndarray:
        """(N, actions) bool: the acting seat's legal actions at each table (never an all-False row)."""
        if self._masks is None:
            raise RuntimeError("action_masks() before the first reset(): call reset() to deal the tables")
        return self._masks.astype(bool)
