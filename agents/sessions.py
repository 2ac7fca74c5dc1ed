"""Game sessions: one human seat against served bots, kept on the server (``shithead serve`` ``/v1/games``).

The server holds the whole game; only the human seat's view, the public events
as that seat is shown them (``Event.for_seat``) and public facts about the
pile ever leave it. After the human's decision the bots play until the human
must decide again (or the game ends). Ids are 128 random bits; the table holds
at most ``Limits.max_games`` games and forgets one idle for ``idle_seconds``.
Every refusal is a ``ProtocolError`` (docs/protocol.md) and changes nothing.

No locks: the server runs one worker and calls these methods from its event
loop without awaiting inside them, so each request's change is atomic.
"""

from __future__ import annotations

import functools
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from agents.protocol.handler import ProtocolError, handle_request
from agents.protocol.spec import PROTOCOL_VERSION, load_schema
from shithead_env import Action, Game, Knowledge, load_rules
from shithead_env import events as ev
from shithead_env.cards import RANKS
from shithead_env.pile import effective_top, top_run
from shithead_env.render import legend, needs, why_illegal
from shithead_env.scoring import final_scores

if TYPE_CHECKING:
    from agents.serve import ServedBot

DEFAULT_BOT = "heuristic"


@dataclass(frozen=True)
class Limits:
    """How much the game table may hold: games at once, and how long an untouched game is kept."""

    max_games: int = 100
    idle_seconds: float = 1800.0


@dataclass
class Session:
    """One game: the human's seat, the bots in the others, and where the human's last decision left the log."""

    id: str
    game: Game
    seat: int
    bots: dict[int, ServedBot]
    hint: ServedBot | None
    rng: np.random.Generator
    touched: float
    decided_at: int = 0  # number of events before the human's last decision
    events: list[ev.Event] = field(default_factory=list)

    def names(self) -> list[str]:
        return ["you" if s == self.seat else self.bots[s].name for s in range(self.game.num_players)]

    def play_bots(self) -> None:
        """Bots decide until the human must (or the game ends)."""
        game = self.game
        while not game.is_over and game.current != self.seat:
            seat = game.current
            game.step(self.bots[seat].bot.act_game(game, seat, self.rng))

    def act(self, action: Action, decisions: int | None) -> None:
        """The human's decision, then the bots'; refused (nothing changed) when stale or illegal."""
        game = self.game
        if decisions is not None and decisions != game.decisions:
            raise ProtocolError(
                "stale_decision", f"the action answers decision {decisions} but the game is at {game.decisions}"
            )
        if game.is_over or game.current != self.seat or not game.is_legal(action):
            reason = why_illegal(Knowledge.from_game(game, self.seat), action)
            raise ProtocolError("illegal_action", f"{action} is not legal now: {reason}")
        self.decided_at = len(self.events)
        game.step(action)
        self.play_bots()

    def state(self, since: int | None = None) -> dict[str, Any]:
        """The game as the human seat sees it; events from ``since`` (default: its last decision)."""
        game, seat = self.game, self.seat
        start = self.decided_at if since is None else since
        if not 0 <= start <= len(self.events):
            raise ProtocolError("invalid_request", f"since must be 0..{len(self.events)}, got {since}")
        names = self.names()
        label = functools.partial(_label, names)
        shown = []
        for n in range(start, len(self.events)):
            event = self.events[n].for_seat(seat)
            shown.append({"n": n, **event, "text": ev.describe(event, you=seat, label=label)})
        k = Knowledge.from_game(game, seat)
        top = effective_top(k.rules.tables, k.pile)
        result = None
        if game.is_over:
            scores = final_scores(game)
            result = {"finish_order": list(game.finish_order), "scores": list(scores), "truncated": game.truncated}
        return {
            "protocol": PROTOCOL_VERSION,
            "game": self.id,
            "seat": seat,
            "names": names,
            "view": k.to_dict(),
            "events": shown,
            "next_event": len(self.events),
            "table": {
                "needs": needs(k),
                "effective_top": None if top is None else RANKS[top],
                "run": top_run(k.pile)[1],
                "invisible": [r for r in RANKS if game.rules.has(r, "invisible")],
                "legend": legend(game.rules),
            },
            "hint": None if self.hint is None else self.hint.name,
            "result": result,
        }

    def hint_reply(self) -> dict[str, Any]:
        """The hint bot's answer for the human's view (the bot protocol's response), seeing only that view."""
        if self.hint is None:
            raise ProtocolError("invalid_game", "this game was created without a hint bot (create it with 'hint')")
        reply = handle_request(self.hint.bot, self.game.view(self.seat), name=self.hint.name)
        if not reply.ok:
            raise ProtocolError(reply.body["error"]["code"], reply.body["error"]["message"])
        return reply.body


