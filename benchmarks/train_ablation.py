"""Paired ablation of the training pipeline: each arm trains from the same seed, then plays the same deals.

    python benchmarks/train_ablation.py --steps 1000000 --games 2000 --out docs/ablation
    python benchmarks/train_ablation.py --arms v1_cap5000 v2_cap600_priv --steps 300000 --games 400

Each arm is ``configs/train/<base>.yaml`` with a few overrides (``ARMS``):
the encoding version, the episode cap, the privileged critic and the factored play head. It is
trained with ``shithead train``'s own code (in-training evaluations off), then
its last checkpoint plays ``--games`` duplicate games against three copies of
each opponent on one evaluation seed, so every arm meets the same deals. The
table gives the harness score with its 95% interval, the learner steps spent
in truncated episodes and the critic's explained variance (SB3's
``train/explained_variance``, mean over the last quarter of the updates).
Results go to ``<out>/ablation.md`` and ``.json``, one row added per arm as
it finishes, so an interrupted run keeps what it measured.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any


def _arm(encoding: int, cap: int, privileged: bool = False, factored: bool = False) -> dict[str, Any]:
    return {"encoding": encoding, "max_decisions": cap, "privileged_critic": privileged, "factored_actions": factored}


ARMS: dict[str, dict[str, Any]] = {
    "v1_cap5000": _arm(1, 0),
    "v1_cap600": _arm(1, 600),
    "v2_cap600": _arm(2, 600),
    "v2_cap600_priv": _arm(2, 600, privileged=True),
    "v2_cap600_priv_fact": _arm(2, 600, privileged=True, factored=True),
}


def explained_variance(tb_dir: Path) -> float | None:
    """Mean of SB3's ``train/explained_variance`` over the last quarter of a run's updates."""
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    values: list[float] = []
    for events in sorted(tb_dir.rglob("events.out.tfevents.*")):
        acc = EventAccumulator(str(events), size_guidance={"scalars": 0})
        acc.Reload()
        if "train/explained_variance" in acc.Tags()["scalars"]:
            values += [e.value for e in acc.Scalars("train/explained_variance")]
    if not values:
        return None
    tail = values[-max(1, len(values) // 4):]
    return sum(tail) / len(tail)


def run_arm(name: str, args: argparse.Namespace) -> dict[str, Any]:
    from train.config import load_config
    from train.evaluate import evaluate
    from train.trainer import train

    overrides = {**ARMS[name], "seed": args.seed, "total_timesteps": args.steps, "eval_every": 0,
                 "final_eval_games": 0, "name": f"ablation-{name}", "runs_dir": str(args.runs),
                 "checkpoint_every": args.steps, "progress_bar": not args.no_progress}
    config = load_config(args.base, [f"{k}={json.dumps(v)}" for k, v in overrides.items()])
    start = time.perf_counter()
    result = train(config)
    train_seconds = time.perf_counter() - start
    summary = json.loads((result.run_dir / "train.json").read_text(encoding="utf-8"))
    checkpoint = result.run_dir / "checkpoints" / "last.zip"
    row: dict[str, Any] = {"arm": name, **ARMS[name], "steps": result.timesteps,
                           "train_seconds": round(train_seconds, 1), "run": str(result.run_dir),
                           "truncated_step_share": summary.get("truncated_step_share"),
                           "explained_variance": explained_variance(result.run_dir / "tb")}
    for opponent in args.opponents:
        (r,) = evaluate(checkpoint, config.rules, config.num_players, [opponent], args.games, seed=args.eval_seed,
                        workers=args.workers, progress=not args.no_progress)
        row[opponent] = {"mean": r.score.mean, "low": r.score.low, "high": r.score.high, "games": r.games,
                         "truncated": r.summary.truncated}
    return row


def markdown(rows: list[dict[str, Any]], opponents: list[str], title: str) -> str:
    head = "| arm | encoding | cap | privileged critic | factored head | steps | train s | truncated step share | "
    head += "critic EV | "
    head += " | ".join(f"vs {o}" for o in opponents) + " |"
    lines = [f"# {title}", "", head, "|" + "---|" * (9 + len(opponents))]
    for r in rows:
        ev = "" if r["explained_variance"] is None else f"{r['explained_variance']:.3f}"
        cells = [r["arm"], str(r["encoding"]), str(r["max_decisions"] or "rules (5000)"),
                 "yes" if r["privileged_critic"] else "no", "yes" if r.get("factored_actions") else "no",
                 f"{r['steps']:,}", f"{r['train_seconds']:.0f}",
                 f"{r['truncated_step_share']:.3f}", ev]
        for o in opponents:
            s = r[o]
            cells.append(f"{s['mean']:+.3f} [{s['low']:+.3f}, {s['high']:+.3f}]")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/train_ablation.py", description=__doc__.split("\n")[0])
    parser.add_argument("--arms", nargs="+", default=list(ARMS), choices=list(ARMS))
    parser.add_argument("--base", default="vs_heuristic", help="training config the arms override")
    parser.add_argument("--steps", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--games", type=int, default=2000, help="evaluation games per opponent")
    parser.add_argument("--eval-seed", type=int, default=2027)
    parser.add_argument("--opponents", nargs="+", default=["heuristic"])
    parser.add_argument("--workers", type=int, default=2, help="evaluation processes")
    parser.add_argument("--runs", type=Path, default=Path("runs"))
    parser.add_argument("--out", type=Path, default=Path("out/ablation"))
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / "ablation.json"
    rows = json.loads(path.read_text(encoding="utf-8")) if path.exists() else []
    for name in args.arms:
        rows = [r for r in rows if r["arm"] != name] + [run_arm(name, args)]
        path.write_text(json.dumps(rows, indent=1), encoding="utf-8")
        title = f"Training ablation: {args.base}, seed {args.seed}, evaluation seed {args.eval_seed}"
        (args.out / "ablation.md").write_text(markdown(rows, args.opponents, title), encoding="utf-8")
        print(markdown(rows, args.opponents, title), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
