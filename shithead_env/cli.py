"""The ``shithead`` command. Each subcommand lives in its own module and registers here."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from shithead_env import __version__
from shithead_env.extras import MissingExtraError, missing_extra

# name -> (module, help, example). A module exposes add_arguments(parser) and run(args) -> int.
SUBCOMMANDS: dict[str, tuple[str, str, str]] = {
    "demo": (
        "shithead_env.demo",
        "play one game between random bots and narrate it",
        "shithead demo --rules power_deck --players 3 --seed 4 --verbose",
    ),
    "train": (
        "train.cli",
        "train MaskablePPO against bots or a self-play league, or a network by expert iteration (docs/training.md)",
        "shithead train --config quick --override total_timesteps=20000",
    ),
    "eval": (
        "agents.cli_eval",
        "tournament between bots on duplicate deals: table, JSON, plot",
        "shithead eval --bots heuristic,random,random,random --games 400 --json out/eval.json",
    ),
    "bench": (
        "agents.cli_bench",
        "rate one bot on a fixed, versioned suite (Shithead-Bench): scores, rating, results JSON (docs/bench.md)",
        "shithead bench heuristic --suite quick --out out/bench/heuristic",
    ),
    "play": (
        "agents.cli_play",
        "play against bots in the terminal",
        "shithead play --rules pub --players 3 --bots heuristic,greedy",
    ),
    "export": (
        "train.export",
        "export a trained checkpoint to model.onnx + bot.json (docs/shipping.md)",
        "shithead export --checkpoint runs/dead_last-quick-s0-<time> --out out/quick_bot",
    ),
    "models": (
        "agents.models",
        "list the shipped networks and which of their files are installed here (docs/models.md)",
        "shithead models --json",
    ),
    "serve": (
        "agents.serve",
        "serve bots, game sessions and the browser table over HTTP (docs/protocol.md)",
        "shithead serve --port 8000   # then open http://127.0.0.1:8000/ in a browser",
    ),
}


def _no_default(value: object) -> bool:
    """An option default not worth showing: unset, a flag's False, an empty list (identity: 0 is a default)."""
    return value is None or value is False or value is argparse.SUPPRESS or value == []


class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Shows each option's default after its help (unless the help already tells it), keeps examples as written."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "default" in text or _no_default(action.default) or not action.option_strings:
            return text
        return f"{text} (default: %(default)s)"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shithead",
        description="Shithead (Palace) RL environment tools.",
        epilog="example:\n  shithead demo\n  shithead play --rules pub --players 3\n\n"
        "`shithead COMMAND --help` shows a command's options and an example.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module, help_text, example) in SUBCOMMANDS.items():
        command = sub.add_parser(
            name, help=help_text, description=help_text, epilog=f"example:\n  {example}", formatter_class=HelpFormatter
        )
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
