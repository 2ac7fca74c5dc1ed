"""What one seat knows, and full games sampled consistently with it.

``Knowledge`` is a seat's view in card codes: built from a JSON view
(``Knowledge.from_view``, what a remote frontend sends) or read straight off a
``Game`` (``Knowledge.from_game``, the fast path the tournament harness uses).
Both constructors hold exactly the same information, so a bot written against
``Knowledge`` cannot peek at hidden cards and behaves identically either way.

``determinize(view, rng)`` samples a complete ``Game`` that the seat could be
in: its own cards and everything public are as in the view, each opponent's
known cards are in its hand, and every unseen card is dealt at random into the
unknown hand slots, all face-down slots (its own included) and the draw pile,
except that an opener with a forced rank always holds one (public: the
rules made it open), by rejection, so the sample stays uniform among the
deals that fit. Samples go through ``Game.assemble``, the same check as
``Game.from_dict``. Search bots (ISMCTS) and model runtimes build on it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

from shithead_env.actions import MAX_SEATS, Action
from shithead_env.cards import NUM_RANKS, card_code, make_deck, rank_index
from shithead_env.game import PHASES, Game, StateError
from shithead_env.rules import TABLE_CARDS, Rules, RulesError, load_rules


@functools.lru_cache(maxsize=64)
def _deck_counts(decks: int, jokers_per_deck: int, per_rank: bool) -> tuple[int, ...]:
    """Copies of each card code (or of each rank index, ``per_rank``) in ``decks`` decks."""
    counts = [0] * (NUM_RANKS if per_rank else NUM_RANKS * 4)
    for card in make_deck(decks, jokers_per_deck):
        counts[card >> 2 if per_rank else card] += 1
    return tuple(counts)


class Knowledge:
    """Everything seat ``seat`` may know, as card codes. Treat every list as read-only.

    ``from_game`` shares the game's own lists (no copies, for speed); never
    mutate them.
    """

    __slots__ = (
        "active",
        "burned",
        "current",
        "dealer",
        "decisions",
        "direction",
        "draw_size",
        "face_down",
        "face_up",
        "finish_order",
        "forced_rank",
        "hand",
        "hand_sizes",
        "known",
        "legal",
        "max_decisions",
        "num_players",
        "opener",
        "phase",
        "pile",
        "rules",
        "seat",
        "window",
    )

    rules: Rules
    seat: int
    num_players: int
    phase: str
    current: int | None
    direction: int
    dealer: int
    opener: int | None  # the seat opening after the swap when fixed at the deal (or once play began), else None
    decisions: int
    max_decisions: int
    hand: list[int]
    hand_sizes: list[int]
    face_up: list[list[int]]
    face_down: list[int]  # counts: nobody sees a face-down card
    known: list[list[int]]  # per seat: the cards of its hand that everyone has seen
    active: list[bool]
    pile: list[int]
    burned: list[int]
    draw_size: int
    finish_order: list[int]
    window: tuple[int, int, list[int]] | None
    forced_rank: int | None
    legal: list[Action]  # empty unless seat is the one to act

    @classmethod
    def from_game(cls, game: Game, seat: int) -> Knowledge:
        """Read what ``seat`` may know straight off a game (no JSON round trip)."""
        k = cls.__new__(cls)
        k.rules = game.rules
        k.seat = seat
        k.num_players = game.num_players
        k.phase = game.phase
        k.current = game.current
        k.direction = game.direction
        k.dealer = game.dealer
        k.opener = game.opener
        k.decisions = game.decisions
        k.max_decisions = game.max_decisions
        k.hand = game.hands[seat]
        k.hand_sizes = [len(h) for h in game.hands]
        k.face_up = game.face_up
        k.face_down = [len(d) for d in game.face_down]
        k.known = game.known
        k.active = game._active
        k.pile = game.pile
        k.burned = game.burned
        k.draw_size = game.draw_pile_size
        k.finish_order = game.finish_order
        k.window = game.window
        k.forced_rank = game.forced_rank
        k.legal = game.legal_actions() if seat == game.current else []
        return k

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Knowledge:
        """Parse a JSON view (``game.view(seat)``), refusing any view no full game is consistent with.

        The one check of a view for every caller (bots, the protocol handler,
        ``determinize``): ``StateError`` names a missing, mistyped or
        inconsistent field, so a view accepted here never fails later.
        """
        if not isinstance(view, Mapping):
            raise StateError(f"a view must be a mapping, got {type(view).__name__}")
        read = _ViewReader(view)
        k = cls.__new__(cls)
        rules = read.get("rules")
        if not isinstance(rules, (str, Mapping)):
            raise StateError(f"view.rules must be a preset name or a rules mapping, got {rules!r}")
        try:
            k.rules = load_rules(rules)
        except RulesError as error:
            raise StateError(f"view.rules: {error}") from None
        n = k.num_players = read.int("num_players", 2, MAX_SEATS)
        k.seat = read.int("seat", 0, n - 1)
        k.phase = read.get("phase")
        if k.phase not in PHASES:
            raise StateError(f"view.phase must be one of {PHASES}, got {k.phase!r}")
        k.current = read.int("current", 0, n - 1, nullable=True)
        k.direction = read.int("direction", -1, 1)
        if k.direction == 0:
            raise StateError("view.direction must be 1 or -1, got 0")
        k.dealer = read.int("dealer", 0, n - 1)
        k.opener = read.int("opener", 0, n - 1, nullable=True, default=None)  # views older than it lack it
        k.decisions = read.int("decisions", 0)
        k.max_decisions = read.int("max_decisions", 1)
        k.hand = read.cards("hand")
        players = read.get("players")
        if not isinstance(players, list) or len(players) != n:
            raise StateError(f"view.players must list {n} seats (num_players), got {players!r}")
        seats = [_ViewReader(p, f"view.players[{s}]") for s, p in enumerate(players)]
        k.hand_sizes = [p.int("hand_size", 0) for p in seats]
        k.face_up = [p.cards("face_up") for p in seats]
        k.face_down = [p.int("face_down", 0, TABLE_CARDS) for p in seats]
        k.known = [p.cards("known") for p in seats]
        k.active = [p.get("active") for p in seats]
        k.pile = read.cards("pile")
        k.burned = read.cards("burned")
        k.draw_size = read.int("draw_pile", 0)
        finish = read.get("finish_order")
        if not isinstance(finish, list):
            raise StateError(f"view.finish_order must be a list of seats, got {finish!r}")
        k.finish_order = [_strict_int(s, f"view.finish_order[{i}]", 0, n - 1) for i, s in enumerate(finish)]
        if k.active != [s not in k.finish_order for s in range(n)]:
            raise StateError("view.players[*].active must be true exactly for the seats not in finish_order")
        if k.hand_sizes[k.seat] != len(k.hand):
            raise StateError(
                f"view.players[{k.seat}].hand_size is {k.hand_sizes[k.seat]} but view.hand holds {len(k.hand)}"
            )
        for s in range(n):
            if len(k.known[s]) > k.hand_sizes[s]:
                raise StateError(f"view.players[{s}].known holds more cards than its hand_size {k.hand_sizes[s]}")
        window = read.get("window")
        if window is None:
            k.window = None
        else:
            w = _ViewReader(window, "view.window")
            queue = w.get("queue")
            if not isinstance(queue, list):
                raise StateError(f"view.window.queue must be a list of seats, got {queue!r}")
            k.window = (
                w.int("played_by", 0, n - 1),
                w.int("next", 0, n - 1),
                [_strict_int(s, f"view.window.queue[{i}]", 0, n - 1) for i, s in enumerate(queue)],
            )
        forced = read.get("forced_rank")
        try:
            k.forced_rank = None if forced is None else rank_index(forced)
        except ValueError as error:
            raise StateError(f"view.forced_rank: {error}") from None
        legal = read.get("legal_actions")
        if not isinstance(legal, list):
            raise StateError(f"view.legal_actions must be a list of actions, got {legal!r}")
        try:
            k.legal = [Action.from_dict(a) for a in legal]
        except (ValueError, TypeError) as error:
            raise StateError(f"view.legal_actions: {error}") from None
        determinize_knowledge(k, np.random.default_rng(0))  # some full game fits the view, or StateError
        return k

    def unseen_counts(self, per_rank: bool = False) -> list[int]:
        """Copies of each card code this seat has never seen (the deck minus every card it knows).

        Indexed by card code, or by rank index with ``per_rank`` (summed over suits).
        """
        shift = 2 if per_rank else 0
        counts = list(_deck_counts(self.rules.decks_for(self.num_players), self.rules.jokers_per_deck, per_rank))
        zones = [self.hand, self.pile, self.burned, *self.face_up]
        zones += [known for s, known in enumerate(self.known) if s != self.seat]
        for zone in zones:
            for card in zone:
                counts[card >> shift] -= 1
        if min(counts) < 0:
            raise StateError("the view shows more copies of a card than the deck holds")
        return counts

    def unseen(self) -> list[int]:
        """Card codes this seat has never seen (deck minus every card it knows), sorted."""
        return [card for card, copies in enumerate(self.unseen_counts()) for _ in range(copies)]


_MAX_REDEALS = 1000


def _strict_int(value: Any, where: str, low: int, high: int | None = None) -> int:
    if type(value) is not int or value < low or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise StateError(f"{where} must be an integer {span}, got {value!r}")
    return value


class _ViewReader:
    """Reads one mapping of a view; every error names the field's path."""

    _MISSING = object()

    def __init__(self, data: Any, path: str = "view") -> None:
        if not isinstance(data, Mapping):
            raise StateError(f"{path} must be a mapping, got {data!r}")
        self.data, self.path = data, path

    def get(self, key: str, default: Any = _MISSING) -> Any:
        if key in self.data:
            return self.data[key]
        if default is self._MISSING:
            raise StateError(f"{self.path} lacks the field {key!r}")
        return default

    def int(self, key: str, low: int, high: int | None = None, *, nullable: bool = False, default: Any = _MISSING):
        value = self.get(key, default)
        if value is None and nullable:
            return None
        return _strict_int(value, f"{self.path}.{key}", low, high)

    def cards(self, key: str) -> list[int]:
        names = self.get(key)
        if not isinstance(names, list):
            raise StateError(f"{self.path}.{key} must be a list of cards such as ['KS', 'TH'], got {names!r}")
        try:
            return [card_code(name) for name in names]
        except (ValueError, TypeError, AttributeError):
            raise StateError(f"{self.path}.{key}: unknown card in {names!r}") from None


