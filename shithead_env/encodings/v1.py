"""Encoding version 1 (legacy): raw counts, no inference; the input of the shipped models.

Bit for bit as recorded in tests/fixtures/views_v1.json: never change a cell
here (a new layout is a new version). The encoder is speed-tuned: offsets as
module constants, a float32 ``array.array`` template per rules and table size.
"""

from __future__ import annotations

import weakref
from array import array

import numpy as np

from shithead_env.actions import MAX_COPIES, MAX_SEATS
from shithead_env.cards import JOKERS_PER_DECK_MAX, NUM_RANKS
from shithead_env.encodings.layout import (
    MAX_CARDS,
    MAX_DECKS,
    ORDERS,
    Encoding,
    Field,
    fill_rules,
    offsets_of,
    table_offsets,
    write_table,
)
from shithead_env.knowledge import Knowledge
from shithead_env.phases import PHASES
from shithead_env.pile import CONSTRAINTS
from shithead_env.rules import POWERS, TABLE_CARDS, Rules, RuleTables
from shithead_env.turns import ZONES, zone_index

_R, _S = NUM_RANKS, MAX_SEATS

FIELDS_V1: tuple[Field, ...] = (
    Field("hand", (_R,), "observer's hand: cards per rank", MAX_COPIES),
    Field("seat_present", (_S,), "seat slot k exists at this table", 1),
    Field("active", (_S,), "seat still holds cards (not safe, not the final loser)"),
    Field("hand_size", (_S,), "cards in the seat's hand", MAX_CARDS),
    Field("face_down", (_S,), "face-down cards the seat has left", TABLE_CARDS),
    Field("face_up", (_S, _R), "the seat's face-up cards per rank", TABLE_CARDS),
    Field("known", (_S, _R), "cards of the seat's hand that everyone has seen (`known`), per rank", MAX_COPIES),
    Field("zone", (_S, len(ZONES)), f"one-hot zone the seat plays from: {', '.join(ZONES)}"),
    Field("finish_place", (_S, _S), "one-hot finishing place (0 = first safe); all zero while unplaced"),
    Field("pile", (_R,), "discard pile contents per rank", MAX_COPIES),
    Field("pile_size", (1,), "cards in the discard pile", MAX_CARDS),
    Field("effective_top", (_R + 1,), "one-hot rank of the topmost non-invisible card; last cell: none"),
    Field("constraint", (len(CONSTRAINTS),), f"one-hot rule the effective top imposes: {', '.join(CONSTRAINTS)}"),
    Field("top_run_rank", (_R,), "one-hot rank of the physical top card (the run of equal ranks on top)"),
    Field("top_run_length", (1,), "length of that run", MAX_COPIES),
    Field("forced_rank", (_R,), "one-hot rank the opener must play (`power_deck` opener), else zero"),
    Field("draw_pile_size", (1,), "cards left in the draw pile", MAX_CARDS),
    Field("burned", (_R,), "burned cards per rank (public)", MAX_COPIES),
    Field("phase", (len(PHASES),), f"one-hot phase: {', '.join(PHASES)}"),
    Field("actor", (_S,), "one-hot seat slot asked to act; all zero once the game is over"),
    Field("window_played_by", (_S,), "interrupt window: one-hot seat slot whose play opened it"),
    Field("window_next", (_S,), "interrupt window: one-hot seat slot whose turn is held"),
    Field("window_queue", (_S,), "interrupt window: seat slots still to be asked after the actor"),
    Field("direction", (1,), "+1 clockwise (increasing seats), -1 anticlockwise", 1, -1),
    Field("decisions", (1,), "decisions taken / max_decisions (the truncation cap)"),
    Field("rule_powers", (len(POWERS), _R), f"rules: power flags per rank, powers in order {', '.join(POWERS)}"),
    Field("rank_value", (_R,), "rules: (position in rank_order + 1) / len(rank_order); 0 for power-only ranks"),
    Field("run_burn", (1,), "rules: run length that burns (0 = no run burn)", MAX_COPIES),
    Field("snatch", (1,), "rules: snatch on"),
    Field("face_up_into_hand", (1,), "rules: face-up cards are taken into the hand (`face_up: take_into_hand`)"),
    Field("voluntary_pickup", (1,), "rules: voluntary pickup on"),
    Field("decks", (1,), "rules: decks shuffled together at this table", MAX_DECKS),
    Field("jokers_per_deck", (1,), "rules: Jokers per deck", JOKERS_PER_DECK_MAX),
)

