"""Thinking time of search bots per searched move, on the same positions, in one run (a benchmark, not a test).

    python benchmarks/bench_search.py [--bots "ismcts;guided"] [--games 6] [--rules dead_last] [--players 4]

Plays seeded games of heuristic bots and stops at every play- or swap-phase
decision with at least two legal moves; each bot named in ``--bots`` (specs
separated by ';') decides each such position once, timed in CPU seconds of
this process (one core: ONNX Runtime runs one thread). Prints the mean,
median and worst per bot and each bot's mean as a ratio to the first one's.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents import make_bot
from shithead_env import Game, Knowledge


def positions(rules: str, players: int, games: int) -> list[Knowledge]:
    """Every decision with a choice in seeded heuristic games, as the seat to act's Knowledge (of a copy)."""
    heuristic = make_bot("heuristic")
    rng = np.random.default_rng(0)
    found = []
    for seed in range(games):
        game = Game.new(rules, players, seed=seed)
        while not game.is_over:
            if len(game.legal_actions()) > 1:
                found.append(Knowledge.from_game(game.copy(), game.current))  # a Knowledge reads the game it is of
            game.step(heuristic.act_game(game, game.current, rng))
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="ismcts;guided", help="bot specs separated by ';'")
    parser.add_argument("--rules", default="dead_last")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=6, help="heuristic games whose positions are searched")
    args = parser.parse_args()
    specs = [spec.strip() for spec in args.bots.split(";") if spec.strip()]
    bots = [make_bot(spec) for spec in specs]
    found = positions(args.rules, args.players, args.games)
    times: dict[str, list[float]] = {spec: [] for spec in specs}
    for i, knowledge in enumerate(found):
        for spec, bot in zip(specs, bots, strict=True):  # interleaved: load changes hit every bot alike
            rng = np.random.default_rng(i)
            start = time.process_time()
            bot.decide(knowledge, rng)
            times[spec].append(time.process_time() - start)
    reference = statistics.fmean(times[specs[0]])
    table = f"{args.rules}, {args.players} players, {args.games} heuristic games"
    print(f"{len(found)} positions ({table}), CPU s per move")
    print("| bot | mean | median | worst | mean / first bot's |")
    print("|---|---|---|---|---|")
    for spec in specs:
        t = times[spec]
        print(f"| {spec} | {statistics.fmean(t):.3f} | {statistics.median(t):.3f} | {max(t):.3f} | "
              f"{statistics.fmean(t) / reference:.2f} |")


if __name__ == "__main__":
    main()
