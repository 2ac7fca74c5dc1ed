"""Shithead-Bench suites: versioned data files of tables, deal seeds and a fixed reference field.

A suite (``configs/bench/<name>.yaml``, shipped as ``agents/bench/suites``)
lists tables; each names its rules preset, player count, number of deals,
deal seed, the reference bots the bot under test meets there and the SHA-256
of every dealt card (``cards_sha256``). A bench refuses a suite whose deals
this engine no longer reproduces: results are comparable only on the same
cards, so an engine change that alters the deals needs a new suite version.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from agents.tournament import deal_seed
from shithead_env import Game, load_rules
from shithead_env.cards import card_names

_PROJECT_SUITES = Path(__file__).resolve().parents[2] / "configs" / "bench"
_PACKAGED_SUITES = Path(__file__).resolve().parent / "suites"
SUITE_DIR = _PACKAGED_SUITES if _PACKAGED_SUITES.is_dir() else _PROJECT_SUITES
TABLE_KEYS = {"rules", "players", "deals", "seed", "opponents", "cards_sha256"}
SUITE_KEYS = {"name", "version", "description", "anchor", "tables"}


@dataclass(frozen=True)
class Table:
    """One table of a suite: the bot under test meets each opponent on the same ``deals`` deals."""

    rules: str
    players: int
    deals: int
    seed: int
    opponents: tuple[str, ...]
    cards_sha256: str

    @property
    def name(self) -> str:
        return f"{self.rules}/{self.players}"


@dataclass(frozen=True)
class Suite:
    name: str
    version: int
    description: str
    anchor: str  # the reference bot rated 0: ratings are Elo differences from it
    tables: tuple[Table, ...]

    @property
    def field(self) -> list[str]:
        """The reference bots, each once, in order of first appearance."""
        return list(dict.fromkeys(spec for table in self.tables for spec in table.opponents))


def suite_names() -> list[str]:
    return sorted(p.stem for p in SUITE_DIR.glob("*.yaml"))


def load_suite(name: str | Path) -> Suite:
    """A shipped suite by name, or a suite file by path; a clear error names what is wrong."""
    path = Path(name)
    if not path.suffix:
        path = SUITE_DIR / f"{name}.yaml"
        if not path.is_file():
            raise ValueError(f"unknown suite {str(name)!r}: choose one of {', '.join(suite_names())} or give a path")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise ValueError(f"suite {str(path)!r} cannot be read: {error.strerror}") from None
    return suite_from_dict(data, str(path))


def suite_from_dict(data: Any, where: str) -> Suite:
    if not isinstance(data, dict) or set(data) != SUITE_KEYS:
        raise ValueError(f"suite {where}: needs exactly the keys {', '.join(sorted(SUITE_KEYS))}")
    tables = data["tables"]
    if not isinstance(tables, list) or not tables:
        raise ValueError(f"suite {where}: 'tables' must be a non-empty list")
    suite = Suite(
        name=str(data["name"]),
        version=_positive(data["version"], f"suite {where}: version"),
        description=str(data["description"]),
        anchor=str(data["anchor"]),
        tables=tuple(_table(t, f"suite {where}, table {i}") for i, t in enumerate(tables)),
    )
    if suite.anchor not in suite.field:
        raise ValueError(f"suite {where}: anchor {suite.anchor!r} is none of the reference bots")
    return suite


def _table(data: Any, where: str) -> Table:
    if not isinstance(data, dict) or set(data) != TABLE_KEYS:
        raise ValueError(f"{where}: needs exactly the keys {', '.join(sorted(TABLE_KEYS))}")
    opponents = data["opponents"]
    if not isinstance(opponents, list) or not opponents or not all(isinstance(s, str) for s in opponents):
        raise ValueError(f"{where}: 'opponents' must be a non-empty list of bot specs")
    if len(set(opponents)) != len(opponents):
        raise ValueError(f"{where}: an opponent is listed twice")
    table = Table(
        rules=str(data["rules"]),
        players=_positive(data["players"], f"{where}: players"),
        deals=_positive(data["deals"], f"{where}: deals"),
        seed=_positive(data["seed"], f"{where}: seed", minimum=0),
        opponents=tuple(opponents),
        cards_sha256=str(data["cards_sha256"]),
    )
    load_rules(table.rules).check_players(table.players)
    return table


def _positive(value: Any, where: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"{where} must be an integer >= {minimum}, got {value!r}")
    return value


def cards_digest(table: Table) -> str:
    """SHA-256 of every card of every deal of ``table`` as dealt (hands, face down, draw pile), dealer, opener."""
    digest = hashlib.sha256()
    for deal in range(table.deals):
        game = Game.new(table.rules, table.players, seed=deal_seed(table.seed, deal))
        dealt = {
            "hands": [card_names(cards) for cards in game.hands],
            "face_down": [card_names(cards) for cards in game.face_down],
            "draw_pile": card_names(game.draw_pile),
            "dealer": game.dealer,
            "opener": game.opener,
        }
        digest.update(json.dumps(dealt, separators=(",", ":")).encode())
    return digest.hexdigest()


def check_deals(suite: Suite) -> None:
    """Refuse a suite whose deals this engine does not reproduce (module doc)."""
    for table in suite.tables:
        if cards_digest(table) != table.cards_sha256:
            raise ValueError(
                f"suite {suite.name} v{suite.version}, table {table.name}: this engine deals other cards than the "
                "suite was made with; its results would not compare (make a new suite version)"
            )
