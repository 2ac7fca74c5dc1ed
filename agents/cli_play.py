"""``shithead play``: one human against bots in the terminal (works through a pipe too).

The table is drawn from the human's seat before each of its decisions, the
legal moves are numbered, and everything that happens is narrated from the
public events (``shithead_env.events``): what every bot played, the card a flip
revealed, pickups, draws, burns and skips. Answer with a number or a move name
as shown (``play 2xK``, ``face-up 10``, any case; a ten also as ``T``, a Joker as ``X``); a move that is not legal now
gets the reason; ``?`` lists the moves again, ``q`` quits. End of input quits cleanly.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from agents.base import Bot
    from shithead_env import Action, Game, Rules


# The shipped models (agents/pretrained, docs/shipping.md) need ONNX Runtime; ``model:auto`` seats the one whose
# card covers the table. Without ONNX Runtime, or at a table no shipped card covers, the heuristic plays (said so).
AUTO_SPEC = "model:auto"
_HAS_RUNTIME = importlib.util.find_spec("onnxruntime") is not None


def default_bots(rules: Rules, players: int) -> tuple[str, str]:
    """The default spec of the other seats and a line that says who plays them (and why, for the heuristic)."""
    from agents.base import make_bot, table_mismatch, table_rules_name

    if not _HAS_RUNTIME:
        return "heuristic", 'heuristic plays the other seats (the shipped models need pip install -e ".[runtime]")'
    try:
        auto = make_bot(AUTO_SPEC)
    except FileNotFoundError as why:
        return "heuristic", f"heuristic plays the other seats: {why}"
    reason = table_mismatch(auto, rules, players)
    if reason:
        return "heuristic", f"heuristic plays the other seats: {reason}"
    model = auto.model_for(table_rules_name(rules), players)  # type: ignore[attr-defined]
    return AUTO_SPEC, f"{AUTO_SPEC} plays the other seats: the shipped model {model.name!r}, made for this table"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from agents.arguments import renamed, seat_list

    parser.add_argument("--rules", default="dead_last", help="preset name or path to a rules YAML file")
    parser.add_argument("--players", type=int, default=4, help="seats at the table, yours included")
    parser.add_argument(
        "--opponents",
        type=seat_list,
        default=None,
        metavar="SEATS",
        help="the other seats in seat order: one spec fills them all, or a seat list 'a;b;c' (shithead help specs) "
        f"(default: {AUTO_SPEC}, the shipped model whose card covers the table, when ONNX Runtime is installed; "
        "else, or where no card covers the table, heuristic)",
    )
    renamed(parser, "--bots", "--opponents (the other seats, separated by ';')")
    parser.add_argument("--seat", type=int, default=0, help="your seat")
    parser.add_argument("--seed", type=int, default=None, help="deal seed (default: a fresh random deal)")


class Quit(Exception):
    """The human asked to stop, or the input ended."""


def _move_names() -> dict[str, Action]:
    """Every action under its shown name, lower-cased (``play 2xk``, ``face-up 10``, ``play 1xjoker``, ``pickup``);
    a ten and a Joker also under the rank letter of the card names (``play 1xt``, ``face-up x``)."""
    from shithead_env import NUM_ACTIONS, Action
    from shithead_env.cards import rank_word

    names: dict[str, Action] = {}
    for action in map(Action.from_index, range(NUM_ACTIONS)):
        name = " ".join(str(action).lower().split())
        names[name] = action
        if action.rank is not None and rank_word(action.rank) != action.rank:  # the rank ends the name
            names[name.removesuffix(rank_word(action.rank).lower()) + action.rank.lower()] = action
    return names


def ask(game: Game, stdin: TextIO, stdout: TextIO) -> Action:
    """Read one choice among the legal moves (numbered from 1); re-prompt with the reason on bad input."""
    from shithead_env import Knowledge
    from shithead_env.render import why_illegal

    legal = game.legal_actions()
    names = _move_names()
    menu = "  ".join(f"[{i}] {a}" for i, a in enumerate(legal, 1))
    stdout.write(f"your moves: {menu}\n")
    while True:
        stdout.write("your move> ")
        stdout.flush()
        line = stdin.readline()
        if not line:
            raise Quit("end of input")
        text = " ".join(line.lower().split())
        if text in ("q", "quit", "exit"):
            raise Quit("quit")
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        action = names.get(text)
        if action is not None and action in legal:
            return action
        if action is not None:
            reason = why_illegal(Knowledge.from_game(game, game.current), action)
            stdout.write(f"'{line.strip()}' is not legal now: {reason}\n")
        elif text not in ("?", "h", "help", ""):
            stdout.write(f"'{line.strip()}' is not a move: type a number 1-{len(legal)} or a move name; q quits\n")
        stdout.write(f"your moves: {menu}\n")


def bot_label(bot: Bot) -> str:
    """A short name for a bot: a model's card name (not its path), else its spec."""
    return str(getattr(bot, "name", "") or bot.spec)


def run(args: argparse.Namespace, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    import numpy as np

    from agents.base import make_bot, require_coverage
    from shithead_env import Game, load_rules
    from shithead_env import events as ev
    from shithead_env.render import legend, render_game
    from shithead_env.scoring import final_scores

    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    rules = load_rules(args.rules)
    rules.check_players(args.players)
    if not 0 <= args.seat < args.players:
        raise ValueError(f"--seat must be 0..{args.players - 1}, got {args.seat}")
    note = ""
    if args.opponents is None:
        spec, note = default_bots(rules, args.players)
        specs = [spec]
    else:
        specs = args.opponents
    others = [s for s in range(args.players) if s != args.seat]
    if len(specs) == 1:
        specs = specs * len(others)
    if len(specs) != len(others):
        raise ValueError(f"--opponents names {len(specs)} bot(s) for the {len(others)} other seats (or give one "
                         "for all)")
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
        + ", ".join(f"P{s} {bot_label(bots[s])}" for s in others) + ".\n")
    out(f"powers: {legend(rules)}\n")
    def narrate(action: Action) -> None:
        for event in ev.step(game, action):
            out(ev.describe(event.for_seat(args.seat), you=args.seat) + "\n")

    try:
        # The bots move and a lone pass is made for you (the event says you passed) until you must decide.
        while game.play_until({args.seat}, lambda seat: bots[seat].act_game(game, seat, rng), step=narrate) is not None:
            out("\n" + render_game(game, args.seat) + "\n")
            narrate(ask(game, stdin, stdout))
    except Quit as why:
        out(f"\nstopped ({why}) after {game.decisions} decisions.\n")
        return 0
    out("\n" + render_game(game, args.seat) + "\n")
    scores = final_scores(game)
    out(f"{game.decisions} decisions in all.\n")
    table = ", ".join(f"P{s} {scores[s]:+.2f}" for s in range(args.players))
    out(f"scores: {table} (you {scores[args.seat]:+.2f})\n")
    return 0
