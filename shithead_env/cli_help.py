"""``shithead help``: a topic (``specs``, the one grammar of bot specs and seat lists) or a command's help.

The ``specs`` text is docs/specs.md's reference block word for word (a test holds them equal).
"""

from __future__ import annotations

import argparse

SPECS = """\
A bot spec names one bot:

  KIND                       heuristic, random, greedy, ismcts, guided, model:auto ...
  KIND:ITEM,ITEM,...         an ITEM is an option NAME=VALUE or a positional argument
  ismcts:sims=200,rollout=random
  model:path/to/export       a model folder (shithead export); model:auto the shipped one for the table
  level:3                    difficulty levels level:1 .. level:5
  py:package.module:Name     your own Python bot, imported; options are its keyword arguments
  py:path/to/file.py:Name    the same, loaded from a file (examples/bots/my_bot.py)
  http://HOST:PORT/v1/bots/NAME   a bot served over the JSON protocol, in any language (remote:URL)

Options take the type of their default (an int, a number, true/false, a word); an unknown option,
a wrong type or a missing argument is refused with the accepted ones.

A seat list is specs separated by ';' (quote it in the shell), one spec a seat:

  --bots 'guided;heuristic;heuristic;heuristic'        shithead eval: every seat, in seat order
  --opponents 'heuristic;greedy'                       play, compare: the other seats (one spec fills them all)
  --baselines 'random;greedy;heuristic'                evaluate, release: one match against each, in every other seat

',' only ever separates one spec's items; 'heuristic,random' is refused with 'heuristic;random'.
The same grammar is read by make_bot("...") in Python, the environments' opponents and the configs.
Your own bot: a class with one method, act(view, rng), that returns one of view["legal_actions"].
"""

TOPICS: dict[str, str] = {"specs": SPECS}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("topic", nargs="?", help=f"a topic ({', '.join(TOPICS)}) or a command; none lists them")


def run(args: argparse.Namespace) -> int:
    from shithead_env.cli import SUBCOMMANDS, build_parser

    if args.topic in TOPICS:
        print(TOPICS[args.topic], end="")
        return 0
    parser = build_parser()
    if args.topic is None:
        parser.print_help()
        return 0
    if args.topic not in SUBCOMMANDS:
        raise ValueError(f"no help on {args.topic!r}: choose a topic ({', '.join(TOPICS)}) or a command "
                         f"({', '.join(SUBCOMMANDS)})")  # fmt: skip
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    commands.choices[args.topic].print_help()
    return 0
