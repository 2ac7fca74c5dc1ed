"""``shithead serve``: the JSON bot protocol over HTTP (FastAPI + uvicorn), one worker.

Endpoints (OpenAPI schema at ``/openapi.json``, docs at ``/docs``):

- ``GET /v1/health``: liveness and the protocol version.
- ``GET /v1/bots``: the served bots and their cards (rules, player counts, versions).
- ``POST /v1/bots/{name}/act[?seed=N]``: body = a seat's view (``game.view(seat)``);
  answer = the action, its index and the legal actions' probabilities, or an error.
- ``GET /v1/presets``; ``POST /v1/games``, ``GET /v1/games/{id}[?since=N]``,
  ``POST /v1/games/{id}/actions``, ``GET /v1/games/{id}/hint``, ``DELETE /v1/games/{id}``:
  game sessions, a human seat against served bots (``agents.sessions``).
- ``GET /``: the browser table (``agents/web``), which plays through the game endpoints.

Served bots: every registered kind that needs no argument (``random``, ``greedy``,
``heuristic``, ``ismcts`` ...), every exported model directory found under ``--bots``
(named by its card) with ``auto`` (each request goes to the one whose card covers the
view's table), and any ``--bot NAME=SPEC``. Requests go through
``agents.protocol.handle_request``, the same function as the library call.
"""

import argparse
import asyncio
import contextlib
import inspect
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.base import BOTS, Bot, bot_class, make_bot
from agents.http_guard import BODY_SECONDS, LOOPBACK_NAMES, RequestGuard, header_timeout_protocol
from agents.levels import LEVELS
from agents.onnx_bot import AUTO, CARD_FILE, ShippedBot, shipped_model_dirs
from agents.protocol.handler import PolicyBot, ProtocolError, error_body, handle_request, supported_rules
from agents.protocol.spec import ERRORS, MAX_BODY_BYTES, MAX_GAME_BODY_BYTES, MAX_SEED, PROTOCOL_VERSION, load_schema
from agents.sessions import Limits, Sessions
from shithead_env import PRESETS, Game, load_rules
from shithead_env.phases import PLAY
from shithead_env.render import legend

if TYPE_CHECKING:
    from fastapi import FastAPI

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
WEB_DIR = Path(__file__).resolve().parent / "web"  # the browser table: static files, no build step
DEFAULT_MODELS_DIR = PACKAGE_ROOT / "agents" / "pretrained"
LOOPBACK = "127.0.0.1"
MAX_PORT = 65535
# How long a thread holds the GIL before another may take it (Python's default: 5 ms). The event loop shares the
# GIL with the bots' worker threads; each request needs it several times, so at 5 ms a search held every
# request up by tens of ms (measured: median 60-140 ms for /v1/health while ismcts:time=2 thought).
SWITCH_SECONDS = 0.0005
WILDCARD_HOSTS = ("0.0.0.0", "::", "")  # binding every interface names no host: --allow-host gives the public names


@dataclass
class ServedBot:
    """A bot under its served name, with the card ``/v1/bots`` shows."""

    name: str
    bot: Bot
    card: dict[str, Any] = field(default_factory=dict)


def _needs_arguments(kind: str) -> bool:
    """Whether the registered ``kind`` takes a positional argument (a model path), so cannot be built bare."""
    params = inspect.signature(bot_class(kind)).parameters.values()
    return any(p.default is inspect.Parameter.empty and p.kind != p.VAR_KEYWORD for p in params)


def spec_bot(name: str, spec: str) -> ServedBot:
    """A bot built from a spec (``"heuristic"``, ``"ismcts:sims=50"``, ``"model:<dir>"``)."""
    return served_bot(name, spec, make_bot(spec))


def served_bot(name: str, spec: str, bot: Bot) -> ServedBot:
    """``bot`` under ``name`` with its card (a model's ``bot.json``, else the presets it plays)."""
    card = getattr(bot, "card", None)
    card = dict(card) if card is not None else {"kind": "builtin", "rules": list(supported_rules(bot))}
    card.update(name=name, spec=spec, policy=isinstance(bot, PolicyBot))
    return ServedBot(name, bot, card)


