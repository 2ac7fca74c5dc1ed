"""What every encoding version is made of: ``Field`` (one named block), ``Encoding`` (one version) and helpers.

The versions themselves are ``shithead_env.encodings.v1`` and ``.v2``; the public
API (the registry, ``encode_knowledge``, the masks, the docs page) is
``shithead_env.encoding``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from shithead_env.actions import MAX_COPIES, MAX_SEATS
from shithead_env.cards import JOKERS_PER_DECK_MAX, NUM_RANKS, RANKS, SUITS_PER_DECK
from shithead_env.knowledge import Knowledge
from shithead_env.phases import PHASES
from shithead_env.pile import CONSTRAINTS, constraint, top_run
from shithead_env.rules import POWERS, Rules

if TYPE_CHECKING:
    from shithead_env.game import Game

MAX_DECKS = MAX_COPIES // SUITS_PER_DECK
MAX_CARDS = MAX_DECKS * (13 * SUITS_PER_DECK + JOKERS_PER_DECK_MAX)

_R, _S = NUM_RANKS, MAX_SEATS

RAW, LINEAR, SQRT = "raw", "linear", "sqrt"
SCALES = (RAW, LINEAR, SQRT)


@dataclass(frozen=True)
class Field:
    """One named block of an observation vector.

    ``high`` (and ``low``) bound the value a cell encodes; ``scale`` says how it is stored:
    ``raw`` (the value itself), ``linear`` (value / high) or ``sqrt`` (sqrt(value / high):
    for sizes, whose typical values are a small share of their bound).
    """

    name: str
    shape: tuple[int, ...]
    description: str
    high: float = 1.0
    low: float = 0.0
    scale: str = RAW

    def __post_init__(self) -> None:
        if self.scale not in SCALES:
            raise ValueError(f"field {self.name!r}: scale must be one of {SCALES}, got {self.scale!r}")
        if self.scale == SQRT and self.low != 0:
            raise ValueError(f"field {self.name!r}: a sqrt-scaled field needs low = 0")

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def box_low(self) -> float:
        """The lowest stored cell (the ``Box`` bound)."""
        return self.low if self.scale == RAW else self.low / self.high

    @property
    def box_high(self) -> float:
        """The highest stored cell (the ``Box`` bound)."""
        return self.high if self.scale == RAW else 1.0

    @property
    def cell(self) -> str:
        """How a value ``x`` is stored, for the docs table."""
        if self.scale == RAW or self.high == 1:
            return "x"
        return f"x / {self.high:g}" if self.scale == LINEAR else f"sqrt(x / {self.high:g})"


@dataclass(frozen=True, eq=False)
class Encoding:
    """One observation encoding version: its fields, layout, ``Box`` bounds and encoder."""

    version: int
    fields: tuple[Field, ...]
    summary: str = field(repr=False)
    encoder: Callable[[Knowledge], np.ndarray] = field(repr=False)
    offsets: dict[str, int] = field(init=False, repr=False)
    size: int = field(init=False)
    low: np.ndarray = field(init=False, repr=False)
    high: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if len({f.name for f in self.fields}) != len(self.fields):
            raise ValueError(f"encoding version {self.version}: field names must be distinct")
        offsets = offsets_of(self.fields)
        low = np.concatenate([np.full(f.size, f.box_low, np.float32) for f in self.fields])
        high = np.concatenate([np.full(f.size, f.box_high, np.float32) for f in self.fields])
        low.flags.writeable = high.flags.writeable = False
        object.__setattr__(self, "offsets", offsets)
        object.__setattr__(self, "size", sum(f.size for f in self.fields))
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)

    def encode(self, k: Knowledge) -> np.ndarray:
        """The float32 observation (length ``size``) of ``k``'s seat, acting or not."""
        return self.encoder(k)

    def encode_game(self, game: Game, seat: int) -> np.ndarray:
        """The observation of ``seat`` in ``game`` (``encode`` of its ``Knowledge``)."""
        return self.encoder(Knowledge.from_game(game, seat))

    def field_named(self, name: str) -> Field:
        """The field called ``name``; ``KeyError`` names the fields there are."""
        for f in self.fields:
            if f.name == name:
                return f
        raise KeyError(f"encoding version {self.version} has no field {name!r}: {', '.join(self.names)}")

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.fields)

    def read(self, observation: np.ndarray, name: str) -> np.ndarray:
        """The block of field ``name`` in ``observation``, in the field's shape (a view, not a copy)."""
        f = self.field_named(name)
        start = self.offsets[name]
        return np.asarray(observation)[start : start + f.size].reshape(f.shape)

    def markdown(self, note: str = "") -> str:
        """This version's section of docs/observation.md: its summary and its field table (``note``: after
        the heading, e.g. ``current``)."""
        lines = [
            f"## Version {self.version}" + (f" ({note})" if note else ""),
            "",
            self.summary,
            "",
            f"`size` = **{self.size}** float32 values.",
            "",
            "| offset | size | shape | name | cell | low | high | description |",
            "|---:|---:|---|---|---|---:|---:|---|",
        ]
        for f in self.fields:
            shape = " x ".join(str(d) for d in f.shape)
            lines.append(
                f"| {self.offsets[f.name]} | {f.size} | {shape} | `{f.name}` | {f.cell} | {f.box_low:g} | "
                f"{f.box_high:g} | {f.description} |"
            )
        return "\n".join(lines) + "\n"


