"""Flat observation vector and action mask for any engine state, from one seat's point of view.

The layout is declared once (``FIELDS``); the offsets, the observation bounds
and the documented table (docs/observation.md) are all generated from it, so
they cannot drift. The vector is sized for ``MAX_SEATS`` so one network fits
every player count; slots of seats missing at a smaller table stay zero.

Seats are relative to the observer: slot 0 is the observer, slot k is seat
``(observer + k) % num_players`` (clockwise, whatever the current direction).
The encoder reads a ``Knowledge`` (the seat's view), so it cannot read a
hidden card, and a JSON view encodes without dealing out hidden cards.

Regenerate the docs table with ``python -m shithead_env.encoding --write-docs``.
"""

from __future__ import annotations

import argparse
import math
import weakref
from array import array
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from shithead_env.actions import MAX_COPIES, MAX_SEATS, NUM_ACTIONS, Action
from shithead_env.cards import JOKERS_PER_DECK_MAX, NUM_RANKS, RANKS, SUITS_PER_DECK
from shithead_env.knowledge import Knowledge
from shithead_env.phases import PHASES
from shithead_env.pile import CONSTRAINTS, constraint, top_run
from shithead_env.rules import POWERS, TABLE_CARDS, Rules, RuleTables
from shithead_env.turns import ZONES

if TYPE_CHECKING:
    from shithead_env.game import Game

ENCODING_VERSION = 1

MAX_DECKS = MAX_COPIES // SUITS_PER_DECK
MAX_CARDS = MAX_DECKS * (13 * SUITS_PER_DECK + JOKERS_PER_DECK_MAX)

_R, _S = NUM_RANKS, MAX_SEATS


@dataclass(frozen=True)
class Field:
    """One named block of the observation vector."""

    name: str
    shape: tuple[int, ...]
    description: str
    high: float = 1.0
    low: float = 0.0

    @property
    def size(self) -> int:
        return math.prod(self.shape)


FIELDS: tuple[Field, ...] = (
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

OFFSETS: dict[str, int] = {}
_offset = 0
for _field in FIELDS:
    OFFSETS[_field.name] = _offset
    _offset += _field.size
OBSERVATION_SIZE = _offset
OBSERVATION_LOW = np.concatenate([np.full(f.size, f.low, np.float32) for f in FIELDS])
OBSERVATION_HIGH = np.concatenate([np.full(f.size, f.high, np.float32) for f in FIELDS])

# Offsets as module constants: the encoder below reads them in its inner loop.
_HAND = OFFSETS["hand"]
_PRESENT = OFFSETS["seat_present"]
_ACTIVE = OFFSETS["active"]
_HAND_SIZE = OFFSETS["hand_size"]
_FACE_DOWN = OFFSETS["face_down"]
_FACE_UP = OFFSETS["face_up"]
_KNOWN = OFFSETS["known"]
_ZONE = OFFSETS["zone"]
_PLACE = OFFSETS["finish_place"]
_PILE = OFFSETS["pile"]
_PILE_SIZE = OFFSETS["pile_size"]
_TOP = OFFSETS["effective_top"]
_CONSTRAINT = OFFSETS["constraint"]
_RUN_RANK = OFFSETS["top_run_rank"]
_RUN_LENGTH = OFFSETS["top_run_length"]
_FORCED = OFFSETS["forced_rank"]
_DRAW = OFFSETS["draw_pile_size"]
_BURNED = OFFSETS["burned"]
_PHASE = OFFSETS["phase"]
_ACTOR = OFFSETS["actor"]
_WIN_BY = OFFSETS["window_played_by"]
_WIN_NEXT = OFFSETS["window_next"]
_WIN_QUEUE = OFFSETS["window_queue"]
_DIRECTION = OFFSETS["direction"]
_DECISIONS = OFFSETS["decisions"]
_RULES = OFFSETS["rule_powers"]
_PHASE_INDEX = {name: i for i, name in enumerate(PHASES)}
_CONSTRAINT_INDEX = {name: i for i, name in enumerate(CONSTRAINTS)}

# Per table size: the seats in observer-relative order for each observer.
_ORDERS = {n: tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n)) for n in range(2, _S + 1)}

# Per rules object and table size: the vector with the static cells (rules, seats present) filled in.
# A float32 ``array.array``: the encoder copies it and writes its cells from Python, then numpy wraps
# the result without a copy (one numpy call an observation; numpy's per-call cost dominated before).
_TEMPLATES: weakref.WeakKeyDictionary[RuleTables, dict[int, array]] = weakref.WeakKeyDictionary()


def _template(rules: Rules, num_players: int) -> array:
    by_size = _TEMPLATES.setdefault(rules.tables, {})
    template = by_size.get(num_players)
    if template is None:
        template = np.zeros(OBSERVATION_SIZE, np.float32)
        template[_PRESENT : _PRESENT + num_players] = 1
        for p, power in enumerate(POWERS):
            for r, rank in enumerate(RANKS):
                template[_RULES + p * _R + r] = rules.has(rank, power)
        order = rules.rank_order
        for position, rank in enumerate(order):
            template[OFFSETS["rank_value"] + RANKS.index(rank)] = (position + 1) / len(order)
        template[OFFSETS["run_burn"]] = rules.run_burn or 0
        template[OFFSETS["snatch"]] = rules.snatch
        template[OFFSETS["face_up_into_hand"]] = rules.face_up == "take_into_hand"
        template[OFFSETS["voluntary_pickup"]] = rules.voluntary_pickup
        template[OFFSETS["decks"]] = rules.decks_for(num_players)
        template[OFFSETS["jokers_per_deck"]] = rules.jokers_per_deck
        template = by_size[num_players] = array("f", template.tobytes())
    return template


