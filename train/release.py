"""Ship a checkpoint: a slim MaskablePPO ``.zip`` (no optimizer state) and its evaluation table.

The Adam moments double a checkpoint's size and are only needed to keep
training; a released policy drops them (``MaskablePPO.load`` still reads it,
and training from it starts with fresh moments).

    python -m train.release runs/<run>/best/model.zip agents/pretrained/dead_last_4p \
        [--games 2000] [--opponents heuristic,greedy,random]
"""

from __future__ import annotations

import argparse
from pathlib import Path


def slim_copy(checkpoint: str | Path, out: str | Path) -> Path:
    """Write ``checkpoint`` to ``out`` without the optimizer state; returns ``out``."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(checkpoint, device="cpu")
    model.policy.optimizer.state.clear()
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    return out


def main(argv: list[str] | None = None) -> int:
    """Slim the checkpoint into DIR/policy.zip; DIR/final_eval.md and .json: its harness evaluation."""
    from train.evaluate import evaluate, write_final

    parser = argparse.ArgumentParser(prog="python -m train.release", description=main.__doc__)
    parser.add_argument("checkpoint")
    parser.add_argument("directory")
    parser.add_argument("--rules", default="dead_last")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--opponents", default="heuristic,greedy,random")
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--note", default="", help="a line about the run (config, steps, wall time)")
    args = parser.parse_args(argv)
    policy = slim_copy(args.checkpoint, Path(args.directory) / "policy.zip")
    results = evaluate(policy, args.rules, args.players, args.opponents.split(","), args.games, seed=args.seed,
                       progress=True)
    title = f"{policy.name}: {args.rules}, {args.players} players (the learner in one seat), seed {args.seed}"
    if args.note:
        title += f"\n\n{args.note}"
    write_final(Path(args.directory), policy, results, title, seed=args.seed, source=str(args.checkpoint))
    print((Path(args.directory) / "final_eval.md").read_text(encoding="utf-8"))
    print(f"{policy}: {policy.stat().st_size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
