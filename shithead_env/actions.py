"""The fixed integer action layout shared by every preset.

Actions are interned: every constructor returns the one shared instance, so
``legal_actions()`` costs no allocation and membership tests are cheap.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from shithead_env.cards import NUM_RANKS, RANKS, rank_index, rank_word

ACTION_LAYOUT_VERSION = 1
MAX_COPIES = 8  # two decks hold 8 cards of a rank
MAX_SEATS = 10  # two decks deal 9 cards to at most 11 players; the layout keeps 10

PLAY_BASE = 0
PICKUP = PLAY_BASE + NUM_RANKS * MAX_COPIES
FLIP = PICKUP + 1
FACE_UP_BASE = FLIP + 1
NOMINATE_BASE = FACE_UP_BASE + NUM_RANKS
PASS = NOMINATE_BASE + MAX_SEATS
NUM_ACTIONS = PASS + 1

KINDS = ("play", "pickup", "flip", "face_up", "nominate", "pass")


class Action(NamedTuple):
    """One decision. Build with the constructors, never directly."""

    index: int
    kind: str
    rank: str | None = None
    count: int = 0
    seat: int | None = None

    @staticmethod
    def play(rank: str, count: int = 1) -> Action:
        if type(count) is not int:
            raise TypeError(f"play count must be an int, got {count!r}")
        if not 1 <= count <= MAX_COPIES:
            raise ValueError(f"play count must be 1..{MAX_COPIES}, got {count!r}")
        return _TABLE[PLAY_BASE + _rank(rank) * MAX_COPIES + count - 1]

    @staticmethod
    def pickup() -> Action:
        return _TABLE[PICKUP]

    @staticmethod
    def flip() -> Action:
        return _TABLE[FLIP]

    @staticmethod
    def face_up(rank: str) -> Action:
        return _TABLE[FACE_UP_BASE + _rank(rank)]

    @staticmethod
    def nominate(seat: int) -> Action:
        if type(seat) is not int:
            raise TypeError(f"nominate seat must be an int, got {seat!r}")
        if not 0 <= seat < MAX_SEATS:
            raise ValueError(f"nominate seat must be 0..{MAX_SEATS - 1}, got {seat!r}")
        return _TABLE[NOMINATE_BASE + seat]

    @staticmethod
    def pass_() -> Action:
        return _TABLE[PASS]

    @staticmethod
    def from_index(index: int) -> Action:
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < NUM_ACTIONS:
            raise ValueError(f"action index must be an int in 0..{NUM_ACTIONS - 1}, got {index!r}")
        return _TABLE[index]

    @staticmethod
    def from_dict(data: Any) -> Action:
        """Parse the JSON form, e.g. ``{"kind": "play", "rank": "K", "count": 2}``."""
        if not isinstance(data, dict) or data.get("kind") not in KINDS:
            raise ValueError(f"action must be a mapping with 'kind' in {KINDS}, got {data!r}")
        kind = data["kind"]
        try:
            if kind == "play":
                return Action.play(data["rank"], data.get("count", 1))
            if kind == "face_up":
                return Action.face_up(data["rank"])
            if kind == "nominate":
                return Action.nominate(data["seat"])
        except KeyError as missing:
            raise ValueError(f"action {data!r} lacks {missing}") from None
        return {"pickup": Action.pickup, "flip": Action.flip, "pass": Action.pass_}[kind]()

    def to_dict(self) -> dict[str, Any]:
        if self.kind == "play":
            return {"kind": "play", "rank": self.rank, "count": self.count}
        if self.kind == "face_up":
            return {"kind": "face_up", "rank": self.rank}
        if self.kind == "nominate":
            return {"kind": "nominate", "seat": self.seat}
        return {"kind": self.kind}

    def __repr__(self) -> str:
        if self.kind == "play":
            return f"Action.play({self.rank!r}, {self.count})"
        if self.kind == "face_up":
            return f"Action.face_up({self.rank!r})"
        if self.kind == "nominate":
            return f"Action.nominate({self.seat})"
        return "Action.pass_()" if self.kind == "pass" else f"Action.{self.kind}()"

    def __str__(self) -> str:
        """Short name for menus and logs, ranks as players read them: ``play 2xK``, ``face-up 10``, ``pickup``."""
        if self.kind == "play":
            return f"play {self.count}x{rank_word(self.rank or '')}"
        if self.kind == "face_up":
            return f"face-up {rank_word(self.rank or '')}"
        if self.kind == "nominate":
            return f"nominate {self.seat}"
        return self.kind


def _rank(rank: object) -> int:
    """A rank given as a name (``"K"``, ``"T"``, ``"10"``) or an int 2..10; ``True`` or ``5.0`` are refused."""
    if isinstance(rank, bool) or not isinstance(rank, (str, int)):
        raise TypeError(f"rank must be a name such as 'K' or '10', got {rank!r}")
    return rank_index(rank)


def _build_table() -> tuple[Action, ...]:
    table: list[Action] = []
    for r in range(NUM_RANKS):
        table += [Action(PLAY_BASE + r * MAX_COPIES + c - 1, "play", RANKS[r], c) for c in range(1, MAX_COPIES + 1)]
    table.append(Action(PICKUP, "pickup"))
    table.append(Action(FLIP, "flip"))
    table += [Action(FACE_UP_BASE + r, "face_up", RANKS[r]) for r in range(NUM_RANKS)]
    table += [Action(NOMINATE_BASE + s, "nominate", seat=s) for s in range(MAX_SEATS)]
    table.append(Action(PASS, "pass"))
    assert [a.index for a in table] == list(range(NUM_ACTIONS))
    return tuple(table)


_TABLE = _build_table()
# PLAYS[rank][count - 1]: the play actions of one rank, so a slice lists 1..n copies.
PLAYS: tuple[tuple[Action, ...], ...] = tuple(
    _TABLE[PLAY_BASE + r * MAX_COPIES : PLAY_BASE + (r + 1) * MAX_COPIES] for r in range(NUM_RANKS)
)
FACE_UPS: tuple[Action, ...] = _TABLE[FACE_UP_BASE : FACE_UP_BASE + NUM_RANKS]
NOMINATES: tuple[Action, ...] = _TABLE[NOMINATE_BASE : NOMINATE_BASE + MAX_SEATS]