def encode_knowledge(k: Knowledge) -> np.ndarray:
    """The float32 observation (length ``OBSERVATION_SIZE``) of ``k``'s seat, acting or not."""
    n, seat = k.num_players, k.seat
    order = _ORDERS[n][seat]
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
        obs[_ZONE + 4 * slot + (0 if hand_sizes[s] else 1 if face_up[s] else 2 if face_down[s] else 3)] = 1
        if active[s]:
            obs[_ACTIVE + slot] = 1
        obs[_HAND_SIZE + slot] = hand_sizes[s]
        obs[_FACE_DOWN + slot] = face_down[s]
    for place, s in enumerate(k.finish_order):
        obs[_PLACE + ((s - seat) % n) * _S + place] = 1
    kind, top = constraint(k.rules.tables, pile)
    obs[_TOP + (_R if top is None else top)] = 1
    obs[_CONSTRAINT + _CONSTRAINT_INDEX[kind]] = 1
    run_rank, run = top_run(pile)
    if run:
        obs[_RUN_RANK + run_rank] = 1
    if k.forced_rank is not None:
        obs[_FORCED + k.forced_rank] = 1
    obs[_PHASE + _PHASE_INDEX[k.phase]] = 1
    if k.current is not None:
        obs[_ACTOR + (k.current - seat) % n] = 1
    if k.window is not None:
        played_by, next_seat, queue = k.window
        obs[_WIN_BY + (played_by - seat) % n] = 1
        obs[_WIN_NEXT + (next_seat - seat) % n] = 1
        for s in queue:
            obs[_WIN_QUEUE + (s - seat) % n] = 1
    obs[_PILE_SIZE] = len(pile)
    obs[_RUN_LENGTH] = run
    obs[_DRAW] = k.draw_size
    obs[_DIRECTION] = k.direction
    obs[_DECISIONS] = k.decisions / k.max_decisions
    return np.frombuffer(obs, np.float32)


def legal_mask(k: Knowledge) -> np.ndarray:
    """int8 mask over ``NUM_ACTIONS``: ``k.legal`` (all zero unless the seat is asked to act)."""
    return _mask(k.legal)


def encode_observation(game: Game, seat: int) -> np.ndarray:
    """The float32 observation of ``seat`` in ``game`` (``encode_knowledge`` of its view)."""
    return encode_knowledge(Knowledge.from_game(game, seat))


def action_mask(game: Game, seat: int) -> np.ndarray:
    """int8 mask over ``NUM_ACTIONS``: the engine's legal actions if ``seat`` is asked to act, else all zero."""
    if not 0 <= seat < game.num_players:
        raise ValueError(f"seat must be 0..{game.num_players - 1}, got {seat!r}")
    return _mask(game.legal_actions() if seat == game.current else [])


def _mask(legal: list[Action]) -> np.ndarray:
    cells = bytearray(NUM_ACTIONS)  # a few byte writes beat numpy's fancy indexing from a list
    for action in legal:
        cells[action.index] = 1
    return np.frombuffer(cells, np.int8)


def observation_markdown() -> str:
    """The docs/observation.md page, generated from ``FIELDS``."""
    lines = [
        "# Observation encoding",
        "",
        "<!-- Generated by `python -m shithead_env.encoding --write-docs`; do not edit by hand. -->",
        "",
        f"Encoding version **{ENCODING_VERSION}**; `OBSERVATION_SIZE` = **{OBSERVATION_SIZE}** float32 values,",
        f"sized for `MAX_SEATS` = {MAX_SEATS} whatever the table size (slots of missing seats stay zero).",
        "Built by `shithead_env.encode_observation(game, seat)`, or `encode_knowledge(Knowledge.from_view(view))`",
        "from a JSON view; the mask by `shithead_env.action_mask(game, seat)` or `legal_mask(knowledge)`.",
        "",
        "Seat slots are relative to the observer: slot 0 is the observer, slot k is seat",
        "`(observer + k) % num_players` (clockwise, whatever the current direction). A field of shape",
        "`(slots, ranks)` is stored slot-major: cell `offset + slot * 14 + rank`. Ranks are indexed",
        f"`{' '.join(RANKS)}` (0..{NUM_RANKS - 1}, `X` = Joker). Counts are raw numbers, not normalised;",
        "`low`/`high` are the bounds of the Gymnasium `Box`.",
        "",
        "Version 1 does not encode a view's `narrowed` (what forced pickups and openings say about hidden",
        "hand cards, docs/state.md): adding it is a new encoding version, so that shipped models keep their",
        "inputs.",
        "",
        "| offset | size | shape | name | low | high | description |",
        "|---:|---:|---|---|---:|---:|---|",
    ]
    for f in FIELDS:
        shape = " x ".join(str(d) for d in f.shape)
        lines.append(
            f"| {OFFSETS[f.name]} | {f.size} | {shape} | `{f.name}` | {f.low:g} | {f.high:g} | {f.description} |"
        )
    return "\n".join(lines) + "\n"


DOCS_PATH = Path(__file__).resolve().parent.parent / "docs" / "observation.md"


def main(argv: list[str] | None = None) -> None:
    """Print the observation table, or write it to docs/observation.md."""
    parser = argparse.ArgumentParser(prog="python -m shithead_env.encoding", description=main.__doc__)
    parser.add_argument("--write-docs", action="store_true", help=f"write {DOCS_PATH}")
    args = parser.parse_args(argv)
    if args.write_docs:
        DOCS_PATH.write_text(observation_markdown(), encoding="utf-8")
        print(f"wrote {DOCS_PATH}")
    else:
        print(observation_markdown(), end="")


if __name__ == "__main__":
    main()
