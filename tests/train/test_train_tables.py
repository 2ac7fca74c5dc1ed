"""One network over several tables: each environment plays its table, each table is evaluated; a run can start
from another's weights and stop after a wall-time budget, then resume."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

import torch
from sb3_contrib import MaskablePPO

from train.config import ConfigError, load_config
from train.envs import make_env, make_vec_env
from train.trainer import _model_kwargs, init_weights, train

TINY = [
    "vec_env=dummy", "workers=1", "n_steps=64", "batch_size=64", "n_epochs=1", "net_arch=[32, 32]",
    "eval_every=0", "final_eval_games=0", "checkpoint_every=128", "progress_bar=false",
]
TWO_TABLES = "tables={dead_last: [2], pub: [3]}"


def test_each_environment_plays_its_table() -> None:
    config = load_config(None, [*TINY, TWO_TABLES, "n_envs=4"])
    tables = [(env.unwrapped.rules.name, env.unwrapped.num_players) for env in (make_env(config, i) for i in range(4))]
    assert tables == [("dead_last", 2), ("pub", 3), ("dead_last", 2), ("pub", 3)]


def test_a_run_over_several_tables_evaluates_each(tmp_path: Path) -> None:
    config = load_config(None, [*TINY, TWO_TABLES, "n_envs=2", "total_timesteps=128", "eval_every=128",
                                "eval_opponents=[random]", "eval_games=4", f"runs_dir={tmp_path}"])
    run = train(config).run_dir
    assert run.name.startswith("tables-custom-s0-")
    with (run / "eval.csv").open(encoding="utf-8") as rows:
        evaluated = {(row["rules"], row["players"], row["opponent"]) for row in csv.DictReader(rows)}
    assert evaluated == {("dead_last", "2", "random"), ("pub", "3", "random")}
    assert (run / "best" / "model.zip").is_file()


def test_max_seconds_ends_the_chunk_with_a_checkpoint_and_resume_trains_on(tmp_path: Path) -> None:
    config = load_config(None, [*TINY, "num_players=2", "n_envs=2", "total_timesteps=100000", "max_seconds=0.001",
                                f"runs_dir={tmp_path}"])
    first = train(config)
    assert 0 < first.timesteps < 64  # stopped within the first rollout
    assert MaskablePPO.load(first.run_dir / "checkpoints" / "last.zip").num_timesteps == first.timesteps
    second = train(resume=first.run_dir, overrides=["max_seconds=0", "total_timesteps=128"])
    assert second.timesteps >= 128


def test_init_from_copies_the_policy_weights_and_refuses_another_shape(tmp_path: Path) -> None:
    config = load_config(None, [*TINY, "num_players=2", "n_envs=2", "total_timesteps=64", f"runs_dir={tmp_path}"])
    source = train(config).run_dir / "checkpoints" / "last.zip"
    venv = make_vec_env(config)
    try:
        model = MaskablePPO("MlpPolicy", venv, seed=1, device="cpu", **_model_kwargs(config))
        init_weights(model, source)
        expected = MaskablePPO.load(source, device="cpu").policy.state_dict()
        assert all(torch.equal(value, expected[key]) for key, value in model.policy.state_dict().items())
        sharpened = MaskablePPO("MlpPolicy", venv, seed=1, device="cpu", **_model_kwargs(config))
        init_weights(sharpened, source, sharpen=8.0)
        head = {f"action_net.{name}" for name, _ in sharpened.policy.action_net.named_parameters()}
        assert head and all(torch.allclose(value, expected[key] * (8.0 if key in head else 1.0))
                            for key, value in sharpened.policy.state_dict().items())
        observation = torch.rand(3, model.observation_space.shape[0])
        with torch.no_grad():
            logits = [m.policy.action_net(m.policy.mlp_extractor.forward_actor(observation))
                      for m in (model, sharpened)]
        assert torch.allclose(logits[1], 8.0 * logits[0], atol=1e-5)
        wider = load_config(None, [*TINY, "num_players=2", "n_envs=2", "net_arch=[48, 48]"])
        other = MaskablePPO("MlpPolicy", venv, seed=1, device="cpu", **_model_kwargs(wider))
        with pytest.raises(ConfigError, match=r"init_from: .* has another network shape"):
            init_weights(other, source)
    finally:
        venv.close()


def test_a_release_covers_only_the_tables_passed_against_every_opponent() -> None:
    from agents.tournament import Interval
    from train.evaluate import EvalResult
    from train.release import covered_tables

    def result(rules: str, players: int, opponent: str, low: float) -> EvalResult:
        score = Interval(low + 0.05, low, low + 0.1)
        return EvalResult(opponent, 100, score, score, score, None, rules, players)  # type: ignore[arg-type]

    results = [result("pub", 2, "heuristic", 0.01), result("pub", 2, "greedy", 0.2),
               result("pub", 3, "heuristic", -0.01), result("pub", 3, "greedy", 0.2),
               result("harrogate", 6, "heuristic", 0.0), result("dead_last", 5, "heuristic", 0.03)]
    assert covered_tables(results) == {"pub": [2], "dead_last": [5]}  # a low end of exactly 0 is not above 0
