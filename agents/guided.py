"""``guided``: ISMCTS whose leaves a full-state value network scores (and whose root a policy may guide).

The search is ``ismcts``'s (one tree over determinizations that honour the
inference from public history, ISUCB below the root), with three changes:

- **Leaves.** A simulation ends one edge below the tree and the sampled full
  game there is scored by a value network (``agents.value_net``: every seat's
  expected placement from every hand, face-down card and the draw pile),
  optionally after ``rollout_moves`` heuristic moves, instead of being played
  out to the end (about 1.5 ms of heuristic moves): a simulation costs a
  fraction of ``ismcts``'s, so the same time buys many more determinizations,
  which is what a noise-limited search needs.
- **Root: sequential halving** (``root=halving``, the default; ``ismcts``'s
  ``_halve``): the root's moves are compared on shared deals, so the deal's
  luck cancels out of every comparison; at 600 simulations the search picks
  its own move again under another seed as often as ISUCB at the root does
  at 4800 (docs/bots.md). ``root=ucb`` is ISUCB there, as ``ismcts``; it
  alone takes ``prior``, and its visit shares spread over every move (expert
  iteration's teacher uses it).
- **Root priors, optional** (``root=ucb``). With ``prior`` a model spec's
  argument (``auto``: the shipped model for the table; or a model directory)
  the root's edges are chosen by PUCT with that policy's probabilities,
  sharpened or flattened by ``prior_temp`` and weighed by ``c_puct``. The
  default is ``none``: the shipped policies, about level with ``heuristic``,
  made the search weaker at every weight measured (docs/bots.md).

Walks go in waves of ``batch`` (a virtual loss spreads them over the tree),
whose leaves the network scores in one call.

**Opponents.** By default (``opponents=auto``, at 600 simulations) the other seats play
``heuristic`` inside the tree, on the sampled deal and from their own seat's view, while
their moves in the game so far fit it, and the tree searches the choices of a seat once
it has played otherwise (``watch``, agents/model_fit.py; ``auto`` is
``opponents=heuristic,watch=true``). So against ``heuristic``-like play it searches with the model,
where the model gains most, and against a field it does not model it searches every seat (docs/bots.md,
"Knowing the field from its play").
``opponents=search`` searches every seat from the start; ``opponents=heuristic`` models every
seat to the end. With a model, ``search_all_at=2`` searches the other seat once only two
seats hold cards. Asked through ``decide`` (a view, no live game) a watching bot has
read no moves and models every seat.

``policy`` gives the root's visit shares (the browser's hint, expert-iteration
targets); ``temperature`` > 0 samples the move from visits ** (1 / temperature)
instead of taking the most visited (for self-play data). Options otherwise as
``ismcts``: ``sims`` per move or ``time`` seconds (not reproducible), ``c``,
``infer``. ``precision=int8`` scores leaves with the value networks' int8 copies
(``agents.value_net``): about a quarter less time a simulation. Once the game has run
``lead_discount_after`` decisions (300), ``lead_discount`` (0.05) shrinks a leading seat's lead at a leaf by
``1 - lead_discount`` for each card it still holds (``_discount_leads``), so a search that wins whatever it does
plays the move that finishes sooner instead of cycling until the decision cap; before that the leaves are
scored as with ``lead_discount=0`` (docs/bots.md, "Closing out a won game"). The bot plays
the tables its value network was trained for (and its prior's card covers, when
it has one).
"""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np

from agents.ismcts import WATCHED, ISMCTSBot, _Node, _Root
from agents.onnx_bot import networks_of, table_networks
from agents.value_net import DEFAULT_PRECISION, DEFAULT_VALUE, load_values
from shithead_env import Action, Game, Knowledge
from shithead_env.scoring import final_scores

NO_PRIOR = "none"


