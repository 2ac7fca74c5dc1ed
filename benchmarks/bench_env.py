"""Environment throughput on one core, against the raw engine and PettingZoo's texas_holdem_v4 in the same run.

    python benchmarks/bench_env.py [--rules dead_last] [--players 4] [--seconds 3] [--rounds 5]

Reports: raw engine decisions/s (random legal actions, no observation), AEC
steps/s of ``shithead_v0.env()`` (wrappers included), of ``raw_env`` and of
``raw_env`` in PettingZoo's own wrapper chain (TerminateIllegal, AssertOutOfBounds, OrderEnforcing) with random
masked actions and the observation built every step, the single-agent
view's learner steps/s, and, when RLCard and pygame are installed (PettingZoo's
``classic`` extra), ``pettingzoo.classic.texas_holdem_v4.env()`` in the same
AEC loop. Every AEC env is seeded on its first reset only (texas_holdem
rebuilds its RLCard env on every seeded reset, which would time that instead
of steps). Rates are per CPU second of this thread, and each figure is the
best of ``--rounds`` interleaved slices, so a busy shared machine skews the
ratios less. Not a test.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np

from shithead_env import Game, shithead_v0
from shithead_env.envs.single_agent import ShitheadEnv

Run = Callable[[float], int]


def rate(run: Run, seconds: float) -> float:
    """Steps per CPU second of ``run(deadline) -> steps``: time spent waiting for a shared core is not counted."""
    start, cpu = time.perf_counter(), time.thread_time()
    steps = run(start + seconds)
    return steps / (time.thread_time() - cpu)


def engine(rules: str, players: int) -> Run:
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


def aec(make_env: Callable[[], object]) -> Run:
    """Random masked play through ``agent_iter``/``last``/``step``, the loop of PettingZoo's docs."""

    def run(deadline: float) -> int:
        env = make_env()
        rng, steps = np.random.default_rng(0), 0
        env.reset(seed=0)
        while time.perf_counter() < deadline:
            for _ in env.agent_iter():
                observation, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                legal = np.flatnonzero(observation["action_mask"])
                env.step(int(legal[rng.integers(len(legal))]))
                steps += 1
            env.reset()
        return steps

    return run


def single_agent(rules: str, players: int) -> Run:
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


def pettingzoo_chain(rules: str, players: int) -> object:
    """raw_env in PettingZoo's own TerminateIllegal/AssertOutOfBounds/OrderEnforcing chain: what env() replaces."""
    from pettingzoo.utils import wrappers

    env = wrappers.TerminateIllegalWrapper(shithead_v0.raw_env(rules=rules, num_players=players), illegal_reward=-1)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(env))


def texas_holdem() -> Run | None:
    """PettingZoo's wrapped ``texas_holdem_v4.env()`` in the AEC loop, or None without RLCard/pygame."""
    try:
        from pettingzoo.classic import texas_holdem_v4
    except ImportError:
        return None
    return aec(texas_holdem_v4.env)


def best_rates(runs: dict[str, Run], seconds: float, rounds: int) -> dict[str, float]:
    """Best steps/s of each run over ``rounds`` interleaved slices of ``seconds / rounds``."""
    best = dict.fromkeys(runs, 0.0)
    for _ in range(rounds):
        for name, run in runs.items():
            best[name] = max(best[name], rate(run, seconds / rounds))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rules", default="dead_last")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=3.0, help="total time of each measurement")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved slices; each figure is the best slice")
    args = parser.parse_args()
    rules, players = args.rules, args.players
    runs: dict[str, Run] = {
        "engine decisions/s": engine(rules, players),
        "AEC env() steps/s": aec(lambda: shithead_v0.env(rules=rules, num_players=players)),
        "AEC raw_env steps/s": aec(lambda: shithead_v0.raw_env(rules=rules, num_players=players)),
        "raw_env, PettingZoo's chain": aec(lambda: pettingzoo_chain(rules, players)),
        "single-agent steps/s": single_agent(rules, players),
    }
    texas = texas_holdem()
    if texas is not None:
        runs["texas_holdem_v4 env() steps/s"] = texas
    print(f"rules {rules}, {players} players, {args.seconds:g} s per measurement in {args.rounds} rounds, one process")
    rates = best_rates(runs, args.seconds, args.rounds)
    base = rates["engine decisions/s"]
    print(f"{'engine decisions/s':30} {base:10,.0f}")
    for name in ("AEC env() steps/s", "AEC raw_env steps/s", "raw_env, PettingZoo's chain"):
        line = f"{name:30} {rates[name]:10,.0f}   ({rates[name] / base:.2f} x engine"
        if texas is not None:
            line += f", {rates[name] / rates['texas_holdem_v4 env() steps/s']:.2f} x texas_holdem_v4 env()"
        print(line + ")")
    name = "single-agent steps/s"
    print(f"{name:30} {rates[name]:10,.0f}   (learner steps; the env also plays the opponents)")
    if texas is None:
        print("(install pettingzoo[classic] (rlcard, pygame) to time texas_holdem_v4.env() in the same run)")
    else:
        name = "texas_holdem_v4 env() steps/s"
        print(f"{name:30} {rates[name]:10,.0f}   (PettingZoo's wrapped env, same loop)")


if __name__ == "__main__":
    main()
