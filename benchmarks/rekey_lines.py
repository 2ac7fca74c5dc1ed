"""Name every cache file of shithead compare, hands_seen.py and endgames.py anew from the line it keeps.

A file's name is the key of what its records were played with (agents.compare's ``line_key``: the setup, every bot
option resolved, the files the specs name and the networks played at the table). A new bot option or another
default changes the key of every line that bot plays in, so the records would be played again under the new
name; where the change leaves those lines' play as it was (an option whose default is the old behaviour), this
renames each file to its new key instead, and the lines read as before:

    python benchmarks/rekey_lines.py --cache benchmarks/lines

Prints one line per file renamed; a file written before files kept their line (a bare list of records), or whose
line the code no longer plays (a bot option since removed), is listed with why and left. A name already taken by
another file is refused (nothing is renamed), never overwritten.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from endgames import Endgames, cache_name

from agents import make_bot
from agents.compare import cache_key
from agents.tournament import TournamentConfig


def line_name(line: dict) -> str:
    """The file name (without ``.json``) that a stored line keys to now."""
    if line["script"] == "endgames":
        return cache_name(Endgames(**line["setup"]), line["arm"])
    stored = line["config"]
    config = TournamentConfig(**stored | {"bots": tuple(stored["bots"]), "guarded": tuple(stored["guarded"])})
    return cache_key(config, label_bots)


def label_bots(config: TournamentConfig) -> list:
    """The bots of a line's labels: an arm named by a spec and a tail (hands_seen.py's ``guided+hands``) plays with
    its spec's networks, which is all a key reads of the bots."""
    return [make_bot(label.partition("+")[0]) for label in config.bots]


def renames(cache: Path) -> tuple[dict[Path, Path], dict[Path, str]]:
    """Each file whose name is not its line's key now, with the name it should have; and the files left as they are,
    with why: no line kept, or a line the code no longer plays (an option since removed, a network since moved)."""
    moves, left = {}, {}
    for path in sorted(cache.glob("*.json")):
        stored = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(stored, list):
            left[path] = "no line kept (written before files kept theirs)"
            continue
        try:
            target = path.with_name(f"{line_name(stored['line'])}.json")
        except (ValueError, TypeError, KeyError, FileNotFoundError) as error:  # a field, option or file since gone
            left[path] = f"its line no longer plays here ({error})"
            continue
        if target != path:
            moves[path] = target
    return moves, left


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cache", required=True, help="the folder of cache files (benchmarks/lines, runs/...)")
    parser.add_argument("--dry-run", action="store_true", help="print the renames, make none")
    args = parser.parse_args(argv)
    moves, left = renames(Path(args.cache))
    targets = list(moves.values())
    taken = sorted({t.name for t in targets if (t.exists() and t not in moves) or targets.count(t) > 1})
    if taken:
        sys.exit(f"rekey_lines: nothing renamed: {', '.join(taken)} would hold two lines")
    for path, target in moves.items():
        print(f"{path.name} -> {target.name}")
    if not args.dry_run:
        staged = {path: path.with_suffix(".rekeying") for path in moves}  # two files may swap names
        for path, temporary in staged.items():
            path.rename(temporary)
        for path, target in moves.items():
            staged[path].rename(target)
    for path, why in left.items():
        print(f"{path.name}: left as it is: {why}")
    print(f"{len(moves)} {'to rename' if args.dry_run else 'renamed'}, {len(left)} left")


if __name__ == "__main__":
    main()
