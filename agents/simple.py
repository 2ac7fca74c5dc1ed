"""Baseline bots: ``random`` and ``greedy``, and the per-rules rank profile other bots share."""

from __future__ import annotations

import functools

import numpy as np

from agents.base import KnowledgeBot
from shithead_env import NUM_ACTIONS, Action, Rules
from shithead_env.cards import NUM_RANKS, RANK_INDEX
from shithead_env.knowledge import Knowledge

# ACTION_RANK[action.index]: the rank index a play or face-up action names, else -1.
ACTION_RANK: tuple[int, ...] = tuple(
    -1 if (a := Action.from_index(i)).rank is None else RANK_INDEX[a.rank] for i in range(NUM_ACTIONS)
)


class RankProfile:
    """How bots rate ranks under one rule set.

    ``magic`` ranks are the ones worth saving: playable on anything or wiping
    the pile (anytime, reset, invisible, burn, joker). ``strength`` orders
    ranks low to high for play; ranks outside ``rank_order`` (power-only) rank
    above every ordered one.
    """

    def __init__(self, rules: Rules) -> None:
        t = rules.tables
        self.tables = t
        self.magic = tuple(
            t.anytime[r] or t.reset[r] or t.invisible[r] or t.burn[r] or t.joker[r] for r in range(NUM_RANKS)
        )
        top = len(rules.rank_order)
        self.strength = tuple(top if t.value[r] is None else t.value[r] for r in range(NUM_RANKS))
        self.num_ordered = top


@functools.lru_cache(maxsize=64)
def rank_profile(rules: Rules) -> RankProfile:
    return RankProfile(rules)


class RandomBot(KnowledgeBot):
    """Uniform over the legal actions."""

    def decide(self, knowledge: Knowledge, rng: np.random.Generator) -> Action:
        legal = knowledge.legal
        return legal[int(rng.integers(len(legal)))]


class GreedyBot(KnowledgeBot):
    """Lowest legal rank with all its copies, magic cards last; plays before pickup or pass.

    In the swap phase the same order puts its lowest cards face up, and it
    nominates the first seat that is not its own.
    """

    def decide(self, knowledge: Knowledge, rng: np.random.Generator) -> Action:
        profile = rank_profile(knowledge.rules)
        seat = knowledge.seat

        def key(action: Action) -> tuple[int, int, int]:
            r = ACTION_RANK[action.index]
            if r >= 0:
                return (0, profile.magic[r] * 100 + profile.strength[r], -action.count)
            if action.kind == "nominate":
                return (1, action.seat == seat, action.seat)
            return (2, 0, 0)

        return min(knowledge.legal, key=key)
