"""``shithead models``: the exported models ``model:auto`` chooses from, each with the tables its card covers."""

from __future__ import annotations

import argparse
from pathlib import Path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from agents.onnx_bot import PRETRAINED_DIR

    parser.add_argument("--models", metavar="DIR", default=str(PRETRAINED_DIR),
                        help="folder searched for exported models (what shithead serve --models takes)")  # fmt: skip


def list_models(root: str | Path) -> list[tuple[str, str, Path]]:
    """(name, tables in words, folder) of every exported model under ``root``, read from the cards alone (no
    runtime needed): the folders ``model:auto`` picks from (at each table, the best measured there, then the
    narrowest card)."""
    import json

    from agents.onnx_bot import CARD_FILE, card_tables, describe_tables, shipped_model_dirs

    found = []
    for folder in shipped_model_dirs(root):
        card = json.loads((folder / CARD_FILE).read_text(encoding="utf-8"))
        found.append((str(card.get("name", folder.name)), describe_tables(card_tables(card)), folder))
    return found


def run(args: argparse.Namespace) -> int:
    root = Path(args.models)
    if not root.is_dir():
        raise ValueError(f"--models {str(root)!r}: not a directory")
    models = list_models(root)
    if not models:
        raise ValueError(f"--models {str(root)!r}: no exported model (a folder with bot.json and model.onnx) under it")
    width = max(len(name) for name, _, _ in models)
    for name, tables, folder in models:
        print(f"{name:<{width}}  {tables}  ({folder})")
    print("\nplay one with the spec model:<folder>; model:auto picks, at each table, the best of these covering it")
    return 0