class GuidedBot(ISMCTSBot):
    """ISMCTS with a value network at the leaves and, optionally, policy priors at the root (module doc)."""

    spec_name = "guided"
    # a spec option this bot does not take -> the option that does what the name suggests (``make_bot``'s hint)
    option_hints: ClassVar[dict[str, str]] = {
        **ISMCTSBot.option_hints, "haste": "lead_discount", "patience": "lead_discount_after"
    }

    def __init__(
        self,
        sims: int = 600,
        time: float = 0.0,
        value: str = DEFAULT_VALUE,
        prior: str = NO_PRIOR,
        c: float = 0.7,
        c_puct: float = 1.5,
        prior_temp: float = 1.0,
        rollout_moves: int = 0,
        batch: int = 8,
        temperature: float = 0.0,
        infer: bool = True,
        opponents: str = WATCHED,
        precision: str = DEFAULT_PRECISION,
        root: str = "halving",
        search_all_at: int = 0,
        watch: bool = False,
        lead_discount: float = 0.05,
        lead_discount_after: int = 300,
    ) -> None:
        super().__init__(
            sims=sims, time=time, rollout="heuristic", c=c, horizon=0, infer=infer, opponents=opponents, root=root,
            search_all_at=search_all_at, watch=watch,
        )
        if root == "halving" and prior != NO_PRIOR:
            raise ValueError("guided option 'prior' needs 'root=ucb': it guides the root's ucb choice, and "
                             "'root=halving' takes none")
        if not 0 <= lead_discount < 1 or lead_discount_after < 0:
            raise ValueError("guided needs 0 <= lead_discount < 1 and lead_discount_after >= 0, "
                             f"got {lead_discount}, {lead_discount_after}")
        if c_puct < 0 or prior_temp <= 0 or rollout_moves < 0 or batch < 1 or temperature < 0:
            raise ValueError(
                "guided needs c_puct >= 0, prior_temp > 0, rollout_moves >= 0, batch >= 1 and temperature >= 0, "
                f"got {c_puct}, {prior_temp}, {rollout_moves}, {batch}, {temperature}"
            )
        self.batch = batch
        self.c_puct = c_puct
        self.prior_temp = prior_temp
        self.rollout_moves = rollout_moves
        self.temperature = temperature
        self.lead_discount = lead_discount
        self.lead_discount_after = lead_discount_after  # a game this long may be cycling
        self.value = load_values(value, precision=precision)
        self.tables = self.value.tables
        self.rules = tuple(self.tables)
        self.card = {
            "name": "guided",
            "kind": "search",
            "value": self.value.name,
            "opponents": self.opponents,
            "root": root,
            "tables": self.tables,
        } | ({} if precision == DEFAULT_PRECISION else {"precision": precision})
        self.card |= {"search_all_at": search_all_at} if search_all_at else {}  # named only when set
        self.card |= {"watch": True} if self.watch else {}
        if lead_discount:
            self.card |= {"lead_discount": lead_discount, "lead_discount_after": lead_discount_after}
        self.prior = None
        if prior != NO_PRIOR:
            from agents.onnx_bot import model_bot

            self.prior = model_bot(prior)
        self.card["networks"] = self.value.networks | networks_of((self.prior, self.opponent_model))

    def covers(self, rules: str, players: int) -> bool:
        prior = self.prior is None or self.prior.covers(rules, players)
        return self.value.covers(rules, players) and prior and super().covers(rules, players)

    def networks_at(self, rules: str, players: int) -> dict[str, str]:
        searched = self.value.networks_at(rules, players) | table_networks(self.prior, rules, players)
        return searched | super().networks_at(rules, players)

    def coverage(self) -> str:
        prior = "" if self.prior is None else f" where its prior covers {self.prior.coverage()}"
        return f"{self.value.coverage()} (its value network's tables){prior}"

    def policy(
        self, knowledge: Knowledge, rng: np.random.Generator, modelled: frozenset[int] | None = None
    ) -> tuple[Action, np.ndarray]:
        action, visits = super().policy(knowledge, rng, modelled)
        if self.temperature and len(knowledge.legal) > 1:
            weights = visits ** (1.0 / self.temperature)
            action = Action.from_index(int(rng.choice(len(weights), p=weights / weights.sum())))
        return action, visits

    def _priors(self, knowledge: Knowledge, rng: np.random.Generator) -> dict[Action, float] | None:
        if self.prior is None:
            return None
        probs = self.prior.policy(knowledge, rng)[1][[a.index for a in knowledge.legal]] ** (1.0 / self.prior_temp)
        probs /= probs.sum()
        return dict(zip(knowledge.legal, probs.tolist(), strict=True))

    def _choose(
        self, node: _Node, legal: list[Action], rng: np.random.Generator, priors: dict[Action, float] | None
    ) -> Action:
        if priors is None:
            return super()._choose(node, legal, rng, priors)
        scale = self.c_puct * math.sqrt(max(1, node.visits))

        def puct(action: Action) -> float:
            child = node.children.get(action)
            if child is None or not child.visits:
                return scale * priors[action]
            return child.total / child.visits + scale * priors[action] / (1 + child.visits)

        return max(legal, key=puct)

    def _score_leaves(self, games: list[Game], rng: np.random.Generator, root: _Root) -> list[list[float]]:
        """Final scores where a game is over, else (after ``rollout_moves`` heuristic moves) the value network's,
        every live game of the wave in one batch; the leads discounted (``_discount_leads``) once the game has
        run ``lead_discount_after`` decisions."""
        for game in games:
            self._play_on(game, rng, self.rollout_moves)
        live = [game for game in games if not game.is_over]
        values = iter(self.value.scores(live))
        scores = [final_scores(game) if game.is_over else next(values) for game in games]
        if not self.lead_discount or root.decisions < self.lead_discount_after:
            return scores
        return [
            row if game.is_over else self._discount_leads(game, row) for game, row in zip(games, scores, strict=True)
        ]

    def _discount_leads(self, game: Game, values: list[float]) -> list[float]:
        """``values`` with each leading seat's lead shrunk by ``1 - lead_discount`` for every card it still holds.

        A seat's lead is its value above the score a cap now would give it (``final_scores`` of the live game):
        a search that wins whatever it does otherwise has no reason to finish, and the decision cap then scores
        the game as a draw (docs/bots.md, "Closing out a won game"). Seats behind are left as they are.
        """
        capped = final_scores(game)
        return [
            cap + (value - cap) * (1.0 - self.lead_discount) ** game.cards_left(seat) if value > cap else value
            for seat, (value, cap) in enumerate(zip(values, capped, strict=True))
        ]
