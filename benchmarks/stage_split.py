"""Where a search's edge over a network lies: the network plays, the search takes over in some stages of the game.

Each arm is the bot spec ``stage:stages=S1+S2,search=SPEC,base=SPEC`` (search only in the named stages, the
base network elsewhere), compared with ``shithead compare`` on the same deals, so an arm's
difference from the base (paired by deal) is what searching in those stages is worth. The stages:

- ``swap``: the swap before the first turn;
- ``pile``: play while the draw pile lasts;
- ``hand``: play from the hand once the draw pile is gone;
- ``table``: play from the face-up and face-down cards.

    python benchmarks/stage_split.py --rules dead_last --games 400 --seed 2026 --workers 2 \\
        --arm model:auto --arm "stage:stages=swap" --arm "stage:stages=pile" --arm "stage:stages=hand" \\
        --arm "stage:stages=table"

Every option of ``shithead compare`` applies (the kind is registered in this process; workers fork from it).
"""

from __future__ import annotations

import sys

import numpy as np

from agents import base
from agents.base import Bot, KnowledgeBot, make_bot
from shithead_env import Action, Knowledge, cli
from shithead_env.phases import STAGES


class StageBot(KnowledgeBot):
    """``search`` decides in ``stages`` (names joined by ``+``), ``base`` everywhere else."""

    def __init__(self, stages: str = "swap", search: str = "guided", base: str = "model:auto") -> None:
        self.stages = set(stages.split("+"))
        unknown = self.stages - set(STAGES)
        if unknown:
            raise ValueError(f"stage bot: unknown stage(s) {sorted(unknown)}; choose from {', '.join(STAGES)}")
        self.search: Bot = make_bot(search)
        self.base: Bot = make_bot(base)

    def decide(self, knowledge: Knowledge, rng: np.random.Generator) -> Action:
        bot = self.search if knowledge.stage in self.stages else self.base
        return bot.decide(knowledge, rng)

    def covers(self, rules: str, players: int) -> bool:
        return self.search.covers(rules, players) and self.base.covers(rules, players)


if __name__ == "__main__":
    base.BOTS["stage"] = "__main__:StageBot"
    raise SystemExit(cli.main(["compare", *sys.argv[1:]]))
