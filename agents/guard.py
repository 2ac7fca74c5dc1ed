"""A bot that never stops a game: another bot's failures are counted and replaced by a default move.

``shithead bench`` seats the bot under test behind this guard, so one crash,
illegal answer or slow remote move costs that move, not the run. The default
move is ``greedy``'s (the lowest legal rank with all its copies; documented in
docs/bench.md): deterministic, so a rerun replays the same game.
"""

from __future__ import annotations

from collections import Counter

import numpy as np

from agents.base import Bot
from agents.remote import MoveTimeout
from agents.simple import GreedyBot
from shithead_env import Action, Game

FAULTS = ("timeouts", "errors", "illegal")  # the kinds of failed move, as counted in results


class GuardedBot(Bot):
    """``bot``'s moves where it makes a legal one in time; ``greedy``'s otherwise, counted by kind."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.spec = bot.spec
        self.default = GreedyBot()
        self.faults: Counter[str] = Counter()

    def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
        try:
            action = self.bot.act_game(game, seat, rng)
            fault = None if isinstance(action, Action) and action in game.legal_actions() else "illegal"
        except MoveTimeout:
            fault = "timeouts"
        except Exception:  # any failure of the bot's own code or transport costs the move, not the run
            fault = "errors"
        if fault is None:
            return action
        self.faults[fault] += 1
        return self.default.act_game(game, seat, rng)

    def pop_faults(self) -> dict[str, int]:
        """The failed moves since the last call, by kind (``FAULTS``), and start counting afresh."""
        counts = {kind: self.faults[kind] for kind in FAULTS}
        self.faults.clear()
        return counts

    def covers(self, rules: str, players: int) -> bool:
        return self.bot.covers(rules, players)

    def coverage(self) -> str:
        return self.bot.coverage()
