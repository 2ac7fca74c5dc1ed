"""Encoding version 2 (current): version 1's fields scaled by their bounds, plus the counts a strong player keeps.

Layout and scales: ``FIELDS_V2`` (docs/observation.md). Held bit for bit by
tests/fixtures/observations_v2.json: a change of any cell is a new version.
"""

from __future__ import annotations

import math
import weakref
from array import array
from dataclasses import dataclass, replace

import numpy as np

from shithead_env.actions import MAX_COPIES, MAX_SEATS, PICKUP, PLAY_BASE
from shithead_env.cards import NUM_RANKS, make_deck
from shithead_env.encodings.layout import (
    LINEAR,
    MAX_CARDS,
    ORDERS,
    SQRT,
    Encoding,
    Field,
    fill_rules,
    offsets_of,
    table_offsets,
    write_table,
)
from shithead_env.encodings.v1 import FIELDS_V1
from shithead_env.inference import mask_ranks
from shithead_env.knowledge import Knowledge
from shithead_env.rules import DEFAULT_MAX_DECISIONS, Rules, RuleTables
from shithead_env.turns import zone_index

_R, _S = NUM_RANKS, MAX_SEATS

_V1_FIELD = {f.name: f for f in FIELDS_V1}
_SIZES = ("hand_size", "pile_size", "draw_pile_size")  # sqrt-scaled: typical values are a few of 108


def _scaled(name: str) -> Field:
    """The version-1 field ``name``, same meaning, stored scaled by its bound."""
    return replace(_V1_FIELD[name], scale=SQRT if name in _SIZES else LINEAR)


FIELDS_V2: tuple[Field, ...] = (
    _scaled("hand"),
    Field("unseen", (_R,), "copies per rank the observer has never seen: the deck minus its hand, the pile, "
          "the burned cards, every face-up card and the other seats' `known` cards", MAX_COPIES, scale=LINEAR),
    Field("legal_ranks", (_R,), "1 where the observer may play that rank now (some `play` action of it is legal); "
          "all zero unless it is asked to act", scale=LINEAR),
    Field("legal_pickup", (1,), "1 when `pickup` is legal for the observer now", scale=LINEAR),
    _scaled("seat_present"),
    _scaled("active"),
    _scaled("hand_size"),
    Field("hidden_hand", (_S,), "hand cards of the seat outside its `known` ones (hand_size - known)", MAX_CARDS,
          scale=SQRT),
    Field("cards_left", (_S,), "cards the seat still holds: hand, face-up and face-down", MAX_CARDS, scale=SQRT),
    _scaled("face_down"),
    _scaled("face_up"),
    _scaled("known"),
    Field("may_hold", (_S, _R), "share of the seat's hidden hand cards that may be of each rank: (its `narrowed` "
          "masks allowing the rank + its un-narrowed hidden cards if the deck holds the rank) / hidden_hand; "
          "all zero without hidden hand cards", scale=LINEAR),
    *(_scaled(name) for name in (
        "zone", "finish_place", "pile", "pile_size", "effective_top", "constraint", "top_run_rank",
        "top_run_length", "forced_rank", "draw_pile_size", "burned", "phase", "actor", "window_played_by",
        "window_next", "window_queue", "direction",
    )),
    Field("decisions", (1,), "decisions taken so far, against the rules' default cap "
          f"({DEFAULT_MAX_DECISIONS}) whatever this game's own cap, so a game capped shorter for training or "
          "evaluation reads the same (v1: decisions / max_decisions)", DEFAULT_MAX_DECISIONS, scale=SQRT),
    *(_scaled(name) for name in (
        "rule_powers", "rank_value", "run_burn",
        "snatch", "face_up_into_hand", "voluntary_pickup", "decks", "jokers_per_deck",
    )),
)  # fmt: skip

OFFSETS_V2 = offsets_of(FIELDS_V2)
_SIZE = sum(f.size for f in FIELDS_V2)

