"""Tournament harness: duplicate deals, rotated seats, worker processes, statistics.

Each deal is one shuffled deck (``Game.new(rules, n, seed=deal_seed)``) played
``n`` times, once per rotation of the bot list over the seats, so every bot
holds every seat's cards once: most of the luck of the deal cancels. Every
random number a game uses comes from ``(seed, deal, rotation, slot)``, so the
results are the same for any number of workers.

Statistics (docs/tournament.md): the games of one deal are correlated, so each
figure is first averaged within a deal and the 95% interval is
``mean +- 1.96 * sd / sqrt(deals)`` over the per-deal means. Bots given by the
same spec (``random,random,random``) are pooled into one row. Ratings are a
Bradley-Terry fit of who finished ahead of whom, on the Elo scale, with a
bootstrap over deals for the interval.
"""

from __future__ import annotations

import contextlib
import math
import multiprocessing
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from agents.base import Bot, make_bot, require_coverage
from agents.guard import GuardedBot
from shithead_env import Action, Game, IllegalActionError, load_rules
from shithead_env.rules import rules_reference
from shithead_env.scoring import final_scores, finished_ahead, place_values

Z95 = 1.959963984540054
ELO_SCALE = 400.0 / math.log(10.0)
BOOTSTRAP_SAMPLES = 200
# An interval never leaves its quantity's range: a rate's [0, 1], a score's [-1, +1] (every scheme's places lie
# there), a difference of two scores' [-2, +2], decisions' [0, inf).
RATE_BOUNDS = (0.0, 1.0)
SCORE_BOUNDS = (-1.0, 1.0)
DIFFERENCE_BOUNDS = (-2.0, 2.0)
COUNT_BOUNDS = (0.0, math.inf)
INTERVAL_TEXT = "95% normal interval over per-deal means, clipped to the quantity's range"
PRIOR_WINS = 0.5  # pseudo-wins each way between every pair, so a bot that never wins keeps a finite rating


