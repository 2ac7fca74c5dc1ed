"""Gymnasium single-agent view: one learner seat, the env plays every other seat itself.

Each ``step`` returns the learner's own next observation and its own reward
(unlike the PettingZoo SB3 tutorial pattern, which hands one agent's reward to
the next agent), so it stays right for 3-10 players. Registered as
``shithead_env/Shithead-v0``; works with sb3-contrib's MaskablePPO through
``action_masks()``, which ``gymnasium.make``'s env answers itself (it is
registered without Gymnasium's order-enforcing and checker wrappers: the env
enforces the order itself, with an error that says to call ``reset()``).

The mask (``info["action_mask"]``, ``action_masks()``) is never all zero, so a
vector env under either autoreset mode never hands a policy a row it cannot
sample from: while the learner is to act it is exactly its legal actions; once
its episode is over it allows ``pass`` alone (``NO_DECISION_MASK``), an action
nobody takes, since the next call is ``reset()``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from importlib.metadata import EntryPoint, entry_points
from typing import Any, Protocol

import gymnasium
import numpy as np
from gymnasium import spaces

from shithead_env.actions import NUM_ACTIONS, Action
from shithead_env.encoding import ENCODING_VERSION, Encoding, action_mask, get_encoding
from shithead_env.envs.common import (
    RENDER_MODES,
    RulesSpec,
    check_render_mode,
    decided_rewards,
    render_table,
    table_rules,
)
from shithead_env.game import Game
from shithead_env.knowledge import Knowledge

ILLEGAL_ACTION_REWARD = -1.0
PASS = Action.pass_()
NO_DECISION_MASK = np.zeros(NUM_ACTIONS, np.int8)
NO_DECISION_MASK[PASS.index] = 1
NO_DECISION_MASK.flags.writeable = False
BOT_SPECS_GROUP = "shithead_env.bots"  # entry points: spec string -> bot (agents declares agents.base:make_bot)


class Bot(Protocol):
    """What the env needs of a bot object (the protocol of ``agents/``)."""

    def act(self, view: dict[str, Any], rng: np.random.Generator) -> Action: ...


Opponent = str | Bot | Callable[[np.ndarray, np.ndarray], int]
Policy = Callable[[Game, int, np.random.Generator], Action]


def _random_policy(game: Game, seat: int, rng: np.random.Generator) -> Action:
    legal = game.legal_actions()
    return legal[int(rng.integers(len(legal)))]


@functools.cache
def bot_spec_resolvers() -> tuple[EntryPoint, ...]:
    """The installed ``shithead_env.bots`` entry points, by name (read once: scanning metadata is slow)."""
    return tuple(sorted(entry_points(group=BOT_SPECS_GROUP), key=lambda point: point.name))


def resolve_bot_spec(spec: str) -> Bot:
    """A bot from a spec string (``"heuristic"``), made by an installed resolver: the env layer imports no bots."""
    resolvers = bot_spec_resolvers()
    if not resolvers:
        raise ValueError(
            f"cannot resolve opponent spec {spec!r}: no installed package declares a {BOT_SPECS_GROUP!r} entry point "
            "(shithead-env's agents do once the project is installed: pip install -e .); "
            'pass "random", a bot object or a callable instead'
        )
    errors = []
    for resolver in resolvers:
        try:
            return resolver.load()(spec)
        except ValueError as error:
            errors.append(f"{resolver.value}: {error}")
    raise ValueError(f"cannot resolve opponent spec {spec!r}: " + "; ".join(errors))


def opponent_policy(opponent: Opponent, encoding: int | Encoding = ENCODING_VERSION) -> Policy:
    """Turn any opponent kind into ``(game, seat, rng) -> Action``.

    ``"random"`` is built in (uniform over legal actions); other strings are
    bot specs for ``resolve_bot_spec`` (``agents.make_bot`` once the project is
    installed). A bot with ``act_game(game, seat, rng)`` (agents' fast path) is
    called through it. A callable ``(observation, mask) -> index`` is given
    observations of encoding ``encoding`` (a version, or an ``Encoding``).
    """
    if isinstance(opponent, str):
        if opponent == "random":
            return _random_policy
        opponent = resolve_bot_spec(opponent)
    fast = getattr(opponent, "act_game", None)
    if callable(fast):  # agents' fast path: the same decision as act(), without building the view
        return fast
    act = getattr(opponent, "act", None)
    if callable(act):
        return lambda game, seat, rng: act(game.view(seat), rng)
    if callable(opponent):
        choose = opponent
        encode = (encoding if isinstance(encoding, Encoding) else get_encoding(encoding)).encoder
        return lambda game, seat, rng: Action.from_index(
            int(choose(encode(Knowledge.from_game(game, seat)), action_mask(game, seat)))
        )
    raise TypeError(f"an opponent must be a bot spec, an object with act(view, rng) or a callable, got {opponent!r}")


class ShitheadEnv(gymnasium.Env[np.ndarray, np.int64]):
    """The learner's view of a table whose other seats are played by ``opponents``.

    ``opponents``: one opponent for every other seat, or a list with one per
    other seat, in clockwise order from the learner (seat learner+1 first).
    ``learner_seat``: fixed seat, or None for a random seat each episode drawn
    from the env's seeded generator. The learner's episode ends as soon as its
    place is decided (it became safe, or the game ended), with its share of
    ``final_scores`` as the reward of that step. An illegal action (mask 0)
    ends the episode with reward -1 and ``info["illegal_action"]``; the game is
    unchanged. ``encoding``: the observation encoding version (``shithead_env.ENCODINGS``),
    of the learner's observations and of those given to callable opponents.
    """

    metadata = {"render_modes": RENDER_MODES}

    def __init__(
        self,
        rules: RulesSpec = "dead_last",
        num_players: int = 4,
        opponents: Opponent | Sequence[Opponent] = "random",
        learner_seat: int | None = None,
        reward: str = "placement",
        max_decisions: int | None = None,
        render_mode: str | None = None,
        encoding: int = ENCODING_VERSION,
    ) -> None:
        check_render_mode(render_mode)
        self.encoding = get_encoding(encoding)
        self._encode = self.encoding.encoder
        self.rules = table_rules(rules, num_players, reward)
        if learner_seat is not None and not 0 <= learner_seat < num_players:
            raise ValueError(f"learner_seat must be 0..{num_players - 1} or None, got {learner_seat!r}")
        if isinstance(opponents, Sequence) and not isinstance(opponents, str):
            if len(opponents) != num_players - 1:
                raise ValueError(f"give one opponent per other seat ({num_players - 1}), got {len(opponents)}")
            self._policies = [opponent_policy(o, self.encoding) for o in opponents]
        else:
            self._policies = [opponent_policy(opponents, self.encoding)] * (num_players - 1)
        self.num_players = num_players
        self.fixed_seat = learner_seat
        self.reward_scheme = reward
        self.max_decisions = max_decisions
        self.render_mode = render_mode
        self.observation_space = spaces.Box(self.encoding.low, self.encoding.high, (self.encoding.size,), np.float32)
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.game: Game | None = None
        self.learner = 0
        self._done = True

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict]:
        """Deal from the env's generator (seeded by ``seed``), pick the learner seat, play up to its turn."""
        self.deal(seed)
        return self._observe(), self._info()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict]:
        reward, terminated, truncated, illegal = self.advance(action)
        if illegal:
            return self._observe(), reward, terminated, truncated, {**self._info(), "illegal_action": True}
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, truncated, self._info()

    def deal(self, seed: int | None = None) -> None:
        """``reset()`` without building its observation (the batched vector env encodes all its tables at once)."""
        super().reset(seed=seed)
        rng = self.np_random
        self.game = Game.new(self.rules, self.num_players, seed=rng, max_decisions=self.max_decisions)
        self.learner = self.fixed_seat if self.fixed_seat is not None else int(rng.integers(self.num_players))
        self._paid = 0
        self._done = False
        _, terminated, truncated = self._play_opponents()
        self._done = terminated or truncated
        if self._done:  # only the decision cap ends a game before the learner's first turn
            raise ValueError(f"max_decisions={self.game.max_decisions} ends the game before the learner (seat "
                             f"{self.learner}) is asked anything; allow more decisions")

    def advance(self, action: int) -> tuple[float, bool, bool, bool]:
        """``step()`` without building its observation: (reward, terminated, truncated, illegal action)."""
        self._require_reset("step()")
        if self._done:
            raise RuntimeError("the learner's episode is over; call reset()")
        game = self.game
        chosen = Action.from_index(int(action))
        if not game.is_legal(chosen):
            self._done = True
            return ILLEGAL_ACTION_REWARD, True, False, True
        game.step(chosen)
        reward, terminated, truncated = self._play_opponents()
        self._done = terminated or truncated
        return reward, terminated, truncated, False

    @property
    def episode_over(self) -> bool:
        """Whether the learner's episode is over (its place decided, or an illegal action) until the next reset."""
        return self._done

    def _play_opponents(self) -> tuple[float, bool, bool]:
        """Let the other seats act until the learner is asked or its place is decided."""
        game, learner, rng = self.game, self.learner, self.np_random
        n = self.num_players
        # A lone pass out of turn is nothing to decide: the loop passes for the learner (docs/environments.md).
        game.play_until({learner}, lambda seat: self._policies[(seat - learner) % n - 1](game, seat, rng),
                        until=lambda: not game.is_active(learner))
        reward = 0.0
        for seat, value in decided_rewards(game, self.reward_scheme, self._paid):
            if seat == learner:
                reward = value
        self._paid = len(game.finish_order)
        if game.truncated:
            return reward, False, True
        placed = game.is_over or (not game.is_active(learner) and game.current != learner)
        return reward, placed, False

    def _observe(self) -> np.ndarray:
        return self._encode(Knowledge.from_game(self.game, self.learner))

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._mask(), "learner_seat": self.learner}

    def _mask(self) -> np.ndarray:
        """The learner's legal actions while it is to act, else ``NO_DECISION_MASK`` (module doc)."""
        return NO_DECISION_MASK.copy() if self._done else action_mask(self.game, self.learner)

    def _require_reset(self, what: str) -> None:
        if self.game is None:
            raise RuntimeError(f"{what} before the first reset(): call env.reset() to deal a game")

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the learner's legal actions (sb3-contrib MaskablePPO's hook; never all False)."""
        self._require_reset("action_masks()")
        return self._mask().astype(bool)

    def render(self) -> str | None:
        """The text table from the learner's seat."""
        self._require_reset("render()")
        return render_table(self.game, self.learner, self.render_mode)
