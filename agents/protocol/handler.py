"""The one request handler of the JSON bot protocol, shared by every transport.

``handle_request(bot, body)`` takes a request body (bytes, text or an already
parsed mapping), checks it, asks the bot and returns a ``Reply``: an HTTP-style
status and the JSON body, either a response or an error (docs/protocol.md).
The library call, the HTTP server and the tests all go through it.

Checks, in order: size, JSON, the view schema, the bot's rules presets, that
the seat is asked to act, and that the view describes a reachable position
(``Knowledge.from_view`` refuses any view that no full game fits, naming the
field, and its legal actions must be exactly the ones the rules give). The
bot then decides on that ``Knowledge`` (``Bot.decide``: the same decision as
``act(view)``, without parsing the view twice), and its action is checked to
be legal.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol, TypeGuard

import numpy as np

from agents.base import Bot, not_made_for
from agents.protocol.spec import ERRORS, MAX_BODY_BYTES, PROTOCOL_VERSION, inline_defs, load_schema
from shithead_env import PRESETS, Action, Knowledge, load_rules
from shithead_env.phases import OVER

Body = bytes | bytearray | str | Mapping[str, Any]


class ReportsPolicy(Protocol):
    """A bot with a policy: it reports the probabilities behind its choice (the answer's ``probabilities``)."""

    def policy(self, knowledge: Knowledge, rng: np.random.Generator) -> tuple[Action, np.ndarray]:
        """The chosen action and the probabilities over all ``NUM_ACTIONS`` (zero on illegal actions)."""
        ...


def reports_policy(bot: object) -> TypeGuard[ReportsPolicy]:
    """Whether ``bot`` has a ``policy`` method (a mere attribute of that name is not one)."""
    return callable(getattr(bot, "policy", None))


def error_body(code: str, message: str) -> dict[str, Any]:
    """The JSON body of an error (``error.schema.json``)."""
    return {"protocol": PROTOCOL_VERSION, "error": {"code": code, "message": message}}


class ProtocolError(Exception):
    """A request that cannot be answered with an action; ``code`` is a key of ``spec.ERRORS``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.status = ERRORS[code][0]
        self.message = message

    def body(self) -> dict[str, Any]:
        return error_body(self.code, self.message)


@dataclass(frozen=True)
class Reply:
    """What a transport sends back: a status (200 or an error's) and the JSON body."""

    status: int
    body: dict[str, Any]

    @property
    def ok(self) -> bool:
        return self.status == 200


def supported_rules(bot: Bot) -> tuple[str, ...]:
    """The presets ``bot`` plays: a model's card lists them (``bot.rules``); built-in bots play them all."""
    return tuple(getattr(bot, "rules", PRESETS))


@functools.cache
def _validator(name: str) -> Callable[[Any], Any]:
    import fastjsonschema

    return fastjsonschema.compile(inline_defs(load_schema(name)))


def compile_validators(names: Iterable[str] = ("view", "game_create", "game_action")) -> None:
    """Compile the request schemas' validators now (tens of ms each): a server does it before it listens, so no
    request waits for it."""
    for name in names:
        _validator(name)


def check_schema(name: str, body: Any, code: str, root: str = "body") -> None:
    """Validate against ``<name>.schema.json``; ``ProtocolError(code)`` names the first offending field from
    ``root`` (``view.hand[0]``, ``body.players``)."""
    import fastjsonschema

    try:
        _validator(name)(body)
    except fastjsonschema.JsonSchemaValueException as error:
        where = root + str(error.name)[len("data") :]
        raise ProtocolError(code, f"{where}: {error.message.removeprefix(str(error.name)).strip()}") from None


def parse_body(body: Body) -> Mapping[str, Any]:
    """Size and JSON checks: the parsed request, or ``ProtocolError``."""
    if isinstance(body, Mapping):
        return body
    if len(body) > MAX_BODY_BYTES:
        raise ProtocolError("body_too_large", f"the body has {len(body)} bytes; the limit is {MAX_BODY_BYTES}")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError) as error:  # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise ProtocolError("malformed_json", f"the body is not valid JSON: {error}") from None
    if not isinstance(data, Mapping):
        kind = type(data).__name__
        raise ProtocolError("invalid_view", f"the body must be a JSON object (a seat's view), got {kind}")
    return data


def view_knowledge(view: Mapping[str, Any], rules: Collection[str]) -> Knowledge:
    """The validated knowledge of a view whose seat is asked to act, or ``ProtocolError``."""
    check_schema("view", view, "invalid_view", root="view")
    if view["rules"] not in rules:
        raise ProtocolError(
            "unsupported_rules", f"rules {view['rules']!r} are not supported; this bot plays: {', '.join(rules)}"
        )
    seat, n = view["seat"], view["num_players"]
    if len(view["players"]) != n:
        raise ProtocolError("invalid_view", f"num_players is {n} but players lists {len(view['players'])} seats")
    if view["phase"] == OVER or view["current"] != seat or not view["legal_actions"]:
        raise ProtocolError(
            "no_legal_action",
            f"seat {seat} has no decision to make (phase {view['phase']!r}, current seat {view['current']}, "
            f"{len(view['legal_actions'])} legal action(s)); send the view of the seat to act",
        )
    try:
        load_rules(view["rules"]).check_players(n)
        return Knowledge.from_view(view)  # the one check of a view's consistency, legal actions included
    except ValueError as error:  # StateError, or a table size the rules refuse: the view is at fault
        raise ProtocolError("invalid_view", f"the view is not a consistent position: {error}") from None


def _seed(body: Body) -> int:
    raw = json.dumps(body, sort_keys=True, default=repr).encode() if isinstance(body, Mapping) else body
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(raw, digest_size=8).digest(), "little")


