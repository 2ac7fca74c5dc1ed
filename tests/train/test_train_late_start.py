"""Late starts: the learner's episodes begin at a later stage, its moves before it played by a bot."""

from __future__ import annotations

from pathlib import Path

import gymnasium
import numpy as np
import pytest

pytest.importorskip("stable_baselines3")

from agents import make_bot
from shithead_env import Action, Game, Knowledge
from shithead_env.phases import STAGES
from train.config import ConfigError, load_config
from train.envs import LateStart, make_env

TINY = ["n_envs=2", "vec_env=dummy", "workers=1", "n_steps=64", "batch_size=64", "progress_bar=false",
        "final_eval_games=0", "opponents={heuristic: 1.0}"]


class Recorder:
    """The heuristic, remembering the seat and stage of every decision it was asked for."""

    def __init__(self) -> None:
        self.bot = make_bot("heuristic")
        self.asked: list[tuple[int, str]] = []

    def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
        self.asked.append((seat, Knowledge.from_game(game, seat).stage))
        return self.bot.act_game(game, seat, rng)


def _env(tmp_path: Path, *extra: str) -> gymnasium.Env:
    return make_env(load_config("quick", [*TINY, f"runs_dir={tmp_path}", *extra]), 0)


def _learner_stages(env: gymnasium.Env, seed: int) -> list[str]:
    """The stage of each learner decision of one episode played by the first legal action."""
    _, info = env.reset(seed=seed)
    base = env.unwrapped
    stages = []
    while True:
        stages.append(Knowledge.from_game(base.game, base.learner).stage)
        _, _, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))
        if terminated or truncated:
            return stages


def test_every_episode_starts_in_the_stage_and_the_bot_played_only_the_learners_earlier_moves(tmp_path: Path) -> None:
    env = _env(tmp_path, "start_stage=hand", "start_bot=heuristic")
    late = env
    while not isinstance(late, LateStart):
        late = late.env
    late.bot = recorder = Recorder()
    for seed in range(20):
        recorder.asked.clear()
        stages = _learner_stages(env, seed)
        assert stages[0] in ("hand", "table")  # the draw pile is gone
        learner = env.unwrapped.learner
        assert recorder.asked and all(seat == learner for seat, _ in recorder.asked)
        assert {stage for _, stage in recorder.asked} <= {"swap", "pile"}


def test_a_share_of_zero_starts_every_episode_at_the_deal(tmp_path: Path) -> None:
    late = _env(tmp_path, "start_stage=hand", "start_bot=heuristic", "start_share=0.0")
    plain = _env(tmp_path)
    for seed in range(5):
        assert _learner_stages(late, seed) == _learner_stages(plain, seed)
        assert _learner_stages(late, seed)[0] == "swap"


def test_half_the_episodes_start_late(tmp_path: Path) -> None:
    env = _env(tmp_path, "start_stage=pile", "start_bot=heuristic", "start_share=0.5")
    firsts = [_learner_stages(env, seed)[0] for seed in range(60)]
    assert 15 < firsts.count("swap") < 45 and firsts.count("swap") + firsts.count("pile") == 60


def test_a_cap_that_ends_every_game_before_the_stage_is_named(tmp_path: Path) -> None:
    env = _env(tmp_path, "start_stage=table", "start_bot=heuristic", "max_decisions=10")
    with pytest.raises(RuntimeError, match="before it reached the table stage in 100 deals"):
        env.reset(seed=0)


def test_bad_start_settings_are_refused_by_name(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="start_stage: 'endgame' is not one of"):
        load_config("quick", [f"runs_dir={tmp_path}", "start_stage=endgame"])
    with pytest.raises(ConfigError, match="start_bot: bad bot spec 'nobody'"):
        load_config("quick", [f"runs_dir={tmp_path}", "start_stage=hand", "start_bot=nobody"])
    with pytest.raises(ConfigError, match="start_bot: bad bot spec 'model:nowhere': nowhere: not an exported model"):
        load_config("quick", [f"runs_dir={tmp_path}", "start_stage=hand", "start_bot=model:nowhere"])
    expert = "model:agents/pretrained/dead_last_4p_expert"
    with pytest.raises(ConfigError, match=f"start_bot: '{expert}' plays dead_last 4, not pub with 4 players"):
        load_config("quick", [f"runs_dir={tmp_path}", "rules=pub", "start_stage=hand", f"start_bot={expert}"])
    with pytest.raises(ConfigError, match="start_stage: only the sb3 backend"):
        load_config("rllib_quick", [f"runs_dir={tmp_path}", "start_stage=hand"])


def test_a_run_trains_on_late_starts_in_worker_processes(tmp_path: Path) -> None:
    from train.trainer import train

    config = load_config("quick", ["total_timesteps=128", "n_envs=2", "vec_env=subproc", "workers=2", "n_steps=64",
                                   "batch_size=64", "n_epochs=1", "eval_every=0", "final_eval_games=0",
                                   "progress_bar=false", "opponents={heuristic: 1.0}", "start_stage=hand",
                                   "start_bot=heuristic", f"runs_dir={tmp_path}"])
    result = train(config)
    assert result.timesteps == 128
    assert load_config("quick", [f"runs_dir={tmp_path}"]).start_stage == STAGES[0]  # the default: from the deal
