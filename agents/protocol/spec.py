"""The JSON bot protocol, declared once: the JSON Schema files and the docs are generated from here.

Request: a seat's view, exactly ``game.view(seat)`` (``view.schema.json``).
Response: the chosen action, its index and the probabilities of the legal actions
(``response.schema.json``), or an error (``error.schema.json``).
Game sessions (``shithead serve``'s ``/v1/games``): ``game_create``, ``game_action``
and ``game_state`` schemas; their errors use the same ``error.schema.json``.

Regenerate the files with ``python -m agents.protocol.spec --write``; a test fails
when they drift from this declaration.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from shithead_env import NUM_ACTIONS, PRESETS
from shithead_env.actions import KINDS, MAX_COPIES, MAX_SEATS
from shithead_env.cards import JOKER_SUITS, RANKS, SUITS
from shithead_env.encodings.layout import MAX_CARDS  # the most cards a table holds: two decks with their Jokers
from shithead_env.events import EVENT_KINDS
from shithead_env.fields import REQUIRED, VIEW_ORDER, VIEW_SEAT, VIEW_TABLE, Shown
from shithead_env.knowledge import VIEW_VERSION
from shithead_env.phases import PHASES

PROTOCOL_VERSION = 1
SCHEMA_DIR = Path(__file__).resolve().parent / "schema"
SCHEMA_BASE = "https://shithead-env.invalid/protocol/v1/"
MAX_BODY_BYTES = 64 * 1024  # a 10-seat two-deck view is under 4 KiB
MAX_DECISIONS = 1_000_000
MAX_GAME_BODY_BYTES = 4 * 1024  # a game-session request (create or action) is under 300 bytes
MAX_SEED = 2**63 - 1

# error code -> (HTTP status, meaning). The same table is used by every transport.
ERRORS: dict[str, tuple[int, str]] = {
    "malformed_json": (400, "the body is not a JSON document (or not UTF-8)"),
    "body_too_large": (413, f"the body is larger than {MAX_BODY_BYTES} bytes"),
    "invalid_view": (422, "the JSON is not a view of a reachable position (schema or consistency check failed)"),
    "unsupported_rules": (422, "the view's table (rules preset, player count) is not one this bot plays"),
    "no_legal_action": (409, "the view's seat has nothing to decide (not its turn, or the game is over)"),
    "unknown_bot": (404, "no bot of that name is served"),
    "invalid_request": (400, "HTTP only: a bad query parameter (seed: an integer 0..2**63-1; since: 0..next_event)"),
    "http_error": (404, "HTTP only: unknown path (404) or method (405)"),
    "bot_failure": (500, "the bot failed on a valid view (a bug: please report it)"),
    "invalid_game": (422, "games: the create request breaks its schema or names an unknown preset, seat or bot"),
    "unknown_game": (404, "games: no game has that id (never created, deleted, or removed after idling)"),
    "too_many_games": (503, "games: the server holds as many games as it may; try again later"),
    "too_many_client_games": (429, "games: this client holds as many games as one client may; delete or finish one"),
    "illegal_action": (422, "games: the action is not legal for your seat now (the message says why); nothing changed"),
    "stale_decision": (409, "games: the action answers an older view (`decisions` differs); nothing changed"),
    "unsupported_media_type": (415, "HTTP only: a request body that is not `Content-Type: application/json`"),
    "forbidden_host": (421, "HTTP only: the Host header names no host this server answers for (--allow-host)"),
    "forbidden_origin": (403, "HTTP only: a state-changing request from a page of another origin (--allow-origin)"),
    "request_timeout": (408, "HTTP only: the body did not arrive within the server's time limit"),
}

_ERROR_CODES = "; ".join(f"`{code}` ({status}): {meaning}" for code, (status, meaning) in ERRORS.items())
_RANK = {"type": "string", "enum": list(RANKS), "description": "rank: 2-9, T, J, Q, K, A, X (Joker)"}
_CARD_PATTERN = f"^(?:[{''.join(r for r in RANKS if r != 'X')}][{''.join(SUITS)}]|X[{''.join(JOKER_SUITS)}])$"
_SEAT = {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1}


def _cards(description: str) -> dict[str, Any]:
    return {**CODEC_SCHEMAS["cards"], "description": description}


def _count(maximum: int, description: str) -> dict[str, Any]:
    return {"type": "integer", "minimum": 0, "maximum": maximum, "description": description}


def _object(properties: dict[str, Any], description: str, required: list[str] | None = None) -> dict[str, Any]:
    return {
        "type": "object",
        "description": description,
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }


def action_schema() -> dict[str, Any]:
    """One action, as ``Action.to_dict()`` writes it."""
    shapes: dict[str, dict[str, Any]] = {
        "play": {"rank": {"$ref": "#/$defs/rank"}, "count": {"type": "integer", "minimum": 1, "maximum": MAX_COPIES}},
        "pickup": {},
        "flip": {},
        "face_up": {"rank": {"$ref": "#/$defs/rank"}},
        "nominate": {"seat": {"$ref": "#/$defs/seat"}},
        "pass": {},
    }
    assert tuple(shapes) == KINDS, "every action kind needs a schema shape"
    return {
        "description": "an action: docs/state.md 'Actions'",
        "oneOf": [_object({"kind": {"const": kind}, **fields}, f"`{kind}`") for kind, fields in shapes.items()],
    }


def _defs() -> dict[str, Any]:
    return {
        "card": {"type": "string", "pattern": _CARD_PATTERN, "description": "rank + suit: 'KS', 'TH', 'XR'"},
        "rank": _RANK,
        "seat": _SEAT,
        "action": action_schema(),
    }


def view_schema() -> dict[str, Any]:
    """The request: ``game.view(seat)`` of the seat asked to act."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_BASE + "view.schema.json",
        "title": f"shithead bot protocol v{PROTOCOL_VERSION}: request (a seat's view)",
        **_view_object(),
        "$defs": _defs(),
    }


