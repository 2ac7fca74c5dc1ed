"""Evaluation of a checkpoint with the tournament harness (duplicate deals, 95% intervals), and its records.

One tournament per table and baseline: the learner in one seat, the baseline
in every other seat; the harness rotates the seats over each deal. The learner's mean
score (``placement``: +1 first safe .. -1 the shithead, zero-sum) with its
interval over per-deal means is the figure of merit.
"""

from __future__ import annotations

import argparse
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

CSV_FIELDS = ("step", "seconds", "opponent", "games", "score", "score_low", "score_high", "loss_rate", "win_rate",
              "rules", "players")


@dataclass
class EvalResult:
    """The learner's figures against one baseline at one table."""

    opponent: str
    games: int
    score: Interval
    loss_rate: Interval
    win_rate: Interval
    summary: Summary
    rules: str = ""
    players: int = 0

    @property
    def table(self) -> str:
        """``rules/players``, the table's short name."""
        return f"{self.rules}/{self.players}"

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
    max_decisions: int | None = None,
) -> list[EvalResult]:
    """The checkpoint against each baseline, ``games`` duplicate games each (rounded up to whole deals)."""
    me = learner_spec(checkpoint, deterministic)
    return evaluate_spec(me, rules, num_players, opponents, games, seed, scheme, workers, progress, max_decisions)


def evaluate_spec(
    me: str,
    rules: str,
    num_players: int,
    opponents: list[str],
    games: int,
    seed: int = 0,
    scheme: str = "placement",
    workers: int = 1,
    progress: bool = False,
    max_decisions: int | None = None,
) -> list[EvalResult]:
    """The bot ``me`` (any spec: a checkpoint's, an exported ``model:<dir>``) against each baseline.

    ``max_decisions`` caps each game (None: the rules' cap); a capped game splits the places left.
    """
    results = []
    for opponent in opponents:
        config = TournamentConfig(rules, (me,) + (opponent,) * (num_players - 1), games, seed, scheme, max_decisions)
        summary, _ = run_tournament(config, workers=workers, progress=progress)
        stats = next(b for b in summary.bots if b.spec == me)
        results.append(EvalResult(opponent, summary.games, stats.score, stats.loss_rate, stats.win_rate, summary,
                                  rules, num_players))
    return results


def evaluate_tables(
    me: str, tables: list[tuple[str, int]], opponents: list[str], games: int, **options: Any
) -> list[EvalResult]:
    """``evaluate_spec`` of the bot ``me`` at every (rules, players) table in turn; ``options`` as for it."""
    return [r for rules, players in tables for r in evaluate_spec(me, rules, players, opponents, games, **options)]


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
                f"{r.loss_rate.mean:.4f}", f"{r.win_rate.mean:.4f}", r.rules, r.players,
            ])


def selection_score(results: list[EvalResult], best_by: str = "") -> float:
    """The score that picks the best checkpoint: against ``best_by`` ('' = every baseline), averaged over the
    tables."""
    scores = [r.score.mean for r in results if not best_by or r.opponent == best_by]
    return sum(scores) / len(scores)


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
              "scores": {r.opponent if len({r.table for r in results}) == 1 else f"{r.opponent}@{r.table}":
                         [r.score.mean, r.score.low, r.score.high] for r in results}}
    (best_dir / BEST_FILE).write_text(json.dumps(record, indent=1), encoding="utf-8")
    return copy


def results_markdown(results: list[EvalResult], title: str) -> str:
    """A short Markdown report: one line per table and baseline, then the harness's full tables."""
    lines = [f"# {title}", "", results_table(results)]
    for r in results:
        lines += ["", f"## {r.table} vs {r.opponent}", "", format_summary(r.summary)]
    return "\n".join(lines) + "\n"


def results_table(results: list[EvalResult]) -> str:
    """The Markdown table of the learner's figures, one row per table and baseline (README and bot cards)."""
    lines = ["| rules | players | opponent | games | learner mean score [95% interval] | above 0 | loss rate | "
             "win rate |", "|---|---|---|---|---|---|---|---|"]
    for r in results:
        low = "n/a" if r.score.low is None else f"{r.score.low:+.3f}"
        high = "n/a" if r.score.high is None else f"{r.score.high:+.3f}"
        lines.append(f"| {r.rules} | {r.players} | {r.opponent} | {r.games} | {r.score.mean:+.3f} [{low}, {high}] | "
                     f"{'yes' if r.above_zero else 'no'} | {r.loss_rate.mean:.3f} | {r.win_rate.mean:.3f} |")
    return "\n".join(lines)



