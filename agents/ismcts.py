"""``ismcts``: single-observer information-set MCTS (Cowling, Powley and Whitehouse, 2012).

Each simulation samples a determinization (``determinize_knowledge``: the
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
ablation, to measure what the inference adds). A simulation that reaches the
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

from agents.base import KnowledgeBot
from agents.heuristic import HeuristicBot
from agents.simple import RandomBot
from shithead_env import Action, Game
from shithead_env.determinize import determinize_knowledge
from shithead_env.knowledge import Knowledge
from shithead_env.scoring import final_scores

ROLLOUTS = {"heuristic": HeuristicBot, "random": RandomBot}


class _Node:
    """Statistics of one edge (action) for the seat that chose it, and the edges below it."""

    __slots__ = ("available", "children", "seat", "total", "visits")

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

    def decide(self, knowledge: Knowledge, rng: np.random.Generator) -> Action:
        if len(knowledge.legal) == 1:
            return knowledge.legal[0]
        if not self.infer:
            knowledge = knowledge.without_inference()
        root = _Node(knowledge.seat)
        deadline = time.perf_counter() + self.time if self.time else None
        done = 0
        while done < self.sims if deadline is None else time.perf_counter() < deadline or not done:
            game = determinize_knowledge(knowledge, rng)
            if self.horizon:
                game.max_decisions = min(game.max_decisions, game.decisions + self.horizon)
            self._simulate(root, game, rng)
            done += 1
        unvisited = _Node(knowledge.seat)

        def visits(action: Action) -> tuple[int, float]:
            child = root.children.get(action, unvisited)
            return child.visits, child.total

        return max(knowledge.legal, key=visits)

    def _simulate(self, root: _Node, game: Game, rng: np.random.Generator) -> None:
        node, path = root, []
        while not game.is_over:
            legal = game.legal_actions()
            seat = game.current
            untried = [a for a in legal if a not in node.children]
            for action in legal:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            if untried:
                action = untried[int(rng.integers(len(untried)))]
                child = node.children[action] = _Node(seat)
                child.available = 1
                game.step(action)
                path.append(child)
                break
            action = max(legal, key=lambda a: self._ucb(node.children[a]))
            node = node.children[action]
            game.step(action)
            path.append(node)
        policy = self.rollout
        while not game.is_over:
            legal = game.legal_actions()
            # A forced move needs no policy (and no Knowledge built for it).
            game.step(legal[0] if len(legal) == 1 else policy.act_game(game, game.current, rng))
        scores = final_scores(game)
        for child in path:
            child.visits += 1
            child.total += scores[child.seat]

    def _ucb(self, child: _Node) -> float:
        return child.total / child.visits + self.c * math.sqrt(math.log(child.available) / child.visits)