def builtin_bots() -> dict[str, ServedBot]:
    """Every registered kind that can be built without arguments, under its kind name; the difficulty levels as
    ``level1`` .. ``level4``."""
    bots = {kind: spec_bot(kind, kind) for kind in BOTS if not _needs_arguments(kind)}
    return bots | {f"level{n}": spec_bot(f"level{n}", f"level:{n}") for n in LEVELS}


def model_bots(directory: str | Path) -> dict[str, ServedBot]:
    """Every exported model directory under ``directory`` (itself included), named by its card, and ``auto``:
    for each request, the one of them whose card covers the view's table."""
    directory = Path(directory)
    if not directory.is_dir():
        raise FileNotFoundError(f"--bots {directory}: not a directory")
    found: dict[str, ServedBot] = {}
    for model_dir in shipped_model_dirs(directory):
        served = spec_bot("", f"model:{model_dir}")
        served.name = served.card["name"] = str(served.bot.name)  # type: ignore[attr-defined]
        if served.name in found or served.name == AUTO:
            taken = found[served.name].card["spec"] if served.name in found else "the automatic choice"
            raise ValueError(f"two models are named {served.name!r}: {taken} and {model_dir / CARD_FILE}")
        found[served.name] = served
    if found:
        found[AUTO] = served_bot(AUTO, f"model:{AUTO}", ShippedBot(root=directory))
    return found


def collect_bots(models: str | Path | None, extra: Mapping[str, str] | None = None) -> dict[str, ServedBot]:
    """The served set: built-ins, then models (a model may not shadow a built-in), then ``extra`` name -> spec."""
    bots = builtin_bots()
    for name, served in (model_bots(models) if models is not None else {}).items():
        if name in bots:
            raise ValueError(f"model {name!r} would shadow the built-in bot of that name; rename it in {CARD_FILE}")
        bots[name] = served
    for name, spec in (extra or {}).items():
        bots[name] = spec_bot(name, spec)
    return bots


def _error(status: int, code: str, message: str) -> Any:
    from fastapi.responses import JSONResponse

    return JSONResponse(error_body(code, message), status)


async def _read_body(request: Any, limit: int = MAX_BODY_BYTES) -> bytes:
    """The body; ``ProtocolError`` once it exceeds ``limit`` bytes (read no further) or is slower than
    ``BODY_SECONDS`` to arrive."""
    declared = request.headers.get("content-length", "")
    too_large = ProtocolError("body_too_large", f"the body is larger than {limit} bytes")
    if declared.isdigit() and int(declared) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                size += len(chunk)
                if size > limit:
                    raise too_large
                chunks.append(chunk)
    except TimeoutError:
        raise ProtocolError("request_timeout", f"the body did not arrive within {BODY_SECONDS:g} seconds") from None
    return b"".join(chunks)


async def _game_body(request: Any) -> Any:
    """A game request's JSON body (at most ``MAX_GAME_BODY_BYTES``), or ``ProtocolError``."""
    body = await _read_body(request, MAX_GAME_BODY_BYTES)
    try:
        return json.loads(body)
    except (ValueError, RecursionError) as error:
        raise ProtocolError("malformed_json", f"the body is not valid JSON: {error}") from None


def presets() -> list[dict[str, Any]]:
    """Every preset with its player range and its powers in one line (what a table-setup form needs)."""
    tables = [load_rules(name) for name in PRESETS]
    return [{"name": r.name, "players": {"min": r.min_players, "max": r.max_players}, "legend": legend(r)}
            for r in tables]  # fmt: skip


def openapi_schema(name: str) -> dict[str, Any]:
    """A shipped schema made self-contained for ``/openapi.json``: its ``#/$defs/...`` references inlined (they
    would resolve against the OpenAPI document's root, where no ``$defs`` is), its ``$schema``/``$id`` dropped."""
    schema = load_schema(name)
    defs = schema.pop("$defs", {})

    def inline(node: Any) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref", "")
            if ref.startswith("#/$defs/"):
                return inline({**defs[ref.removeprefix("#/$defs/")], **{k: v for k, v in node.items() if k != "$ref"}})
            return {k: inline(v) for k, v in node.items() if k not in ("$schema", "$id")}
        if isinstance(node, list):
            return [inline(v) for v in node]
        return node

    return inline(schema)


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


