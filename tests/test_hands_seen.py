"""benchmarks/hands_seen.py: the searcher's deals hold the other hands as they are, and nothing else it cannot see."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import numpy as np

from agents import make_bot
from shithead_env import Game, Knowledge
from shithead_env.determinize import Determinizer
from shithead_env.phases import PLAY

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "hands_seen.py"
_spec = importlib.util.spec_from_file_location("hands_seen", SCRIPT)
hands_seen = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hands_seen)
HandsSeen = hands_seen.HandsSeenDeterminizer


def position() -> Game:
    """A 4-player game in play whose hands still hold cards nobody has seen."""
    game, heuristic, rng = Game.new("dead_last", 4, seed=3), make_bot("heuristic"), np.random.default_rng(0)
    while game.phase != PLAY or game.decisions < 24:
        game.step(heuristic.act_game(game, game.current, rng))
    return game


def test_the_other_hands_are_dealt_as_they_are_and_the_unseen_rest_is_sampled():
    game = position()
    seat = game.current
    knowledge = Knowledge.from_game(game, seat)
    others = [s for s in range(4) if s != seat]
    assert any(len(game.hands[s]) > len(game.known[s]) for s in others)  # something to see
    rng = np.random.default_rng(1)
    unseen = sorted(card for s in range(4) for card in game.face_down[s]) + sorted(game.draw_pile)
    seen = HandsSeen(knowledge, game.hands)
    plain = Determinizer(knowledge)
    plain_hands_differ = False
    for _ in range(5):
        sample = seen.sample(rng)
        assert all(sorted(sample.hands[s]) == sorted(game.hands[s]) for s in range(4))
        assert sample.known == game.known and sample.narrowed == game.narrowed  # what the table has seen
        assert sorted([*(c for s in range(4) for c in sample.face_down[s]), *sample.draw_pile]) == sorted(unseen)
        plain_hands_differ |= any(sorted(plain.sample(rng).hands[s]) != sorted(game.hands[s]) for s in others)
    assert plain_hands_differ


def test_a_search_bot_seeing_hands_searches_the_true_hands_and_still_plays_legally():
    bot = hands_seen.hands_seen(make_bot("ismcts:sims=8"))
    game = position()
    action = bot.act_game(game, game.current, np.random.default_rng(0))
    assert game.is_legal(action)
    assert bot.read is game.hands


def test_the_script_pairs_the_arms_keeps_them_and_refuses_a_bot_that_does_not_search(tmp_path):
    command = [sys.executable, SCRIPT, "--bot", "ismcts:sims=10", "--opponents", "random", "--games", "4",
               "--cache", str(tmp_path)]
    out = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rows = {line.split("|")[1].strip(" `"): line.split("|")[3].strip() for line in out.splitlines()
            if line.startswith("| `")}
    assert rows["ismcts:sims=10"] == "reference" and rows["ismcts:sims=10+hands"][0] in "+-"
    assert len(list(tmp_path.glob("*.json"))) == 2  # each arm's records, under its own name
    cached = subprocess.run([*command, "--cached"], capture_output=True, text=True, check=True).stdout
    assert cached == out
    run = subprocess.run([sys.executable, SCRIPT, "--bot", "heuristic", "--games", "4"], capture_output=True, text=True)
    assert run.returncode == 1 and "--bot must be a search bot (ismcts, guided), got 'heuristic'" in run.stderr
