"""Encoding version 2 of many views at once: the same cells as ``v2._encode_v2``, bit for bit, in one numpy pass.

What costs ``_encode_v2`` its time is Python touching every card and every
seat of the view (hand, pile, burned, face-up and known cards; sizes, zones,
may_hold rows); here every card of the batch goes through one ``np.bincount``
and the per-seat cells are computed as arrays, so Python touches each view a
few times, not each card. The table blocks (``layout.write_table``), the
may_hold rows of narrowed hands (``v2._may_hold_row``) and the static cells
(``v2._table_v2``) are the single encoder's own code. numpy's cost per call
makes this pay from a few dozen rows (``encoding.BATCH_MIN_ROWS``).
tests/envs/test_encoding_batch.py holds the two equal.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import NamedTuple

import numpy as np

from shithead_env.actions import MAX_COPIES, MAX_SEATS, PICKUP, PLAY_BASE
from shithead_env.cards import NUM_RANKS
from shithead_env.encodings.layout import ORDERS, write_table
from shithead_env.encodings.v2 import (
    _ACTIVE,
    _DECISIONS,
    _DIRECTION,
    _DIVISOR,
    _DRAW,
    _FACE_DOWN,
    _HAND_SIZE,
    _HIDDEN,
    _LEFT,
    _LEGAL,
    _MAY,
    _PICKUP,
    _PILE_SIZE,
    _RUN_LENGTH,
    _SIZE,
    _SQRT_CELL,
    _TABLE,
    _UNSEEN,
    _ZONE,
    OFFSETS_V2,
    _may_hold_row,
    _table_v2,
    _TableV2,
)
from shithead_env.knowledge import Knowledge
from shithead_env.rules import DEFAULT_MAX_DECISIONS

_R, _S = NUM_RANKS, MAX_SEATS
_SQRT32 = np.array(_SQRT_CELL, np.float32)  # the same float32 cells the single encoder stores from the list
_RANKS = np.arange(_R)
_SIZE_CELLS = [_PILE_SIZE, _DRAW]
_SEAT_BLOCKS = np.array([_ACTIVE, _HAND_SIZE, _HIDDEN, _LEFT, _FACE_DOWN])  # the per-seat blocks, by slot

# The count blocks (a card adds 1 to its rank's cell: hand, pile, burned, face-up and known cards) are counted in a
# compact row of their own first: (name, slots) of each block, laid end to end from _COUNT_AT[name].
_COUNT_SHAPES = (("hand", 1), ("pile", 1), ("burned", 1), ("face_up", _S), ("known", _S))
_COUNT_AT = dict(
    zip(
        (name for name, _ in _COUNT_SHAPES),
        itertools.accumulate((slots * _R for _, slots in _COUNT_SHAPES[:-1]), initial=0),
        strict=True,
    )
)
_COUNTS = sum(slots * _R for _, slots in _COUNT_SHAPES)
# The observation cell of each compact cell.
_COUNT_COLUMNS = np.concatenate(
    [np.arange(OFFSETS_V2[name], OFFSETS_V2[name] + slots * _R) for name, slots in _COUNT_SHAPES]
)
# compact cells @ _SEEN = the cards per rank the observer has seen: every block but its own known cards (in its hand)
_SEEN = np.zeros((_COUNTS, _R), np.float32)
_SEEN[np.arange(_COUNTS), np.arange(_COUNTS) % _R] = 1
_SEEN[_COUNT_AT["known"] : _COUNT_AT["known"] + _R] = 0
# Per table size: the compact offset of each card list a row gives, in the order encode_batch_v2 lists them
# (hand, pile, burned, then face-up and known cards slot by slot).
_COUNT_BASES = {
    n: np.array(
        (0, _R, 2 * _R, *(_COUNT_AT["face_up"] + slot * _R for slot in range(n)),
         *(_COUNT_AT["known"] + slot * _R for slot in range(n)))
    )
    for n in ORDERS
}  # fmt: skip
# Per table size and observer: the slot of each absolute seat (the inverse of ORDERS[n][seat]).
_SLOTS = {n: tuple(tuple((s - seat) % n for s in range(n)) for seat in range(n)) for n in ORDERS}


def _small(values: list[int]) -> np.ndarray:
    """Small non-negative ints (below 256: counts of at most MAX_CARDS cards, slots, flags) as an array, cheaply."""
    return np.frombuffer(bytes(values), np.uint8)


class _Rows(NamedTuple):
    """What ``_gather`` reads off a batch's views, in the flat lists the numpy passes take."""

    tables: list[_TableV2]  # the static cells of each (rules, table size) met, in order
    table_of: list[int]  # per row: its index in ``tables``
    card_lists: list[list[int]]  # per row: hand, pile, burned, then face-up and known cards slot by slot
    ns: list[int]  # per row: its table size
    slots: list[int]  # per seat of every row (absolute seat order): its slot for the row's observer
    seats: list[int]  # six blocks of one entry per seat: hand size, face-up, face-down, seen, active, narrowed
    ones: list[int]  # the one-hot table cells set, row by row (``layout.write_table``)
    ones_per_row: list[int]
    small: list[int]  # per row: pile size, draw size, direction + 1, run length
    decisions: list[int]


