"""benchmarks/endgames.py: positions with few seats left, each arm from every one of them, paired and kept."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from agents import make_bot

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "endgames.py"
_spec = importlib.util.spec_from_file_location("endgames", SCRIPT)
endgames = importlib.util.module_from_spec(_spec)
sys.modules["endgames"] = endgames  # its dataclass looks its module up while the module runs
_spec.loader.exec_module(endgames)


@pytest.mark.parametrize("seats", [2, 3])
def test_a_position_is_the_deal_played_until_only_that_many_seats_hold_cards(seats):
    setup = endgames.Endgames(players=5, seats=seats)
    game = endgames.position(setup, 4, make_bot("heuristic"))
    assert sum(game.active) == seats and len(game.finish_order) == 5 - seats and not game.is_over
    again = endgames.position(setup, 4, make_bot("heuristic"))
    assert again.hands == game.hands and again.decisions == game.decisions  # the same for every arm


def test_the_arm_plays_a_position_once_from_each_seat_left():
    setup = endgames.Endgames(seats=3, opponent="random")
    records = endgames.play(setup, make_bot("greedy"), make_bot("random"), make_bot("heuristic"), 1)
    start = endgames.position(setup, 1, make_bot("heuristic"))
    assert [r["seat"] for r in records] == [s for s in range(4) if start.active[s]]
    assert all(r["decisions"] > 0 and -1 <= r["score"] <= 1 for r in records)


def run(cache: Path, *args: str) -> dict[str, list[str]]:
    """The printed table's cells by arm."""
    command = [sys.executable, SCRIPT, "--arm", "random", "--arm", "heuristic", "--opponent", "random",
               "--cache", str(cache), *args]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rows = [row.split("|") for row in out.split("|---|---|---|---|---|---|\n")[1].split("\n") if row]
    return {cells[1].strip(" `"): [cell.strip() for cell in cells[2:-1]] for cells in rows}


def test_arms_are_paired_by_position_and_a_longer_run_plays_only_the_positions_it_lacks(tmp_path):
    first = run(tmp_path, "--positions", "30")
    assert first["random"][1] == "reference"
    assert first["heuristic"][1].startswith("+")  # heuristic finishes two-seat endgames better than random
    records = {path: json.loads(path.read_text())["records"] for path in tmp_path.glob("endgames-*.json")}
    dealer, setup = make_bot("heuristic"), endgames.Endgames(opponent="random")
    reached = {i for i in range(30) if endgames.position(setup, i, dealer) is not None}  # the cap may end a deal first
    assert len(records) == 2 and all({r["position"] for r in line} == reached for line in records.values())
    assert run(tmp_path, "--positions", "30", "--cached") == first
    run(tmp_path, "--positions", "32")
    for path, line in records.items():
        assert json.loads(path.read_text())["records"][: len(line)] == line  # the first positions kept as played


def test_bad_arguments_are_refused_in_one_line_before_anything_is_played(tmp_path):
    for args, named in ((["--seats", "4"], "--seats must be 2..3 at 4 players, got 4"),
                        (["--arm", "nobot"], "unknown bot 'nobot'"),
                        (["--opponent", "nobot"], "unknown bot 'nobot'")):
        command = [sys.executable, SCRIPT, "--arm", "random", *args, "--positions", "1", "--cache", str(tmp_path)]
        out = subprocess.run(command, capture_output=True, text=True)
        assert out.returncode != 0 and named in out.stderr and out.stderr.count("\n") == 1
    assert not list(tmp_path.iterdir())
