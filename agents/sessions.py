"""Game sessions: one human seat against served bots, kept on the server (``shithead serve`` ``/v1/games``).

The server holds the whole game; only the human seat's view, the public events
as that seat is shown them (``Event.for_seat``) and public facts about the
pile ever leave it. After the human's decision the bots play until the human
must decide again (or the game ends). Ids are 128 random bits; the table holds
at most ``Limits.max_games`` games, at most ``max_games_per_client`` of them
created by one client (its address), and forgets a game whose human has not
acted for ``idle_seconds`` (reading a game does not keep it). Every refusal is
a ``ProtocolError`` (docs/protocol.md) and changes nothing.

An action names the decision it answers (``decisions``, required), so it is
applied at most once: a replay or a double submit is ``stale_decision``.

The games live in a SQLite table, each as its JSON record (the full game,
the event log, the bots' generator): in this process's memory for a server
of one worker, in a file every worker opens for ``shithead serve --workers
N``, so each request of a game may reach any worker. A request reads the
record, works on its own copy and writes it back only if nobody wrote it in
between (a version number): of two requests answering the same decision, on
one worker or two, the second is refused as ``stale_decision`` and changes
nothing. The server calls these methods from worker threads (the bots'
thinking stays off its event loop). A bot's move that takes longer than
``Limits.move_seconds`` is replaced by ``greedy``'s (the stray thought runs on
with a generator of its own and is ignored).
"""

from __future__ import annotations

import functools
import json
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from agents.base import not_made_for
from agents.protocol.handler import ProtocolError, check_schema, handle_request
from agents.protocol.spec import PROTOCOL_VERSION
from agents.simple import GreedyBot
from shithead_env import Action, Game, Knowledge, load_rules
from shithead_env import events as ev
from shithead_env.cards import RANKS
from shithead_env.pile import effective_top, top_run
from shithead_env.render import legend, needs, why_illegal
from shithead_env.scoring import final_scores

if TYPE_CHECKING:
    from agents.served import ServedBot

DEFAULT_BOT = "heuristic"


@dataclass(frozen=True)
class Limits:
    """How much the game table may hold: games at once (in all, and per client), how long a game whose human does
    not act is kept, and how long a bot may think about one move."""

    max_games: int = 100
    idle_seconds: float = 1800.0
    max_games_per_client: int = 20
    move_seconds: float = 10.0


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
    client: str = ""
    move_seconds: float = Limits.move_seconds
    decided_at: int = 0  # number of events before the human's last decision
    events: list[ev.Event] = field(default_factory=list)
    late_moves: int = 0  # bot moves replaced by greedy's for taking longer than move_seconds
    version: int = 0  # the stored record's version this copy was read at

    def record(self) -> str:
        """The JSON record of the session (``Session.from_record`` rebuilds it): every field, bots by name."""
        return json.dumps({
            "id": self.id, "game": self.game.to_dict(), "seat": self.seat,
            "bots": {str(seat): served.name for seat, served in self.bots.items()},
            "hint": None if self.hint is None else self.hint.name, "rng": self.rng.bit_generator.state,
            "touched": self.touched, "client": self.client, "move_seconds": self.move_seconds,
            "decided_at": self.decided_at, "late_moves": self.late_moves,
            "events": [[e.kind, e.seat, e.data, e.secret] for e in self.events],
        })  # fmt: skip

    @classmethod
    def from_record(cls, text: str, version: int, bots: Mapping[str, ServedBot]) -> Session:
        """The session of a ``record`` stored at ``version``, its bots looked up by name among ``bots``."""
        data = json.loads(text)
        game = Game.from_dict(data["game"])
        game.events = events = [ev.Event(kind, seat, shown, secret) for kind, seat, shown, secret in data["events"]]
        rng = np.random.default_rng()
        rng.bit_generator.state = data["rng"]
        hint = None if data["hint"] is None else bots[data["hint"]]
        return cls(data["id"], game, data["seat"], {int(s): bots[name] for s, name in data["bots"].items()}, hint,
                   rng, data["touched"], data["client"], data["move_seconds"], data["decided_at"], events,
                   data["late_moves"], version)  # fmt: skip

    def names(self) -> list[str]:
        return ["you" if s == self.seat else self.bots[s].name for s in range(self.game.num_players)]

    def play_bots(self) -> None:
        """Bots decide until the human must (or the game ends); the human's lone passes are made for it."""
        self.game.play_until({self.seat}, self._bot_move)

    def _bot_move(self, seat: int) -> Action:
        """The seat's bot's move, thought in a thread of its own for at most ``move_seconds``; else greedy's."""
        outcome: list[Any] = []

        def think(rng: np.random.Generator = self.rng) -> None:
            try:
                outcome.append(self.bots[seat].bot.act_game(self.game, seat, rng))
            except Exception as error:  # re-raised below, in the request's thread
                outcome.append(error)

        thread = threading.Thread(target=think, daemon=True, name=f"bot-seat-{seat}")
        thread.start()
        thread.join(self.move_seconds)
        if not outcome:  # too late: the stray thought keeps the old generator, the game gets a new one
            self.late_moves += 1
            self.rng = np.random.default_rng(self.rng.integers(2**63))  # a Generator's draws hold its own lock
            return GreedyBot().act_game(self.game, seat, self.rng)
        if isinstance(outcome[0], Exception):
            raise outcome[0]
        return outcome[0]

    def act(self, action: Action, decisions: int) -> None:
        """The human's decision, then the bots'; refused (nothing changed) when stale or illegal."""
        game = self.game
        if decisions != game.decisions:
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


