"""What no seat sees, as a vector: every hand, every face-down card and the draw pile, from one seat's slot order.

The privileged critic of training (train/networks.py) reads it beside the
seat's own observation; the policy never does, and no exported model takes
it. Seat slots are relative to ``seat`` as in the observation (slot 0 is
``seat``, slot k is ``(seat + k) % num_players``), so it lines up with the
observation's per-slot fields. Every cell is scaled into [0, 1] by its bound.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from shithead_env.actions import MAX_COPIES, MAX_SEATS
from shithead_env.cards import NUM_RANKS
from shithead_env.rules import TABLE_CARDS

if TYPE_CHECKING:
    from shithead_env.game import Game

NEXT_DRAWS = 3  # the next cards drawn, one-hot rank each: who gets what decides races

_R, _S = NUM_RANKS, MAX_SEATS
# The layout, declared once: (name, shape, what a cell holds); the offsets and the size follow from it.
FIELDS = (
    ("hands", (_S, _R), f"every seat slot's hand, cards per rank / {MAX_COPIES}"),
    ("face_down", (_S, _R), f"every seat slot's face-down cards per rank / {TABLE_CARDS}"),
    ("draw_pile", (_R,), f"draw pile, cards per rank / {MAX_COPIES}"),
    ("next_draws", (NEXT_DRAWS, _R), f"one-hot rank of each of the next {NEXT_DRAWS} cards drawn (zero past the end)"),
)
OFFSETS: dict[str, int] = {}
FULL_STATE_SIZE = 0
for _name, _shape, _ in FIELDS:
    OFFSETS[_name] = FULL_STATE_SIZE
    FULL_STATE_SIZE += math.prod(_shape)
_HANDS, _FACE_DOWN, _DRAW, _NEXT = (OFFSETS[name] for name, _, _ in FIELDS)


def encode_full_state(game: Game, seat: int) -> np.ndarray:
    """The float32 vector (length ``FULL_STATE_SIZE``) of the hidden cards, slots ordered from ``seat``."""
    n = game.num_players
    if not 0 <= seat < n:
        raise ValueError(f"seat must be 0..{n - 1}, got {seat!r}")
    out = np.zeros(FULL_STATE_SIZE, np.float32)
    copy, table = 1.0 / MAX_COPIES, 1.0 / TABLE_CARDS
    for slot in range(n):
        s = (seat + slot) % n
        for card in game.hands[s]:
            out[_HANDS + slot * _R + (card >> 2)] += copy
        for card in game.face_down[s]:
            out[_FACE_DOWN + slot * _R + (card >> 2)] += table
    draw = game.draw_pile
    for card in draw:
        out[_DRAW + (card >> 2)] += copy
    for k, card in enumerate(draw[:NEXT_DRAWS]):
        out[_NEXT + k * _R + (card >> 2)] = 1.0
    return out