def create_app(
    bots: Mapping[str, ServedBot],
    allow_origins: Sequence[str] = (),
    limits: Limits | None = None,
    allow_hosts: Sequence[str] = LOOPBACK_NAMES,
) -> "FastAPI":
    """The FastAPI application serving ``bots``, game sessions within ``limits`` and the browser table at ``/``.

    ``allow_origins``: browser origins allowed by CORS and by the Origin check; ``allow_hosts``: the names
    the Host header may carry (``agents.http_guard``). The OpenAPI pages (``/docs``,
    ``/redoc``) load their scripts from this server (fastapi-offline), never from a CDN (ReDoc's sidebar still
    asks cdn.redoc.ly for its own logo, and renders without it).
    (No ``from __future__ import annotations`` in this module: FastAPI reads the
    endpoints' annotations at runtime, and they name classes imported here.)
    """
    from fastapi import Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import FileResponse, JSONResponse, Response
    from fastapi.staticfiles import StaticFiles
    from fastapi_offline import FastAPIOffline
    from starlette.concurrency import run_in_threadpool
    from starlette.exceptions import HTTPException

    app = FastAPIOffline(
        title="shithead bot server",
        version=str(PROTOCOL_VERSION),
        description="The JSON bot protocol (docs/protocol.md) over HTTP: send a seat's view, get the bot's action. "
        "Game sessions: play a seat against the served bots (the browser table at `/`).",
    )
    sessions = Sessions(bots, limits or Limits())
    if allow_origins:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(CORSMiddleware, allow_origins=list(allow_origins), allow_methods=["GET", "POST", "DELETE"],
                           allow_headers=["Content-Type"])  # fmt: skip
    app.add_middleware(RequestGuard, hosts=allow_hosts, origins=allow_origins)  # outermost: runs first
    error_schema = openapi_schema("error")
    examples = request_examples()

    def request_body(name: str) -> dict[str, Any]:
        """The OpenAPI request body of schema ``name`` (its example is added by ``with_examples``)."""
        media = {"schema": openapi_schema(name), "x-example-of": name}
        return {"requestBody": {"required": True, "content": {"application/json": media}}}
    error_responses: dict[int | str, dict[str, Any]] = {
        status: {"description": "; ".join(c for c, (s, _) in ERRORS.items() if s == status),
                 "content": {"application/json": {"schema": error_schema}}}
        for status in sorted({s for s, _ in ERRORS.values()})
    }  # fmt: skip

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        return _error(400, "invalid_request", problems)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        return _error(exc.status_code, "http_error", str(exc.detail))

    @app.get("/v1/health", summary="Liveness")
    async def health() -> dict[str, Any]:
        return {"status": "ok", "protocol": PROTOCOL_VERSION, "bots": len(bots)}

    @app.get("/v1/bots", summary="The served bots and their cards")
    async def list_bots() -> dict[str, Any]:
        return {"protocol": PROTOCOL_VERSION, "bots": [served.card for served in bots.values()]}

    @app.post(
        "/v1/bots/{name}/act",
        summary="The bot's action for a seat's view",
        response_model=None,
        openapi_extra=request_body("view"),
        responses={200: {"content": {"application/json": {"schema": openapi_schema("response")}}}, **error_responses},
    )
    async def act(name: str, request: Request, seed: int | None = None) -> JSONResponse:
        served = bots.get(name)
        if served is None:
            return _error(404, "unknown_bot", f"no bot named {name!r}; served bots: {', '.join(bots)}")
        if seed is not None and not 0 <= seed <= MAX_SEED:
            return _error(400, "invalid_request", f"seed must be 0..{MAX_SEED}, got {seed}")
        try:
            body = await _read_body(request)
        except ProtocolError as error:
            return JSONResponse(error.body(), error.status)
        # Decided in a worker thread: a long search must not hold up the event loop (other games, /v1/health).
        reply = await run_in_threadpool(handle_request, served.bot, body, name=name, seed=seed)
        return JSONResponse(reply.body, reply.status)

    # ------------------------------------------------------------ game sessions
    def answer(work: Any, status: int = 200) -> JSONResponse:
        """Run one game request: its JSON, or the error it raised (a bot's crash is a 500 ``bot_failure``)."""
        try:
            return JSONResponse(work(), status)
        except ProtocolError as error:
            return JSONResponse(error.body(), error.status)
        except Exception as error:  # a bug in a bot, never the client's fault
            message = f"a bot failed: {type(error).__name__}: {error}"
            return JSONResponse(error_body("bot_failure", message), 500)

    def game_doc(request: str | None, status: int = 200) -> dict[str, Any]:
        extra: dict[str, Any] = {
            "responses": {status: {"content": {"application/json": {"schema": openapi_schema("game_state")}}},
                          **error_responses},
        }  # fmt: skip
        if request:
            extra["openapi_extra"] = request_body(request)
        return extra

    @app.get("/v1/presets", summary="The rules presets, their player ranges and card powers")
    async def list_presets() -> dict[str, Any]:
        return {"protocol": PROTOCOL_VERSION, "presets": presets()}

    @app.post("/v1/games", summary="Create a game: a human seat against served bots", status_code=201,
              response_model=None, **game_doc("game_create", 201))  # fmt: skip
    async def create_game(request: Request) -> JSONResponse:
        try:
            body = await _game_body(request)
        except ProtocolError as error:
            return JSONResponse(error.body(), error.status)
        client = request.client.host if request.client else ""
        return await run_in_threadpool(answer, lambda: sessions.create(body, client).state(), 201)

    @app.get("/v1/games/{game}", summary="The human seat's view and the events since its last decision",
             response_model=None, **game_doc(None))  # fmt: skip
    async def get_game(game: str, since: int | None = None) -> JSONResponse:
        return await run_in_threadpool(answer, lambda: sessions.state(game, since))

    @app.post("/v1/games/{game}/actions", summary="The human's decision; the bots then play until it must decide",
              response_model=None, **game_doc("game_action"))  # fmt: skip
    async def act_in_game(game: str, request: Request) -> JSONResponse:
        try:
            body = await _game_body(request)
        except ProtocolError as error:
            return JSONResponse(error.body(), error.status)
        return await run_in_threadpool(answer, lambda: sessions.act(game, body))

    @app.get("/v1/games/{game}/hint", summary="The hint bot's probabilities for the human's legal actions",
             response_model=None,
             responses={200: {"content": {"application/json": {"schema": openapi_schema("response")}}},
                        **error_responses})  # fmt: skip
    async def hint(game: str) -> JSONResponse:
        return await run_in_threadpool(answer, lambda: sessions.hint(game))

    @app.delete("/v1/games/{game}", summary="Forget a game", status_code=204, response_model=None)
    async def delete_game(game: str) -> Response:
        try:
            sessions.delete(game)
        except ProtocolError as error:
            return JSONResponse(error.body(), error.status)
        return Response(status_code=204)

    # ------------------------------------------------------------ the browser table
    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/favicon.ico", include_in_schema=False)
    async def favicon() -> FileResponse:  # where browsers and other clients look for the icon unasked
        return FileResponse(WEB_DIR / "favicon.svg", media_type="image/svg+xml")

    app.mount("/web", StaticFiles(directory=WEB_DIR), name="web")
    app.openapi = with_examples(app.openapi, examples)  # type: ignore[method-assign]
    return app


