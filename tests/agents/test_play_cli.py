"""``shithead play``: playable end to end through a pipe, robust to bad input and EOF."""

from __future__ import annotations

import argparse
import io
import subprocess
import sys

import pytest

from agents.base import make_bot
from agents.cli_play import add_arguments, run


def play(stdin: str, *argv: str) -> str:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    out = io.StringIO()
    assert run(parser.parse_args(list(argv)), io.StringIO(stdin), out) == 0
    return out.getvalue()


def test_a_whole_game_through_a_pipe():
    command = [sys.executable, "-m", "shithead_env.cli", "play", "--players", "3", "--opponents", "heuristic;greedy"]
    done = subprocess.run([*command, "--seed", "5"], input="1\n" * 3000, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "game over: " in done.stdout and "scores:" in done.stdout
    assert "You are P0; P1 heuristic, P2 greedy." in done.stdout and "your moves: [1]" in done.stdout
    assert "powers: dead_last: 2 on anything, resets;" in done.stdout
    assert "P1 plays " in done.stdout and "you play " in done.stdout and "you put " in done.stdout


@pytest.mark.parametrize("preset", ["dead_last", "pub", "power_deck"])
def test_always_answering_1_finishes(preset):
    text = play("1\n" * 3000, "--rules", preset, "--players", "4", "--opponents", "greedy", "--seed", "2",
                "--seat", "2")
    assert "game over: " in text and "decisions in all" in text
    assert "P0 plays " in text and "you play " in text


def test_bad_input_gets_a_hint_and_eof_quits_cleanly():
    text = play("banana\n0\n999\n?\n", "--seed", "1")
    assert "'banana' is not a move" in text and "'999' is not a move" in text
    assert "stopped (end of input)" in text


def test_quit_stops_the_game():
    text = play("not a move\nq\n", "--seed", "1", "--opponents", "random")
    assert "stopped (quit)" in text


def test_wrong_number_of_bots_is_an_error():
    with pytest.raises(ValueError, match="other seats"):
        play("", "--players", "4", "--opponents", "random;random")


def test_move_names_are_taken_as_shown_in_any_case():
    """The swap offers `face-up <rank>`: typed as shown, upper or lower case, extra spaces."""
    text = play("FACE-UP t\nFace-Up   9\n", "--seed", "1", "--players", "2", "--opponents", "greedy")
    menus = [line for line in text.splitlines() if line.startswith("your moves:")]
    assert "face-up 10" in menus[0] and "face-up 9" in menus[1]  # a ten reads 10, as in the browser
    assert "you put 10" in text and "you put 9" in text
    assert "is not a move" not in text


def test_a_ten_may_be_typed_as_10():
    """The browser and the terminal show a ten as 10 (`face-up 10`, `play 1x10`); the card names' T is taken too."""
    from agents.cli_play import _move_names
    from shithead_env import Action

    names = _move_names()
    assert names["face-up 10"] == names["face-up t"] == Action.face_up("T")
    assert names["play 2x10"] == names["play 2xt"] == Action.play("T", 2)
    assert names["play 1xjoker"] == names["play 1xx"] == Action.play("X", 1)
    text = play("face-up 10\n", "--seed", "1", "--players", "2", "--opponents", "greedy")
    assert "you put 10" in text and "is not a move" not in text


def test_an_illegal_move_gets_the_reason():
    text = play("pickup\nplay 1xK\nnominate 1\nq\n", "--seed", "1", "--players", "2", "--opponents", "greedy")
    assert "'pickup' is not legal now: first choose your face-up cards" in text
    assert "'nominate 1' is not legal now: first choose your face-up cards" in text
    assert "stopped (quit)" in text


def test_the_model_bot_gets_a_short_label():
    pytest.importorskip("onnxruntime")
    text = play("q\n", "--seed", "1", "--opponents", MODEL)
    assert "P1 dead_last_4p, P2 dead_last_4p, P3 dead_last_4p." in text and "/" not in text.splitlines()[0]


MODEL = "model:agents/pretrained/dead_last_4p"


def test_a_model_is_refused_at_a_table_its_card_does_not_cover():
    pytest.importorskip("onnxruntime")
    with pytest.raises(ValueError) as refused:
        play("", "--rules", "power_deck", "--players", "4", "--opponents", MODEL)
    assert str(refused.value) == (
        "bot 'model:agents/pretrained/dead_last_4p' is not made for power_deck with 4 players; "
        "its card covers dead_last 4"
    )
    with pytest.raises(ValueError, match="not made for dead_last with 3 players"):
        play("", "--rules", "dead_last", "--players", "3", "--opponents", MODEL)


def test_the_default_is_the_shipped_model_made_for_the_table():
    pytest.importorskip("onnxruntime")
    text = play("q\n", "--rules", "dead_last", "--players", "4", "--seed", "1")
    assert text.startswith("model:auto plays the other seats: the shipped model ")
    assert "P1 auto, P2 auto, P3 auto." in text


def test_the_default_gives_way_to_heuristic_at_a_table_no_card_covers(tmp_path):
    pytest.importorskip("onnxruntime")
    custom = tmp_path / "pub_no8.yaml"
    custom.write_text('extends: pub\nname: pub_no8\npowers: {"8": []}\n', encoding="utf-8")
    text = play("1\n" * 3000, "--rules", str(custom), "--players", "3", "--seed", "1")
    assert text.splitlines()[0] == (
        "heuristic plays the other seats: bot 'model:auto' is not made for custom rules 'pub_no8' with 3 players; "
        f"its card covers {make_bot('model:auto').coverage()}"
    )
    assert "P1 heuristic, P2 heuristic." in text and "game over: " in text
    with pytest.raises(ValueError, match="not made for custom rules 'pub_no8' with 3 players"):
        play("", "--rules", str(custom), "--players", "3", "--opponents", "model:auto")


def test_eval_refuses_a_model_at_a_table_its_card_does_not_cover():
    pytest.importorskip("onnxruntime")
    from agents.cli_eval import add_arguments as eval_arguments
    from agents.cli_eval import run as eval_run

    parser = argparse.ArgumentParser()
    eval_arguments(parser)
    args = parser.parse_args(["--rules", "pub", "--bots", f"{MODEL};heuristic;heuristic;heuristic", "--games", "2"])
    with pytest.raises(ValueError, match="not made for pub with 4 players; its card covers dead_last 4"):
        eval_run(args)