# Cells are written raw except the sqrt and may_hold ones, which are written scaled; one division by this
# vector (the bound of each linear cell, 1 elsewhere) scales the rest.
_DIVISOR = np.concatenate([np.full(f.size, f.high if f.scale == LINEAR else 1.0, np.float32) for f in FIELDS_V2])
_DIVISOR.flags.writeable = False

_HAND = OFFSETS_V2["hand"]
_UNSEEN = OFFSETS_V2["unseen"]
_LEGAL = OFFSETS_V2["legal_ranks"]
_PICKUP = OFFSETS_V2["legal_pickup"]
_ACTIVE = OFFSETS_V2["active"]
_HAND_SIZE = OFFSETS_V2["hand_size"]
_HIDDEN = OFFSETS_V2["hidden_hand"]
_LEFT = OFFSETS_V2["cards_left"]
_FACE_DOWN = OFFSETS_V2["face_down"]
_FACE_UP = OFFSETS_V2["face_up"]
_KNOWN = OFFSETS_V2["known"]
_MAY = OFFSETS_V2["may_hold"]
_ZONE = OFFSETS_V2["zone"]
_PILE = OFFSETS_V2["pile"]
_PILE_SIZE = OFFSETS_V2["pile_size"]
_RUN_LENGTH = OFFSETS_V2["top_run_length"]
_DRAW = OFFSETS_V2["draw_pile_size"]
_BURNED = OFFSETS_V2["burned"]
_DIRECTION = OFFSETS_V2["direction"]
_DECISIONS = OFFSETS_V2["decisions"]
_TABLE = table_offsets(OFFSETS_V2)  # the blocks write_table sets


@dataclass(frozen=True)
class _TableV2:
    """What version 2 precomputes per rules object and table size."""

    template: array  # the raw static cells, as for version 1
    deck: tuple[int, ...]  # copies of each rank in the deck
    free: tuple[int, ...]  # per rank: 1 if the deck holds it (an un-narrowed hidden card may be of it)
    free_row: array  # ``free`` as float32 cells: the may_hold row of a seat whose hidden cards nothing narrowed
    rows: dict[tuple[int, ...], array]  # (hidden, *narrowed masks) -> its may_hold row, filled on first sight


_TABLES_V2: weakref.WeakKeyDictionary[RuleTables, dict[int, _TableV2]] = weakref.WeakKeyDictionary()
_MAX_ROWS = 4096  # may_hold rows kept per table (the cache starts over past it)
# sqrt(count / MAX_CARDS) for every count a size cell can hold (a list lookup beats the call)
_SQRT_CELL = [math.sqrt(count / MAX_CARDS) for count in range(MAX_CARDS + 1)]


def _table_v2(rules: Rules, num_players: int) -> _TableV2:
    by_size = _TABLES_V2.setdefault(rules.tables, {})
    table = by_size.get(num_players)
    if table is None:
        template = np.zeros(_SIZE, np.float32)
        fill_rules(template, OFFSETS_V2, rules, num_players)
        deck = [0] * _R
        for card in make_deck(rules.decks_for(num_players), rules.jokers_per_deck):
            deck[card >> 2] += 1
        free = tuple(1 if deck[r] else 0 for r in range(_R))
        table = by_size[num_players] = _TableV2(array("f", template.tobytes()), tuple(deck), free, array("f", free), {})
    return table


def _may_hold_row(table: _TableV2, hidden: int, masks: list[int]) -> array:
    """The may_hold cells of a seat with ``hidden`` hidden hand cards, ``masks`` narrowing some (cached)."""
    free = hidden - len(masks)
    counts = [free * f for f in table.free]
    for mask in masks:
        for r in mask_ranks(mask):
            counts[r] += 1
    row = array("f", [count / hidden for count in counts])
    if len(table.rows) >= _MAX_ROWS:
        table.rows.clear()
    table.rows[(hidden, *masks)] = row
    return row


