"""``shithead compare``: arms (bots) on the same deals: each arm's score, and its difference from the first arm
paired by deal.

Two bots evaluated separately each carry the deals' luck in their interval;
on the same deals most of that luck is shared, so the per-deal difference has
a far narrower interval than either score. Each arm plays every deal in every
seat against ``players - 1`` copies of ``--opponents``, or against a mixed field
(``--opponents "heuristic;model:auto;ismcts"``, one spec a seat; the harness,
agents/tournament.py, rotates every bot over the seats); results are cached per arm and deal (keyed by the arm's
config, every option its bots take, defaults included, the contents of any file
its spec names and the networks its bots play at the table, so a changed default
or a retrained or newly shipped network plays again), so a new arm costs
only its own games, a longer line only its new deals, a stopped run resumes, and
``--cached`` reports a line still being played. Each file keeps the line it was played with:

    shithead compare --rules dead_last --games 400 --seed 2026 --workers 2 \\
        --arm "guided:sims=300" --arm "guided:sims=600"

Arms are played one after another. For a long line that may be stopped, start one
process per arm instead (``--arm A`` in one, ``--arm B`` in another, ``--workers
1`` each on 2 cores): the arms then advance together, and ``--cached --arm A
--arm B`` pairs them over every deal both have finished.

Prints one Markdown row per arm: score [95%], difference from the first arm
[95%, paired by deal], win and loss rates (first safe, shithead), milliseconds per
decision and how many games reached the decision cap (their places left are shared).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections.abc import Sequence
from dataclasses import asdict, replace
from pathlib import Path

import numpy as np
from tqdm import tqdm

from agents.base import Bot, parse_spec, resolved_spec
from agents.bench.report import format_interval
from agents.files import write_whole
from agents.onnx_bot import table_networks
from agents.tournament import (
    DIFFERENCE_BOUNDS,
    SCORE_BOUNDS,
    GameRecord,
    TournamentConfig,
    interval,
    iter_deals,
    make_bots,
)

SAVE_EVERY = 60.0  # seconds between writes of an arm's finished deals


def field(opponents: str, players: int) -> tuple[str, ...]:
    """The other seats' specs: the one spec of ``--opponents`` in each, or its seat list, one spec a seat."""
    from agents.base import split_specs

    specs = tuple(split_specs(opponents))
    if len(specs) == 1:
        return specs * (players - 1)
    if len(specs) != players - 1:
        raise ValueError(f"--opponents {opponents!r} names {len(specs)} seats; a mixed field names one spec for each "
                         f"of the {players - 1} other seats (or give one spec for all)")
    return specs


def cache_key(config: TournamentConfig) -> str:
    """An arm's cache file name: its config without the game count and what its bots play with (``line_key``)."""
    keyed = replace(config, games=0, bots=tuple(map(resolved_spec, config.bots)))
    return line_key(keyed, config.bots, make_bots(config), config.rules, config.players)


def line_key(head: object, specs: Sequence[str], bots: Sequence[Bot], rules: str, players: int) -> str:
    """A line's cache key (16 hex digits): ``head`` (its setup, every spec resolved: ``resolved_spec``, so a spec
    that spells out its defaults shares records and a changed default plays again), the contents of any
    file or folder the specs name (a checkpoint, a model, a value network) and the networks the bots play at this
    table (``name=sha256`` in name order). So a network retrained under the same path (``checkpoints/last.zip``) or
    one shipped in place of another (``model:auto``, ``guided``'s ``value=auto``) is played again instead of read
    from the records of the one it replaced."""
    named = [Path(item) for spec in specs for item in _spec_items(spec) if Path(item).exists()]
    found: dict[str, str] = {}
    for bot in bots:
        found.update(table_networks(bot, rules, players))
    networks = [f"{name}={sha}" for name, sha in sorted(found.items())]
    text = repr(head) + "".join([*map(_digest, named), *networks])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _spec_items(spec: str) -> list[str]:
    _, args, options = parse_spec(spec)
    return [*args, *options.values()]


