"""Who acts next and from where, stated once for the engine, the events and bots."""

from __future__ import annotations

from collections.abc import Sequence

from shithead_env.rules import RuleTables

ZONES = ("hand", "face_up", "face_down", "none")


def advance(active: Sequence[bool], direction: int, seat: int, steps: int) -> int:
    """The active seat ``steps`` places on from ``seat`` in ``direction`` (the rotation, stated once)."""
    n = len(active)
    while steps:
        seat = (seat + direction) % n
        if active[seat]:
            steps -= 1
    return seat


def turn_after_play(
    tables: RuleTables, active: Sequence[bool], direction: int, seat: int, rank: int, count: int, *, safe: bool
) -> tuple[int | None, int]:
    """(who acts next, direction of play) after ``seat`` lays ``count`` cards of ``rank`` in turn, without a burn.

    ``active`` is read after the play (``safe``: it emptied the player's
    cards). Next is None when the player must nominate. Bots ask this instead
    of restating skip, reverse and extra-turn rules.
    """
    if tables.reverse[rank] and count % 2 and sum(active) + safe > 2:  # counted before the player went out
        direction = -direction
    if tables.nominate[rank]:
        return None, direction
    if tables.extra_turn[rank]:
        return (advance(active, direction, seat, 1) if safe else seat), direction
    return advance(active, direction, seat, 1 + skips(tables, rank, count)), direction


def skips(tables: RuleTables, rank: int, count: int) -> int:
    """How many active seats a play of ``count`` cards of ``rank`` passes over (one a card of a skip rank)."""
    return count if tables.skip[rank] else 0


def zone_index(hand_size: int, face_up_size: int, face_down_size: int) -> int:
    """Where ``zone_of`` stands in ``ZONES`` (the encodings' one-hot)."""
    return 0 if hand_size else 1 if face_up_size else 2 if face_down_size else 3


def zone_of(hand_size: int, face_up_size: int, face_down_size: int) -> str:
    """The zone a seat plays from (one of ``ZONES``): its hand first, then face-up, then face-down cards."""
    return ZONES[zone_index(hand_size, face_up_size, face_down_size)]
