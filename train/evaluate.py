"""Evaluation of a checkpoint with the tournament harness (duplicate deals, 95% intervals), and its records.

One table per baseline: the learner in one seat, the baseline in every other
seat; the harness rotates the seats over each deal. The learner's mean
score (``placement``: +1 first safe .. -1 the shithead, zero-sum) with its
interval over per-deal means is the figure of merit.
"""

from __future__ import annotations

import csv
import json
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.tournament import Interval, Summary, TournamentConfig, format_summary, run_tournament
from train.policy_bot import BOT_KIND

RLLIB_BOT_KIND = "rllib"  # train.rllib.policy.RLlibPolicyBot: an RLlib checkpoint is a directory
BEST_FILE = "eval.json"

CSV_FIELDS = ("step", "seconds", "opponent", "games", "score", "score_low", "score_high", "loss_rate", "win_rate")


@dataclass
class EvalResult:
    """The learner's figures against one baseline."""

    opponent: str
    games: int
    score: Interval
    loss_rate: Interval
    win_rate: Interval
    summary: Summary

    @property
    def above_zero(self) -> bool:
        """Whether the whole 95% interval of the mean score is above zero."""
        return self.score.low is not None and self.score.low > 0


def learner_spec(checkpoint: str | Path, deterministic: bool = True) -> str:
    """The harness's bot spec of a checkpoint: ``policy:`` for an SB3 ``.zip``, ``rllib:`` for a directory."""
    kind = RLLIB_BOT_KIND if Path(checkpoint).is_dir() else BOT_KIND
    return f"{kind}:{checkpoint}" + ("" if deterministic else ",deterministic=false")


def evaluate(
    checkpoint: str | Path,
    rules: str,
    num_players: int,
    opponents: list[str],
    games: int,
    seed: int = 0,
    scheme: str = "placement",
    deterministic: bool = True,
    workers: int = 1,
    progress: bool = False,
) -> list[EvalResult]:
    """The learner against each baseline, ``games`` duplicate games each (rounded up to whole deals)."""
    me = learner_spec(checkpoint, deterministic)
    results = []
    for opponent in opponents:
        config = TournamentConfig(rules, (me,) + (opponent,) * (num_players - 1), games, seed, scheme)
        summary, _ = run_tournament(config, workers=workers, progress=progress)
        stats = next(b for b in summary.bots if b.spec == me)
        results.append(EvalResult(opponent, summary.games, stats.score, stats.loss_rate, stats.win_rate, summary))
    return results


