"""The self-play pool: snapshots added and retired, sampling weights per scheme, workers see new snapshots."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from train.config import load_config
from train.envs import make_env, make_vec_env
from train.league import POOL_FILE, LeaguePool, OpponentSampler, Snapshot, snapshot_weights


@pytest.fixture(scope="module")
def policy():
    config = load_config("quick", ["num_players=2", "net_arch=[16]"])
    venv = DummyVecEnv([lambda: make_env(config, 0)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, policy_kwargs={"net_arch": [16]}, seed=0)
    yield model.policy
    venv.close()


def test_weights_per_scheme() -> None:
    snaps = [Snapshot(f"snapshot_{i}", f"{i}.pt", i, games=10, losses=lost) for i, lost in enumerate([0, 5, 10])]
    assert snapshot_weights(snaps, "uniform", 0.5) == pytest.approx([1 / 3] * 3)
    # latest: decay ** age, newest last
    assert snapshot_weights(snaps, "latest", 0.5) == pytest.approx(np.array([0.25, 0.5, 1.0]) / 1.75)
    # loss: smoothed loss rate (losses + 1) / (games + 2)
    rates = np.array([1, 6, 11]) / 12
    assert snapshot_weights(snaps, "loss", 0.5) == pytest.approx(rates / rates.sum())
    assert snapshot_weights(snaps[:1], "latest", 0.0) == [1.0]
    assert snapshot_weights([], "uniform", 0.5) == []


def test_pool_adds_publishes_and_retires(tmp_path: Path, policy) -> None:
    pool = LeaguePool(tmp_path, scheme="latest", decay=0.5, max_size=2)
    pool.write()
    assert json.loads((tmp_path / POOL_FILE).read_text())["version"] == 1
    for step in (100, 200, 300, 400):
        pool.add(policy, step)
    data = json.loads((tmp_path / POOL_FILE).read_text())
    assert data["version"] == 5
    assert [s["name"] for s in data["snapshots"]] == ["snapshot_0000000300", "snapshot_0000000400"]
    assert [s["weight"] for s in data["snapshots"]] == pytest.approx([1 / 3, 2 / 3])
    # retired files are deleted one publication later (a worker may still be loading one)
    assert not (tmp_path / "snapshot_0000000100.pt").exists()
    assert (tmp_path / "snapshot_0000000400.pt").exists()
    pool.record("snapshot_0000000400", 1.0)
    assert LeaguePool(tmp_path).snapshots[-1].games == 0  # stats are published with the next write
    pool.write()
    resumed = LeaguePool(tmp_path)
    assert resumed.version == 6 and resumed.snapshots[-1].losses == 1.0


def test_sampler_mixes_bots_and_snapshots_by_weight(tmp_path: Path, policy) -> None:
    pool = LeaguePool(tmp_path, scheme="uniform")
    pool.write()
    sampler = OpponentSampler({"random": 3.0, "greedy": 1.0}, tmp_path, share=0.5, seed=0)
    assert sampler.version == 0 and sampler.refresh() is True and sampler.version == 1  # the first publication
    assert sampler.refresh() is False  # nothing new since
    names = [name for _ in range(400) for name, _ in sampler.draw(1)]
    assert not any(n.startswith("snapshot_") for n in names)  # empty pool: bots only
    assert 0.65 < names.count("random") / len(names) < 0.85
    pool.add(policy, 10)
    assert sampler.refresh() is True and sampler.version == 2
    names = [name for _ in range(400) for name, _ in sampler.draw(1)]
    assert 0.4 < names.count("snapshot_0000000010") / len(names) < 0.6


def test_subprocess_workers_play_the_new_snapshot(tmp_path: Path, policy) -> None:
    config = load_config("quick", [
        "num_players=2", "n_envs=2", "workers=1", "vec_env=subproc", "league=true", "snapshot_share=1.0",
        "n_steps=64", "batch_size=64",
    ])
    pool = LeaguePool(tmp_path)
    pool.write()
    venv = make_vec_env(config, str(tmp_path))
    try:
        venv.reset()
        rng = np.random.default_rng(0)

        def opponents_of_finished_games(steps: int) -> set[str]:
            seen: set[str] = set()
            for _ in range(steps):
                masks = np.stack(venv.env_method("action_masks"))
                actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
                _, _, _, infos = venv.step(actions)
                for info in infos:
                    seen.update(info.get("league", {}).get("opponents", []))
            return seen

        assert not any(n.startswith("snapshot_") for n in opponents_of_finished_games(200))
        pool.add(policy, 1000)
        opponents_of_finished_games(150)  # games that started before the update finish with bots
        assert opponents_of_finished_games(200) == {"snapshot_0000001000"}
    finally:
        venv.close()


def test_a_snapshot_is_fed_the_encoding_it_was_trained_on(tmp_path: Path) -> None:
    """A version-1 snapshot in the pool of a version-2 learner still decides from version-1 observations."""
    from shithead_env import ENCODINGS, Game
    from shithead_env.envs.single_agent import ShitheadEnv

    old = MaskablePPO("MlpPolicy", ShitheadEnv(num_players=2, encoding=1), n_steps=64, batch_size=64,
                      policy_kwargs={"net_arch": [16]}, seed=0)
    pool = LeaguePool(tmp_path, scheme="uniform")
    pool.add(old.policy, 10)
    sampler = OpponentSampler({"random": 1.0}, tmp_path, share=1.0, seed=0)
    assert sampler.refresh()
    ((name, bot),) = sampler.draw(1)
    assert name == "snapshot_0000000010" and bot.actor.encoding is ENCODINGS[1]
    game = Game.new("dead_last", 2, seed=1)
    rng = np.random.default_rng(0)
    for _ in range(30):
        if game.is_over:
            break
        action = bot.act_game(game, game.current, rng)
        assert action in game.legal_actions()
        game.step(action)
    env = ShitheadEnv(num_players=2, opponents=bot, learner_seat=0)  # a version-2 learner against it
    assert env.encoding.version == 2
    env.reset(seed=0)
