"""The model registry: every shipped network, its files, where each is installed from, and what it measured.

``agents/pretrained/registry.json`` is one plain JSON document that the bots,
the docs' model table (``agents.shipped_table``), ``shithead models`` and
other languages read (schema: docs/models.md). It is generated from the cards
(``bot.json``, ``value.json``), the files beside them and the agreement
figures of ``benchmarks/check_shipped_forms.py``:

    python -m agents.registry --write   # after a network, a card or a shipped form changes
    python -m agents.registry           # what is installed here (as ``shithead models``)

Each file names the distribution that installs it: ``shithead-env`` (the
wheel: what a bot loads by default), ``shithead-env-checkpoints`` (training
checkpoints, the policies ``model:auto`` does not seat, the value networks'
dynamic int8 copies) or ``shithead-env-originals`` (the value networks as
trained, float32). In the repository every file is present; a file asked for
that is not installed is one error line naming what to install, and a file
whose sha256 is not the recorded one is refused (``verified``).
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

PRETRAINED_DIR = Path(__file__).resolve().parent / "pretrained"
REGISTRY_FILE = "registry.json"
REGISTRY_FORMAT = "shithead-env-model-registry"
REGISTRY_VERSION = 1
MAIN = "shithead-env"
CHECKPOINTS = "shithead-env-checkpoints"
ORIGINALS = "shithead-env-originals"
EXTRA = {CHECKPOINTS: "checkpoints", ORIGINALS: "originals"}  # distribution -> the main package's extra
AGREEMENT_RESULTS = Path(__file__).resolve().parent.parent / "benchmarks" / "results" / "shipped_forms.json"


def load_registry(root: Path = PRETRAINED_DIR) -> dict[str, Any]:
    """``registry.json`` under ``root``; a one-line error when it is missing or not the registry format."""
    path = root / REGISTRY_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no model registry (write one with: python -m agents.registry --write)")
    registry = json.loads(path.read_text(encoding="utf-8"))
    if registry.get("format") != REGISTRY_FORMAT or registry.get("format_version") != REGISTRY_VERSION:
        raise ValueError(f"{path}: not a {REGISTRY_FORMAT} document of format_version {REGISTRY_VERSION}")
    return registry


def registered_files(root: Path = PRETRAINED_DIR) -> dict[Path, dict[str, Any]]:
    """Every file the registry under ``root`` lists (its path there -> its entry); empty without a registry."""
    if not (root / REGISTRY_FILE).is_file():
        return {}
    return {root / entry["file"]: entry for net in load_registry(root)["networks"] for entry in net["files"]}


def install_hint(distribution: str) -> str:
    """How to install ``distribution``: through the main package's extra."""
    if distribution in EXTRA:
        return f'pip install "shithead-env[{EXTRA[distribution]}]"'
    return f"pip install {distribution}"


def installed_file(path: Path, missing: str | None = None) -> Path:
    """``path`` if it is there; else ``FileNotFoundError`` in one line: the distribution that installs it when the
    registry beside it lists it, else ``missing``."""
    if path.is_file():
        return path
    entry = registered_files(path.parent.parent).get(path)
    if entry is None:
        raise FileNotFoundError(missing or f"{path}: no such file")
    raise FileNotFoundError(f"{path}: not installed; it is in {entry['package']}: {install_hint(entry['package'])}")


def sha256_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def verified(path: str | Path) -> Path:
    """``path`` (a file the registry lists, such as a training checkpoint an ``init_from`` names) after checking
    it is installed and its sha256 is the recorded one; a file the registry does not list is returned as it is."""
    path = Path(path)
    where = path.resolve()
    entry = registered_files(where.parent.parent).get(where)
    if entry is None:
        return path
    found = sha256_of(installed_file(where))
    if found != entry["sha256"]:
        raise ValueError(f"{path}: its sha256 is {found}, but the model registry records {entry['sha256']}; "
                         f"restore the file (reinstall {entry['package']})")
    return path