@dataclass(frozen=True)
class TournamentConfig:
    """What to play. ``games`` is rounded up to whole deals (a multiple of ``len(bots)``)."""

    rules: str
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    scheme: str = "placement"
    max_decisions: int | None = None
    guarded: tuple[int, ...] = ()  # slots whose failed moves are counted and replaced (agents.guard)

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def deals(self) -> int:
        return max(1, -(-self.games // self.players))


@dataclass
class GameRecord:
    """One game; lists are indexed by slot (position in ``config.bots``), not by seat."""

    deal: int
    rotation: int
    seats: list[int]
    scores: list[float]
    places: list[int | None]  # 0 = first safe; None = unfinished when truncated
    decisions: list[int]
    seconds: list[float]  # thinking time, machine-dependent
    truncated: bool
    faults: dict[int, dict[str, int]] = field(default_factory=dict)  # guarded slot -> failed moves by kind

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameRecord:
        """A record read back from JSON (``dataclasses.asdict`` written), its slot keys ints again."""
        return cls(**{**data, "faults": {int(slot): kinds for slot, kinds in data.get("faults", {}).items()}})


def deal_seed(seed: int, deal: int) -> int:
    """The shuffle seed of one deal: independent of workers and of the bots."""
    return int(np.random.SeedSequence([seed, deal]).generate_state(1, np.uint64)[0])


def play_game(config: TournamentConfig, bots: Sequence[Bot], deal: int, rotation: int) -> GameRecord:
    """Play deal ``deal`` with bot slot ``i`` in seat ``(i + rotation) % n``."""
    n = config.players
    seat_slot = [(seat - rotation) % n for seat in range(n)]
    rngs = [np.random.default_rng([config.seed, deal, rotation, slot]) for slot in range(n)]
    game = Game.new(config.rules, n, seed=deal_seed(config.seed, deal), max_decisions=config.max_decisions)
    decisions = [0] * n
    seconds = [0.0] * n
    clock = time.perf_counter

    def move(seat: int) -> Action:
        slot = seat_slot[seat]
        start = clock()
        action = bots[slot].act_game(game, seat, rngs[slot])
        seconds[slot] += clock() - start
        decisions[slot] += 1
        return action

    def step(action: Action) -> None:
        try:
            game.step(action)
        except IllegalActionError as error:
            seat = game.current
            raise RuntimeError(f"bot {config.bots[seat_slot[seat]]!r} (seat {seat}, deal {deal}) returned {error}") \
                from None

    game.play_until((), move, step=step)  # every seat is a bot: each decides even a lone pass
    scores = final_scores(game, config.scheme)
    place_of = {seat: place for place, seat in enumerate(game.finish_order)}
    seats = [(slot + rotation) % n for slot in range(n)]
    return GameRecord(
        deal=deal,
        rotation=rotation,
        seats=seats,
        scores=[scores[s] for s in seats],
        places=[place_of.get(s) for s in seats],
        decisions=decisions,
        seconds=seconds,
        truncated=game.truncated,
        faults={slot: bots[slot].pop_faults() for slot in config.guarded},  # type: ignore[attr-defined]
    )


def make_bots(config: TournamentConfig) -> list[Bot]:
    """One bot per slot, the guarded slots' behind ``GuardedBot``."""
    bots = [make_bot(spec) for spec in config.bots]
    return [GuardedBot(bot) if slot in config.guarded else bot for slot, bot in enumerate(bots)]


_worker_bots: list[Bot] = []
_worker_config: TournamentConfig | None = None


def _init_worker(config: TournamentConfig) -> None:
    global _worker_bots, _worker_config
    _worker_config = config
    _worker_bots = make_bots(config)


def _init_pool_worker(config: TournamentConfig) -> None:
    """A worker process is one core: torch, where the parent loaded it, runs one thread there. (Forked from a
    parent whose torch thread pool had run, a worker's first multi-threaded op deadlocked: ``shithead eval --bots
    policy:...,heuristic,heuristic,heuristic --workers 2`` hung.)"""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)
    _init_worker(config)


def _play_deal(deal: int) -> list[GameRecord]:
    assert _worker_config is not None
    return [play_game(_worker_config, _worker_bots, deal, r) for r in range(_worker_config.players)]


def iter_deals(
    config: TournamentConfig, workers: int = 1, deals: Sequence[int] | None = None
) -> Iterator[list[GameRecord]]:
    """Each deal's games as soon as they are played, in the order of ``deals`` (default: every deal of the
    tournament), over ``workers`` processes. A deal's games depend only on the seed and the deal's number, so a
    caller that keeps them as they come (the compare command) can stop anywhere and play only the rest."""
    rules = load_rules(config.rules)
    rules.check_players(config.players)
    place_values(config.players, config.scheme)  # fail fast on an unknown scheme
    bots = [make_bot(spec) for spec in dict.fromkeys(config.bots)]
    for bot in bots:  # fail fast, in this process, on a bad spec or a model made elsewhere
        require_coverage(bot, rules, config.players)
    deals = range(config.deals) if deals is None else list(deals)
    if any(deal < 0 for deal in deals):
        raise ValueError(f"deal numbers must be >= 0, got {min(deals)}")
    return _played(config, workers, deals)


def _played(config: TournamentConfig, workers: int, deals: Sequence[int]) -> Iterator[list[GameRecord]]:
    if workers <= 1:
        _init_worker(config)
        yield from map(_play_deal, deals)
        return
    # One deal a task: a deal takes from milliseconds (cheap bots) to minutes (search), and a finished deal reaches
    # the caller (compare_bots' cache) once the deals before it have, not once a whole chunk of them has.
    with multiprocessing.get_context().Pool(workers, _init_pool_worker, (config,)) as pool:
        yield from pool.imap(_play_deal, deals)


def play_games(config: TournamentConfig, workers: int = 1, progress: bool = False, bar: Any = None) -> list[GameRecord]:
    """Every game of the tournament, in (deal, rotation) order whatever the number of workers.

    ``bar``: a tqdm bar to advance instead of a new one (a caller playing several tournaments).
    """
    games = iter_deals(config, workers)  # a bad config fails here, before a bar is drawn
    from tqdm import tqdm

    own = bar is None
    if own:
        bar = tqdm(total=config.deals * config.players, unit="game", disable=not progress, smoothing=0.05)
    records: list[GameRecord] = []
    with bar if own else contextlib.nullcontext():
        for batch in games:
            records += batch
            bar.update(len(batch))
    return records


# ----------------------------------------------------------------- statistics
@dataclass
class Interval:
    """A mean with its 95% interval (``low``/``high`` are None with fewer than two deals)."""

    mean: float
    low: float | None
    high: float | None

    def covers(self, value: float) -> bool:
        return self.low is not None and self.high is not None and self.low <= value <= self.high


def interval(per_deal: np.ndarray, bounds: tuple[float, float] | None = None) -> Interval:
    """Mean and normal 95% interval over independent per-deal means, clipped to ``bounds`` (the quantity's range:
    ``RATE_BOUNDS``, ``SCORE_BOUNDS`` ...)."""
    mean = float(per_deal.mean())
    if len(per_deal) < 2:
        return Interval(mean, None, None)
    half = Z95 * float(per_deal.std(ddof=1)) / math.sqrt(len(per_deal))
    return clipped(Interval(mean, mean - half, mean + half), bounds)


def clipped(iv: Interval, bounds: tuple[float, float] | None) -> Interval:
    """``iv`` with its ends moved into ``bounds`` (the quantity's range; None: unbounded)."""
    if bounds is None or iv.low is None or iv.high is None:
        return iv
    return Interval(iv.mean, max(iv.low, bounds[0]), min(iv.high, bounds[1]))


@dataclass
class BotStats:
    spec: str
    seats: int  # how many of the table's seats this spec fills
    score: Interval
    loss_rate: Interval
    win_rate: Interval
    decisions: Interval
    seconds_per_decision: float  # machine-dependent
    rating: Interval = field(default_factory=lambda: Interval(0.0, None, None))


@dataclass
class HeadToHead:
    first: str
    second: str
    score_difference: Interval  # first minus second, per game, over the same games


@dataclass
class Summary:
    config: TournamentConfig
    games: int
    deals: int
    truncated: int
    bots: list[BotStats]
    head_to_head: list[HeadToHead]

    def to_json(self, records: Sequence[GameRecord] | None = None) -> dict[str, Any]:
        out = {
            "rules": rules_reference(load_rules(self.config.rules)),
            "players": self.config.players,
            "bots_by_slot": list(self.config.bots),
            "seed": self.config.seed,
            "scheme": self.config.scheme,
            "games": self.games,
            "deals": self.deals,
            "truncated_games": self.truncated,
            "max_decisions": self.config.max_decisions,
            "interval": f"{INTERVAL_TEXT} (duplicate games of a deal are correlated)",
            "bots": [asdict(b) for b in self.bots],
            "head_to_head": [asdict(h) for h in self.head_to_head],
        }
        if records is not None:
            out["game_records"] = [asdict(r) for r in records]
        return out


def distinct_specs(bots: Sequence[str]) -> list[str]:
    """Each spec once, in order of first appearance."""
    return list(dict.fromkeys(bots))


def summarize(config: TournamentConfig, records: Sequence[GameRecord], seed: int | None = None) -> Summary:
    """Per-bot figures, head-to-head differences and ratings from the game records."""
    specs = distinct_specs(config.bots)
    n, k = config.players, len(specs)
    slots_of = [[i for i, b in enumerate(config.bots) if b == spec] for spec in specs]
    deals = sorted({r.deal for r in records})
    index = {d: i for i, d in enumerate(deals)}
    games_in = np.zeros(len(deals))
    # sums[metric][deal, spec]: summed over the deal's games of the mean over the spec's slots
    metrics = ("score", "loss", "win", "decisions")
    sums = {m: np.zeros((len(deals), k)) for m in metrics}
    wins = np.zeros((len(deals), k, k))  # wins[deal, a, b]: times a finished ahead of b
    seconds = np.zeros(k)
    decisions = np.zeros(k)
    for rec in records:
        d = index[rec.deal]
        games_in[d] += 1
        last = None if rec.truncated else n - 1
        for j, slots in enumerate(slots_of):
            sums["score"][d, j] += np.mean([rec.scores[i] for i in slots])
            sums["loss"][d, j] += np.mean([rec.places[i] == last for i in slots])
            sums["win"][d, j] += np.mean([rec.places[i] == 0 for i in slots])
            sums["decisions"][d, j] += np.mean([rec.decisions[i] for i in slots])
            seconds[j] += sum(rec.seconds[i] for i in slots)
            decisions[j] += sum(rec.decisions[i] for i in slots)
        for a in range(n):
            for b in range(n):
                ja, jb = specs.index(config.bots[a]), specs.index(config.bots[b])
                if ja != jb and finished_ahead(rec.places[a], rec.places[b]):
                    wins[d, ja, jb] += 1
    means = {m: sums[m] / games_in[:, None] for m in metrics}
    ratings = _ratings(wins, config.seed if seed is None else seed)
    bots = [
        BotStats(
            spec=spec,
            seats=len(slots_of[j]),
            score=interval(means["score"][:, j], SCORE_BOUNDS),
            loss_rate=interval(means["loss"][:, j], RATE_BOUNDS),
            win_rate=interval(means["win"][:, j], RATE_BOUNDS),
            decisions=interval(means["decisions"][:, j], COUNT_BOUNDS),
            seconds_per_decision=float(seconds[j] / max(decisions[j], 1)),
            rating=ratings[j],
        )
        for j, spec in enumerate(specs)
    ]
    pairs = [
        HeadToHead(specs[a], specs[b], interval(means["score"][:, a] - means["score"][:, b], DIFFERENCE_BOUNDS))
        for a in range(k)
        for b in range(a + 1, k)
    ]
    return Summary(config, len(records), len(deals), sum(r.truncated for r in records), bots, pairs)


def bradley_terry(wins: np.ndarray) -> np.ndarray:
    """Elo-scale strengths (mean 0) from a win-count matrix, by Hunter's MM iterations."""
    k = len(wins)
    if k < 2:
        return np.zeros(k)
    w = wins + PRIOR_WINS * (1 - np.eye(k))
    games = w + w.T
    p = np.ones(k)
    for _ in range(500):
        new = w.sum(axis=1) / (games / (p[:, None] + p[None, :])).sum(axis=1)
        new /= np.exp(np.log(new).mean())
        if np.abs(new - p).max() < 1e-10:
            p = new
            break
        p = new
    r = ELO_SCALE * np.log(p)
    return r - r.mean()


def _ratings(wins: np.ndarray, seed: int) -> list[Interval]:
    """Bradley-Terry Elo per spec, with a percentile bootstrap over deals."""
    k = wins.shape[1]
    point = bradley_terry(wins.sum(axis=0))
    if len(wins) < 2 or k < 2:
        return [Interval(float(x), None, None) for x in point]
    rng = np.random.default_rng([seed, 0xE10])
    samples = np.array(
        [bradley_terry(wins[rng.integers(len(wins), size=len(wins))].sum(axis=0)) for _ in range(BOOTSTRAP_SAMPLES)]
    )
    low, high = np.percentile(samples, [2.5, 97.5], axis=0)
    return [Interval(float(point[j]), float(low[j]), float(high[j])) for j in range(k)]


def run_tournament(
    config: TournamentConfig, workers: int = 1, progress: bool = False
) -> tuple[Summary, list[GameRecord]]:
    """Play and summarize."""
    records = play_games(config, workers, progress)
    return summarize(config, records), records


# ----------------------------------------------------------------- output
def _fmt(iv: Interval, digits: int = 3, signed: bool = True) -> str:
    sign = "+" if signed else ""
    if iv.low is None or iv.high is None:
        return f"{iv.mean:{sign}.{digits}f}"
    return f"{iv.mean:{sign}.{digits}f} [{iv.low:{sign}.{digits}f}, {iv.high:{sign}.{digits}f}]"


def format_summary(summary: Summary) -> str:
    """The leaderboard and head-to-head tables as plain text (also valid Markdown)."""
    c = summary.config
    lines = [
        f"{c.rules}, {c.players} players, {summary.games} games ({summary.deals} deals x {c.players} seatings), "
        f"seed {c.seed}, scores '{c.scheme}', 95% intervals over per-deal means clipped to each quantity's range"
        + (f", capped at {c.max_decisions} decisions" if c.max_decisions else "")
        + (f", {summary.truncated} truncated" if summary.truncated else ""),
        "",
        "| bot | seats | mean score | loss rate | win rate | decisions/game | ms/decision | rating (Elo) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for b in sorted(summary.bots, key=lambda b: -b.score.mean):
        lines.append(
            f"| {b.spec} | {b.seats} | {_fmt(b.score)} | {_fmt(b.loss_rate, signed=False)} | "
            f"{_fmt(b.win_rate, signed=False)} | {_fmt(b.decisions, 1, False)} | {1000 * b.seconds_per_decision:.3f} | "
            f"{_fmt(b.rating, 0)} |"
        )
    if summary.head_to_head:
        lines += ["", "| head to head | score difference (first - second) | games |", "|---|---|---|"]
        for h in summary.head_to_head:
            lines.append(f"| {h.first} vs {h.second} | {_fmt(h.score_difference)} | {summary.games} |")
    return "\n".join(lines)


def plot_summary(summary: Summary, path: str) -> None:
    """PNG: mean score per bot and head-to-head differences, each with its 95% interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    panels = [("mean score per bot", [(b.spec, b.score) for b in summary.bots])]
    if summary.head_to_head:
        pairs = [(f"{h.first} vs {h.second}", h.score_difference) for h in summary.head_to_head]
        panels.append(("head to head (first - second)", pairs))
    fig, axes = plt.subplots(1, len(panels), figsize=(6 * len(panels), 1.2 + 0.5 * max(len(p[1]) for p in panels)))
    for ax, (title, rows) in zip(np.atleast_1d(axes), panels, strict=False):
        y = np.arange(len(rows))
        means = [iv.mean for _, iv in rows]
        errors = [
            [iv.mean - iv.low if iv.low is not None else 0.0 for _, iv in rows],
            [iv.high - iv.mean if iv.high is not None else 0.0 for _, iv in rows],
        ]
        ax.errorbar(means, y, xerr=errors, fmt="o", capsize=4)
        ax.axvline(0.0, color="grey", linewidth=0.8)
        ax.set_yticks(y, [name for name, _ in rows])
        ax.invert_yaxis()
        ax.set_title(title)
    fig.suptitle(f"{summary.config.rules}, {summary.config.players} players, {summary.games} games, 95% intervals")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
