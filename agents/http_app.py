"""The FastAPI application of ``shithead serve``: one router per group of endpoints, one handler per kind of error.

- ``bot_routes``: ``/v1/health`` and ``/v1/bots``; ``BotEndpoint``: ``/v1/bots/{name}/act`` (the JSON bot
  protocol), a plain ASGI app in front of FastAPI's router, since a bot server's speed is that endpoint's;
- ``game_routes``: ``/v1/presets`` and the game sessions under ``/v1/games`` (``agents.sessions``);
- ``web_routes``: the browser table at ``/`` and its files.

A ``ProtocolError`` raised anywhere becomes its documented error body (``agents.protocol.spec.ERRORS``); a bot's
crash during a game request is a 500 ``bot_failure``. Bots think in worker threads, so a long search never holds
up the event loop (other games, ``/v1/health``); even a quick bot's answer is faster from a thread, since the
loop reads and writes other requests meanwhile (measured). The OpenAPI document carries the shipped JSON
Schemas, inlined, and request examples Swagger can send as they are.

(No ``from __future__ import annotations`` in this module: FastAPI reads the endpoints' annotations at runtime,
and they name classes imported inside the functions below.)
"""

import asyncio
import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.http_guard import BODY_SECONDS, LOOPBACK_NAMES, Receive, RequestGuard, Scope, Send, send_json
from agents.protocol.handler import ProtocolError, Reply, compile_validators, error_body, handle_request
from agents.protocol.spec import (
    ERRORS,
    MAX_BODY_BYTES,
    MAX_GAME_BODY_BYTES,
    MAX_SEED,
    PROTOCOL_VERSION,
    inline_defs,
    load_schema,
)
from agents.sessions import Limits, Sessions
from shithead_env import PRESETS, Game, load_rules
from shithead_env.phases import PLAY
from shithead_env.render import legend

if TYPE_CHECKING:
    from fastapi import APIRouter, FastAPI

    from agents.served import ServedBot

WEB_DIR = Path(__file__).resolve().parent / "web"  # the browser table: static files, no build step
ACT_PATH = "/v1/bots/{name}/act"
ACT_PREFIX, ACT_SUFFIX = ACT_PATH.split("{name}")


def create_app(
    bots: Mapping[str, "ServedBot"],
    allow_origins: Sequence[str] = (),
    limits: Limits | None = None,
    allow_hosts: Sequence[str] = LOOPBACK_NAMES,
    store: Path | None = None,
    worker: int = 0,
) -> "FastAPI":
    """The application serving ``bots``, game sessions within ``limits`` and the browser table at ``/``.

    ``allow_origins``: browser origins allowed by CORS and by the Origin check; ``allow_hosts``: the names
    the Host header may carry (``agents.http_guard``); ``store``: the game sessions' file shared by the
    server's workers (None: in memory); ``worker``: this worker's number, shown by ``/v1/health``. The OpenAPI
    pages (``/docs``, ``/redoc``) load their scripts from this server (fastapi-offline), never from a CDN
    (ReDoc's sidebar still asks cdn.redoc.ly for its own logo, and renders without it).
    """
    from fastapi import Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse
    from fastapi.staticfiles import StaticFiles
    from fastapi_offline import FastAPIOffline
    from starlette.exceptions import HTTPException

    app = FastAPIOffline(
        title="shithead bot server",
        version=str(PROTOCOL_VERSION),
        description="The JSON bot protocol (docs/protocol.md) over HTTP: send a seat's view, get the bot's action. "
        "Game sessions: play a seat against the served bots (the browser table at `/`).",
    )
    compile_validators()
    app.add_middleware(BotEndpoint, bots=bots)  # the first added is the innermost: behind CORS and the guard
    if allow_origins:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(CORSMiddleware, allow_origins=list(allow_origins), allow_methods=["GET", "POST", "DELETE"],
                           allow_headers=["Content-Type"])  # fmt: skip
    app.add_middleware(RequestGuard, hosts=allow_hosts, origins=allow_origins)  # outermost: runs first

    @app.exception_handler(ProtocolError)
    async def protocol_error(request: Request, exc: ProtocolError) -> JSONResponse:
        return JSONResponse(exc.body(), exc.status)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        return JSONResponse(error_body("invalid_request", problems), 400)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        return JSONResponse(error_body("http_error", str(exc.detail)), exc.status_code)

    app.include_router(bot_routes(bots, worker))
    app.include_router(game_routes(Sessions(bots, limits or Limits(), store=store)))
    app.include_router(web_routes())
    app.mount("/web", StaticFiles(directory=WEB_DIR), name="web")
    app.openapi = with_examples(app.openapi, request_examples(), {ACT_PATH: {"post": act_operation()}})  # type: ignore[method-assign]
    return app


