"""benchmarks/model_fit_rates.py: the miss rates agents/model_fit.py weighs, measured with the fit itself."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "model_fit_rates.py"
_spec = importlib.util.spec_from_file_location("model_fit_rates", SCRIPT)
model_fit_rates = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(model_fit_rates)


def test_the_model_itself_misses_almost_never_and_random_play_often():
    model = model_fit_rates.play("heuristic", "heuristic", "heuristic", 6, 2026, "dead_last", 4, None)
    other = model_fit_rates.play("random", "heuristic", "heuristic", 6, 2026, "dead_last", 4, None)
    moves = [move for game in model for move in game]
    assert len(moves) > 200 and sum(miss for _, _, miss in moves) <= 2
    assert all(modelled for _, modelled, _ in moves[:50])
    random_moves = [move for game in other for move in game]
    assert sum(miss for _, _, miss in random_moves) > len(random_moves) / 2
    assert sum(modelled for _, modelled, _ in random_moves) < len(random_moves) / 4  # searched once it has missed


def test_the_script_prints_its_line():
    done = subprocess.run([sys.executable, str(SCRIPT), "--field", "random", "--games", "2"], capture_output=True,
                          text=True, check=True)
    assert "2 games" in done.stdout and "miss share" in done.stdout and "never missed" in done.stdout
