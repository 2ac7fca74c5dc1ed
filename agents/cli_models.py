"""``shithead models``: every network file the model registry lists, and whether it is installed here.

The shipped folder (``agents/pretrained``) holds the registry (``agents.registry``): each network's files, which
distribution installs each, and which a bot loads by default. A folder of your own exports (what ``shithead serve
--models`` takes) has no registry; its exported models are listed from their cards.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from agents.onnx_bot import CARD_FILE, MODEL_FILE, card_tables, describe_tables, shipped_model_dirs
from agents.registry import EXTRA, PRETRAINED_DIR, REGISTRY_FILE, load_registry

KINDS = ("all", "policy", "value")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--models", metavar="DIR", default=str(PRETRAINED_DIR),
                        help="folder of networks: the shipped one, or exported models such as shithead serve "
                             "--models takes (default: the shipped networks' folder)")
    parser.add_argument("--kind", choices=KINDS, default="all",
                        help="list policies or value networks only (default: all)")
    parser.add_argument("--json", action="store_true", help="one JSON object a file instead of the table")


def list_models(root: Path = PRETRAINED_DIR) -> list[dict[str, Any]]:
    """One row per network file under ``root``: network, kind, tables, role, precision, size, the distribution
    that installs it, whether it is installed here and whether a bot loads it by default (``auto``). Read from the
    registry where ``root`` has one, else from the cards of the exported models under it (each its ``model.onnx``,
    installed, from no distribution)."""
    root = Path(root)
    if (root / REGISTRY_FILE).is_file():
        return [{"name": net["name"], "kind": net["kind"], "tables": net["tables"], "auto": net["auto"],
                 "file": entry["file"], "role": entry["role"], "precision": entry["precision"],
                 "size": entry["size"], "package": entry["package"], "installed": (root / entry["file"]).is_file()}
                for net in load_registry(root)["networks"] for entry in net["files"]]
    rows = []
    for folder in shipped_model_dirs(root):
        card = json.loads((folder / CARD_FILE).read_text(encoding="utf-8"))
        rows.append({"name": str(card.get("name", folder.name)), "kind": "policy",
                     "tables": {rules: list(counts) for rules, counts in card_tables(card).items()}, "auto": True,
                     "file": (folder / MODEL_FILE).relative_to(root).as_posix(), "role": "network",
                     "precision": None, "size": (folder / MODEL_FILE).stat().st_size, "package": None,
                     "installed": True})
    return rows


def format_models(rows: list[dict[str, Any]]) -> str:
    """``list_models`` as a text table."""
    lines = [f"{'network':<26} {'kind':<6} {'file':<38} {'role':<10} {'form':<5} {'MB':>5}  {'installed':<17}  "
             "tables"]
    for row in rows:
        tables = {rules: tuple(counts) for rules, counts in row["tables"].items()}
        state = "yes" if row["installed"] else f"no: [{EXTRA.get(row['package'], row['package'])}]"
        lines.append(f"{row['name']:<26} {row['kind']:<6} {row['file']:<38} {row['role']:<10} "
                     f"{row['precision'] or '-':<5} {row['size'] / 1e6:>5.1f}  {state:<17}  {describe_tables(tables)}")
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    root = Path(args.models)
    if not root.is_dir():
        raise ValueError(f"--models {str(root)!r}: not a directory")
    rows = [row for row in list_models(root) if args.kind in ("all", row["kind"])]
    if not rows:
        raise ValueError(f"--models {str(root)!r}: no {'' if args.kind == 'all' else args.kind + ' '}network under it "
                         "(a model registry, or a folder with bot.json and model.onnx)")
    if args.json:
        print("\n".join(json.dumps(row) for row in rows))
        return 0
    print(format_models(rows))
    print(f"\nfiles under {root}; play a policy with the spec model:<its folder>; model:auto picks, at each table, "
          "the best measured of those a bot loads by default")
    return 0
