"""Learner steps per second: the RLlib backend with 1 and 2 env runners against the SB3 pipeline, in one run.

Each measurement trains from scratch and times ``steps`` learner steps
(decisions of the learning policy) after one warm-up iteration; building the
algorithm and starting Ray are not timed. RLlib runs ``--rllib-config``
(every learner step is a decision of the shared policy), SB3 runs
``--sb3-config`` (``benchmarks/bench_train.py``: one learner seat, the other
seats played by bots in the environments). For RLlib the wall time is split
into sampling (``env_runner_sampling_timer``) and the PPO update
(``learner_update_timer``) as RLlib reports them.

    python benchmarks/bench_rllib.py [--steps 32768] [--runners 1 2] [--override key=value ...]
"""

from __future__ import annotations

import argparse
import time
from typing import Any


def measure_rllib(config_name: str, env_runners: int, steps: int, overrides: list[str]) -> dict[str, float]:
    """Train ``steps`` learner steps with ``env_runners`` runners on the running Ray; timings and throughput."""
    import torch
    from ray.rllib.utils.metrics import ENV_RUNNER_SAMPLING_TIMER, LEARNER_UPDATE_TIMER, TIMERS

    from train.config import load_config
    from train.rllib.algo import ppo_config
    from train.rllib.trainer import sampled_steps

    config = load_config(config_name, [*overrides, f"env_runners={env_runners}", "eval_every=0"])
    torch.set_num_threads(config.torch_threads)
    algo = ppo_config(config).build_algo()
    try:
        algo.train()  # warm-up: the first iteration pays for imports and lazy set-up in every process
        done, sample, update = 0, 0.0, 0.0
        start = time.perf_counter()
        while done < steps:
            result = algo.train()
            done += sampled_steps(result)
            sample += float(result[TIMERS][ENV_RUNNER_SAMPLING_TIMER])
            update += float(result[TIMERS][LEARNER_UPDATE_TIMER])
        seconds = time.perf_counter() - start
    finally:
        algo.stop()
    return {"steps": float(done), "seconds": seconds, "steps_per_second": done / seconds,
            "sampling": sample, "update": update}


def main(argv: list[str] | None = None) -> None:
    """Print one Markdown table row per measurement."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rllib-config", default="rllib_quick")
    parser.add_argument("--sb3-config", default="quick")
    parser.add_argument("--steps", type=int, default=32768)
    parser.add_argument("--runners", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--override", action="append", default=[], metavar="KEY=VALUE",
                        help="applied to both configs")
    args = parser.parse_args(argv)
    from bench_train import measure

    from train.rllib.trainer import ray_session

    rows: list[tuple[str, dict[str, Any]]] = []
    sb3 = measure(args.sb3_config, args.steps, args.override)
    rows.append((f"SB3 `{args.sb3_config}`, learner + {int(sb3['workers'])} worker(s)", sb3))
    with ray_session(None, max(args.runners)):
        for runners in args.runners:
            r = measure_rllib(args.rllib_config, runners, args.steps, args.override)
            rows.append((f"RLlib `{args.rllib_config}`, {runners} env runner(s)", r))
    print("| pipeline | learner steps | seconds | learner steps/s | split |")
    print("|---|---|---|---|---|")
    for name, r in rows:
        if "sampling" in r:
            split = f"sampling {r['sampling']:.1f} s, update {r['update']:.1f} s"
        else:
            split = (f"environment {r['environment']:.1f} s, inference {r['inference']:.1f} s, "
                     f"update {r['update']:.1f} s")
        print(f"| {name} | {int(r['steps'])} | {r['seconds']:.1f} | {r['steps_per_second']:,.0f} | {split} |")


if __name__ == "__main__":
    main()
