"""Full games sampled consistently with what one seat knows (its ``Knowledge``).

``determinize(view, rng)`` samples a complete ``Game`` that the seat could be
in: its own cards and everything public are as in the view, each opponent's
known cards are in its hand, and every unseen card is dealt at random into the
unknown hand slots, all face-down slots (its own included) and the draw pile,
except that an opener with a forced rank always holds one (public: the
rules made it open), by rejection, so the sample stays uniform among the
deals that fit. Samples go through ``Game.assemble``, the same check as
``Game.from_dict``. Search bots (ISMCTS) build on it; model bots encode the view itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from shithead_env.errors import StateError
from shithead_env.game import Game
from shithead_env.knowledge import Knowledge

_MAX_REDEALS = 1000


def determinize_knowledge(knowledge: Knowledge, rng: np.random.Generator) -> Game:
    """A full game consistent with ``knowledge``: unseen cards dealt at random (see module doc)."""
    k = knowledge
    pool = k.unseen()  # exactly as many as the hidden slots: Knowledge.from_view checked it
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
