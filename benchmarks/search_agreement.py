"""How often searches choose the same move: each with itself under another seed, and with each other (a benchmark).

    python benchmarks/search_agreement.py --bots "guided:root=ucb;guided;guided:sims=4800" [--seeds 2] [--games 2]

A search that agrees with itself on few positions is noise-limited: its move
depends on which deals it happened to sample, and a bigger budget or a less
noisy use of it should raise the figure. The positions are
``bench_search.py``'s (every decision with a choice in seeded ``heuristic``
games); each bot decides each once per seed. Prints, for each bot, its CPU
seconds a move, the share of positions where two of its seeds chose alike,
and its agreement with every bot (over all their pairs of seeds), each share
with a 95% interval over positions.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_search import positions

from agents import make_bot
from agents.bench.report import format_interval
from agents.tournament import interval
from shithead_env import Action


def share(pairs: list[tuple[list[Action], list[Action]]]) -> str:
    """The share of positions where the two runs of each pair chose alike, with a 95% interval over positions (a
    position's agreement, averaged over the pairs, is one observation)."""
    per_position = np.mean([[a == b for a, b in zip(x, y, strict=True)] for x, y in pairs], axis=0)
    return format_interval(vars(interval(per_position, bounds=(0.0, 1.0))), signed=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bots", default="guided:root=ucb;guided", help="bot specs separated by ';'")
    parser.add_argument("--rules", default="dead_last")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=2, help="heuristic games whose positions are searched")
    parser.add_argument("--seeds", type=int, default=2, help="runs of each bot, each with its own seed (>= 2)")
    args = parser.parse_args()
    if args.seeds < 2:
        parser.error(f"--seeds must be at least 2 (a bot's agreement with itself), got {args.seeds}")
    specs = [spec.strip() for spec in args.bots.split(";") if spec.strip()]
    bots = [make_bot(spec) for spec in specs]
    found = positions(args.rules, args.players, args.games)
    moves: dict[str, list[list[Action]]] = {spec: [] for spec in specs}
    seconds: dict[str, float] = dict.fromkeys(specs, 0.0)
    for spec, bot in zip(specs, bots, strict=True):
        for seed in range(args.seeds):
            start = time.process_time()
            moves[spec].append([bot.decide(k, np.random.default_rng([seed, i])) for i, k in enumerate(found)])
            seconds[spec] += time.process_time() - start
            print(f"{spec}, seed {seed}: done", file=sys.stderr, flush=True)
    print(f"{len(found)} positions ({args.rules}, {args.players} players, {args.games} heuristic games), "
          f"{args.seeds} seeds a bot; shares of positions with the same move [95%]")
    print("| bot | CPU s a move | with itself | " + " | ".join(f"with `{spec}`" for spec in specs) + " |")
    print("|---|---|---|" + "---|" * len(specs))
    for spec in specs:
        itself = share(list(itertools.combinations(moves[spec], 2)))
        cells = ["" if other == spec else share(list(itertools.product(moves[spec], moves[other]))) for other in specs]
        per_move = seconds[spec] / (args.seeds * len(found))
        print(f"| `{spec}` | {per_move:.3f} | {itself} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
