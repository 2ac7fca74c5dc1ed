"""``shithead play``: playable end to end through a pipe, robust to bad input and EOF."""

from __future__ import annotations

import argparse
import io
import subprocess
import sys

import pytest

from agents.cli_play import add_arguments, run


def play(stdin: str, *argv: str) -> str:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    out = io.StringIO()
    assert run(parser.parse_args(list(argv)), io.StringIO(stdin), out) == 0
    return out.getvalue()


def test_a_whole_game_through_a_pipe():
    command = [sys.executable, "-m", "shithead_env.cli", "play", "--players", "3", "--bots", "heuristic,greedy"]
    done = subprocess.run([*command, "--seed", "5"], input="1\n" * 3000, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "game over after" in done.stdout and "scores:" in done.stdout
    assert "P1 (heuristic):" in done.stdout and "your moves: [1]" in done.stdout


@pytest.mark.parametrize("preset", ["dead_last", "pub", "power_deck"])
def test_always_answering_1_finishes(preset):
    text = play("1\n" * 3000, "--rules", preset, "--players", "4", "--bots", "greedy", "--seed", "2", "--seat", "2")
    assert "game over after" in text
    assert "P0 (greedy):" in text and "you:" in text


def test_bad_input_gets_a_hint_and_eof_quits_cleanly():
    text = play("banana\n0\n999\n?\n", "--seed", "1")
    assert "'banana' is not a move" in text and "'999' is not a move" in text
    assert "stopped (end of input)" in text


def test_quit_stops_the_game():
    text = play("not a move\nq\n", "--seed", "1", "--bots", "random")
    assert "stopped (quit)" in text


def test_wrong_number_of_bots_is_an_error():
    with pytest.raises(ValueError, match="other seats"):
        play("", "--players", "4", "--bots", "random,random")