# codec (shithead_env.fields) -> the JSON Schema of its values in a view. A schema with its own description says
# what the protocol narrows: it serves presets, so it takes rules by name only.
_NULLABLE_SEAT = {"oneOf": [{"$ref": "#/$defs/seat"}, {"type": "null"}]}
_NULLABLE_RANK = {"oneOf": [{"$ref": "#/$defs/rank"}, {"type": "null"}]}
_SEATS = {"type": "array", "items": {"$ref": "#/$defs/seat"}, "maxItems": MAX_SEATS}
_WINDOW = _object({"played_by": {"$ref": "#/$defs/seat"}, "next": {"$ref": "#/$defs/seat"}, "queue": _SEATS},
                  "interrupt window")  # fmt: skip
CODEC_SCHEMAS: dict[str, dict[str, Any]] = {
    "cards": {"type": "array", "items": {"$ref": "#/$defs/card"}, "maxItems": MAX_CARDS},
    "seat": {"$ref": "#/$defs/seat"},
    "seat or null": _NULLABLE_SEAT,
    "count": {"type": "integer", "minimum": 0, "maximum": MAX_DECISIONS},
    "positive count": {"type": "integer", "minimum": 1, "maximum": MAX_DECISIONS},
    "1 or -1": {"enum": [1, -1]},
    "phase": {"enum": list(PHASES)},
    "seats": _SEATS,
    "rank lists": {
        "type": "array",
        "items": {"type": "array", "items": {"$ref": "#/$defs/rank"}, "minItems": 1, "uniqueItems": True},
        "maxItems": MAX_CARDS,
    },
    "window or null": {"oneOf": [{"type": "null"}, _WINDOW]},
    "rank or null": _NULLABLE_RANK,
    "rules": {"type": "string", "description": "a rules preset name; the bot's card lists those it plays"},
}


def _shown_schema(shown: Shown) -> dict[str, Any]:
    """What a view shows of a field: a count of its cards, or its value typed by its codec."""
    f = shown.field
    if shown.count:
        return _count(MAX_CARDS, f"the number of cards, not which: {f.doc}")
    schema = CODEC_SCHEMAS[f.codec]
    optional = "" if f.view_default is REQUIRED else "; optional (older views lack it)"
    return {**schema, "description": schema.get("description", f.doc) + optional}