def _label(names: list[str], seat: int) -> str:
    return f"P{seat} {names[seat]}"


@functools.cache
def _validator(name: str) -> Callable[[Any], Any]:
    import fastjsonschema

    return fastjsonschema.compile(load_schema(name))


def check_schema(name: str, body: Any, code: str) -> None:
    """Validate a request body against ``<name>.schema.json``; ``ProtocolError(code)`` names the field."""
    import fastjsonschema

    try:
        _validator(name)(body)
    except fastjsonschema.JsonSchemaValueException as error:
        where = "body" + str(error.name)[len("data") :]
        raise ProtocolError(code, f"{where}: {error.message.removeprefix(str(error.name)).strip()}") from None


class Sessions:
    """The server's games, by id, within ``limits``; ``clock`` is injectable for tests of idling."""

    def __init__(
        self, bots: Mapping[str, ServedBot], limits: Limits | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.bots = bots
        self.limits = limits or Limits()
        self.clock = clock
        self.games: dict[str, Session] = {}

    def sweep(self) -> None:
        """Forget every game idle for longer than the limit."""
        cutoff = self.clock() - self.limits.idle_seconds
        for key in [key for key, s in self.games.items() if s.touched < cutoff]:
            del self.games[key]

    def _bot(self, name: str, rules: str, players: int, where: str) -> ServedBot:
        served = self.bots.get(name)
        if served is None:
            raise ProtocolError("invalid_game", f"{where}: no bot named {name!r}; served bots: {', '.join(self.bots)}")
        if not served.bot.covers(rules, players):
            raise ProtocolError("invalid_game", f"{where}: bot {name!r} is not made for {rules} with {players} "
                                f"players; its card covers {served.bot.coverage()}")
        return served

    def create(self, body: Mapping[str, Any]) -> Session:
        """A new game from a ``game_create`` request; the bots before the human have played."""
        check_schema("game_create", body, "invalid_game")
        self.sweep()
        if len(self.games) >= self.limits.max_games:
            raise ProtocolError("too_many_games", f"the server already holds {len(self.games)} games")
        rules, players, seat = body["rules"], body["players"], body.get("seat", 0)
        try:
            load_rules(rules).check_players(players)
        except ValueError as error:
            raise ProtocolError("invalid_game", f"body.players: {error}") from None
        if seat >= players:
            raise ProtocolError("invalid_game", f"body.seat must be 0..{players - 1}, got {seat}")
        others = [s for s in range(players) if s != seat]
        names = body.get("bots", DEFAULT_BOT)
        names = [names] * len(others) if isinstance(names, str) else names
        if len(names) != len(others):
            raise ProtocolError("invalid_game", f"body.bots names {len(names)} bots for the {len(others)} other seats")
        pairs = enumerate(zip(others, names, strict=True))
        bots = {s: self._bot(name, rules, players, f"body.bots[{i}]") for i, (s, name) in pairs}
        hint = None if body.get("hint") is None else self._bot(body["hint"], rules, players, "body.hint")
        seed = body.get("seed")
        seed = secrets.randbits(63) if seed is None else seed
        game = Game.new(rules, players, seed=seed)
        session = Session(secrets.token_urlsafe(16), game, seat, bots, hint, np.random.default_rng([seed, 1]),
                          self.clock(), events=ev.record(game))  # fmt: skip
        session.play_bots()
        self.games[session.id] = session
        return session

    def get(self, key: str) -> Session:
        """The game with id ``key`` (its idle clock restarts), or ``unknown_game``."""
        self.sweep()
        session = self.games.get(key)
        if session is None:
            raise ProtocolError("unknown_game", "no game has that id (never created, deleted, or idle too long)")
        session.touched = self.clock()
        return session

    def delete(self, key: str) -> None:
        self.get(key)
        del self.games[key]

    def act(self, key: str, body: Mapping[str, Any]) -> Session:
        """The human's decision from a ``game_action`` request."""
        session = self.get(key)
        check_schema("game_action", body, "illegal_action")
        session.act(Action.from_dict(body["action"]), body.get("decisions"))
        return session
