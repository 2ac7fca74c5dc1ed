"""Every subcommand's help renders with one style of defaults and an example, and every ``shithead ...`` command
written in README.md and docs/*.md parses under the CLI as it is (parsed only, never run)."""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from shithead_env.cli import SUBCOMMANDS, build_parser, main
from shithead_env.cli_help import SPECS

ROOT = Path(__file__).resolve().parent.parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```[a-z]*\n(.*?)^```", re.M | re.S)
SPAN = re.compile(r"`(shithead [^`]+)`")
PLACEHOLDER = re.compile(r"<[^>]*>|\.\.\.")  # <run>, <its checkpoint>, ...: a value the reader fills in
CAPITALS = re.compile(r"[A-Z][A-Z_]*")  # N, G, SPEC, CHECKPOINT: the same, as one word


def subparsers() -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in build_parser()._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def documented_commands(path: Path) -> list[str]:
    """The ``shithead`` command lines of a Markdown file: lines of its code blocks (``\\`` continuations joined)
    and inline code spans (which may break across lines)."""
    text = path.read_text(encoding="utf-8")
    found = []
    for block in FENCE.findall(text):
        for line in block.replace("\\\n", " ").splitlines():
            if line.strip().startswith("shithead "):
                found.append(line.strip())
    outside = FENCE.sub("", text)
    found += [" ".join(span.split()) for span in SPAN.findall(outside)]
    return found


def test_the_top_level_help_lists_every_subcommand_with_an_example(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    text = capsys.readouterr().out
    for name, (_, _, example) in SUBCOMMANDS.items():
        assert re.search(rf"^    {name} +\S", text, re.M), name  # the listing, with its summary
        assert f"  {example}\n" in text, name


@pytest.mark.parametrize("name", list(SUBCOMMANDS))
def test_every_subcommand_help_renders_one_default_style_and_an_example(name: str) -> None:
    parser = subparsers()[name]
    text = parser.format_help()
    assert f"example:\n  shithead {name}" in text
    formatter = parser._get_formatter()
    for action in parser._actions:
        if not action.option_strings or action.help == argparse.SUPPRESS:
            continue
        shown = formatter._expand_help(action)
        assert action.help, f"{name} {action.option_strings[0]} has no help"
        assert "default" not in shown.replace("(default: ", ""), (name, action.option_strings, shown)
        if action.default not in (None, False, [], "", argparse.SUPPRESS):
            assert "(default: " in shown, (name, action.option_strings)
    example = shlex.split(SUBCOMMANDS[name][2], comments=True)
    build_parser().parse_args(example[1:])  # the example itself parses


def test_help_specs_is_the_documented_grammar(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["help", "specs"]) == 0
    assert capsys.readouterr().out == SPECS
    assert f"```text\n{SPECS}```" in (ROOT / "docs" / "specs.md").read_text(encoding="utf-8")
    assert main(["help", "eval"]) == 0 and "example:\n  shithead eval" in capsys.readouterr().out
    assert main(["help", "nope"]) == 2
    assert "no help on 'nope': choose a topic (specs) or a command (demo, play" in capsys.readouterr().err


COMMANDS = [(path.relative_to(ROOT).as_posix(), line) for path in DOCS for line in documented_commands(path)]


def test_the_docs_name_commands_to_check() -> None:
    assert len(COMMANDS) > 50 and {"README.md", "docs/specs.md", "docs/bench.md"} <= {p for p, _ in COMMANDS}


@pytest.mark.parametrize("where,line", COMMANDS)
def test_every_documented_command_parses(where: str, line: str) -> None:
    words = shlex.split(PLACEHOLDER.sub("X", line), comments=True)[1:]
    argv = ["1" if CAPITALS.fullmatch(word) else word for word in words]
    if len(argv) == 1 and argv[0] in SUBCOMMANDS:  # a command named in prose: `shithead bench`
        return
    try:
        build_parser().parse_args(argv)
    except SystemExit as error:
        if error.code == 0:  # shithead --version
            return
        pytest.fail(f"{where}: {line!r} does not parse (exit {error.code})")
