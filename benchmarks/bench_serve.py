"""Load test of ``shithead serve``: requests per second and p50/p99 latency per bot, one worker, loopback only.

Starts the server in a child process (``agents.serve.running_server``), builds a
bounded set of real views (4-player ``dead_last`` games between heuristic bots,
the view of every seat asked to act), then for each bot sends ``--requests``
of them over loopback from ``--concurrency`` concurrent clients, after a warm-up.

    python benchmarks/bench_serve.py --bots heuristic,dead_last_4p --requests 3000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from agents.base import make_bot
from agents.serve import DEFAULT_MODELS_DIR, running_server
from shithead_env import Game, load_rules

MAX_REQUESTS = 50_000  # bounded, whatever the arguments say


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


async def load(url: str, bot: str, bodies: list[bytes], concurrency: int) -> tuple[float, np.ndarray, int]:
    """(wall seconds, latencies in seconds, failed requests) for one pass over ``bodies``."""
    import httpx

    latencies = np.zeros(len(bodies))
    failures = 0
    queue = iter(range(len(bodies)))
    limits = httpx.Limits(max_connections=concurrency, max_keepalive_connections=concurrency)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as client:

        async def worker() -> None:
            nonlocal failures
            for i in queue:
                start = time.perf_counter()
                reply = await client.post(f"/v1/bots/{bot}/act", content=bodies[i],
                                          headers={"content-type": "application/json"})  # fmt: skip
                latencies[i] = time.perf_counter() - start
                failures += reply.status_code != 200

        start = time.perf_counter()
        await asyncio.gather(*(worker() for _ in range(concurrency)))
        return time.perf_counter() - start, latencies, failures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bots", default="heuristic,dead_last_4p", help="served bot names, comma separated")
    parser.add_argument("--models", default=str(DEFAULT_MODELS_DIR), help="--bots directory of the server")
    parser.add_argument("--requests", type=int, default=3000, help="timed requests per bot")
    parser.add_argument("--warmup", type=int, default=200, help="untimed requests per bot first")
    parser.add_argument("--concurrency", type=int, default=2, help="requests in flight at once")
    parser.add_argument("--json", default=None, help="also write the results to this file")
    args = parser.parse_args(argv)
    count = min(args.requests, MAX_REQUESTS)
    bodies = real_views(count)
    results = []
    with running_server(args.models) as url:
        print(f"server {url} (1 worker); {count} requests per bot, {args.concurrency} in flight")
        print(f"{'bot':<16} {'req/s':>8} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8} {'failed':>7}")
        for bot in filter(None, args.bots.split(",")):
            asyncio.run(load(url, bot, bodies[: args.warmup], args.concurrency))
            wall, latencies, failures = asyncio.run(load(url, bot, bodies, args.concurrency))
            p50, p99 = np.percentile(latencies, [50, 99]) * 1000
            row = {"bot": bot, "requests": count, "concurrency": args.concurrency, "req_per_s": count / wall,
                   "p50_ms": p50, "p99_ms": p99, "max_ms": latencies.max() * 1000, "failed": failures}  # fmt: skip
            results.append(row)
            print(f"{bot:<16} {row['req_per_s']:>8.0f} {p50:>8.2f} {p99:>8.2f} {row['max_ms']:>8.2f} {failures:>7}")
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + "\n")
    return 1 if any(r["failed"] for r in results) else 0


if __name__ == "__main__":
    raise SystemExit(main())
