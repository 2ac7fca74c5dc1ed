"""Full games sampled consistently with what one seat knows (its ``Knowledge``).

``determinize(view, rng)`` samples a complete ``Game`` that the seat could be
in: its own cards and everything public are as in the view, each opponent's
known cards are in its hand, and the unseen cards are dealt at random into the
unknown hand slots, all face-down slots (its own included) and the draw pile,
so that every hidden hand card public history narrows (``narrowed``: a forced
pickup, a lowest-card opening; ``shithead_env.inference``) is of a rank it
allows. Narrowed cards are dealt first, narrowest first, each the first
fitting card of the shuffled pool (a matching, ``inference.match``, moves an
earlier pick when that is the only way every narrowed card gets one), and the
rest of the pool fills the other slots in shuffled order: uniform among all
deals when nothing is narrowed, close to it otherwise. Samples go through ``Game.assemble``, the
same check as ``Game.from_dict`` (a ``Determinizer`` drawing many samples of one
view checks the first). Search bots (ISMCTS) build on it; model bots encode the
view itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from shithead_env.errors import StateError
from shithead_env.fields import PUBLIC, SEAT_FIELDS, TABLE_FIELDS
from shithead_env.game import Game
from shithead_env.inference import match
from shithead_env.knowledge import Knowledge
from shithead_env.phases import SWAP


class Determinizer:
    """Repeated samples of one ``Knowledge`` (a search's determinizations).

    The first sample goes through ``Game.assemble``'s full check. Every later
    one differs from it only in which unseen card lies in which hidden slot,
    dealt by the same narrowed-first rule, so the check could not fail on it and
    is skipped: that check is half of a determinization's cost.
    """

    def __init__(self, knowledge: Knowledge) -> None:
        self.knowledge = knowledge
        self.pool = knowledge.unseen()  # exactly as many as the hidden slots: Knowledge.from_view checked it
        # Every public field as the seat sees it (the declaration's view_key is the Knowledge attribute), but
        # the opener, which a sample may have to draw; the hidden fields are dealt per sample.
        self.public = {
            f.attr: getattr(knowledge, f.view_key)
            for f in (*TABLE_FIELDS, *SEAT_FIELDS)
            if f.visibility == PUBLIC and f.view_key and f.attr != "opener"
        }
        self._checked = False

    def sample(self, rng: np.random.Generator) -> Game:
        """A full game consistent with the knowledge: unseen cards dealt at random (see module doc)."""
        k, pool = self.knowledge, self.pool
        dealt = _deal(k, [pool[i] for i in rng.permutation(len(pool))])
        if dealt is None:  # not for a checked view (Knowledge.from_view refuses it) nor a real game's
            raise StateError(f"no deal of the unseen cards fits the narrowed hands {k.narrowed}")
        hands, cards = dealt
        cards = iter(cards)
        face_down = [[next(cards) for _ in range(k.face_down[s])] for s in range(k.num_players)]
        opener = k.opener
        if opener is None and k.phase == SWAP and k.rules.first_player == "random":
            # A view from before ``opener`` was public: a random opener is fixed at the deal, so sample one.
            opener = int(rng.integers(k.num_players))
        game = Game.assemble(
            **self.public,
            opener=opener,
            hands=hands,
            face_down=face_down,
            draw_pile=[next(cards) for _ in range(k.draw_size)],
            check=not self._checked,
        )
        self._checked = True
        return game


def determinize_knowledge(knowledge: Knowledge, rng: np.random.Generator) -> Game:
    """A full game consistent with ``knowledge``: unseen cards dealt at random (see module doc)."""
    return Determinizer(knowledge).sample(rng)


def _deal(k: Knowledge, shuffled: list[int]) -> tuple[list[list[int]], list[int]] | None:
    """Opponents' hands from a shuffled pool, narrowed cards first (module doc), and the pool left over.

    None when no deal of the pool fits the narrowed cards.
    """
    hands = [list(k.hand) if s == k.seat else list(k.known[s]) for s in range(k.num_players)]
    narrowed = sorted(
        (mask.bit_count(), mask, s) for s in range(k.num_players) if s != k.seat for mask in k.narrowed[s]
    )
    picks = match([mask for _, mask, _ in narrowed], shuffled)
    if picks is None:
        return None
    for (_, _, seat), pick in zip(narrowed, picks, strict=True):
        hands[seat].append(shuffled[pick])
    taken = set(picks)
    rest = iter([card for i, card in enumerate(shuffled) if i not in taken])
    for s in range(k.num_players):
        if s != k.seat:
            hands[s] += [next(rest) for _ in range(k.hand_sizes[s] - len(hands[s]))]
    return hands, list(rest)


def determinize(view: Mapping[str, Any], rng: np.random.Generator) -> Game:
    """Sample a full game consistent with ``view`` (``game.view(seat)``); see the module doc."""
    return determinize_knowledge(Knowledge.from_view(view), rng)