def with_examples(openapi: Callable[[], dict[str, Any]], examples: Mapping[str, Any]) -> Callable[[], dict[str, Any]]:
    """``openapi`` with each request body's example put in after FastAPI built the document (it drops ``null``
    values from what it builds, and a view without its ``null`` fields is no valid request)."""

    def document() -> dict[str, Any]:
        doc = openapi()  # FastAPI builds it once and keeps it: the examples go into that dict once
        for path in doc.get("paths", {}).values():
            for operation in path.values():
                media = operation.get("requestBody", {}).get("content", {}).get("application/json", {})
                if "x-example-of" in media:
                    media["example"] = examples[media.pop("x-example-of")]
        return doc

    return document


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bots", default=str(DEFAULT_MODELS_DIR), help="directory searched for exported models")
    parser.add_argument("--bot", action="append", default=[], metavar="NAME=SPEC",
                        help="also serve a bot spec under a name, e.g. ismcts50=ismcts:sims=50 (repeatable)")
    parser.add_argument("--host", default=LOOPBACK, help="interface to bind; the default is loopback only")
    parser.add_argument("--port", type=int, default=8000, help="TCP port, 1-65535")
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="let a browser page from ORIGIN call the server (CORS), e.g. http://localhost:5173")
    parser.add_argument("--allow-host", action="append", default=[], metavar="NAME",
                        help="also answer requests whose Host header names NAME (a deployment's public name; '*' "
                        "for any, behind a proxy that checks it); loopback names are always allowed")
    parser.add_argument("--max-games", type=int, default=Limits.max_games,
                        help="game sessions held at once; more are refused until one ends or idles out")
    parser.add_argument("--max-games-per-client", type=int, default=Limits.max_games_per_client,
                        help="game sessions one client address may hold at once")
    parser.add_argument("--game-idle", type=float, default=Limits.idle_seconds, metavar="SECONDS",
                        help="a game whose human has not acted this long is forgotten")
    parser.add_argument("--move-seconds", type=float, default=Limits.move_seconds, metavar="SECONDS",
                        help="a game bot's longest think about one move; a later move is replaced by greedy's")
    parser.add_argument("--log-level", default="warning", choices=("critical", "error", "warning", "info", "debug"),
                        help="uvicorn's log level")