def _digest(path: Path) -> str:
    """The sha256 of a file's bytes, or of a folder's file names and bytes."""
    files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
    digest = hashlib.sha256()
    for file in files:
        digest.update(str(file.relative_to(path) if path.is_dir() else "").encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()


def read_records(path: Path) -> list[dict]:
    """A cache file's records (none if there is no file). A file is ``{"line": what its records were played with,
    "records": [...]}``."""
    if not path.exists():
        return []
    return json.loads(path.read_text(encoding="utf-8"))["records"]


def write_records(path: Path, line: dict, records: list[dict]) -> None:
    """Write a cache file: its records and the line they were played with (``read_records``)."""
    write_whole(path, json.dumps({"line": line, "records": records}))


def arm_deals(
    config: TournamentConfig,
    workers: int,
    cache: Path,
    play: bool = True,
) -> dict[int, list[GameRecord]]:
    """The arm's games by deal: those played before, read from ``cache``, then (with ``play``) the config's other
    deals. A deal's games depend only on the seed and the deal's number, not on ``--games``, so a longer line plays
    only the deals it lacks, and a run stopped midway keeps every deal it finished (saved at least once a minute, and
    on the way out of an interrupted run)."""
    path = cache / f"{cache_key(config)}.json"
    played: dict[int, list[GameRecord]] = {}
    for record in read_records(path):
        played.setdefault(record["deal"], []).append(GameRecord.from_json(record))
    missing = [deal for deal in range(config.deals) if deal not in played] if play else []
    line = {"script": "compare_bots", "config": asdict(replace(config, games=0))}

    def save() -> None:
        write_records(path, line, [vars(r) for deal in sorted(played) for r in played[deal]])

    if missing:
        saved = time.monotonic()
        try:
            with tqdm(total=len(missing) * config.players, unit="game", desc=config.bots[0]) as bar:
                for batch in iter_deals(config, workers, missing):
                    played[batch[0].deal] = batch
                    bar.update(len(batch))
                    if time.monotonic() - saved > SAVE_EVERY:
                        save()
                        saved = time.monotonic()
        finally:
            save()  # stopped (Ctrl-C) between two saves: the deals finished since the last one are kept too
    return {deal: played[deal] for deal in range(config.deals) if deal in played}


def add_line_options(parser: argparse.ArgumentParser) -> None:
    """The options that name a line but for its arm: the table, the field, the deals and the cache. Every script
    that plays or reads these lines takes them (``line_config``)."""
    from agents.arguments import renamed

    parser.add_argument("--rules", default="dead_last", help="preset name or path to a rules YAML file")
    parser.add_argument("--players", type=int, default=4, help="seats at the table, the arm's included")
    parser.add_argument("--opponents", default="heuristic", metavar="SEATS", help="the other seats: one spec fills "
                        "them all, or a seat list 'a;b;c' (shithead help specs)")  # fmt: skip
    renamed(parser, "--opponent", "--opponents")
    parser.add_argument("--games", type=int, default=400, help="games an arm plays, rounded up to whole deals")
    parser.add_argument("--seed", type=int, default=2026, help="seed of the deals and of the bots' randomness")
    parser.add_argument("--max-decisions", type=int, default=None, metavar="N",
                        help="end a game after N decisions (all seats), the places left split (default: the rules' "
                        "cap); training's evaluations use 600")  # fmt: skip
    parser.add_argument("--cache", metavar="DIR", default="runs/compare_bots",
                        help="each arm's game records are kept here")


def line_config(args: argparse.Namespace, arm: str) -> TournamentConfig:
    """The line of ``arm`` (a bot spec or an arm's label) that the parsed ``add_line_options`` name."""
    if args.games < 1 or (args.max_decisions is not None and args.max_decisions < 1):
        raise ValueError(f"--games and --max-decisions must be positive, got {args.games} and {args.max_decisions}")
    others = field(args.opponents, args.players)
    return TournamentConfig(args.rules, (arm, *others), args.games, args.seed, max_decisions=args.max_decisions)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--arm", action="append", required=True, metavar="SPEC",
                        help="a bot spec to compare (repeatable); the first is the reference")
    add_line_options(parser)
    parser.add_argument("--workers", type=int, default=1, help="worker processes (results do not depend on it)")
    parser.add_argument("--cached", action="store_true", help="play nothing: report the deals every arm already "
                        "has in --cache (a line still being played, or stopped)")


def run(args: argparse.Namespace) -> int:
    if args.workers < 1:
        raise ValueError(f"--workers must be positive, got {args.workers}")
    configs = {spec: line_config(args, spec) for spec in args.arm}  # every arm's line checked before any game
    arms = {spec: arm_deals(config, args.workers, Path(args.cache), play=not args.cached)
            for spec, config in configs.items()}
    others = field(args.opponents, args.players)
    print(table(arms, args.rules, args.players, others, args.seed, args.max_decisions))
    return 0


def table(
    arms: dict[str, dict[int, list[GameRecord]]], rules: str, players: int, others: Sequence[str], seed: int,
    max_decisions: int | None,
) -> str:
    """The Markdown table of the arms (the first the reference) over the deals every arm has played, against the
    ``others`` seats."""
    deals = sorted(set.intersection(*(set(by_deal) for by_deal in arms.values())))
    if not deals:
        raise ValueError("no deal is in --cache for every arm yet (play them, without --cached)")
    rows = []
    reference = None
    for spec, by_deal in arms.items():
        records = [record for deal in deals for record in by_deal[deal]]
        scores = np.array([np.mean([record.scores[0] for record in by_deal[deal]]) for deal in deals])
        reference = scores if reference is None else reference
        score, diff = interval(scores, SCORE_BOUNDS), interval(scores - reference, DIFFERENCE_BOUNDS)
        losses = np.mean([r.places[0] == players - 1 for r in records])
        wins = np.mean([r.places[0] == 0 for r in records])
        ms = 1000 * sum(r.seconds[0] for r in records) / max(1, sum(r.decisions[0] for r in records))
        row = f"| `{spec}` | {format_interval(vars(score))} | "
        row += "reference" if not rows else format_interval(vars(diff))
        row += f" | {wins:.3f} | {losses:.3f} | {ms:.1f} | {sum(r.truncated for r in records)} |"
        rows.append(row)
    return (
        f"\n{rules}, {players} players, against {_described(others)}, {len(deals) * players} games (seed {seed}"
        + (f", capped at {max_decisions} decisions" if max_decisions else "")
        + ")\n"
        "\n| arm | score [95%] | minus the first arm, paired by deal | win rate | loss rate | ms/decision "
        "| games at the cap |"
        "\n|---|---|---|---|---|---|---|\n"
        + "\n".join(rows)
    )


def _described(others: Sequence[str]) -> str:
    if len(set(others)) == 1:
        return f"{len(others)} `{others[0]}`"
    return ", ".join(f"`{spec}`" for spec in others)

