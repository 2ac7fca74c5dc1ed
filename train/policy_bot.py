"""A trained MaskablePPO policy as a bot of the harness, and the actor that self-play snapshots share.

``PolicyActor`` turns an SB3 policy into ``choose(observation, mask, rng) -> int``
(torch on CPU, one decision at a time; the mask is applied outside the
network, as MaskablePPO does). ``PolicyBot`` is the ``agents`` bot around it:
``act_game`` encodes the seat's observation straight off the game (the
harness's fast path), ``act`` rebuilds a game from the JSON view with
``determinize`` (the observation only depends on what the seat knows, so any
sample gives the same vector).

The bot kind is ``policy``: ``make_bot("policy:runs/<run>/best/model.zip")``,
options ``deterministic=false`` to sample (registered in ``agents.base.BOTS``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from agents.base import Bot
from shithead_env import Action, Game, action_mask, encode_observation
from shithead_env.determinize import determinize

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


class PolicyActor:
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

    def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
        """The action of ``seat`` (which must be the one to act), read straight off the game."""
        return Action.from_index(self.choose(encode_observation(game, seat), action_mask(game, seat), rng))


class PolicyBot(Bot):
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

    def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
        return self.actor.act_game(game, seat, rng)

    def act(self, view: Mapping[str, Any], rng: np.random.Generator) -> Action:
        return self.actor.act_game(determinize(view, rng), int(view["seat"]), rng)
