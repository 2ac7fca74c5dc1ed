"""``lookahead``: every legal move scored by a full-state value network over sampled deals, one ply deep.

For each of ``samples`` determinizations (the unseen cards dealt consistently
with what the seat knows, the inference from public history included) every
legal move is played and the game after it scored by the value network
(``agents.value_net``: each seat's expected placement when every seat plays on
as the bots it learned from); a move that ends the game is scored exactly.
A move's value is its mean over the samples, every move seeing the same
samples (common random numbers: the comparison between two moves is far less
noisy than either value). The move played is the best mean.

Why one ply and not a tree: the value network already plays the game out as
its bots would, and those bots, unlike a determinized tree's opponents, do not
see the sampled cards; so one ply is exact policy improvement over the network's
players (up to its error and the sampling), with no strategy fusion, and every
move gets a value rather than the few a tree visits often. It is also cheap:
all ``samples x moves`` positions go to the network in one batch.

With ``rollout=SPEC`` a sampled game after a move is not scored by the value
network but played out to its end (``agents.rollouts``): the searching seat by
the bot ``SPEC`` (``model:auto``: the network, all rollouts' positions in one
batch), the other seats by ``opponents`` (``heuristic``). The move played is
then one step of policy improvement over ``SPEC`` itself (Tesauro and Galperin
1996): better than ``SPEC`` wherever the samples can tell the moves apart, and
measured where the network loses most to a search, the hand once the draw pile
is gone (docs/bots.md).

``policy`` returns a softmax of the move values at ``policy_temp`` (the
browser's hint, expert-iteration targets) and ``search`` the values
themselves; ``temperature`` > 0 samples the played move from that softmax at
``temperature`` instead (self-play data). ``precision=int8`` scores with the
value networks' int8 copies (``agents.value_net``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.base import KnowledgeBot, make_bot
from agents.onnx_bot import table_networks
from agents.rollouts import play_out
from agents.value_net import DEFAULT_PRECISION, DEFAULT_VALUE, load_values
from shithead_env import NUM_ACTIONS, Action, Game, Knowledge
from shithead_env.determinize import Determinizer
from shithead_env.scoring import final_scores


class LookaheadBot(KnowledgeBot):
    """One-ply lookahead over sampled deals with a full-state value network (module doc)."""

    def __init__(
        self,
        samples: int = 32,
        value: str = DEFAULT_VALUE,
        policy_temp: float = 0.05,
        temperature: float = 0.0,
        infer: bool = True,
        rollout: str = "",
        opponents: str = "heuristic",
        horizon: int = 300,
        precision: str = DEFAULT_PRECISION,
    ) -> None:
        if samples < 1 or policy_temp <= 0 or temperature < 0 or horizon < 1:
            raise ValueError(
                "lookahead needs samples >= 1, policy_temp > 0, temperature >= 0 and horizon >= 1, "
                f"got {samples}, {policy_temp}, {temperature}, {horizon}"
            )
        if rollout and value != DEFAULT_VALUE:
            raise ValueError("lookahead: give value or rollout, not both (a rollout plays the game out instead of "
                             "scoring it with a value network)")
        if rollout and precision != DEFAULT_PRECISION:
            raise ValueError("lookahead: precision is the value network's; a rollout plays the game out instead")
        if not rollout and (opponents != "heuristic" or horizon != 300):
            raise ValueError("lookahead: opponents and horizon shape the rollouts; they need rollout=SPEC")
        self.samples = samples
        self.policy_temp = policy_temp
        self.temperature = temperature
        self.infer = infer
        self.horizon = horizon
        self.card: dict[str, Any] = {"name": "lookahead", "kind": "search"}
        if rollout:
            self.value = None
            self.player, self.others = make_bot(rollout), make_bot(opponents)
            self.card |= {"rollout": rollout, "opponents": opponents, "horizon": horizon}
        else:
            self.value = load_values(value, precision=precision)
            self.tables = self.value.tables
            self.card |= {"value": self.value.name, "tables": self.tables, "networks": self.value.networks}
            self.card |= {} if precision == DEFAULT_PRECISION else {"precision": precision}

    def covers(self, rules: str, players: int) -> bool:
        if self.value is None:
            return self.player.covers(rules, players) and self.others.covers(rules, players)
        return self.value.covers(rules, players)

    def networks_at(self, rules: str, players: int) -> dict[str, str]:
        if self.value is None:
            return table_networks(self.player, rules, players) | table_networks(self.others, rules, players)
        return self.value.networks_at(rules, players)

    def coverage(self) -> str:
        if self.value is None:
            return f"{self.player.coverage()} (its rollout bot's tables)"
        return f"{self.value.coverage()} (its value network's tables)"

    def search(self, knowledge: Knowledge, rng: np.random.Generator) -> dict[Action, tuple[int, float]]:
        """Each legal move's (samples, mean score for the seat) over ``samples`` determinizations."""
        if not self.infer:
            knowledge = knowledge.without_inference()
        seat, legal = knowledge.seat, knowledge.legal
        determinizer = Determinizer(knowledge)
        totals = np.zeros(len(legal))
        live: list[Game] = []
        slots: list[int] = []  # the move each live game is the child of
        for _ in range(self.samples):
            game = determinizer.sample(rng)
            for i, action in enumerate(legal):
                child = game.copy()
                child.step(action)
                if child.is_over:
                    totals[i] += final_scores(child)[seat]
                else:
                    live.append(child)
                    slots.append(i)
        if self.value is None:
            values = play_out(live, seat, self.player, self.others, rng, self.horizon)
        else:
            values = np.array([scores[seat] for scores in self.value.scores(live)])
        np.add.at(totals, slots, values)
        return {action: (self.samples, float(totals[i] / self.samples)) for i, action in enumerate(legal)}

    def policy(self, knowledge: Knowledge, rng: np.random.Generator) -> tuple[Action, np.ndarray]:
        """The move (best mean, or drawn at ``temperature``) and a softmax of the move values at ``policy_temp``."""
        probs = np.zeros(NUM_ACTIONS)
        legal = knowledge.legal
        if len(legal) == 1:
            probs[legal[0].index] = 1.0
            return legal[0], probs
        stats = self.search(knowledge, rng)
        means = np.array([stats[a][1] for a in legal])
        probs[[a.index for a in legal]] = _softmax(means / self.policy_temp)
        if self.temperature:
            return legal[int(rng.choice(len(legal), p=_softmax(means / self.temperature)))], probs
        return legal[int(np.argmax(means))], probs

    def decide(self, knowledge: Knowledge, rng: np.random.Generator) -> Action:
        return self.policy(knowledge, rng)[0]


def _softmax(logits: np.ndarray) -> np.ndarray:
    weights = np.exp(logits - logits.max())
    return weights / weights.sum()
