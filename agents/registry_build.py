"""Writes the model registry (``agents/pretrained/registry.json``, read by ``agents.registry``) from the cards
(``bot.json``, ``value.json``), the files beside them and the agreement figures of
``benchmarks/check_shipped_forms.py``:

    python -m agents.registry_build   # after a network, a card or a shipped form changes
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from agents.onnx_bot import CARD_FILE, choose_model, load_card
from agents.registry import (
    AGREEMENT_RESULTS,
    CHECKPOINTS,
    MAIN,
    ORIGINALS,
    PRETRAINED_DIR,
    REGISTRY_FILE,
    REGISTRY_FORMAT,
    REGISTRY_VERSION,
    install_hint,
    sha256_of,
)
from agents.value_net import VALUE_CARD, load_value_card
from shithead_env import PRESETS, load_rules


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
    precision = card["model"].get("precision", "fp32")
    files = [_file(root, directory, "model.onnx", "network", precision, MAIN if auto else CHECKPOINTS)]
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
    shipped = model["shipped"]
    files = [_file(root, directory, shipped["file"], "network", shipped["precision"], MAIN),
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


def main(argv: list[str] | None = None) -> int:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args(argv)
    print(f"wrote {write_registry()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
