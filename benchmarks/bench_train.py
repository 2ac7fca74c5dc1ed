"""Training throughput: learner steps per second during PPO, and where the time goes.

Runs a short MaskablePPO training (no evaluation) from a config and splits
the wall time into

- **environment**: waiting for ``VecEnv.step`` (the engine, the opponents,
  the encoder; in worker processes for subproc),
- **inference**: the rest of rollout collection (policy forward on the
  batch of observations, masks, the rollout buffer),
- **update**: the PPO gradient epochs between rollouts.

A league config plays with one snapshot (the initial policy) in the pool
from the first step, at its ``snapshot_share``.

    python benchmarks/bench_train.py [--config quick] [--steps 65536] [--override key=value ...]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from typing import Any


def measure(config_name: str, steps: int, overrides: list[str]) -> dict[str, float]:
    """Train ``steps`` learner steps and return the timings (seconds) and the throughput."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback
    from stable_baselines3.common.utils import set_random_seed
    from stable_baselines3.common.vec_env import VecEnvWrapper

    from train.config import load_config
    from train.envs import make_vec_env
    from train.league import LeaguePool
    from train.trainer import _model_kwargs

    config = load_config(config_name, [*overrides, f"total_timesteps={steps}", "eval_every=0"])
    torch.set_num_threads(config.torch_threads)
    set_random_seed(config.seed)

    class TimedVecEnv(VecEnvWrapper):
        def __init__(self, venv: Any) -> None:
            super().__init__(venv)
            self.seconds = 0.0

        def reset(self) -> Any:
            return self.venv.reset()

        def step_wait(self) -> Any:
            start = time.perf_counter()
            out = self.venv.step_wait()
            self.seconds += time.perf_counter() - start
            return out

        def env_method(self, name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
            start = time.perf_counter()
            out = self.venv.env_method(name, *args, indices=indices, **kwargs)
            self.seconds += time.perf_counter() - start
            return out

    class Phases(BaseCallback):
        def __init__(self) -> None:
            super().__init__()
            self.rollout = 0.0
            self.update = 0.0
            self.mark = 0.0

        def _on_training_start(self) -> None:
            self.mark = time.perf_counter()

        def _on_rollout_start(self) -> None:
            now = time.perf_counter()
            self.update += now - self.mark
            self.mark = now

        def _on_rollout_end(self) -> None:
            now = time.perf_counter()
            self.rollout += now - self.mark
            self.mark = now

        def _on_training_end(self) -> None:
            self.update += time.perf_counter() - self.mark

        def _on_step(self) -> bool:
            return True

    league = tempfile.TemporaryDirectory() if config.league else None
    venv = TimedVecEnv(make_vec_env(config, league.name if league else None))
    model = MaskablePPO("MlpPolicy", venv, seed=config.seed, device="cpu", **_model_kwargs(config))
    if league is not None:  # one snapshot (the initial policy) in the pool from the start
        LeaguePool(league.name).add(model.policy, 0)
    phases = Phases()
    start = time.perf_counter()
    model.learn(steps, callback=phases)
    total = time.perf_counter() - start
    venv.close()
    if league is not None:
        league.cleanup()
    # the first update-phase slice is the set-up before the first rollout
    return {
        "steps": float(model.num_timesteps),
        "seconds": total,
        "steps_per_second": model.num_timesteps / total,
        "environment": venv.seconds,
        "inference": phases.rollout - venv.seconds,
        "update": phases.update,
        "n_envs": float(config.n_envs),
        "workers": float(config.workers if config.use_subproc else 1),
    }


def main(argv: list[str] | None = None) -> None:
    """Print the throughput and the share of time per phase."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--config", default="quick")
    parser.add_argument("--steps", type=int, default=65536)
    parser.add_argument("--override", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    r = measure(args.config, args.steps, args.override)
    print(f"config {args.config} {' '.join(args.override)}: {int(r['steps'])} steps in {r['seconds']:.1f} s, "
          f"{r['steps_per_second']:.0f} learner steps/s ({int(r['n_envs'])} envs, {int(r['workers'])} process(es))")
    for phase in ("environment", "inference", "update"):
        print(f"  {phase:<12} {r[phase]:7.1f} s  {100 * r[phase] / r['seconds']:5.1f}%")


if __name__ == "__main__":
    main()
