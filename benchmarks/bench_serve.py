"""Load test of ``shithead serve`` against a reference measured in the same run: requests/s and p99 as ratios.

The machine's load moves absolute numbers (other processes share its cores), so
every figure here has its reference timed in the same run, in alternation:
round 1 measures A, B, C, round 2 measures them in the reverse order, and so on.
The reference is an older checkout of the project (``--reference PATH``, started
from its own code with this interpreter), or, without one, ``handle_request``
called in this process on the same bodies (what the HTTP layer adds to the
protocol's own work).

The servers run in child processes (``agents.serve.running_server``); this
checkout's with each ``--workers`` count. The load client is ``wrk`` (compiled,
a Lua script cycles through the bodies) when it is on the PATH, else
``--connections`` Python processes with one keep-alive connection each; either
way the client runs in processes of its own. The bodies are real views: every
seat asked to act in 4-player ``dead_last`` games between heuristic bots.

    python benchmarks/bench_serve.py --bots heuristic,auto --reference /tmp/old --workers 1,2 --rounds 3

Then, with ``--think SPEC`` (default ``guided:time=2``, a search of two
seconds), each server answers one request of that bot while ``/v1/health`` is
asked every 50 ms on another connection: how long liveness waits behind a
search.

Exit status 1 when a checked target is missed: this code's one-worker requests/s
below ``--min-ratio`` times the reference's (median over the rounds), its p99
above ``--max-p99-ms``, its slowest ``/v1/health`` during the search above
``--max-health-ms``, or any request failed.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlparse

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.base import Bot, make_bot
from agents.serve import PACKAGE_ROOT, running_server
from shithead_env import Game, load_rules

MAX_VIEWS = 50_000  # bounded, whatever the arguments say
# wrk cycles through the bodies (one JSON document a line) and prints one parsable line at the end.
WRK_SCRIPT = """
local bodies = {}
for line in io.lines(os.getenv("BENCH_BODIES")) do bodies[#bodies + 1] = line end
local i = 0
local path = os.getenv("BENCH_PATH")
local headers = {["Content-Type"] = "application/json"}
request = function()
  i = i % #bodies + 1
  return wrk.format("POST", path, headers, bodies[i])
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("BENCH %d %d %d %.1f %.1f\\n", summary.requests, summary.duration,
    e.status + e.connect + e.read + e.write + e.timeout, latency:percentile(50), latency:percentile(99)))
end
"""


def real_views(count: int, seed: int = 0) -> list[bytes]:
    """Request bodies: the views of seats asked to act in real heuristic-vs-heuristic games."""
    bot = make_bot("heuristic")
    rng = np.random.default_rng(seed)
    bodies: list[bytes] = []
    deal = 0
    while len(bodies) < count:
        game = Game.new(load_rules("dead_last"), 4, seed=seed + deal)
        deal += 1
        while not game.is_over and len(bodies) < count:
            seat = game.current
            bodies.append(json.dumps(game.view(seat)).encode())
            game.step(bot.act_game(game, seat, rng))
    return bodies


def wrk_load(url: str, path: str, bodies_file: Path, seconds: float, connections: int) -> dict[str, float]:
    """One ``wrk`` pass (one thread, ``connections`` keep-alive connections)."""
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(WRK_SCRIPT)
    try:
        env = {**os.environ, "BENCH_BODIES": str(bodies_file), "BENCH_PATH": path}
        command = ["wrk", "-t1", f"-c{connections}", f"-d{max(1, round(seconds))}s", "-s", script.name, url]
        out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    finally:
        os.unlink(script.name)
    line = next(line for line in out.splitlines() if line.startswith("BENCH "))
    requests, micros, failed, p50, p99 = (float(x) for x in line.split()[1:])
    return {"requests": requests, "seconds": micros / 1e6, "failed": failed, "p50_ms": p50 / 1e3, "p99_ms": p99 / 1e3}


def _client(url: str, path: str, bodies_file: Path, until: float, start: int, out: multiprocessing.Queue) -> None:
    """One Python client process: one keep-alive connection, requests back to back until ``until``."""
    import http.client

    bodies = bodies_file.read_bytes().splitlines()
    address = urlparse(url)
    connection = http.client.HTTPConnection(address.hostname, address.port, timeout=60)
    headers = {"Content-Type": "application/json", "Host": address.netloc}
    latencies, failed, i = [], 0, start
    while time.time() < until:
        began = time.perf_counter()
        connection.request("POST", path, bodies[i % len(bodies)], headers)
        reply = connection.getresponse()
        reply.read()
        latencies.append(time.perf_counter() - began)
        failed += reply.status != 200
        i += 1
    out.put((latencies, failed))


def python_load(url: str, path: str, bodies_file: Path, seconds: float, connections: int) -> dict[str, float]:
    """The same pass from ``connections`` Python processes (when wrk is not installed)."""
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    until = time.time() + 1.0 + seconds  # the processes start within the first second
    workers = [context.Process(target=_client, args=(url, path, bodies_file, until, n * 997, out))
               for n in range(connections)]  # fmt: skip
    for worker in workers:
        worker.start()
    results = [out.get() for _ in workers]
    for worker in workers:
        worker.join()
    latencies = np.concatenate([np.asarray(r[0]) for r in results])
    p50, p99 = np.percentile(latencies, [50, 99]) * 1000
    return {"requests": float(len(latencies)), "seconds": seconds, "failed": float(sum(r[1] for r in results)),
            "p50_ms": float(p50), "p99_ms": float(p99)}  # fmt: skip


def in_process(bot: Bot, bot_name: str, bodies: list[bytes], seconds: float) -> dict[str, float]:
    """``handle_request`` on the bodies in this process for about ``seconds``: the protocol's own work."""
    from agents.protocol.handler import handle_request

    latencies, failed = [], 0
    until = time.perf_counter() + seconds
    i = 0
    while time.perf_counter() < until:
        began = time.perf_counter()
        failed += not handle_request(bot, bodies[i % len(bodies)], name=bot_name).ok
        latencies.append(time.perf_counter() - began)
        i += 1
    p50, p99 = np.percentile(latencies, [50, 99]) * 1000
    return {"requests": float(i), "seconds": float(sum(latencies)), "failed": float(failed),
            "p50_ms": float(p50), "p99_ms": float(p99)}  # fmt: skip


