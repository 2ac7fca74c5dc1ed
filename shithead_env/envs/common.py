"""What the environments share: option checks, the text render, and the rewards of places as they get decided."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from shithead_env.game import Game
from shithead_env.render import render_game
from shithead_env.rules import Rules, load_rules
from shithead_env.scoring import final_scores, place_values

RulesSpec = str | Path | Rules | dict[str, Any]
RENDER_MODES = ["human", "ansi"]  # every env's metadata["render_modes"]


def check_render_mode(render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode must be one of {RENDER_MODES}, got {render_mode!r}")


def render_table(game: Game, seat: int | None, render_mode: str | None) -> str | None:
    """``render()`` of every env: the text table from ``seat``, returned (``ansi``) or printed (``human``)."""
    if render_mode is None:
        import gymnasium

        gymnasium.logger.warn("render() called without a render_mode; pass render_mode='human' or 'ansi'")
        return None
    text = render_game(game, seat)
    if render_mode == "ansi":
        return text
    print(text)
    return None


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