def _gather(ks: Sequence[Knowledge]) -> _Rows:
    """One Python pass over the views: the only place the batch encoder touches them one by one."""
    tables: list[_TableV2] = []
    table_of: list[int] = []
    last_rules, last_n = None, 0
    card_lists, ns, slots, ones, ones_per_row, small, decisions = [], [], [], [], [], [], []
    sizes, ups, downs, seen, active, narrowed = [], [], [], [], [], []  # per seat, in absolute seat order
    for k in ks:
        n, seat, rules, pile = k.num_players, k.seat, k.rules, k.pile
        if rules is not last_rules or n != last_n:
            last_rules, last_n = rules, n
            tables.append(_table_v2(rules, n))
        table_of.append(len(tables) - 1)
        order = ORDERS[n][seat]
        face_up, known = k.face_up, k.known
        card_lists += (k.hand, pile, k.burned)
        card_lists += map(face_up.__getitem__, order)
        card_lists += map(known.__getitem__, order)
        ns.append(n)
        slots += _SLOTS[n][seat]
        sizes += k.hand_sizes
        ups += map(len, face_up)
        downs += k.face_down
        seen += map(len, known)
        active += k.active
        narrowed += map(bool, k.narrowed)
        cells: dict[int, int] = {}  # the one-hot table blocks, by the single encoder's own code
        small += (len(pile), k.draw_size, k.direction + 1, write_table(cells, k, _TABLE))
        ones += cells
        ones_per_row.append(len(cells))
        decisions.append(k.decisions)
    return _Rows(tables, table_of, card_lists, ns, slots, sizes + ups + downs + seen + active + narrowed, ones,
                 ones_per_row, small, decisions)


