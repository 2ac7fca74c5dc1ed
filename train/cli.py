"""``shithead train``: train MaskablePPO from a config file, or resume a run."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--config", help="a YAML file, or the name of one in configs/train/ (quick, vs_heuristic, "
                        "selfplay)")
    parser.add_argument("--override", action="append", default=[], metavar="KEY=VALUE",
                        help="set one config field (value read as YAML); repeatable")
    parser.add_argument("--resume", metavar="PATH", help="a run directory (its checkpoints/last.zip) or a checkpoint "
                        ".zip; the run's own config.yaml is used, with --override on top")


def run(args: argparse.Namespace) -> int:
    from train.config import load_config

    if args.resume:
        if args.config:
            raise ValueError("--resume uses the run's own config.yaml; give --override instead of --config")
        config = None
    else:
        if not args.config:
            raise ValueError("give --config (or --resume)")
        config = load_config(args.config, args.override)
    from train.trainer import train

    result = train(config, resume=args.resume, overrides=args.override)
    print(f"run directory: {result.run_dir}")
    print(f"trained {result.timesteps} steps in {result.seconds:.0f} s; best checkpoint {result.best}")
    if not result.final:
        print(f"evaluate it: python -m train.evaluate {result.run_dir}")
    for r in result.final:
        low = "n/a" if r.score.low is None else f"{r.score.low:+.3f}"
        high = "n/a" if r.score.high is None else f"{r.score.high:+.3f}"
        print(f"  vs {r.opponent}: mean score {r.score.mean:+.3f} [{low}, {high}] over {r.games} games")
    return 0
