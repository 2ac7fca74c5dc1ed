"""``shithead serve``: the JSON bot protocol over HTTP (FastAPI + uvicorn), one worker.

Endpoints (OpenAPI schema at ``/openapi.json``, docs at ``/docs``):

- ``GET /v1/health``: liveness and the protocol version.
- ``GET /v1/bots``: the served bots and their cards (rules, player counts, versions).
- ``POST /v1/bots/{name}/act[?seed=N]``: body = a seat's view (``game.view(seat)``);
  answer = the action, its index and the legal actions' probabilities, or an error.

Served bots: every registered kind that needs no argument (``random``, ``greedy``,
``heuristic``, ``ismcts`` ...), every exported model directory found under ``--bots``
(named by its card) with ``auto`` (each request goes to the one whose card covers the
view's table), and any ``--bot NAME=SPEC``. Requests go through
``agents.protocol.handle_request``, the same function as the library call.
"""

import argparse
import contextlib
import inspect
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agents.base import BOTS, Bot, bot_class, make_bot
from agents.onnx_bot import AUTO, CARD_FILE, ShippedBot, shipped_model_dirs
from agents.protocol.handler import PolicyBot, error_body, handle_request, supported_rules
from agents.protocol.spec import ERRORS, MAX_BODY_BYTES, PROTOCOL_VERSION, load_schema

if TYPE_CHECKING:
    from fastapi import FastAPI

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MODELS_DIR = PACKAGE_ROOT / "agents" / "pretrained"
LOOPBACK = "127.0.0.1"
MAX_SEED = 2**63 - 1


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
    """Every registered kind that can be built without arguments, under its kind name."""
    return {kind: spec_bot(kind, kind) for kind in BOTS if not _needs_arguments(kind)}


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


async def _read_body(request: Any) -> bytes | None:
    """The body, or None once it exceeds ``MAX_BODY_BYTES`` (read no further)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def create_app(bots: Mapping[str, ServedBot], allow_origins: Sequence[str] = ()) -> "FastAPI":
    """The FastAPI application serving ``bots``; ``allow_origins``: browser origins allowed by CORS.

    (No ``from __future__ import annotations`` in this module: FastAPI reads the
    endpoints' annotations at runtime, and they name classes imported here.)
    """
    from fastapi import FastAPI, Request
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse
    from starlette.exceptions import HTTPException

    app = FastAPI(
        title="shithead bot server",
        version=str(PROTOCOL_VERSION),
        description="The JSON bot protocol (docs/protocol.md) over HTTP: send a seat's view, get the bot's action.",
    )
    if allow_origins:
        from fastapi.middleware.cors import CORSMiddleware

        app.add_middleware(CORSMiddleware, allow_origins=list(allow_origins), allow_methods=["GET", "POST"],
                           allow_headers=["Content-Type"])  # fmt: skip
    error_schema = load_schema("error")
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
        openapi_extra={
            "requestBody": {"required": True, "content": {"application/json": {"schema": load_schema("view")}}}
        },
        responses={200: {"content": {"application/json": {"schema": load_schema("response")}}}, **error_responses},
    )
    async def act(name: str, request: Request, seed: int | None = None) -> JSONResponse:
        served = bots.get(name)
        if served is None:
            return _error(404, "unknown_bot", f"no bot named {name!r}; served bots: {', '.join(bots)}")
        if seed is not None and not 0 <= seed <= MAX_SEED:
            return _error(400, "invalid_request", f"seed must be 0..{MAX_SEED}, got {seed}")
        body = await _read_body(request)
        if body is None:
            return _error(413, "body_too_large", f"the body is larger than {MAX_BODY_BYTES} bytes")
        # Decided inline on the event loop: the work is CPU-bound and holds the GIL either way, and a
        # thread hand-off adds latency (GIL switch interval). A long search blocks other requests meanwhile.
        reply = handle_request(served.bot, body, name=name, seed=seed)
        return JSONResponse(reply.body, reply.status)

    return app


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--bots", default=str(DEFAULT_MODELS_DIR), help="directory searched for exported models")
    parser.add_argument("--bot", action="append", default=[], metavar="NAME=SPEC",
                        help="also serve a bot spec under a name, e.g. ismcts50=ismcts:sims=50 (repeatable)")
    parser.add_argument("--host", default="127.0.0.1", help="interface to bind (default: loopback only)")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--allow-origin", action="append", default=[], metavar="ORIGIN",
                        help="let a browser page from ORIGIN call the server (CORS), e.g. http://localhost:5173")
    parser.add_argument("--log-level", default="warning", choices=("critical", "error", "warning", "info", "debug"))


def run(args: argparse.Namespace) -> int:
    import uvicorn

    extra = {}
    for item in args.bot:
        name, eq, spec = item.partition("=")
        if not eq or not name.strip() or not spec.strip():
            raise ValueError(f"--bot {item!r}: expected NAME=SPEC")
        extra[name.strip()] = spec.strip()
    bots = collect_bots(args.bots, extra)
    print(f"serving {', '.join(bots)} on http://{args.host}:{args.port} (docs: /docs)", flush=True)
    app = create_app(bots, args.allow_origin)
    uvicorn.run(app, host=args.host, port=args.port, workers=1, log_level=args.log_level, access_log=False)
    return 0


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