def determinize_knowledge(knowledge: Knowledge, rng: np.random.Generator) -> Game:
    """A full game consistent with ``knowledge``: unseen cards dealt at random (see module doc)."""
    k = knowledge
    pool = k.unseen()
    hidden_slots = k.draw_size + sum(k.face_down)
    hidden_slots += sum(k.hand_sizes[s] - len(k.known[s]) for s in range(k.num_players) if s != k.seat)
    if hidden_slots != len(pool):
        raise StateError(
            f"the view hides {hidden_slots} cards (draw pile, face-down cards, unknown hand cards) "
            f"but {len(pool)} cards of the deck are unseen"
        )
    for _ in range(_MAX_REDEALS):
        order = rng.permutation(len(pool))
        cards = iter([pool[i] for i in order])
        hands = [
            list(k.hand)
            if s == k.seat
            else list(k.known[s]) + [next(cards) for _ in range(k.hand_sizes[s] - len(k.known[s]))]
            for s in range(k.num_players)
        ]
        # Public: the opener holds its forced rank. Rejection keeps the sample uniform among fitting deals.
        if k.forced_rank is None or k.current is None or any(c >> 2 == k.forced_rank for c in hands[k.current]):
            break
    else:
        raise StateError(f"no deal of the unseen cards gives seat {k.current} its forced_rank")
    face_down = [[next(cards) for _ in range(k.face_down[s])] for s in range(k.num_players)]
    opener = k.opener
    if opener is None and k.phase == "swap" and k.rules.first_player == "random":
        # A view from before ``opener`` was public: a random opener is fixed at the deal, so sample one.
        opener = int(rng.integers(k.num_players))
    return Game.assemble(
        k.rules,
        hands=hands,
        face_up=k.face_up,
        face_down=face_down,
        known=k.known,
        draw_pile=[next(cards) for _ in range(k.draw_size)],
        pile=k.pile,
        burned=k.burned,
        phase=k.phase,
        current=k.current,
        direction=k.direction,
        finish_order=k.finish_order,
        dealer=k.dealer,
        opener=opener,
        decisions=k.decisions,
        max_decisions=k.max_decisions,
        window=k.window,
        forced_rank=k.forced_rank,
    )


def determinize(view: Mapping[str, Any], rng: np.random.Generator) -> Game:
    """Sample a full game consistent with ``view`` (``game.view(seat)``); see the module doc."""
    return determinize_knowledge(Knowledge.from_view(view), rng)
