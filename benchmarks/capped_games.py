"""Why a line's games ran to the decision cap: each capped game of a cached arm, replayed, with the arm's search
looked at once the game has run ``--at`` decisions (a benchmark).

    python benchmarks/capped_games.py --rules power_deck --players 2 --games 100 --max-decisions 1000 \\
        --arm "guided:opponents=heuristic,sims=600" --cache benchmarks/lines

A search whose best move means well above what the cap would give it now has a won game it does not finish
(docs/bots.md, "Closing out a won game"); one level with the cap or below it holds out for the cap's shared places,
and the cycle is the other seats' to break. For each capped game in ``--cache`` (shithead compare's records of the
arm), prints the arm's first searched move at or after ``--at``: every seat's cards left, the score the cap would
give the arm, and its root's moves by visits with their means. The replay is the recorded game: the look at the
root searches with its own random stream, and the arm's ``ismcts`` or ``guided`` bot then moves as it did.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from agents import make_bot
from agents.base import Bot
from agents.compare import add_line_options, cache_key, line_config, read_records
from agents.ismcts import ISMCTSBot
from agents.tournament import play_game
from shithead_env import Action, Game, Knowledge
from shithead_env.scoring import final_scores


class RootLook(Bot):
    """``bot``, which writes its root's moves once the game has run ``at`` decisions (its first searched move)."""

    def __init__(self, bot: ISMCTSBot, at: int) -> None:
        self.bot = bot
        self.at = at
        self.lines: list[str] = []

    def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
        if not self.lines and game.decisions >= self.at and len(game.legal_actions()) > 1:
            self.lines = describe(self.bot, game, seat)
        return self.bot.act_game(game, seat, rng)


def describe(bot: ISMCTSBot, game: Game, seat: int) -> list[str]:
    """Where ``seat`` stands in ``game`` and its search's root there (moves by visits, with their mean scores)."""
    stats = bot.search(Knowledge.from_game(game, seat), np.random.default_rng(0), bot.modelled_in(game, seat))
    cards = ", ".join(f"{game.cards_left(s)}{'*' if s == seat else ''}" for s in range(game.num_players))
    head = f"decision {game.decisions}: cards left {cards}; the cap gives it {final_scores(game)[seat]:+.3f}"
    moves = sorted(stats.items(), key=lambda item: (-item[1][0], -item[1][1]))
    return [head, *(f"    {action}: {visits} visits, mean {mean:+.3f}" for action, (visits, mean) in moves)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--arm", required=True, help="an ismcts or guided spec whose line is in --cache")
    add_line_options(parser)
    parser.add_argument("--at", type=int, default=500, help="look at the root once the game has run this many "
                        "decisions")
    args = parser.parse_args()

    arm = make_bot(args.arm)
    if not isinstance(arm, ISMCTSBot):
        raise SystemExit(f"capped_games: --arm {args.arm!r} is no search bot (ismcts or guided)")
    config = line_config(args, args.arm)
    path = Path(args.cache) / f"{cache_key(config)}.json"
    capped = [r for r in read_records(path) if r["truncated"] and r["deal"] < config.deals]
    print(f"{len(capped)} capped games in {path}")
    for record in capped:
        look = RootLook(arm, args.at)
        replayed = play_game(config, [look, *map(make_bot, config.bots[1:])], record["deal"], record["rotation"])
        same = (replayed.decisions, replayed.scores) == (record["decisions"], record["scores"])
        print(f"deal {record['deal']}, seat {record['rotation']} (*):", *look.lines or ["never searched after --at"],
              *[] if same else ["    (this replay differs from the record: the bot has changed since it was played)"],
              sep="\n")


if __name__ == "__main__":
    main()
