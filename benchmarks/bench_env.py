"""Environment throughput on one core, against the raw engine measured in the same run.

    python benchmarks/bench_env.py [--rules dead_last] [--players 4] [--seconds 3]

Reports: raw engine decisions/s (random legal actions, no observation), AEC
steps/s of ``shithead_v0.env()`` (wrappers included) and of ``raw_env`` with
random masked actions and the observation built every step, their ratio to
the engine, and the single-agent view's learner steps/s. Not a test.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from shithead_env import Game, shithead_v0
from shithead_env.envs.single_agent import ShitheadEnv


def rate(run: Callable[[float], int], seconds: float) -> float:
    """Steps per second of ``run(deadline) -> steps``."""
    start = time.perf_counter()
    steps = run(start + seconds)
    return steps / (time.perf_counter() - start)


def engine(rules: str, players: int) -> Callable[[float], int]:
    def run(deadline: float) -> int:
        rng, steps, seed = np.random.default_rng(0), 0, 0
        while time.perf_counter() < deadline:
            game = Game.new(rules, players, seed=seed)
            seed += 1
            while not game.is_over:
                legal = game.legal_actions()
                game.step(legal[int(rng.integers(len(legal)))])
                steps += 1
        return steps

    return run


def aec(rules: str, players: int, wrapped: bool) -> Callable[[float], int]:
    def run(deadline: float) -> int:
        env = (shithead_v0.env if wrapped else shithead_v0.raw_env)(rules=rules, num_players=players)
        rng, steps, seed = np.random.default_rng(0), 0, 0
        while time.perf_counter() < deadline:
            env.reset(seed=seed)
            seed += 1
            for _ in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
                steps += 1
        return steps

    return run


def single_agent(rules: str, players: int) -> Callable[[float], int]:
    def run(deadline: float) -> int:
        env = ShitheadEnv(rules=rules, num_players=players)
        rng, steps = np.random.default_rng(0), 0
        _, info = env.reset(seed=0)
        while time.perf_counter() < deadline:
            legal = np.flatnonzero(info["action_mask"])
            _, _, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
            steps += 1
            if terminated or truncated:
                _, info = env.reset()
        return steps

    return run


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="dead_last")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    print(f"rules {args.rules}, {args.players} players, {args.seconds:g} s per measurement, one process")
    base = rate(engine(args.rules, args.players), args.seconds)
    print(f"engine decisions/s          {base:10,.0f}")
    for name, wrapped in (("AEC env() steps/s", True), ("AEC raw_env steps/s", False)):
        steps = rate(aec(args.rules, args.players, wrapped), args.seconds)
        print(f"{name:27} {steps:10,.0f}   ({steps / base:.2f} x engine)")
    learner = rate(single_agent(args.rules, args.players), args.seconds)
    print(f"single-agent steps/s        {learner:10,.0f}   (learner steps; the env also plays the opponents)")


if __name__ == "__main__":
    main()
