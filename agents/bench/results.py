"""A bench's results: per match and table figures, one suite score, one rating, as JSON, Markdown and a plot.

Figures (docs/bench.md):
- per match (a table, one opponent): the bot's mean placement score, loss and
  win rates, the head-to-head score difference against that opponent, how
  often each finished ahead of the other, thinking time, failed moves;
- per table: the bot's score over all its games there, the 95% interval over
  deals (each deal's games against every opponent averaged first: they share
  the cards); the suite score is the mean over tables, its interval from the
  tables' standard errors;
- the rating: the Elo scale of a Bradley-Terry model of who finished ahead of
  whom, the bot's one free parameter fitted against the reference bots'
  ratings published in the suite's leaderboard (``field_ratings``), with a
  bootstrap over (table, deal) for its interval. Without a leaderboard the
  rating is null.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np

from agents.bench.run import BotIdentity, Match
from agents.bench.suite import Suite
from agents.guard import FAULTS
from agents.tournament import (
    BOOTSTRAP_SAMPLES,
    DIFFERENCE_BOUNDS,
    ELO_SCALE,
    PRIOR_WINS,
    RATE_BOUNDS,
    SCORE_BOUNDS,
    Z95,
    GameRecord,
    Interval,
    bradley_terry,
    clipped,
    interval,
)
from shithead_env import __version__
from shithead_env.scoring import finished_ahead

RESULTS_FORMAT = 1
SCHEMA_FILE = Path(__file__).parent / "schema" / "results.schema.json"
RESULTS_SCHEMA: dict[str, Any] = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))


def ahead_per_deal(records: Sequence[GameRecord]) -> dict[int, np.ndarray]:
    """deal -> [times the bot (slot 0) finished ahead of an opponent seat, times an opponent seat was ahead]."""
    out: dict[int, np.ndarray] = {}
    for rec in records:
        counts = out.setdefault(rec.deal, np.zeros(2))
        for slot in range(1, len(rec.places)):
            counts[0] += finished_ahead(rec.places[0], rec.places[slot])
            counts[1] += finished_ahead(rec.places[slot], rec.places[0])
    return out


def _per_deal(records: Sequence[GameRecord], value: Callable[[GameRecord], float]) -> np.ndarray:
    """``value`` of each game, averaged within each deal (a deal's games share the cards), in deal order."""
    per_deal: dict[int, list[float]] = {}
    for rec in records:
        per_deal.setdefault(rec.deal, []).append(value(rec))
    return np.array([np.mean(v) for _, v in sorted(per_deal.items())])


def match_result(suite: Suite, match: Match, records: Sequence[GameRecord]) -> dict[str, Any]:
    """The bot's (slot 0's) figures in one match (against itself its score is 0 by symmetry)."""
    table = suite.tables[match.table]
    n = table.players
    ahead = sum(ahead_per_deal(records).values(), np.zeros(2))
    faults = {kind: sum(r.faults.get(0, {}).get(kind, 0) for r in records) for kind in FAULTS}
    decisions = sum(r.decisions[0] for r in records)
    return {
        "opponent": match.opponent_of(suite),
        "games": len(records),
        "truncated_games": sum(r.truncated for r in records),
        "score": asdict(interval(_per_deal(records, lambda r: r.scores[0]), SCORE_BOUNDS)),
        "loss_rate": asdict(interval(_per_deal(records, lambda r: r.places[0] == n - 1), RATE_BOUNDS)),
        "win_rate": asdict(interval(_per_deal(records, lambda r: r.places[0] == 0), RATE_BOUNDS)),
        "head_to_head": asdict(interval(_per_deal(records, lambda r: r.scores[0] - np.mean(r.scores[1:])),
                                          DIFFERENCE_BOUNDS)),
        "ahead": {"bot": int(ahead[0]), "opponent": int(ahead[1])},
        "ms_per_decision": 1000 * sum(r.seconds[0] for r in records) / max(decisions, 1),
        "decisions": int(decisions),
        "faults": faults,
    }


def table_score(records_by_opponent: Sequence[Sequence[GameRecord]]) -> Interval:
    """The bot's score over all its games at one table, the interval over deals (module doc)."""
    return interval(_per_deal([r for records in records_by_opponent for r in records], lambda r: r.scores[0]))


def suite_score(tables: Sequence[Interval]) -> Interval:
    """Mean of the tables' scores; its standard error from theirs (tables are independent deals)."""
    mean = float(np.mean([t.mean for t in tables]))
    if any(t.low is None or t.high is None for t in tables):
        return Interval(mean, None, None)
    se = math.sqrt(sum(((t.high - t.low) / (2 * Z95)) ** 2 for t in tables)) / len(tables)  # type: ignore[operator]
    return Interval(mean, mean - Z95 * se, mean + Z95 * se)


def fit_rating(rows: Sequence[tuple[float, float, float]]) -> float:
    """The Elo rating x maximizing sum w log P(x beats r) + l log P(r beats x) over rows (r, w, l).

    Half a pseudo-win each way per row (as in the harness's ratings) keeps it finite.
    The likelihood's slope falls as x grows, so bisection finds its zero.
    """

    def slope(x: float) -> float:
        total = 0.0
        for r, wins, losses in rows:
            p = 1.0 / (1.0 + math.exp(-(x - r) / ELO_SCALE))
            total += (wins + PRIOR_WINS) * (1 - p) - (losses + PRIOR_WINS) * p
        return total

    low, high = -4000.0, 4000.0
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if slope(mid) > 0 else (low, mid)
    return (low + high) / 2


def fit_against(rows: Sequence[tuple[str, float, float]], ratings: Mapping[str, float]) -> float:
    """``fit_rating`` on (opponent, ahead, behind) rows, summed per opponent first (one pseudo-win pair each)."""
    totals: dict[str, np.ndarray] = {}
    for opponent, ahead, behind in rows:
        totals[opponent] = totals.get(opponent, np.zeros(2)) + np.array([ahead, behind])
    return fit_rating([(ratings[o], c[0], c[1]) for o, c in totals.items()])


def rating(
    suite: Suite, spec: str, records: Mapping[Match, Sequence[GameRecord]], anchors: Mapping[str, float], seed: int = 0
) -> Interval | None:
    """The bot's rating against the field's published ratings; None if an opponent has none (module doc)."""
    units: dict[tuple[int, int], list[tuple[str, np.ndarray]]] = {}  # (table, deal) -> (opponent, [ahead, behind])
    for m, recs in records.items():
        opponent = m.opponent_of(suite)
        if opponent == spec:
            continue  # against itself: as often ahead as behind, no information on its strength
        if opponent not in anchors:
            return None
        for deal, counts in ahead_per_deal(recs).items():
            units.setdefault((m.table, deal), []).append((opponent, counts))
    keys = sorted(units)

    def fit(sample: Sequence[tuple[int, int]]) -> float:
        return fit_against([(o, c[0], c[1]) for key in sample for o, c in units[key]], anchors)

    rng = np.random.default_rng([seed, 0xBE7C])
    samples = [fit([keys[i] for i in rng.integers(len(keys), size=len(keys))]) for _ in range(BOOTSTRAP_SAMPLES)]
    low, high = np.percentile(samples, [2.5, 97.5])
    return Interval(fit(keys), float(low), float(high))


def _opponent_rows(entry: Mapping[str, Any]) -> list[tuple[str, int, int]]:
    """(opponent, times the bot was ahead, times it was behind) per match of a results document, itself left out."""
    return [(m["opponent"], m["ahead"]["bot"], m["ahead"]["opponent"])
            for t in entry["tables"] for m in t["matches"] if m["opponent"] != entry["bot"]]  # fmt: skip


def field_ratings(entries: Sequence[Mapping[str, Any]], anchor: str) -> dict[str, float]:
    """Bradley-Terry ratings of every bot in the results documents, from their matches' ahead counts.

    Shifted so that the anchor's own fit against the others (what ``rating`` gives it) is 0.
    """
    names = list(dict.fromkeys([e["bot"] for e in entries] + [o for e in entries for o, _, _ in _opponent_rows(e)]))
    if anchor not in names:
        raise ValueError(f"the leaderboard has no games of its anchor {anchor!r}")
    index = {name: i for i, name in enumerate(names)}
    wins = np.zeros((len(names), len(names)))
    for entry in entries:
        for opponent, ahead, behind in _opponent_rows(entry):
            wins[index[entry["bot"]], index[opponent]] += ahead
            wins[index[opponent], index[entry["bot"]]] += behind
    ratings = dict(zip(names, map(float, bradley_terry(wins)), strict=True))
    own = next((e for e in entries if e["bot"] == anchor), None)
    shift = ratings[anchor] if own is None else fit_against(_opponent_rows(own), ratings)
    return {name: r - shift for name, r in ratings.items()}


def bench_results(
    suite: Suite,
    spec: str,
    records: Mapping[Match, Sequence[GameRecord]],
    anchors: Mapping[str, float] | None,
    identity: BotIdentity | None = None,
) -> dict[str, Any]:
    """The results document (``results.schema.json``); ``identity`` names the bot's card and its networks at
    each table (``agents.bench.run.bot_identity``)."""
    tables, scores = [], []
    for t, table in enumerate(suite.tables):
        mine = {m: r for m, r in records.items() if m.table == t}
        if not mine:
            continue
        scores.append(table_score(list(mine.values())))
        tables.append({
            "rules": table.rules,
            "players": table.players,
            "deals": table.deals,
            **({} if identity is None else {"networks": identity.networks[t]}),
            "score": asdict(clipped(scores[-1], SCORE_BOUNDS)),  # the unclipped width gives the suite's error
            "matches": [match_result(suite, m, r) for m, r in mine.items()],
        })  # fmt: skip
    overall = suite_score(scores)
    rated = None if anchors is None else rating(suite, spec, records, anchors)
    matches = [m for t in tables for m in t["matches"]]
    decisions = sum(m["decisions"] for m in matches)
    return {
        "format": "shithead-bench-results",
        "format_version": RESULTS_FORMAT,
        "suite": {"name": suite.name, "version": suite.version},
        "package_version": __version__,
        "bot": spec,
        "card": None if identity is None else identity.card,
        "scheme": "placement",
        "interval": "95%: normal over per-deal means (scores), percentile bootstrap over (table, deal) (rating); "
        "clipped to the quantity's range",
        "score": asdict(clipped(overall, SCORE_BOUNDS)),
        "rating": None if rated is None else asdict(rated),
        "rating_anchor": suite.anchor,
        "ms_per_decision": sum(m["ms_per_decision"] * m["decisions"] for m in matches) / max(decisions, 1),
        "faults": {kind: sum(m["faults"][kind] for m in matches) for kind in FAULTS},
        "tables": tables,
    }
