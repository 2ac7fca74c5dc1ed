"""A trained RLlib module as a harness bot, and the graph ``shithead export`` writes for it.

An RLlib checkpoint (``Algorithm.save_to_path``) holds the shared module under
``learner_group/learner/rl_module/shared``; ``load_module`` accepts that
checkpoint or the module's own directory. ``ModuleActor`` is the SB3
``PolicyActor`` with the module's actor path for the logits; the bot kind is
``rllib``: ``make_bot("rllib:runs/<run>/best/checkpoint")`` (option
``deterministic=false`` to sample).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import torch

from train.onnx_policy import MaskedPolicyGraph
from train.policy_bot import PolicyActor, PolicyBot, policy_encoding

MODULE_ID = "shared"  # the one RLModule every seat shares (self-play)
MODULE_PATH = Path("learner_group") / "learner" / "rl_module" / MODULE_ID
ALGORITHM_FILE = "rllib_checkpoint.json"


def is_rllib_checkpoint(path: str | Path) -> bool:
    """Whether ``path`` is an RLlib algorithm checkpoint directory holding the shared module."""
    return (Path(path) / MODULE_PATH).is_dir()


def load_module(path: str | Path) -> Any:
    """The shared module of an RLlib checkpoint (or a module directory), on CPU, in eval mode."""
    from ray.rllib.core.rl_module.rl_module import RLModule

    path = Path(path)
    directory = path / MODULE_PATH if is_rllib_checkpoint(path) else path
    if not directory.is_dir():
        raise ValueError(f"{str(path)!r} is not an RLlib checkpoint (no {MODULE_PATH} in it)")
    module = RLModule.from_checkpoint(directory.resolve())  # Ray reads a relative path as a URI without a scheme
    module.eval()
    return module


class ModuleActor(PolicyActor):
    """``choose(observation, mask, rng)`` of an RLlib module (``MaskedPPOTorchRLModule``)."""

    def __init__(self, module: Any, deterministic: bool = True) -> None:
        self.torch = torch
        self.policy = module
        self.deterministic = deterministic
        self.encoding = policy_encoding(module)

    def logits(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            obs = torch.from_numpy(np.asarray(observation, np.float32).reshape(1, -1))
            logits = self.policy.actor_logits(obs)[0].numpy()
        return np.where(np.asarray(mask, bool), logits, -np.inf)


class RLlibPolicyBot(PolicyBot):
    """An RLlib checkpoint playing one seat; spec ``rllib:<checkpoint dir>[,deterministic=false]``."""

    def __init__(self, path: str, deterministic: bool = True) -> None:
        self.path = path
        self.actor = ModuleActor(load_module(path), deterministic)

    @classmethod
    def from_module(cls, module: Any, deterministic: bool = True) -> RLlibPolicyBot:
        """A bot around a module already in memory (a league snapshot)."""
        bot = cls.__new__(cls)
        bot.path = ""
        bot.actor = ModuleActor(module, deterministic)
        return bot


class ModuleGraph(MaskedPolicyGraph):
    """The export graph (``train.onnx_policy``) with the module's actor path for the raw logits."""

    def raw_logits(self, observation: torch.Tensor) -> torch.Tensor:
        return self.policy.actor_logits(observation)