def _view_object() -> dict[str, Any]:
    """A seat's view, ``game.view(seat)``, as a schema object (uses ``$defs``): its fields as declared."""
    seat = {shown.key: _shown_schema(shown) for shown in VIEW_SEAT}
    seat["active"] = {"type": "boolean", "description": "the seat still holds cards"}
    properties: dict[str, Any] = {
        "version": {"const": VIEW_VERSION, "description": "view format version (shithead_env.state.VIEW_VERSION)"},
        "seat": {"$ref": "#/$defs/seat", "description": "the seat this view belongs to (the one asked to act)"},
        "num_players": {"type": "integer", "minimum": 2, "maximum": MAX_SEATS},
        "players": {
            "type": "array",
            "items": _object(seat, "what everyone knows about one seat", required=_required(VIEW_SEAT, seat)),
            "minItems": 2,
            "maxItems": MAX_SEATS,
        },
        "legal_actions": {"type": "array", "items": {"$ref": "#/$defs/action"}, "maxItems": NUM_ACTIONS},
        **{shown.key: _shown_schema(shown) for shown in VIEW_TABLE},
    }
    properties = {key: properties[key] for key in VIEW_ORDER}
    return _object(
        properties,
        "A seat's view, exactly `game.view(seat)` (docs/state.md). The seat must be the one to act.",
        required=_required(VIEW_TABLE, properties),
    )


def _required(shown: Sequence[Shown], keys: Iterable[str]) -> list[str]:
    """``keys`` but those of fields older views lack."""
    optional = {s.key for s in shown if s.field.view_default is not REQUIRED}
    return [key for key in keys if key not in optional]


def response_schema() -> dict[str, Any]:
    """The answer to a valid request."""
    legal = _object(
        {
            "index": {"type": "integer", "minimum": 0, "maximum": NUM_ACTIONS - 1},
            "action": {"$ref": "#/$defs/action"},
            "probability": {"type": "number", "minimum": 0, "maximum": 1},
        },
        "one legal action and the probability the bot gives it",
    )
    body = _object(
        {
            "protocol": {"const": PROTOCOL_VERSION},
            "bot": {"type": "string", "description": "the served bot's name"},
            "action": {"$ref": "#/$defs/action", "description": "the chosen action: always one of legal_actions"},
            "index": {"type": "integer", "minimum": 0, "maximum": NUM_ACTIONS - 1, "description": "its layout index"},
            "probabilities": {
                "type": "array",
                "items": legal,
                "description": (
                    "every legal action in the view's order with the policy's probability (a search bot: the "
                    "share of its root visits); a bot with neither (heuristic) gives 1 to its chosen action and 0 "
                    "to the others"
                ),
            },
        },
        "the bot's decision",
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_BASE + "response.schema.json",
        "title": f"shithead bot protocol v{PROTOCOL_VERSION}: response",
        **body,
        "$defs": _defs(),
    }


def error_schema() -> dict[str, Any]:
    """The answer to a request that cannot be answered with an action."""
    error = _object(
        {
            "code": {"enum": list(ERRORS), "description": _ERROR_CODES},
            "message": {"type": "string", "description": "what is wrong, for a human"},
        },
        "the error",
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_BASE + "error.schema.json",
        "title": f"shithead bot protocol v{PROTOCOL_VERSION}: error",
        **_object({"protocol": {"const": PROTOCOL_VERSION}, "error": error}, "an error"),
    }


# ------------------------------------------------------------ game sessions (docs/protocol.md "Game sessions")
def _names() -> dict[str, Any]:
    return {"type": "string", "minLength": 1, "maxLength": 100, "description": "a served bot's name (GET /v1/bots)"}


