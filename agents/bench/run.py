"""Play a suite: the bot under test against each reference bot at each table, resumable match by match.

A match is one table and one opponent: a duplicate tournament with the bot in
slot 0 and the opponent in every other slot, over the table's deals, every
deal once with the bot in each seat (``agents.tournament``). The bot sits
behind ``GuardedBot``, so its failures are counted, never fatal. With an
output directory each finished match is written there at once
(``matches/<table>-<opponent>.json``, with the network files both sides
played with), and a rerun with the same directory plays only the matches
still missing: the same records, so the same results. A match on disk played
with other networks (one retrained or added since) is refused, never mixed in.

Matches run one after another, each over ``workers`` processes, or all at
once as Ray tasks (``ray_address``: ``"local"`` starts an embedded Ray, any
other value joins that cluster). Every game's randomness comes from its
table's seed, deal, seating and slot, so the results do not depend on how
they were played.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from agents.bench.suite import Suite, Table, check_deals
from agents.files import write_whole
from agents.tournament import GameRecord, TournamentConfig, play_games

MATCH_DIR = "matches"


@dataclass(frozen=True)
class Match:
    table: int  # index in the suite's tables
    opponent: int  # index in that table's opponents

    def key(self) -> str:
        return f"{self.table}-{self.opponent}"

    def opponent_of(self, suite: Suite) -> str:
        return suite.tables[self.table].opponents[self.opponent]


def bench_matches(suite: Suite) -> list[Match]:
    """Every (table, opponent): a reference bot meets itself too, so every bot's score is against the same field."""
    return [Match(t, o) for t, table in enumerate(suite.tables) for o in range(len(table.opponents))]


def match_config(table: Table, spec: str, opponent: str) -> TournamentConfig:
    bots = (spec,) + (opponent,) * (table.players - 1)
    return TournamentConfig(table.rules, bots, table.deals * table.players, table.seed, guarded=(0,))


def card_of(bot: Any) -> dict[str, Any] | None:
    """A made bot's card (a model's bot.json, a served bot's listing) as JSON, or None for a bot without one."""
    from agents.remote import RemoteBot

    card = bot.remote_card() if isinstance(bot, RemoteBot) else getattr(bot, "card", None)
    return None if card is None else json.loads(json.dumps(card, default=list))


@dataclass(frozen=True)
class BotIdentity:
    """What a bench result names its bot by: its card, and the network files it plays at each of the suite's
    tables (name -> sha256, in table order). A network added for another table changes the card but no table's
    networks, so the results stand."""

    card: dict[str, Any] | None
    networks: list[dict[str, str]]


def identify(bot: Any, suite: Suite) -> BotIdentity:
    """A made bot's identity on ``suite``."""
    from agents.onnx_bot import table_networks

    return BotIdentity(card_of(bot), [table_networks(bot, t.rules, t.players) for t in suite.tables])


def bot_identity(spec: str, suite: Suite) -> BotIdentity:
    """The identity of the bot ``spec`` makes today."""
    from agents.base import make_bot

    return identify(make_bot(spec), suite)


def _match_header(suite: Suite, spec: str, match: Match, identities: Mapping[str, BotIdentity]) -> dict[str, Any]:
    table = suite.tables[match.table]
    opponent = match.opponent_of(suite)
    return {
        "suite": suite.name,
        "suite_version": suite.version,
        "bot": spec,
        "table": table.name,
        "opponent": opponent,
        "networks": {side: identities[s].networks[match.table] for side, s in (("bot", spec), ("opponent", opponent))},
    }


def _load_match(path: Path, header: dict[str, Any]) -> list[GameRecord] | None:
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    expected = {key: value for key, value in header.items() if key != "networks"}
    found = {key: data.get(key) for key in expected}
    if found != expected:
        raise ValueError(f"{path} holds another bench ({found}), not {expected}: give another output directory")
    if data.get("networks") != header["networks"]:
        raise ValueError(f"{path} was not played with the network files {header['bot']} and {header['opponent']} "
                         f"have now (one retrained or added since): give another output directory")
    return [GameRecord.from_json(r) for r in data["records"]]


def _save_match(path: Path, header: dict[str, Any], records: list[GameRecord]) -> None:
    write_whole(path, json.dumps({**header, "records": [asdict(r) for r in records]}))


def play_bench(
    suite: Suite,
    spec: str,
    *,
    workers: int = 1,
    progress: bool = False,
    out: str | Path | None = None,
    ray_address: str | None = None,
) -> dict[Match, list[GameRecord]]:
    """Every match's game records, played or read back from ``out`` (module doc)."""
    check_deals(suite)
    matches = bench_matches(suite)
    configs = {m: match_config(suite.tables[m.table], spec, m.opponent_of(suite)) for m in matches}
    paths = {m: Path(out) / MATCH_DIR / f"{m.key()}.json" for m in matches} if out is not None else {}
    from agents.base import make_bot

    made = {s: make_bot(s) for s in dict.fromkeys([spec, *(m.opponent_of(suite) for m in matches)])}  # once each
    identities = {s: identify(bot, suite) for s, bot in made.items()}
    done: dict[Match, list[GameRecord]] = {}
    for m, path in paths.items():
        records = _load_match(path, _match_header(suite, spec, m, identities))
        if records is not None:
            done[m] = records
    todo = [m for m in matches if m not in done]
    _check_bots(made, todo, configs)

    def finished(match: Match, records: list[GameRecord]) -> None:
        done[match] = records
        if match in paths:
            _save_match(paths[match], _match_header(suite, spec, match, identities), records)

    from tqdm import tqdm

    total = sum(configs[m].deals * configs[m].players for m in matches)
    with tqdm(total=total, unit="game", disable=not progress, smoothing=0.05, desc=f"{suite.name}: {spec}") as bar:
        bar.update(total - sum(configs[m].deals * configs[m].players for m in todo))
        if ray_address is None:
            for m in todo:
                finished(m, play_games(configs[m], workers, bar=bar))
        else:
            _play_on_ray([(m, configs[m]) for m in todo], ray_address, finished, bar)
    return {m: done[m] for m in matches}


def _check_bots(made: Mapping[str, Any], todo: Iterable[Match], configs: dict[Match, TournamentConfig]) -> None:
    """Fail fast, in this process, on a bot that does not cover a table it must play."""
    from agents.base import require_coverage
    from shithead_env import load_rules

    for m in todo:
        config = configs[m]
        for name in dict.fromkeys(config.bots):
            require_coverage(made[name], load_rules(config.rules), config.players)


def _play_on_ray(
    jobs: list[tuple[Match, TournamentConfig]],
    address: str,
    finished: Callable[[Match, list[GameRecord]], None],
    bar: Any,
) -> None:
    """One Ray task per match; each result is kept (and written) as soon as it arrives."""
    import ray

    started = not ray.is_initialized()
    if started:
        ray.init(address=None if address == "local" else address, include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(play_games)
        pending = {remote.remote(config): (m, config) for m, config in jobs}
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            m, config = pending.pop(ready[0])
            finished(m, ray.get(ready[0]))
            bar.update(config.deals * config.players)
    finally:
        if started:
            ray.shutdown()
