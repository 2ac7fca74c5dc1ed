"""The batched vector envs against ``SyncVectorEnv`` of N single-agent envs, in the same run.

    python benchmarks/bench_vector_env.py [--rules dead_last] [--players 4] [--sizes 16 64]
        [--opponents random heuristic] [--steps 2000] [--rounds 5]

For each N and opponent kind it times three envs on the same random masked
actions (each row's action drawn from its mask): ``SyncVectorEnv`` of N
``ShitheadEnv`` (same-step autoreset), ``ShitheadVectorEnv`` (the same tables,
batched) and ``SelfPlayVectorEnv`` (every seat the policy, no scripted
opponents). A rate is the policy decisions the env hands out per CPU second of
this thread spent in ``step`` (the action sampling is not counted): learner
steps for the first two, every seat's decisions for self-play. Each round
times the three back to back over ``--steps`` decisions each and the ratios are
taken within the round; the figures printed are the medians over ``--rounds``,
so a busy shared machine skews the ratios less than the rates. Not a test.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np
from gymnasium.vector import AutoresetMode, SyncVectorEnv, VectorEnv

from shithead_env.envs.self_play import SelfPlayVectorEnv
from shithead_env.envs.single_agent import ShitheadEnv
from shithead_env.envs.vector import ShitheadVectorEnv

MakeEnv = Callable[[], VectorEnv]


def rate(env: VectorEnv, decisions: int, seed: int) -> float:
    """Decisions per CPU second spent in ``env.step``, over at least ``decisions`` rows of random masked actions."""
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    spent, done = 0.0, 0
    while done < decisions:
        masks = info["action_mask"]
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)  # uniform over each row's legal actions
        start = time.thread_time()
        _, _, _, _, info = env.step(actions)
        spent += time.thread_time() - start
        done += env.num_envs
    return done / spent


def envs(rules: str, players: int, n: int, opponents: str) -> dict[str, MakeEnv]:
    options = {"rules": rules, "num_players": players}

    def single() -> ShitheadEnv:
        return ShitheadEnv(opponents=opponents, **options)

    return {
        "sync": lambda: SyncVectorEnv([single] * n, autoreset_mode=AutoresetMode.SAME_STEP),
        "vector": lambda: ShitheadVectorEnv(n, opponents=opponents, **options),
        "self-play": lambda: SelfPlayVectorEnv(n, **options),
    }


def measure(makers: dict[str, MakeEnv], decisions: int, rounds: int) -> tuple[dict[str, float], dict[str, float]]:
    """Median rate of each env and median ratio of each to ``sync``, over interleaved rounds."""
    rates: dict[str, list[float]] = {name: [] for name in makers}
    for round_ in range(rounds):
        for name, make in makers.items():
            rates[name].append(rate(make(), decisions, seed=round_))
    ratios = {
        name: statistics.median(r / s for r, s in zip(values, rates["sync"], strict=True))
        for name, values in rates.items()
    }
    return {name: statistics.median(values) for name, values in rates.items()}, ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="dead_last")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 64])
    parser.add_argument("--opponents", nargs="+", default=["random", "heuristic"])
    parser.add_argument("--steps", type=int, default=2000, help="decisions timed per env and round")
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(f"{args.rules}, {args.players} players; decisions per CPU second in step(), medians of {args.rounds} rounds")
    for n in args.sizes:
        for opponents in args.opponents:
            rates, ratios = measure(envs(args.rules, args.players, n, opponents), args.steps, args.rounds)
            cells = "  ".join(f"{name} {rates[name]:8,.0f}/s ({ratios[name]:.2f}x)" for name in rates)
            print(f"N={n:<3} opponents={opponents:<9}  {cells}")


if __name__ == "__main__":
    main()