def game_create_schema() -> dict[str, Any]:
    """The request that creates a game: the table, the human's seat and the bots in the other seats."""
    body = _object(
        {
            "rules": {"enum": list(PRESETS), "description": "a rules preset"},
            "players": {"type": "integer", "minimum": 2, "maximum": MAX_SEATS, "description": "seats at the table"},
            "seat": {"$ref": "#/$defs/seat", "description": "the human's seat (default 0)"},
            "bots": {
                "oneOf": [_names(), {"type": "array", "items": _names(), "minItems": 1, "maxItems": MAX_SEATS - 1}],
                "description": "one served bot name for every other seat, or one name per other seat in seat "
                "order (default: heuristic); each must play the preset (its card)",
            },
            "seed": {
                "oneOf": [{"type": "integer", "minimum": 0, "maximum": MAX_SEED}, {"type": "null"}],
                "description": "deal and bot seed for a replayable game (default: a secret random one, never sent)",
            },
            "hint": {
                "oneOf": [_names(), {"type": "null"}],
                "description": "a served bot whose probabilities GET /v1/games/{id}/hint shows (default: none)",
            },
        },
        "create a game",
        required=["rules", "players"],
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_BASE + "game_create.schema.json",
        "title": f"shithead game sessions v{PROTOCOL_VERSION}: create a game",
        **body,
        "$defs": _defs(),
    }


def game_action_schema() -> dict[str, Any]:
    """The request that makes the human's decision."""
    body = _object(
        {
            "action": {"$ref": "#/$defs/action"},
            "decisions": _count(MAX_DECISIONS, "`view.decisions` of the view this action answers, so an action is "
                                "applied at most once: a mismatch (a double submit, a replay, an old page) is refused "
                                "as `stale_decision`"),
        },
        "the human seat's decision",
    )  # fmt: skip
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_BASE + "game_action.schema.json",
        "title": f"shithead game sessions v{PROTOCOL_VERSION}: an action",
        **body,
        "$defs": _defs(),
    }


# kind -> its fields (shithead_env.events); `cards` of a draw is there only for the drawing seat
EVENT_FIELDS: dict[str, dict[str, Any]] = {
    "face_up": {"card": {"$ref": "#/$defs/card"}},
    "opens": {"forced_rank": _NULLABLE_RANK},
    "play": {
        "cards": _cards("the cards laid"),
        "zone": {"enum": ["hand", "face_up"]},
        "out_of_turn": {"enum": [None, "snatch", "dump"]},
    },
    "flip": {"card": {"$ref": "#/$defs/card"}, "played": {"type": "boolean"}},
    "pickup": {"cards": _cards("cards taken into the hand"), "count": _count(MAX_CARDS, "how many"),
               "jokers": _cards("Jokers that left the game instead")},
    "take_up": {"cards": _cards("face-up cards taken into the hand")},
    "draw": {"count": _count(MAX_CARDS, "cards drawn"), "cards": _cards("only for the seat that drew")},
    "burn": {"count": _count(MAX_CARDS, "pile cards burned"), "reason": {"enum": ["card", "run"]},
             "rank": {"$ref": "#/$defs/rank"}, "run": {"oneOf": [{"type": "integer"}, {"type": "null"}]},
             "again": {"type": "boolean", "description": "the seat plays again (false: the burn left it safe)"}},
    "skip": {"skipped": {"type": "array", "items": {"$ref": "#/$defs/seat"}}},
    "reverse": {"direction": {"enum": [1, -1]}},
    "nominate": {"nominee": {"$ref": "#/$defs/seat"}},
    "pass": {},
    "safe": {"place": {"type": "integer", "minimum": 1, "maximum": MAX_SEATS}},
    "game_over": {"finish_order": {"type": "array", "items": {"$ref": "#/$defs/seat"}}, "loser": _NULLABLE_SEAT,
                  "truncated": {"type": "boolean"}},
}  # fmt: skip
assert tuple(EVENT_FIELDS) == EVENT_KINDS, "every event kind needs a schema shape"


def event_schema() -> dict[str, Any]:
    """One public event as the human seat is shown it (``Event.for_seat``), numbered and worded."""
    shapes = []
    for kind, fields in EVENT_FIELDS.items():
        common = {
            "n": {"type": "integer", "minimum": 0, "description": "the event's number in the game"},
            "kind": {"const": kind},
            "seat": _NULLABLE_SEAT,
            "text": {"type": "string", "description": "the event in words, from the human seat's side"},
        }
        required = [*common, *(f for f in fields if not (kind == "draw" and f == "cards"))]
        shapes.append(_object({**common, **fields}, f"`{kind}`", required=required))
    return {"description": "a public event: docs/protocol.md 'Events'", "oneOf": shapes}


