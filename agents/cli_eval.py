"""``shithead eval``: a duplicate-deal tournament between bots, as a table, JSON and a plot."""

from __future__ import annotations

import argparse


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="dead_last", help="preset name or path to a rules YAML file")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--bots", required=True, help="one spec per seat, comma separated, e.g. heuristic,random,random,random "
        "(options after ':' separated by ','; separate such specs with ';')"
    )
    parser.add_argument("--games", type=int, default=2000, help="rounded up to whole deals (a multiple of --players)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--scheme", default="placement", help="score scheme: placement or loser_only")
    parser.add_argument("--workers", type=int, default=1, help="worker processes (results do not depend on it)")
    parser.add_argument("--json", metavar="PATH", help="write the summary (and every game) as JSON")
    parser.add_argument("--plot", metavar="PATH", help="write a PNG of scores and head-to-head intervals")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def run(args: argparse.Namespace) -> int:
    import json

    from agents.base import split_specs
    from agents.tournament import TournamentConfig, format_summary, plot_summary, run_tournament

    bots = split_specs(args.bots)
    if len(bots) != args.players:
        raise ValueError(f"--bots names {len(bots)} bot(s) ({', '.join(bots)}) for --players {args.players}")
    if args.games < 1 or args.workers < 1:
        raise ValueError("--games and --workers must be positive")
    config = TournamentConfig(args.rules, tuple(bots), args.games, args.seed, args.scheme)
    summary, records = run_tournament(config, args.workers, progress=not args.no_progress)
    print(format_summary(summary))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(summary.to_json(records), out, indent=1)
    if args.plot:
        plot_summary(summary, args.plot)
    return 0