def health_during(url: str, body: bytes) -> dict[str, float]:
    """``/v1/health`` every 50 ms while the ``thinker`` bot answers ``body``: its latencies (ms) and the search's."""
    import threading

    import httpx

    thought: dict[str, float] = {}

    def think() -> None:
        with httpx.Client(base_url=url, timeout=120) as http:
            began = time.perf_counter()
            reply = http.post("/v1/bots/thinker/act", content=body, headers={"content-type": "application/json"})
            thought.update(seconds=time.perf_counter() - began, failed=float(reply.status_code != 200))

    thinker = threading.Thread(target=think)
    latencies = []
    with httpx.Client(base_url=url, timeout=60) as http:
        http.get("/v1/health")  # the connection is open before the search starts
        thinker.start()
        time.sleep(0.2)
        while thinker.is_alive():
            began = time.perf_counter()
            http.get("/v1/health")
            latencies.append(time.perf_counter() - began)
            time.sleep(0.05)
    thinker.join()
    ms = np.asarray(latencies) * 1000 if latencies else np.zeros(1)
    return {"think_s": thought["seconds"], "failed": thought["failed"], "health_n": float(len(latencies)),
            "health_p50_ms": float(np.median(ms)), "health_max_ms": float(ms.max())}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", default="heuristic,auto", help="served bot names, comma separated")
    parser.add_argument("--reference", default=None, metavar="PATH",
                        help="an older checkout to measure against (one worker); default: handle_request in-process")
    parser.add_argument("--workers", default="1", help="this code's worker counts, comma separated, e.g. 1,2")
    parser.add_argument("--rounds", type=int, default=3, help="passes over every server, in alternating order")
    parser.add_argument("--seconds", type=float, default=8.0, help="length of one timed pass")
    parser.add_argument("--warmup", type=float, default=2.0, help="untimed seconds of load before each pass")
    parser.add_argument("--connections", type=int, default=8, help="requests in flight at once")
    parser.add_argument("--views", type=int, default=2000, help="distinct request bodies")
    parser.add_argument("--client", choices=("auto", "wrk", "python"), default="auto",
                        help="load client: wrk when installed (auto), or Python processes")
    parser.add_argument("--min-ratio", type=float, default=1.0,
                        help="fail when this code's one-worker req/s is below this times the reference's")
    parser.add_argument("--max-p99-ms", type=float, default=20.0, help="fail when this code's one-worker p99 is above")
    parser.add_argument("--think", default="guided:time=2", metavar="SPEC",
                        help="a searching bot to answer once while /v1/health is timed ('' to skip)")
    parser.add_argument("--max-health-ms", type=float, default=50.0,
                        help="fail when this code's one-worker /v1/health took longer during the search")
    parser.add_argument("--json", default=None, help="also write every pass to this file")
    args = parser.parse_args(argv)  # fmt: skip
    bots = [b for b in args.bots.split(",") if b]
    counts = [int(n) for n in args.workers.split(",")]
    client = ("wrk" if shutil.which("wrk") else "python") if args.client == "auto" else args.client
    bodies = real_views(min(args.views, MAX_VIEWS))
    reference = Path(args.reference).resolve() if args.reference else None
    thinker = {"thinker": args.think} if args.think else {}

    passes: list[dict] = []
    with ExitStack() as stack, tempfile.TemporaryDirectory() as folder:
        bodies_file = Path(folder) / "bodies.jsonl"
        bodies_file.write_bytes(b"\n".join(bodies) + b"\n")
        servers: dict[str, str | None] = {}  # label -> URL (None: handle_request in this process)
        if reference is None:
            from agents.served import collect_bots

            served = collect_bots(PACKAGE_ROOT / "agents" / "pretrained")
            servers["in-process"] = None
        else:
            # its own default models (its agents/pretrained), however its release spells the option
            servers["reference"] = stack.enter_context(running_server(None, thinker, workers=None, root=reference))
        for n in counts:
            models = PACKAGE_ROOT / "agents" / "pretrained"
            servers[f"this, {n}w"] = stack.enter_context(running_server(models, thinker, timeout=180, workers=n))
        print(f"client {client}, {args.connections} connections, {args.seconds:g} s a pass, {len(bodies)} views; "
              f"reference: {reference or 'handle_request in this process'}", flush=True)  # fmt: skip

        def measure(label: str, bot: str) -> dict[str, float]:
            url = servers[label]
            if url is None:
                return in_process(served[bot].bot, bot, bodies, args.seconds)
            load = wrk_load if client == "wrk" else python_load
            load(url, f"/v1/bots/{bot}/act", bodies_file, args.warmup, args.connections)
            return load(url, f"/v1/bots/{bot}/act", bodies_file, args.seconds, args.connections)

        order = list(servers)
        for round_ in range(args.rounds):
            for bot in bots:
                for label in order if round_ % 2 == 0 else order[::-1]:
                    result = measure(label, bot)
                    rate = result["requests"] / result["seconds"]
                    passes.append({"round": round_, "bot": bot, "server": label, "req_per_s": rate, **result})
                    print(f"round {round_ + 1} {bot:<10} {label:<12} {rate:>8.0f} req/s  p50 {result['p50_ms']:6.2f} ms"
                          f"  p99 {result['p99_ms']:6.2f} ms  failed {result['failed']:.0f}", flush=True)  # fmt: skip
        searches = {}
        if args.think:
            body = next(b for b in bodies if (v := json.loads(b))["phase"] == "play" and len(v["legal_actions"]) > 1)
            for label, url in servers.items():
                if url is not None:
                    searches[label] = health_during(url, body)
                    print(f"{label:<12} {args.think}: {searches[label]['think_s']:.2f} s; /v1/health "
                          f"{searches[label]['health_n']:.0f} times, p50 {searches[label]['health_p50_ms']:.1f} ms, "
                          f"max {searches[label]['health_max_ms']:.1f} ms", flush=True)  # fmt: skip
    missed = report(passes, order, bots, args.min_ratio, args.max_p99_ms)
    one = next((label for label in searches if label.endswith(", 1w")), None)
    if one and (searches[one]["health_max_ms"] > args.max_health_ms or searches[one]["failed"]):
        missed.append(f"{one}: /v1/health {searches[one]['health_max_ms']:.1f} ms during {args.think}")
    print("targets: " + ("met" if not missed else "MISSED: " + "; ".join(missed)))
    if args.json:
        Path(args.json).write_text(json.dumps({"passes": passes, "searches": searches}, indent=2) + "\n")
    return 1 if missed else 0