def encode_batch_v2(ks: Sequence[Knowledge], legal: np.ndarray) -> np.ndarray:
    """(len(ks), size) float32: row i is ``_encode_v2(ks[i])``; ``legal`` holds the rows' ``legal_mask``."""
    b = len(ks)
    if not b:
        return np.zeros((0, _SIZE), np.float32)
    rows = _gather(ks)
    tables, ns = rows.tables, rows.ns
    row_at = np.arange(0, b * _SIZE, _SIZE)
    if len(tables) == 1:
        index = None
        obs = np.tile(np.frombuffer(tables[0].template, np.float32), (b, 1))
    else:
        index = np.array(rows.table_of)
        obs = np.frombuffer(b"".join(t.template for t in tables), np.float32).reshape(-1, _SIZE)[index]
    cell = obs.reshape(-1)  # a view: flat cell indices, row * size + offset
    cell[np.repeat(row_at, rows.ones_per_row) + np.array(rows.ones, np.intp)] = 1

    # Every card adds 1 to its rank's cell of its count block: one bincount over the batch's compact count rows.
    card_lists = rows.card_lists
    lengths = np.fromiter(map(len, card_lists), np.intp, len(card_lists))
    n_of = _small(ns)
    uniform = ns.count(ns[0]) == b
    bases = np.tile(_COUNT_BASES[ns[0]], b) if uniform else np.concatenate([_COUNT_BASES[n] for n in ns])
    bases += np.repeat(np.arange(0, b * _COUNTS, _COUNTS), n_of * 2 + 3)
    at = np.repeat(bases, lengths) + (_small(list(itertools.chain.from_iterable(card_lists))) >> 2)
    counts = np.bincount(at, minlength=b * _COUNTS).reshape(b, _COUNTS).astype(np.float32)
    obs[:, _COUNT_COLUMNS] = counts
    decks = np.array([t.deck for t in tables], np.float32)
    obs[:, _UNSEEN : _UNSEEN + _R] = (decks if index is None else decks[index]) - counts @ _SEEN  # exact integers

    _write_seats(cell, ks, rows, index, np.repeat(row_at, n_of))
    plays = legal[:, PLAY_BASE:PICKUP].reshape(b, -1, MAX_COPIES)
    obs[:, _LEGAL : _LEGAL + plays.shape[1]] = plays.any(axis=2)
    obs[:, _PICKUP] = legal[:, PICKUP]
    scalars = _small(rows.small).reshape(b, 4)
    obs[:, _SIZE_CELLS] = _SQRT32[scalars[:, :2]]  # pile and draw pile sizes
    obs[:, _DIRECTION] = scalars[:, 2].astype(np.float32) - 1
    obs[:, _RUN_LENGTH] = scalars[:, 3]
    obs[:, _DECISIONS] = np.sqrt(np.minimum(rows.decisions, DEFAULT_MAX_DECISIONS) / DEFAULT_MAX_DECISIONS)
    obs /= _DIVISOR
    return obs


def _write_seats(cell: np.ndarray, ks: Sequence[Knowledge], rows: _Rows, index: np.ndarray | None,
                 seat_rows: np.ndarray) -> None:
    """The per-seat cells (one entry per seat of every row, absolute seat order, ``seat_rows`` its row's first
    cell) scattered to its observer's slot: active, sizes, face-down, zone and the may_hold rows."""
    slot = _small(rows.slots).astype(np.intp)
    at = seat_rows + slot
    size, up, down, seen_cards, is_active, is_narrowed = _small(rows.seats).astype(np.intp).reshape(6, -1)
    hidden = size - seen_cards
    sized = _SQRT32[np.stack((size, hidden, size + up + down))]  # hand_size, hidden_hand, cards_left
    cell[at + _SEAT_BLOCKS[:, None]] = np.concatenate((is_active[None], sized, down[None]))
    cell[at + 3 * slot + _ZONE + np.where(size > 0, 0, np.where(up > 0, 1, np.where(down > 0, 2, 3)))] = 1
    may = at + _MAY + (_R - 1) * slot  # each seat's first may_hold cell
    free = np.flatnonzero((hidden > 0) & (is_narrowed == 0))  # every hidden card may be any rank of the deck
    tables = rows.tables
    rows_free = np.array([t.free for t in tables], np.float32)
    cell[may[free, None] + _RANKS] = rows_free[0] if index is None else rows_free[index[at[free] // _SIZE]]
    for entry in np.flatnonzero((hidden > 0) & (is_narrowed > 0)).tolist():
        # a hand public history narrowed: its may_hold row as the single encoder makes and caches it
        row, s = divmod(int(at[entry]), _SIZE)
        k, h = ks[row], int(hidden[entry])
        table, masks = tables[rows.table_of[row]], k.narrowed[ORDERS[k.num_players][k.seat][s]]
        found = table.rows.get((h, *masks))
        if found is None:
            found = _may_hold_row(table, h, masks)
        start = int(may[entry])
        cell[start : start + _R] = found
