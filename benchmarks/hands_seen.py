"""What knowing the other seats' hands would be worth to a search bot: the ceiling of inferring them (a benchmark).

    python benchmarks/hands_seen.py --bot guided --opponents heuristic --games 400 --seed 2026 --workers 2

A search samples the cards its seat cannot see: the other seats' hidden hand cards (dealt or drawn), which public
history narrows (shithead_env/inference.py), and every face-down card and the draw pile, which nobody sees.
Inferring more from how the others played (a seat that played a 9 where a 4 would do likely holds no 4) could
sharpen only the first kind; this script bounds what it could gain. Two arms play the same deals, each in every
seat against ``players - 1`` copies of ``--opponents``: ``--bot`` as it is, and the same bot whose deals hold the
other seats' hands as they are (face-down cards and the draw pile still sampled). It prints shithead compare's
table: each arm's score, the second's gain paired by deal, win and loss rates and time a decision.

``--arm history`` plays, as the second arm, what one inference from play recovers of that ceiling: the bot whose
deals fit a soft narrowing of the other hands by every decision they made, had they played as ``--model``
(benchmarks/play_inference.py; its name is the spec with ``+history(model=...)``).

Both arms are kept in shithead compare's ``--cache`` (the plain arm is its arm of the same spec: a line played
there is not played again; ``--cached`` reports without playing). The seeing arm is no bot, since it reads the
hands off the harness's game, which no seat may see: its name is the spec with ``+hands``.
"""

from __future__ import annotations

import argparse
import copy
import functools
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from play_inference import SoftDeterminizer, SoftNarrowing

from agents import make_bot
from agents.base import Bot
from agents.compare import add_line_options, arm_deals, field, line_config, table
from agents.ismcts import ISMCTSBot
from agents.tournament import TournamentConfig, make_bots
from shithead_env import Action, Game, Knowledge
from shithead_env.determinize import Determinizer

SEEING = "+hands"  # the seeing arm's name: the bot's spec with this tail
HISTORY = "+history"  # the inferring arm's: the bot's spec, this tail and the model


class HandsSeenDeterminizer(Determinizer):
    """Deals the other seats' hands as they are; the face-down cards and the draw pile from the cards left."""

    def __init__(self, knowledge: Knowledge, hands: Sequence[Sequence[int]]) -> None:
        seen = copy.copy(knowledge)
        seen.known = [list(hand) if s != knowledge.seat else knowledge.known[s] for s, hand in enumerate(hands)]
        seen.narrowed = [[] for _ in hands]
        super().__init__(seen)
        # The sampled games keep what the table has seen, so the other seats' own views (the tree's model of their
        # play) are as in the real game.
        self.public["known"], self.public["narrowed"] = knowledge.known, knowledge.narrowed


def dealing(bot: Bot, read: Callable[[Game], Any], deal: Callable[[Knowledge, Any], Determinizer]) -> ISMCTSBot:
    """``bot`` (a search bot), whose search deals from ``deal(knowledge, read(game))``: ``read`` takes what the arm
    needs off the harness's game before each decision."""
    if not isinstance(bot, ISMCTSBot):
        raise SystemExit(f"hands_seen: --bot must be a search bot (ismcts, guided), got {bot.spec!r}")

    class Dealing(type(bot)):  # type: ignore[misc, valid-type]
        def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
            self.read = read(game)
            return super().act_game(game, seat, rng)

        def _determinizer(self, knowledge: Knowledge) -> Determinizer:
            return deal(knowledge, self.read)

    bot.__class__ = Dealing
    return bot


def hands_seen(bot: Bot) -> ISMCTSBot:
    """``bot`` (a search bot), whose deals hold the other seats' hands as they are in the game it plays."""
    return dealing(bot, lambda game: game.hands, HandsSeenDeterminizer)


def seeing_bots(config: TournamentConfig) -> list[Bot]:
    """The seeing arm's bots (``iter_deals``'s ``make``): the first slot's spec, seeing hands, then the others."""
    first, *others = config.bots
    return [hands_seen(make_bot(first.removesuffix(SEEING))), *map(make_bot, others)]


def inferring_bots(config: TournamentConfig, model: str) -> list[Bot]:
    """The ``history`` arm's bots: the first slot's spec, whose deals fit the others' soft narrowing, which every
    decision of theirs feeds (benchmarks/play_inference.py)."""
    first, *others = config.bots
    soft = SoftNarrowing(make_bot(model))

    def read(game: Game) -> list[list[int]]:
        soft.update(game)
        return soft.masks

    return [dealing(make_bot(first.split(HISTORY)[0]), read, SoftDeterminizer),
            *(watched(make_bot(spec), soft) for spec in others)]


def watched(bot: Bot, soft: SoftNarrowing) -> Bot:
    """``bot``, whose every decision ``soft`` reads."""

    class Watched(type(bot)):  # type: ignore[misc, valid-type]
        def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
            action = super().act_game(game, seat, rng)
            soft.chose(game, seat, action)
            return action

    bot.__class__ = Watched
    return bot


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="guided", help="a search bot's spec (ismcts, guided)")
    add_line_options(parser)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--cached", action="store_true", help="play nothing: report the deals both arms have")
    parser.add_argument("--arm", choices=("hands", "history"), default="hands",
                        help="hands: the other hands seen (the ceiling); history: inferred from the others' decisions "
                             "(benchmarks/play_inference.py)")
    parser.add_argument("--model", default="heuristic", help="history: the opponent model, a bot spec")
    args = parser.parse_args()
    hands_seen(make_bot(args.bot))  # a spec that is no search bot fails here, before any game
    if args.arm == "hands":
        second = (args.bot + SEEING, seeing_bots)
    else:
        make_bot(args.model)
        second = (f"{args.bot}{HISTORY}(model={args.model})", functools.partial(inferring_bots, model=args.model))
    arms = {name: arm_deals(line_config(args, name), args.workers, Path(args.cache), play=not args.cached, make=make)
            for name, make in ((args.bot, make_bots), second)}
    others = field(args.opponents, args.players)
    print(table(arms, args.rules, args.players, others, args.seed, args.max_decisions))


if __name__ == "__main__":
    main()
