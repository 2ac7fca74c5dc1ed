"""Difficulty levels for frontends: ``level:1`` (near random) .. ``level:5`` (the strongest bot measured on the suite).

Each level is a bot spec whose Shithead-Bench ``quick`` score is measured above
the level below it, with 95% intervals that do not overlap (the published
leaderboard, docs/bench.md; a test checks the order). ``shithead serve``
offers them under those names, so the browser table and any frontend
can list them; ``shithead play --opponents "level:2;level:3"`` seats them in the terminal.

Level 5 is a search, which needs a value network for the table: the shipped ones
cover every table the presets allow. At a table without
one (a preset added, a network withdrawn) it plays as level 4 (``FALLS_BACK``),
so a frontend may offer it wherever level 4 plays.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from agents.base import Bot, KnowledgeBot, make_bot
from agents.onnx_bot import describe_tables, merge_tables, networks_of, table_networks
from shithead_env import Action, Game, Knowledge

# level -> the bot it plays as; quick v1 suite scores in docs/bench.md
# The search, the seats that play like heuristic modelled: about 35 ms a move.
TOP = "guided:sims=300,opponents=auto"
LEVELS: dict[int, str] = {1: "random", 2: "greedy", 3: "heuristic", 4: "model:auto", 5: TOP}
FALLS_BACK = {5: 4}  # level -> the level it plays as at a table its own bot is not made for


class FallbackBot(KnowledgeBot):
    """``first`` at the tables it covers, ``second`` at the others: one bot for the union of their tables."""

    def __init__(self, first: Bot, second: Bot) -> None:
        self.first, self.second = first, second
        first_tables = first.tables  # type: ignore[attr-defined]
        self.tables = merge_tables([first_tables, second.tables])  # type: ignore[attr-defined]
        self.rules = tuple(self.tables)
        self.card: dict[str, Any] = {
            "kind": "fallback",
            "rules": list(self.rules),
            "tables": self.tables,
            "plays": {"first": {"spec": first.spec, "tables": first_tables}, "elsewhere": second.spec},
            "networks": networks_of((first, second)),
        }

    def bot_at(self, rules: str, players: int) -> Bot:
        return self.first if self.first.covers(rules, players) else self.second

    def bot_for(self, knowledge: Knowledge) -> Bot:
        return self.bot_at(knowledge.rules.name, knowledge.num_players)

    def policy(self, knowledge: Knowledge, rng: np.random.Generator) -> tuple[Action, np.ndarray]:
        return self.bot_for(knowledge).policy(knowledge, rng)  # type: ignore[attr-defined]

    def decide(self, knowledge: Knowledge, rng: np.random.Generator) -> Action:
        return self.bot_for(knowledge).decide(knowledge, rng)

    def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
        """The covering bot's own fast path: one that reads the live game (``watch``) reads it here too."""
        return self.bot_at(game.rules.name, game.num_players).act_game(game, seat, rng)

    def covers(self, rules: str, players: int) -> bool:
        return self.first.covers(rules, players) or self.second.covers(rules, players)

    def networks_at(self, rules: str, players: int) -> dict[str, str]:
        return table_networks(self.bot_at(rules, players), rules, players)

    def coverage(self) -> str:
        return describe_tables(self.tables)


def level_bot(level: str) -> Bot:
    """The bot of difficulty ``level`` (``"1"`` .. ``"5"``)."""
    if not level.isdigit() or int(level) not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(map(str, LEVELS))}, got {level!r}")
    bot = make_bot(LEVELS[int(level)])
    below = FALLS_BACK.get(int(level))
    return bot if below is None else FallbackBot(bot, level_bot(str(below)))
