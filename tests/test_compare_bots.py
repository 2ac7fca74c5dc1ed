"""benchmarks/compare_bots.py: arms on the same deals, paired, and a cache that a longer line extends."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "compare_bots.py"


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
