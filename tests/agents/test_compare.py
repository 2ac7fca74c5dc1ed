"""``shithead compare``: arms on the same deals, paired, and a cache that a longer line extends."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from functools import partial
from pathlib import Path

import pytest

import agents.base
from agents import compare as compare_bots
from agents.base import make_bot
from agents.tournament import TournamentConfig

COMMAND = [sys.executable, "-m", "shithead_env.cli", "compare"]


def compare(cache: Path, *args: str) -> dict[str, list[str]]:
    """The printed table's cells by arm."""
    command = [*COMMAND, "--arm", "greedy", "--arm", "heuristic", "--cache", str(cache), *args]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    table = out.split("|---|---|---|---|---|---|---|\n")[1]
    rows = [row.split("|") for row in table.split("\n") if row]
    return {cells[1].strip(" `"): [cell.strip() for cell in cells[2:-1]] for cells in rows}


def test_arms_share_deals_and_a_longer_line_plays_only_the_deals_it_lacks(tmp_path):
    first = compare(tmp_path, "--games", "8", "--opponents", "random")
    assert first["greedy"][1] == "reference"
    assert first["heuristic"][1].startswith("+")  # heuristic beats greedy against random seats, paired by deal
    win, loss = float(first["heuristic"][2]), float(first["heuristic"][3])
    assert 0 <= loss < win <= 1
    records = {path: compare_bots.read_records(path) for path in tmp_path.glob("*.json")}
    assert len(records) == 2 and all({r["deal"] for r in line} == {0, 1} for line in records.values())
    assert compare(tmp_path, "--games", "8", "--opponents", "random", "--cached") == first
    longer = compare(tmp_path, "--games", "12", "--opponents", "random")
    for path, line in records.items():
        again = compare_bots.read_records(path)
        assert {r["deal"] for r in again} == {0, 1, 2} and again[: len(line)] == line  # the first deals kept as played
    assert longer != first


def test_a_stopped_run_keeps_every_deal_it_finished(tmp_path, monkeypatch):
    config = TournamentConfig("dead_last", ("greedy", "random", "random"), games=9, seed=1)
    real = compare_bots.iter_deals

    def stopped(*args, **kwargs):
        deals = real(*args, **kwargs)
        yield next(deals)
        raise KeyboardInterrupt  # Ctrl-C while the second deal plays, well within a minute of the start

    monkeypatch.setattr(compare_bots, "iter_deals", stopped)
    with pytest.raises(KeyboardInterrupt):
        compare_bots.arm_deals(config, 1, tmp_path)
    (path,) = tmp_path.glob("*.json")
    assert {record["deal"] for record in compare_bots.read_records(path)} == {0}


def test_a_mixed_field_seats_one_spec_a_seat_and_a_wrong_count_is_refused_by_name(tmp_path):
    mixed = compare(tmp_path, "--games", "4", "--opponents", "random; greedy;heuristic")
    assert mixed["greedy"][1] == "reference" and set(mixed) == {"greedy", "heuristic"}
    lines = [json.loads(path.read_text())["line"]["config"]["bots"] for path in tmp_path.glob("*.json")]
    assert sorted(lines) == [[arm, "random", "greedy", "heuristic"] for arm in ("greedy", "heuristic")]
    assert compare_bots.field("random; greedy;heuristic", 4) == ("random", "greedy", "heuristic")
    assert compare_bots.field("heuristic", 4) == ("heuristic",) * 3  # one spec: every other seat
    with pytest.raises(ValueError, match="seat list 'random;;greedy' has an empty spec"):
        compare_bots.field("random;;greedy", 4)
    command = [*COMMAND, "--arm", "greedy", "--opponents", "random;greedy", "--cache", str(tmp_path / "refused")]
    refused = subprocess.run(command, capture_output=True, text=True)
    assert refused.returncode == 2 and not (tmp_path / "refused").exists()
    assert "--opponents 'random;greedy' names 2 seats; a mixed field names one spec for each of the 3" in refused.stderr


def test_a_spec_naming_a_file_is_cached_by_the_files_contents(tmp_path):
    cache_key = compare_bots.cache_key
    plain = TournamentConfig("dead_last", ("heuristic", "random", "random", "random"), 8, seed=3)
    assert cache_key(plain) == cache_key(replace(plain, games=400))  # a longer line extends the same records
    network = tmp_path / "last.zip"
    network.write_bytes(b"weights of step 600k")
    arm = replace(plain, bots=(f"policy:{network}", "random", "random", "random"))
    folder = replace(plain, bots=(f"guided:value={tmp_path}", "random", "random", "random"))

    def key(config: TournamentConfig) -> str:  # the line's key with no bots built: no bot could load these files
        return compare_bots.line_key("line", config.bots, [], config.rules, config.players)

    before = key(arm), key(folder)
    network.write_bytes(b"weights of step 2.4M")  # retrained under the same path
    assert key(arm) != before[0] and key(folder) != before[1]


class Shipped:
    """A bot that plays one network at every table, as ``guided``'s ``value=auto`` does."""

    def __init__(self, sha256: str) -> None:
        self.sha256 = sha256

    def networks_at(self, rules: str, players: int) -> dict[str, str]:
        return {"value_dead_last_4p:fp16w": self.sha256}  # the shipped form, as guided names it


def test_a_shipped_network_replaced_under_the_same_spec_changes_the_key():
    config = TournamentConfig("dead_last", ("guided", "heuristic", "heuristic", "heuristic"), 8, seed=3)

    def key(bots: list) -> str:
        return compare_bots.line_key("line", config.bots, bots, config.rules, config.players)

    assert len({key([Shipped("aa" * 32)]), key([Shipped("bb" * 32)]), key([])}) == 3
    guided = make_bot("guided")  # the real one: its key covers the network it plays at this table
    assert key([guided]) == key([Shipped(guided.card["networks"]["value_dead_last_4p:fp16w"])]) != key([])


def test_a_spec_is_keyed_by_every_option_so_a_changed_default_plays_again(monkeypatch):
    config = TournamentConfig("dead_last", ("ismcts:sims=600", "heuristic", "heuristic", "heuristic"), 8, seed=3)
    named = replace(config, bots=("ismcts:c=0.70,sims=0600", *config.bots[1:]))
    before = compare_bots.cache_key(config)
    assert compare_bots.cache_key(named) == before  # the same bot, its default spelt out: the same records
    real = agents.base.bot_class
    changed = {"ismcts": partial(real("ismcts"), c=0.5)}
    monkeypatch.setattr(agents.base, "bot_class", lambda kind: changed.get(kind) or real(kind))
    assert compare_bots.cache_key(config) != before  # ismcts's default c changed: its line plays again
    assert compare_bots.cache_key(named) == before  # the spec that names c=0.7 still replays its records
