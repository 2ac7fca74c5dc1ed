"""Policy-based inference from play (Rebstock et al. 2019, arXiv:1905.10911), as a benchmark arm: a prototype that
measures what weighting a search's deals by the others' last moves would be worth before it is built into the engine.

A search samples the others' hidden hand cards uniformly among the deals public history allows. Their moves say
more: a seat that played a 9 where a 4 would do likely held no 4. Each deal here is weighted by how likely every
other seat's last decision was, had its hand been as the deal has it, under an opponent model (``model``: a bot
spec): ``agree`` when the model makes the same move, the rest shared by the seat's other legal moves. The search
then draws its deals from ``deals`` candidates by those weights (importance resampling).

What the weighting reads is public: at each of the others' decisions a ``PlayRecorder`` keeps that seat's
``Knowledge`` with the hand taken out, and its move; the seat's hand then is rebuilt from the deal's hand now and
the public events since (cards played from the hand come back, cards picked up or taken up go, and as many of the
deal's hidden cards as the seat drew go). The engine keeps no such history (``Knowledge`` holds none), so the arm
records it by watching the other bots' moves in the harness's game (``inferring_bots``): it is a measurement, not a
bot any frontend could call. benchmarks/hands_seen.py ``--arm plays`` plays it.
"""

from __future__ import annotations

import copy
from collections import Counter
from dataclasses import dataclass

import numpy as np

from agents.base import Bot
from agents.ismcts import ISMCTSBot
from shithead_env import Action, Game, Knowledge
from shithead_env.cards import NUM_RANKS, card_code, rank_index
from shithead_env.determinize import Determinizer
from shithead_env.errors import StateError
from shithead_env.events import Event, record
from shithead_env.inference import ALL_RANKS, narrow, play_hidden
from shithead_env.phases import SWAP


@dataclass
class Decision:
    """One seat's decision, as the table saw it: its knowledge then with the hand taken out, and its move."""

    knowledge: Knowledge  # ``hand`` is empty: the one secret of a seat's own knowledge
    action: Action
    events_before: int  # the game's event count when it decided: its move's events and every later one follow


class PlayRecorder:
    """The last decision of every seat in one game (the harness's), and the game's public events."""

    def __init__(self) -> None:
        self.events: list[Event] | None = None
        self.last: dict[int, Decision] = {}

    def follow(self, game: Game) -> list[Event]:
        """Start recording ``game``'s events, forgetting another game's decisions; its event list."""
        events = record(game)
        if events is not self.events:
            self.events, self.last = events, {}
        return events

    def saw(self, game: Game, seat: int, action: Action) -> None:
        """``seat`` chose ``action`` in ``game`` (before the step): keep what the table saw of it."""
        events = self.follow(game)
        knowledge = copy.copy(Knowledge.from_game(game.copy(), seat))
        knowledge.hand, knowledge._game, knowledge._legal = [], None, None
        self.last[seat] = Decision(knowledge, action, len(events))

    def decisions(self, game: Game, seat: int) -> dict[int, Decision]:
        """The other seats' last decisions in ``game``, as seen from ``seat`` (none while it is not recorded)."""
        if game.events is not self.events:
            return {}
        return {s: d for s, d in self.last.items() if s != seat and d.knowledge.phase != SWAP}


def hand_then(decision: Decision, events: list[Event], hand_now: list[int], known_now: list[int],
              rng: np.random.Generator) -> list[int] | None:
    """The seat's hand when it made ``decision``, had it ``hand_now`` now (module doc); None when the events do not
    add up (a hand it could not have held)."""
    seat = decision.knowledge.seat
    back, gone, drawn = Counter(), Counter(), 0
    for event in events[decision.events_before:]:
        if event.seat != seat:
            continue
        if event.kind == "play" and event.data["zone"] == "hand":
            back.update(map(card_code, event.data["cards"]))
        elif event.kind in ("pickup", "take_up"):
            gone.update(map(card_code, event.data["cards"]))
        elif event.kind == "draw":
            drawn += event.data["count"]
    rest = Counter(hand_now)
    if gone - rest:
        return None
    rest -= gone
    hidden = list((rest - Counter(known_now)).elements())
    if drawn > len(hidden):
        return None
    rest -= Counter(hidden[i] for i in rng.choice(len(hidden), drawn, replace=False))
    then = list((rest + back).elements())
    return then if len(then) == decision.knowledge.hand_sizes[seat] else None


