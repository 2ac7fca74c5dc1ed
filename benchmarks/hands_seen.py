"""What knowing the other seats' hands would be worth to a search bot: the ceiling of inferring them (a benchmark).

    python benchmarks/hands_seen.py --bot guided --opponent heuristic --games 400 --seed 2026 --workers 2

A search samples the cards its seat cannot see: the other seats' hidden hand cards (dealt or drawn), which public
history narrows (shithead_env/inference.py), and every face-down card and the draw pile, which nobody sees.
Inferring more from how the others played (a seat that played a 9 where a 4 would do likely holds no 4) could
sharpen only the first kind; this script bounds what it could gain. Two arms play the same deals, each in every
seat against ``players - 1`` copies of ``--opponent``: ``--bot`` as it is, and the same bot whose deals hold the
other seats' hands as they are (face-down cards and the draw pile still sampled). It prints compare_bots.py's
table: each arm's score, the second's gain paired by deal, win and loss rates and time a decision.

Both arms are kept in compare_bots.py's ``--cache`` (the plain arm is its arm of the same spec: a line played
there is not played again; ``--cached`` reports without playing). The seeing arm is no bot, since it reads the
hands off the harness's game, which no seat may see: its name is the spec with ``+hands``.
"""

from __future__ import annotations

import argparse
import copy
import functools
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from compare_bots import arm_deals, table
from play_inference import PlayRecorder, SoftNarrowing, inferring, softly_inferring, softly_watched, watched

from agents import make_bot
from agents.base import Bot
from agents.ismcts import ISMCTSBot
from agents.tournament import TournamentConfig, make_bots
from shithead_env import Action, Game, Knowledge
from shithead_env.determinize import Determinizer

SEEING = "+hands"  # the seeing arm's name: the bot's spec with this tail
PLAYS = "+plays"  # the inferring arm's: the bot's spec, this tail and the inference's options


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


def hands_seen(bot: Bot) -> ISMCTSBot:
    """``bot`` (a search bot), whose deals hold the other seats' hands as they are in the game it plays."""
    if not isinstance(bot, ISMCTSBot):
        raise SystemExit(f"hands_seen: --bot must be a search bot (ismcts, guided), got {bot.spec!r}")

    class HandsSeen(type(bot)):  # type: ignore[misc, valid-type]
        def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
            self.hands = game.hands
            return super().act_game(game, seat, rng)

        def _determinizer(self, knowledge: Knowledge) -> Determinizer:
            return HandsSeenDeterminizer(knowledge, self.hands)

    bot.__class__ = HandsSeen
    return bot


def seeing_bots(config: TournamentConfig) -> list[Bot]:
    """The seeing arm's bots (``iter_deals``'s ``make``): the first slot's spec, seeing hands, then the others."""
    first, *others = config.bots
    return [hands_seen(make_bot(first.removesuffix(SEEING))), *map(make_bot, others)]


def inferring_bots(config: TournamentConfig, model: str, agree: float, deals: int) -> list[Bot]:
    """The ``plays`` arm's bots: the first slot's spec inferring from the others' last decisions, which a recorder
    shared with them watches (benchmarks/play_inference.py)."""
    first, *others = config.bots
    recorder = PlayRecorder()
    bot = inferring(make_bot(first.split(PLAYS)[0]), recorder, make_bot(model), agree, deals)
    return [bot, *(watched(make_bot(spec), recorder) for spec in others)]


def softly_inferring_bots(config: TournamentConfig, model: str) -> list[Bot]:
    first, *others = config.bots
    soft = SoftNarrowing(make_bot(model))
    bot = softly_inferring(make_bot(first.split("+history")[0]), soft)
    return [bot, *(softly_watched(make_bot(spec), soft) for spec in others)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bot", default="guided", help="a search bot's spec (ismcts, guided)")
    parser.add_argument("--opponent", default="heuristic")
    parser.add_argument("--rules", default="dead_last")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=400, help="per arm, rounded up to whole deals")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--max-decisions", type=int, default=None)
    parser.add_argument("--cache", default="runs/compare_bots", help="compare_bots.py's: each arm's game records")
    parser.add_argument("--cached", action="store_true", help="play nothing: report the deals both arms have")
    parser.add_argument("--arm", choices=("hands", "plays", "history"), default="hands",
                        help="hands: the other hands seen (the ceiling); plays: inferred from the others' last "
                             "decisions (benchmarks/play_inference.py)")
    parser.add_argument("--model", default="heuristic", help="plays: the opponent model, a bot spec")
    parser.add_argument("--agree", type=float, default=0.9, help="plays: how often the others play as the model")
    parser.add_argument("--deals", type=int, default=600, help="plays: candidate deals weighted each decision")
    args = parser.parse_args()
    hands_seen(make_bot(args.bot))  # a spec that is no search bot fails here, before any game
    if args.arm == "hands":
        second = (args.bot + SEEING, seeing_bots)
    elif args.arm == "history":
        name = f"{args.bot}+history(model={args.model})"
        second = (name, functools.partial(softly_inferring_bots, model=args.model))
    else:
        make_bot(args.model)
        name = f"{args.bot}{PLAYS}(model={args.model},agree={args.agree},deals={args.deals})"
        second = (name, functools.partial(inferring_bots, model=args.model, agree=args.agree, deals=args.deals))
    arms = {}
    for name, make in ((args.bot, make_bots), second):
        bots = (name,) + (args.opponent,) * (args.players - 1)
        config = TournamentConfig(args.rules, bots, args.games, args.seed, max_decisions=args.max_decisions)
        arms[name] = arm_deals(config, args.workers, Path(args.cache), play=not args.cached, make=make)
    print(table(arms, args.rules, args.players, args.opponent, args.seed, args.max_decisions))


if __name__ == "__main__":
    main()
