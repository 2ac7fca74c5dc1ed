"""The game state's fields, declared once: each one's JSON key, codec and who may see it.

A state dict (``Game.to_dict``, docs/state.md) holds every field; a seat's view
(``Game.view``) holds what that seat may see of each one: the value itself
where it is public, the owner's own hand, and only a count of what nobody (or
only its owner) sees. Each codec turns an engine value into JSON and back, the
way back refusing bad input with a ``StateError`` that names the field. The
state writer and reader (``state.py``), the view writer and reader
(``Knowledge.to_dict`` / ``from_view``), the protocol's JSON Schema
(``agents/protocol/spec.py``) and docs/state.md's field table are loops over
this declaration. ``Game.copy`` and ``Knowledge.from_game`` stay written out
for speed (a loop over the fields measured 60-120% slower); tests/engine/test_fields.py
sets every declared field to a value of its own and checks they carry it.

Adding a field: declare it here (and its place in ``VIEW_ORDER`` when a view
shows it), then keep it where the engine does (``Game``'s slots, ``__init__``,
``assemble`` and ``copy``; ``Knowledge``'s slots and ``from_game``); the tests
name each of those that misses it. The determinizer passes every public field
on by this declaration. Then regenerate the schema files
(``python -m agents.protocol.spec --write``) and docs/state.md's table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from shithead_env.cards import RANKS, card_code, card_names, rank_index
from shithead_env.errors import StateError
from shithead_env.inference import narrowed_names, read_narrowed
from shithead_env.phases import PHASES
from shithead_env.rules import Rules, RulesError, load_rules, rules_reference

# ------------------------------------------------------------------ codecs


def strict_int(value: Any, where: str, low: int, high: int | None = None) -> int:
    """A true int in [low, high]: ``True`` and ``1.0`` are refused, not coerced (views and states alike)."""
    if type(value) is not int or value < low or (high is not None and value > high):
        span = f"{low}..{high}" if high is not None else f">= {low}"
        raise StateError(f"{where} must be an integer {span}, got {value!r}")
    return value


def _read_cards(value: Any, where: str, num_players: int) -> list[int]:
    if not isinstance(value, list):
        raise StateError(f"{where} must be a list of cards such as ['KS', 'TH'], got {value!r}")
    codes = []
    for i, name in enumerate(value):
        try:
            codes.append(card_code(name))
        except (ValueError, TypeError, AttributeError):
            raise StateError(
                f"{where}[{i}]: unknown card {name!r}: expected rank + suit such as 'KS', 'TH', 'XR'"
            ) from None
    return codes


def _read_seat(value: Any, where: str, num_players: int) -> int:
    if type(value) is not int or not 0 <= value < num_players:
        raise StateError(f"{where} must be a seat 0..{num_players - 1}, got {value!r}")
    return value


def _read_seats(value: Any, where: str, num_players: int) -> list[int]:
    if not isinstance(value, list):
        raise StateError(f"{where} must be a list of seats, got {value!r}")
    return [_read_seat(seat, f"{where}[{i}]", num_players) for i, seat in enumerate(value)]


def _read_flag(value: Any, where: str, num_players: int) -> bool:
    if not isinstance(value, bool):
        raise StateError(f"{where} must be true or false, got {value!r}")
    return value


def _read_direction(value: Any, where: str, num_players: int) -> int:
    if type(value) is not int or value not in (1, -1):
        raise StateError(f"{where} must be 1 (clockwise) or -1, got {value!r}")
    return value


def _read_phase(value: Any, where: str, num_players: int) -> str:
    if value not in PHASES:
        raise StateError(f"{where} must be one of {PHASES}, got {value!r}")
    return value


def window_json(window: tuple[int, int, Sequence[int]] | None) -> dict[str, Any] | None:
    """The ``window`` codec: (played_by, next, queue) as JSON."""
    return None if window is None else {"played_by": window[0], "next": window[1], "queue": list(window[2])}


def _read_window(value: Any, where: str, num_players: int) -> tuple[int, int, list[int]]:
    if not isinstance(value, Mapping) or set(value) != {"played_by", "next", "queue"}:
        raise StateError(
            f"{where} must be {{'played_by': seat, 'next': seat, 'queue': [seats]}} or null, got {value!r}"
        )
    return (
        _read_seat(value["played_by"], f"{where}.played_by", num_players),
        _read_seat(value["next"], f"{where}.next", num_players),
        _read_seats(value["queue"], f"{where}.queue", num_players),
    )


def rank_json(rank: int | None) -> str | None:
    """The ``rank or null`` codec (``forced_rank``)."""
    return None if rank is None else RANKS[rank]


def _read_rank(value: Any, where: str, num_players: int) -> int:
    try:
        return rank_index(value)
    except ValueError as error:
        raise StateError(f"{where}: {error}") from None


def _read_rules(value: Any, where: str, num_players: int) -> Rules:
    if not isinstance(value, (str, Mapping)):
        raise StateError(f"{where} must be a preset name or a rules mapping, got {type(value).__name__}")
    try:
        return load_rules(value)
    except RulesError as error:
        raise StateError(f"{where}: {error}") from None


def _nullable(read: Callable[[Any, str, int], Any]) -> Callable[[Any, str, int], Any]:
    return lambda value, where, num_players: None if value is None else read(value, where, num_players)


def _same(value: Any) -> Any:
    return value


@dataclass(frozen=True)
class Codec:
    """How a field's engine value is written as JSON (``to_json``) and read back (``from_json``: the JSON
    value, the field's path for errors, the seats at the table), refusing bad input with a ``StateError``
    that names the path."""

    to_json: Callable[[Any], Any]
    from_json: Callable[[Any, str, int], Any]


CODECS: dict[str, Codec] = {
    "cards": Codec(card_names, _read_cards),
    "seat": Codec(_same, _read_seat),
    "seat or null": Codec(_same, _nullable(_read_seat)),
    "count": Codec(_same, lambda value, where, num_players: strict_int(value, where, 0)),
    "positive count": Codec(_same, lambda value, where, num_players: strict_int(value, where, 1)),
    "flag": Codec(_same, _read_flag),
    "1 or -1": Codec(_same, _read_direction),
    "phase": Codec(_same, _read_phase),
    "seats": Codec(list, _read_seats),
    "rank lists": Codec(narrowed_names, lambda value, where, num_players: read_narrowed(value, where)),
    "window or null": Codec(window_json, _nullable(_read_window)),
    "rank or null": Codec(rank_json, _nullable(_read_rank)),
    "rules": Codec(rules_reference, _read_rules),
}
COUNT = CODECS["count"]  # what a view shows of a field it hides: how many cards it holds

# ------------------------------------------------------------------ fields

PUBLIC, OWNER, NOBODY = "public", "owner", "nobody"
VISIBILITIES = (PUBLIC, OWNER, NOBODY)
REQUIRED = object()  # a ``view_default``: every view holds the key


@dataclass(frozen=True)
class Field:
    """One field of the state dict: ``key`` (under ``players[s]`` when ``per_seat``), its JSON ``codec``, who
    may see its value, and under which key a view shows the value (``view_key``, also the ``Knowledge``
    attribute holding it) or only its count (``count_key``, held in ``Knowledge.<count_attr>``).

    ``attr`` is the ``Game`` attribute (and ``Game.assemble`` keyword) holding the value; ``view_default`` the
    JSON value a view without the key stands for (views older than the field lack it). ``to_json`` and
    ``from_json`` are the codec's, resolved once (the writers call them for every field of every seat).
    """

    key: str
    codec: str
    visibility: str
    doc: str
    per_seat: bool = False
    view_key: str | None = None  # None: no view shows the value (``_public`` sets it to ``key``)
    count_key: str | None = None
    attr: str = ""  # "": ``key``
    count_attr: str = ""  # "": ``count_key``
    view_default: Any = REQUIRED
    to_json: Callable[[Any], Any] = field(init=False, repr=False, compare=False)
    from_json: Callable[[Any, str, int], Any] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.visibility not in VISIBILITIES:
            raise ValueError(f"field {self.key}: visibility {self.visibility!r} is not one of {VISIBILITIES}")
        if self.visibility == NOBODY and self.view_key:
            raise ValueError(f"field {self.key}: nobody sees it, so no view shows its value")
        if self.visibility == OWNER and not self.per_seat:
            raise ValueError(f"field {self.key}: only a seat's field has an owner")
        if self.codec not in CODECS:
            raise ValueError(f"field {self.key}: codec {self.codec!r} is not one of {list(CODECS)}")
        object.__setattr__(self, "attr", self.attr or self.key)
        object.__setattr__(self, "count_attr", self.count_attr or self.count_key or "")
        object.__setattr__(self, "to_json", CODECS[self.codec].to_json)
        object.__setattr__(self, "from_json", CODECS[self.codec].from_json)


def _public(key: str, codec: str, doc: str, **more: Any) -> Field:
    return Field(key, codec, PUBLIC, doc, view_key=more.pop("view_key", key), **more)


TABLE_FIELDS: tuple[Field, ...] = (
    _public("rules", "rules", "a preset name, or the full rules mapping"),
    Field("draw_pile", "cards", NOBODY, "the draw pile (index 0 is drawn next)", count_key="draw_pile",
          count_attr="draw_size"),
    _public("pile", "cards", "the discard pile, bottom to top"),
    _public("burned", "cards", "cards burned out of the game"),
    _public("current", "seat or null", "the seat to act (null once the game is over)"),
    _public("direction", "1 or -1", "the direction of play"),
    _public("phase", "phase", "swap, play, nominate, interrupt or over"),
    _public("finish_order", "seats", "the seats out, first out first"),
    _public("dealer", "seat", "the seat that dealt"),
    _public("opener", "seat or null", "the seat that opens after the swap, when fixed at the deal (once play "
            "began: the one that opened)", view_default=None),
    _public("decisions", "count", "decisions taken so far"),
    _public("max_decisions", "positive count", "the decision cap: the game ends truncated there"),
    _public("window", "window or null", "the open interrupt window: played_by, next, queue"),
    _public("forced_rank", "rank or null", "the rank the opener must play (power_deck)"),
    _public("truncated", "flag", "the game ended at the decision cap", view_key=None),
)  # fmt: skip
SEAT_FIELDS: tuple[Field, ...] = (
    Field("hand", "cards", OWNER, "the seat's hand", per_seat=True, view_key="hand", count_key="hand_size",
          attr="hands", count_attr="hand_sizes"),
    _public("face_up", "cards", "the seat's face-up cards", per_seat=True),
    Field("face_down", "cards", NOBODY, "the seat's face-down cards", per_seat=True, count_key="face_down"),
    _public("known", "cards", "the cards of the hand every seat has seen", per_seat=True),
    _public("narrowed", "rank lists", "the ranks each hidden hand card may be, as public history narrows them",
            per_seat=True, view_default=[]),
)  # fmt: skip
# What a view adds that is no field of the state: who it is for, and what the rules make of the rest.
VIEW_ONLY = ("version", "seat", "num_players", "legal_actions")
SEAT_VIEW_ONLY = ("active",)
# A view's keys in the order ``Knowledge.to_dict`` writes them (and the protocol's schema lists them).
VIEW_ORDER = (
    "version", "seat", "rules", "num_players", "phase", "current", "direction", "dealer", "opener", "decisions",
    "max_decisions", "hand", "players", "pile", "burned", "draw_pile", "finish_order", "window", "forced_rank",
    "legal_actions",
)  # fmt: skip


class Shown(NamedTuple):
    """One key of a view that comes from a field: its value, or only (``count``) how many cards it holds; with
    the ``Knowledge`` attribute holding it and the codec that writes and reads it."""

    key: str
    field: Field
    count: bool
    attr: str
    to_json: Callable[[Any], Any]
    from_json: Callable[[Any, str, int], Any]


def _value(f: Field) -> Shown:
    return Shown(f.view_key or "", f, False, f.view_key or "", f.to_json, f.from_json)


def _count(f: Field) -> Shown:
    return Shown(f.count_key or "", f, True, f.count_attr, COUNT.to_json, COUNT.from_json)


def _shown(fields: Sequence[Field]) -> tuple[Shown, ...]:
    """For each of ``fields`` in order: its value where a view shows it in place (a public one), then its count."""
    shown = []
    for f in fields:
        if f.visibility == PUBLIC and f.view_key:
            shown.append(_value(f))
        if f.count_key:
            shown.append(_count(f))
    return tuple(shown)


# What a view shows of the fields: at its top level (the table's, and its own seat's owned ones), and per seat.
VIEW_TABLE = (*_shown(TABLE_FIELDS), *(_value(f) for f in SEAT_FIELDS if f.visibility == OWNER and f.view_key))
VIEW_SEAT = _shown(SEAT_FIELDS)


def state_keys() -> list[str]:
    """The state dict's keys, in its order (``players`` after ``rules``)."""
    keys = [f.key for f in TABLE_FIELDS]
    return [*keys[:1], "players", *keys[1:]]


def seat_keys() -> list[str]:
    return [f.key for f in SEAT_FIELDS]


def view_keys() -> set[str]:
    """A view's top-level keys: the values it shows, the counts, and its own."""
    return {s.key for s in VIEW_TABLE} | {"players", *VIEW_ONLY}


def seat_view_keys() -> set[str]:
    """The keys of each ``players[s]`` of a view."""
    return {s.key for s in VIEW_SEAT} | set(SEAT_VIEW_ONLY)


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