def append_csv(path: Path, step: int, seconds: float, results: list[EvalResult]) -> None:
    """One row per baseline in the run's ``eval.csv`` (header written once)."""
    new = not path.exists()
    with path.open("a", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        if new:
            writer.writerow(CSV_FIELDS)
        for r in results:
            writer.writerow([
                step, f"{seconds:.1f}", r.opponent, r.games, f"{r.score.mean:.4f}",
                "" if r.score.low is None else f"{r.score.low:.4f}",
                "" if r.score.high is None else f"{r.score.high:.4f}",
                f"{r.loss_rate.mean:.4f}", f"{r.win_rate.mean:.4f}",
            ])


def selection_score(results: list[EvalResult], best_by: str) -> float:
    """The score that picks the best checkpoint: against ``best_by``, or the mean over the baselines."""
    by = {r.opponent: r.score.mean for r in results}
    return by[best_by] if best_by else sum(by.values()) / len(by)


def previous_best(best_dir: Path) -> float:
    """The selection score of the best checkpoint kept so far (``-inf`` when there is none)."""
    record = best_dir / BEST_FILE
    if record.is_file():
        return float(json.loads(record.read_text(encoding="utf-8"))["score"])
    return float("-inf")


def save_best(best_dir: Path, checkpoint: Path, step: int, score: float, results: list[EvalResult]) -> Path:
    """Copy ``checkpoint`` to ``best/model.zip`` (a ``.zip``) or ``best/checkpoint`` (an RLlib directory)
    and write ``best/eval.json``; returns the copy."""
    best_dir.mkdir(parents=True, exist_ok=True)
    if checkpoint.is_dir():
        copy = best_dir / "checkpoint"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(checkpoint, copy)
    else:
        copy = best_dir / "model.zip"
        shutil.copyfile(checkpoint, copy)
    record = {"step": step, "score": score, "checkpoint": checkpoint.name,
              "scores": {r.opponent: [r.score.mean, r.score.low, r.score.high] for r in results}}
    (best_dir / BEST_FILE).write_text(json.dumps(record, indent=1), encoding="utf-8")
    return copy


def results_markdown(results: list[EvalResult], title: str) -> str:
    """A short Markdown report: one line per baseline, then the harness's full tables."""
    lines = [f"# {title}", "", "| opponent | games | learner mean score [95% interval] | loss rate | win rate |",
             "|---|---|---|---|---|"]
    for r in results:
        low = "n/a" if r.score.low is None else f"{r.score.low:+.3f}"
        high = "n/a" if r.score.high is None else f"{r.score.high:+.3f}"
        lines.append(f"| {r.opponent} | {r.games} | {r.score.mean:+.3f} [{low}, {high}] | "
                     f"{r.loss_rate.mean:.3f} | {r.win_rate.mean:.3f} |")
    for r in results:
        lines += ["", f"## vs {r.opponent}", "", format_summary(r.summary)]
    return "\n".join(lines) + "\n"



def write_final(directory: Path, checkpoint: Path, results: list[EvalResult], title: str, **extra: Any) -> None:
    """``final_eval.md`` (tables) and ``final_eval.json`` (figures) in ``directory``; the checkpoint is named
    relative to it (``train.export`` matches that name when it builds a bot card)."""
    (directory / "final_eval.md").write_text(results_markdown(results, title), encoding="utf-8")
    record = {
        "checkpoint": str(checkpoint.resolve().relative_to(directory.resolve())),
        **extra,
        "results": [{"opponent": r.opponent, "games": r.games, "score": r.score.mean, "score_low": r.score.low,
                     "score_high": r.score.high, "loss_rate": r.loss_rate.mean, "win_rate": r.win_rate.mean}
                    for r in results],
    }
    (directory / "final_eval.json").write_text(json.dumps(record, indent=1), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """``python -m train.evaluate CHECKPOINT|RUN_DIR``: play it against each baseline, print a Markdown table.

    Given a run directory, its best checkpoint (else the last; ``train.export.resolve_checkpoint``)
    is evaluated and ``final_eval.md`` / ``final_eval.json`` are written into it.
    """
    import argparse

    parser = argparse.ArgumentParser(prog="python -m train.evaluate", description=main.__doc__)
    parser.add_argument("target", help="a MaskablePPO .zip, an RLlib checkpoint directory, or a run directory")
    parser.add_argument("--rules", help="preset (default: the run's, else dead_last)")
    parser.add_argument("--players", type=int, help="table size (default: the run's, else 4)")
    parser.add_argument("--opponents", default="random,greedy,heuristic", help="comma-separated bot specs")
    parser.add_argument("--games", type=int, default=2000, help="games per opponent (whole deals)")
    parser.add_argument("--seed", type=int, default=12345)
    parser.add_argument("--sample", action="store_true", help="sample the learner's actions (default: most likely)")
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    target = Path(args.target)
    rules, players, run_dir = args.rules or "dead_last", args.players or 4, None
    checkpoint = target
    if target.is_dir() and (target / "config.yaml").is_file():
        from train.config import load_config
        from train.export import resolve_checkpoint

        run_dir = target
        config = load_config(run_dir / "config.yaml")
        rules, players = args.rules or config.rules, args.players or config.num_players
        checkpoint = resolve_checkpoint(run_dir)
    results = evaluate(checkpoint, rules, players, args.opponents.split(","), args.games,
                       seed=args.seed, deterministic=not args.sample, workers=args.workers, progress=True)
    title = f"{checkpoint}: {rules}, {players} players (the learner in one seat), seed {args.seed}"
    if run_dir is not None:
        write_final(run_dir, checkpoint, results, title, seed=args.seed)
    print(results_markdown(results, title))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
