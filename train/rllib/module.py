"""PPO's default torch RL module with action masking: an illegal action is never sampled.

The env's observation is the PettingZoo dict ``{"observation", "action_mask"}``
(``shithead_env.encoding``). The module builds PPO's default networks on the
``observation`` part alone and, in every forward pass (inference, exploration,
training), replaces the logits of illegal actions by ``FLOAT_MIN`` before RLlib
builds the action distribution, so sampling, log-probabilities, entropy and KL
all see the masked distribution. Follows RLlib's
``examples/rl_modules/classes/action_masking_rlm.py``; unlike it, the batch the
caller passed is never modified in place.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import torch
from ray.rllib.algorithms.ppo.torch.default_ppo_torch_rl_module import DefaultPPOTorchRLModule
from ray.rllib.core.columns import Columns
from ray.rllib.core.models.base import ENCODER_OUT
from ray.rllib.utils.torch_utils import FLOAT_MIN

OBSERVATION = "observation"
ACTION_MASK = "action_mask"


def split_observation(batch: dict[str, Any]) -> tuple[dict[str, Any], torch.Tensor]:
    """(a shallow copy of ``batch`` whose OBS is the observation tensor, the action mask)."""
    obs = batch[Columns.OBS]
    if not isinstance(obs, dict) or OBSERVATION not in obs or ACTION_MASK not in obs:
        raise ValueError(f"the masked module needs observations {{{OBSERVATION!r}, {ACTION_MASK!r}}}, "
                         f"got {type(obs).__name__} {list(obs) if isinstance(obs, dict) else ''}")
    return {**batch, Columns.OBS: obs[OBSERVATION]}, obs[ACTION_MASK]


def mask_logits(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Illegal actions' logits set to ``FLOAT_MIN`` (zero probability, zero gradient)."""
    return torch.where(mask.to(torch.bool), logits, torch.tensor(FLOAT_MIN, dtype=logits.dtype))


class MaskedPPOTorchRLModule(DefaultPPOTorchRLModule):
    """PPO's default torch module on the ``observation`` part of a dict space, masked by its ``action_mask``."""

    def __init__(self, *, observation_space: gymnasium.Space | None = None, **kwargs: Any) -> None:
        if not isinstance(observation_space, gymnasium.spaces.Dict) or {OBSERVATION, ACTION_MASK} - set(
            observation_space.spaces
        ):
            raise ValueError(f"the masked module needs a Dict observation space with {OBSERVATION!r} and "
                             f"{ACTION_MASK!r}, got {observation_space}")
        self.observation_space_with_mask = observation_space
        # The default catalog builds the encoder for the observation alone.
        super().__init__(observation_space=observation_space[OBSERVATION], **kwargs)

    def setup(self) -> None:
        super().setup()
        self.observation_space = self.observation_space_with_mask

    def _forward_inference(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = split_observation(batch)
        return self._masked(super()._forward_inference(inner, **kwargs), mask)

    def _forward_exploration(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = split_observation(batch)
        return self._masked(super()._forward_exploration(inner, **kwargs), mask)

    def _forward_train(self, batch: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
        inner, mask = split_observation(batch)
        return self._masked(super()._forward_train(inner, **kwargs), mask)

    def compute_values(self, batch: dict[str, Any], embeddings: Any = None) -> torch.Tensor:
        if isinstance(batch[Columns.OBS], dict):
            batch, _ = split_observation(batch)
        return super().compute_values(batch, embeddings)

    def actor_logits(self, observation: torch.Tensor) -> torch.Tensor:
        """Unmasked logits of a batch of observations, for export and bots: the actor half of ``_forward``
        (the policy and value networks are separate, so the value network is skipped)."""
        return self.pi(self.encoder.actor_encoder({Columns.OBS: observation})[ENCODER_OUT])

    @staticmethod
    def _masked(out: dict[str, Any], mask: torch.Tensor) -> dict[str, Any]:
        out[Columns.ACTION_DIST_INPUTS] = mask_logits(out[Columns.ACTION_DIST_INPUTS], mask)
        return out
