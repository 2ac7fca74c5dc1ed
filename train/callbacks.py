"""The SB3 callbacks of a run: progress bar, checkpoints, the self-play league, harness evaluation."""

from __future__ import annotations

import shutil
import time
from collections import defaultdict
from pathlib import Path

from stable_baselines3.common.callbacks import BaseCallback
from tqdm import tqdm

from train.config import TrainConfig
from train.evaluate import (
    EvalResult,
    append_csv,
    evaluate_tables,
    learner_spec,
    previous_best,
    save_best,
    selection_score,
)
from train.league import LeaguePool

LAST = "last.zip"


def next_multiple(step: int, every: int) -> int:
    """The first multiple of ``every`` strictly after ``step``."""
    return (step // every + 1) * every


def steps_to_run(start: int, target: int, rollout: int) -> int:
    """Where ``learn`` stops: SB3 collects whole rollouts, so at the first multiple of ``rollout`` past ``start``
    that reaches ``target`` (a run of 200,000 steps in rollouts of 4,096 ends at 200,704)."""
    return start + -(-max(target - start, 0) // rollout) * rollout


def advance_bar(bar: tqdm, steps: int) -> None:
    """Move ``bar`` to ``steps``. Reaching its total it only records the count (raising the total to it when a
    rollout overshot), so that ``close`` draws the end once instead of a second copy of the last line."""
    if steps < bar.total:
        bar.update(steps - bar.n)
    else:
        bar.total = max(bar.total, steps)
        bar.n = steps


class ProgressBar(BaseCallback):
    """A tqdm bar over learner steps (SB3's own needs ``rich``): its total is where training really stops (whole
    rollouts), and the final count is drawn once, by ``close``."""

    def __init__(self, total: int) -> None:
        super().__init__()
        self.total = total
        self.bar: tqdm | None = None

    def _on_training_start(self) -> None:
        rollout = getattr(self.model, "n_steps", 1) * self.model.n_envs
        total = steps_to_run(self.num_timesteps, self.total, rollout)
        self.bar = tqdm(total=total, initial=self.num_timesteps, unit="step", smoothing=0.1, dynamic_ncols=True)

    def _on_step(self) -> bool:
        return True

    def _on_rollout_end(self) -> None:
        if self.bar is not None:
            advance_bar(self.bar, self.num_timesteps)

    def _on_training_end(self) -> None:
        if self.bar is not None:
            self.bar.n = self.num_timesteps  # also where a time limit stopped it
            self.bar.close()


class TimeLimit(BaseCallback):
    """Ends ``learn`` once ``seconds`` have passed since ``started`` (``time.time``); the run then saves and ends."""

    def __init__(self, seconds: float, started: float) -> None:
        super().__init__()
        self.deadline = started + seconds

    def _on_step(self) -> bool:
        return time.time() < self.deadline


class EpisodeStats(BaseCallback):
    """The share of learner steps spent in episodes that ended truncated (a looping game, or the episode cap).

    Logged per rollout (``rollout/truncated_step_share``) and in total
    (``steps``, ``truncated_steps``), from Monitor's episode lengths.
    """

    def __init__(self) -> None:
        super().__init__()
        self.steps = self.truncated_steps = 0
        self._rollout = [0, 0]

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            episode = info.get("episode")
            if episode is None:
                continue
            length = int(episode["l"])
            cut = bool(info.get("TimeLimit.truncated"))
            self.steps += length
            self.truncated_steps += length * cut
            self._rollout[0] += length
            self._rollout[1] += length * cut
        return True

    def _on_rollout_end(self) -> None:
        if self._rollout[0]:
            self.logger.record("rollout/truncated_step_share", self._rollout[1] / self._rollout[0])
        self._rollout = [0, 0]

    @property
    def share(self) -> float:
        """Truncated episodes' share of the finished episodes' learner steps so far (0 before any)."""
        return self.truncated_steps / self.steps if self.steps else 0.0


class Checkpoints(BaseCallback):
    """``checkpoints/model_<step>.zip`` every ``every`` steps and ``checkpoints/last.zip`` (always the newest)."""

    def __init__(self, directory: Path, every: int) -> None:
        super().__init__()
        self.directory = directory
        self.every = every
        self.next = 0

    def _on_training_start(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        self.next = next_multiple(self.num_timesteps, self.every)

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next:
            self.save()
            self.next = next_multiple(self.num_timesteps, self.every)
        return True

    def save(self) -> Path:
        """Save now; returns the step-numbered file."""
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self.directory / f"model_{self.model.num_timesteps:010d}.zip"
        self.model.save(path)
        shutil.copyfile(path, self.directory / LAST)
        return path


class League(BaseCallback):
    """Adds snapshots to the pool, counts the learner's results against every opponent, logs loss rates."""

    def __init__(self, pool: LeaguePool | None, every: int) -> None:
        super().__init__()
        self.pool = pool
        self.every = every
        self.next = 0
        self.games: dict[str, int] = defaultdict(int)
        self.losses: dict[str, float] = defaultdict(float)

    def _on_training_start(self) -> None:
        self.next = next_multiple(self.num_timesteps, self.every)

    def _on_step(self) -> bool:
        for info in self.locals["infos"]:
            league = info.get("league")
            if league is None:
                continue
            for name, lost in zip(league["opponents"], league["lost"], strict=True):
                kind = "snapshot" if name.startswith("snapshot_") else name
                self.games[kind] += 1
                self.losses[kind] += lost
                if self.pool is not None and kind == "snapshot":
                    self.pool.record(name, lost)
        if self.pool is not None and self.num_timesteps >= self.next:
            self.pool.add(self.model.policy, self.num_timesteps)
            self.next = next_multiple(self.num_timesteps, self.every)
        return True

    def _on_rollout_end(self) -> None:
        for kind, games in self.games.items():
            self.logger.record(f"league/lost_to/{kind}", self.losses[kind] / games)
            self.logger.record(f"league/games/{kind}", games)
        self.games.clear()
        self.losses.clear()
        if self.pool is not None:
            self.logger.record("league/pool_size", len(self.pool.snapshots))
            if self.pool.scheme == "loss" and self.pool.snapshots:
                self.pool.write()  # publish the new loss-based weights


def eval_line(step: int, results: list[EvalResult], seconds: float, best: bool) -> str:
    """The one line printed per evaluation: the score against each baseline (at each table) with its 95% interval."""
    parts = []
    several = len({r.table for r in results}) > 1
    for r in results:
        bounds = "" if r.score.low is None or r.score.high is None else f" [{r.score.low:+.3f}, {r.score.high:+.3f}]"
        parts.append(f"vs {r.opponent}{f' at {r.table}' if several else ''} {r.score.mean:+.3f}{bounds}")
    return f"eval at step {step:,}: " + "; ".join(parts) + f" ({seconds:.0f} s)" + (", new best" if best else "")


class HarnessEval(BaseCallback):
    """Every ``eval_every`` steps: save a checkpoint, play it against the baselines at every table with the harness.

    Scores and intervals go to TensorBoard (``eval/<opponent>/...``, with
    ``/<rules>/<players>`` when the run has several tables) and to ``eval.csv``;
    the checkpoint with the best score (``best_by``, or every baseline, averaged
    over the tables) is copied to ``best/model.zip`` with ``best/eval.json``.
    """

    def __init__(self, config: TrainConfig, run_dir: Path, checkpoints: Checkpoints, started: float) -> None:
        super().__init__()
        self.config = config
        self.run_dir = run_dir
        self.checkpoints = checkpoints
        self.started = started
        self.next = 0
        self.best_dir = run_dir / "best"
        self.best_score = previous_best(self.best_dir)

    def _on_training_start(self) -> None:
        if self.config.eval_every:
            self.next = next_multiple(self.num_timesteps, self.config.eval_every)
        if self.config.eval_at_start and self.num_timesteps == 0:
            self.run_eval()

    def _on_step(self) -> bool:
        if self.config.eval_every and self.num_timesteps >= self.next:
            self.run_eval()
            self.next = next_multiple(self.num_timesteps, self.config.eval_every)
        return True

    def run_eval(self) -> float:
        """Evaluate the current policy now; returns the score used to pick the best checkpoint."""
        c = self.config
        checkpoint = self.checkpoints.save()
        start = time.perf_counter()
        tables = c.table_list()
        results = evaluate_tables(learner_spec(checkpoint, c.eval_deterministic), tables, c.eval_opponents,
                                  c.eval_games, seed=c.seed + 1, scheme=c.reward, max_decisions=c.game_cap)
        seconds = time.perf_counter() - start
        step = self.model.num_timesteps
        append_csv(self.run_dir / "eval.csv", step, time.time() - self.started, results)
        for r in results:
            prefix = f"eval/{r.opponent}" + (f"/{r.table}" if len(tables) > 1 else "")
            self.logger.record(f"{prefix}/score", r.score.mean)
            if r.score.low is not None and r.score.high is not None:
                self.logger.record(f"{prefix}/score_low", r.score.low)
                self.logger.record(f"{prefix}/score_high", r.score.high)
            self.logger.record(f"{prefix}/loss_rate", r.loss_rate.mean)
            self.logger.record(f"{prefix}/win_rate", r.win_rate.mean)
        self.logger.record("eval/seconds", seconds)
        score = selection_score(results, c.best_by)
        self.logger.record("eval/selection_score", score)
        self.logger.dump(step)
        improved = score > self.best_score
        tqdm.write(eval_line(step, results, seconds, improved))
        if improved:
            self.best_score = score
            save_best(self.best_dir, checkpoint, step, score, results)
        return score
