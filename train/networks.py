"""The networks of MaskablePPO runs beyond SB3's MLP: a privileged critic and a factored play head.

**Privileged critic.** Early in a game the public observation explains little
of the outcome (the hands do), so a public-only critic's advantages are mostly
noise. As in PerfectDou and Suphx's oracle guiding, the training observation is
the seat's observation with ``shithead_env.full_state`` appended
(``train.envs.PrivilegedObservation``); ``PrivilegedMlpExtractor`` feeds the
policy network the first ``public_dim`` cells only and the value network all
of them. Only the actor is ever exported or played, so a trained bot takes the
ordinary observation and nothing leaks into play: the bots, the ONNX export and
the league feed it public observations, and ``forward_actor`` ignores any cell
past ``public_dim``.

**Factored play head.** "Play 1 x K" and "play 3 x K" are separate outputs of
SB3's linear head and share nothing; ``FactoredActionHead`` adds a per-rank and
a per-count logit to each play's own, so what is learnt about a rank (or about
playing many copies) carries over to the other counts (ranks).

**Anchor.** ``kl_coef`` fine-tunes a network while penalising KL(policy ||
the network it started from), for a PPO run after expert iteration: PPO
alone drifts away from a distilled policy (docs/design.md).
"""

from __future__ import annotations

import copy
from functools import partial
from typing import Any

import torch
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.type_aliases import Schedule
from torch import nn

from shithead_env.actions import MAX_COPIES, NUM_ACTIONS, PICKUP, PLAY_BASE
from shithead_env.cards import NUM_RANKS


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


class FactoredActionHead(nn.Module):
    """Action logits where play(rank, count) = rank[rank] + count[count] + its own; other actions their own."""

    def __init__(self, latent_dim: int) -> None:
        super().__init__()
        if PLAY_BASE != 0 or PICKUP != NUM_RANKS * MAX_COPIES:
            raise ValueError("the factored head expects the plays first in the action layout")
        self.own = nn.Linear(latent_dim, NUM_ACTIONS)
        self.rank = nn.Linear(latent_dim, NUM_RANKS)
        self.count = nn.Linear(latent_dim, MAX_COPIES)

    def forward(self, latent: torch.Tensor) -> torch.Tensor:
        own = self.own(latent)
        plays = (self.rank(latent).unsqueeze(-1) + self.count(latent).unsqueeze(-2)).flatten(-2)
        return torch.cat([own[..., :PICKUP] + plays, own[..., PICKUP:]], dim=-1)


class ShitheadPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's policy with the two options above.

    ``public_dim``: the critic reads the full state appended after the first
    ``public_dim`` cells, the actor only those (None: both read everything, as
    SB3's). ``factored_actions``: the play head of ``FactoredActionHead``.
    """

    _reference: MaskableActorCriticPolicy | None = None  # the anchor's frozen policy (never a saved submodule)

    def __init__(self, *args: Any, public_dim: int | None = None, factored_actions: bool = False,
                 **kwargs: Any) -> None:
        self.public_dim = public_dim
        self.factored_actions = factored_actions
        self.kl_weight = 0.0
        self.kl_seen: list[float] = []  # the penalised KL of each minibatch since last read (train.callbacks)
        super().__init__(*args, **kwargs)

    def anchor(self, weight: float) -> None:
        """Penalise KL(this policy || a frozen copy of it as it is now) in every later update, ``weight`` times the
        entropy term's coefficient (``kl_coef / ent_coef``). SB3's loss adds ``-ent_coef * mean(entropy)`` and
        has no other per-batch term a policy computes, so ``evaluate_actions`` returns the entropy minus ``weight *
        (KL - KL.detach())``: the entropy's value (and log) unchanged, the KL's gradient added."""
        self._reference = None
        reference = copy.deepcopy(self)
        reference.requires_grad_(False)
        object.__setattr__(self, "_reference", reference)  # not an nn.Module attribute: kept out of state_dict
        self.kl_weight = weight

    def evaluate_actions(self, obs: torch.Tensor, actions: torch.Tensor,
                         action_masks: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor, Any]:
        values, log_prob, entropy = super().evaluate_actions(obs, actions, action_masks)
        if self._reference is None:
            return values, log_prob, entropy
        kl = self.kl_to_reference(obs, action_masks)
        self.kl_seen.append(float(kl.detach().mean()))
        return values, log_prob, entropy - self.kl_weight * (kl - kl.detach())

    def kl_to_reference(self, obs: torch.Tensor, action_masks: Any) -> torch.Tensor:
        """KL(this policy || the anchor's) at each observation, over the legal actions."""
        assert self._reference is not None
        log_p = self.get_distribution(obs, action_masks).distribution.logits
        with torch.no_grad():
            log_q = self._reference.get_distribution(obs, action_masks).distribution.logits
        terms = log_p.exp() * (log_p - log_q)
        if action_masks is not None:  # an illegal action's masked logits are equal in both: 0 * 0, kept exact
            legal = torch.as_tensor(action_masks, dtype=torch.bool, device=log_p.device).reshape(log_p.shape)
            terms = torch.where(legal, terms, torch.zeros_like(terms))
        return terms.sum(dim=-1)

    def _build_mlp_extractor(self) -> None:
        if self.public_dim is None:
            super()._build_mlp_extractor()
            return
        arch = self.net_arch if isinstance(self.net_arch, dict) else {"pi": self.net_arch, "vf": self.net_arch}
        self.mlp_extractor = PrivilegedMlpExtractor(self.features_dim, self.public_dim, arch, self.activation_fn)
        self.mlp_extractor.to(self.device)

    def _build(self, lr_schedule: Schedule) -> None:
        super()._build(lr_schedule)
        if not self.factored_actions:
            return
        self.action_net = FactoredActionHead(self.mlp_extractor.latent_dim_pi).to(self.device)
        if self.ortho_init:  # SB3's small gain for the action head: near-uniform logits at the start
            self.action_net.apply(partial(self.init_weights, gain=0.01))
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    def _get_constructor_parameters(self) -> dict[str, Any]:
        return {**super()._get_constructor_parameters(), "public_dim": self.public_dim,
                "factored_actions": self.factored_actions}
