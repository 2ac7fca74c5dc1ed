"""How often a field's moves miss the opponent model: the rates agents/model_fit.py's test weighs (a benchmark).

    python benchmarks/model_fit_rates.py --field heuristic --games 100
    python benchmarks/model_fit_rates.py --field "ismcts:sims=600" --games 6 --max-decisions 600
    python benchmarks/model_fit_rates.py --rules harrogate --players 2 --games 30

Plays ``--games`` games with ``--watcher`` in seat 0 and ``--field`` in the others; a ``ModelFit`` of ``--model``
watches from seat 0, exactly as ``guided`` (``opponents=auto``) does, and tests every other seat's move after the
swap where it had a choice (after seat 0 is out too, where the bot's fit stops: the field's rates over whole games).
Prints the share of those moves that miss (no deal explains them; the 95% interval over the games' shares), the
share made while the seat was modelled (its evidence at least even), and at which of a seat's tested moves its first
miss came. ``MODEL_MISS`` and ``OTHER_MISS`` were set from these figures (docs/bots.md).
"""

from __future__ import annotations

import argparse
import statistics

import numpy as np
from tqdm import tqdm

from agents import make_bot
from agents.bench.report import format_interval
from agents.model_fit import HIT_WEIGHT, MISS_WEIGHT, ModelFit
from agents.tournament import interval
from shithead_env import Action, Game


class CountingFit(ModelFit):
    """A ``ModelFit`` that also keeps, per tested move, whether its seat was modelled then and whether it missed."""

    def __init__(self, *args: object) -> None:
        super().__init__(*args)
        self.moves: list[tuple[int, bool, bool]] = []  # seat, modelled before the move, missed

    def __call__(self, game: Game, action: Action) -> None:
        """Every testable move, after seat 0 is out too: the field's rates over whole games."""
        if self.testable(game):
            self.pending.append((game.copy(), action))

    def _test(self, then: Game, action: Action) -> bool | None:
        modelled = self.evidence[then.current] >= 0
        hit = super()._test(then, action)
        if hit is not None:
            self.moves.append((then.current, modelled, not hit))
        return hit


def play(field: str, watcher: str, model: str, games: int, seed: int, rules: str, players: int,
         max_decisions: int | None) -> list[list[tuple[int, bool, bool]]]:
    """Each game's tested moves (``CountingFit.moves``)."""
    seat_bot, field_bot, model_bot = make_bot(watcher), make_bot(field), make_bot(model)
    found = []
    for game_number in tqdm(range(games), unit="game", desc=field):
        game = Game.new(rules, players, seed=seed + game_number, max_decisions=max_decisions)
        fit = CountingFit(None, model_bot, 0, players)
        game.watch(fit)
        rng = np.random.default_rng([seed, game_number])
        while not game.is_over:
            if game.current == 0:
                fit.modelled()
            game.step((seat_bot if game.current == 0 else field_bot).act_game(game, game.current, rng))
        fit.modelled()
        found.append(fit.moves)
    return found


def report(found: list[list[tuple[int, bool, bool]]]) -> str:
    """One line: the miss share [95%], the share made while modelled, and where a seat's first miss came."""
    missed = [miss for game in found for _, _, miss in game]
    per_game = np.array([np.mean([miss for _, _, miss in game]) for game in found if game])
    modelled = np.mean([was for game in found for _, was, _ in game])
    firsts = [_first_miss(game, seat) for game in found for seat in {s for s, _, _ in game}]
    seen = [n for n in firsts if n is not None]
    share = format_interval(vars(interval(per_game, bounds=(0.0, 1.0))), signed=False)
    return (f"{len(found)} games, {len(missed)} tested moves: miss share {np.mean(missed):.4f} (per game "
            f"{share}), made while modelled "
            f"{modelled:.3f}; a seat's first miss at its tested move {statistics.median(seen) if seen else '-'} "
            f"(median; {len(firsts) - len(seen)} of {len(firsts)} seats never missed); weights: miss "
            f"{MISS_WEIGHT:+.2f}, hit {HIT_WEIGHT:+.2f}")


def _first_miss(game: list[tuple[int, bool, bool]], seat: int) -> int | None:
    moves = [miss for s, _, miss in game if s == seat]
    return next((i + 1 for i, miss in enumerate(moves) if miss), None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--field", default="heuristic", help="the bot spec in every seat but 0")
    parser.add_argument("--watcher", default="heuristic", help="the bot spec in seat 0")
    parser.add_argument("--model", default="heuristic", help="the opponent model the moves are tested against")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--rules", default="dead_last")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--max-decisions", type=int, default=None)
    args = parser.parse_args()
    found = play(args.field, args.watcher, args.model, args.games, args.seed, args.rules, args.players,
                 args.max_decisions)
    print(report(found))


if __name__ == "__main__":
    main()