def network_dirs(kind: str, root: Path = PRETRAINED_DIR) -> list[Path]:
    """The directories of the networks of ``kind`` (``policy`` / ``value``) a bot seats by default (``auto``): the
    registry's, sorted."""
    registry = load_registry(root)
    return sorted(root / net["directory"] for net in registry["networks"] if net["kind"] == kind and net["auto"])


def list_models(root: Path = PRETRAINED_DIR) -> list[dict[str, Any]]:
    """One row per registered file: network, kind, tables, precision, size, distribution, whether it is
    installed here and whether a bot loads it by default."""
    rows = []
    for net in load_registry(root)["networks"]:
        for entry in net["files"]:
            rows.append({"name": net["name"], "kind": net["kind"], "tables": net["tables"], "auto": net["auto"],
                         "file": entry["file"], "role": entry["role"], "precision": entry["precision"],
                         "size": entry["size"], "package": entry["package"],
                         "installed": (root / entry["file"]).is_file()})
    return rows


def format_models(rows: list[dict[str, Any]]) -> str:
    """``list_models`` as a text table (``shithead models``)."""
    from agents.onnx_bot import describe_tables

    lines = [f"{'network':<26} {'kind':<6} {'file':<18} {'role':<10} {'form':<5} {'MB':>5}  {'installed':<13}  "
             "tables"]
    for row in rows:
        tables = {rules: tuple(counts) for rules, counts in row["tables"].items()}
        state = "yes" if row["installed"] else f"no: [{EXTRA.get(row['package'], row['package'])}]"
        lines.append(f"{row['name']:<26} {row['kind']:<6} {Path(row['file']).name:<18} {row['role']:<10} "
                     f"{row['precision']:<5} {row['size'] / 1e6:>5.1f}  {state:<13}  {describe_tables(tables)}")
    return "\n".join(lines)


def _file(root: Path, directory: str, name: str, role: str, precision: str, package: str) -> dict[str, Any]:
    path = root / directory / name
    return {"file": f"{directory}/{name}", "role": role, "precision": precision, "size": path.stat().st_size,
            "sha256": sha256_of(path), "package": package}


def _policy_entry(root: Path, card: Mapping[str, Any], directory: str, auto: bool,
                  agreement: Mapping[str, Any]) -> dict[str, Any]:
    evaluation = card.get("evaluation", {})
    results = evaluation.get("results", [])
    played = {}
    for result in results:
        played.setdefault(result["rules"], set()).add(result["players"])
    tables = " ".join(f"{rules}:{','.join(map(str, sorted(counts)))}" for rules, counts in played.items())
    opponents = ",".join(sorted({result["opponent"] for result in results}))
    games = max((result["games"] for result in results), default=0)
    files = [_file(root, directory, "model.onnx", "network", "fp32", MAIN if auto else CHECKPOINTS)]
    if "export" in card["model"]:
        files.append(_file(root, directory, card["model"]["export"]["file"], "original", "fp32", CHECKPOINTS))
    if (root / directory / "policy.zip").is_file():
        files.append(_file(root, directory, "policy.zip", "checkpoint", "fp32", CHECKPOINTS))
    return {
        "name": card["name"], "kind": "policy", "directory": directory, "card": "bot.json",
        "tables": {rules: sorted(counts) for rules, counts in card["tables"].items()},
        "encoding_version": card["encoding_version"], "auto": auto, "files": files,
        "agreement": agreement.get(card["name"]),
        "strength": {
            "measure": "mean placement score against the opponent in every other seat, 95% interval over deals",
            "results": results,
            "command": f"python -m train.release agents/pretrained/{directory}/policy.zip agents/pretrained/"
                       f"{directory} --keep-model --tables {tables} --opponents {opponents} --games {games} "
                       f"--seed {evaluation.get('seed')}",
        },
    }


