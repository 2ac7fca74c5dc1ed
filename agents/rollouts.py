"""Games played out to their end in lockstep, one seat's moves asked of its bot in one batch per step.

The leaves of ``lookahead:rollout=SPEC``: each sampled game after a candidate
move is played on by ``SPEC`` in the searching seat and by the ``opponents``
bot in the others, and the seat's final score is the move's value on that
sample. Stepping every game once per pass lets a network answer all of the
searching seat's positions in one call (``Bot.act_games``), which is what
makes thousands of rollouts a move affordable.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from agents.base import Bot
from shithead_env import Game
from shithead_env.scoring import final_scores


def play_out(games: Sequence[Game], seat: int, player: Bot, others: Bot, rng: np.random.Generator,
             horizon: int) -> np.ndarray:
    """Play each game to its end, or ``horizon`` more decisions (then the places left are split): ``seat``'s
    moves by ``player``, the other seats' by ``others``, forced moves without asking. ``seat``'s final scores."""
    for game in games:
        game.max_decisions = min(game.max_decisions, game.decisions + horizon)
    live = [game for game in games if not game.is_over]
    while live:
        asked = []
        for game in live:
            legal = game.legal_actions()
            if len(legal) == 1:
                game.step(legal[0])
            elif game.current == seat:
                asked.append(game)
            else:
                game.step(others.act_game(game, game.current, rng))
        for game, action in zip(asked, player.act_games(asked, seat, rng), strict=True):
            game.step(action)
        live = [game for game in live if not game.is_over]
    return np.array([final_scores(game)[seat] for game in games])
