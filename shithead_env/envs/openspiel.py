"""``python_shithead``: the engine as an OpenSpiel game, so OpenSpiel's algorithms and tools run unchanged.

Importing this module registers the game (it needs the ``openspiel`` extra)::

    import pyspiel
    import shithead_env.envs.openspiel  # registers python_shithead
    game = pyspiel.load_game("python_shithead", {"rules": "pub", "players": 3})

- **Parameters**: ``rules`` (a preset name), ``players``, ``max_decisions``
  (600, the training cap: a capped game splits the places left, as in the
  engine).
- **Chance**: the deal is drawn card by card (one chance node per card, each
  card code weighted by the copies left), then the dealer, then the opening
  seat where the rules open with a random one; ``Game.deal`` builds the game
  from them, exactly as ``Game.new`` would from a shuffle.
- **Actions**: the engine's fixed action layout (``NUM_ACTIONS`` ids,
  docs/state.md); returns are the placement scores (+1 first safe .. -1
  shithead, zero-sum), at the end only.
- **Observations**: the tensor is the project's observation encoding
  (docs/observation.md) of the seat's ``Knowledge``; the string is the seat's
  JSON view (docs/state.md). Both are what the seat may know, so they also
  serve as its information state. The view is not a perfect-recall history:
  two histories that leave a seat the same knowledge share one information
  state, which is what the project's inference keeps (docs/state.md).
- **Resampling**: ``resample_from_infostate`` deals the cards the seat cannot
  see with the determinizer (consistent with forced pickups, lowest-card
  openings and every narrowed hand), so OpenSpiel's ``ISMCTSBot`` runs on it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np

from shithead_env.extras import MissingExtraError, install_hint

try:
    import pyspiel
except ModuleNotFoundError:
    raise MissingExtraError(install_hint("open_spiel", "the OpenSpiel game")) from None

from shithead_env import NUM_ACTIONS, Action, Game, Knowledge, load_rules
from shithead_env.cards import NUM_RANKS, SUITS_PER_DECK, card_name, make_deck
from shithead_env.determinize import determinize_knowledge
from shithead_env.encoding import ENCODING, encode_observation
from shithead_env.scoring import final_scores

GAME_NAME = "python_shithead"
DEFAULT_PARAMETERS: dict[str, Any] = {"rules": "dead_last", "players": 4, "max_decisions": 600}
NUM_CARD_CODES = NUM_RANKS * SUITS_PER_DECK  # chance outcomes of a card: its code
MAX_PLAYERS = 10

GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Shithead (Palace), shithead-env",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=DEFAULT_PARAMETERS,
)


class ShitheadGame(pyspiel.Game):
    """One table: a rules preset and a number of players (module doc)."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        chosen = {**DEFAULT_PARAMETERS, **(params or {})}
        self.rules = load_rules(str(chosen["rules"]))
        self.players = int(chosen["players"])
        self.max_decisions = int(chosen["max_decisions"])
        self.rules.check_players(self.players)
        if self.max_decisions < 1:
            raise ValueError(f"max_decisions must be positive, got {self.max_decisions}")
        self.deck = make_deck(self.rules.decks_for(self.players), self.rules.jokers_per_deck)
        self.random_opener = self.rules.first_player == "random"
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=max(NUM_CARD_CODES, self.players),
            num_players=self.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=len(self.deck) + 2 + self.max_decisions,
        )
        super().__init__(GAME_TYPE, info, params or {})

    def new_initial_state(self) -> ShitheadState:
        return ShitheadState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> ShitheadObserver:
        return ShitheadObserver(iig_obs_type, params)


class ShitheadState(pyspiel.State):
    """The deal's chance nodes, then the engine's ``Game`` (``self.table``)."""

    def __init__(self, game: ShitheadGame) -> None:
        super().__init__(game)
        self._left = Counter(game.deck)  # card code -> copies not yet dealt
        self._dealt: list[int] = []
        self._dealer: int | None = None
        self.table: Game | None = None

    @property
    def _spec(self) -> ShitheadGame:
        """The game (not kept on the state: OpenSpiel clones a state by deep copy, the game must stay shared)."""
        return self.get_game()

    # ------------------------------------------------------------ OpenSpiel's State API
    def current_player(self) -> int:
        if self.table is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.table.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return self.table.current

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._left.total():
            total = self._left.total()
            return [(code, count / total) for code, count in sorted(self._left.items()) if count]
        n = self._spec.players
        return [(seat, 1.0 / n) for seat in range(n)]

    def _legal_actions(self, player: int) -> list[int]:
        assert self.table is not None
        return sorted(action.index for action in self.table.legal_actions())

    def _apply_action(self, action: int) -> None:
        if self.table is not None:
            self.table.step(Action.from_index(action))
        elif self._left.total():
            self._left[action] -= 1
            self._dealt.append(action)
        elif self._dealer is None and self._spec.random_opener:
            self._dealer = action
        else:
            dealer, opener = (self._dealer, action) if self._dealer is not None else (action, None)
            spec = self._spec
            self.table = Game.deal(spec.rules, spec.players, self._dealt, dealer, opener,
                                   max_decisions=spec.max_decisions)  # fmt: skip

    def _action_to_string(self, player: int, action: int) -> str:
        if player != pyspiel.PlayerId.CHANCE:
            return str(Action.from_index(action))
        if self._left.total():
            return f"deal {card_name(action)}"
        return f"{'opener' if self._dealer is not None else 'dealer'} seat {action}"

    def is_terminal(self) -> bool:
        return self.table is not None and self.table.is_over

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self._spec.players
        assert self.table is not None
        return [float(score) for score in final_scores(self.table, "placement")]

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> ShitheadState:
        """A state ``player_id`` cannot tell from this one: the cards it cannot see dealt by the determinizer."""
        state = self.clone()
        if self.table is not None:
            seed = int(probability_sampler() * 2**53)
            state.table = determinize_knowledge(Knowledge.from_game(self.table, player_id), np.random.default_rng(seed))
        return state

    def __str__(self) -> str:
        if self.table is None:
            return f"dealing: {len(self._dealt)} of {len(self._spec.deck)} cards dealt"
        table = self.table
        summary = {"current": table.current, "phase": table.phase, "decisions": table.decisions}
        return json.dumps({**summary, "finish_order": list(table.finish_order)})


class ShitheadObserver:
    """The seat's own observation (OpenSpiel's PyObserver): the encoding as tensor, the view as string."""

    def __init__(self, iig_obs_type: Any = None, params: Any = None) -> None:
        if params:
            raise ValueError(f"python_shithead observers take no parameters, got {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info
        ):
            raise ValueError("python_shithead observes one seat's own view: public and its private information")
        self.tensor = np.zeros(ENCODING.size, np.float32)
        self.dict = {}  # each encoding field, shaped, as a view into the tensor
        for field in ENCODING.fields:
            start = ENCODING.offsets[field.name]
            self.dict[field.name] = self.tensor[start : start + int(np.prod(field.shape))].reshape(field.shape)

    def set_from(self, state: ShitheadState, player: int) -> None:
        if state.table is None:
            self.tensor.fill(0.0)
        else:
            self.tensor[:] = encode_observation(state.table, player)

    def string_from(self, state: ShitheadState, player: int) -> str:
        if state.table is None:
            return f"dealing, seat {player}"
        return json.dumps(state.table.view(player), sort_keys=True, separators=(",", ":"))


pyspiel.register_game(GAME_TYPE, ShitheadGame)
