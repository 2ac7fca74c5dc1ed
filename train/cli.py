"""``shithead train``: train from a config file (MaskablePPO; Ray RLlib with ``backend: rllib``; expert iteration
with ``backend: expert``), or resume a run."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from train.trainer import RunResult


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from train.config import named_configs

    parser.add_argument("--config", help="a YAML file, or the name of one in configs/train/ "
                        f"({', '.join(named_configs())}); the run is written to runs/<rules>-<config>-s<seed>-<time>/")
    parser.add_argument("--override", action="append", default=[], metavar="KEY=VALUE",
                        help="set one config field (value read as YAML); repeatable")
    parser.add_argument("--resume", metavar="PATH", help="a run directory (its checkpoints/last.zip, or "
                        "checkpoints/last for an rllib run) or one checkpoint; the run's own config.yaml is used, "
                        "with --override on top")
    parser.add_argument("--address", default=None, help="rllib: the Ray cluster to join (e.g. auto, or "
                        "ray://head:10001) (default: RAY_ADDRESS if set, else a local Ray started for this run)")


def run(args: argparse.Namespace) -> int:
    from train.config import load_config
    from train.trainer import run_backend

    if args.resume:
        if args.config:
            raise ValueError("--resume uses the run's own config.yaml; give --override instead of --config")
        config = None
        backend = run_backend(args.resume)
    else:
        if not args.config:
            raise ValueError("give --config NAME_OR_YAML (a new run) or --resume RUN_DIR")
        config = load_config(args.config, args.override)
        backend = config.backend
    if backend == "rllib":
        from train.rllib.trainer import train

        result = train(config, resume=args.resume, overrides=args.override, address=args.address)
    else:
        if args.address:
            raise ValueError(f"--address {args.address}: only the rllib backend runs on Ray")
        if backend == "expert":
            from train.expert import train
        else:
            from train.trainer import train

        result = train(config, resume=args.resume, overrides=args.override)
    report(result)
    return 0


def report(result: RunResult) -> None:
    """The run's closing lines; none for a run stopped before it had a network (the trainer said how to go on)."""
    from shithead_env.commands import runnable

    if result.best is None and not result.timesteps:
        return
    print(f"trained {result.timesteps} steps in {result.seconds:.0f} s; best checkpoint {result.best}")
    if not result.final:
        print(f"evaluate it: {runnable(f'shithead evaluate {result.run_dir}')}")
    for r in result.final:
        low = "n/a" if r.score.low is None else f"{r.score.low:+.3f}"
        high = "n/a" if r.score.high is None else f"{r.score.high:+.3f}"
        print(f"  vs {r.opponent}: mean score {r.score.mean:+.3f} [{low}, {high}] over {r.games} games")
