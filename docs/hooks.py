"""MkDocs hooks: pages generated at build time, so the site cannot drift from the code.

``cli.md`` is every ``shithead`` command's ``--help`` from the real parser; ``changelog.md`` is the repository's
CHANGELOG.md; ``javascript.md`` is js/README.md; ``schema/`` holds the JSON Schemas of the bot protocol and the
bench results as the code validates with them, so a frontend can fetch them from the site.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
SCHEMA_DIRS = (ROOT / "agents" / "protocol" / "schema", ROOT / "agents" / "bench" / "schema")


def cli_reference() -> str:
    """Markdown: the top-level help, then each subcommand's, as the terminal prints them at 100 columns."""
    os.environ["COLUMNS"] = "100"
    if str(ROOT) not in sys.path:  # the checkout's code, as mkdocstrings reads it (``paths: [.]``)
        sys.path.insert(0, str(ROOT))
    from shithead_env.cli import build_parser

    parser = build_parser()
    parts = ["# Command line\n\nEvery command's `--help`, generated from the parser the `shithead` program uses.\n",
             f"```text\n{parser.format_help()}```\n"]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                parts.append(f"## shithead {name}\n\n```text\n{sub.format_help()}```\n")
    return "\n".join(parts)


def on_files(files: Files, config) -> Files:
    files.append(File.generated(config, "cli.md", content=cli_reference()))
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    files.append(File.generated(config, "changelog.md", content=changelog))
    javascript = (ROOT / "js" / "README.md").read_text(encoding="utf-8")  # its one link out goes to the site's home
    files.append(File.generated(config, "javascript.md", content=javascript.replace("](../README.md)", "](index.md)")))
    for schema in sorted(path for folder in SCHEMA_DIRS for path in folder.glob("*.schema.json")):
        files.append(File.generated(config, f"schema/{schema.name}", abs_src_path=str(schema)))
    return files