# ---------------------------------------------------------------- the routers


def bot_routes(bots: Mapping[str, "ServedBot"], worker: int = 0) -> "APIRouter":
    """Liveness (with the number of the worker that answered) and the served bots' cards (``BotEndpoint``
    answers their actions)."""
    from fastapi import APIRouter

    router = APIRouter()

    @router.get("/v1/health", summary="Liveness")
    async def health() -> dict[str, Any]:
        return {"status": "ok", "protocol": PROTOCOL_VERSION, "bots": len(bots), "worker": worker}

    @router.get("/v1/bots", summary="The served bots and their cards")
    async def list_bots() -> dict[str, Any]:
        return {"protocol": PROTOCOL_VERSION, "bots": [served.card for served in bots.values()]}

    return router


class BotEndpoint:
    """``POST /v1/bots/{name}/act`` in front of ``app`` (FastAPI), which gets every other request.

    FastAPI's routing and parameter machinery cost more than a heuristic's whole decision, so this one endpoint
    is a plain ASGI app: it reads the body (within ``MAX_BODY_BYTES`` and ``BODY_SECONDS``) and the ``seed``
    query parameter itself and answers through ``handle_request`` in a worker thread. Its errors are the same
    protocol error bodies as FastAPI's handlers give.
    """

    def __init__(self, app: Any, bots: Mapping[str, "ServedBot"]) -> None:
        self.app = app
        self.bots = bots

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        path: str = scope["path"] if scope["type"] == "http" else ""
        name = path[len(ACT_PREFIX) : -len(ACT_SUFFIX)] if path.endswith(ACT_SUFFIX) else ""
        if not path.startswith(ACT_PREFIX) or not name or "/" in name:
            await self.app(scope, receive, send)
        elif scope["method"] != "POST":
            await send_json(send, 405, error_body("http_error", "Method Not Allowed"), [(b"allow", b"POST")])
        else:
            from starlette.requests import ClientDisconnect

            try:
                reply = await self.answer(name, scope, receive)
            except ProtocolError as error:
                reply = Reply(error.status, error.body())
            except ClientDisconnect:
                return  # nobody is left to answer
            await send_json(send, reply.status, reply.body)

    async def answer(self, name: str, scope: Scope, receive: Receive) -> Reply:
        from starlette.concurrency import run_in_threadpool

        served = self.bots.get(name)
        if served is None:
            raise ProtocolError("unknown_bot", f"no bot named {name!r}; served bots: {', '.join(self.bots)}")
        seed = query_seed(scope["query_string"])
        length = next((value for key, value in scope["headers"] if key == b"content-length"), None)
        body = await read_body(receive, length)
        return await run_in_threadpool(handle_request, served.bot, body, name=name, seed=seed)


def query_seed(query: bytes) -> int | None:
    """The ``seed`` query parameter (the last one given), or None; ``ProtocolError`` unless it is 0..MAX_SEED."""
    if b"seed" not in query:
        return None
    from urllib.parse import parse_qsl

    given = [value for key, value in parse_qsl(query.decode("latin-1"), keep_blank_values=True) if key == "seed"]
    if not given:
        return None
    raw = given[-1]
    if not (raw.isascii() and raw.isdigit() and len(raw) <= len(str(MAX_SEED)) and int(raw) <= MAX_SEED):
        raise ProtocolError("invalid_request", f"seed must be an integer 0..{MAX_SEED}, got {raw!r}")
    return int(raw)


