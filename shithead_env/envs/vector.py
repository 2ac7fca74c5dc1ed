"""N tables of the single-agent view stepped in one process, behind Gymnasium's ``VectorEnv`` API.

``ShitheadVectorEnv(num_envs, **single_agent_options)`` is a drop-in for
``SyncVectorEnv([ShitheadEnv(...)] * N, autoreset_mode=SAME_STEP)``: the same
observations, masks, rewards, terminations, truncations and infos for the same
seeds and actions, bit for bit (tests/envs/test_env_vector.py). Each table is a
``ShitheadEnv``, so the rules of a step (opponents, forced passes, rewards,
illegal actions) are that env's own; what the batch saves is everything around
it: the observations of every table come from one ``encode_batch`` call, the
masks are one ``(N, actions)`` array built from the legal actions the engine
already listed (reused for the observation's legal cells), and no per-env
info dicts are merged. The self-play variant, with no scripted opponents, is
``shithead_env.envs.self_play``.

Autoreset is same-step (``metadata["autoreset_mode"]``): a table whose
episode ends is dealt again within that ``step``; its terminal observation and
info are in ``infos["final_obs"]`` / ``infos["final_info"]`` (with the
``_final_obs`` / ``_final_info`` row masks), as ``SyncVectorEnv`` lays them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from shithead_env.encoding import encode_batch, legal_masks
from shithead_env.envs.single_agent import NO_DECISION_MASK, ShitheadEnv
from shithead_env.knowledge import Knowledge

Seeds = int | Sequence[int | None] | None


def table_seeds(seed: Seeds, num_envs: int) -> list[int | None]:
    """One seed per table, as ``SyncVectorEnv.reset`` spreads them: ``seed + i``, a list as given, or all None."""
    if seed is None:
        return [None] * num_envs
    if isinstance(seed, (int, np.integer)):
        return [int(seed) + i for i in range(num_envs)]
    seeds = list(seed)
    if len(seeds) != num_envs:
        raise ValueError(f"give one seed per table ({num_envs}), got {len(seeds)}")
    return seeds


def batch_actions(actions: Sequence[int] | np.ndarray, num_envs: int, dealt: bool) -> np.ndarray:
    """``actions`` as one array of ``num_envs`` (a step before the first reset, or another shape, is refused)."""
    if not dealt:
        raise RuntimeError("step() before the first reset(): call reset() to deal the tables")
    actions = np.asarray(actions)
    if actions.shape != (num_envs,):
        raise ValueError(f"actions must have shape ({num_envs},), got {actions.shape}")
    return actions


def row_flags(num_envs: int, rows: Sequence[int] | None = None) -> np.ndarray:
    """The ``_key`` mask of a batched info: True on ``rows`` (every row when None)."""
    flags = np.zeros(num_envs, bool) if rows is not None else np.ones(num_envs, bool)
    if rows is not None:
        flags[list(rows)] = True
    return flags


def final_rows(num_envs: int, rows: list[int], observations: np.ndarray) -> np.ndarray:
    """``infos["final_obs"]``: an object array holding each ended row's terminal observation, None elsewhere."""
    final = np.full(num_envs, None, dtype=object)
    for row, observation in zip(rows, observations, strict=True):
        final[row] = observation
    return final


