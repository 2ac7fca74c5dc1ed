"""What the inference from public history buys the determinizer (a benchmark, not a test).

    python benchmarks/bench_inference.py [--rules dead_last] [--players 4] [--games 200] [--samples 20]

Plays seeded games of heuristic bots and, at every decision, samples the
seat to act's determinizations twice: from its ``Knowledge`` and from
``Knowledge.without_inference()`` (the deal that ignores forced pickups and
openings). For every opponent with hidden hand cards it scores the share of
those cards whose rank the sample gets right (multiset overlap with the true
hidden ranks), over all positions and over the positions where public
history narrowed that opponent. It also times one determinization each way,
interleaved, and prints the ratio.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents import make_bot
from shithead_env import Game, Knowledge
from shithead_env.determinize import determinize_knowledge
from shithead_env.inference import hidden_cards


def hidden_ranks(game: Game, seat: int) -> Counter:
    return Counter(card >> 2 for card in hidden_cards(game.hands[seat], game.known[seat]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="dead_last")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--samples", type=int, default=20, help="determinizations per position and way")
    args = parser.parse_args()
    bot = make_bot("heuristic")
    rng = np.random.default_rng(0)
    hits = {"with": [0, 0, 0, 0], "without": [0, 0, 0, 0]}  # right, total; right, total where narrowed
    seconds = {"with": 0.0, "without": 0.0}
    positions = 0
    for seed in range(args.games):
        game = Game.new(args.rules, args.players, seed=seed)
        while not game.is_over:
            seat = game.current
            if game.phase == "play" and len(game.legal_actions()) > 1:
                positions += 1
                knowledge = Knowledge.from_game(game, seat)
                ways = {"with": knowledge, "without": knowledge.without_inference()}
                truth = {s: hidden_ranks(game, s) for s in range(args.players) if s != seat}
                for _ in range(args.samples):
                    for way, k in ways.items():
                        start = time.perf_counter()
                        sample = determinize_knowledge(k, rng)
                        seconds[way] += time.perf_counter() - start
                        for s, true_ranks in truth.items():
                            size = sum(true_ranks.values())
                            if not size:
                                continue
                            right = sum((hidden_ranks(sample, s) & true_ranks).values())
                            tally = hits[way]
                            tally[0] += right
                            tally[1] += size
                            if knowledge.narrowed[s]:
                                tally[2] += right
                                tally[3] += size
            game.step(bot.act_game(game, seat, rng))
    print(
        f"{args.rules}, {args.players} players, {args.games} heuristic games, {positions} positions with a choice, "
        f"{args.samples} samples each way"
    )
    print("| determinizer | hidden hand ranks right | where narrowed | seconds per sample |")
    print("|---|---|---|---|")
    for way, (right, total, right_n, total_n) in hits.items():
        per_sample = seconds[way] / (positions * args.samples)
        print(
            f"| {way} inference | {right / total:.3f} | {right_n / max(total_n, 1):.3f} "
            f"({total_n / max(total, 1):.0%} of hidden cards) | {per_sample * 1e6:.0f} us |"
        )
    print(f"time ratio with/without: {seconds['with'] / seconds['without']:.2f}")


if __name__ == "__main__":
    main()
