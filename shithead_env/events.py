"""Public events: what each step did, told to each seat without a card it may not see.

The engine records an ``Event`` at the moment something happens (a few
``Game._emit`` hooks in ``shithead_env.game``); recording is off until
``record(game)`` turns it on, so search bots copying games pay nothing. An
event keeps its public part (``data``: seen by every seat) apart from the part
only its own seat may see (``secret``: the cards it drew), and
``Event.for_seat(viewer)`` is the one way an event reaches a seat. Every
frontend (the terminal game, ``shithead demo``, the HTTP game sessions and the
browser page) shows ``for_seat`` dicts, and ``describe`` words them from that
dict alone, so no text can say more than the seat may know.

Kinds and their public fields (``seat`` is the seat the event is about):

=============  ==============================================================
``face_up``    ``card``: the card it put face up in the swap
``opens``      ``forced_rank``: the rank it must open with, or null
``play``       ``cards``, ``zone`` (``hand``/``face_up``), ``out_of_turn``
               (null, ``snatch`` or ``dump``)
``flip``       ``card`` revealed from face-down, ``played`` (legal, so played)
``pickup``     ``cards`` taken into its hand, ``count``, ``jokers`` (Jokers
               that left the game instead)
``take_up``    ``cards``: face-up cards taken into its hand (``take_into_hand``)
``draw``       ``count``; secret ``cards``
``burn``       ``count`` of pile cards burned, ``reason`` (``card``: a burn
               card; ``run``: a run of ``run`` cards), ``rank``, ``again``
               (the seat plays again; false when the burn left it without
               cards: it is safe and the turn moves on)
``skip``       ``skipped``: the seats passed over, in order
``reverse``    ``direction``: 1 (clockwise) or -1, after the reverse
``nominate``   ``nominee``
``pass``       (none): it declined to play out of turn
``safe``       ``place``: 1 for the first seat out
``game_over``  ``finish_order``, ``loser`` (null when truncated), ``truncated``
=============  ==============================================================
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from shithead_env.cards import JOKER, RANKS, card_names, card_word, rank_word
from shithead_env.phases import INTERRUPT
from shithead_env.pile import top_run
from shithead_env.turns import advance, skips

if TYPE_CHECKING:
    from shithead_env.actions import Action
    from shithead_env.game import Game

EVENT_KINDS = (
    "face_up",
    "opens",
    "play",
    "flip",
    "pickup",
    "take_up",
    "draw",
    "burn",
    "skip",
    "reverse",
    "nominate",
    "pass",
    "safe",
    "game_over",
)


@dataclass(frozen=True)
class Event:
    """One public happening. ``secret`` is shown only to ``seat`` (and to an omniscient log)."""

    kind: str
    seat: int | None
    data: Mapping[str, Any] = field(default_factory=dict)
    secret: Mapping[str, Any] = field(default_factory=dict)

    def for_seat(self, viewer: int | None) -> dict[str, Any]:
        """The JSON dict ``viewer`` may see; ``viewer=None`` is omniscient (logs, replays, tests)."""
        shown = {"kind": self.kind, "seat": self.seat, **self.data}
        if viewer is None or viewer == self.seat:
            shown.update(self.secret)
        return shown


def record(game: Game) -> list[Event]:
    """Turn recording on for ``game`` (idempotent); returns its event list, oldest first."""
    if game.events is None:
        game.events = []
    return game.events


def step(game: Game, action: Action) -> list[Event]:
    """``game.step(action)`` with recording on; the events that step caused."""
    events = record(game)
    start = len(events)
    game.step(action)
    return events[start:]


# ----------------------------------------------------------------- makers
# Called by Game._emit at the moment of the change (only while recording); each reads the
# game as it is then and returns the Event, or None when nothing public happened.


def chose_face_up(game: Game, seat: int, card: int) -> Event:
    return Event("face_up", seat, {"card": card_names([card])[0]})


def opens(game: Game, seat: int) -> Event:
    forced = game.forced_rank
    return Event("opens", seat, {"forced_rank": None if forced is None else RANKS[forced]})


def played(game: Game, seat: int, cards: list[int], from_hand: bool) -> Event:
    rank = cards[0] >> 2
    out_of_turn = ("dump" if game.rules.tables.dump[rank] else "snatch") if game.phase == INTERRUPT else None
    zone = "hand" if from_hand else "face_up"
    return Event("play", seat, {"cards": card_names(cards), "zone": zone, "out_of_turn": out_of_turn})


def flipped(game: Game, seat: int, card: int, playable: bool) -> Event:
    return Event("flip", seat, {"card": card_names([card])[0], "played": bool(playable)})


def picked_up(game: Game, seat: int, extra: list[int]) -> Event:
    """Before the pile moves: the pile (and a flipped card, ``extra``) goes to the hand, Jokers leave."""
    cards = [c for c in game.pile if c >> 2 != JOKER] + extra
    jokers = [c for c in game.pile if c >> 2 == JOKER]
    return Event("pickup", seat, {"cards": card_names(cards), "count": len(cards), "jokers": card_names(jokers)})


def took_face_up(game: Game, seat: int) -> Event:
    return Event("take_up", seat, {"cards": card_names(game.face_up[seat])})


def drew(game: Game, seat: int, cards: list[int]) -> Event | None:
    if not cards:
        return None
    return Event("draw", seat, {"count": len(cards)}, {"cards": card_names(cards)})


def burned(game: Game, seat: int, rank: int) -> Event:
    """Before the pile moves: a burn card, else the run on top that reached the burn length; the burner plays again
    unless the burn left it without cards (its hand has drawn by now; how many cards a seat holds is public)."""
    again = bool(game.hands[seat] or game.face_up[seat] or game.face_down[seat])
    if game.rules.tables.burn[rank]:
        data = {"count": len(game.pile), "reason": "card", "rank": RANKS[rank], "run": None, "again": again}
    else:
        run = top_run(game.pile)[1]
        data = {"count": len(game.pile), "reason": "run", "rank": RANKS[rank], "run": run, "again": again}
    return Event("burn", seat, data)


def skipped(game: Game, seat: int, rank: int, count: int) -> Event | None:
    """Before the turn moves on: the ``count`` active seats a skip rank passes over."""
    passed = skips(game.rules.tables, rank, count)
    if not passed:
        return None
    skipped = [advance(game.active, game.direction, seat, i) for i in range(1, passed + 1)]
    return Event("skip", seat, {"skipped": skipped})


def reversed_(game: Game, seat: int) -> Event:
    return Event("reverse", seat, {"direction": game.direction})


def nominated(game: Game, seat: int, nominee: int) -> Event:
    return Event("nominate", seat, {"nominee": nominee})


def passed(game: Game, seat: int) -> Event:
    return Event("pass", seat)


def became_safe(game: Game, seat: int) -> Event:
    return Event("safe", seat, {"place": len(game.finish_order)})


def ended(game: Game) -> Event:
    loser = None if game.truncated or not game.finish_order else game.finish_order[-1]
    data = {"finish_order": list(game.finish_order), "loser": loser, "truncated": game.truncated}
    return Event("game_over", None, data)


# ----------------------------------------------------------------- words
def _seat_label(seat: int) -> str:
    return f"P{seat}"


_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight")


def card_text(names: list[str]) -> str:
    """Cards as the text shows them (``10S QH``, not the JSON's ``TS QH``)."""
    return " ".join(map(card_word, names))


def plural(count: int, noun: str) -> str:
    """``1 card``, ``3 cards``: every count the text shows."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def word_list(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class _Wording:
    """Who an event is about, worded for the seat reading it: "you" and the second person for its own seat.
    (Each kind's narrator below takes one, ``r``.)"""

    def __init__(self, seat: int, you: int | None, label: Callable[[int], str]) -> None:
        self.seat, self.you, self.label = seat, you, label

    def who(self, seat: int) -> str:
        return "you" if seat == self.you else self.label(seat)

    def verb(self, third: str, second: str) -> str:
        """The event's seat and its verb: ``P2 plays``, ``you play``."""
        return f"{self.who(self.seat)} {second if self.seat == self.you else third}"

    def be(self, seat: int) -> str:
        return "are" if seat == self.you else "is"


def _face_up(r: _Wording, event: Mapping[str, Any]) -> str:
    return f"{r.verb('puts', 'put')} {card_word(event['card'])} face up"


def _opens(r: _Wording, event: Mapping[str, Any]) -> str:
    forced = event["forced_rank"]
    return r.verb("opens", "open") + (f" and must play {rank_word(forced)}s" if forced else "")


def _play(r: _Wording, event: Mapping[str, Any]) -> str:
    cards = card_text(event["cards"])
    where = " from face-up" if event["zone"] == "face_up" else ""
    if event["out_of_turn"] == "snatch":
        return f"{r.verb('snatches', 'snatch')} out of turn with {cards}{where}"
    if event["out_of_turn"] == "dump":
        return f"{r.verb('dumps', 'dump')} {cards} out of turn{where}"
    return f"{r.verb('plays', 'play')} {cards}{where}"


def _flip(r: _Wording, event: Mapping[str, Any]) -> str:
    outcome = "it plays" if event["played"] else "it cannot be played"
    return f"{r.verb('flips', 'flip')} a face-down card: {card_word(event['card'])}, {outcome}"


def _pickup(r: _Wording, event: Mapping[str, Any]) -> str:
    text = f"{r.verb('picks', 'pick')} up the pile: {plural(event['count'], 'card')}"
    jokers = event["jokers"]
    if jokers:
        text += f" ({card_text(jokers)} leave{'s' if len(jokers) == 1 else ''} the game)"
    return text


def _take_up(r: _Wording, event: Mapping[str, Any]) -> str:
    return f"{r.verb('takes', 'take')} the face-up cards into hand: {card_text(event['cards'])}"


def _draw(r: _Wording, event: Mapping[str, Any]) -> str:
    drawn = card_text(event["cards"]) if "cards" in event else plural(event["count"], "card")
    return f"{r.verb('draws', 'draw')} {drawn}"


def _burn(r: _Wording, event: Mapping[str, Any]) -> str:
    rank, count = rank_word(event["rank"]), plural(event["count"], "card")
    again = f"; {r.verb('plays', 'play')} again" if event["again"] else ""
    if event["reason"] == "card":
        return f"a {rank} burns the pile ({count}){again}"
    return f"{_NUMBER_WORDS[event['run']]} {rank}s in a row burn the pile ({count}){again}"


def _skip(r: _Wording, event: Mapping[str, Any]) -> str:
    """A seat skipped more than once (a long run of skips round a small table) is named once."""
    seats = list(dict.fromkeys(event["skipped"]))
    times = {s: event["skipped"].count(s) for s in seats}
    names = [r.who(s) + {1: "", 2: " (twice)"}.get(times[s], f" ({_NUMBER_WORDS[times[s]]} times)") for s in seats]
    return f"{word_list(names)} {'is' if len(seats) == 1 and seats[0] != r.you else 'are'} skipped"


def _reverse(r: _Wording, event: Mapping[str, Any]) -> str:
    return f"play reverses: now {'clockwise' if event['direction'] == 1 else 'anticlockwise'}"


def _nominate(r: _Wording, event: Mapping[str, Any]) -> str:
    nominee = event["nominee"]
    target = ("yourself" if r.seat == r.you else "themself") if nominee == r.seat else r.who(nominee)
    return f"{r.verb('names', 'name')} {target} to play next"


def _pass(r: _Wording, event: Mapping[str, Any]) -> str:
    return r.verb("passes", "pass")


def _safe(r: _Wording, event: Mapping[str, Any]) -> str:
    return f"{r.who(r.seat)} {r.be(r.seat)} safe ({_ordinal(event['place'])} out)"


def _game_over(r: _Wording, event: Mapping[str, Any]) -> str:
    order = " > ".join(r.who(s) for s in event["finish_order"])
    if event["truncated"]:
        return "game over: truncated at the decision cap" + (f"; out: {order}" if order else "")
    loser = event["loser"]
    return f"game over: {order}; {r.who(loser)} {r.be(loser)} the shithead"


_LINES: dict[str, Callable[[_Wording, Mapping[str, Any]], str]] = {
    "face_up": _face_up, "opens": _opens, "play": _play, "flip": _flip, "pickup": _pickup, "take_up": _take_up,
    "draw": _draw, "burn": _burn, "skip": _skip, "reverse": _reverse, "nominate": _nominate, "pass": _pass,
    "safe": _safe, "game_over": _game_over,
}  # fmt: skip


def describe(event: Mapping[str, Any], you: int | None = None, label: Callable[[int], str] = _seat_label) -> str:
    """One line of narration for a ``for_seat`` dict; ``you``: the seat reading it ("you" instead of its label).

    Only the dict's fields are used, so the line reveals exactly what the dict does.
    """
    line = _LINES.get(event["kind"])
    if line is None:
        raise ValueError(f"unknown event kind {event['kind']!r}; known: {', '.join(EVENT_KINDS)}")
    return line(_Wording(event["seat"], you, label), event)