class PlayWeightedDeterminizer(Determinizer):
    """Deals drawn from ``deals`` candidates, weighted by the others' last decisions under ``model`` (module doc)."""

    def __init__(self, knowledge: Knowledge, decisions: dict[int, Decision], events: list[Event], model: Bot,
                 agree: float, deals: int) -> None:
        super().__init__(knowledge)
        self.decisions, self.events, self.model = decisions, events, model
        self.agree, self.deals = agree, deals
        self.candidates: list[Game] = []
        self.weights = np.empty(0)

    def likelihood(self, game: Game, rng: np.random.Generator) -> float:
        """How likely the others' last decisions were, had their hands been as in ``game``."""
        weight = 1.0
        for seat, decision in self.decisions.items():
            hand = hand_then(decision, self.events, game.hands[seat], self.knowledge.known[seat], rng)
            if hand is None:
                continue
            then = copy.copy(decision.knowledge)
            then.hand = hand
            legal = then._legal = then.rules_legal()
            if len(legal) < 2:
                continue
            if decision.action not in legal:
                return 0.0
            same = self.model.decide(then, rng) == decision.action
            weight *= self.agree if same else (1 - self.agree) / (len(legal) - 1)
        return weight

    def sample(self, rng: np.random.Generator) -> Game:
        if not self.decisions:
            return super().sample(rng)
        if not self.candidates:
            draw = super().sample
            self.candidates = [draw(rng) for _ in range(self.deals)]
            weights = np.array([self.likelihood(game, rng) for game in self.candidates])
            self.weights = weights / weights.sum() if weights.sum() > 0 else np.full(len(weights), 1 / len(weights))
        return self.candidates[int(rng.choice(len(self.candidates), p=self.weights))].copy()


def inferring(bot: Bot, recorder: PlayRecorder, model: Bot, agree: float, deals: int) -> ISMCTSBot:
    """``bot`` (a search bot) whose deals are weighted by the others' last decisions, as ``recorder`` saw them."""
    if not isinstance(bot, ISMCTSBot):
        raise SystemExit(f"play_inference: the bot must be a search bot (ismcts, guided), got {bot.spec!r}")

    class Inferring(type(bot)):  # type: ignore[misc, valid-type]
        def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
            self.seen = recorder.decisions(game, seat), game.events
            return super().act_game(game, seat, rng)

        def _determinizer(self, knowledge: Knowledge) -> Determinizer:
            decisions, events = self.seen
            return PlayWeightedDeterminizer(knowledge, decisions, events or [], model, agree, deals)

    bot.__class__ = Inferring
    return bot


def watched(bot: Bot, recorder: PlayRecorder) -> Bot:
    """``bot``, whose every decision ``recorder`` keeps (what the table saw of it)."""

    class Watched(type(bot)):  # type: ignore[misc, valid-type]
        def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
            recorder.follow(game)
            action = super().act_game(game, seat, rng)
            recorder.saw(game, seat, action)
            return action

    bot.__class__ = Watched
    return bot


def model_allowed(knowledge: Knowledge, known: list[int], played: list[int], action: Action, model: Bot,
                  rng: np.random.Generator) -> int:
    """The ranks the seat's other hidden cards may have had when it chose ``action``, had it played as ``model``:
    those whose one card added to its public cards (``known``, and ``played`` from the hand) leaves the model's
    move as it was (a ``heuristic`` seat that laid a 9 held no plain card it could lay below the 9)."""
    then = copy.copy(knowledge)
    then.hand = [*known, *played]
    unseen = then.unseen_counts()  # per card code: a probe card must be one the seat may hold
    allowed = 0
    for rank in range(NUM_RANKS):
        probe = next((code for code in range(rank << 2, (rank + 1) << 2) if unseen[code]), None)
        if probe is None:  # every copy is in sight: the seat holds none of it, whatever the model
            continue
        then.hand = [*known, *played, probe]
        then._legal = then.rules_legal()
        if action in then._legal and model.decide(then, rng) == action:
            allowed |= 1 << rank
    return allowed


