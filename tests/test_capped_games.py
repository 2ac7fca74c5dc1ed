"""benchmarks/capped_games.py: a capped game replayed as it was played, with the arm's root looked at on the way."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

from agents import make_bot
from agents.tournament import TournamentConfig, play_game

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"
_spec = importlib.util.spec_from_file_location("capped_games", BENCHMARKS / "capped_games.py")
capped_games = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(capped_games)

ARM = "guided:sims=8,opponents=auto"  # watch: the look asks the model fit before the bot's own move does


def test_looking_at_the_root_leaves_the_game_as_it_was_played():
    config = TournamentConfig("dead_last", (ARM, "heuristic", "heuristic"), games=3, seed=5, max_decisions=40)
    played = play_game(config, [make_bot(spec) for spec in config.bots], 0, 1)
    look = capped_games.RootLook(make_bot(ARM), 20)
    replayed = play_game(config, [look, *map(make_bot, config.bots[1:])], 0, 1)
    assert played.truncated and vars(replayed) | {"seconds": None} == vars(played) | {"seconds": None}
    head, *moves = look.lines
    assert head.startswith("decision ") and int(head.split()[1].rstrip(":")) >= 20 and "the cap gives it" in head
    assert len(moves) > 1 and all("visits, mean" in move for move in moves)
    visits = [int(move.split(": ")[1].split()[0]) for move in moves]
    assert visits == sorted(visits, reverse=True) and sum(visits) > 0


def test_the_script_reads_the_capped_games_of_a_cached_line(tmp_path):
    line = ["--rules", "dead_last", "--players", "2", "--games", "2", "--max-decisions", "30", "--opponents", "random",
            "--cache", str(tmp_path)]
    subprocess.run([sys.executable, "-m", "shithead_env.cli", "compare", "--arm", "ismcts:sims=10", *line],
                   capture_output=True, text=True, check=True)
    look = [sys.executable, str(BENCHMARKS / "capped_games.py"), "--arm", "ismcts:sims=10", "--at", "10", *line]
    done = subprocess.run(look, capture_output=True, text=True, check=True)
    assert done.stdout.startswith("2 capped games in ")
    assert done.stdout.count("deal 0, seat ") == 2 and done.stdout.count("decision ") == 2
    assert "differs from the record" not in done.stdout
    (path,) = tmp_path.glob("*.json")
    stored = json.loads(path.read_text())
    stored["records"][0]["decisions"][0] += 1  # a record the bot no longer plays
    path.write_text(json.dumps(stored))
    assert subprocess.run(look, capture_output=True, text=True, check=True).stdout.count("differs from the record") == 1
    refused = subprocess.run([sys.executable, str(BENCHMARKS / "capped_games.py"), "--arm", "heuristic", *line],
                             capture_output=True, text=True)
    assert refused.returncode != 0 and "no search bot" in refused.stderr
