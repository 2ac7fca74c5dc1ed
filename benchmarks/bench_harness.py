"""Harness benchmarks (not tests): heuristic-only games/s on one core, and ISMCTS seconds per move.

    python benchmarks/bench_harness.py [--games 2000] [--ismcts-games 4] [--ismcts ismcts] [--positions 0]

Games/s is measured through the tournament harness itself (one worker,
duplicate deals, dead_last, 4 players); ISMCTS seconds per move counts only
moves with a real choice (forced moves cost no search), in seat 0 of games
against three heuristics. ``--positions N`` also times the search on the
seat-0 choices of N heuristic-only games: the same positions whatever the
search bot does, so two versions of it (or two specs) compare like for like.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents import make_bot
from agents.tournament import TournamentConfig, play_games
from shithead_env import Game


def games_per_second(games: int) -> float:
    config = TournamentConfig("dead_last", ("heuristic",) * 4, games=games, seed=0)
    start = time.perf_counter()
    records = play_games(config, workers=1)
    return len(records) / (time.perf_counter() - start)


def ismcts_seconds_per_move(spec: str, games: int) -> tuple[float, float, int]:
    """(mean, max) seconds per searched move of ``spec`` in seat 0 against three heuristics."""
    bot, other = make_bot(spec), make_bot("heuristic")
    rng = np.random.default_rng(0)
    times: list[float] = []
    for seed in range(games):
        game = Game.new("dead_last", 4, seed=seed)
        while not game.is_over:
            seat = game.current
            if seat == 0 and len(game.legal_actions()) > 1:
                start = time.perf_counter()
                action = bot.act_game(game, seat, rng)
                times.append(time.perf_counter() - start)
            else:
                action = (bot if seat == 0 else other).act_game(game, seat, rng)
            game.step(action)
    return float(np.mean(times)), float(np.max(times)), len(times)


def ismcts_seconds_on_positions(spec: str, games: int) -> tuple[float, float, int]:
    """(mean, max) seconds of ``spec`` deciding seat 0's choices in heuristic-only games (its moves are not played)."""
    bot, other = make_bot(spec), make_bot("heuristic")
    driver_rng = np.random.default_rng(0)  # unused by the deterministic heuristic
    times: list[float] = []
    for seed in range(games):
        game = Game.new("dead_last", 4, seed=1000 + seed)
        while not game.is_over:
            seat = game.current
            if seat == 0 and len(game.legal_actions()) > 1:
                rng = np.random.default_rng([seed, game.decisions])
                start = time.perf_counter()
                bot.act_game(game, seat, rng)
                times.append(time.perf_counter() - start)
            game.step(other.act_game(game, seat, driver_rng))
    return float(np.mean(times)), float(np.max(times)), len(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--ismcts", default="ismcts", help="spec of the search bot to time")
    parser.add_argument("--ismcts-games", type=int, default=4)
    parser.add_argument("--positions", type=int, default=0, help="also time the search on N heuristic-only games")
    args = parser.parse_args()
    print(f"heuristic-only dead_last 4p through the harness: {games_per_second(args.games):.0f} games/s (1 core)")
    mean, worst, moves = ismcts_seconds_per_move(args.ismcts, args.ismcts_games)
    print(f"{args.ismcts}: {mean:.3f} s per searched move (max {worst:.3f} s) over {moves} moves")
    if args.positions:
        mean, worst, moves = ismcts_seconds_on_positions(args.ismcts, args.positions)
        print(f"{args.ismcts} on fixed positions: {mean:.3f} s per move (max {worst:.3f} s) over {moves} positions")


if __name__ == "__main__":
    main()
