"""``shithead play``: one human against bots in the terminal (works through a pipe too).

The table is drawn from the human's seat after every move, the legal moves
are numbered, and every bot move is announced. Answer with a number or a move
name (``play 2xK``, ``pickup``); ``?`` lists the moves again, ``q`` quits. Bad
input gets a hint and the prompt again; end of input quits cleanly.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from shithead_env import Action, Rules


# The shipped models (agents/pretrained, docs/shipping.md) need ONNX Runtime; ``model:auto`` seats the one whose
# card covers the table. Without ONNX Runtime, or at a table no shipped card covers, the heuristic plays (said so).
AUTO_SPEC = "model:auto"
_HAS_RUNTIME = importlib.util.find_spec("onnxruntime") is not None


def default_bots(rules: Rules, players: int) -> tuple[str, str]:
    """The default spec of the other seats and a line that says who plays them (and why, for the heuristic)."""
    from agents.base import make_bot, table_rules_name

    if not _HAS_RUNTIME:
        return "heuristic", 'heuristic plays the other seats (the shipped models need pip install -e ".[runtime]")'
    try:
        model = make_bot(AUTO_SPEC).model_for(table_rules_name(rules), players)  # type: ignore[attr-defined]
    except (ValueError, FileNotFoundError) as why:
        return "heuristic", f"heuristic plays the other seats: {why}"
    return AUTO_SPEC, f"{AUTO_SPEC} plays the other seats: the shipped model {model.name!r}, made for this table"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rules", default="dead_last", help="preset name or path to a rules YAML file")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument(
        "--bots",
        default=None,
        help=f"specs of the other seats in seat order, comma separated; one spec fills every seat "
        f"(default: {AUTO_SPEC}, the shipped model whose card covers the table, when ONNX Runtime is installed; "
        "else, or where no card covers the table, heuristic)",
    )
    parser.add_argument("--seat", type=int, default=0, help="your seat")
    parser.add_argument("--seed", type=int, default=None, help="deal seed (default: a fresh random deal)")


class Quit(Exception):
    """The human asked to stop, or the input ended."""


def ask(legal: list[Action], stdin: TextIO, stdout: TextIO) -> Action:
    """Read one choice among ``legal`` (numbered from 1); re-prompt with a hint on bad input."""
    names = [str(a) for a in legal]
    menu = "  ".join(f"[{i}] {name}" for i, name in enumerate(names, 1))
    stdout.write(f"your moves: {menu}\n")
    while True:
        stdout.write("your move> ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            raise Quit("end of input")
        text = line.strip().lower()
        if text in ("q", "quit", "exit"):
            raise Quit("quit")
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        if text in names:
            return legal[names.index(text)]
        if text not in ("?", "h", "help", ""):
            stdout.write(f"'{line.strip()}' is not a move: type a number 1-{len(legal)} or a move name; q quits\n")
        stdout.write(f"your moves: {menu}\n")


def run(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    import numpy as np

    from agents.base import make_bot, require_coverage, split_specs
    from shithead_env import Game, load_rules
    from shithead_env.render import render_game
    from shithead_env.scoring import final_scores

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    rules = load_rules(args.rules)
    rules.check_players(args.players)
    if not 0 <= args.seat < args.players:
        raise ValueError(f"--seat must be 0..{args.players - 1}, got {args.seat}")
    note = ""
    if args.bots is None:
        spec, note = default_bots(rules, args.players)
        specs = [spec]
    else:
        specs = split_specs(args.bots)
    others = [s for s in range(args.players) if s != args.seat]
    if len(specs) == 1:
        specs = specs * len(others)
    if len(specs) != len(others):
        raise ValueError(f"--bots names {len(specs)} bot(s) for the {len(others)} other seats (or give one for all)")
    bots = {seat: make_bot(spec) for seat, spec in zip(others, specs, strict=False)}
    for bot in bots.values():
        require_coverage(bot, rules, args.players)  # a model made for another table: refused in one line
    seed = args.seed if args.seed is not None else int(np.random.SeedSequence().entropy % 2**32)
    rng = np.random.default_rng([seed, 1])
    game = Game.new(rules, args.players, seed=seed)
    out = stdout.write
    if note:
        out(note + "\n")
    out(f"Shithead, {rules.name}, deal seed {seed}. You are P{args.seat}; "
        + ", ".join(f"P{s} {bots[s].spec}" for s in others) + ".\n")
    try:
        while not game.is_over:
            seat = game.current
            if seat == args.seat:
                out("\n" + render_game(game, args.seat) + "\n")
                action = ask(game.legal_actions(), stdin, stdout)
                out(f"you: {action}\n")
            else:
                action = bots[seat].act_game(game, seat, rng)
                out(f"P{seat} ({bots[seat].spec}): {action}\n")
            game.step(action)
    except Quit as why:
        out(f"\nstopped ({why}) after {game.decisions} decisions.\n")
        return 0
    out("\n" + render_game(game, args.seat) + "\n")
    scores = final_scores(game)
    order = " > ".join(("you" if s == args.seat else f"P{s}") for s in game.finish_order)
    verdict = "truncated at the decision cap" if game.truncated else f"finish order: {order}"
    out(f"game over after {game.decisions} decisions; {verdict}\n")
    table = ", ".join(f"P{s} {scores[s]:+.2f}" for s in range(args.players))
    out(f"scores: {table} (you {scores[args.seat]:+.2f})\n")
    return 0