def decide(bot: Bot, name: str, knowledge: Knowledge, rng: np.random.Generator) -> dict[str, Any]:
    """Ask ``bot`` on a validated view; the response body (its action is checked to be legal)."""
    legal = knowledge.legal
    if reports_policy(bot):
        action, probs = bot.policy(knowledge, rng)
        probabilities = [float(probs[a.index]) for a in legal]
    else:
        action = bot.decide(knowledge, rng)
        probabilities = [float(a == action) for a in legal]
    if not isinstance(action, Action) or action not in legal:
        raise ProtocolError("bot_failure", f"bot {name!r} chose {action!r}, which is not a legal action")
    return {
        "protocol": PROTOCOL_VERSION,
        "bot": name,
        "action": action.to_dict(),
        "index": action.index,
        "probabilities": [
            {"index": a.index, "action": a.to_dict(), "probability": p}
            for a, p in zip(legal, probabilities, strict=True)
        ],
    }


def handle_request(bot: Bot, body: Body, *, name: str | None = None, seed: int | None = None) -> Reply:
    """Answer one request for every transport: a response (status 200) or an error body.

    ``seed`` drives the bot's randomness (sampling hidden cards, search); by
    default it is derived from the body, so the same request gets the same answer.
    """
    name = name or bot.spec or type(bot).__name__
    try:
        view = parse_body(body)
        rng = np.random.default_rng(_seed(body) if seed is None else seed)
        knowledge = view_knowledge(view, supported_rules(bot))
        if not bot.covers(view["rules"], view["num_players"]):  # a model's card lists its player counts too
            raise ProtocolError("unsupported_rules", not_made_for(name, bot, view["rules"], view["num_players"]))
        return Reply(200, decide(bot, name, knowledge, rng))
    except ProtocolError as error:
        return Reply(error.status, error.body())
    except Exception as error:  # a bug in a bot: report it as such, never as the client's fault
        return Reply(500, ProtocolError("bot_failure", f"bot {name!r} failed: {type(error).__name__}: {error}").body())


def act_json(bot: Bot, view: Body, *, seed: int | None = None) -> dict[str, Any]:
    """Library call: the response body for ``view``, or ``ProtocolError``."""
    reply = handle_request(bot, view, seed=seed)
    if not reply.ok:
        error = reply.body["error"]
        raise ProtocolError(error["code"], error["message"])
    return reply.body

