"""Distillation arms on one expert-iteration run's data: how much of the teacher a network keeps.

Expert iteration (train/expert.py) fits the network to the teacher's visit
shares once per round. This script refits it on the data already on disk
(every round's labelled positions) with other recipes (network size, start
from the shipped network or from scratch, epochs) and evaluates each arm
against 3 ``heuristic`` with the harness. Only the distillation is redone, so
an arm costs minutes, not the hours of self-play behind its data.

    python benchmarks/distil_sweep.py runs/dead_last-expert_dead_last_4p-s0-<time> \\
        --arm "v2_e6: distil_epochs=6" --arm "big: init_from=null,net_arch=[512,512],distil_epochs=20"

Each arm's overrides are ``key=value`` of the run's config, separated by
commas outside brackets (the run's own ``target_power`` and
``value_temperature`` apply unless overridden). Prints one Markdown row per
arm: held-out cross-entropy (the teacher's entropy is its floor), agreement
with the teacher's most visited move, the value's explained variance, and the
score against heuristic with its 95% interval; where the data keep the roots'
action means, the value regret of the network's move on the held-out
positions after the fit and (in brackets) before it, which tracks play when
the labels' values are the network's own continuation (``train.expert.value_regret``).
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from train.config import load_config
from train.evaluate import evaluate_spec
from train.expert import build_model, distil, distil_targets, load_positions, rounds_done


def _overrides(text: str) -> list[str]:
    return [part.strip() for part in re.split(r",(?![^\[]*\])", text) if part.strip()]


def _regret(figures: dict[str, float]) -> str:
    if "value_regret" not in figures:
        return "n/a"
    return f"{figures['value_regret']:.4f} ({figures['start_value_regret']:.4f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", help="an expert-iteration run directory with self-play data on disk")
    parser.add_argument("--arm", action="append", required=True, help="NAME: key=value,key=value")
    parser.add_argument("--rounds", type=int, default=None, help="data of rounds 1..N (default: every round done)")
    parser.add_argument("--games", type=int, default=2000, help="evaluation games against 3 heuristic")
    parser.add_argument("--seed", type=int, default=1, help="evaluation deals (keep the release's 2026 apart)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", default="runs/distil_sweep", help="each arm's checkpoint is written here")
    args = parser.parse_args()

    run = Path(args.run)
    rounds = args.rounds or rounds_done(run)
    if not rounds:
        parser.error(f"{run} has no finished round: pass --rounds N to distil what its unfinished rounds have on disk")
    print(f"data: rounds 1..{rounds} of {run}")
    rows = []
    data = None
    for arm in args.arm:
        name, _, text = arm.partition(":")
        config = load_config(run / "config.yaml", [*_overrides(text), f"workers={args.workers}"])
        if data is None:
            data = load_positions(config, run, rounds, config.privileged_critic)
        start = time.time()
        model = build_model(config, Path(config.init_from) if config.init_from else None)
        arm_data = {**data, "shares": distil_targets(model, data, config)}  # as run_round does
        figures = distil(model, arm_data, config, rounds + 1)
        path = Path(args.out) / f"{name.strip()}.zip"
        path.parent.mkdir(parents=True, exist_ok=True)
        model.save(path)
        seconds = time.time() - start
        result = evaluate_spec(
            f"policy:{path}",
            config.rules,
            config.num_players,
            ["heuristic"],
            args.games,
            args.seed,
            workers=args.workers,
        )[0]
        row = (
            f"| {name.strip()} | {text.strip()} | {figures['positions']} | {figures['cross_entropy']} "
            f"({figures['teacher_entropy']}) | {figures['agreement']} | {_regret(figures)} | "
            f"{figures['value_explained']} | "
            f"{result.score.mean:+.3f} [{result.score.low:+.3f}, {result.score.high:+.3f}] | {seconds:.0f} |"
        )
        print(row, flush=True)
        rows.append(row)
    print(
        "\n| arm | overrides | positions | cross-entropy (floor) | agreement | value regret (start) | value R^2 | "
        "vs 3 heuristic | distil s |\n|---|---|---|---|---|---|---|---|---|"
    )
    print("\n".join(rows))


if __name__ == "__main__":
    main()