def report(passes: list[dict], order: list[str], bots: list[str], min_ratio: float, max_p99: float) -> list[str]:
    """Print the ratios to the reference, round by round; the targets missed."""
    reference, one = order[0], next((label for label in order if label.endswith(", 1w")), order[-1])
    pairs = [(label, reference) for label in order[1:]] + [(label, one) for label in order[1:] if label != one]
    missed = []
    print("\nratios measured in the same round (median over rounds; each round's in brackets)")
    for bot in bots:
        rows = {label: [p for p in passes if p["bot"] == bot and p["server"] == label] for label in order}
        for label, base in pairs:
            rate = [p["req_per_s"] / r["req_per_s"] for p, r in zip(rows[label], rows[base], strict=True)]
            p99 = [p["p99_ms"] / r["p99_ms"] for p, r in zip(rows[label], rows[base], strict=True)]
            print(f"{bot:<10} {label:<12} / {base:<12} req/s x{statistics.median(rate):.2f} "
                  f"[{', '.join(f'{x:.2f}' for x in rate)}]  p99 x{statistics.median(p99):.2f} "
                  f"[{', '.join(f'{x:.2f}' for x in p99)}]")  # fmt: skip
            if label == one and base == reference and statistics.median(rate) < min_ratio:
                missed.append(f"{bot}: {label} req/s x{statistics.median(rate):.2f} < x{min_ratio:g}")
        worst = statistics.median(p["p99_ms"] for p in rows[one])
        if worst > max_p99:
            missed.append(f"{bot}: {one} p99 {worst:.1f} ms > {max_p99:g} ms (median over rounds)")
        missed += [f"{bot}: {p['server']} round {p['round'] + 1}: {p['failed']:.0f} failed" for p in passes
                   if p["bot"] == bot and p["failed"]]  # fmt: skip
    return missed


if __name__ == "__main__":
    raise SystemExit(main())
