"""A run directory, its checkpoints, and resuming: the step count carries on from the checkpoint."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")

from sb3_contrib import MaskablePPO

from shithead_env.cli import main
from train.config import ConfigError, load_config
from train.trainer import CONFIG_FILE, train

TINY = [
    "num_players=2", "n_envs=2", "vec_env=dummy", "workers=1", "n_steps=64", "batch_size=64", "n_epochs=1",
    "net_arch=[32, 32]", "eval_every=0", "final_eval_games=0", "checkpoint_every=128", "progress_bar=false",
]


def test_train_then_resume_continues_the_step_count(tmp_path: Path) -> None:
    config = load_config("quick", [*TINY, "total_timesteps=256", f"runs_dir={tmp_path}"])
    first = train(config)
    run = first.run_dir
    assert run.parent == tmp_path and run.name.startswith("dead_last-quick-s0-")
    assert (run / CONFIG_FILE).is_file() and (run / "tb").is_dir()
    assert MaskablePPO.load(run / "checkpoints" / "last.zip").num_timesteps == 256
    assert (run / "checkpoints" / "model_0000000128.zip").is_file()

    second = train(resume=run, overrides=["total_timesteps=512"])
    assert second.run_dir == run
    assert second.timesteps == 512
    assert MaskablePPO.load(run / "checkpoints" / "last.zip").num_timesteps == 512
    assert load_config(run / CONFIG_FILE).total_timesteps == 512
    assert load_config(run / "config-until-256.yaml").total_timesteps == 256

    # from a step-numbered checkpoint, through the CLI, with a PPO setting changed
    assert main(["train", "--resume", str(run / "checkpoints" / "model_0000000384.zip"),
                 "--override", "total_timesteps=640", "--override", "ent_coef=0.05"]) == 0
    resumed = MaskablePPO.load(run / "checkpoints" / "last.zip")
    assert resumed.num_timesteps == 640 and resumed.ent_coef == 0.05


def test_resume_refuses_a_new_network_shape(tmp_path: Path) -> None:
    config = load_config("quick", [*TINY, "total_timesteps=64", f"runs_dir={tmp_path}"])
    run = train(config).run_dir
    with pytest.raises(ConfigError, match="net_arch"):
        train(resume=run, overrides=["net_arch=[8]"])


def test_same_seed_same_run(tmp_path: Path) -> None:
    def weights(sub: str) -> list[float]:
        config = load_config("quick", [*TINY, "total_timesteps=128", f"runs_dir={tmp_path / sub}"])
        run = train(config).run_dir
        policy = MaskablePPO.load(run / "checkpoints" / "last.zip").policy
        return [float(p.detach().sum()) for p in policy.parameters()]

    assert weights("a") == weights("b")


def test_cli_refuses_a_bad_config_by_name(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["train", "--config", "quick", "--override", "n_envz=3"]) == 2
    assert "n_envz" in capsys.readouterr().err


def test_an_interrupted_run_saves_a_checkpoint_that_resume_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from train.callbacks import ProgressBar

    def stop_at_the_second_rollout(self: ProgressBar) -> None:
        if self.num_timesteps >= 128:
            raise KeyboardInterrupt

    monkeypatch.setattr(ProgressBar, "_on_rollout_end", stop_at_the_second_rollout, raising=False)
    config = load_config("quick", [*TINY, "total_timesteps=512", f"runs_dir={tmp_path}", "progress_bar=true",
                                   "checkpoint_every=100000"])  # only the interrupt saves
    with pytest.raises(KeyboardInterrupt):
        train(config)
    (run,) = tmp_path.iterdir()
    assert MaskablePPO.load(run / "checkpoints" / "last.zip").num_timesteps == 128
    monkeypatch.undo()
    resumed = train(resume=run, overrides=["progress_bar=false"])
    assert resumed.timesteps == 512


def test_the_progress_bar_ends_at_its_total_and_draws_the_end_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """600 steps in rollouts of 128 run to 640: the bar's total says so (no overshoot) and 640/640 is drawn once."""
    from train.callbacks import steps_to_run

    assert steps_to_run(0, 200_000, 4096) == 200_704 and steps_to_run(4096, 8192, 4096) == 8192
    assert steps_to_run(8192, 8192, 4096) == 8192  # a resumed run already done runs nothing
    config = load_config("quick", [*TINY, "total_timesteps=600", f"runs_dir={tmp_path}", "progress_bar=true"])
    assert train(config).timesteps == 640
    err = capsys.readouterr().err
    assert "/640 [" in err and "/600 [" not in err and "640step" not in err, err[-500:]
    assert err.count("640/640") == 1, err[-500:]
