"""Training environments: the Gymnasium single-agent view with league opponents, vectorised.

``OpponentSeats`` sits in front of ``shithead_env/Shithead-v0``: it gives the
env one proxy bot per opponent seat and, at every reset, points each proxy
at the opponent the ``OpponentSampler`` draws for that game. At the end of
the learner's episode ``info["league"]`` says who the opponents were and
whether the learner finished behind each (for the ``loss`` scheme and the
per-opponent loss rates in TensorBoard).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from agents import Bot
from shithead_env import SINGLE_AGENT_ID, Action, Game
from shithead_env.full_state import FULL_STATE_SIZE, encode_full_state
from shithead_env.scoring import finished_ahead
from train.config import TrainConfig
from train.league import OpponentSampler


class SeatProxy(Bot):
    """One opponent seat of the env; ``current`` is swapped between games.

    The env calls ``act_game`` (the agents' fast path, no JSON view per decision).
    """

    def __init__(self, current: Bot) -> None:
        self.current = current

    def act(self, view: Any, rng: np.random.Generator) -> Action:
        return self.current.act(view, rng)

    def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
        return self.current.act_game(game, seat, rng)


class EpisodeCap(gymnasium.Wrapper):
    """Truncates the learner's episode at its first step after the game has run ``max_decisions`` decisions.

    Looping games (bots that pass a pile back and forth) otherwise fill
    training with thousands of signal-free steps. The truncated step pays
    nothing and returns the learner's live observation, which SB3 bootstraps
    from (``TimeLimit.truncated``): the critic estimates what the rest of the
    game was worth, so a cut game is neither a loss nor a split.
    """

    def __init__(self, env: gymnasium.Env, max_decisions: int) -> None:
        super().__init__(env)
        self.max_decisions = max_decisions

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if not (terminated or truncated) and self.env.unwrapped.game.decisions >= self.max_decisions:
            truncated = True
            info["episode_cap"] = True
        return obs, reward, terminated, truncated, info


class OpponentSeats(gymnasium.Wrapper):
    """Draws the opponents of each game and reports, at the episode's end, how the learner fared against each."""

    def __init__(self, env: gymnasium.Env, sampler: OpponentSampler, seats: list[SeatProxy]) -> None:
        super().__init__(env)
        self.sampler = sampler
        self.seats = seats
        self.names: list[str] = []

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        self.sampler.refresh()
        drawn = self.sampler.draw(len(self.seats))
        self.names = [name for name, _ in drawn]
        for proxy, (_, bot) in zip(self.seats, drawn, strict=True):
            proxy.current = bot
        return self.env.reset(**kwargs)

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            info["league"] = {"opponents": list(self.names), "lost": self._lost()}
        return obs, reward, terminated, truncated, info

    def _lost(self) -> list[float]:
        """Per opponent seat (clockwise from the learner): 1 if it finished ahead of the learner, 0.5 if tied."""
        base = self.env.unwrapped
        game: Game = base.game
        learner = base.learner
        n = game.num_players
        place = {seat: i for i, seat in enumerate(game.finish_order)}
        mine = place.get(learner)
        out = []
        for k in range(1, n):
            theirs = place.get((learner + k) % n)
            if finished_ahead(theirs, mine):
                out.append(1.0)
            else:
                out.append(0.0 if finished_ahead(mine, theirs) else 0.5)  # 0.5: both unfinished, a tie
        return out


class PrivilegedObservation(gymnasium.ObservationWrapper):
    """The observation with the learner's ``encode_full_state`` appended, for a privileged critic (train.networks)."""

    def __init__(self, env: gymnasium.Env) -> None:
        super().__init__(env)
        public = env.observation_space
        self.observation_space = spaces.Box(
            np.concatenate([public.low, np.zeros(FULL_STATE_SIZE, np.float32)]),
            np.concatenate([public.high, np.ones(FULL_STATE_SIZE, np.float32)]),
            (int(public.shape[0]) + FULL_STATE_SIZE,),
            np.float32,
        )

    def observation(self, observation: np.ndarray) -> np.ndarray:
        base = self.env.unwrapped
        return np.concatenate([observation, encode_full_state(base.game, base.learner)])


def make_env(config: TrainConfig, index: int, league_dir: str | None = None) -> gymnasium.Env:
    """Environment ``index`` of a run: the single-agent view of table ``index`` (mod the tables), its opponents
    drawn per game."""
    tables = config.table_list()
    rules, num_players = tables[index % len(tables)]
    sampler = OpponentSampler(
        config.opponents,
        league_dir if config.league else None,
        config.snapshot_share,
        config.snapshot_deterministic,
        seed=[config.seed, 7919, index],
    )
    first = [bot for _, bot in sampler.draw(num_players - 1)]
    seats = [SeatProxy(bot) for bot in first]
    env = gymnasium.make(
        SINGLE_AGENT_ID,
        rules=rules,
        num_players=num_players,
        opponents=seats,
        learner_seat=None,
        reward=config.reward,
        encoding=config.encoding,
        disable_env_checker=True,
    )
    if config.max_decisions:
        env = EpisodeCap(env, config.max_decisions)
    env = OpponentSeats(env, sampler, seats)
    if config.privileged_critic:
        env = PrivilegedObservation(env)
    return env


def _env_fn(config: TrainConfig, index: int, league_dir: str | None) -> Callable[[], gymnasium.Env]:
    def build() -> gymnasium.Env:
        import torch

        torch.set_num_threads(1)
        from stable_baselines3.common.monitor import Monitor

        return Monitor(make_env(config, index, league_dir))

    return build


def make_vec_env(config: TrainConfig, league_dir: str | None = None) -> Any:
    """The vectorised environments of a run, seeded from ``config.seed`` (env i gets ``seed + i``)."""
    from stable_baselines3.common.vec_env import DummyVecEnv

    from train.vec_env import BatchedSubprocVecEnv

    fns = [_env_fn(config, i, league_dir) for i in range(config.n_envs)]
    venv = BatchedSubprocVecEnv(fns, config.workers) if config.use_subproc else DummyVecEnv(fns)
    venv.seed(config.seed)
    return venv
