"""What one seat knows, and full games sampled consistently with it.

``Knowledge`` is a seat's view in card codes: built from a JSON view
(``Knowledge.from_view``, what a remote frontend sends) or read straight off a
``Game`` (``Knowledge.from_game``, the fast path the tournament harness uses).
Both constructors hold exactly the same information, so a bot written against
``Knowledge`` cannot peek at hidden cards and behaves identically either way.

``determinize(view, rng)`` samples a complete ``Game`` that the seat could be
in: its own cards and everything public are as in the view, each opponent's
known cards are in its hand, and every unseen card is dealt at random into the
unknown hand slots, all face-down slots (its own included) and the draw pile.
Search bots (ISMCTS) and model runtimes build on it.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any

import numpy as np

from shithead_env.actions import Action
from shithead_env.cards import NUM_RANKS, card_code, make_deck, rank_index
from shithead_env.game import Game
from shithead_env.rules import Rules, load_rules


def _codes(names: list[str]) -> list[int]:
    return [card_code(name) for name in names]


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
        """Parse a JSON view (``game.view(seat)``)."""
        k = cls.__new__(cls)
        players = view["players"]
        k.rules = load_rules(view["rules"])
        k.seat = view["seat"]
        k.num_players = view["num_players"]
        k.phase = view["phase"]
        k.current = view["current"]
        k.direction = view["direction"]
        k.dealer = view["dealer"]
        k.opener = view.get("opener")  # optional: views from before it was public lack it
        k.decisions = view["decisions"]
        k.max_decisions = view["max_decisions"]
        k.hand = _codes(view["hand"])
        k.hand_sizes = [p["hand_size"] for p in players]
        k.face_up = [_codes(p["face_up"]) for p in players]
        k.face_down = [p["face_down"] for p in players]
        k.known = [_codes(p["known"]) for p in players]
        k.active = [p["active"] for p in players]
        k.pile = _codes(view["pile"])
        k.burned = _codes(view["burned"])
        k.draw_size = view["draw_pile"]
        k.finish_order = list(view["finish_order"])
        window = view["window"]
        k.window = None if window is None else (window["played_by"], window["next"], list(window["queue"]))
        k.forced_rank = None if view["forced_rank"] is None else rank_index(view["forced_rank"])
        k.legal = [Action.from_dict(a) for a in view["legal_actions"]]
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
            raise ValueError("the view shows more copies of a card than the deck holds")
        return counts

    def unseen(self) -> list[int]:
        """Card codes this seat has never seen (deck minus every card it knows), sorted."""
        return [card for card, copies in enumerate(self.unseen_counts()) for _ in range(copies)]


def determinize_knowledge(knowledge: Knowledge, rng: np.random.Generator) -> Game:
    """A full game consistent with ``knowledge``: unseen cards dealt at random (see module doc)."""
    k = knowledge
    pool = k.unseen()
    hidden_slots = k.draw_size + sum(k.face_down)
    hidden_slots += sum(k.hand_sizes[s] - len(k.known[s]) for s in range(k.num_players) if s != k.seat)
    if hidden_slots != len(pool):
        raise ValueError(f"the view hides {hidden_slots} cards but {len(pool)} cards are unseen")
    order = rng.permutation(len(pool))
    cards = iter([pool[i] for i in order])

    game = Game(k.rules, k.num_players)
    for s in range(k.num_players):
        if s == k.seat:
            game.hands[s] = list(k.hand)
        else:
            game.hands[s] = list(k.known[s]) + [next(cards) for _ in range(k.hand_sizes[s] - len(k.known[s]))]
        game.known[s] = list(k.known[s])
        game.face_up[s] = list(k.face_up[s])
        game.face_down[s] = [next(cards) for _ in range(k.face_down[s])]
    game._draw = [next(cards) for _ in range(k.draw_size)]
    game.pile = list(k.pile)
    game.burned = list(k.burned)
    game.current = k.current
    game.direction = k.direction
    game.phase = k.phase
    game.finish_order = list(k.finish_order)
    game._active = list(k.active)
    game.dealer = k.dealer
    game.opener = k.opener
    if k.opener is None and k.phase == "swap" and k.rules.first_player == "random":
        # A view from before ``opener`` was public: a random opener is fixed at the deal, so sample one.
        game.opener = int(rng.integers(k.num_players))
    game.decisions = k.decisions
    game.max_decisions = k.max_decisions
    game.window = None if k.window is None else (k.window[0], k.window[1], list(k.window[2]))
    game.forced_rank = k.forced_rank
    return game


def determinize(view: Mapping[str, Any], rng: np.random.Generator) -> Game:
    """Sample a full game consistent with ``view`` (``game.view(seat)``); see the module doc."""
    return determinize_knowledge(Knowledge.from_view(view), rng)
