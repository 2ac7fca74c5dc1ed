"""The network of MaskablePPO runs with a privileged critic, beyond SB3's MLP.

Early in a game the public observation explains little
of the outcome (the hands do), so a public-only critic's advantages are mostly
noise. As in PerfectDou and Suphx's oracle guiding, the training observation is
the seat's observation with ``shithead_env.full_state`` appended
(``train.envs.PrivilegedObservation``); ``PrivilegedMlpExtractor`` feeds the
policy network the first ``public_dim`` cells only and the value network all
of them. Only the actor is ever exported or played, so a trained bot takes the
ordinary observation and nothing leaks into play: the bots, the ONNX export and
the league feed it public observations, and ``forward_actor`` ignores any cell
past ``public_dim``.
"""

from __future__ import annotations

from typing import Any

import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from torch import nn


def _mlp(in_dim: int, widths: list[int], activation: type[nn.Module]) -> tuple[nn.Sequential, int]:
    layers: list[nn.Module] = []
    for width in widths:
        layers += [nn.Linear(in_dim, width), activation()]
        in_dim = width
    return nn.Sequential(*layers), in_dim


class PrivilegedMlpExtractor(nn.Module):
    """SB3's ``MlpExtractor`` with a policy network over the first ``public_dim`` features only."""

    def __init__(self, feature_dim: int, public_dim: int, net_arch: dict[str, list[int]],
                 activation_fn: type[nn.Module]) -> None:
        super().__init__()
        if not 0 < public_dim < feature_dim:
            raise ValueError(f"public_dim {public_dim} must be between 0 and the feature size {feature_dim}")
        self.public_dim = public_dim
        self.policy_net, self.latent_dim_pi = _mlp(public_dim, net_arch["pi"], activation_fn)
        self.value_net, self.latent_dim_vf = _mlp(feature_dim, net_arch["vf"], activation_fn)

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        return self.policy_net(features[..., : self.public_dim])

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return self.value_net(features)


class ShitheadPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's policy with a privileged critic: the critic reads the full state appended after the first
    ``public_dim`` cells, the actor only those."""

    def __init__(self, *args: Any, public_dim: int, **kwargs: Any) -> None:
        self.public_dim = public_dim
        super().__init__(*args, **kwargs)

    def _build_mlp_extractor(self) -> None:
        arch = self.net_arch if isinstance(self.net_arch, dict) else {"pi": self.net_arch, "vf": self.net_arch}
        self.mlp_extractor = PrivilegedMlpExtractor(self.features_dim, self.public_dim, arch, self.activation_fn)
        self.mlp_extractor.to(self.device)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {**super()._get_constructor_parameters(), "public_dim": self.public_dim}
