"""The self-play league on Ray: snapshots of the shared module shipped to every env runner.

The driver keeps the pool exactly as the SB3 pipeline does (``train.league.LeaguePool``:
``league/pool.json`` and one file per snapshot, the module's inference-only state
dict, so resume carries it on). Every time the pool changes, ``push_pool`` sends the
names, sampling weights and states to each env runner through Ray
(``EnvRunnerGroup.foreach_env_runner``): no shared filesystem is needed, so it works
the same on a cluster. There each snapshot becomes a frozen copy of the runner's own
module, played by a ``ModuleActor`` inside the env like a baseline bot.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from train.league import LeaguePool, OpponentSampler
from train.rllib.policy import MODULE_ID, RLlibPolicyBot


class LeagueSampler(OpponentSampler):
    """``OpponentSampler`` whose pool is pushed in by the driver rather than read from ``pool.json``."""

    def __init__(self, bots: Mapping[str, float], share: float = 0.0, deterministic: bool = False,
                 seed: Any = None) -> None:
        super().__init__(bots, None, share, deterministic, seed)

    def set_pool(self, names: list[str], weights: list[float], bots: Mapping[str, Any]) -> None:
        """Replace the snapshots: ``names`` (oldest first), their sampling weights and their bots."""
        self.names = list(names)
        self.snapshot_weights = np.asarray(weights, float)
        self._loaded = dict(bots)


class StateFile:
    """What ``LeaguePool.add`` saves: a module's inference-only state, written with ``torch.save``."""

    def __init__(self, module: Any) -> None:
        self.state = module.get_state(inference_only=True)

    def save(self, path: str) -> None:
        import torch

        torch.save(self.state, path)


def add_snapshot(pool: LeaguePool, module: Any, step: int) -> None:
    """Freeze ``module`` (the learner's) into the pool at ``step``."""
    pool.add(StateFile(module), step)


def push_pool(algo: Any, pool: LeaguePool, deterministic: bool) -> None:
    """Send the pool (names, weights, states) to every env runner's environments."""
    import torch

    names = [s.name for s in pool.snapshots]
    weights = pool.weights()
    states = {s.name: torch.load(Path(pool.directory) / s.file, weights_only=False) for s in pool.snapshots}

    def install(env_runner: Any) -> int:
        vector = getattr(env_runner, "env", None)
        if vector is None:  # the driver's runner when remote ones sample
            return 0
        bots = {}
        for name in names:
            module = copy.deepcopy(env_runner.module[MODULE_ID])
            module.set_state(states[name])
            bots[name] = RLlibPolicyBot.from_module(module, deterministic)
        for env in vector.envs:
            env.unwrapped.sampler.set_pool(names, weights, bots)
        return len(vector.envs)

    algo.env_runner_group.foreach_env_runner(install, local_env_runner=True)
