"""``shithead serve``: the JSON bot protocol over HTTP (FastAPI + uvicorn), on every core.

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
``heuristic``, ``ismcts`` ...), every exported model directory found under ``--models``
(named by its card) with ``auto`` (each request goes to the one whose card covers the
view's table), and any ``--bot NAME=SPEC``. Requests go through
``agents.protocol.handle_request``, the same function as the library call.

Workers: ``--workers N`` processes (default: the cores this process may use) share
one listening socket; the kernel hands each connection to one of them. Each
worker loads the bots itself. Game sessions live in a SQLite file in a
temporary folder that every worker opens (``agents.sessions``), so a game's
requests may reach any worker; with one worker they stay in its memory. The
first process supervises: it prints the banner once every worker is ready and
stops them all when one dies or when it is interrupted.
"""

import argparse
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from agents.http_app import create_app
from agents.http_guard import LOOPBACK_NAMES, header_timeout_protocol
from agents.served import collect_bots
from agents.sessions import Limits

PACKAGE_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_MODELS_DIR = PACKAGE_ROOT / "agents" / "pretrained"
LOOPBACK = "127.0.0.1"
MAX_PORT = 65535
# How long a thread holds the GIL before another may take it (Python's default: 5 ms). The event loop shares the
# GIL with the bots' worker threads; each request needs it several times, so at 5 ms a search held every
# request up by tens of ms (measured: median 60-140 ms for /v1/health while ismcts:time=2 thought).
SWITCH_SECONDS = 0.0005
WILDCARD_HOSTS = ("0.0.0.0", "::", "")  # binding every interface names no host: --allow-host gives the public names


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from agents.arguments import renamed

    parser.add_argument("--models", metavar="DIR", default=str(DEFAULT_MODELS_DIR),
                        help="directory searched for exported models (shithead models lists them)")
    renamed(parser, "--bots", "--models (the directory of exported models)")
    parser.add_argument("--bot", action="append", default=[], metavar="NAME=SPEC",
                        help="also serve a bot spec under a name, e.g. ismcts50=ismcts:sims=50 (repeatable)")
    parser.add_argument("--host", default=LOOPBACK, help="interface to bind (0.0.0.0: every interface)")
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
    parser.add_argument("--workers", type=int, default=None, metavar="N",
                        help="server processes sharing the port (default: this machine's cores, "
                        f"{default_workers()} here); game sessions are shared between them")
    parser.add_argument("--log-level", default="warning", choices=("critical", "error", "warning", "info", "debug"),
                        help="uvicorn's log level")


def default_workers() -> int:
    """The cores this process may run on: one worker each."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def run(args: argparse.Namespace) -> int:
    import uvicorn  # noqa: F401  (a missing extra is one line before any bot loads or any worker starts)

    extra = {}
    for item in args.bot:
        name, eq, spec = item.partition("=")
        if not eq or not name.strip() or not spec.strip():
            raise ValueError(f"--bot {item!r}: expected NAME=SPEC")
        extra[name.strip()] = spec.strip()
    if not 1 <= args.port <= MAX_PORT:
        raise ValueError(f"--port must be 1..{MAX_PORT}, got {args.port}")
    workers = default_workers() if args.workers is None else args.workers
    if workers < 1:
        raise ValueError(f"--workers must be at least 1, got {workers}")
    limits = Limits(args.max_games, args.game_idle, args.max_games_per_client, args.move_seconds)
    if min(limits.max_games, limits.max_games_per_client) < 1 or min(limits.idle_seconds, limits.move_seconds) <= 0:
        raise ValueError("--max-games, --max-games-per-client, --game-idle and --move-seconds must be positive, got "
                         f"{args.max_games}, {args.max_games_per_client}, {args.game_idle} and {args.move_seconds}")
    if workers == 1:
        app, names = build_app(args, extra, limits, None, 0)
        sock = listen(args.host, args.port)  # before the banner: a port in use is an error, never "serving on"
        print(f"serving {names} on http://{args.host}:{args.port} (docs: /docs)", flush=True)
        serve_app(app, sock, args.log_level)
        return 0
    return supervise(listen(args.host, args.port), workers, args, extra, limits)


def build_app(
    args: argparse.Namespace, extra: Mapping[str, str], limits: Limits, store: Path | None, worker: int
) -> tuple[Any, str]:
    """One worker's application (its own bots) and the served names for the banner."""
    bots = collect_bots(args.models, extra)
    hosts = [*LOOPBACK_NAMES, *args.allow_host] + ([] if args.host in WILDCARD_HOSTS else [args.host])
    return create_app(bots, args.allow_origin, limits, hosts, store, worker), ", ".join(bots)


