"""A trained MaskablePPO policy as a bot of the harness, and the actor that self-play snapshots share.

``PolicyActor`` turns an SB3 policy into ``choose(observation, mask, rng) -> int``
(torch on CPU, one decision at a time; the mask is applied outside the
network, as MaskablePPO does) and decides from a seat's ``Knowledge`` like
every bot (``encode_knowledge``: the same vector from a JSON view or straight
off a game). ``PolicyBot`` is the ``agents`` bot around it.

The bot kind is ``policy``: ``make_bot("policy:runs/<run>/best/model.zip")``,
options ``deterministic=false`` to sample (registered in ``agents.base.BOTS``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from agents.base import KnowledgeBot
from shithead_env import Action, Knowledge, encode_knowledge, legal_mask

if TYPE_CHECKING:
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

BOT_KIND = "policy"


def load_policy(path: str | Path) -> MaskableActorCriticPolicy:
    """The policy of a MaskablePPO ``.zip`` (a full model) or of a ``policy.save`` file (a snapshot), on CPU."""
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    path = Path(path)
    if not path.is_file():
        raise ValueError(f"no policy file at {str(path)!r}")
    if path.suffix == ".zip":
        policy = MaskablePPO.load(path, device="cpu").policy
    else:
        policy = MaskableActorCriticPolicy.load(str(path), device="cpu")
    policy.set_training_mode(False)
    return policy


class PolicyActor(KnowledgeBot):
    """``choose(observation, mask, rng)``: the policy's action, most likely or sampled with ``rng``."""

    def __init__(self, policy: MaskableActorCriticPolicy, deterministic: bool = True) -> None:
        import torch

        self.torch = torch
        self.policy = policy
        self.deterministic = deterministic

    def logits(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Masked logits (illegal actions at -inf) for one observation.

        The actor path of the policy (features, policy MLP, action head) called
        directly: the same numbers as ``policy.get_distribution`` without
        building a distribution object per decision.
        """
        torch, policy = self.torch, self.policy
        with torch.no_grad():
            obs = torch.from_numpy(np.asarray(observation, np.float32).reshape(1, -1))
            latent = policy.mlp_extractor.forward_actor(policy.extract_features(obs, policy.pi_features_extractor))
            logits = policy.action_net(latent)[0].numpy()
        return np.where(np.asarray(mask, bool), logits, -np.inf)

    def choose(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        logits = self.logits(observation, mask)
        if self.deterministic:
            return int(np.argmax(logits))
        probs = np.exp(logits - logits.max())
        return int(rng.choice(len(probs), p=probs / probs.sum()))

    def decide(self, knowledge: Knowledge, rng: np.random.Generator) -> Action:
        """The action of the seat to act."""
        return Action.from_index(self.choose(encode_knowledge(knowledge), legal_mask(knowledge), rng))


class PolicyBot(KnowledgeBot):
    """A MaskablePPO ``.zip`` (or a snapshot file) playing one seat; spec ``policy:<path>[,deterministic=false]``."""

    def __init__(self, path: str, deterministic: bool = True) -> None:
        self.path = path
        self.actor = PolicyActor(load_policy(path), deterministic)

    @classmethod
    def from_policy(cls, policy: MaskableActorCriticPolicy, deterministic: bool = True) -> PolicyBot:
        """A bot around a policy already in memory (no file)."""
        bot = cls.__new__(cls)
        bot.path = ""
        bot.actor = PolicyActor(policy, deterministic)
        return bot

    def decide(self, knowledge: Knowledge, rng: np.random.Generator) -> Action:
        return self.actor.decide(knowledge, rng)
