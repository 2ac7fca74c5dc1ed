"""The JSON bot protocol (docs/protocol.md): a seat's view in, an action out, one handler for every transport."""

from agents.protocol.handler import (
    ProtocolError,
    Reply,
    ReportsPolicy,
    act_json,
    handle_request,
    reports_policy,
    view_knowledge,
)
from agents.protocol.spec import ERRORS, PROTOCOL_VERSION, SCHEMA_DIR, load_schema

__all__ = [
    "ERRORS",
    "PROTOCOL_VERSION",
    "SCHEMA_DIR",
    "ProtocolError",
    "Reply",
    "ReportsPolicy",
    "act_json",
    "handle_request",
    "load_schema",
    "reports_policy",
    "view_knowledge",
]