class SoftNarrowing:
    """Each seat's hidden hand cards narrowed by every decision it made, had it played as ``model`` (not sound: a
    seat that plays otherwise breaks it, and its narrowing starts again), kept through the public events as the
    engine keeps the sound one (``shithead_env.inference``: a hidden card played drops a mask, drawn cards are
    free). ``sync`` before every decision of the game, with that decision, keeps it current."""

    def __init__(self, model: Bot) -> None:
        self.model = model
        self.rng = np.random.default_rng(0)  # the model's own: the watched seats' streams stay as they were
        self.events: list[Event] | None = None
        self.masks: list[list[int]] = []
        self.pending: tuple[int, int, int, int] | None = None  # seat, allowed, hidden cards then, events before

    def update(self, game: Game) -> None:
        """Fold in the events of the step since the last decision ``chose`` kept (a new game: start afresh)."""
        events = record(game)
        if events is not self.events:
            self.events, self.masks, self.pending = events, [[] for _ in range(game.num_players)], None
        if self.pending is not None:
            self._stepped(game, *self.pending)
            self.pending = None

    def chose(self, game: Game, seat: int, action: Action) -> None:
        """``seat`` chooses ``action`` in ``game`` (before the step): what it says of its hidden cards."""
        self.update(game)
        hidden = len(game.hands[seat]) - len(game.known[seat])
        allowed = ALL_RANKS
        if game.phase != SWAP and hidden and len(game.legal_actions()) > 1:
            known, played = list(game.known[seat]), []
            if action.kind == "play":  # the cards it lays, public once laid: known ones leave first, as the engine's
                rank = rank_index(action.rank)
                hand = sorted(game.hands[seat], key=lambda c: c not in known)
                played = [c for c in hand if c >> 2 == rank][: action.count]
                for card in played:
                    if card in known:
                        known.remove(card)
            allowed = model_allowed(Knowledge.from_game(game, seat), known, played, action, self.model, self.rng)
        self.pending = (seat, allowed, hidden, len(self.events))

    def _stepped(self, game: Game, seat: int, allowed: int, hidden_then: int, before: int) -> None:
        drawn, ranks = 0, []
        for event in self.events[before:]:
            if event.seat == seat and event.kind == "draw":
                drawn += event.data["count"]
            elif event.seat == seat and event.kind == "play" and event.data["zone"] == "hand":
                ranks += [card_code(name) >> 2 for name in event.data["cards"]]
        left = len(game.hands[seat]) - len(game.known[seat]) - drawn  # hidden cards after the play, before the draw
        masks = self.masks[seat]
        try:
            for rank in ranks[: hidden_then - left]:
                masks = play_hidden(masks, hidden_then, rank)
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


def softly_inferring(bot: Bot, soft: SoftNarrowing) -> ISMCTSBot:
    class Inferring(type(bot)):  # type: ignore[misc, valid-type]
        def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
            soft.update(game)
            self.masks = [list(m) for m in soft.masks]
            return super().act_game(game, seat, rng)

        def _determinizer(self, knowledge: Knowledge) -> Determinizer:
            return SoftDeterminizer(knowledge, self.masks)

    bot.__class__ = Inferring
    return bot


def softly_watched(bot: Bot, soft: SoftNarrowing) -> Bot:
    class Watched(type(bot)):  # type: ignore[misc, valid-type]
        def act_game(self, game: Game, seat: int, rng: np.random.Generator) -> Action:
            action = super().act_game(game, seat, rng)
            soft.chose(game, seat, action)
            return action

    bot.__class__ = Watched
    return bot
