"""``shithead bench``: rate one bot on a fixed, versioned suite (docs/bench.md), or rebuild a suite's leaderboard."""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
from pathlib import Path
from typing import Any

DEFAULT_SUITE = "quick"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from agents.arguments import renamed
    from agents.remote import MOVE_SECONDS

    parser.add_argument(
        "spec", nargs="?", help="the bot: any spec (shithead help specs), e.g. py:path/to/file.py:MyBot, or a served "
        "bot's URL http://HOST:PORT/v1/bots/NAME (omit with --leaderboard)"
    )  # fmt: skip
    parser.add_argument("--suite", default=DEFAULT_SUITE, help="suite name (quick, full) or path to a suite YAML; "
                        "only quick has a published leaderboard to rate against")  # fmt: skip
    parser.add_argument("--out", metavar="DIR", help="write results.json, results.md, results.png and each finished "
                        "match here; rerun with the same DIR to resume")  # fmt: skip
    parser.add_argument("--workers", type=int, default=1, help="worker processes per match (results do not depend "
                        "on it)")  # fmt: skip
    parser.add_argument("--ray", nargs="?", const="local", metavar="ADDRESS", help="play the matches as Ray tasks: "
                        "an embedded local Ray, or the cluster at ADDRESS (results do not depend on it)")  # fmt: skip
    parser.add_argument("--move-seconds", type=float, default=None, metavar="SECONDS",
                        help="a served bot's longest think about one move; a later move is replaced by greedy's "
                        f"(default: {MOVE_SECONDS:g})")  # fmt: skip
    renamed(parser, "--move-timeout", "--move-seconds")
    parser.add_argument("--rate-against", metavar="LEADERBOARD", help="rate against this leaderboard.json "
                        "(what --leaderboard writes) (default: the suite's published one)")  # fmt: skip
    parser.add_argument(
        "--leaderboard",
        action="store_true",
        help="bench every reference bot of the suite and write the leaderboard to --out",
    )
    parser.add_argument(
        "--entry",
        action="append",
        default=[],
        metavar="SPEC",
        help="with --leaderboard: also bench this bot for the leaderboard (repeatable); it is rated against the "
        "field's ratings, which only the reference bots' games fit",
    )
    parser.add_argument(
        "--refresh-cards",
        action="store_true",
        help="write the suite's published leaderboard to --out with each entry's card as its spec makes it today, "
        "every figure kept; refused for an entry that now plays other network files at a table (re-bench it)",
    )
    parser.add_argument(
        "--exploit",
        action="store_true",
        help="also train a fixed-budget PPO best response against the bot (configs/train/exploit.yaml, about 5 "
        "minutes on 2 cores) and report its score against it: how far the bot can be exploited",
    )
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def _slug(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.=-]+", "_", spec).strip("_") or "bot"


def field_ratings_for(suite: Any, path: str | None) -> dict[str, float] | None:
    """The field's ratings: from ``path`` (a leaderboard.json of this suite version), else the published ones."""
    from agents.bench.leaderboard import published_ratings

    if path is not None and not Path(path).is_file():
        raise ValueError(f"--rate-against {path!r}: no such file")
    ratings = published_ratings(suite, path)
    if path is not None and ratings is None:
        raise ValueError(f"--rate-against {path!r} is the leaderboard of another suite or version than "
                         f"{suite.name} v{suite.version}")  # fmt: skip
    return ratings


def _write(directory: Path, stem: str, document: dict[str, Any], markdown: str, plot: Any) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / f"{stem}.json").write_text(json.dumps(document, indent=1) + "\n", encoding="utf-8")
    (directory / f"{stem}.md").write_text(markdown + "\n", encoding="utf-8")
    if importlib.util.find_spec("matplotlib") is None:
        print(f'{stem}.png not written: the plot needs matplotlib (pip install -e ".[plot]")')
        return
    plot(str(directory / f"{stem}.png"))


def _write_leaderboard(directory: Path, board: dict[str, Any]) -> None:
    from agents.bench.report import format_leaderboard, plot_results

    markdown = format_leaderboard(board)
    print(markdown)
    _write(directory, "leaderboard", board, markdown, lambda p: plot_results(board["entries"], p))


def run(args: argparse.Namespace) -> int:
    from agents.base import URL_PREFIXES
    from agents.bench.leaderboard import build_leaderboard, load_leaderboard, refresh_cards
    from agents.bench.report import format_results, plot_results
    from agents.bench.results import bench_results
    from agents.bench.run import bot_identity, play_bench
    from agents.bench.suite import load_suite
    from shithead_env.extras import require

    if args.workers < 1:
        raise ValueError(f"--workers must be positive, got {args.workers}")
    if args.move_seconds is not None and not args.move_seconds > 0:
        raise ValueError(f"--move-seconds must be > 0 seconds, got {args.move_seconds}")
    if [args.leaderboard, args.refresh_cards, args.spec is not None].count(True) != 1:
        raise ValueError("give a bot spec, or --leaderboard (with --out) to bench the whole reference field, or "
                         "--refresh-cards (with --out)")  # fmt: skip
    if args.ray and importlib.util.find_spec("ray") is None:
        raise ValueError('--ray needs Ray, which is not installed: pip install "ray[rllib]==2.60.0" (the rllib extra)')
    suite = load_suite(args.suite)
    options = dict(workers=args.workers, progress=not args.no_progress, ray_address=args.ray)
    out = Path(args.out) if args.out else None

    if args.entry and not args.leaderboard:
        raise ValueError("--entry adds a bot to --leaderboard; to bench one bot, give its spec")
    if args.refresh_cards:
        board = load_leaderboard(suite)
        if out is None or board is None:
            raise ValueError(f"--refresh-cards needs --out DIR and a published leaderboard of {suite.name} "
                             f"v{suite.version}{'' if board else ' (there is none)'}")  # fmt: skip
        _write_leaderboard(out, refresh_cards(suite, board))
        return 0
    if args.leaderboard:
        if out is None:
            raise ValueError("--leaderboard needs --out DIR")
        specs = list(dict.fromkeys([*suite.field, *(spec.strip() for spec in args.entry)]))
        records = {spec: play_bench(suite, spec, out=out / _slug(spec), **options) for spec in specs}
        board = build_leaderboard(suite, records, {spec: bot_identity(spec, suite) for spec in specs})
        _write_leaderboard(out, board)
        return 0

    spec = args.spec.strip()
    if args.move_seconds is not None:
        if not spec.startswith((*URL_PREFIXES, "remote:")):
            raise ValueError(f"--move-seconds applies to a served bot, not {spec!r}: give its URL "
                             "http://HOST:PORT/v1/bots/NAME")  # fmt: skip
        spec = f"remote:{spec.removeprefix('remote:')},timeout={args.move_seconds:g}"
    if args.exploit:
        require("sb3_contrib", "--exploit")
    ratings = field_ratings_for(suite, args.rate_against)  # before any game: a wrong file is refused at once
    records = play_bench(suite, spec, out=out, **options)
    results = bench_results(suite, spec, records, ratings, bot_identity(spec, suite))
    if args.exploit:
        from train.exploit import exploit

        results["exploit"] = exploit(spec, progress=not args.no_progress)
    markdown = format_results(results)
    print(markdown)
    if out is not None:
        _write(out, "results", results, markdown, lambda p: plot_results([results], p))
    return 0
