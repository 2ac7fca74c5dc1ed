"""Final scores of a game: one definition shared by the environments and the tournament harness."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from shithead_env.game import Game

SCHEMES = ("placement", "loser_only")


def place_values(num_players: int, scheme: str = "placement") -> list[float]:
    """Score of each finishing place, first to last; they sum to zero.

    ``placement``: linear from +1 (first safe) to -1 (the shithead).
    ``loser_only``: -1 for the shithead, the other players share +1.
    """
    if scheme not in SCHEMES:
        raise ValueError(f"unknown reward scheme {scheme!r}: choose one of {SCHEMES}")
    if scheme == "loser_only":
        return [1.0 / (num_players - 1)] * (num_players - 1) + [-1.0]
    return [1.0 - 2.0 * place / (num_players - 1) for place in range(num_players)]


def final_scores(game: Game, scheme: str = "placement") -> list[float]:
    """Per-seat scores once the game is over (zero-sum).

    Seats that became safe get the value of their place. When the decision cap
    truncated the game, the seats still holding cards split the values of the
    places left equally: nobody is ranked by an unfinished race.
    """
    values = place_values(game.num_players, scheme)
    scores = [0.0] * game.num_players
    finished = game.finish_order
    for place, seat in enumerate(finished):
        scores[seat] = values[place]
    unfinished = [s for s in range(game.num_players) if s not in finished]
    if unfinished:
        share = sum(values[len(finished) :]) / len(unfinished)
        for seat in unfinished:
            scores[seat] = share
    return scores


def finished_ahead(a: int | None, b: int | None) -> bool:
    """Did place ``a`` finish ahead of place ``b``? Unfinished (None) seats tie with each other."""
    return a is not None and (b is None or a < b)
