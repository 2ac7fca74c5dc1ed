"""The torch module that ``shithead export`` turns into ``model.onnx`` (imports torch: load it lazily).

The graph reproduces what sb3-contrib's ``MaskableActorCriticPolicy.get_distribution``
does at play time, step for step, so ONNX Runtime and torch agree:

1. features of the observation (SB3 preprocessing included), actor MLP, ``action_net``
   -> raw logits;
2. ``torch.distributions.Categorical`` normalises them: ``logits - logsumexp(logits)``;
3. ``MaskableCategorical.apply_masking`` replaces illegal entries by ``HUGE_NEG`` (-1e8)
   with ``torch.where`` and the ``Categorical`` constructor normalises again.

Outputs: ``masked_logits`` (the masked distribution's ``logits``, i.e. log-probabilities,
``HUGE_NEG`` on illegal actions) and ``action`` (their argmax, the deterministic action).
"""

from __future__ import annotations

import warnings
from pathlib import Path

import torch
from stable_baselines3.common.policies import BaseModel

# sb3_contrib.common.maskable.distributions.MaskableCategorical: th.tensor(-1e8, dtype=logits.dtype)
HUGE_NEG = -1e8
INPUT_NAMES = ("observation", "action_mask")
OUTPUT_NAMES = ("masked_logits", "action")
OPSET = 17


class MaskedPolicyGraph(torch.nn.Module):
    """(observation batch float32, action-mask batch bool) -> (masked logits, argmax action)."""

    def __init__(self, policy: torch.nn.Module) -> None:
        super().__init__()
        self.policy = policy

    def raw_logits(self, observation: torch.Tensor) -> torch.Tensor:
        """The unmasked ``action_net`` output, exactly as ``get_distribution`` computes it."""
        policy = self.policy
        features = BaseModel.extract_features(policy, observation, policy.pi_features_extractor)
        return policy.action_net(policy.mlp_extractor.forward_actor(features))

    def forward(self, observation: torch.Tensor, action_mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        logits = self.raw_logits(observation)
        logits = logits - logits.logsumexp(dim=-1, keepdim=True)
        masked = torch.where(action_mask.to(torch.bool), logits, HUGE_NEG)
        masked = masked - masked.logsumexp(dim=-1, keepdim=True)
        return masked, masked.argmax(dim=-1)


def export_onnx(policy: torch.nn.Module, observation_size: int, num_actions: int, path: Path,
                graph_class: type[MaskedPolicyGraph] = MaskedPolicyGraph) -> None:
    """Write ``policy`` (an sb3-contrib maskable actor-critic policy, or what ``graph_class`` wraps) as an
    ONNX graph with a dynamic batch."""
    graph = graph_class(policy).eval()
    observation = torch.zeros((1, observation_size), dtype=torch.float32)
    mask = torch.ones((1, num_actions), dtype=torch.bool)
    batch = {0: "batch"}
    with torch.no_grad(), warnings.catch_warnings():
        # The TorchScript exporter (dynamo=False) needs no onnxscript; torch flags it as legacy.
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            graph,
            (observation, mask),
            str(path),
            input_names=list(INPUT_NAMES),
            output_names=list(OUTPUT_NAMES),
            dynamic_axes={name: batch for name in INPUT_NAMES + OUTPUT_NAMES},
            opset_version=OPSET,
            dynamo=False,
        )
