"""What the discard pile asks of the next play, stated once for the engine, the encoder, the renderer and bots.

Piles are lists of card codes, bottom first. The effective top is the topmost
card that is not invisible; the constraint is the rule it imposes.
"""

from __future__ import annotations

from collections.abc import Sequence

from shithead_env.rules import RuleTables

EMPTY, RESET, AT_LEAST, AT_MOST, JOKER_ONLY = "empty", "reset", "at_least", "at_most", "joker"
CONSTRAINTS = (EMPTY, RESET, AT_LEAST, AT_MOST, JOKER_ONLY)


def top_run(pile: Sequence[int]) -> tuple[int | None, int]:
    """(rank index, length) of the physical run of equal ranks on top of ``pile``; (None, 0) when empty."""
    if not pile:
        return None, 0
    rank = pile[-1] >> 2
    run = 0
    for card in reversed(pile):
        if card >> 2 != rank:
            break
        run += 1
    return rank, run


def top_index(tables: RuleTables, pile: Sequence[int]) -> int:
    """Rank index of the effective top, or ``tables.NO_TOP``: the row of ``tables.legal`` that rules the next play."""
    invisible = tables.invisible
    for card in reversed(pile):
        if not invisible[card >> 2]:
            return card >> 2
    return tables.NO_TOP


def effective_top(tables: RuleTables, pile: Sequence[int]) -> int | None:
    """Rank index of the topmost non-invisible card, None if there is none."""
    top = top_index(tables, pile)
    return None if top == tables.NO_TOP else top


def constraint(tables: RuleTables, pile: Sequence[int]) -> tuple[str, int | None]:
    """(one of ``CONSTRAINTS``, effective top): the rule the pile imposes on the next play."""
    top = effective_top(tables, pile)
    if top is None:
        return EMPTY, None
    if tables.joker[top]:
        return JOKER_ONLY, top
    if tables.reset[top]:
        return RESET, top
    return (AT_MOST if tables.cap[top] else AT_LEAST), top
