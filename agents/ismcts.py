"""``ismcts``: single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012).

Each simulation samples a determinization (``Determinizer``: the
unseen cards dealt at random, consistently with what the bot knows, the ranks
public history narrows included), walks one shared tree keyed by action
history, and plays out the rest of the game.
Only actions legal in the current determinization compete, and their UCB
exploration term counts how often each was available (ISUCB), so actions
that exist in few determinizations are not over-explored. Each tree edge is
scored for the seat that chose it with the shared ``final_scores``; the move
played is the root action visited most.

Options: ``sims`` simulations per move, or ``time`` seconds per move when positive (with either root; not
reproducible: it depends on the machine); ``rollout`` ``heuristic`` or ``random``; ``c`` the exploration constant
(scores lie in [-1, 1]); ``horizon`` the most decisions a simulation plays past the root (0: up to the rules'
``max_decisions``); ``infer`` false deals hidden cards ignoring what public history narrowed
(``Knowledge.without_inference``: an ablation, to measure what the inference adds); ``opponents`` a bot spec (such
as ``heuristic``) has the other seats play that bot on the sampled deal inside the tree, each from its own seat's
view of it, instead of choosing by ISUCB over statistics that mix every deal (an opponent model: the walk goes on
through their moves, and only the searching seat's choices are searched); ``auto`` is ``heuristic`` watched (as
``opponents=heuristic,watch=true``, ``guided``'s default); ``search_all_at`` N > 0 drops that model once N seats or
fewer hold cards, and the tree searches the other seats' choices from there (0, the default, keeps the model to the
end): a two-seat endgame with an empty draw pile is close to a game of perfect information, where a searched
opponent is the better model of a searching one (docs/bots.md, "Endgames"); ``watch`` true (with a model) models
only the seats whose moves in the game so far fit it, and searches the others' choices (agents/model_fit.py: a seat
that makes a move the model would make on none of the deals of what the bot knew then is searched from there);
``root`` ``ucb`` (the default: ISUCB shares the simulations at the root too) or ``halving`` (sequential halving over
the root's moves, every move compared on the same deals, ``_halve``: the deal's luck cancels out of the comparison).
A simulation that reaches the horizon is scored as the engine scores a truncated game: seats already safe by their
places, the others share the places left. Finished games of heuristic players last under 250 decisions, but about 1%
of them cycle until ``max_decisions`` (5000) ends them as truncated; the horizon scores those the same way for a
fraction of the cost.

Forced moves (one legal action) cost no search, and inside rollouts they are
played without asking the policy.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Iterable, Iterator
from typing import ClassVar

import numpy as np

from agents.base import Bot, KnowledgeBot, make_bot
from agents.heuristic import HeuristicBot
from agents.model_fit import fit_for
from agents.onnx_bot import table_networks
from agents.simple import RandomBot
from shithead_env import NUM_ACTIONS, Action, Game
from shithead_env.determinize import Determinizer
from shithead_env.knowledge import Knowledge
from shithead_env.scoring import final_scores

ROLLOUTS = {"heuristic": HeuristicBot, "random": RandomBot}
SEARCHED = "search"  # ``opponents``: the other seats choose in the tree as the searching seat does (ISUCB)
WATCHED = "auto"  # ``opponents``: the model ``heuristic`` for the seats whose moves fit it, search for the others
WATCHED_MODEL = "heuristic"  # the model ``opponents=auto`` watches for (``watch``)
ROOT_RULES = ("ucb", "halving")  # ``root``: how the root's simulations are shared among its moves
VIRTUAL_LOSS = 1.0  # a pending walk's edges score as lost (the worst score) until it is backed up


def _until(deadline: float) -> Iterator[None]:
    """One item, then one more each time the clock is still before ``deadline``: a timed search does at least one
    round, and starts none after its time is up."""
    yield None
    while time.perf_counter() < deadline:
        yield None


def _opponent_model(spec: str) -> Bot:
    """The bot the other seats play in the tree (``opponents``); a bad spec is refused naming the option."""
    try:
        return make_bot(spec)
    except ValueError as error:
        raise ValueError(f"option 'opponents' must be {SEARCHED!r}, {WATCHED!r} or a bot spec: {error}") from None


def visit_shares(stats: dict[Action, tuple[int, float]]) -> np.ndarray:
    """A search's root visits as shares over the action layout (``NUM_ACTIONS``; 0 on every other action)."""
    probs = np.zeros(NUM_ACTIONS)
    for action, (visits, _) in stats.items():
        probs[action.index] = visits
    return probs / probs.sum()


