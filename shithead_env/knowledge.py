"""Everything one seat may know: the single per-seat view every consumer reads.

A ``Knowledge`` is built from a ``Game`` (``from_game``: shares the game's
lists, for speed) or from a JSON view (``from_view``: what a remote frontend
sends, checked field by field), and the two hold the same facts (a property
test proves ``from_view(game.view(seat)) == from_game(game, seat)``). It is the
only source of the JSON view (``to_dict``), the observation encoding
(``encoding.encode_knowledge``), the text render (``render.render_knowledge``),
the bots' decisions and the determinizer's samples, so no consumer can read a
hidden card.

``check_public`` states the reachable-shape rules that public information
decides (every active seat holds cards, the player to act has cards to act
with, counters and flags agree); ``state.check_position`` runs it for full
games, ``from_view`` for views.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from shithead_env.actions import MAX_SEATS, Action
from shithead_env.cards import RANKS, counts_left
from shithead_env.errors import StateError
from shithead_env.fields import REQUIRED, VIEW_ORDER, VIEW_SEAT, VIEW_TABLE, Shown, strict_int
from shithead_env.inference import fits, hidden_cards
from shithead_env.moves import Refusal, legal_moves, refusal
from shithead_env.phases import INTERRUPT, NOMINATE, OVER, PLAY, SWAP, stage_of
from shithead_env.rules import TABLE_CARDS, Rules
from shithead_env.turns import zone_of

if TYPE_CHECKING:
    from shithead_env.game import Game

VIEW_VERSION = 1


def _read_actions(legal: Any) -> list[Action]:
    """A view's ``legal_actions``, parsed (checked against the rules by ``Knowledge.from_view``)."""
    if not isinstance(legal, list):
        raise StateError(f"view.legal_actions must be a list of actions, got {legal!r}")
    try:
        return [Action.from_dict(a) for a in legal]
    except (ValueError, TypeError) as error:
        raise StateError(f"view.legal_actions: {error}") from None