def offsets_of(fields: tuple[Field, ...]) -> dict[str, int]:
    """Each field's offset: the fields laid end to end in order."""
    offsets: dict[str, int] = {}
    offset = 0
    for f in fields:
        offsets[f.name] = offset
        offset += f.size
    return offsets


# Per table size: the seats in observer-relative order for each observer.
ORDERS = {n: tuple(tuple((seat + k) % n for k in range(n)) for seat in range(n)) for n in range(2, _S + 1)}
PHASE_INDEX = {name: i for i, name in enumerate(PHASES)}
CONSTRAINT_INDEX = {name: i for i, name in enumerate(CONSTRAINTS)}


def fill_rules(template: np.ndarray, offsets: dict[str, int], rules: Rules, num_players: int) -> None:
    """The static cells (seats present, the rules), raw, in ``template``."""
    template[offsets["seat_present"] : offsets["seat_present"] + num_players] = 1
    base = offsets["rule_powers"]
    for p, power in enumerate(POWERS):
        for r, rank in enumerate(RANKS):
            template[base + p * _R + r] = rules.has(rank, power)
    order = rules.rank_order
    for position, rank in enumerate(order):
        template[offsets["rank_value"] + RANKS.index(rank)] = (position + 1) / len(order)
    template[offsets["run_burn"]] = rules.run_burn or 0
    template[offsets["snatch"]] = rules.snatch
    template[offsets["face_up_into_hand"]] = rules.face_up == "take_into_hand"
    template[offsets["voluntary_pickup"]] = rules.voluntary_pickup
    template[offsets["decks"]] = rules.decks_for(num_players)
    template[offsets["jokers_per_deck"]] = rules.jokers_per_deck


# The blocks every version writes the same way (one-hots: the same raw cells whatever the scaling).
TABLE_FIELDS = ("finish_place", "effective_top", "constraint", "top_run_rank", "forced_rank", "phase", "actor",
                "window_played_by", "window_next", "window_queue")


def table_offsets(offsets: dict[str, int]) -> tuple[int, ...]:
    """The offsets of ``TABLE_FIELDS`` in one version, for ``write_table``."""
    return tuple(offsets[name] for name in TABLE_FIELDS)


def write_table(obs: Any, k: Knowledge, at: tuple[int, ...]) -> int:
    """Set the one-hot cells of ``TABLE_FIELDS`` (places, the pile's top and constraint, the forced rank, the
    phase, the actor, the interrupt window) at the offsets ``at``; returns the top run's length."""
    place, top_at, constraint_at, run_at, forced_at, phase_at, actor_at, by_at, next_at, queue_at = at
    n, seat = k.num_players, k.seat
    for position, s in enumerate(k.finish_order):
        obs[place + ((s - seat) % n) * _S + position] = 1
    kind, top = constraint(k.rules.tables, k.pile)
    obs[top_at + (_R if top is None else top)] = 1
    obs[constraint_at + CONSTRAINT_INDEX[kind]] = 1
    run_rank, run = top_run(k.pile)
    if run:
        obs[run_at + run_rank] = 1
    if k.forced_rank is not None:
        obs[forced_at + k.forced_rank] = 1
    obs[phase_at + PHASE_INDEX[k.phase]] = 1
    if k.current is not None:
        obs[actor_at + (k.current - seat) % n] = 1
    if k.window is not None:
        played_by, next_seat, queue = k.window
        obs[by_at + (played_by - seat) % n] = 1
        obs[next_at + (next_seat - seat) % n] = 1
        for s in queue:
            obs[queue_at + (s - seat) % n] = 1
    return run
