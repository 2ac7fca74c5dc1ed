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

Options: ``sims`` simulations per move, or ``time`` seconds per move when
positive (not reproducible: it depends on the machine); ``rollout``
``heuristic`` or ``random``; ``c`` the exploration constant (scores lie in
[-1, 1]); ``horizon`` the most decisions a simulation plays past the root
(0: up to the rules' ``max_decisions``); ``infer`` false deals hidden cards
ignoring what public history narrowed (``Knowledge.without_inference``: an
ablation, to measure what the inference adds); ``opponents`` a bot spec (such as
``heuristic``) has the other seats play that bot on the sampled deal inside the
tree, each from its own seat's view of it, instead of choosing by ISUCB over
statistics that mix every deal (an opponent model: the walk goes on through
their moves, and only the searching seat's choices are searched). A simulation that reaches the
horizon is scored as the engine scores a truncated game: seats already safe
by their places, the others share the places left. Finished games of
heuristic players last under 250 decisions, but about 1% of them cycle until
``max_decisions`` (5000) ends them as truncated; the horizon scores those the
same way for a fraction of the cost.

Forced moves (one legal action) cost no search, and inside rollouts they are
played without asking the policy.
"""

from __future__ import annotations

import math
import time

import numpy as np

from agents.base import Bot, KnowledgeBot, make_bot
from agents.heuristic import HeuristicBot
from agents.onnx_bot import table_networks
from agents.simple import RandomBot
from shithead_env import NUM_ACTIONS, Action, Game
from shithead_env.determinize import Determinizer
from shithead_env.knowledge import Knowledge
from shithead_env.scoring import final_scores

ROLLOUTS = {"heuristic": HeuristicBot, "random": RandomBot}
SEARCHED = "search"  # ``opponents``: the other seats choose in the tree as the searching seat does (ISUCB)
VIRTUAL_LOSS = 1.0  # a pending walk's edges score as lost (the worst score) until it is backed up


def _opponent_model(spec: str) -> Bot:
    """The bot the other seats play in the tree (``opponents``); a bad spec is refused naming the option."""
    try:
        return make_bot(spec)
    except ValueError as error:
        raise ValueError(f"option 'opponents' must be {SEARCHED!r} or a bot spec: {error}") from None


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


class ISMCTSBot(KnowledgeBot):
    """SO-ISMCTS over sampled determinizations (module doc)."""

    def __init__(
        self,
        sims: int = 150,
        time: float = 0.0,
        rollout: str = "heuristic",
        c: float = 0.7,
        horizon: int = 300,
        infer: bool = True,
        opponents: str = SEARCHED,
    ) -> None:
        if sims < 1 or time < 0 or c < 0 or horizon < 0:
            raise ValueError(
                f"ismcts needs sims >= 1, time >= 0, c >= 0 and horizon >= 0, got {sims}, {time}, {c}, {horizon}"
            )
        if rollout not in ROLLOUTS:
            raise ValueError(f"ismcts option 'rollout' must be one of {', '.join(ROLLOUTS)}, got {rollout!r}")
        self.sims = sims
        self.time = time
        self.c = c
        self.horizon = horizon
        self.infer = infer
        self.rollout = ROLLOUTS[rollout]()
        self.opponent_model = None if opponents == SEARCHED else _opponent_model(opponents)
        self.batch = 1  # walks scored together (``_score_leaves``); a subclass with batched leaves raises it

    def covers(self, rules: str, players: int) -> bool:
        """Every table, unless the opponent model is made for fewer."""
        return self.opponent_model is None or self.opponent_model.covers(rules, players)

    def networks_at(self, rules: str, players: int) -> dict[str, str]:
        """The opponent model's networks at this table (the search's own rollouts play none)."""
        return table_networks(self.opponent_model, rules, players)

    def search(self, knowledge: Knowledge, rng: np.random.Generator) -> dict[Action, tuple[int, float]]:
        """Run the search from ``knowledge``; each legal action's (visits, mean score for the seat) at the root."""
        if not self.infer:
            knowledge = knowledge.without_inference()
        root = _Node(knowledge.seat)
        priors = self._priors(knowledge, rng)
        determinizer = Determinizer(knowledge)
        deadline = time.perf_counter() + self.time if self.time else None
        done = 0
        while done < self.sims if deadline is None else time.perf_counter() < deadline or not done:
            wave = []
            for _ in range(self.batch if deadline else min(self.batch, self.sims - done)):
                game = determinizer.sample(rng)
                if self.horizon:
                    game.max_decisions = min(game.max_decisions, game.decisions + self.horizon)
                wave.append((self._walk(root, game, rng, priors), game))
            for (path, _), scores in zip(wave, self._score_leaves([game for _, game in wave], rng), strict=True):
                self._back_up(root, path, scores)
            done += len(wave)
        stats = {}
        for action in knowledge.legal:
            child = root.children.get(action)
            visited = child is not None and child.visits > 0
            stats[action] = (child.visits, child.total / child.visits) if visited else (0, 0.0)
        return stats

    def policy(self, knowledge: Knowledge, rng: np.random.Generator) -> tuple[Action, np.ndarray]:
        """The move (the root action visited most, then the best mean) and the root's visit shares."""
        probs = np.zeros(NUM_ACTIONS)
        if len(knowledge.legal) == 1:
            probs[knowledge.legal[0].index] = 1.0
            return knowledge.legal[0], probs
        stats = self.search(knowledge, rng)
        return most_visited(stats), visit_shares(stats)

    def decide(self, knowledge: Knowledge, rng: np.random.Generator) -> Action:
        return self.policy(knowledge, rng)[0]

    def _priors(self, knowledge: Knowledge, rng: np.random.Generator) -> dict[Action, float] | None:
        """Prior move probabilities for the root's ``_choose``; None: ISUCB everywhere."""
        return None

    def _walk(
        self, root: _Node, game: Game, rng: np.random.Generator, priors: dict[Action, float] | None
    ) -> list[_Node]:
        """Walk ``game`` down the tree from the root (``_choose``) and add one edge; the edges taken.

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
            modelled = self.opponent_model is not None and seat != root.seat and len(legal) > 1
            if modelled:
                action = self.opponent_model.act_game(game, seat, rng)
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

    def _score_leaves(self, games: list[Game], rng: np.random.Generator) -> list[list[float]]:
        """Every seat's score in each game a walk ended at: here, a rollout to the end."""
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
