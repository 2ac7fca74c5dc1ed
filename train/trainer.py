"""One training run, top to bottom: run directory, environments, MaskablePPO, callbacks, final evaluation.

A run directory (``runs/<rules>-<config>-s<seed>-<YYYYmmdd-HHMM>``) holds:

| path | what |
|---|---|
| `config.yaml` | the resolved config (every field) |
| `config-until-<step>.yaml` | the config before a resume that changed it |
| `checkpoints/model_<step>.zip`, `checkpoints/last.zip` | MaskablePPO checkpoints (resume from any) |
| `best/model.zip`, `best/eval.json` | the checkpoint with the best harness score so far |
| `league/pool.json`, `league/snapshot_<step>.pt` | the self-play pool (league runs) |
| `eval.csv`, `learning_curve.png` | every harness evaluation, and its plot |
| `final_eval.md`, `final_eval.json` | the evaluation at the end (best checkpoint, `final_eval_games` per baseline) |
| `train.json` | steps trained and training wall time |
| `tb/` | TensorBoard logs |
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from shithead_env import get_encoding
from shithead_env.commands import runnable
from train.config import ConfigError, TrainConfig, load_config, resolve_init

CONFIG_FILE = "config.yaml"
# What a resumed run cannot change: the network's shape and the table it plays.
FIXED_ON_RESUME = ("net_arch", "activation", "rules", "num_players", "tables", "encoding", "privileged_critic")


@dataclass
class RunResult:
    """What a finished run leaves behind."""

    run_dir: Path
    timesteps: int
    seconds: float
    best: Path | None
    final: list[Any]  # EvalResult per baseline (empty when final_eval_games is 0)


def run_name(config: TrainConfig, when: datetime | None = None) -> str:
    """``<rules>-<config name>-s<seed>-<YYYYmmdd-HHMM>`` (UTC); ``<rules>`` is ``tables`` for several tables."""
    when = when or datetime.now(timezone.utc)
    return f"{'tables' if config.tables else config.rules}-{config.name or 'custom'}-s{config.seed}-{when:%Y%m%d-%H%M}"


def new_run_dir(config: TrainConfig) -> Path:
    """A fresh run directory under ``runs_dir`` (``-2``, ``-3``... if the minute is taken)."""
    root = Path(config.runs_dir)
    root.mkdir(parents=True, exist_ok=True)
    base = run_name(config)
    path, k = root / base, 1
    while path.exists():
        k += 1
        path = root / f"{base}-{k}"
    path.mkdir()
    return path


def find_resume(
    target: str | Path, last: str = "last.zip", checkpoint_required: bool = True
) -> tuple[Path, Path | None]:
    """(run directory, checkpoint) from a run directory (its ``checkpoints/<last>``) or a checkpoint.

    A checkpoint is an SB3 ``.zip`` or an RLlib checkpoint directory (``last="last"``). A run that keeps its
    progress elsewhere (expert iteration's data files) may have none yet: ``checkpoint_required=False``.
    """
    target = Path(target)
    if target.is_dir() and (target / CONFIG_FILE).is_file():
        checkpoint = target / "checkpoints" / last
        if not checkpoint.exists():
            if not checkpoint_required:
                return target, None
            raise ConfigError(f"--resume {target}: no checkpoints/{last} in that run directory")
        return target, checkpoint
    if (target.is_file() and target.suffix == ".zip") or target.is_dir():
        for parent in target.parents:
            if (parent / CONFIG_FILE).is_file():
                return parent, target
        raise ConfigError(f"--resume {target}: no {CONFIG_FILE} in any directory above the checkpoint")
    raise ConfigError(f"--resume {target}: not a run directory or a checkpoint")


def open_run(
    config: TrainConfig | None,
    resume: str | Path | None,
    overrides: list[str] | None,
    steps_of: Callable[[Path | None], int],
    last: str = "last.zip",
    checkpoint_required: bool = True,
) -> tuple[TrainConfig, Path, Path | None]:
    """(config, run directory, checkpoint to resume or None): a new run directory, or the resumed run's.

    A resumed run reads its own ``config.yaml`` with ``overrides`` on top; what it
    cannot change (``FIXED_ON_RESUME``) is refused, and the settings it had so far
    are kept as ``config-until-<step>.yaml``. The config in force is saved.
    """
    checkpoint: Path | None = None
    if resume is not None:
        run_dir, checkpoint = find_resume(resume, last, checkpoint_required)
        before = load_config(run_dir / CONFIG_FILE)
        config = load_config(run_dir / CONFIG_FILE, overrides or [])
        for key in FIXED_ON_RESUME:
            if getattr(config, key) != getattr(before, key):
                raise ConfigError(f"{key}: cannot change when resuming (was {getattr(before, key)!r})")
        if config != before:  # keep the settings the run had so far
            before.save(run_dir / f"config-until-{steps_of(checkpoint)}.yaml")
    else:
        if config is None:
            raise ValueError("train() needs a config or a run to resume")
        run_dir = new_run_dir(config)
    config.save(run_dir / CONFIG_FILE)
    print(f"run directory: {run_dir}" + (f" (resuming from {checkpoint.name})" if checkpoint else ""), flush=True)
    return config, run_dir, checkpoint


def run_backend(resume: str | Path) -> str:
    """The backend (``sb3``, ``rllib`` or ``expert``) of the run that ``--resume`` points into."""
    target = Path(resume)
    for directory in (target, *target.parents):
        if (directory / CONFIG_FILE).is_file():
            return load_config(directory / CONFIG_FILE).backend
    raise ConfigError(f"--resume {target}: no {CONFIG_FILE} in it or in any directory above it")


def _steps_of(checkpoint: Path) -> int:
    """The step count saved in a checkpoint."""
    from sb3_contrib import MaskablePPO

    return int(MaskablePPO.load(checkpoint, device="cpu").num_timesteps)


def _model_kwargs(config: TrainConfig) -> dict[str, Any]:
    import torch
    from stable_baselines3.common.utils import LinearSchedule

    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[config.activation]
    policy_kwargs: dict[str, Any] = {"net_arch": {"pi": list(config.net_arch), "vf": list(config.net_arch)},
                                     "activation_fn": activation}
    if config.privileged_critic:
        policy_kwargs["public_dim"] = get_encoding(config.encoding).size
    return {
        "learning_rate": LinearSchedule(config.learning_rate, config.learning_rate * config.lr_final_fraction, 1.0),
        "n_steps": config.n_steps,
        "batch_size": config.batch_size,
        "n_epochs": config.n_epochs,
        "gamma": config.gamma,
        "gae_lambda": config.gae_lambda,
        "clip_range": config.clip_range,
        "ent_coef": config.ent_coef,
        "vf_coef": config.vf_coef,
        "max_grad_norm": config.max_grad_norm,
        "target_kl": config.target_kl or None,
        "policy_kwargs": policy_kwargs,
    }


def _policy_class(config: TrainConfig) -> Any:
    """SB3's ``MlpPolicy``, or ``train.networks.ShitheadPolicy`` for a privileged critic."""
    if not config.privileged_critic:
        return "MlpPolicy"
    from train.networks import ShitheadPolicy

    return ShitheadPolicy


def init_weights(model: Any, source: Path, sharpen: float = 1.0) -> None:
    """Start ``model`` from the policy weights of the checkpoint ``source`` (a fresh optimizer; same shapes), its
    action logits multiplied by ``sharpen`` (the action head is linear in its weights and bias)."""
    import torch
    from sb3_contrib import MaskablePPO

    weights = MaskablePPO.load(source, device="cpu").policy.state_dict()
    mine = model.policy.state_dict()
    mismatched = sorted(k for k in mine if k not in weights or weights[k].shape != mine[k].shape)
    if mismatched or set(weights) != set(mine):
        raise ConfigError(f"init_from: {source} has another network shape than this config's net_arch, activation, "
                          "encoding (its observation size) and privileged_critic "
                          f"(differs in {', '.join(mismatched or sorted(set(weights) - set(mine)))})")
    model.policy.load_state_dict(weights)
    with torch.no_grad():
        for parameter in model.policy.action_net.parameters():
            parameter.mul_(sharpen)


def train(
    config: TrainConfig | None = None,
    *,
    resume: str | Path | None = None,
    overrides: list[str] | None = None,
) -> RunResult:
    """Train (or resume) a run and evaluate it; the configuration comes from ``config`` or the resumed run."""
    import torch
    from stable_baselines3.common.callbacks import CallbackList
    from stable_baselines3.common.utils import set_random_seed

    from train.callbacks import Checkpoints, EpisodeStats, HarnessEval, League, ProgressBar, TimeLimit
    from train.envs import make_vec_env
    from train.league import LeaguePool

    if config is not None and config.backend != "sb3":
        raise ConfigError(f"backend: {config.backend!r} runs with train.rllib.trainer (shithead train dispatches)")
    config, run_dir, checkpoint = open_run(config, resume, overrides, _steps_of)
    started = time.time()

    torch.set_num_threads(config.torch_threads)
    set_random_seed(config.seed)
    league_dir = run_dir / "league"
    pool = None
    if config.league:
        pool = LeaguePool(league_dir, config.snapshot_scheme, config.snapshot_decay, config.snapshot_max)
        pool.write()  # publish (empty, or the resumed pool) before the workers start
    venv = make_vec_env(config, str(league_dir) if config.league else None)
    try:
        model = _open_model(config, venv, checkpoint, run_dir)
        checkpoints = Checkpoints(run_dir / "checkpoints", config.checkpoint_every)
        evaluator = HarnessEval(config, run_dir, checkpoints, started)
        episodes = EpisodeStats()
        callbacks = [checkpoints, League(pool, config.snapshot_every), episodes, evaluator]
        if config.progress_bar:
            callbacks.insert(0, ProgressBar(config.total_timesteps))
        if config.max_seconds:
            callbacks.append(TimeLimit(config.max_seconds, started))
        remaining = config.total_timesteps - model.num_timesteps
        try:
            if remaining > 0:
                model.learn(remaining, callback=CallbackList(callbacks), tb_log_name="ppo",
                            reset_num_timesteps=checkpoint is None)
        except KeyboardInterrupt:  # Ctrl-C: keep what was learnt, so --resume carries on from here
            checkpoints.init_callback(model)
            checkpoints.save()
            print(f"\nsaved {run_dir / 'checkpoints' / 'last.zip'} at step {model.num_timesteps}; "
                  f"{runnable(f'shithead train --resume {run_dir}')} carries on")
            raise
        checkpoints.init_callback(model)
        checkpoints.save()
    finally:
        venv.close()
    train_seconds = time.time() - started
    truncated = {"episode_steps": episodes.steps, "truncated_step_share": round(episodes.share, 4)}
    return finish(config, run_dir, model.num_timesteps, train_seconds, extra=truncated)


def _open_model(config: TrainConfig, venv: Any, checkpoint: Path | None, run_dir: Path) -> Any:
    """The run's MaskablePPO: the resumed checkpoint (with the config's PPO settings, maybe overridden, and new
    deals rather than a replay of the first ones), or a new model, from ``init_from``'s weights when given."""
    from sb3_contrib import MaskablePPO

    if checkpoint is None:
        model = MaskablePPO(_policy_class(config), venv, seed=config.seed, device=config.device, verbose=0,
                            tensorboard_log=str(run_dir / "tb"), **_model_kwargs(config))
        if config.init_from:
            init_weights(model, resolve_init(config.init_from), config.init_sharpen)
    else:
        hyper = {k: v for k, v in _model_kwargs(config).items() if k != "policy_kwargs"}
        model = MaskablePPO.load(checkpoint, env=venv, device=config.device, **hyper)
        venv.seed(config.seed + model.num_timesteps)
        model.set_random_seed(config.seed + model.num_timesteps)
        model.tensorboard_log = str(run_dir / "tb")
    return model


def finish(
    config: TrainConfig,
    run_dir: Path,
    timesteps: int,
    train_seconds: float,
    candidates: tuple[str, str] = ("best/model.zip", "checkpoints/last.zip"),
    extra: dict[str, Any] | None = None,
) -> RunResult:
    """Final evaluation of the best checkpoint (or the last: ``candidates``), the learning-curve PNG;
    ``train.json`` figures (with ``extra``: this chunk's episode statistics)."""
    from train.evaluate import evaluate_tables, learner_spec, write_final
    from train.plot import plot_learning_curve

    best = run_dir / candidates[0]
    chosen = best if best.exists() else run_dir / candidates[1]
    summary: dict[str, Any] = {"timesteps": timesteps, "train_seconds": round(train_seconds, 1), **(extra or {})}
    (run_dir / "train.json").write_text(json.dumps(summary, indent=1), encoding="utf-8")
    final = []
    if config.final_eval_games and config.eval_opponents:
        start = time.perf_counter()
        final = evaluate_tables(learner_spec(chosen, config.eval_deterministic), config.table_list(),
                                config.eval_opponents, config.final_eval_games, seed=config.seed + 2,
                                scheme=config.reward, max_decisions=config.game_cap)
        eval_seconds = time.perf_counter() - start
        title = (f"{run_dir.name}: {chosen.relative_to(run_dir)} after {timesteps} steps "
                 f"({train_seconds:.0f} s training, {eval_seconds:.0f} s evaluation)")
        write_final(run_dir, chosen, final, title, seed=config.seed + 2, eval_seconds=round(eval_seconds, 1), **summary)
    plot_learning_curve(run_dir / "eval.csv", run_dir / "learning_curve.png", run_dir.name)
    return RunResult(run_dir, timesteps, train_seconds, chosen, final)