class Sessions:
    """The server's games, by id, within ``limits``; ``clock`` is injectable for tests of idling.

    ``store``: the SQLite file the server's workers share (it is created if missing); None keeps the games in
    this process's memory."""

    def __init__(
        self,
        bots: Mapping[str, ServedBot],
        limits: Limits | None = None,
        clock: Callable[[], float] = time.monotonic,  # one clock for every process of the machine (Linux, macOS)
        store: str | Path | None = None,
    ) -> None:
        self.bots = bots
        self.limits = limits or Limits()
        self.clock = clock
        self.db = sqlite3.connect(":memory:" if store is None else str(store), timeout=60.0,
                                  isolation_level=None, check_same_thread=False)  # fmt: skip
        self.lock = threading.Lock()  # one connection, used by many threads in turn
        with self.lock:
            if store is not None:
                self.db.execute("PRAGMA journal_mode=WAL")  # readers never wait for a writer
            self.db.execute("CREATE TABLE IF NOT EXISTS games (id TEXT PRIMARY KEY, client TEXT NOT NULL, "
                            "touched REAL NOT NULL, version INTEGER NOT NULL, record TEXT NOT NULL)")  # fmt: skip

    @property
    def games(self) -> list[str]:
        """The ids of the games held (idle ones included until a request sweeps them)."""
        with self.lock:
            return [key for (key,) in self.db.execute("SELECT id FROM games")]

    def _sweep(self) -> None:
        """Forget every game whose human has not acted for longer than the limit (hold ``lock``)."""
        self.db.execute("DELETE FROM games WHERE touched < ?", (self.clock() - self.limits.idle_seconds,))

    def _bot(self, name: str, rules: str, players: int, where: str) -> ServedBot:
        served = self.bots.get(name)
        if served is None:
            raise ProtocolError("invalid_game", f"{where}: no bot named {name!r}; served bots: {', '.join(self.bots)}")
        if not served.bot.covers(rules, players):
            raise ProtocolError("invalid_game", f"{where}: {not_made_for(name, served.bot, rules, players)}")
        return served

    def create(self, body: Mapping[str, Any], client: str = "") -> Session:
        """A new game from a ``game_create`` request by ``client`` (its address); the bots before the human have
        played."""
        check_schema("game_create", body, "invalid_game")
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
                          self.clock(), client, self.limits.move_seconds, events=ev.record(game))  # fmt: skip
        self._hold(session)  # the slot is taken before the bots think, so a burst of creates cannot pass the limits
        try:
            session.play_bots()
            self._save(session)
        except BaseException:
            with self.lock:
                self.db.execute("DELETE FROM games WHERE id = ?", (session.id,))
            raise
        return session

    def _hold(self, session: Session) -> None:
        """Store a new session within the limits, counted in one transaction (every worker's games)."""
        with self.lock:
            self.db.execute("BEGIN IMMEDIATE")
            try:
                self._sweep()
                held, mine = self.db.execute("SELECT COUNT(*), COUNT(*) FILTER (WHERE client = ?) FROM games",
                                             (session.client,)).fetchone()  # fmt: skip
                if held >= self.limits.max_games:
                    raise ProtocolError("too_many_games", f"the server already holds {held} games")
                if mine >= self.limits.max_games_per_client:
                    raise ProtocolError("too_many_client_games", f"this client already holds {mine} games; delete "
                                        "one or let one idle out")  # fmt: skip
                row = (session.id, session.client, session.touched, session.version, session.record())
                self.db.execute("INSERT INTO games VALUES (?, ?, ?, ?, ?)", row)
                self.db.execute("COMMIT")
            except BaseException:
                self.db.execute("ROLLBACK")
                raise

    def _save(self, session: Session) -> None:
        """Write ``session`` back, unless another request wrote it since it was read (then ``stale_decision``,
        or ``unknown_game`` once it is gone)."""
        with self.lock:
            written = self.db.execute(
                "UPDATE games SET touched = ?, version = version + 1, record = ? WHERE id = ? AND version = ?",
                (session.touched, session.record(), session.id, session.version),
            ).rowcount
            gone = not written and self.db.execute("SELECT 1 FROM games WHERE id = ?", (session.id,)).fetchone() is None
        if gone:
            raise _unknown_game()
        if not written:
            raise ProtocolError("stale_decision", "another request answered this decision first; nothing changed")
        session.version += 1

    def get(self, key: str) -> Session:
        """A copy of the game with id ``key``, or ``unknown_game`` (reading it does not restart its idle clock)."""
        with self.lock:
            self._sweep()
            row = self.db.execute("SELECT version, record FROM games WHERE id = ?", (key,)).fetchone()
        if row is None:
            raise _unknown_game()
        return Session.from_record(row[1], row[0], self.bots)

    def state(self, key: str, since: int | None = None) -> dict[str, Any]:
        """``Session.state`` of the game, between its moves."""
        return self.get(key).state(since)

    def hint(self, key: str) -> dict[str, Any]:
        return self.get(key).hint_reply()

    def delete(self, key: str) -> None:
        with self.lock:
            self._sweep()  # a game idle too long is gone, as for every other request
            if not self.db.execute("DELETE FROM games WHERE id = ?", (key,)).rowcount:
                raise _unknown_game()

    def act(self, key: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """The human's decision from a ``game_action`` request (its idle clock restarts); the state after the bots'."""
        session = self.get(key)
        check_schema("game_action", body, "illegal_action")
        session.act(Action.from_dict(body["action"]), body["decisions"])
        session.touched = self.clock()
        self._save(session)
        return session.state()


def _unknown_game() -> ProtocolError:
    return ProtocolError("unknown_game", "no game has that id (never created, deleted, or idle too long)")
