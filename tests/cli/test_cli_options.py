"""One name and one default for an option across commands; old spellings refused naming the new one; bad values
named with the accepted ones, before anything runs."""

from __future__ import annotations

import argparse

import pytest

from agents.remote import MOVE_SECONDS
from shithead_env.cli import SUBCOMMANDS, build_parser, main

RENAMED = [
    (["play", "--bots", "heuristic"], "--bots is now --opponents"),
    (["serve", "--bots", "my_bots"], "--bots is now --models"),
    (["bench", "http://127.0.0.1:1/v1/bots/x", "--move-timeout", "3"], "--move-timeout is now --move-seconds"),
    (["compare", "--arm", "greedy", "--opponent", "random"], "--opponent is now --opponents"),
    (["evaluate", "runs/x", "--opponents", "heuristic"], "--opponents is now --baselines"),
    (["release", "x.zip", "out", "--opponents", "heuristic"], "--opponents is now --baselines"),
]


@pytest.mark.parametrize("argv,message", RENAMED, ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_an_old_spelling_is_refused_with_the_new_one(argv: list[str], message: str, capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv,message",
    [
        (["eval", "--bots", "heuristic,random"], "seats are separated by ';' (',' separates one spec's options): "
                                                 "write 'heuristic;random'"),
        (["play", "--opponents", "heuristic,greedy"], "write 'heuristic;greedy'"),
        (["evaluate", "runs/x", "--baselines", "random,heuristic"], "write 'random;heuristic'"),
        (["eval", "--bots", "random;random", "--scheme", "best"], "invalid choice: 'best' (choose from"),
        (["compare", "--arm", "greedy", "--opp", "random"], "unrecognized arguments: --opp"),  # no abbreviations
    ],
)
def test_a_bad_value_is_named_with_what_is_accepted_before_anything_runs(argv, message, capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(argv)
    assert done.value.code == 2 and message in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv,message",
    [
        (["export", "--checkpoint", "x.zip", "--out", "o", "--rules", "pub"], "--rules and --players go together"),
        (["evaluate", "runs/x", "--tables", "pub:3", "--players", "3"], "give --tables, or --rules with --players"),
        (["evaluate", "runs/x", "--tables", "pub"], "table 'pub': expected PRESET:N[,N...]"),
        (["evaluate", "no/such/run"], "no/such/run: no such checkpoint or run directory"),
        (["release", "no.zip", "out"], "no.zip: no such checkpoint file"),
        (["models", "--models", "no/such/dir"], "--models 'no/such/dir': not a directory"),
        (["help", "grammar"], "no help on 'grammar': choose a topic (specs)"),
        (["compare", "--arm", "greedy", "--games", "0"], "--games and --max-decisions must be positive, got 0"),
    ],
)
def test_a_refusal_at_run_time_is_one_line_that_says_what_to_give(argv, message, capsys) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def options_by_name() -> dict[str, dict[str, argparse.Action]]:
    """option string -> {command: its action}."""
    action = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    found: dict[str, dict[str, argparse.Action]] = {}
    for command, parser in action.choices.items():
        for option in parser._actions:
            for name in option.option_strings:
                if option.help != argparse.SUPPRESS and name != "-h":
                    found.setdefault(name, {})[command] = option
    return found


def test_options_that_mean_the_same_have_one_default() -> None:
    found = options_by_name()
    assert {action.default for action in found["--rules"].values()} <= {"dead_last", None}  # None: --tables's
    games = {command: action for command, action in found["--workers"].items() if command != "serve"}
    assert {action.default for action in games.values()} == {1}  # processes playing games
    assert found["--workers"]["serve"].default is None  # server processes: one per core
    assert {action.default for action in found["--max-decisions"].values()} == {None}  # the rules' cap
    assert found["--move-seconds"]["serve"].default == MOVE_SECONDS
    assert f"(default: {MOVE_SECONDS:g})" in found["--move-seconds"]["bench"].help
    assert set(found["--models"]) == {"serve", "models"}
    assert {found["--models"]["serve"].default} == {found["--models"]["models"].default}
    assert set(found["--bots"]) == {"eval"}  # every seat, in seat order; nowhere else
    assert set(found["--opponents"]) == {"play", "compare"}  # the other seats
    assert set(found["--baselines"]) == {"evaluate", "release"}  # one match against each


def test_every_command_is_listed() -> None:
    assert {"evaluate", "release", "compare", "models", "help"} <= set(SUBCOMMANDS)


def test_models_lists_the_folders_model_auto_chooses_from(capsys) -> None:
    from agents.onnx_bot import PRETRAINED_DIR, auto_model_dirs

    assert main(["models"]) == 0
    out = capsys.readouterr().out
    folders = auto_model_dirs(PRETRAINED_DIR)
    assert folders and all(f" {folder.name}/model.onnx " in out for folder in folders)
