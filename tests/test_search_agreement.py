"""benchmarks/search_agreement.py: the agreement table a search's noise is read from."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "search_agreement.py"


def test_a_deterministic_bot_agrees_with_itself_everywhere_and_a_random_one_does_not():
    command = [sys.executable, SCRIPT, "--bots", "heuristic;random", "--games", "1"]
    run = subprocess.run(command, capture_output=True, text=True, check=True)
    rows = {line.split("|")[1].strip(): line.split("|")[3].strip() for line in run.stdout.splitlines()[3:]}
    assert rows["`heuristic`"] == "1.000 [1.000, 1.000]"
    assert float(rows["`random`"].split()[0]) < 0.8


def test_one_seed_is_refused_by_name():
    run = subprocess.run([sys.executable, SCRIPT, "--seeds", "1"], capture_output=True, text=True)
    assert run.returncode == 2 and "--seeds must be at least 2" in run.stderr
