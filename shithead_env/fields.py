"""The game state's fields, declared once: each one's JSON key, codec and who may see it.

A state dict (``Game.to_dict``, docs/state.md) holds every field; a seat's view
(``Game.view``) holds what that seat may see of each one: the value itself
where it is public, the owner's own hand, and only a count of what nobody (or
only its owner) sees. docs/state.md's field table is generated from this
declaration, the state reader checks its keys against it, and
tests/engine/test_fields.py holds the writers (``state.game_to_dict``,
``Knowledge.to_dict``) and the view's JSON Schema to it. The codecs that both
writers share (the window, the forced rank) live here too.

Adding a field: declare it here, then write it where the engine keeps it
(``Game``), and the test names every writer or reader that does not carry it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shithead_env.cards import RANKS

PUBLIC, OWNER, NOBODY = "public", "owner", "nobody"
VISIBILITIES = (PUBLIC, OWNER, NOBODY)


@dataclass(frozen=True)
class Field:
    """One field of the state dict: ``key`` (under ``players[s]`` when ``per_seat``), its JSON ``codec``, who
    may see its value, and under which key a view shows the value (``view_key``) or only its count
    (``count_key``)."""

    key: str
    codec: str
    visibility: str
    doc: str
    per_seat: bool = False
    view_key: str | None = None  # None: no view shows the value (``_public`` sets it to ``key``)
    count_key: str | None = None

    def __post_init__(self) -> None:
        if self.visibility not in VISIBILITIES:
            raise ValueError(f"field {self.key}: visibility {self.visibility!r} is not one of {VISIBILITIES}")
        if self.visibility == NOBODY and self.view_key:
            raise ValueError(f"field {self.key}: nobody sees it, so no view shows its value")


def _public(key: str, codec: str, doc: str, **more: Any) -> Field:
    return Field(key, codec, PUBLIC, doc, view_key=more.pop("view_key", key), **more)


TABLE_FIELDS: tuple[Field, ...] = (
    _public("rules", "rules", "a preset name, or the full rules mapping"),
    Field("draw_pile", "cards", NOBODY, "the draw pile, index 0 drawn next", count_key="draw_pile"),
    _public("pile", "cards", "the discard pile, bottom to top"),
    _public("burned", "cards", "cards burned out of the game"),
    _public("current", "seat or null", "the seat to act (null once the game is over)"),
    _public("direction", "1 or -1", "the direction of play"),
    _public("phase", "phase", "swap, play, nominate, interrupt or over"),
    _public("finish_order", "seats", "the seats out, first out first"),
    _public("dealer", "seat", "the seat that dealt"),
    _public("opener", "seat or null", "the seat that opens after the swap, when fixed at the deal"),
    _public("decisions", "count", "decisions taken so far"),
    _public("max_decisions", "count", "the decision cap: the game ends truncated there"),
    _public("window", "window or null", "the open interrupt window: played_by, next, queue"),
    _public("forced_rank", "rank or null", "the rank the opener must play (power_deck)"),
    _public("truncated", "flag", "the game ended at the decision cap", view_key=None),
)
SEAT_FIELDS: tuple[Field, ...] = (
    Field("hand", "cards", OWNER, "the seat's hand", per_seat=True, view_key="hand", count_key="hand_size"),
    _public("face_up", "cards", "the seat's face-up cards", per_seat=True),
    Field("face_down", "cards", NOBODY, "the seat's face-down cards", per_seat=True, count_key="face_down"),
    _public("known", "cards", "the cards of the hand every seat has seen", per_seat=True),
    _public("narrowed", "rank lists", "the ranks each hidden hand card may be, as public history narrows them",
            per_seat=True),
)  # fmt: skip
# What a view adds that is no field of the state: who it is for, and what the rules make of the rest.
VIEW_ONLY = ("version", "seat", "num_players", "legal_actions")
SEAT_VIEW_ONLY = ("active",)


def state_keys() -> list[str]:
    """The state dict's keys, in its order (``players`` after ``rules``)."""
    keys = [f.key for f in TABLE_FIELDS]
    return [*keys[:1], "players", *keys[1:]]


def seat_keys() -> list[str]:
    return [f.key for f in SEAT_FIELDS]


def view_keys() -> set[str]:
    """A view's top-level keys: the values it shows, the counts, and its own."""
    shown = {f.view_key for f in TABLE_FIELDS if f.view_key} | {f.count_key for f in TABLE_FIELDS if f.count_key}
    own = {f.view_key for f in SEAT_FIELDS if f.visibility == OWNER}
    return shown | own | {"players", *VIEW_ONLY}


def seat_view_keys() -> set[str]:
    """The keys of each ``players[s]`` of a view."""
    shown = {f.view_key for f in SEAT_FIELDS if f.visibility == PUBLIC}
    return shown | {f.count_key for f in SEAT_FIELDS if f.count_key} | set(SEAT_VIEW_ONLY)


def window_json(window: tuple[int, int, Sequence[int]] | None) -> dict[str, Any] | None:
    """The ``window`` codec: (played_by, next, queue) as JSON."""
    return None if window is None else {"played_by": window[0], "next": window[1], "queue": list(window[2])}


def rank_json(rank: int | None) -> str | None:
    """The ``rank or null`` codec (``forced_rank``)."""
    return None if rank is None else RANKS[rank]


def fields_markdown() -> str:
    """The field table of docs/state.md."""
    lines = ["| state key | codec | who sees the value | in a view |", "|---|---|---|---|"]
    for f in (*TABLE_FIELDS[:1], *SEAT_FIELDS, *TABLE_FIELDS[1:]):
        key = f"players[s].{f.key}" if f.per_seat else f.key
        if f.visibility == OWNER:
            shown = f"`{f.view_key}` (its own seat's); `players[s].{f.count_key}` (a count)"
        elif f.view_key:
            shown = f"`{'players[s].' if f.per_seat else ''}{f.view_key}`"
        elif f.count_key:
            shown = f"`{'players[s].' if f.per_seat else ''}{f.count_key}` (a count)"
        else:
            shown = "not shown"
        lines.append(f"| `{key}` | {f.codec} | {f.visibility} | {shown} |")
    return "\n".join(lines) + "\n"