def _value_entry(root: Path, card: Mapping[str, Any], directory: str, agreement: Mapping[str, Any]) -> dict[str, Any]:
    training, model = card["training"], card["model"]
    hidden = " ".join(map(str, training["hidden"]))
    files = [_file(root, directory, model["int8w"]["file"], "network", "int8w", MAIN),
             _file(root, directory, model["file"], "original", "fp32", ORIGINALS)]
    if "int8" in model:
        files.append(_file(root, directory, model["int8"]["file"], "copy", "int8", CHECKPOINTS))
    return {
        "name": card["name"], "kind": "value", "directory": directory, "card": "value.json",
        "tables": {rules: sorted(counts) for rules, counts in card["tables"].items()},
        "features_version": card["features_version"], "auto": True, "files": files,
        "strength": {
            "measure": "R^2 of the outcome on the training run's held-out positions, by the network as trained",
            "results": card["evaluation"],
            "command": f"python -m train.value --out agents/pretrained/{directory} --rules {training['rules']} "
                       f"--players {training['players']} --games {training['games']} --hidden {hidden} "
                       f"--epochs {training['epochs']} --seed {training['seed']}",
        },
        "agreement": agreement.get(card["name"]),
    }


def build_registry(root: Path = PRETRAINED_DIR, agreement_path: Path = AGREEMENT_RESULTS) -> dict[str, Any]:
    """The registry document for the cards and files under ``root`` (module doc): ``auto`` marks the policies
    ``model:auto`` seats somewhere (the best measured at a table, ``choose_model``) and every value network."""
    from agents.onnx_bot import CARD_FILE, choose_model, load_card
    from agents.value_net import VALUE_CARD, load_value_card
    from shithead_env import PRESETS, load_rules

    cards = {path.parent.name: load_card(path.parent) for path in sorted(root.glob(f"*/{CARD_FILE}"))}
    seated = set()
    for preset in PRESETS:
        rules = load_rules(preset)
        for players in range(rules.min_players, rules.max_players + 1):
            chosen = choose_model(list(cards.values()), preset, players)
            if chosen is not None:
                seated.add(chosen["name"])
    agreement = json.loads(agreement_path.read_text(encoding="utf-8"))["networks"] if agreement_path.is_file() else {}
    networks = [_policy_entry(root, card, directory, card["name"] in seated, agreement)
                for directory, card in cards.items()]
    networks += [_value_entry(root, load_value_card(path.parent), path.parent.name, agreement)
                 for path in sorted(root.glob(f"*/{VALUE_CARD}"))]
    return {
        "format": REGISTRY_FORMAT,
        "format_version": REGISTRY_VERSION,
        "schema": "docs/models.md#the-registry",
        "distributions": {MAIN: "the wheel: every file a bot loads by default",
                          CHECKPOINTS: install_hint(CHECKPOINTS), ORIGINALS: install_hint(ORIGINALS)},
        "networks": networks,
    }


def write_registry(root: Path = PRETRAINED_DIR) -> Path:
    """Write ``build_registry(root)`` to ``root/registry.json``."""
    path = root / REGISTRY_FILE
    path.write_text(json.dumps(build_registry(root), indent=1) + "\n", encoding="utf-8")
    return path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """``shithead models``'s options."""
    parser.add_argument("--kind", choices=("all", "policy", "value"), default="all", help="which networks to list")
    parser.add_argument("--json", action="store_true", help="one JSON object a file instead of the table")


def run(args: argparse.Namespace) -> int:
    """``shithead models``: ``list_models`` as a table, or as JSON lines."""
    rows = [row for row in list_models() if args.kind in ("all", row["kind"])]
    print("\n".join(json.dumps(row) for row in rows) if args.json else format_models(rows))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_arguments(parser)
    parser.add_argument("--write", action="store_true", help="regenerate registry.json from the cards and files")
    args = parser.parse_args(argv)
    if args.write:
        print(f"wrote {write_registry()}")
        return 0
    return run(args)


if __name__ == "__main__":
    raise SystemExit(main())