def game_state_schema() -> dict[str, Any]:
    """What every game endpoint answers: the human seat's view, the events since its last decision."""
    table = _object(
        {
            "needs": {"type": "string", "description": "what the pile asks of the next play, in words"},
            "effective_top": _NULLABLE_RANK,
            "run": _count(MAX_COPIES * 2, "cards of the top rank lying together on top of the pile"),
            "invisible": {"type": "array", "items": {"$ref": "#/$defs/rank"}, "description": "invisible ranks"},
            "legend": {"type": "string", "description": "the preset's card powers in one line"},
        },
        "the pile and the rules, in words (all public)",
    )
    result = _object(
        {
            "finish_order": {"type": "array", "items": {"$ref": "#/$defs/seat"}},
            "scores": {"type": "array", "items": {"type": "number"}, "description": "per seat (placement scheme)"},
            "truncated": {"type": "boolean"},
        },
        "the result, once the game is over",
    )
    body = _object(
        {
            "protocol": {"const": PROTOCOL_VERSION},
            "game": {"type": "string", "description": "the game's id: unguessable, the only key to it"},
            "seat": {"$ref": "#/$defs/seat", "description": "the human's seat"},
            "names": {"type": "array", "items": {"type": "string"}, "description": "per seat: 'you' or the bot"},
            "view": _view_object(),
            "events": {"type": "array", "items": event_schema(),
                       "description": "since the human's last decision (or since `?since=N`), oldest first"},
            "next_event": {"type": "integer", "minimum": 0, "description": "the number the next event will get"},
            "table": table,
            "hint": {"oneOf": [{"type": "string"}, {"type": "null"}], "description": "the hint bot, if any"},
            "result": {"oneOf": [result, {"type": "null"}]},
        },
        "a game as the human seat sees it",
    )  # fmt: skip
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_BASE + "game_state.schema.json",
        "title": f"shithead game sessions v{PROTOCOL_VERSION}: a game",
        **body,
        "$defs": _defs(),
    }


SCHEMAS = {
    "view": view_schema,
    "response": response_schema,
    "error": error_schema,
    "game_create": game_create_schema,
    "game_action": game_action_schema,
    "game_state": game_state_schema,
}


def schema_text(name: str) -> str:
    """The file content of ``schema/<name>.schema.json``."""
    return json.dumps(SCHEMAS[name](), indent=2) + "\n"


def load_schema(name: str) -> dict[str, Any]:
    """A shipped schema file, parsed."""
    return json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))


def inline_defs(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` with each ``#/$defs/...`` reference replaced by its definition and ``$defs`` dropped: a document
    that stands alone (the OpenAPI document's schemas), and a validator with no function call and no error path
    built per card (fastjsonschema's compiled ``$ref``: the view's check in half the time, the same errors)."""
    defs = schema.get("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/"):
                return inline({**defs[ref.removeprefix("#/$defs/")], **{k: v for k, v in node.items() if k != "$ref"}})
            return {k: inline(v) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    return inline(schema)


def main(argv: list[str] | None = None) -> None:
    """Write the schema files (or check they are current)."""
    parser = argparse.ArgumentParser(prog="python -m agents.protocol.spec", description=main.__doc__)
    parser.add_argument("--write", action="store_true", help=f"write the files under {SCHEMA_DIR}")
    args = parser.parse_args(argv)
    paths = {name: SCHEMA_DIR / f"{name}.schema.json" for name in SCHEMAS}
    stale = [n for n, p in paths.items() if not p.is_file() or p.read_text(encoding="utf-8") != schema_text(n)]
    if args.write:
        SCHEMA_DIR.mkdir(exist_ok=True)
        for name in SCHEMAS:
            (SCHEMA_DIR / f"{name}.schema.json").write_text(schema_text(name), encoding="utf-8")
        print(f"wrote {len(SCHEMAS)} schema files to {SCHEMA_DIR}")
    else:
        print("stale: " + ", ".join(stale) if stale else "schema files are current")
        raise SystemExit(1 if stale else 0)


if __name__ == "__main__":
    main()