def serve_app(app: Any, sock: socket.socket, log_level: str) -> None:
    """Run ``app`` on the listening ``sock`` until interrupted (uvicorn, slow-header cut-off)."""
    import uvicorn

    sys.setswitchinterval(SWITCH_SECONDS)
    config = uvicorn.Config(app, workers=1, log_level=log_level, access_log=False, http=header_timeout_protocol())
    uvicorn.Server(config).run(sockets=[sock])


def supervise(
    sock: socket.socket, workers: int, args: argparse.Namespace, extra: Mapping[str, str], limits: Limits
) -> int:
    """``workers`` processes serving ``sock`` with one session store; 1 when one of them dies."""
    import multiprocessing
    import queue
    from multiprocessing.connection import wait

    context = multiprocessing.get_context("spawn")  # a fresh interpreter each: no forked network runtime threads
    signal.signal(signal.SIGTERM, _interrupt)  # stopped like Ctrl-C, so the workers are stopped too
    with tempfile.TemporaryDirectory(prefix="shithead-serve-") as folder:
        store = Path(folder) / "games.sqlite"
        ready = context.Queue()
        processes = [context.Process(target=worker_main, args=(n, sock, args, extra, limits, store, ready),
                                     name=f"shithead-serve-{n}") for n in range(workers)]  # fmt: skip
        try:
            for process in processes:
                process.start()
            names = ""
            for _ in processes:
                while True:
                    with contextlib.suppress(queue.Empty):
                        n, names, failure = ready.get(timeout=0.2)
                        break
                    if any(process.exitcode is not None for process in processes):
                        raise RuntimeError("a worker exited while starting; see its error above")
                if failure:
                    raise ValueError(f"worker {n}: {failure}")
            print(f"serving {names} on http://{args.host}:{args.port} with {workers} workers (docs: /docs)",
                  flush=True)  # fmt: skip
            wait([process.sentinel for process in processes])
            dead = next(process for process in processes if process.exitcode is not None)
            print(f"shithead serve: {dead.name} exited with code {dead.exitcode}; stopping the others", file=sys.stderr)
            return 1
        finally:
            for process in processes:
                if process.is_alive():
                    process.terminate()  # uvicorn finishes the requests in flight
            for process in processes:
                process.join(10)
                if process.is_alive():
                    process.kill()
                    process.join()


def worker_main(
    n: int, sock: socket.socket, args: argparse.Namespace, extra: Mapping[str, str], limits: Limits, store: Path,
    ready: Any,
) -> None:  # fmt: skip
    """One worker process of ``supervise``: builds its app, says it is ready (or why it cannot be), serves."""
    try:
        app, names = build_app(args, extra, limits, store, n)
    except Exception as error:  # reported by the supervisor as one line, like a single worker's error
        ready.put((n, "", f"{error}"))
        return
    ready.put((n, names, ""))
    serve_app(app, sock, args.log_level)


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


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
    models: str | Path | None = DEFAULT_MODELS_DIR,
    extra: Mapping[str, str] | None = None,
    timeout: float = 60.0,
    workers: int | None = 1,
    root: str | Path = PACKAGE_ROOT,
) -> Iterator[str]:
    """``shithead serve`` in a child process on a free loopback port; yields its base URL (tests, benchmarks).

    ``workers``: its ``--workers`` (None: leave the flag out), each of them answering before this yields;
    ``root``: the checkout whose code it runs (a benchmark's older release)."""
    import httpx

    port = free_port()
    main = "import sys; from shithead_env.cli import main; sys.exit(main(sys.argv[1:]))"
    command = [sys.executable, "-c", main, "serve", "--host", LOOPBACK, "--port", str(port)]
    if models is not None:
        command += ["--models", str(Path(models).resolve())]  # the child runs in ``root``
    if workers is not None:
        command += ["--workers", str(workers)]
    command += [f"--bot={name}={spec}" for name, spec in (extra or {}).items()]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(root), os.environ.get("PYTHONPATH")]))}
    url = f"http://{LOOPBACK}:{port}"
    with tempfile.TemporaryFile() as log:
        # in ``root``: ``python -c`` puts its working directory first on the path, before PYTHONPATH
        process = subprocess.Popen(command, env=env, cwd=root, stdout=subprocess.DEVNULL, stderr=log)
        try:
            deadline = time.monotonic() + timeout
            answered: set[int] = set()  # the workers seen answering, each request on a new connection
            while True:
                with contextlib.suppress(httpx.TransportError):
                    reply = httpx.get(f"{url}/v1/health", timeout=1)
                    answered.add(reply.json().get("worker", 0) if reply.status_code == 200 else -1)
                    if len(answered - {-1}) >= (workers or 1):
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
