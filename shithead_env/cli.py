"""The ``shithead`` command. Each subcommand lives in its own module and registers here."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

# name -> (module, help). A module exposes add_arguments(parser) and run(args) -> int.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "demo": ("shithead_env.demo", "play one game between random bots and print it"),
    "train": ("train.cli", "train MaskablePPO against bots or a self-play league (docs/training.md)"),
    "eval": ("agents.cli_eval", "tournament between bots on duplicate deals: table, JSON, plot"),
    "play": ("agents.cli_play", "play against bots in the terminal"),
    "export": ("train.export", "export a trained checkpoint to model.onnx + bot.json (docs/shipping.md)"),
    "serve": ("agents.serve", "serve bots over HTTP with the JSON bot protocol (docs/protocol.md)"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="shithead", description="Shithead (Palace) RL environment tools.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, (module, help_text) in SUBCOMMANDS.items():
        command = sub.add_parser(name, help=help_text, description=help_text)
        command.set_defaults(_module=module)
        importlib.import_module(module).add_arguments(command)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(importlib.import_module(args._module).run(args) or 0)
    except (ValueError, OSError) as error:
        print(f"shithead {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
