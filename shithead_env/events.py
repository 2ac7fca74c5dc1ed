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
from shithead_env.turns import advance

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
    if not game.rules.tables.skip[rank]:
        return None
    skipped = [advance(game.active, game.direction, seat, i) for i in range(1, count + 1)]
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


def describe(event: Mapping[str, Any], you: int | None = None, label: Callable[[int], str] = _seat_label) -> str:
    """One line of narration for a ``for_seat`` dict; ``you``: the seat reading it ("you" instead of its label).

    Only the dict's fields are used, so the line reveals exactly what the dict does.
    """
    seat = event["seat"]

    def who(s: int) -> str:
        return "you" if s == you else label(s)

    def verb(third: str, second: str) -> str:
        return f"{who(seat)} {second if seat == you else third}"

    kind = event["kind"]
    if kind == "face_up":
        return f"{verb('puts', 'put')} {card_word(event['card'])} face up"
    if kind == "opens":
        forced = event["forced_rank"]
        return f"{verb('opens', 'open')}" + (f" and must play {rank_word(forced)}s" if forced else "")
    if kind == "play":
        cards = card_text(event["cards"])
        where = " from face-up" if event["zone"] == "face_up" else ""
        if event["out_of_turn"] == "snatch":
            return f"{verb('snatches', 'snatch')} out of turn with {cards}{where}"
        if event["out_of_turn"] == "dump":
            return f"{verb('dumps', 'dump')} {cards} out of turn{where}"
        return f"{verb('plays', 'play')} {cards}{where}"
    if kind == "flip":
        outcome = "it plays" if event["played"] else "it cannot be played"
        return f"{verb('flips', 'flip')} a face-down card: {card_word(event['card'])}, {outcome}"
    if kind == "pickup":
        text = f"{verb('picks', 'pick')} up the pile: {plural(event['count'], 'card')}"
        if event["jokers"]:
            text += f" ({card_text(event['jokers'])} leave{'s' if len(event['jokers']) == 1 else ''} the game)"
        return text
    if kind == "take_up":
        return f"{verb('takes', 'take')} the face-up cards into hand: {card_text(event['cards'])}"
    if kind == "draw":
        if "cards" in event:
            return f"{verb('draws', 'draw')} {card_text(event['cards'])}"
        return f"{verb('draws', 'draw')} {plural(event['count'], 'card')}"
    if kind == "burn":
        rank, count = rank_word(event["rank"]), plural(event["count"], "card")
        again = f"; {verb('plays', 'play')} again" if event["again"] else ""
        if event["reason"] == "card":
            return f"a {rank} burns the pile ({count}){again}"
        return f"{_NUMBER_WORDS[event['run']]} {rank}s in a row burn the pile ({count}){again}"
    if kind == "skip":  # a seat skipped more than once (a long run of skips round a small table) is named once
        seats = list(dict.fromkeys(event["skipped"]))
        times = {s: event["skipped"].count(s) for s in seats}
        names = [who(s) + {1: "", 2: " (twice)"}.get(times[s], f" ({_NUMBER_WORDS[times[s]]} times)") for s in seats]
        verb_is = "is" if len(seats) == 1 and seats[0] != you else "are"
        return f"{word_list(names)} {verb_is} skipped"
    if kind == "reverse":
        return f"play reverses: now {'clockwise' if event['direction'] == 1 else 'anticlockwise'}"
    if kind == "nominate":
        nominee = event["nominee"]
        target = ("themself" if seat != you else "yourself") if nominee == seat else who(nominee)
        return f"{verb('names', 'name')} {target} to play next"
    if kind == "pass":
        return f"{verb('passes', 'pass')}"
    if kind == "safe":
        return f"{who(seat)} {'are' if seat == you else 'is'} safe ({_ordinal(event['place'])} out)"
    if kind == "game_over":
        order = " > ".join(who(s) for s in event["finish_order"])
        if event["truncated"]:
            return "game over: truncated at the decision cap" + (f"; out: {order}" if order else "")
        loser = event["loser"]
        return f"game over: {order}; {who(loser)} {'are' if loser == you else 'is'} the shithead"
    raise ValueError(f"unknown event kind {kind!r}; known: {', '.join(EVENT_KINDS)}")