class Knowledge:
    """Everything seat ``seat`` may know, as card codes. Treat every list as read-only.

    ``from_game`` shares the game's own lists (no copies, for speed); never
    mutate them, and read a ``Knowledge`` before the game moves on.
    """

    __slots__ = (
        "_game",
        "_legal",
        "active",
        "burned",
        "current",
        "dealer",
        "decisions",
        "direction",
        "draw_size",
        "face_down",
        "face_up",
        "finish_order",
        "forced_rank",
        "hand",
        "hand_sizes",
        "known",
        "max_decisions",
        "narrowed",
        "num_players",
        "opener",
        "phase",
        "pile",
        "rules",
        "seat",
        "window",
    )

    rules: Rules
    seat: int
    num_players: int
    phase: str
    current: int | None
    direction: int
    dealer: int
    opener: int | None  # the seat opening after the swap when fixed at the deal (or once play began), else None
    decisions: int
    max_decisions: int
    hand: list[int]
    hand_sizes: list[int]
    face_up: list[list[int]]
    face_down: list[int]  # counts: nobody sees a face-down card
    known: list[list[int]]  # per seat: the cards of its hand that everyone has seen
    narrowed: list[list[int]]  # per seat: rank bitmasks of the hidden hand cards public history narrows
    active: list[bool]  # per seat: still holding cards (not in finish_order)
    pile: list[int]
    burned: list[int]
    draw_size: int
    finish_order: list[int]
    window: tuple[int, int, list[int]] | None  # (played_by, next, seats still to ask)
    forced_rank: int | None

    # ------------------------------------------------------------ building
    @classmethod
    def from_game(cls, game: Game, seat: int) -> Knowledge:
        """Read what ``seat`` may know straight off a game (no JSON round trip, no copies).

        It shares the game's own lists, so it describes the game only until the game's next step: keep
        ``Knowledge.from_view(game.view(seat))`` for a position to use later.
        """
        n = game.num_players
        if type(seat) is not int or not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, got {seat!r}")
        k = cls.__new__(cls)
        k._game = game
        k._legal = None
        k.rules = game.rules
        k.seat = seat
        k.num_players = n
        k.phase = game.phase
        k.current = game.current
        k.direction = game.direction
        k.dealer = game.dealer
        k.opener = game.opener
        k.decisions = game.decisions
        k.max_decisions = game.max_decisions
        k.hand = game.hands[seat]
        k.hand_sizes = list(map(len, game.hands))
        k.face_up = game.face_up
        k.face_down = list(map(len, game.face_down))
        k.known = game.known
        k.narrowed = game.narrowed
        k.finish_order = game.finish_order
        k.active = game.active
        k.pile = game.pile
        k.burned = game.burned
        k.draw_size = game.draw_pile_size
        k.window = game.window
        k.forced_rank = game.forced_rank
        return k

    @classmethod
    def from_view(cls, view: Mapping[str, Any]) -> Knowledge:
        """Parse a JSON view (``game.view(seat)``), refusing any view no full game is consistent with.

        The one check of a view for every caller (bots, the protocol handler,
        ``determinize``): ``StateError`` names a missing, mistyped or
        inconsistent field, so a view accepted here never fails later. Each
        field is read as ``fields.VIEW_TABLE`` and ``VIEW_SEAT`` declare it.
        """
        if not isinstance(view, Mapping):
            raise StateError(f"a view must be a mapping, got {type(view).__name__}")
        read = _Reader(view)
        k = cls.__new__(cls)
        k._game = None
        n = k.num_players = read.int("num_players", 2, MAX_SEATS)
        k.seat = read.int("seat", 0, n - 1)
        for shown in VIEW_TABLE:
            setattr(k, shown.attr, read.shown(shown, n))
        seats = k._read_players(read)
        if not any("narrowed" in p.data for p in seats):  # a view older than the field
            k.narrowed = k._opening_narrowing()
        claimed = _read_actions(read.get("legal_actions"))
        k.check_table_cards()  # first: a fourth table card is the fault to name, not the hidden count it breaks
        k._check_hidden()
        k.check_public()
        k._legal = k.rules_legal()
        if set(claimed) != set(k._legal) or len(claimed) != len(k._legal):
            raise StateError(
                f"view.legal_actions {[str(a) for a in claimed]} disagree with the rules, which allow "
                f"{[str(a) for a in k._legal]} for seat {k.seat}"
            )
        return k

    def _read_players(self, read: _Reader) -> list[_Reader]:
        """What everyone knows of each seat, and which seats are still in (the finish order says); each seat's
        reader."""
        n = self.num_players
        players = read.get("players")
        if not isinstance(players, list) or len(players) != n:
            raise StateError(f"view.players must list {n} seats (num_players), got {players!r}")
        seats = [_Reader(p, f"view.players[{s}]") for s, p in enumerate(players)]
        for shown in VIEW_SEAT:
            setattr(self, shown.attr, [p.shown(shown, n) for p in seats])
        self.active = _active(n, self.finish_order)
        if [p.get("active") for p in seats] != self.active:
            raise StateError("view.players[*].active must be true exactly for the seats not in finish_order")
        return seats

    def without_inference(self) -> Knowledge:
        """A copy that forgets what public history narrowed (measures what the inference adds to a bot).

        It keeps one fact the deal itself needs: an opener with a forced rank holds it.
        """
        k = copy.copy(self)
        k.narrowed = self._opening_narrowing()
        return k

    def with_hand(self, hand: list[int]) -> Knowledge:
        """A copy whose seat holds ``hand`` instead, its legal moves the rules' for it: what the seat would know
        with other cards (inference from play asks what a model would have done with them)."""
        k = copy.copy(self)
        k.hand = list(hand)
        k._game = None
        k._legal = k.rules_legal()
        return k

    def _opening_narrowing(self) -> list[list[int]]:
        """The narrowing a view without history still implies: the opener holds its forced rank."""
        narrowed: list[list[int]] = [[] for _ in range(self.num_players)]
        opener, rank = self.current, self.forced_rank
        if rank is not None and opener not in (None, self.seat) and all(c >> 2 != rank for c in self.known[opener]):
            narrowed[opener] = [1 << rank]
        return narrowed

    # ------------------------------------------------------------ reading
    @property
    def legal(self) -> list[Action]:
        """The legal actions of ``seat`` when it is the one to act, else empty."""
        if self._legal is None:
            self._legal = self._game.legal_actions() if self.seat == self.current else []
        return self._legal

    def rules_legal(self) -> list[Action]:
        """The moves the rules give ``seat`` now (``moves.legal_moves``; empty unless it is the one to act)."""
        return legal_moves(*self._position()) if self.seat == self.current else []

    def refusal(self, action: Action) -> Refusal | None:
        """Which rule refuses ``action`` to ``seat`` now (``moves.refusal``), None when the rules allow it."""
        if self.phase != OVER and self.seat != self.current:
            return Refusal("not_your_turn")
        return refusal(action, *self._position())

    def _position(self) -> tuple[Any, ...]:
        """What ``moves`` judges ``seat``'s moves from, as its own turn."""
        seat = self.seat
        return (
            self.rules, self.phase, seat, self.hand, self.face_up[seat], self.pile, self.forced_rank, self.window,
            self.active,
        )

    @property
    def truncated(self) -> bool:
        """The game ended at the decision cap: over with places left undecided (a finished game places everyone)."""
        return self.phase == OVER and len(self.finish_order) < self.num_players

    def zone(self, seat: int) -> str:
        """The zone ``seat`` plays from now (``turns.ZONES``)."""
        return zone_of(self.hand_sizes[seat], len(self.face_up[seat]), self.face_down[seat])

    @property
    def stage(self) -> str:
        """The stage of the game this seat decides in (``phases.STAGES``): swap, pile, hand or table."""
        return stage_of(self.phase, self.draw_size, self.zone(self.seat))

    def cards_left(self, seat: int) -> int:
        """Cards ``seat`` still holds: hand, face-up and face-down."""
        return self.hand_sizes[seat] + len(self.face_up[seat]) + self.face_down[seat]

    def unseen_counts(self, per_rank: bool = False) -> list[int]:
        """Copies of each card code this seat has never seen (the deck minus every card it knows).

        Indexed by card code, or by rank index with ``per_rank`` (summed over suits).
        """
        zones = [self.hand, self.pile, self.burned, *self.face_up]
        zones += [known for s, known in enumerate(self.known) if s != self.seat]
        counts = counts_left(self.rules.decks_for(self.num_players), self.rules.jokers_per_deck, zones, per_rank)
        if min(counts) < 0:
            raise StateError("the view shows more copies of a card than the deck holds")
        return counts

    def unseen(self) -> list[int]:
        """Card codes this seat has never seen (deck minus every card it knows), sorted."""
        return [card for card, copies in enumerate(self.unseen_counts()) for _ in range(copies)]

    def to_dict(self) -> dict[str, Any]:
        """The JSON view (docs/state.md): what a bot or a frontend of this seat receives."""
        n = self.num_players
        view = {"version": VIEW_VERSION, "seat": self.seat, "num_players": n}
        for shown in VIEW_TABLE:
            view[shown.key] = shown.to_json(getattr(self, shown.attr))
        seats = [(shown.key, shown.to_json, getattr(self, shown.attr)) for shown in VIEW_SEAT]
        view["players"] = players = [{key: to_json(values[s]) for key, to_json, values in seats} for s in range(n)]
        for seat, active in zip(players, self.active, strict=True):
            seat["active"] = active
        view["legal_actions"] = [a.to_dict() for a in self.legal]
        return {key: view[key] for key in VIEW_ORDER}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Knowledge):
            return NotImplemented
        facts = [name for name in self.__slots__ if not name.startswith("_")]
        same = all(getattr(self, name) == getattr(other, name) for name in facts)
        return same and self.legal == other.legal

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Knowledge(seat={self.seat}, rules={self.rules.name!r}, phase={self.phase!r}, current={self.current})"

    # ------------------------------------------------------------ checking
    def check_public(self) -> None:
        """Refuse a position play cannot reach, as far as public facts decide; ``StateError`` names the fault.

        Callers run ``check_table_cards`` first (once), so a fifth table card is the fault named.
        """
        n, phase, current, finish = self.num_players, self.phase, self.current, self.finish_order
        if len(set(finish)) != len(finish):
            raise StateError(f"'finish_order' repeats a seat: {finish}")
        if self.decisions > self.max_decisions:
            raise StateError(f"'decisions' {self.decisions} exceeds 'max_decisions' {self.max_decisions}")
        if phase == OVER:
            if current is not None:
                raise StateError(f"'current' must be null once the game is over, got {current!r}")
            if self.window is not None or self.forced_rank is not None:
                raise StateError("a finished game has no 'window' and no 'forced_rank'")
            self._check_over()
            return
        if self.decisions == self.max_decisions:
            raise StateError(f"'decisions' reached 'max_decisions' ({self.max_decisions}): the game would be over")
        if current is None:
            raise StateError("'current' must be the seat to act while the game is in progress, got null")
        self._check_placed(finish)
        if n - len(finish) < 2:
            raise StateError("a game in progress needs at least two seats that are not in 'finish_order'")
        if current in finish and phase != NOMINATE:
            raise StateError(f"'current' seat {current} is safe (in 'finish_order') and cannot act")
        if self.forced_rank is not None:
            self._check_forced_rank()
        if phase == SWAP:
            self._check_swap()
        elif phase == NOMINATE and (not self.pile or not self.rules.tables.nominate[self.pile[-1] >> 2]):
            raise StateError(
                "phase 'nominate' follows a nominating play: the pile's top card must have the 'nominate' power"
            )
        if phase == INTERRUPT:
            self._check_window()
        elif self.window is not None:
            raise StateError(f"'window' is only used in phase 'interrupt', got {self.window!r} in phase {phase!r}")

    def _check_over(self) -> None:
        """A finished game placed every seat, the last (the shithead) still holding cards; or it ended at the
        decision cap with at least two seats unplaced."""
        n, finish = self.num_players, self.finish_order
        if len(finish) == n:
            if not self.cards_left(finish[-1]):
                raise StateError(f"the last seat of 'finish_order', {finish[-1]}, is the shithead and must still "
                                 "hold cards")
            finish = finish[:-1]
        elif self.decisions != self.max_decisions or len(finish) > n - 2:
            raise StateError(
                f"a finished game lists every seat in 'finish_order' (it has {len(finish)} of {n}), unless it ended at "
                f"the decision cap ('decisions' {self.decisions} of 'max_decisions' {self.max_decisions}) with at "
                "least two seats unplaced"
            )
        self._check_placed(finish)

    def _check_placed(self, safe: list[int]) -> None:
        """The ``safe`` seats hold no cards and every other seat holds some."""
        for seat in range(self.num_players):
            holds = self.cards_left(seat) > 0
            if seat in safe and holds:
                raise StateError(f"seat {seat} is in 'finish_order' (safe) but still holds cards")
            if seat not in safe and not holds:
                raise StateError(f"seat {seat} holds no cards but is not in 'finish_order'; list it there (it is safe)")

    def check_table_cards(self) -> None:
        """At most ``TABLE_CARDS`` face-up and face-down cards a seat."""
        for seat in range(self.num_players):
            for zone, size in (("face_up", len(self.face_up[seat])), ("face_down", self.face_down[seat])):
                if size > TABLE_CARDS:
                    raise StateError(f"players[{seat}].{zone} holds {size} cards; at most {TABLE_CARDS}")

    def _check_forced_rank(self) -> None:
        """The opener holds its forced rank: seen in its hand, or possible among its unseen cards."""
        rank, current = self.forced_rank, self.current
        if self.phase != PLAY or not self.rules.opener_plays_lowest:
            raise StateError("'forced_rank' is only set for the opening play of rules with opener_plays_lowest")
        if current == self.seat:
            held = any(card >> 2 == rank for card in self.hand)
        else:
            unknown = self.hand_sizes[current] - len(self.known[current])
            held = any(card >> 2 == rank for card in self.known[current])
            held = held or (unknown > 0 and self.unseen_counts(per_rank=True)[rank] > 0)
        if not held:
            raise StateError(
                f"'forced_rank' {RANKS[rank]} is not in the hand of seat {current}, which must play it"
            )

    def _check_swap(self) -> None:
        """Before the first turn: nothing played, picked up or finished; the chooser still has a choice."""
        if self.pile or self.burned or self.finish_order:
            raise StateError("phase 'swap' comes before any play: 'pile', 'burned' and 'finish_order' must be empty")
        if any(self.known) or any(self.narrowed):
            raise StateError("phase 'swap' comes before any pickup: no seat has 'known' or 'narrowed' cards yet")
        # The current seat and every seat after it up to the dealer still choose; each needs the cards to.
        n, first = self.num_players, (self.dealer + 1) % self.num_players
        for offset in range((self.current - first) % n, n):
            seat = (first + offset) % n
            missing = TABLE_CARDS - len(self.face_up[seat])
            if not 0 < missing <= self.hand_sizes[seat]:
                raise StateError(
                    f"seat {seat} has still to choose face-up cards but has nothing to choose "
                    f"({self.hand_sizes[seat]} hand card(s), {len(self.face_up[seat])} face-up)"
                )

    def _check_window(self) -> None:
        if not self.rules.tables.has_windows:
            raise StateError(
                f"phase 'interrupt' needs out-of-turn plays, which rules {self.rules.name!r} do not have"
            )
        if self.window is None:
            raise StateError("phase 'interrupt' needs 'window': {'played_by': seat, 'next': seat, 'queue': [seats]}")
        if not self.pile:
            raise StateError("phase 'interrupt' needs a non-empty pile")
        played_by, next_seat, queue = self.window
        if next_seat in self.finish_order:
            raise StateError(
                f"window.next {next_seat} is safe (in 'finish_order'): the held turn belongs to an active seat"
            )
        asked = [self.current, *queue]
        if played_by in asked or len(set(asked)) != len(asked) or any(s in self.finish_order for s in asked):
            raise StateError(
                f"window: the seats asked ({asked}) must be distinct active seats other than played_by {played_by}"
            )

    def _check_hidden(self) -> None:
        """A view's own counts agree, and the cards it hides are exactly the deck's unseen ones."""
        seat = self.seat
        if self.hand_sizes[seat] != len(self.hand):
            raise StateError(
                f"view.players[{seat}].hand_size is {self.hand_sizes[seat]} but view.hand holds {len(self.hand)}"
            )
        for s in range(self.num_players):
            if len(self.known[s]) > self.hand_sizes[s]:
                raise StateError(f"view.players[{s}].known holds more cards than its hand_size {self.hand_sizes[s]}")
            if len(self.known[s]) + len(self.narrowed[s]) > self.hand_sizes[s]:
                raise StateError(f"view.players[{s}].narrowed names more cards than its hand hides")
        if Counter(self.known[seat]) - Counter(self.hand):
            raise StateError(f"view.players[{seat}].known holds cards that are not in view.hand")
        if not fits(self.narrowed[seat], hidden_cards(self.hand, self.known[seat])):
            raise StateError(f"view.players[{seat}].narrowed does not fit the seat's own hidden hand cards")
        others = [mask for s in range(self.num_players) if s != seat for mask in self.narrowed[s]]
        if others and not fits(others, self.unseen()):
            raise StateError("the other seats' players[].narrowed fit no deal of the cards this seat has not seen "
                             "(each narrowed card needs an unseen card of a rank it allows)")
        unseen = sum(self.unseen_counts())
        hidden = self.draw_size + sum(self.face_down)
        hidden += sum(self.hand_sizes[s] - len(self.known[s]) for s in range(self.num_players) if s != self.seat)
        if hidden != unseen:
            raise StateError(
                f"the view hides {hidden} cards (draw pile, face-down cards, unknown hand cards) "
                f"but {unseen} cards of the deck are unseen"
            )


def _active(num_players: int, finish_order: list[int]) -> list[bool]:
    active = [True] * num_players
    for seat in finish_order:
        active[seat] = False
    return active


class _Reader:
    """Reads one mapping of a view; every error names the field's path."""

    def __init__(self, data: Any, path: str = "view") -> None:
        if not isinstance(data, Mapping):
            raise StateError(f"{path} must be a mapping, got {data!r}")
        self.data, self.path = data, path

    def get(self, key: str, default: Any = REQUIRED) -> Any:
        if key in self.data:
            return self.data[key]
        if default is REQUIRED:
            raise StateError(f"{self.path} lacks the field {key!r}")
        return default

    def int(self, key: str, low: int, high: int) -> int:
        return strict_int(self.get(key), f"{self.path}.{key}", low, high)

    def shown(self, shown: Shown, num_players: int) -> Any:
        """The value under a key that shows a field, decoded (a view older than the field: its default)."""
        return shown.from_json(self.get(shown.key, shown.field.view_default), f"{self.path}.{shown.key}", num_players)
