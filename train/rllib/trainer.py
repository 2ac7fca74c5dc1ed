"""One RLlib training run: the same run directory, progress bar, harness evaluation and resume as SB3 runs.

``train`` opens the run (``train.trainer.open_run``: a new directory, or the
resumed run's own ``config.yaml`` with overrides), joins Ray (``ray_session``),
builds PPO from ``train.rllib.algo.ppo_config`` and calls ``Algorithm.train``
until ``total_timesteps`` learner steps (decisions of the shared policy) are
done. Between iterations it adds league snapshots, saves checkpoints and
evaluates with the tournament harness. The run directory holds, besides
``config.yaml``, ``eval.csv``, ``final_eval.*``, ``train.json`` and
``league/`` as for SB3 runs:

- ``checkpoints/step_<step>/`` and ``checkpoints/last/``: RLlib algorithm checkpoints
  (``Algorithm.save_to_path``: module, optimizer, env-runner and connector state) with
  our ``step.json`` inside;
- ``best/checkpoint/``, ``best/eval.json``: the checkpoint with the best harness score so far.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tqdm import tqdm

from train.callbacks import advance_bar, next_multiple
from train.config import ConfigError, TrainConfig
from train.evaluate import append_csv, evaluate, previous_best, save_best, selection_score
from train.trainer import RunResult, finish, open_run

LAST = "last"
STEP_FILE = "step.json"
CANDIDATES = ("best/checkpoint", f"checkpoints/{LAST}")


def checkpoint_steps(checkpoint: Path) -> int:
    """The learner steps a checkpoint was saved at (its ``step.json``)."""
    record = Path(checkpoint) / STEP_FILE
    if not record.is_file():
        raise ValueError(f"{checkpoint}: not a checkpoint of an rllib run (no {STEP_FILE})")
    return int(json.loads(record.read_text(encoding="utf-8"))["step"])


def save_checkpoint(algo: Any, directory: Path, step: int) -> Path:
    """``checkpoints/step_<step>/`` (with ``step.json``) and a copy as ``checkpoints/last/``; returns the first."""
    path = directory / f"step_{step:010d}"
    algo.save_to_path(str(path.resolve()))
    (path / STEP_FILE).write_text(json.dumps({"step": step}), encoding="utf-8")
    last = directory / LAST
    shutil.rmtree(last, ignore_errors=True)
    shutil.copytree(path, last)
    return path


def quiet_ray_internals() -> None:
    """Hide Ray's notes on its own deprecated internals (RLlib 2.60's modules build an ``RLModuleConfig`` it has
    deprecated itself): run in the driver and, as Ray's ``worker_process_setup_hook``, in every worker. A deprecation
    that raises still raises; other warnings and every error still show."""
    logging.getLogger("ray._common.deprecation").setLevel(logging.ERROR)


@contextlib.contextmanager
def ray_session(address: str | None, env_runners: int) -> Iterator[bool]:
    """Join the Ray cluster at ``address`` (or ``RAY_ADDRESS``), else start a local Ray for this run; yields whether
    the Ray is a local one this run started.

    A Ray already initialised in this process is used as it is and left running.
    A local Ray gets at least one CPU per env runner, so a config asking for more
    runners than cores still starts (the runners then share the cores).
    """
    import ray

    if ray.is_initialized():
        yield False
        return
    logging.getLogger("ray.rllib").setLevel(logging.ERROR)
    quiet_ray_internals()
    options: dict[str, Any] = {"include_dashboard": False, "logging_level": logging.ERROR,
                               "runtime_env": {"worker_process_setup_hook": f"{__name__}.quiet_ray_internals"}}
    local = address is None and not os.environ.get("RAY_ADDRESS")
    if local:
        options["num_cpus"] = max(os.cpu_count() or 1, env_runners)
    ray.init(address=address, **options)
    try:
        yield local
    finally:
        ray.shutdown()


class HarnessEvaluator:
    """The tournament-harness evaluation of a checkpoint: ``eval.csv`` and the best checkpoint in ``best/``."""

    def __init__(self, config: TrainConfig, run_dir: Path, started: float) -> None:
        self.config = config
        self.run_dir = run_dir
        self.started = started
        self.best_dir = run_dir / "best"
        self.best_score = previous_best(self.best_dir)

    def __call__(self, checkpoint: Path, step: int) -> float:
        c = self.config
        results = evaluate(checkpoint, c.rules, c.num_players, c.eval_opponents, c.eval_games,
                           seed=c.seed + 1, scheme=c.reward, deterministic=c.eval_deterministic,
                           max_decisions=c.game_cap)
        append_csv(self.run_dir / "eval.csv", step, time.time() - self.started, results)
        score = selection_score(results, c.best_by)
        if score > self.best_score:
            self.best_score = score
            save_best(self.best_dir, checkpoint, step, score, results)
        return score


def sampled_steps(result: dict[str, Any]) -> int:
    """Learner steps sampled by one ``Algorithm.train`` call: decisions of the shared module."""
    from ray.rllib.utils.metrics import ENV_RUNNER_RESULTS, NUM_MODULE_STEPS_SAMPLED

    from train.rllib.policy import MODULE_ID

    return int(result[ENV_RUNNER_RESULTS][NUM_MODULE_STEPS_SAMPLED][MODULE_ID])


def train(
    config: TrainConfig | None = None,
    *,
    resume: str | Path | None = None,
    overrides: list[str] | None = None,
    address: str | None = None,
) -> RunResult:
    """Train (or resume) an rllib run and evaluate it; the configuration comes from ``config`` or the run."""
    if config is not None and config.backend != "rllib":
        raise ConfigError(f"backend: {config.backend!r} runs with train.trainer, not train.rllib.trainer")
    config, run_dir, checkpoint = open_run(config, resume, overrides, checkpoint_steps, last=LAST)
    started = time.time()
    with ray_session(address, config.env_runners) as local:
        # one machine: a failed env runner fails the run (and Ray has no restarts to warn about, ray-project/ray#53727)
        steps = _train(config, run_dir, checkpoint, started, restart_env_runners=not local)
    return finish(config, run_dir, steps, time.time() - started, CANDIDATES)


def _train(config: TrainConfig, run_dir: Path, checkpoint: Path | None, started: float,
           restart_env_runners: bool = True) -> int:
    """The training loop; returns the learner steps done (the run's total)."""
    import torch

    from train.league import LeaguePool
    from train.rllib.algo import ppo_config
    from train.rllib.league import add_snapshot, push_pool
    from train.rllib.policy import MODULE_ID

    torch.set_num_threads(config.torch_threads)  # the learner; Ray gives each env runner one thread per CPU
    algo = ppo_config(config, restart_env_runners).build_algo()
    try:
        steps = 0
        if checkpoint is not None:
            algo.restore_from_path(str(checkpoint.resolve()))
            steps = checkpoint_steps(checkpoint)
        pool = None
        if config.league:
            pool = LeaguePool(run_dir / "league", config.snapshot_scheme, config.snapshot_decay, config.snapshot_max)
            pool.write()
            if pool.snapshots:
                push_pool(algo, pool, config.snapshot_deterministic)
        checkpoints = run_dir / "checkpoints"
        evaluator = HarnessEvaluator(config, run_dir, started)
        every = {"snapshot": config.snapshot_every, "checkpoint": config.checkpoint_every,
                 "eval": config.eval_every or config.total_timesteps}
        due = {name: next_multiple(steps, n) for name, n in every.items()}
        bar = tqdm(total=config.total_timesteps, initial=steps, unit="step", smoothing=0.1, dynamic_ncols=True,
                   disable=not config.progress_bar)
        last_saved = -1
        while steps < config.total_timesteps:
            result = algo.train()
            steps += sampled_steps(result)
            advance_bar(bar, steps)  # the last rollout may overshoot total_timesteps: the total follows it
            if pool is not None and steps >= due["snapshot"]:
                add_snapshot(pool, algo.get_module(MODULE_ID), steps)
                push_pool(algo, pool, config.snapshot_deterministic)
            if steps >= due["checkpoint"] or steps >= due["eval"]:
                path = save_checkpoint(algo, checkpoints, steps)
                last_saved = steps
                if config.eval_every and steps >= due["eval"]:
                    bar.set_postfix_str(f"eval {evaluator(path, steps):+.3f}")
            due = {name: next_multiple(steps, every[name]) if steps >= at else at for name, at in due.items()}
        bar.close()
        if last_saved != steps:
            save_checkpoint(algo, checkpoints, steps)
        return steps
    finally:
        algo.stop()