def _encode_v2(k: Knowledge) -> np.ndarray:
    """Version 2 of ``k``'s seat (docs/observation.md): version 1's cells scaled by their bounds, and more."""
    n, pile = k.num_players, k.pile
    table = _table_v2(k.rules, n)
    obs = table.template[:]
    unseen = list(table.deck)
    # Count cells add 1 a card (the final division scales them); sqrt and share cells get their scaled value.
    for base, cards in ((_HAND, k.hand), (_PILE, pile), (_BURNED, k.burned)):
        for card in cards:
            r = card >> 2
            obs[base + r] += 1
            unseen[r] -= 1
    for slot, s in enumerate(ORDERS[n][k.seat]):
        _write_seat(obs, unseen, table, k, slot, s)
    obs[_UNSEEN : _UNSEEN + _R] = array("f", unseen)
    for action in k.legal:
        index = action.index
        if index < PICKUP:
            obs[_LEGAL + (index - PLAY_BASE) // MAX_COPIES] = 1
        elif index == PICKUP:
            obs[_PICKUP] = 1
    run = write_table(obs, k, _TABLE)
    obs[_PILE_SIZE] = _SQRT_CELL[len(pile)]
    obs[_RUN_LENGTH] = run
    obs[_DRAW] = _SQRT_CELL[k.draw_size]
    obs[_DIRECTION] = k.direction
    obs[_DECISIONS] = math.sqrt(min(k.decisions, DEFAULT_MAX_DECISIONS) / DEFAULT_MAX_DECISIONS)
    return np.frombuffer(obs, np.float32) / _DIVISOR


def _write_seat(obs: array, unseen: list[int], table: _TableV2, k: Knowledge, slot: int, s: int) -> None:
    """Seat ``s``'s cells at ``slot`` (0: the observer): its face-up and known cards, zone, counts and the ranks its
    hidden hand cards may be; the cards it shows leave ``unseen``."""
    cell = _SQRT_CELL
    up = k.face_up[s]
    base = _FACE_UP + slot * _R
    for card in up:
        r = card >> 2
        obs[base + r] += 1
        unseen[r] -= 1
    seen = k.known[s]
    base = _KNOWN + slot * _R
    for card in seen:
        obs[base + (card >> 2)] += 1
    if slot:  # the observer's own known cards are in its hand, counted already
        for card in seen:
            unseen[card >> 2] -= 1
    size, down = k.hand_sizes[s], k.face_down[s]
    obs[_ZONE + 4 * slot + zone_index(size, len(up), down)] = 1
    if k.active[s]:
        obs[_ACTIVE + slot] = 1
    hidden = size - len(seen)
    obs[_HAND_SIZE + slot] = cell[size]
    obs[_HIDDEN + slot] = cell[hidden]
    obs[_LEFT + slot] = cell[size + len(up) + down]
    obs[_FACE_DOWN + slot] = down
    if hidden:
        base = _MAY + slot * _R
        masks = k.narrowed[s]
        if not masks:  # every hidden card may be any rank of the deck
            obs[base : base + _R] = table.free_row
        else:
            row = table.rows.get((hidden, *masks))
            if row is None:
                row = _may_hold_row(table, hidden, masks)
            obs[base : base + _R] = row


V2 = Encoding(
    2,
    FIELDS_V2,
    "Every field of version 1, with the same meaning, and every cell scaled by its declared bound\n"
    "(`cell`): counts as `x / bound`, sizes (cards in a hand, the pile, the draw pile, cards left, hidden\n"
    "hand cards) as `sqrt(x / bound)`, so a typical 3 cards of a possible 108 does not sit near 0. Every\n"
    "cell lies in [0, 1] (`direction` in [-1, 1]). Fields version 1 lacks: the cards the observer has never seen\n"
    "(`unseen`), each seat's `hidden_hand` and `cards_left`, the ranks each seat's hidden hand cards may\n"
    "have (`may_hold`, from the view's `narrowed`: what forced pickups and lowest-card openings say about\n"
    "them, docs/state.md), and the observer's legal ranks and pickup (`legal_ranks`, `legal_pickup`: the\n"
    "policy network sees the mask only through them).",
    _encode_v2,
)
