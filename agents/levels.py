"""Difficulty levels for frontends: ``level:1`` (near random) .. ``level:4`` (the strongest bot measured on the suite).

Each level is a bot spec whose Shithead-Bench ``quick`` score is measured above
the level below it, with 95% intervals that do not overlap (the published
leaderboard, docs/bench.md; a test checks the order). ``shithead serve``
offers them as ``level1`` .. ``level4``, so the browser table and any frontend
can list them; ``shithead play --bots level:2,...`` seats them in the terminal.
"""

from __future__ import annotations

from agents.base import Bot, make_bot

# level -> the bot it plays as; quick v1 suite scores in docs/bench.md
LEVELS: dict[int, str] = {1: "random", 2: "greedy", 3: "heuristic", 4: "model:auto"}


def level_bot(level: str) -> Bot:
    """The bot of difficulty ``level`` (``"1"`` .. ``"4"``)."""
    if not level.isdigit() or int(level) not in LEVELS:
        raise ValueError(f"level must be one of {', '.join(map(str, LEVELS))}, got {level!r}")
    return make_bot(LEVELS[int(level)])
