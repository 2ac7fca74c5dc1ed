"""``shithead eval``: a duplicate-deal tournament between bots, as a table, JSON and a plot."""

from __future__ import annotations

import argparse
import os


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from agents.arguments import seat_list
    from shithead_env.scoring import SCHEMES

    parser.add_argument("--bots", required=True, type=seat_list, metavar="SEATS",
                        help="one spec a seat, separated by ';', e.g. 'heuristic;random;random;random' "
                        "(shithead help specs)")  # fmt: skip
    parser.add_argument("--rules", default="dead_last", help="preset name or path to a rules YAML file")
    parser.add_argument("--players", type=int, default=None, help="seats at the table (default: one per --bots spec)")
    parser.add_argument("--games", type=int, default=2000, help="rounded up to whole deals (a multiple of --players)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and of the bots' randomness")
    parser.add_argument("--scheme", default="placement", choices=SCHEMES, help="score scheme")
    parser.add_argument("--max-decisions", type=int, default=None, metavar="N",
                        help="end a game after N decisions (all seats), the places left split, as training's "
                        "evaluations do at 600; a looping game costs a search bot minutes (default: the rules' cap, "
                        "5000)")  # fmt: skip
    parser.add_argument("--workers", type=int, default=1, help="worker processes (results do not depend on it)")
    parser.add_argument("--json", metavar="PATH", help="write the summary (and every game) as JSON")
    parser.add_argument("--plot", metavar="PATH", help="write a PNG of scores and head-to-head intervals")
    parser.add_argument("--no-progress", action="store_true", help="hide the progress bar")


def check_writable(path: str, option: str) -> None:
    """Refuse an output path that cannot be written, before the tournament runs (nothing is left behind)."""
    if os.path.isdir(path):
        raise ValueError(f"{option} {path!r} is a directory; give a file path")
    existed = os.path.exists(path)
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as error:
        raise ValueError(f"{option} {path!r} cannot be written: {error.strerror}") from None
    if not existed:
        os.remove(path)


def run(args: argparse.Namespace) -> int:
    import json

    from agents.tournament import TournamentConfig, format_summary, plot_summary, run_tournament
    from shithead_env.extras import require

    bots = args.bots
    players = len(bots) if args.players is None else args.players
    if len(bots) != players:
        raise ValueError(f"--bots names {len(bots)} bot(s) ({'; '.join(bots)}) for --players {players}: give one "
                         "spec a seat")
    if args.games < 1 or args.workers < 1:
        raise ValueError(f"--games and --workers must be positive, got {args.games} and {args.workers}")
    if args.max_decisions is not None and args.max_decisions < 1:
        raise ValueError(f"--max-decisions must be positive, got {args.max_decisions}")
    if args.plot:
        require("matplotlib", "--plot")
    for option, path in (("--json", args.json), ("--plot", args.plot)):
        if path:
            check_writable(path, option)
    config = TournamentConfig(args.rules, tuple(bots), args.games, args.seed, args.scheme, args.max_decisions)
    summary, records = run_tournament(config, args.workers, progress=not args.no_progress)
    print(format_summary(summary))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(summary.to_json(records), out, indent=1)
    if args.plot:
        plot_summary(summary, args.plot)
    return 0