OFFSETS_V1 = offsets_of(FIELDS_V1)
_V1_SIZE = sum(f.size for f in FIELDS_V1)

# Offsets as module constants: the encoder below reads them in its inner loop.
_HAND = OFFSETS_V1["hand"]
_ACTIVE = OFFSETS_V1["active"]
_HAND_SIZE = OFFSETS_V1["hand_size"]
_FACE_DOWN = OFFSETS_V1["face_down"]
_FACE_UP = OFFSETS_V1["face_up"]
_KNOWN = OFFSETS_V1["known"]
_ZONE = OFFSETS_V1["zone"]
_PILE = OFFSETS_V1["pile"]
_PILE_SIZE = OFFSETS_V1["pile_size"]
_RUN_LENGTH = OFFSETS_V1["top_run_length"]
_DRAW = OFFSETS_V1["draw_pile_size"]
_BURNED = OFFSETS_V1["burned"]
_DIRECTION = OFFSETS_V1["direction"]
_DECISIONS = OFFSETS_V1["decisions"]
_TABLE = table_offsets(OFFSETS_V1)  # the blocks write_table sets


# Per rules object and table size: the vector with the static cells (rules, seats present) filled in.
# A float32 ``array.array``: the encoder copies it and writes its cells from Python, then numpy wraps
# the result without a copy (one numpy call an observation; numpy's per-call cost dominated before).
_TEMPLATES: weakref.WeakKeyDictionary[RuleTables, dict[int, array]] = weakref.WeakKeyDictionary()


def _template(rules: Rules, num_players: int) -> array:
    by_size = _TEMPLATES.setdefault(rules.tables, {})
    template = by_size.get(num_players)
    if template is None:
        template = np.zeros(_V1_SIZE, np.float32)
        fill_rules(template, OFFSETS_V1, rules, num_players)
        template = by_size[num_players] = array("f", template.tobytes())
    return template


def _encode_v1(k: Knowledge) -> np.ndarray:
    """Version 1 of ``k``'s seat: raw counts (docs/observation.md); bit for bit as recorded in the fixtures."""
    n, seat = k.num_players, k.seat
    order = ORDERS[n][seat]
    hand_sizes, face_up, face_down, known, pile = k.hand_sizes, k.face_up, k.face_down, k.known, k.pile
    obs = _template(k.rules, n)[:]
    # Count cells add 1 a card; one-hot cells are set; scalar cells get their value.
    for base, cards in ((_HAND, k.hand), (_PILE, pile), (_BURNED, k.burned)):
        for card in cards:
            obs[base + (card >> 2)] += 1
    active = k.active
    for slot, s in enumerate(order):
        base = _FACE_UP + slot * _R
        for card in face_up[s]:
            obs[base + (card >> 2)] += 1
        base = _KNOWN + slot * _R
        for card in known[s]:
            obs[base + (card >> 2)] += 1
        obs[_ZONE + 4 * slot + zone_index(hand_sizes[s], len(face_up[s]), face_down[s])] = 1
        if active[s]:
            obs[_ACTIVE + slot] = 1
        obs[_HAND_SIZE + slot] = hand_sizes[s]
        obs[_FACE_DOWN + slot] = face_down[s]
    run = write_table(obs, k, _TABLE)
    obs[_PILE_SIZE] = len(pile)
    obs[_RUN_LENGTH] = run
    obs[_DRAW] = k.draw_size
    obs[_DIRECTION] = k.direction
    obs[_DECISIONS] = k.decisions / k.max_decisions
    return np.frombuffer(obs, np.float32)


V1 = Encoding(
    1,
    FIELDS_V1,
    "Legacy: the layout the version-1 models in `agents/pretrained/` read (their `bot.json` says\n"
    "`encoding_version` 1, `observation_size` 774); it stays loadable while a shipped model reads it.\n"
    "Counts are raw numbers, not normalised (`cell` = `x`), and version 1 does not encode a view's\n"
    "`narrowed` (what forced pickups and openings say about hidden hand cards, docs/state.md).",
    _encode_v1,
)
