"""Argument helpers shared by every subcommand's parser: an old option's refusal and the seat-list type."""

from __future__ import annotations

import argparse

from agents.base import split_specs


class _Renamed(argparse.Action):
    """An option's old spelling: refused at once with the one to use (no silent alias)."""

    def __init__(self, option_strings: list[str], dest: str, new: str = "", **kwargs: object) -> None:
        self.new = new
        super().__init__(option_strings, argparse.SUPPRESS, nargs="?", help=argparse.SUPPRESS)

    def __call__(self, parser: argparse.ArgumentParser, *args: object, **kwargs: object) -> None:
        parser.error(f"{'/'.join(self.option_strings)} is now {self.new}")


def renamed(parser: argparse.ArgumentParser, old: str, new: str) -> None:
    """Refuse the option ``old`` with "``old`` is now ``new``" (``new`` may say more: its new meaning)."""
    parser.add_argument(old, action=_Renamed, new=new)


def seat_list(text: str) -> list[str]:
    """An argparse ``type``: the specs of a seat list ``a;b;c`` (docs/specs.md), its grammar checked at parse time
    (an old ``a,b,c`` list is refused with the ``;`` spelling); the bots themselves are built when the command
    runs."""
    try:
        return split_specs(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
