"""``shithead demo``: one game between random bots, printed move by move."""

from __future__ import annotations

import argparse

import numpy as np

from shithead_env.game import Game
from shithead_env.rules import load_rules


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="dead_last", help="preset name or path to a rules YAML file")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true", help="print only the result")


def run(args: argparse.Namespace) -> int:
    game = Game.new(load_rules(args.rules), args.players, seed=args.seed)
    rng = np.random.default_rng(args.seed)
    while not game.is_over:
        seat = game.current_player
        legal = game.legal_actions()
        action = legal[int(rng.integers(len(legal)))]
        game.step(action)
        if not args.quiet:
            print(f"P{seat}: {action}")
            print(game.render())
            print()
    order = " > ".join(f"P{s}" for s in game.finish_order)
    print(f"{'truncated' if game.truncated else 'finished'} after {game.decisions} decisions: {order}")
    return 0
