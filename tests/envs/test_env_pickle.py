"""Every environment pickles mid-game and plays on exactly as the original, here and in a spawned process; SB3's
SubprocVecEnv under the spawn start method gives DummyVecEnv's results for the same seeds and actions.

A pickled env that lost a field (a generator, the paid places, a closing turn) or changed one's type would play
on differently: each check compares every output of many further steps, tagged with its type and dtype, and the
games' states at the end.
"""

from __future__ import annotations

import multiprocessing
import pickle
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

import numpy as np
import pytest

from shithead_env import Game, Rules, load_rules, shithead_v0
from shithead_env.envs.self_play import SelfPlayVectorEnv
from shithead_env.envs.single_agent import ShitheadEnv
from shithead_env.envs.vector import ShitheadVectorEnv
from tests.helpers import typed, typed_state

BEFORE, AFTER = 25, 60  # steps before the pickle, and compared after it (enough to end games and reset)


def two_decks() -> Rules:
    """A custom rule set the state stores in full: harrogate's, two decks from 4 players, a short game."""
    return load_rules(load_rules("harrogate").to_dict() | {"name": "two_decks", "decks_from_players": {"4": 2},
                                                           "max_decisions": 40})  # fmt: skip


ENVS: dict[str, Callable[[], Any]] = {
    "aec": lambda: shithead_v0.env(rules=two_decks(), num_players=4),
    "parallel": lambda: shithead_v0.parallel_env(rules="power_deck", num_players=3),
    "single_agent": lambda: ShitheadEnv(rules=two_decks(), num_players=5, opponents="heuristic"),
    "vector": lambda: ShitheadVectorEnv(3, rules="pub", num_players=3, opponents="random", max_decisions=30),
    "self_play": lambda: SelfPlayVectorEnv(3, rules=two_decks(), num_players=4),
}


def snap(value: Any) -> Any:
    """``value`` comparable with its types: arrays by dtype, shape and bytes, the rest as ``typed``."""
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            return ("objects", value.shape, [snap(v) for v in value.ravel()])
        return ("array", value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, dict):
        return ("dict", sorted((repr(k), snap(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [snap(v) for v in value])
    return typed(value)


def _pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def _steps(kind: str, env: Any, rng: np.random.Generator) -> Iterator[Any]:
    """Each step's outputs, playing random legal actions (and dealing again when a game ends)."""
    while True:
        if kind == "aec":
            if not env.agents:
                env.reset()
            obs, reward, terminated, truncated, info = env.last()
            env.step(None if terminated or truncated else _pick(obs["action_mask"], rng))
            yield env.agent_selection if env.agents else None, obs, reward, terminated, truncated, info
        elif kind == "parallel":
            if not env.agents:
                yield env.reset()
            legal = sorted(action.index for action in env.game.legal_actions())
            yield env.step({env.acting: legal[int(rng.integers(len(legal)))]})
        elif kind == "single_agent":
            out = env.step(_pick(env.action_masks(), rng))
            yield out
            if out[2] or out[3]:
                yield env.reset()
        else:  # the vector envs deal again themselves
            yield env.step(np.array([_pick(row, rng) for row in env.action_masks()]))


def games(kind: str, env: Any) -> list[Game]:
    if kind in ("vector", "self_play"):
        return list(env.games) if kind == "self_play" else [table.game for table in env.tables]
    return [env.unwrapped.game if kind == "aec" else env.game]


def play(kind: str, env: Any, steps: int, seed: int) -> list[Any]:
    """``steps`` steps' outputs, then every game's state (engine fields and JSON state, with their types)."""
    rng = np.random.default_rng(seed)
    trace = [snap(out) for out, _ in zip(_steps(kind, env, rng), range(steps), strict=False)]
    return trace + [(typed_state(game), typed(game.to_dict())) for game in games(kind, env)]


def started(kind: str) -> Any:
    env = ENVS[kind]()
    env.reset(seed=7)
    play(kind, env, BEFORE, seed=1)
    return env


def play_pickled(kind: str, blob: bytes) -> list[Any]:
    """Run in a spawned process: unpickle the env and play on."""
    return play(kind, pickle.loads(blob), AFTER, seed=2)


@pytest.mark.parametrize("kind", ENVS)
def test_an_env_pickled_mid_game_plays_on_as_the_original(kind: str) -> None:
    env = started(kind)
    clone = pickle.loads(pickle.dumps(env))
    assert [typed_state(g) for g in games(kind, clone)] == [typed_state(g) for g in games(kind, env)]
    assert play(kind, clone, AFTER, seed=2) == play(kind, env, AFTER, seed=2)


def test_pickled_envs_play_on_the_same_in_a_spawned_process() -> None:
    envs = {kind: started(kind) for kind in ENVS}
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        there = {kind: pool.submit(play_pickled, kind, pickle.dumps(env)) for kind, env in envs.items()}
        here = {kind: play(kind, env, AFTER, seed=2) for kind, env in envs.items()}
        for kind in ENVS:
            assert there[kind].result() == here[kind], kind


def make_single_agent_env() -> ShitheadEnv:
    return ShitheadEnv(rules=two_decks(), num_players=4, opponents="random", max_decisions=50)


def test_subproc_vec_env_under_spawn_gives_dummy_vec_envs_results() -> None:
    vec_env = pytest.importorskip("stable_baselines3.common.vec_env")
    results, ended = [], 0
    for venv in (vec_env.DummyVecEnv([make_single_agent_env] * 2),
                 vec_env.SubprocVecEnv([make_single_agent_env] * 2, start_method="spawn")):  # fmt: skip
        venv.seed(3)
        trace = [snap(venv.reset())]
        rng = np.random.default_rng(4)
        for _ in range(80):  # the 50-decision cap ends games: autoreset runs too
            masks = np.stack(venv.env_method("action_masks"))
            obs, rewards, dones, infos = venv.step(np.array([_pick(mask, rng) for mask in masks]))
            # SB3's own containers differ (Dummy: float32 rewards, a list of infos; Subproc: float64, a tuple)
            trace.append(snap((obs, rewards.astype(np.float64), dones, list(infos))))
            ended += int(dones.sum())
        trace.append([typed(game.to_dict()) for game in venv.get_attr("game")])
        venv.close()
        results.append(trace)
    assert results[0] == results[1]
    assert ended >= 4  # episodes ended and were dealt again in both (2 each at the least)
