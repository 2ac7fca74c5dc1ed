"""benchmarks/compare_bots.py: arms on the same deals, paired, and a cache that a longer line extends."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from agents.tournament import TournamentConfig

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "compare_bots.py"
_spec = importlib.util.spec_from_file_location("compare_bots", SCRIPT)
compare_bots = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compare_bots)


def compare(cache: Path, *args: str) -> dict[str, list[str]]:
    """The printed table's cells by arm."""
    command = [sys.executable, SCRIPT, "--arm", "greedy", "--arm", "heuristic", "--cache", str(cache), *args]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    table = out.split("|---|---|---|---|---|---|---|\n")[1]
    rows = [row.split("|") for row in table.split("\n") if row]
    return {cells[1].strip(" `"): [cell.strip() for cell in cells[2:-1]] for cells in rows}


def test_arms_share_deals_and_a_longer_line_plays_only_the_deals_it_lacks(tmp_path):
    first = compare(tmp_path, "--games", "8", "--opponent", "random")
    assert first["greedy"][1] == "reference"
    assert first["heuristic"][1].startswith("+")  # heuristic beats greedy against random seats, paired by deal
    win, loss = float(first["heuristic"][2]), float(first["heuristic"][3])
    assert 0 <= loss < win <= 1
    records = {path: json.loads(path.read_text()) for path in tmp_path.glob("*.json")}
    assert len(records) == 2 and all({r["deal"] for r in line} == {0, 1} for line in records.values())
    assert compare(tmp_path, "--games", "8", "--opponent", "random", "--cached") == first
    longer = compare(tmp_path, "--games", "12", "--opponent", "random")
    for path, line in records.items():
        again = json.loads(path.read_text())
        assert {r["deal"] for r in again} == {0, 1, 2} and again[: len(line)] == line  # the first deals kept as played
    assert longer != first


def test_a_spec_naming_a_file_is_cached_by_the_files_contents(tmp_path):
    cache_key = compare_bots.cache_key
    plain = TournamentConfig("dead_last", ("heuristic", "random", "random", "random"), 8, seed=3)
    assert cache_key(plain) == cache_key(replace(plain, games=400))  # a longer line extends the same records
    network = tmp_path / "last.zip"
    network.write_bytes(b"weights of step 600k")
    arm = replace(plain, bots=(f"policy:{network}", "random", "random", "random"))
    folder = replace(plain, bots=(f"guided:value={tmp_path}", "random", "random", "random"))
    before = cache_key(arm), cache_key(folder)
    network.write_bytes(b"weights of step 2.4M")  # retrained under the same path
    assert cache_key(arm) != before[0] and cache_key(folder) != before[1]