def game_routes(sessions: Sessions) -> "APIRouter":
    """The presets a table-setup form offers, and the game sessions: a human seat against served bots."""
    from fastapi import APIRouter, Request
    from fastapi.responses import JSONResponse, Response
    from starlette.concurrency import run_in_threadpool

    router = APIRouter()

    async def answer(work: Callable[[], dict[str, Any]], status: int = 200) -> JSONResponse:
        """Run one game request in a worker thread (its bots may think); a bot's crash is a 500 ``bot_failure``."""
        try:
            return JSONResponse(await run_in_threadpool(work), status)
        except ProtocolError:
            raise
        except Exception as error:  # a bug in a bot, never the client's fault
            return JSONResponse(error_body("bot_failure", f"a bot failed: {type(error).__name__}: {error}"), 500)

    @router.get("/v1/presets", summary="The rules presets, their player ranges and card powers")
    async def list_presets() -> dict[str, Any]:
        return {"protocol": PROTOCOL_VERSION, "presets": presets()}

    @router.post("/v1/games", summary="Create a game: a human seat against served bots", status_code=201,
                 response_model=None, openapi_extra=request_body("game_create"),
                 responses=responses("game_state", 201))  # fmt: skip
    async def create_game(request: Request) -> JSONResponse:
        body = await game_body(request)
        client = request.client.host if request.client else ""
        return await answer(lambda: sessions.create(body, client).state(), 201)

    @router.get("/v1/games/{game}", summary="The human seat's view and the events since its last decision",
                response_model=None, responses=responses("game_state"))  # fmt: skip
    async def get_game(game: str, since: int | None = None) -> JSONResponse:
        return await answer(lambda: sessions.state(game, since))

    @router.post("/v1/games/{game}/actions", summary="The human's decision; the bots then play until it must decide",
                 response_model=None, openapi_extra=request_body("game_action"),
                 responses=responses("game_state"))  # fmt: skip
    async def act_in_game(game: str, request: Request) -> JSONResponse:
        body = await game_body(request)
        return await answer(lambda: sessions.act(game, body))

    @router.get("/v1/games/{game}/hint", summary="The hint bot's probabilities for the human's legal actions",
                response_model=None, responses=responses("response"))  # fmt: skip
    async def hint(game: str) -> JSONResponse:
        return await answer(lambda: sessions.hint(game))

    @router.delete("/v1/games/{game}", summary="Forget a game", status_code=204, response_model=None)
    async def delete_game(game: str) -> Response:
        sessions.delete(game)
        return Response(status_code=204)

    return router


def web_routes() -> "APIRouter":
    """The browser table's page and its icon where browsers look for it unasked (its files are mounted at ``/web``
    by ``create_app``: a router's mounts are not carried over by ``include_router``)."""
    from fastapi import APIRouter
    from fastapi.responses import FileResponse

    router = APIRouter()

    @router.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @router.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:
        return FileResponse(WEB_DIR / "favicon.svg", media_type="image/svg+xml")

    return router


# ---------------------------------------------------------------- request bodies


async def read_body(receive: Receive, declared: bytes | str | None, limit: int = MAX_BODY_BYTES) -> bytes:
    """The body from ``receive`` (``declared``: its Content-Length header); ``ProtocolError`` once it exceeds
    ``limit`` bytes (read no further) or is slower than ``BODY_SECONDS`` to arrive; ``ClientDisconnect`` when the
    client leaves first."""
    from starlette.requests import ClientDisconnect

    too_large = ProtocolError("body_too_large", f"the body is larger than {limit} bytes")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(BODY_SECONDS):
            more = True
            while more:
                message = await receive()
                if message["type"] == "http.disconnect":
                    raise ClientDisconnect
                chunk = message.get("body", b"")
                size += len(chunk)
                if size > limit:
                    raise too_large
                chunks.append(chunk)
                more = message.get("more_body", False)
    except TimeoutError:
        raise ProtocolError("request_timeout", f"the body did not arrive within {BODY_SECONDS:g} seconds") from None
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


async def game_body(request: Any) -> Any:
    """A game request's JSON body (at most ``MAX_GAME_BODY_BYTES``), or ``ProtocolError``."""
    body = await read_body(request.receive, request.headers.get("content-length"), MAX_GAME_BODY_BYTES)
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as error:
        raise ProtocolError("malformed_json", f"the body is not valid JSON: {error}") from None


