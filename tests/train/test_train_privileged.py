"""The privileged critic's network, the full state it reads, and the episode cap."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import torch
from sb3_contrib import MaskablePPO

from shithead_env import Game, encode_observation, get_encoding
from shithead_env.actions import MAX_COPIES
from shithead_env.full_state import FULL_STATE_SIZE, NEXT_DRAWS, encode_full_state
from shithead_env.rules import TABLE_CARDS
from tests.helpers import random_positions
from train.config import load_config
from train.envs import EpisodeCap, make_env
from train.networks import ShitheadPolicy
from train.policy_bot import PolicyActor, load_policy
from train.trainer import train

TINY = [
    "n_envs=2", "vec_env=dummy", "workers=1", "n_steps=64", "batch_size=64", "n_epochs=1",
    "net_arch=[32, 32]", "eval_every=0", "final_eval_games=0", "checkpoint_every=128", "progress_bar=false",
]


def _cells(vector: np.ndarray, start: int, size: int) -> np.ndarray:
    return vector[start : start + size]


@pytest.mark.parametrize("preset", ["dead_last", "harrogate", "power_deck"])
def test_full_state_counts_every_hidden_card_from_the_seat_order(preset: str) -> None:
    for game in random_positions(preset, 4, seed=3, games=3, every=17):
        for seat in range(4):
            v = encode_full_state(game, seat)
            assert v.shape == (FULL_STATE_SIZE,) and v.min() >= 0 and v.max() <= 1
            hands = v[: 10 * 14].reshape(10, 14) * MAX_COPIES
            downs = v[140:280].reshape(10, 14) * TABLE_CARDS
            for slot in range(4):
                s = (seat + slot) % 4
                assert round(hands[slot].sum()) == len(game.hands[s])
                assert round(downs[slot].sum()) == len(game.face_down[s])
            assert not hands[4:].any() and not downs[4:].any()
            assert round(v[280:294].sum() * MAX_COPIES) == game.draw_pile_size
            next_draws = v[294:].reshape(NEXT_DRAWS, 14)
            assert [int(row.argmax()) for row in next_draws if row.any()] == [c >> 2 for c in game.draw_pile[:3]]


def test_full_state_refuses_a_bad_seat() -> None:
    with pytest.raises(ValueError, match=r"seat must be 0\.\.3"):
        encode_full_state(Game.new("dead_last", 4, seed=0), 4)


def _privileged_env(tmp_path: Path, *extra: str):
    config = load_config("quick", [*TINY, "privileged_critic=true", f"runs_dir={tmp_path}", *extra])
    return config, make_env(config, 0)


def test_privileged_observation_is_the_public_one_then_the_full_state(tmp_path: Path) -> None:
    config, env = _privileged_env(tmp_path)
    obs, _ = env.reset(seed=4)
    public = get_encoding(config.encoding)
    base = env.unwrapped
    assert obs.shape == (public.size + FULL_STATE_SIZE,) == env.observation_space.shape
    assert np.array_equal(obs[: public.size], encode_observation(base.game, base.learner, version=config.encoding))
    assert np.array_equal(obs[public.size :], encode_full_state(base.game, base.learner))
    assert env.observation_space.contains(obs)


def _policy(public_dim: int) -> ShitheadPolicy:
    from gymnasium import spaces

    from shithead_env import NUM_ACTIONS

    space = spaces.Box(0, 1, (public_dim + FULL_STATE_SIZE,), np.float32)
    return ShitheadPolicy(space, spaces.Discrete(NUM_ACTIONS), lambda _: 1e-3, net_arch=[16, 16],
                          public_dim=public_dim)


def test_the_actor_reads_only_the_public_cells_and_the_critic_reads_all() -> None:
    policy = _policy(20)
    torch.manual_seed(0)
    obs = torch.rand(3, 20 + FULL_STATE_SIZE)
    other = obs.clone()
    other[:, 20:] = torch.rand(3, FULL_STATE_SIZE)
    with torch.no_grad():
        actor = policy.mlp_extractor.forward_actor
        critic = policy.predict_values
        assert torch.equal(actor(obs), actor(other))
        assert torch.equal(actor(obs), actor(obs[:, :20]))  # a bot's public observation is enough
        assert not torch.allclose(critic(obs), critic(other))
        changed = obs.clone()
        changed[:, 0] += 1
        assert not torch.allclose(actor(obs), actor(changed))


def test_a_public_dim_outside_the_features_is_refused() -> None:
    with pytest.raises(ValueError, match="public_dim"):
        _policy(0)


def test_a_privileged_critic_run_saves_loads_plays_and_exports_the_public_policy(tmp_path: Path) -> None:
    from agents import make_bot
    from agents.tournament import TournamentConfig, run_tournament
    from train.export import export

    config = load_config("quick", [*TINY, "privileged_critic=true", "total_timesteps=128", f"runs_dir={tmp_path}"])
    run = train(config).run_dir
    checkpoint = run / "checkpoints" / "last.zip"
    policy = load_policy(checkpoint)
    public = get_encoding(config.encoding)
    assert isinstance(policy, ShitheadPolicy) and policy.public_dim == public.size
    assert policy.observation_space.shape == (public.size + FULL_STATE_SIZE,)
    assert isinstance(MaskablePPO.load(checkpoint).policy, ShitheadPolicy)
    # a bot plays it from the public observation
    summary, _ = run_tournament(TournamentConfig("dead_last", (f"policy:{checkpoint}", "random", "random", "random"),
                                                 8, seed=1))
    assert summary.games == 8
    out = export(checkpoint, tmp_path / "bot")
    card = json.loads((out / "bot.json").read_text(encoding="utf-8"))
    assert card["observation_size"] == public.size and card["encoding_version"] == public.version
    game = Game.new("dead_last", 4, seed=2)
    exported, actor = make_bot(f"model:{out}"), PolicyActor(policy)
    while game.current is not None and not game.is_over:
        seat = game.current
        rng = np.random.default_rng(0)
        assert exported.act_game(game, seat, rng) == actor.act_game(game, seat, rng)
        game.step(exported.act_game(game, seat, rng))


def test_the_episode_cap_truncates_at_a_live_position_paying_nothing(tmp_path: Path) -> None:
    config = load_config("quick", [*TINY, "max_decisions=30", "opponents={random: 1}", f"runs_dir={tmp_path}"])
    env = make_env(config, 0)
    rng = np.random.default_rng(0)
    cut = 0
    for episode in range(20):
        _, info = env.reset(seed=episode)
        done = False
        while not done:
            action = int(rng.choice(np.flatnonzero(info["action_mask"])))
            _obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
        game = env.unwrapped.game
        if truncated:
            cut += 1
            assert info.get("episode_cap") and reward == 0.0
            assert game.decisions >= 30 and not game.is_over and game.current == env.unwrapped.learner
            assert info["action_mask"].any()  # a live decision: SB3 bootstraps from its value
        else:
            assert game.decisions < 30 + 20 * 4  # it ended by itself before the cap could apply
    assert cut > 0


def test_no_cap_leaves_the_rules_cap(tmp_path: Path) -> None:
    config = load_config("quick", [*TINY, "max_decisions=0", f"runs_dir={tmp_path}"])
    assert config.game_cap is None
    env = make_env(config, 0)
    wrapper = env
    while hasattr(wrapper, "env"):
        assert not isinstance(wrapper, EpisodeCap)
        wrapper = wrapper.env


def test_a_run_reports_the_share_of_steps_in_truncated_episodes(tmp_path: Path) -> None:
    config = load_config("quick", [*TINY, "max_decisions=12", "total_timesteps=256", f"runs_dir={tmp_path}"])
    run = train(config).run_dir
    summary = json.loads((run / "train.json").read_text(encoding="utf-8"))
    assert summary["episode_steps"] > 0
    assert 0 < summary["truncated_step_share"] <= 1  # a 12-decision cap cuts most 4-player games


def test_eval_at_start_puts_a_step_zero_point_on_the_learning_curve(tmp_path: Path) -> None:
    config = load_config("quick", [*TINY, "eval_at_start=true", "eval_every=0", "eval_games=4",
                                   "eval_opponents=[random]", "total_timesteps=128", f"runs_dir={tmp_path}"])
    run = train(config).run_dir
    rows = (run / "eval.csv").read_text(encoding="utf-8").splitlines()
    assert [row.split(",")[0] for row in rows[1:]] == ["0"]
