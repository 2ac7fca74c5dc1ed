"""Inference from play as a soft narrowing (after Rebstock et al. 2019, arXiv:1905.10911), a benchmark arm that
measures what it would be worth to a search before it is built into the engine.

The engine narrows a seat's hidden hand cards by what the rules prove (shithead_env/inference.py: a forced pickup,
a lowest-card opening). How a seat played says more, had it played as a model bot: a ``heuristic`` seat that laid a
9 held no plain card it could have laid below the 9. ``SoftNarrowing`` keeps that for every seat, from every one of
its decisions: the ranks whose one card, added to the seat's public cards, would leave the model's move as it was
(``model_allowed``) narrow its hidden cards then, and the narrowing is carried through later plays and draws as the
engine carries the sound one (``inference.narrow`` and ``play_hidden``). It is not sound: a seat that plays
otherwise than the model can break it, and then its narrowing starts again. ``SoftDeterminizer`` deals the search's
hidden cards to fit it, where the sound narrowing says nothing of a seat, and the plain deals when nothing fits.

Everything it reads is public: the seats' known cards and hand sizes, the public events (``events.record``) and the
cards a seat lays, which are public once laid. The engine keeps no history of decisions (``Knowledge`` holds none),
so the arm follows the harness's game by watching the other bots' moves: a measurement, not a bot a frontend could
call. benchmarks/hands_seen.py ``--arm history`` plays it.
"""

from __future__ import annotations

import copy

import numpy as np

from agents.base import Bot
from shithead_env import Action, Game, Knowledge
from shithead_env.cards import NUM_RANKS, card_code
from shithead_env.determinize import Determinizer
from shithead_env.errors import StateError
from shithead_env.events import Event, record
from shithead_env.inference import ALL_RANKS, narrow, play_hidden
from shithead_env.phases import SWAP


def model_allowed(knowledge: Knowledge, known: list[int], played: list[int], action: Action, model: Bot,
                  rng: np.random.Generator) -> int:
    """The ranks the seat's other hidden cards may have had when it chose ``action``, had it played as ``model``:
    those whose one card added to its public cards (``known``, and ``played`` from the hand) leaves the model's
    move as it was (a ``heuristic`` seat that laid a 9 held no plain card it could lay below the 9)."""
    unseen = knowledge.with_hand([*known, *played]).unseen_counts()  # per card code: a probe is one it may hold
    allowed = 0
    for rank in range(NUM_RANKS):
        probe = next((code for code in range(rank << 2, (rank + 1) << 2) if unseen[code]), None)
        if probe is None:  # every copy is in sight: the seat holds none of it, whatever the model
            continue
        then = knowledge.with_hand([*known, *played, probe])
        if action in then.legal and model.decide(then, rng) == action:
            allowed |= 1 << rank
    return allowed


class SoftNarrowing:
    """Each seat's hidden hand cards narrowed by every decision it made, had it played as ``model`` (not sound: a
    seat that plays otherwise breaks it, and its narrowing starts again), kept through the public events as the
    engine keeps the sound one (``shithead_env.inference``: a hidden card played drops a mask, drawn cards are
    free). ``chose`` at every other seat's decision and ``update`` at the searching seat's keep it current."""

    def __init__(self, model: Bot) -> None:
        self.model = model
        self.rng = np.random.default_rng(0)  # the model's own: the watched seats' streams stay as they were
        self.events: list[Event] | None = None
        self.masks: list[list[int]] = []
        # the last decision, until its step is folded in: seat, its knowledge then (None: it says nothing of its
        # hidden cards), its move, its hidden cards then, the events before it
        self.pending: tuple[int, Knowledge | None, Action, int, int] | None = None

    def update(self, game: Game) -> None:
        """Fold in the events of the step since the last decision ``chose`` kept (a new game: start afresh)."""
        events = record(game)
        if events is not self.events:
            self.events, self.masks, self.pending = events, [[] for _ in range(game.num_players)], None
        if self.pending is not None:
            self._stepped(game, *self.pending)
            self.pending = None

    def chose(self, game: Game, seat: int, action: Action) -> None:
        """``seat`` chooses ``action`` in ``game`` (before the step): kept, to read once the step shows its cards."""
        self.update(game)
        hidden = len(game.hands[seat]) - len(game.known[seat])
        informative = game.phase != SWAP and hidden and len(game.legal_actions()) > 1
        then = Knowledge.from_game(game.copy(), seat) if informative else None
        self.pending = (seat, then, action, hidden, len(self.events))

    def _stepped(self, game: Game, seat: int, then: Knowledge | None, action: Action, hidden_then: int,
                 before: int) -> None:
        drawn, laid = 0, []
        for event in self.events[before:]:
            if event.seat == seat and event.kind == "draw":
                drawn += event.data["count"]
            elif event.seat == seat and event.kind == "play" and event.data["zone"] == "hand":
                laid += [card_code(name) for name in event.data["cards"]]
        allowed = ALL_RANKS
        if then is not None:  # a play leaves the seat's known cards as the engine took them (known ones first)
            known = list(game.known[seat]) if action.kind == "play" else list(then.known[seat])
            allowed = model_allowed(then, known, laid, action, self.model, self.rng)
        left = len(game.hands[seat]) - len(game.known[seat]) - drawn  # hidden cards after the play, before the draw
        masks = self.masks[seat]
        try:
            for card in laid[: hidden_then - left]:
                masks = play_hidden(masks, hidden_then, card >> 2)
                hidden_then -= 1
        except ValueError:  # the seat did not play as the model: start again
            masks = []
        self.masks[seat] = narrow(masks, left, allowed) if left >= len(masks) else []


class SoftDeterminizer(Determinizer):
    """Deals whose other seats' hidden cards fit their soft narrowing (where the sound one narrows none of them),
    each simulation a fresh one; when no deal fits (a seat played otherwise than the model), the plain deals."""

    def __init__(self, knowledge: Knowledge, masks: list[list[int]]) -> None:
        soft = copy.copy(knowledge)
        seat = knowledge.seat
        soft.narrowed = [sound or (masks[s] if s != seat else []) for s, sound in enumerate(knowledge.narrowed)]
        super().__init__(soft)
        self.public["narrowed"] = knowledge.narrowed  # the sampled games keep what the table has seen
        self.plain = knowledge

    def sample(self, rng: np.random.Generator) -> Game:
        try:
            return super().sample(rng)
        except StateError:
            self.knowledge = self.plain
            return super().sample(rng)