class ShitheadVectorEnv(VectorEnv):
    """``num_envs`` tables of ``ShitheadEnv`` (``rules``, ``num_players``, ``opponents`` ... as that env takes).

    ``infos["action_mask"]`` is an ``(N, actions)`` int8 array and ``action_masks()`` its boolean copy (never an
    all-False row); ``infos["learner_seat"]`` the learner's seat at each table.
    """

    metadata = {"render_modes": ShitheadEnv.metadata["render_modes"], "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int, **options: Any) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int, got {num_envs!r}")
        self.tables = [ShitheadEnv(**options) for _ in range(num_envs)]
        first = self.tables[0]
        self.num_envs = num_envs
        self.encoding = first.encoding
        self.render_mode = first.render_mode
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._masks: np.ndarray | None = None

    def reset(self, *, seed: Seeds = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """Deal every table (table i seeded by ``seed + i``, or by ``seed[i]``), as ``SyncVectorEnv`` does."""
        for table, table_seed in zip(self.tables, table_seeds(seed, self.num_envs), strict=True):
            table.deal(table_seed)
        observations, masks = self._observe()
        return observations, self._infos(masks)

    def step(self, actions: Sequence[int] | np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict]:
        """One learner decision at every table; a table whose episode ends is dealt again at once."""
        actions = batch_actions(actions, self.num_envs, dealt=self._masks is not None)
        rewards = np.zeros(self.num_envs)
        terminations = np.zeros(self.num_envs, bool)
        truncations = np.zeros(self.num_envs, bool)
        ended, illegal = [], []
        for row, (table, action) in enumerate(zip(self.tables, actions.tolist(), strict=True)):
            reward, terminated, truncated, was_illegal = table.advance(action)
            rewards[row], terminations[row], truncations[row] = reward, terminated, truncated
            if self.render_mode == "human" and not was_illegal:
                table.render()  # as ShitheadEnv.step prints it
            if terminated or truncated:
                ended.append(row)
                if was_illegal:
                    illegal.append(row)
        if not ended:
            observations, masks = self._observe()
            return observations, rewards, terminations, truncations, self._infos(masks)
        final = [Knowledge.from_game(self.tables[row].game, self.tables[row].learner) for row in ended]
        final_seats = [self.tables[row].learner for row in ended]
        for row in ended:
            self.tables[row].deal()  # a new Game: the final views above keep reading the old one
        observations, masks = self._observe(final)
        infos = self._infos(masks[: self.num_envs])
        final_info: dict[str, Any] = {
            "action_mask": np.zeros_like(masks[: self.num_envs]),
            "_action_mask": row_flags(self.num_envs, ended),
            "learner_seat": np.zeros(self.num_envs, int),
            "_learner_seat": row_flags(self.num_envs, ended),
        }
        final_info["action_mask"][ended] = NO_DECISION_MASK  # an ended episode's mask (single_agent's docs)
        final_info["learner_seat"][ended] = final_seats
        if illegal:
            final_info["illegal_action"] = row_flags(self.num_envs, illegal)
            final_info["_illegal_action"] = row_flags(self.num_envs, illegal)
        infos["final_obs"] = final_rows(self.num_envs, ended, observations[self.num_envs :])
        infos["_final_obs"] = row_flags(self.num_envs, ended)
        infos["final_info"] = final_info
        infos["_final_info"] = row_flags(self.num_envs, ended)
        return observations[: self.num_envs], rewards, terminations, truncations, infos

    def _observe(self, extra: Sequence[Knowledge] = ()) -> tuple[np.ndarray, np.ndarray]:
        """The learners' observations and masks, then the rows of the ``extra`` views, in one batch.

        The mask of a table whose episode is over is ``NO_DECISION_MASK``, as ``ShitheadEnv`` gives it; an
        ``extra`` row's is its view's legal actions (the caller's to replace).
        """
        views = [Knowledge.from_game(table.game, table.learner) for table in self.tables]
        views += extra
        masks = legal_masks(views)
        observations = encode_batch(views, self.encoding.version, masks)  # the legal cells from the same masks
        over = [row for row, table in enumerate(self.tables) if table.episode_over]
        if over:
            masks = masks.copy()
            masks[over] = NO_DECISION_MASK
        self._masks = masks[: self.num_envs]
        return observations, masks

    def _infos(self, masks: np.ndarray) -> dict[str, Any]:
        return {
            "action_mask": masks,
            "_action_mask": row_flags(self.num_envs),
            "learner_seat": np.array([table.learner for table in self.tables]),
            "_learner_seat": row_flags(self.num_envs),
        }

    def action_masks(self) -> np.ndarray:
        """(N, actions) bool: each table's mask of the last reset or step (sb3-contrib's hook; no all-False row)."""
        if self._masks is None:
            raise RuntimeError("action_masks() before the first reset(): call reset() to deal the tables")
        return self._masks.astype(bool)

    def render(self) -> tuple[str | None, ...]:
        """Each table's text from its learner's seat (``ShitheadEnv.render``)."""
        return tuple(table.render() for table in self.tables)