def run(args: argparse.Namespace) -> int:
    import uvicorn

    sys.setswitchinterval(SWITCH_SECONDS)

    extra = {}
    for item in args.bot:
        name, eq, spec = item.partition("=")
        if not eq or not name.strip() or not spec.strip():
            raise ValueError(f"--bot {item!r}: expected NAME=SPEC")
        extra[name.strip()] = spec.strip()
    if not 1 <= args.port <= MAX_PORT:
        raise ValueError(f"--port must be 1..{MAX_PORT}, got {args.port}")
    bots = collect_bots(args.bots, extra)
    limits = Limits(args.max_games, args.game_idle, args.max_games_per_client, args.move_seconds)
    if min(limits.max_games, limits.max_games_per_client) < 1 or min(limits.idle_seconds, limits.move_seconds) <= 0:
        raise ValueError("--max-games, --max-games-per-client, --game-idle and --move-seconds must be positive, got "
                         f"{args.max_games}, {args.max_games_per_client}, {args.game_idle} and {args.move_seconds}")
    hosts = [*LOOPBACK_NAMES, *args.allow_host] + ([] if args.host in WILDCARD_HOSTS else [args.host])
    app = create_app(bots, args.allow_origin, limits, hosts)
    sock = listen(args.host, args.port)  # before the banner: a port in use is an error, never "serving on"
    print(f"serving {', '.join(bots)} on http://{args.host}:{args.port} (docs: /docs)", flush=True)
    config = uvicorn.Config(app, workers=1, log_level=args.log_level, access_log=False, http=header_timeout_protocol())
    uvicorn.Server(config).run(sockets=[sock])
    return 0


def listen(host: str, port: int) -> socket.socket:
    """A socket bound to (host, port); ``OSError`` naming both when the address is taken or unknown."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(address)
        except OSError:
            sock.close()
            raise
    except OSError as error:
        raise OSError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return sock


def free_port(host: str = LOOPBACK) -> int:
    """A TCP port nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def running_server(
    models: str | Path | None = DEFAULT_MODELS_DIR, extra: Mapping[str, str] | None = None, timeout: float = 60.0
) -> Iterator[str]:
    """``shithead serve`` in a child process on a free loopback port; yields its base URL (tests, benchmarks)."""
    import httpx

    port = free_port()
    main = "import sys; from shithead_env.cli import main; sys.exit(main(sys.argv[1:]))"
    command = [sys.executable, "-c", main, "serve", "--host", LOOPBACK, "--port", str(port)]
    if models is not None:
        command += ["--bots", str(models)]
    command += [f"--bot={name}={spec}" for name, spec in (extra or {}).items()]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(PACKAGE_ROOT), os.environ.get("PYTHONPATH")]))}
    url = f"http://{LOOPBACK}:{port}"
    with tempfile.TemporaryFile() as log:
        process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=log)
        try:
            deadline = time.monotonic() + timeout
            while True:
                with contextlib.suppress(httpx.TransportError):
                    if httpx.get(f"{url}/v1/health", timeout=1).status_code == 200:
                        break
                if process.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError(f"the server did not start: {log.read().decode(errors='replace')[-2000:]}")
                time.sleep(0.1)
            yield url
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
