"""What both environments share: option checks and the rewards of places as they get decided."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shithead_env.game import Game
from shithead_env.rules import Rules, load_rules
from shithead_env.scoring import final_scores, place_values

RulesSpec = str | Path | Rules | dict[str, Any]


def table_rules(rules: RulesSpec, num_players: int, reward: str) -> Rules:
    """Load the rules and fail early on a bad player count or reward scheme."""
    loaded = load_rules(rules)
    loaded.check_players(num_players)
    place_values(num_players, reward)
    return loaded


def decided_rewards(game: Game, scheme: str, paid: int) -> list[tuple[int, float]]:
    """(seat, reward) for each seat whose place got decided since the first ``paid`` places were paid.

    A seat is paid once, when it becomes safe or when the game ends (loser,
    or every unfinished seat at truncation), so the rewards of an episode sum
    to ``final_scores(game, scheme)``.
    """
    finish = game.finish_order
    if game.is_over:
        scores = final_scores(game, scheme)
        done = set(finish[:paid])
        return [(s, scores[s]) for s in range(game.num_players) if s not in done]
    if len(finish) == paid:
        return []
    values = place_values(game.num_players, scheme)
    return [(s, values[place]) for place, s in enumerate(finish[paid:], paid)]
