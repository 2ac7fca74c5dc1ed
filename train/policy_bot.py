"""A trained MaskablePPO policy as a bot of the harness, and the actor that self-play snapshots share.

``PolicyActor`` turns an SB3 policy into ``choose(observation, mask, rng) -> int``
(torch on CPU, one decision at a time; the mask is applied outside the
network, as MaskablePPO does) and decides from a seat's ``Knowledge`` like
every bot (``encode_knowledge``: the same vector from a JSON view or straight
off a game), in the encoding version the policy was trained on
(``policy_encoding``: a version-1 checkpoint is fed version 1). ``PolicyBot``
is the ``agents`` bot around it.

The bot kind is ``policy``: ``make_bot("policy:runs/<run>/best/model.zip")``,
options ``deterministic=false`` to sample (registered as an entry point of ``shithead.bot_kinds``, pyproject.toml).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from agents.base import KnowledgeBot
from shithead_env import Action, Encoding, Knowledge, encoding_for_size, legal_mask

if TYPE_CHECKING:
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

BOT_KIND = "policy"


def load_policy(path: str | Path) -> MaskableActorCriticPolicy:
    """The policy of a MaskablePPO ``.zip`` (a full model) or of a ``policy.save`` file (a snapshot), on CPU; a
    shipped checkpoint is checked against the model registry first (``agents.registry.verified``)."""
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from agents.registry import verified

    try:
        path = verified(path)
    except FileNotFoundError as error:  # a shipped checkpoint that is not installed: the extra to install
        raise ValueError(str(error)) from None
    if not path.is_file():
        raise ValueError(f"no policy file at {str(path)!r}")
    try:
        if path.suffix == ".zip":
            policy = MaskablePPO.load(path, device="cpu").policy
        else:
            policy = MaskableActorCriticPolicy.load(str(path), device="cpu")
    except Exception as error:  # a file that is not a checkpoint fails somewhere inside SB3 or torch's unpickling
        reason = str(error).removeprefix("Error: ")
        raise ValueError(f"{path}: not a MaskablePPO checkpoint ({type(error).__name__}: {reason})") from None
    policy.set_training_mode(False)
    return policy


def policy_encoding(policy: Any) -> Encoding:
    """The observation encoding ``policy`` reads, found from its input size.

    The public part of the input: ``policy.mlp_extractor.public_dim`` when it has one (a
    privileged critic's policy sees more than the actor is fed), else its observation
    space's size (the ``observation`` part of a dict space: an RLlib module). ``ValueError``
    names a size no encoding version has.
    """
    size = getattr(getattr(policy, "mlp_extractor", None), "public_dim", None)
    if size is None:
        space = policy.observation_space
        spaces = getattr(space, "spaces", None)
        if isinstance(spaces, dict) and "observation" in spaces:
            space = spaces["observation"]
        size = space.shape[0]
    return encoding_for_size(int(size))


def actor_logits(policy: MaskableActorCriticPolicy, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Masked logits (illegal actions at -inf) of ``policy`` for one observation.

    The actor path of the policy (features, policy MLP, action head) called
    directly: the same numbers as ``policy.get_distribution`` without building a
    distribution object per decision.
    """
    import torch

    with torch.no_grad():
        obs = torch.from_numpy(np.asarray(observation, np.float32).reshape(1, -1))
        latent = policy.mlp_extractor.forward_actor(policy.extract_features(obs, policy.pi_features_extractor))
        logits = policy.action_net(latent)[0].numpy()
    return np.where(np.asarray(mask, bool), logits, -np.inf)


class PolicyActor(KnowledgeBot):
    """``choose(observation, mask, rng)``: the policy's action, most likely or sampled with ``rng``.

    ``decide`` encodes the seat's ``Knowledge`` in ``encoding``, the version the policy reads.
    """

    def __init__(self, policy: MaskableActorCriticPolicy, deterministic: bool = True) -> None:
        self.policy = policy
        self.deterministic = deterministic
        self.encoding = policy_encoding(policy)

    def logits(self, observation: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Masked logits (illegal actions at -inf) for one observation (``actor_logits``)."""
        return actor_logits(self.policy, observation, mask)

    def choose(self, observation: np.ndarray, mask: np.ndarray, rng: np.random.Generator) -> int:
        logits = self.logits(observation, mask)
        if self.deterministic:
            return int(np.argmax(logits))
        probs = np.exp(logits - logits.max())
        return int(rng.choice(len(probs), p=probs / probs.sum()))

    def decide(self, knowledge: Knowledge, rng: np.random.Generator) -> Action:
        """The action of the seat to act."""
        return Action.from_index(self.choose(self.encoding.encode(knowledge), legal_mask(knowledge), rng))


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
