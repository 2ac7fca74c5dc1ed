"""The model registry: every shipped network, its files, where each is installed from, and what it measured.

``agents/pretrained/registry.json`` is one plain JSON document that the bots,
the docs' model table (``agents.shipped_table``), ``shithead models`` and
other languages read (schema: docs/models.md). ``agents.registry_build`` writes
it from the cards (``bot.json``, ``value.json``), the files beside them and the
agreement figures of ``benchmarks/check_shipped_forms.py``:

    python -m agents.registry_build   # after a network, a card or a shipped form changes
    shithead models                   # what is installed here (agents.cli_models)

Each file names the distribution that installs it: ``shithead-env`` (the
wheel: what a bot loads by default), ``shithead-env-checkpoints`` (training
checkpoints, the policies ``model:auto`` does not seat, the value networks'
dynamic int8 copies) or ``shithead-env-originals`` (the value networks as
trained, float32). In the repository every file is present; a file asked for
that is not installed is one error line naming what to install, and a file
whose sha256 is not the recorded one is refused (``verified``).
"""

from __future__ import annotations

import hashlib
import json
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
        raise FileNotFoundError(f"{path}: no model registry (write one with: python -m agents.registry_build)")
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
    """The hex SHA-256 of a file: what cards and the registry record, and what loading checks."""
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


def equal_forms(root: Path = PRETRAINED_DIR) -> dict[tuple[str, str], tuple[str, str]]:
    """(name, sha256) of each shipped form measured equal to its original (every measure of its ``agreement``
    passes, for this very file) -> the original's (name, sha256), as bots name them (a value network's form is
    ``name:precision``, a policy keeps its name): a record of games played with the original stands for the
    form."""
    forms = {}
    for net in load_registry(root)["networks"]:
        agreement = net.get("agreement") or {}
        measures = [agreement[key] for key in ("outputs", "guided", "actions", "paired") if key in agreement]
        by_role = {entry["role"]: entry for entry in net["files"]}
        shipped, original = by_role["network"], by_role.get("original")
        if (original is None or not measures or not all(measure["passes"] for measure in measures)
                or agreement.get("sha256") != shipped["sha256"]):
            continue
        name = net["name"] if net["kind"] == "policy" else f"{net['name']}:{shipped['precision']}"
        forms[(name, shipped["sha256"])] = (net["name"], original["sha256"])
    return forms