def presets() -> list[dict[str, Any]]:
    """Every preset with its player range and its powers in one line (what a table-setup form needs)."""
    tables = [load_rules(name) for name in PRESETS]
    return [{"name": r.name, "players": {"min": r.min_players, "max": r.max_players}, "legend": legend(r)}
            for r in tables]  # fmt: skip


# ---------------------------------------------------------------- the OpenAPI document


def openapi_schema(name: str) -> dict[str, Any]:
    """A shipped schema made self-contained for ``/openapi.json``: its ``#/$defs/...`` references inlined (they
    would resolve against the OpenAPI document's root, where no ``$defs`` is), its ``$schema``/``$id`` dropped."""

    def strip(node: Any) -> Any:
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k not in ("$schema", "$id")}
        return [strip(v) for v in node] if isinstance(node, list) else node

    return strip(inline_defs(load_schema(name)))


def request_body(name: str) -> dict[str, Any]:
    """The OpenAPI request body of schema ``name`` (its example is added by ``with_examples``)."""
    media = {"schema": openapi_schema(name), "x-example-of": name}
    return {"requestBody": {"required": True, "content": {"application/json": media}}}


def responses(schema: str, status: int = 200) -> dict[int | str, dict[str, Any]]:
    """An endpoint's documented answers: schema ``schema`` at ``status``, and every protocol error by status."""
    errors = {"content": {"application/json": {"schema": openapi_schema("error")}}}
    return {
        status: {"content": {"application/json": {"schema": openapi_schema(schema)}}},
        **{code: {"description": "; ".join(c for c, (s, _) in ERRORS.items() if s == code), **errors}
           for code in sorted({s for s, _ in ERRORS.values()})},
    }  # fmt: skip


def request_examples() -> dict[str, Any]:
    """Request bodies Swagger's "Try it out" can send as they are: a real view of a seat asked to act, a game to
    create, the shape of an action (its ``decisions`` from the game's view)."""
    game = Game.new("dead_last", 3, seed=7)
    while game.phase != PLAY:
        game.step(game.legal_actions()[0])
    return {
        "view": game.view(game.current),
        "game_create": {"rules": "dead_last", "players": 4, "seat": 0, "bots": "heuristic", "hint": "heuristic"},
        "game_action": {"action": {"kind": "pickup"}, "decisions": 0},
    }


def act_operation() -> dict[str, Any]:
    """The OpenAPI operation of ``POST /v1/bots/{name}/act``, which ``BotEndpoint`` answers outside FastAPI's
    router (so FastAPI cannot describe it)."""
    name = {"name": "name", "in": "path", "required": True, "schema": {"type": "string", "title": "Name"}}
    seed = {
        "name": "seed",
        "in": "query",
        "required": False,
        "schema": {"type": "integer", "minimum": 0, "maximum": MAX_SEED, "title": "Seed"},
        "description": "drives the bot's randomness; by default derived from the body (same view, same answer)",
    }
    return {
        "summary": "The bot's action for a seat's view",
        "operationId": "act_v1_bots__name__act_post",
        "parameters": [name, seed],
        **request_body("view"),
        "responses": {str(status): answer for status, answer in responses("response").items()},
    }


def with_examples(
    openapi: Callable[[], dict[str, Any]], examples: Mapping[str, Any], paths: Mapping[str, Any]
) -> Callable[[], dict[str, Any]]:
    """``openapi`` with ``paths`` (operations FastAPI does not route) added and each request body's example put in
    after FastAPI built the document (it drops ``null`` values from what it builds, and a view without its
    ``null`` fields is no valid request)."""

    def document() -> dict[str, Any]:
        doc = openapi()  # FastAPI builds it once and keeps it: the paths and examples go into that dict once
        for path, operations in paths.items():
            doc.setdefault("paths", {}).setdefault(path, operations)
        for path in doc.get("paths", {}).values():
            for operation in path.values():
                media = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
                if "x-example-of" in media:
                    media["example"] = examples[media.pop("x-example-of")]
        return doc

    return document
