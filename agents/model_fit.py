"""Which other seats play like the opponent model: a test of each seat's moves, from one seat's view.

A search that has the other seats play ``heuristic`` in its tree (``opponents=heuristic``) gains most against
``heuristic``-like play and loses against a field it does not model, where searching their choices is the better
model (docs/bots.md). ``ModelFit`` tells the two apart as the game goes. It watches the live game
(``Game.watch``) and keeps every other seat's move where that seat had a choice after the swap. At its seat's
next turn it asks of each: would the model have made that move on any of ``samples`` deals of what this seat knew
then? Each deal is drawn as a search draws its deals (``Determinizer``), with the cards the move laid from the hand
placed in it: they are public once laid, and a deal without them could not make the move. A move no deal explains
is a miss: 0.03% of ``heuristic``'s moves are misses, against two thirds of ``ismcts:sims=600``'s
(``MODEL_MISS``, ``OTHER_MISS``; docs/bots.md, "Knowing the field from its play"). A seat is modelled while its
misses and hits are likelier under the model's miss rate than under the other's: one miss outweighs about six
hits, so a seat that plays otherwise is searched from its first miss, and a model seat's rare miss is forgiven.

What it reads is what the watching seat may know (``Knowledge.from_game`` of that seat) and the moves, which are
public. It sees the moves made after the bot first acts in the game; a bot asked through ``decide`` (a view, no
live game) has no moves to read and models every seat.
"""

from __future__ import annotations

import copy
import math
import threading
from collections import Counter

import numpy as np

from agents.base import Bot
from shithead_env import Action, Game, Knowledge
from shithead_env.cards import rank_index
from shithead_env.determinize import Determinizer
from shithead_env.inference import lay_hidden
from shithead_env.phases import SWAP

MODEL_MISS = 0.01  # a model seat's share of moves no deal explains (0.0003 measured for heuristic; a margin)
OTHER_MISS = 0.5  # another player's (0.66 measured for ismcts:sims=600, 0.70 for random)
SAMPLES = 32  # deals asked per move; a hit stops early, so a model seat's move costs about one
MISS_WEIGHT = math.log(MODEL_MISS / OTHER_MISS)
HIT_WEIGHT = math.log((1 - MODEL_MISS) / (1 - OTHER_MISS))


class ModelFit:
    """The test of every other seat's moves against ``model``, from ``seat``'s view (module doc).

    Attached to one live game by ``fit_for``; ``modelled()`` at the seat's turn tests the moves made since.
    """

    def __init__(self, owner: object, model: Bot, seat: int, players: int, samples: int = SAMPLES) -> None:
        self.owner = owner
        self.model = model
        self.seat = seat
        self.others = [s for s in range(players) if s != seat]
        self.samples = samples
        self.rng = np.random.default_rng(seat)  # its own stream: the bot's search draws as it would without it
        self.pending: list[tuple[Game, Action]] = []
        self.evidence: Counter[int] = Counter()  # per seat: the log-likelihood ratio, model against other
        self.misses: Counter[int] = Counter()
        self.tested: Counter[int] = Counter()
        self.lock = threading.Lock()  # the server may still think a late move in this game while it goes on

    def __call__(self, game: Game, action: Action) -> None:
        """``Game.watch``'s call before each move: a move to test is kept with the game as it stood (none once the
        seat is out: it has no turn left to test them at)."""
        if game.active[self.seat] and self.testable(game):
            with self.lock:
                self.pending.append((game.copy(), action))

    def testable(self, game: Game) -> bool:
        """Whether the move about to be made says something: another seat's, after the swap, with a choice."""
        return game.current != self.seat and game.phase != SWAP and len(game.legal_actions()) > 1

    def modelled(self) -> frozenset[int]:
        """The other seats whose moves so far are at least as likely under the model as under another player
        (the moves made since the last call tested first); a seat not yet tested is modelled."""
        with self.lock:  # each move tested once, by whichever of two thoughts in this game comes first
            for then, action in self.pending:
                self._test(then, action)
            self.pending.clear()
            return frozenset(s for s in self.others if self.evidence[s] >= 0)

    def _test(self, then: Game, action: Action) -> bool | None:
        """Test one move, counted for its seat: whether a deal explained it (None: no evidence either way)."""
        mover = then.current
        knowledge = _with_laid(Knowledge.from_game(then, self.seat), mover, action)
        if knowledge is None:  # the laid cards fit no deal of what the seat knew
            return None
        determinizer = Determinizer(knowledge)
        hit = any(self.model.act_game(determinizer.sample(self.rng), mover, self.rng) == action
                  for _ in range(self.samples))
        self.tested[mover] += 1
        self.misses[mover] += not hit
        self.evidence[mover] += HIT_WEIGHT if hit else MISS_WEIGHT
        return hit


def _with_laid(knowledge: Knowledge, mover: int, action: Action) -> Knowledge | None:
    """``knowledge`` with the hidden hand cards ``action`` lays put in ``mover``'s known cards (one of each rank's
    unseen copies: the model reads ranks), the narrowing of its other hidden cards kept sound; None when they fit
    no deal of it."""
    if action.kind != "play" or knowledge.zone(mover) != "hand":
        return knowledge
    rank = rank_index(action.rank)
    known = knowledge.known[mover]
    laid = action.count - sum(card >> 2 == rank for card in known)  # the engine lays known copies first
    if laid <= 0:
        return knowledge
    copies = [card for card in knowledge.unseen() if card >> 2 == rank][:laid]
    if len(copies) < laid:
        return None
    try:
        masks = list(lay_hidden(knowledge.narrowed[mover], knowledge.hand_sizes[mover] - len(known), rank, laid))
    except ValueError:
        return None
    placed = copy.copy(knowledge)
    placed.known = [[*cards, *copies] if s == mover else cards for s, cards in enumerate(knowledge.known)]
    placed.narrowed = [masks if s == mover else narrowed for s, narrowed in enumerate(knowledge.narrowed)]
    return placed


def fit_for(game: Game, seat: int, owner: object, model: Bot) -> ModelFit:
    """The ``ModelFit`` that ``owner`` keeps for ``seat`` on ``game``: the one it attached at its first turn
    there, or a new one that watches the game from now on (it lives as long as the game)."""
    for watcher in game.watchers:
        if isinstance(watcher, ModelFit) and watcher.owner is owner and watcher.seat == seat:
            return watcher
    fit = ModelFit(owner, model, seat, game.num_players)
    game.watch(fit)
    return fit
