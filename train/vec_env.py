"""A subprocess VecEnv that runs several environments per worker, with the action masks sent along each step.

SB3's ``SubprocVecEnv`` runs one environment per process; on a 2-core
machine that means either 2 environments (a tiny inference batch per
step) or far more processes than cores. Here ``workers`` processes each
step a ``DummyVecEnv`` of ``n_envs / workers`` environments, and every
step also returns the next action masks, so MaskablePPO's
``env_method("action_masks")`` is answered from that cache without another
round trip to the workers.
"""

from __future__ import annotations

import multiprocessing as mp
from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from stable_baselines3.common.vec_env import DummyVecEnv, VecEnv
from stable_baselines3.common.vec_env.base_vec_env import CloudpickleWrapper, VecEnvIndices, VecEnvStepReturn

MASKS = "action_masks"


def _masks(envs: DummyVecEnv) -> np.ndarray:
    return np.stack(envs.env_method(MASKS))


def _worker(remote: Any, parent_remote: Any, env_fns_wrapper: CloudpickleWrapper) -> None:
    parent_remote.close()
    envs = DummyVecEnv(env_fns_wrapper.var)
    while True:
        try:
            cmd, data = remote.recv()
        except (EOFError, KeyboardInterrupt):
            break
        if cmd == "step":
            envs.step_async(data)
            obs, rewards, dones, infos = envs.step_wait()
            remote.send((obs, rewards, dones, infos, envs.reset_infos, _masks(envs)))
        elif cmd == "reset":
            seeds, options = data
            envs._seeds = list(seeds)
            envs._options = list(options)
            obs = envs.reset()
            remote.send((obs, envs.reset_infos, _masks(envs)))
        elif cmd == "env_method":
            name, args, kwargs, indices = data
            remote.send(envs.env_method(name, *args, indices=indices, **kwargs))
        elif cmd == "get_attr":
            name, indices = data
            remote.send(envs.get_attr(name, indices))
        elif cmd == "set_attr":
            name, value, indices = data
            remote.send(envs.set_attr(name, value, indices))
        elif cmd == "has_attr":
            remote.send(envs.has_attr(data))
        elif cmd == "is_wrapped":
            wrapper, indices = data
            remote.send(envs.env_is_wrapped(wrapper, indices))
        elif cmd == "spaces":
            remote.send((envs.observation_space, envs.action_space))
        elif cmd == "close":
            envs.close()
            remote.close()
            break
        else:
            raise NotImplementedError(f"worker command {cmd!r}")


class BatchedSubprocVecEnv(VecEnv):
    """``len(env_fns)`` environments split evenly over ``workers`` processes (forkserver by default)."""

    def __init__(self, env_fns: Sequence[Callable[[], gym.Env]], workers: int, start_method: str | None = None):
        n = len(env_fns)
        if workers < 1 or n % workers:
            raise ValueError(f"{n} environments cannot be split evenly over {workers} workers")
        self.per_worker = n // workers
        if start_method is None:
            start_method = "forkserver" if "forkserver" in mp.get_all_start_methods() else "spawn"
        ctx = mp.get_context(start_method)
        pipes = [ctx.Pipe() for _ in range(workers)]
        self.remotes = [parent for parent, _ in pipes]
        self.processes = []
        for w, (parent, child) in enumerate(pipes):
            chunk = list(env_fns[w * self.per_worker : (w + 1) * self.per_worker])
            process = ctx.Process(target=_worker, args=(child, parent, CloudpickleWrapper(chunk)), daemon=True)
            process.start()
            self.processes.append(process)
            child.close()
        self.waiting = False
        self.closed = False
        self.remotes[0].send(("spaces", None))
        observation_space, action_space = self.remotes[0].recv()
        super().__init__(n, observation_space, action_space)
        self._cached_masks: np.ndarray | None = None

    # ------------------------------------------------------------------ stepping
    def step_async(self, actions: np.ndarray) -> None:
        for w, remote in enumerate(self.remotes):
            remote.send(("step", actions[w * self.per_worker : (w + 1) * self.per_worker]))
        self.waiting = True

    def step_wait(self) -> VecEnvStepReturn:
        results = [remote.recv() for remote in self.remotes]
        self.waiting = False
        obs, rewards, dones, infos, reset_infos, masks = zip(*results, strict=True)
        self.reset_infos = [info for chunk in reset_infos for info in chunk]
        self._cached_masks = np.concatenate(masks)
        return (
            np.concatenate(obs),
            np.concatenate(rewards),
            np.concatenate(dones),
            [info for chunk in infos for info in chunk],
        )

    def reset(self) -> np.ndarray:
        k = self.per_worker
        for w, remote in enumerate(self.remotes):
            remote.send(("reset", (self._seeds[w * k : (w + 1) * k], self._options[w * k : (w + 1) * k])))
        results = [remote.recv() for remote in self.remotes]
        obs, reset_infos, masks = zip(*results, strict=True)
        self.reset_infos = [info for chunk in reset_infos for info in chunk]
        self._cached_masks = np.concatenate(masks)
        self._reset_seeds()
        self._reset_options()
        return np.concatenate(obs)

    def close(self) -> None:
        if self.closed:
            return
        if self.waiting:
            for remote in self.remotes:
                remote.recv()
        for remote in self.remotes:
            remote.send(("close", None))
        for process in self.processes:
            process.join()
        for remote in self.remotes:
            remote.close()
        self.closed = True

    # ------------------------------------------------------------------ attributes
    def _split(self, indices: VecEnvIndices) -> dict[int, list[int]]:
        """worker -> local indices, in the order of ``indices``."""
        by_worker: dict[int, list[int]] = {}
        for i in self._get_indices(indices):
            by_worker.setdefault(i // self.per_worker, []).append(i % self.per_worker)
        return by_worker

    def _ask(self, cmd: str, make: Callable[[list[int]], Any], indices: VecEnvIndices) -> list[Any]:
        by_worker = self._split(indices)
        for w, local in by_worker.items():
            self.remotes[w].send((cmd, make(local)))
        out: list[Any] = []
        for w in by_worker:
            out.extend(self.remotes[w].recv())
        return out

    def env_method(self, method_name: str, *method_args: Any, indices: VecEnvIndices = None,
                   **method_kwargs: Any) -> list[Any]:
        if method_name == MASKS and not method_args and not method_kwargs and self._cached_masks is not None:
            return list(self._cached_masks[list(self._get_indices(indices))])
        return self._ask("env_method", lambda local: (method_name, method_args, method_kwargs, local), indices)

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        return self._ask("get_attr", lambda local: (attr_name, local), indices)

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        by_worker = self._split(indices)
        for w, local in by_worker.items():
            self.remotes[w].send(("set_attr", (attr_name, value, local)))
        for w in by_worker:
            self.remotes[w].recv()

    def has_attr(self, attr_name: str) -> bool:
        for remote in self.remotes:
            remote.send(("has_attr", attr_name))
        return all([remote.recv() for remote in self.remotes])

    def env_is_wrapped(self, wrapper_class: type[gym.Wrapper], indices: VecEnvIndices = None) -> list[bool]:
        return self._ask("is_wrapped", lambda local: (wrapper_class, local), indices)

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None] * self.num_envs
