"""The trained policy as a harness bot: the view path and the game fast path agree, specs build it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO
from stable_baselines3.common.vec_env import DummyVecEnv

from agents import make_bot
from shithead_env import Game, load_rules
from train.config import load_config
from train.envs import make_env
from train.evaluate import evaluate
from train.policy_bot import PolicyBot
from train.release import slim_copy


@pytest.fixture(scope="module")
def checkpoint(tmp_path_factory: pytest.TempPathFactory) -> Path:
    config = load_config("quick", ["num_players=3"])
    venv = DummyVecEnv([lambda: make_env(config, 0)])
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=64, policy_kwargs={"net_arch": [32]}, seed=1)
    model.learn(64)
    path = tmp_path_factory.mktemp("policy") / "model.zip"
    model.save(path)
    venv.close()
    return path


@pytest.mark.parametrize("deterministic", [True, False])
def test_view_path_and_fast_path_agree(checkpoint: Path, deterministic: bool) -> None:
    bot = PolicyBot(str(checkpoint), deterministic=deterministic)
    game = Game.new(load_rules("dead_last"), 3, seed=4)
    moves = 0
    while not game.is_over and moves < 150:
        seat = game.current
        seed = [moves, 9]
        fast = bot.act_game(game, seat, np.random.default_rng(seed))
        if deterministic:  # sampling draws the determinization first on the view path
            assert bot.act(game.view(seat), np.random.default_rng(seed)) == fast
        assert fast in game.legal_actions()
        game.step(fast)
        moves += 1


def test_policy_spec_builds_the_bot_and_plays_in_the_harness(checkpoint: Path) -> None:
    bot = make_bot(f"policy:{checkpoint},deterministic=false")
    assert isinstance(bot, PolicyBot) and not bot.actor.deterministic
    (result,) = evaluate(checkpoint, "dead_last", 3, ["random"], 6, seed=0)
    assert result.games == 6 and result.score.low is not None


def test_release_copy_is_slim_and_plays_the_same(checkpoint: Path, tmp_path: Path) -> None:
    slim = slim_copy(checkpoint, tmp_path / "policy.zip")
    assert slim.stat().st_size < checkpoint.stat().st_size
    game = Game.new(load_rules("dead_last"), 3, seed=2)
    rng = np.random.default_rng(0)
    a, b = PolicyBot(str(checkpoint)), PolicyBot(str(slim))
    assert a.act_game(game, game.current, rng) == b.act_game(game, game.current, rng)


def test_worker_processes_play_a_torch_bot_after_the_parent_ran_torch_threads() -> None:
    """Forked from a parent whose torch thread pool had run, a worker's first multi-threaded op deadlocked (the
    harness with ``--workers 2`` hung forever): the workers now run torch on one thread."""
    import subprocess
    import sys

    script = (
        "import torch\n"
        "torch.set_num_threads(2)\n"
        "torch.ones(512, 512) @ torch.ones(512, 512)  # the parent's pool runs\n"
        "from agents.tournament import TournamentConfig, play_games\n"
        "bots = ['policy:agents/pretrained/dead_last_4p_v2/policy.zip', 'heuristic', 'heuristic', 'heuristic']\n"
        "records = play_games(TournamentConfig('dead_last', tuple(bots), games=8, seed=3), workers=2)\n"
        "print(len(records))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=Path(__file__).resolve().parents[2],
                          capture_output=True, text=True, timeout=180)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["8"]
