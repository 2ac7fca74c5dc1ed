"""The JSON bot protocol, declared once: the JSON Schema files and the docs are generated from here.

Request: a seat's view, exactly ``game.view(seat)`` (``view.schema.json``).
Response: the chosen action, its index and the probabilities of the legal actions
(``response.schema.json``), or an error (``error.schema.json``).

Regenerate the files with ``python -m agents.protocol.spec --write``; a test fails
when they drift from this declaration.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from shithead_env import NUM_ACTIONS
from shithead_env.actions import KINDS, MAX_COPIES, MAX_SEATS
from shithead_env.cards import JOKER_SUITS, RANKS, SUITS
from shithead_env.game import PHASES
from shithead_env.state import VIEW_VERSION

PROTOCOL_VERSION = 1
SCHEMA_DIR = Path(__file__).resolve().parent / "schema"
SCHEMA_BASE = "https://shithead-env.invalid/protocol/v1/"
MAX_BODY_BYTES = 64 * 1024  # a 10-seat two-deck view is under 4 KiB
MAX_CARDS = 2 * (13 * len(SUITS) + len(JOKER_SUITS))  # two decks with their Jokers
MAX_DECISIONS = 1_000_000

# error code -> (HTTP status, meaning). The same table is used by every transport.
ERRORS: dict[str, tuple[int, str]] = {
    "malformed_json": (400, "the body is not a JSON document (or not UTF-8)"),
    "body_too_large": (413, f"the body is larger than {MAX_BODY_BYTES} bytes"),
    "invalid_view": (422, "the JSON is not a view of a reachable position (schema or consistency check failed)"),
    "unsupported_rules": (422, "the view's table (rules preset, player count) is not one this bot plays"),
    "no_legal_action": (409, "the view's seat has nothing to decide (not its turn, or the game is over)"),
    "unknown_bot": (404, "no bot of that name is served"),
    "invalid_request": (400, "HTTP only: a bad query parameter (seed must be an integer 0..2**63-1)"),
    "http_error": (404, "HTTP only: unknown path (404) or method (405)"),
    "bot_failure": (500, "the bot failed on a valid view (a bug: please report it)"),
}

_ERROR_CODES = "; ".join(f"`{code}` ({status}): {meaning}" for code, (status, meaning) in ERRORS.items())
_RANK = {"type": "string", "enum": list(RANKS), "description": "rank: 2-9, T, J, Q, K, A, X (Joker)"}
_CARD_PATTERN = f"^(?:[{''.join(r for r in RANKS if r != 'X')}][{''.join(SUITS)}]|X[{''.join(JOKER_SUITS)}])$"
_SEAT = {"type": "integer", "minimum": 0, "maximum": MAX_SEATS - 1}


def _cards(description: str) -> dict[str, Any]:
    return {"type": "array", "items": {"$ref": "#/$defs/card"}, "maxItems": MAX_CARDS, "description": description}


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
    player = _object(
        {
            "hand_size": _count(MAX_CARDS, "cards in the seat's hand"),
            "face_up": _cards("the seat's face-up cards"),
            "face_down": _count(MAX_CARDS, "face-down cards the seat has left"),
            "known": _cards("cards of the seat's hand that everyone has seen"),
            "active": {"type": "boolean", "description": "the seat still holds cards"},
        },
        "what everyone knows about one seat",
    )
    properties: dict[str, Any] = {
        "version": {"const": VIEW_VERSION, "description": "view format version (shithead_env.state.VIEW_VERSION)"},
        "seat": {"$ref": "#/$defs/seat", "description": "the seat this view belongs to (the one asked to act)"},
        "rules": {"type": "string", "description": "a rules preset name; the bot's card lists those it plays"},
        "num_players": {"type": "integer", "minimum": 2, "maximum": MAX_SEATS},
        "phase": {"enum": list(PHASES)},
        "current": {"oneOf": [{"$ref": "#/$defs/seat"}, {"type": "null"}], "description": "seat to act"},
        "direction": {"enum": [1, -1]},
        "dealer": {"$ref": "#/$defs/seat"},
        "opener": {
            "oneOf": [{"$ref": "#/$defs/seat"}, {"type": "null"}],
            "description": "seat that opens after the swap when fixed at the deal (once play began: the one "
            "that opened), else null; optional (older views lack it)",
        },
        "decisions": _count(MAX_DECISIONS, "decisions taken so far"),
        "max_decisions": {"type": "integer", "minimum": 1, "maximum": MAX_DECISIONS},
        "hand": _cards("the seat's own hand"),
        "players": {"type": "array", "items": player, "minItems": 2, "maxItems": MAX_SEATS},
        "pile": _cards("discard pile, bottom to top"),
        "burned": _cards("burned cards"),
        "draw_pile": _count(MAX_CARDS, "cards left in the draw pile"),
        "finish_order": {"type": "array", "items": {"$ref": "#/$defs/seat"}, "maxItems": MAX_SEATS},
        "window": {
            "oneOf": [
                {"type": "null"},
                _object(
                    {
                        "played_by": {"$ref": "#/$defs/seat"},
                        "next": {"$ref": "#/$defs/seat"},
                        "queue": {"type": "array", "items": {"$ref": "#/$defs/seat"}, "maxItems": MAX_SEATS},
                    },
                    "interrupt window",
                ),
            ]
        },
        "forced_rank": {"oneOf": [{"$ref": "#/$defs/rank"}, {"type": "null"}]},
        "legal_actions": {"type": "array", "items": {"$ref": "#/$defs/action"}, "maxItems": NUM_ACTIONS},
    }
    view = _object(
        properties,
        "A seat's view, exactly `game.view(seat)` (docs/state.md). The seat must be the one to act.",
        required=[key for key in properties if key != "opener"],  # optional: older views lack it
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_BASE + "view.schema.json",
        "title": f"shithead bot protocol v{PROTOCOL_VERSION}: request (a seat's view)",
        **view,
        "$defs": _defs(),
    }


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
                    "every legal action in the view's order with the policy's probability; a bot without a "
                    "policy (heuristic, search) gives 1 to its chosen action and 0 to the others"
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


SCHEMAS = {"view": view_schema, "response": response_schema, "error": error_schema}


def schema_text(name: str) -> str:
    """The file content of ``schema/<name>.schema.json``."""
    return json.dumps(SCHEMAS[name](), indent=2) + "\n"


def load_schema(name: str) -> dict[str, Any]:
    """A shipped schema file, parsed."""
    return json.loads((SCHEMA_DIR / f"{name}.schema.json").read_text(encoding="utf-8"))


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