def most_visited(stats: dict[Action, tuple[int, float]]) -> Action:
    """The move a search plays: the root action visited most, then the best mean."""
    return max(stats, key=lambda a: stats[a])


class _Node:
    """Statistics of one edge (action) for the seat that chose it, and the edges below it."""

    __slots__ = ("available", "children", "seat", "total", "visits")  # the root's visits: simulations through it

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.visits = 0
        self.available = 0
        self.total = 0.0
        self.children: dict[Action, _Node] = {}


class _Root(_Node):
    """The root edge, with what holds for its whole search: the other seats the opponent model plays (None: every
    one) and the game's decisions so far. Kept here, not on the bot, because one bot may run several searches at
    once (the server's games)."""

    __slots__ = ("decisions", "modelled")

    def __init__(self, seat: int, modelled: frozenset[int] | None, decisions: int) -> None:
        super().__init__(seat)
        self.modelled = modelled
        self.decisions = decisions


class ISMCTSBot(KnowledgeBot):
    """SO-ISMCTS over sampled determinizations (module doc)."""

    spec_name = "ismcts"  # the bot kind its errors name (a subclass names its own)
    # a spec option this bot does not take -> the option that does what the name suggests (``make_bot``'s hint)
    option_hints: ClassVar[dict[str, str]] = {"endgame": "search_all_at"}

    def __init__(
        self,
        sims: int = 150,
        time: float = 0.0,
        rollout: str = "heuristic",
        c: float = 0.7,
        horizon: int = 300,
        infer: bool = True,
        opponents: str = SEARCHED,
        root: str = "ucb",
        search_all_at: int = 0,
        watch: bool = False,
    ) -> None:
        if sims < 1 or time < 0 or c < 0 or horizon < 0 or search_all_at < 0:
            raise ValueError(
                f"{self.spec_name} needs sims >= 1, time >= 0, c >= 0, horizon >= 0 and search_all_at >= 0, "
                f"got {sims}, {time}, {c}, {horizon}, {search_all_at}"
            )
        if opponents == WATCHED:
            opponents, watch = WATCHED_MODEL, True
        if watch and opponents == SEARCHED:
            raise ValueError(f"{self.spec_name} option 'watch' needs a model to test the other seats' moves "
                             f"against: 'opponents' is {SEARCHED!r}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"ismcts option 'rollout' must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        if root not in ROOT_RULES:
            raise ValueError(f"{self.spec_name} option 'root' must be one of {', '.join(ROOT_RULES)}, got {root!r}")
        self.root_rule = root
        self.sims = sims
        self.time = time
        self.c = c
        self.horizon = horizon
        self.infer = infer
        self.rollout = ROLLOUTS[rollout]()
        self.opponents = opponents  # resolved: ``auto`` is read as its model, watched
        self.opponent_model = None if opponents == SEARCHED else _opponent_model(opponents)
        self.search_all_at = search_all_at  # the tree searches every seat once this many seats or fewer hold cards
        self.watch = watch
        self.batch = 1  # walks scored together (``_score_leaves``); a subclass with batched leaves raises it

    def covers(self, rules: str, players: int) -> bool:
        """Every table, unless the opponent model is made for fewer."""
        return self.opponent_model is None or self.opponent_model.covers(rules, players)

    def networks_at(self, rules: str, players: int) -> dict[str, str]:
        """The opponent model's networks at this table (the search's own rollouts play none)."""
        return table_networks(self.opponent_model, rules, players)

    def search(
        self, knowledge: Knowledge, rng: np.random.Generator, modelled: frozenset[int] | None = None
    ) -> dict[Action, tuple[int, float]]:
        """Run the search from ``knowledge``; each legal action's (visits, mean score for the seat) at the root.
        With an opponent model, ``modelled`` names the other seats it plays (None: every one)."""
        if not self.infer:
            knowledge = knowledge.without_inference()
        root = _Root(knowledge.seat, modelled, knowledge.decisions)
        priors = self._priors(knowledge, rng)
        determinizer = Determinizer(knowledge)
        if self.root_rule == "halving":
            self._halve(root, knowledge.legal, determinizer, rng)
        else:
            self._run(root, ((self._deal(determinizer, rng), None) for _ in self._budget()), rng, priors)
        stats = {}
        for action in knowledge.legal:
            child = root.children.get(action)
            visited = child is not None and child.visits > 0
            stats[action] = (child.visits, child.total / child.visits) if visited else (0, 0.0)
        return stats

    def policy(
        self, knowledge: Knowledge, rng: np.random.Generator, modelled: frozenset[int] | None = None
    ) -> tuple[Action, np.ndarray]:
        """The move (the root action visited most, then the best mean) and the root's visit shares (``modelled``:
        ``search``'s)."""
        probs = np.zeros(NUM_ACTIONS)
        if len(knowledge.legal) == 1:
            probs[knowledge.legal[0].index] = 1.0
            return knowledge.legal[0], probs
        stats = self.search(knowledge, rng, modelled)
        return most_visited(stats), visit_shares(stats)

    def decide(self, knowledge: Knowledge, rng: np.random.Generator) -> Action:
        return self.policy(knowledge, rng)[0]

    def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
        """``decide``; with ``watch``, the model plays only the seats whose moves in ``game`` so far fit it."""
        return self.policy(Knowledge.from_game(game, seat), rng, self.modelled_in(game, seat))[0]

    def modelled_in(self, game: Game, seat: int) -> frozenset[int] | None:
        """The seats the model plays in a search from ``seat`` of the live ``game``: with ``watch``, those whose moves
        so far fit it; else None (every other seat). Asking again before a move changes nothing."""
        return fit_for(game, seat, self, self.opponent_model).modelled() if self.watch else None

    def _budget(self) -> Iterator[None]:
        """One item a simulation: ``sims`` of them, or (with ``time``) as many as start before the deadline."""
        if not self.time:
            yield from itertools.repeat(None, self.sims)
            return
        yield from _until(time.perf_counter() + self.time)

    def _deal(self, determinizer: Determinizer, rng: np.random.Generator) -> Game:
        """A sampled full game for one simulation, cut ``horizon`` decisions past the root."""
        game = determinizer.sample(rng)
        if self.horizon:
            game.max_decisions = min(game.max_decisions, game.decisions + self.horizon)
        return game

    def _run(
        self,
        root: _Root,
        walks: Iterable[tuple[Game, Action | None]],
        rng: np.random.Generator,
        priors: dict[Action, float] | None = None,
    ) -> None:
        """Walk each game (through its root move, when one is given) and back its score up, in waves of ``batch``
        whose leaves ``_score_leaves`` scores together."""
        wave: list[tuple[list[_Node], Game]] = []
        for game, first in walks:
            wave.append((self._walk(root, game, rng, priors, first), game))
            if len(wave) == self.batch:
                self._score_wave(root, wave, rng)
                wave = []
        if wave:
            self._score_wave(root, wave, rng)

    def _score_wave(self, root: _Root, wave: list[tuple[list[_Node], Game]], rng: np.random.Generator) -> None:
        for (path, _), scores in zip(wave, self._score_leaves([game for _, game in wave], rng, root), strict=True):
            self._back_up(root, path, scores)

    def _halve(self, root: _Root, legal: list[Action], determinizer: Determinizer, rng: np.random.Generator) -> None:
        """Sequential halving over the root's moves on shared deals (``root=halving``).

        In each of ceil(log2(moves)) phases every move still in gets the same fresh deals, one walk a deal through
        it (the tree below chooses as usual), and the better half by mean over all its deals so far goes on. Each
        move's mean is over the same deals as every other's it is compared with, so the deal's luck, most of a
        leaf's variance, cancels out of the comparison; the phases share ``sims`` about equally (at least one
        deal a move a phase), or with ``time`` the seconds: phase k of n walks new deals until k/n of them have
        passed (at least one wave of deals a phase, so a move may overrun by that much). The last two moves in
        have the most visits, so ``most_visited`` picks the better.
        """
        moves = list(legal)
        phases = math.ceil(math.log2(len(moves)))
        left, start = self.sims, time.perf_counter()
        for phase in range(phases):
            if self.time:
                self._walk_until(root, moves, determinizer, rng, start + self.time * (phase + 1) / phases)
            else:
                per_move = max(1, left // ((phases - phase) * len(moves)))
                self._walk_deals(root, moves, per_move, determinizer, rng)
                left -= per_move * len(moves)
            mean = {move: root.children[move].total / root.children[move].visits for move in moves}
            moves = sorted(moves, key=mean.__getitem__, reverse=True)[: math.ceil(len(moves) / 2)]

    def _walk_until(
        self, root: _Root, moves: list[Action], determinizer: Determinizer, rng: np.random.Generator, deadline: float
    ) -> None:
        """Walk ``moves`` on new deals, a wave at a time (about ``batch`` walks), until ``deadline`` has passed."""
        wave = -(-self.batch // len(moves))
        for _ in _until(deadline):
            self._walk_deals(root, moves, wave, determinizer, rng)

    def _walk_deals(
        self, root: _Root, moves: list[Action], count: int, determinizer: Determinizer, rng: np.random.Generator
    ) -> None:
        """Walk each of ``moves`` once on each of ``count`` fresh deals: every move on the same ones."""
        games = [self._deal(determinizer, rng) for _ in range(count)]
        self._run(root, ((game.copy(), move) for game in games for move in moves), rng)

    def _priors(self, knowledge: Knowledge, rng: np.random.Generator) -> dict[Action, float] | None:
        """Prior move probabilities for the root's ``_choose``; None: ISUCB everywhere."""
        return None

    def _walk(
        self,
        root: _Root,
        game: Game,
        rng: np.random.Generator,
        priors: dict[Action, float] | None,
        first: Action | None = None,
    ) -> list[_Node]:
        """Walk ``game`` down the tree from the root (``_choose``, or ``first`` at the root when given) and add one
        edge; the edges taken.

        With ``batch`` > 1 the walk's edges carry a virtual loss until ``_back_up``, so the other walks of a
        wave spread out instead of all taking the same line.
        """
        node, path = root, []
        while not game.is_over:
            legal = game.legal_actions()
            for action in legal:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            seat = game.current
            modelled = (
                self.opponent_model is not None and seat != root.seat and len(legal) > 1
                and sum(game.active) > self.search_all_at and (root.modelled is None or seat in root.modelled)
            )
            if modelled:
                action = self.opponent_model.act_game(game, seat, rng)
            elif node is root and first is not None:
                action = first
            else:
                action = self._choose(node, legal, rng, priors if node is root else None)
            child = node.children.get(action)
            game.step(action)
            if child is None:
                child = node.children[action] = _Node(seat)
                child.available = 1
                if not modelled:  # a new edge of a searched choice: the walk ends below it
                    path.append(child)
                    break
            path.append(child)
            node = child
        if self.batch > 1:
            for child in path:
                child.visits += 1
                child.total -= VIRTUAL_LOSS
        return path

    def _back_up(self, root: _Node, path: list[_Node], scores: list[float]) -> None:
        """Count one simulation with these final ``scores`` on every edge of ``path``."""
        root.visits += 1
        for child in path:
            if self.batch > 1:  # ``_walk`` counted the visit already; its virtual loss comes off
                child.total += scores[child.seat] + VIRTUAL_LOSS
            else:
                child.visits += 1
                child.total += scores[child.seat]

    def _choose(
        self, node: _Node, legal: list[Action], rng: np.random.Generator, priors: dict[Action, float] | None
    ) -> Action:
        """The edge to follow: an untried action at random, else the best ISUCB; ``priors`` (at the root, when
        ``_priors`` gave some) are for a subclass's selection."""
        untried = [a for a in legal if a not in node.children]
        if untried:
            return untried[int(rng.integers(len(untried)))]
        return max(legal, key=lambda a: self._ucb(node.children[a]))

    def _score_leaves(self, games: list[Game], rng: np.random.Generator, root: _Root) -> list[list[float]]:
        """Every seat's score in each game a walk ended at (of ``root``'s search): here, a rollout to the end."""
        for game in games:
            self._play_on(game, rng)
        return [final_scores(game) for game in games]

    def _play_on(self, game: Game, rng: np.random.Generator, moves: int | None = None) -> None:
        """Play ``game`` on with the rollout policy: ``moves`` decisions, or to the end when None."""
        policy = self.rollout
        while not game.is_over and (moves is None or moves > 0):
            legal = game.legal_actions()
            # A forced move needs no policy (and no Knowledge built for it).
            game.step(legal[0] if len(legal) == 1 else policy.act_game(game, game.current, rng))
            if moves is not None:
                moves -= 1

    def _ucb(self, child: _Node) -> float:
        return child.total / child.visits + self.c * math.sqrt(math.log(child.available) / child.visits)
