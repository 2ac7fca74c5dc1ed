"""Are a run's labels right where they disagree with a network? Re-value those positions with fresh rollouts.

An expert-iteration run (train/expert.py) keeps each labelled position's move values (the teacher's root
means). Where the labels' best move beats the network's most likely move by more than ``--threshold``, a fit
would "correct" the network; but the best of several noisy means is biased up, so a correction may be noise.
This script replays the first ``--chunks`` chunks of round ``--round``, and at every such position asks the
run's own teacher for fresh values (an independent random stream), then reports the two moves' gap as the
labels gave it and as the fresh values give it. A sample of the other positions where the two moves differ
(gap at most the threshold) is checked the same way as a control.

    python benchmarks/label_check.py runs/dead_last-expert_dead_last_4p-s21-<time> \\
        --policy agents/pretrained/dead_last_4p_expert/policy.zip --threshold 0.2 --chunks 20 --workers 2

A fresh gap near the labels' says the corrections are real (the network could gain by them); near 0, that
they are the max's bias. Teachers whose values assume their own continuation (``lookahead:rollout=...``) are
the ones this reads straightforwardly.
"""

from __future__ import annotations

import argparse
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from train.config import load_config
from train.expert import round_dir, searched_positions

CONTROL_EVERY = 40  # one in this many of the other positions where the moves differ goes to the control sample


def check_chunks(paths: list[Path], run: Path, policy: str, threshold: float) -> list[tuple[bool, float, float]]:
    """(is a correction, the labels' gap, the fresh gap) for each checked position of ``paths``."""
    import torch

    from agents.base import make_bot
    from shithead_env import Knowledge, legal_mask
    from train.policy_bot import PolicyActor, load_policy

    torch.set_num_threads(1)
    config = load_config(run / "config.yaml")
    actor, teacher = PolicyActor(load_policy(policy)), make_bot(config.teacher)
    rows: list[tuple[bool, float, float]] = []
    rng = np.random.default_rng(0)  # unused by a deterministic actor's choice
    differing = 0
    for path in paths:
        chunk = dict(np.load(path))
        means = chunk["means"].astype(np.float64)
        for game, number, row in searched_positions(chunk, config.rules, config.num_players, config.game_cap):
            knowledge = Knowledge.from_game(game, game.current)  # read before the walk steps the game on
            mask = legal_mask(knowledge)
            chosen = actor.decide(knowledge, rng).index  # its most likely move
            valued = np.where(mask & np.isfinite(means[row]), means[row], -np.inf)
            best = int(np.argmax(valued))
            if best == chosen or not np.isfinite(valued[chosen]):
                continue
            gap = float(valued[best] - valued[chosen])
            differing += 1
            if gap <= threshold and differing % CONTROL_EVERY:
                continue
            fresh_rng = np.random.default_rng([int(chunk["seeds"][number]), row, 777])  # not the labels' stream
            fresh = {a.index: mean for a, (_, mean) in teacher.search(knowledge, fresh_rng).items()}
            rows.append((gap > threshold, gap, fresh[best] - fresh[chosen]))
    return rows


def summary(name: str, rows: np.ndarray) -> str:
    if not len(rows):
        return f"| {name} | 0 | | | |"
    fresh = rows[:, 2]
    half = 1.96 * fresh.std(ddof=1) / np.sqrt(len(fresh)) if len(fresh) > 1 else float("nan")
    return (f"| {name} | {len(rows)} | {rows[:, 1].mean():+.3f} | {fresh.mean():+.3f} [{fresh.mean() - half:+.3f}, "
            f"{fresh.mean() + half:+.3f}] | {(fresh > 0).mean():.2f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("run", type=Path, help="an expert-iteration run whose labels keep the roots' move values")
    parser.add_argument("--policy", required=True, help="the network's checkpoint (a MaskablePPO .zip)")
    parser.add_argument("--threshold", type=float, default=0.2, help="a correction: best beats the network by more")
    parser.add_argument("--round", type=int, default=1)
    parser.add_argument("--chunks", type=int, default=20, help="the round's first N chunks")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args()

    paths = sorted((round_dir(args.run, args.round) / "data").glob("chunk_*[0-9].npz"))[: args.chunks]
    if not paths:
        parser.error(f"{args.run}: round {args.round} has no self-play data")
    with ProcessPoolExecutor(args.workers) as pool:
        parts = pool.map(check_chunks, [paths[i:: args.workers] for i in range(args.workers)],
                         [args.run] * args.workers, [args.policy] * args.workers, [args.threshold] * args.workers)
        rows = np.array([row for part in parts for row in part], np.float64).reshape(-1, 3)
    print("| positions | n | the labels' gap | fresh gap [95%] | fresh gap > 0 |")
    print("|---|---|---|---|---|")
    print(summary(f"corrections (gap > {args.threshold})", rows[rows[:, 0] == 1]))
    print(summary(f"control (1 in {CONTROL_EVERY} of the other differing moves)", rows[rows[:, 0] == 0]))


if __name__ == "__main__":
    main()
