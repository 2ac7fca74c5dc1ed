"""The published leaderboard of a suite: every reference bot benched by the same command, and the field's ratings.

``agents/bench/leaderboard/<suite>.json`` holds one results document per
reference bot and ``field_ratings``: a Bradley-Terry fit over all their
matches, with the suite's anchor at 0. Any other bot is rated against those
ratings (``agents.bench.results.rating``), so benching a new bot never moves
the published numbers; the leaderboard's entries beside the field (the
strongest bots, the difficulty levels: ``--entry``) are rated the same way.
``shithead bench --leaderboard`` rebuilds it. Each entry records the network
files its bot played at each table; ``shithead bench --refresh-cards`` brings
the entries' cards up to date without a replay where those are unchanged.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from agents.bench.results import bench_results, field_ratings
from agents.bench.run import BotIdentity, Match, bot_identity
from agents.bench.suite import Suite
from agents.registry import equal_forms
from agents.tournament import GameRecord
from shithead_env import __version__

LEADERBOARD_DIR = Path(__file__).resolve().parent / "leaderboard"
LEADERBOARD_FORMAT = 1


def leaderboard_path(suite: Suite) -> Path:
    return LEADERBOARD_DIR / f"{suite.name}.json"


def load_leaderboard(suite: Suite, path: str | Path | None = None) -> dict[str, Any] | None:
    """The published leaderboard of this suite version, or None when there is none for it."""
    path = Path(path) if path is not None else leaderboard_path(suite)
    if not path.is_file():
        return None
    board = json.loads(path.read_text(encoding="utf-8"))
    if board.get("suite") != {"name": suite.name, "version": suite.version}:
        return None
    return board


def published_ratings(suite: Suite, path: str | Path | None = None) -> dict[str, float] | None:
    """The field's ratings in the leaderboard at ``path`` (default: the published one), None when it is not this
    suite version's."""
    board = load_leaderboard(suite, path)
    return None if board is None else dict(board["field_ratings"])


def build_leaderboard(
    suite: Suite,
    records: Mapping[str, Mapping[Match, Sequence[GameRecord]]],
    identities: Mapping[str, BotIdentity],
) -> dict[str, Any]:
    """Every bot's results, rated against the field's ratings: fitted from the reference bots' games only, so an
    entry beside the field (a bot benched for the leaderboard, ``--entry``) moves no published number."""
    unrated = [bench_results(suite, spec, records[spec], None, identities[spec]) for spec in suite.field]
    ratings = field_ratings(unrated, suite.anchor)
    return {
        "format": "shithead-bench-leaderboard",
        "format_version": LEADERBOARD_FORMAT,
        "suite": {"name": suite.name, "version": suite.version},
        "package_version": __version__,
        "anchor": suite.anchor,
        "field_ratings": ratings,
        "entries": [bench_results(suite, spec, recs, ratings, identities[spec]) for spec, recs in records.items()],
    }


def same_networks(recorded: Mapping[str, str] | None, today: Mapping[str, str] | None) -> bool:
    """Whether a table's recorded network files are the ones played today: the same names and sha256s, where a
    shipped form measured equal to its original stands for it (``agents.registry.equal_forms``)."""
    if recorded is None or today is None:
        return recorded == today
    originals = equal_forms()

    def as_originals(networks: Mapping[str, str]) -> dict[str, str]:
        return dict(originals.get(item, item) for item in networks.items())

    return dict(recorded) == dict(today) or as_originals(recorded) == as_originals(today)


def refresh_cards(suite: Suite, board: Mapping[str, Any]) -> dict[str, Any]:
    """``board`` with each entry's card as its spec makes it today, every figure kept. Only an entry whose bot
    plays the same network files at every table as when it was benched (``same_networks``) is refreshed (a
    network was added for a table outside the suite, say); for any other, ``ValueError`` names the table:
    re-bench it."""
    entries = []
    for entry in board["entries"]:
        today = bot_identity(entry["bot"], suite)
        for table, networks in zip(entry["tables"], today.networks, strict=True):
            if not same_networks(table.get("networks"), networks):
                raise ValueError(
                    f"{entry['bot']} plays other network files at {table['rules']} with {table['players']} players "
                    f"than it was benched with ({table.get('networks')}, now {networks}): re-bench it"
                )
        entries.append({**entry, "card": today.card})
    return {**board, "entries": entries}
