"""The ``shithead`` command. Each subcommand lives in its own module and registers here.

Every subcommand's help has a one-line summary, its defaults written one way (``(default: X)``) and an example;
old option spellings are refused with the new one and seat lists are read by the helpers of
``agents.arguments``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from shithead_env import __version__
from shithead_env.extras import MissingExtraError, missing_extra

# name -> (module, summary, example). A module exposes add_arguments(parser) and run(args) -> int.
SUBCOMMANDS: dict[str, tuple[str, str, str]] = {
    "demo": (
        "shithead_env.demo",
        "play one game between random bots and narrate it",
        "shithead demo --rules power_deck --players 3 --seed 4 --verbose",
    ),
    "play": (
        "agents.cli_play",
        "play against bots in the terminal",
        "shithead play --rules pub --players 3 --opponents 'heuristic;greedy'",
    ),
    "eval": (
        "agents.cli_eval",
        "tournament between bots on duplicate deals: table, JSON, plot",
        "shithead eval --bots 'heuristic;random;random;random' --games 400 --json out/eval.json",
    ),
    "compare": (
        "agents.compare",
        "compare bots (arms) on the same duplicate deals, paired by deal; cached and resumable",
        "shithead compare --arm 'ismcts:sims=100' --arm 'ismcts:sims=200' --games 200 --workers 2",
    ),
    "bench": (
        "agents.cli_bench",
        "rate one bot on a fixed, versioned suite (Shithead-Bench): scores, rating, results JSON (docs/bench.md)",
        "shithead bench heuristic --suite quick --out out/bench/heuristic",
    ),
    "models": (
        "agents.cli_models",
        "list the shipped networks, their files and which are installed here, from the model registry "
        "(docs/models.md)",
        "shithead models --kind policy",
    ),
    "train": (
        "train.cli",
        "train a network from a YAML config (MaskablePPO, Ray RLlib or expert iteration) into runs/ "
        "(docs/training.md)",
        "shithead train --config quick --override total_timesteps=20000",
    ),
    "evaluate": (
        "train.evaluate",
        "evaluate a checkpoint or a run against baseline bots at its tables (a run gets final_eval.md/.json)",
        "shithead evaluate runs/dead_last-quick-s0-<time> --games 2000 --baselines 'random;heuristic'",
    ),
    "export": (
        "train.export",
        "export a trained checkpoint to model.onnx + bot.json (docs/shipping.md)",
        "shithead export --checkpoint runs/dead_last-quick-s0-<time> --out out/quick_bot",
    ),
    "release": (
        "train.release",
        "ship a checkpoint: slim policy, export, card covering the tables where it beats the baselines",
        "shithead release runs/<run>/checkpoints/last.zip out/my_bot --tables dead_last:2,3,4 --games 2000",
    ),
    "serve": (
        "agents.serve",
        "serve bots, game sessions and the browser table over HTTP (docs/protocol.md)",
        "shithead serve --port 8000   # then open http://127.0.0.1:8000/ in a browser",
    ),
    "help": (
        "shithead_env.cli_help",
        "explain a topic (specs: how to name bots and seat lists) or a command",
        "shithead help specs",
    ),
}


def _no_default(value: object) -> bool:
    """An option default not worth showing: unset, a flag's False, an empty list (identity: 0 is a default)."""
    return value is None or value is False or value is argparse.SUPPRESS or value == [] or value == ""


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Shows each option's default as ``(default: X)`` after its help (unless the help already writes one, for a
    default that depends on other options), keeps examples as written."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "(default: " in text or _no_default(action.default) or not action.option_strings:
            return text
        if isinstance(action.default, list):  # nargs="+": shown as it is typed
            return f"{text} (default: {' '.join(map(str, action.default))})"
        return f"{text} (default: %(default)s)"


def examples() -> str:
    """One example a subcommand, for the top-level help."""
    return "\n".join(f"  {example}" for _, _, example in SUBCOMMANDS.values())


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shithead",
        description="Shithead (Palace) RL environment tools.",
        epilog=f"examples:\n{examples()}\n\n`shithead COMMAND --help` shows a command's options and an example; "
        "`shithead help specs` how to name bots.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module, help_text, example) in SUBCOMMANDS.items():
        command = sub.add_parser(name, help=help_text, description=help_text, epilog=f"example:\n  {example}",
                                 formatter_class=HelpFormatter, allow_abbrev=False)  # fmt: skip
        command.set_defaults(_module=module)
        importlib.import_module(module).add_arguments(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):
        parser.print_help()  # a bare ``shithead``: what it can do, not a usage error
        return 0
    args = parser.parse_args(argv)
    try:
        return int(importlib.import_module(args._module).run(args) or 0)
    except KeyboardInterrupt:  # Ctrl-C: one line, no traceback (a training run has saved its checkpoint)
        print(f"shithead {args.command}: interrupted", file=sys.stderr)
        return 130
    except ModuleNotFoundError as error:
        hint = missing_extra(error, args.command)
        if hint is None:
            raise
        print(f"shithead {args.command}: error: {hint}", file=sys.stderr)
        return 2
    except (ValueError, OSError, MissingExtraError) as error:
        print(f"shithead {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
