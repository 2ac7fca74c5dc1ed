"""``shithead demo``: one game between random bots, narrated from the public events.

By default the output is short: the table once play starts, the first and last
few things that happened, and the result. ``--verbose`` narrates every event
and draws the table (all cards face up) after every decision.
"""

from __future__ import annotations

import argparse

import numpy as np

from shithead_env import events as ev
from shithead_env.game import Game
from shithead_env.phases import SWAP
from shithead_env.render import legend
from shithead_env.rules import load_rules

HEAD, TAIL = 24, 8  # events shown at the start and at the end of a short demo

EXAMPLE = "shithead demo --rules power_deck --players 3 --seed 4 --verbose"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="dead_last", help="preset name or path to a rules YAML file")
    parser.add_argument("--players", type=int, default=4, help="number of seats")
    parser.add_argument("--seed", type=int, default=0, help="deal and bot seed; the same seed replays the same game")
    detail = parser.add_mutually_exclusive_group()
    detail.add_argument("--verbose", action="store_true", help="narrate every event and draw the table after each")
    detail.add_argument("--quiet", action="store_true", help="print only the result")


def run(args: argparse.Namespace) -> int:
    rules = load_rules(args.rules)
    game = Game.new(rules, args.players, seed=args.seed)
    rng = np.random.default_rng(args.seed)
    events = ev.record(game)
    if not args.quiet:
        print(f"powers: {legend(rules)}")
    shown_table = False
    while not game.is_over:
        legal = game.legal_actions()
        start = len(events)
        game.step(legal[int(rng.integers(len(legal)))])
        if args.verbose:
            for event in events[start:]:
                print(ev.describe(event.for_seat(None)))
            print(game.render(), end="\n\n")
        elif not args.quiet and not shown_table and game.phase != SWAP:
            print(game.render(), end="\n\n")
            shown_table = True
    if not args.verbose and not args.quiet:
        lines = [ev.describe(event.for_seat(None)) for event in events if event.kind != "face_up"]
        if len(lines) > HEAD + TAIL:
            lines[HEAD:-TAIL] = [f"... {len(lines) - HEAD - TAIL} more events (--verbose shows them all) ..."]
        print("\n".join(lines))
        print()
        print(game.render(), end="\n\n")
    order = " > ".join(f"P{s}" for s in game.finish_order)
    print(f"{'truncated' if game.truncated else 'finished'} after {game.decisions} decisions: {order}")
    return 0