def write_final(directory: Path, checkpoint: Path, results: list[EvalResult], title: str, **extra: Any) -> None:
    """``final_eval.md`` (tables) and ``final_eval.json`` (figures) in ``directory``; the checkpoint is named
    relative to it (``train.export`` matches that name when it builds a bot card)."""
    (directory / "final_eval.md").write_text(results_markdown(results, title), encoding="utf-8")
    record = {
        "checkpoint": str(checkpoint.resolve().relative_to(directory.resolve())),
        **extra,
        "results": [{"rules": r.rules, "players": r.players, "opponent": r.opponent, "games": r.games,
                     "score": r.score.mean, "score_low": r.score.low,
                     "score_high": r.score.high, "loss_rate": r.loss_rate.mean, "win_rate": r.win_rate.mean}
                    for r in results],
    }
    (directory / "final_eval.json").write_text(json.dumps(record, indent=1), encoding="utf-8")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``shithead evaluate``: a checkpoint (or a run's best one) against each baseline, a Markdown table; given a run
    directory, its best checkpoint (else the last) is evaluated at the run's tables and ``final_eval.md`` /
    ``final_eval.json`` are written into it."""
    from agents.arguments import renamed, seat_list

    parser.add_argument("target", help="a MaskablePPO .zip, an RLlib checkpoint directory, or a run directory (its "
                        "best checkpoint, else its last)")  # fmt: skip
    parser.add_argument("--tables", nargs="+", metavar="PRESET:N[,N...]",
                        help="tables to play, e.g. dead_last:2,4 pub:3 (default: the run's, else dead_last:4)")
    parser.add_argument("--rules", help="one table's preset, with --players (instead of --tables)")
    parser.add_argument("--players", type=int, help="one table's size, with --rules (instead of --tables)")
    parser.add_argument("--baselines", type=seat_list, default="random;greedy;heuristic", metavar="SPECS",
                        help="bots separated by ';': one match against each, in every other seat")
    renamed(parser, "--opponents", "--baselines (specs separated by ';', one match against each)")
    parser.add_argument("--games", type=int, default=2000, help="games per baseline and table (whole deals)")
    parser.add_argument("--seed", type=int, default=12345, help="seed of the deals and of the bots' randomness")
    parser.add_argument("--sample", action="store_true",
                        help="sample the learner's actions instead of playing the most likely")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (results do not depend on it)")
    parser.add_argument("--max-decisions", type=int, default=None, metavar="N",
                        help="end a game after N decisions, the places left split (default: the run's "
                        "max_decisions, else the rules' cap)")  # fmt: skip
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def run(args: argparse.Namespace) -> int:
    from train.export import resolve_checkpoint, table_options

    chosen = table_options(args)
    if args.games < 1 or args.workers < 1:
        raise ValueError(f"--games and --workers must be positive, got {args.games} and {args.workers}")
    if args.max_decisions is not None and args.max_decisions < 1:
        raise ValueError(f"--max-decisions must be positive, got {args.max_decisions}")
    target = Path(args.target)
    if not target.exists():
        raise ValueError(f"{target}: no such checkpoint or run directory")
    tables, run_dir, checkpoint, cap = [("dead_last", 4)], None, target, None
    if target.is_dir() and (target / "config.yaml").is_file():
        from train.config import load_config

        run_dir = target
        config = load_config(run_dir / "config.yaml")
        tables, cap = config.table_list(), config.game_cap
        checkpoint = resolve_checkpoint(run_dir)
    cap = args.max_decisions if args.max_decisions is not None else cap
    tables = chosen or tables
    me = learner_spec(checkpoint, deterministic=not args.sample)
    results = evaluate_tables(me, tables, list(args.baselines), args.games, seed=args.seed, workers=args.workers,
                              progress=not args.no_progress, max_decisions=cap)  # fmt: skip
    title = f"{checkpoint}: the learner in one seat, the baseline in every other, seed {args.seed}"
    if run_dir is not None:
        write_final(run_dir, checkpoint, results, title, seed=args.seed)
    print(results_markdown(results, title))
    return 0


if __name__ == "__main__":
    raise SystemExit("python -m train.evaluate is now: shithead evaluate (shithead evaluate --help)")
