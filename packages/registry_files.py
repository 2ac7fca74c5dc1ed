"""Hatch build hook of the distributions in packages/: the wheel holds the files the model registry assigns to it.

``agents/pretrained/registry.json`` names, for each network file, the distribution that installs it; this hook puts
every file named for the distribution being built into its wheel at the same path (``agents/pretrained/...``), so
that installing it beside ``shithead-env`` completes the directories the main wheel ships.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class CustomBuildHook(BuildHookInterface):
    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        pretrained = Path(self.root).resolve().parent.parent / "agents" / "pretrained"
        registry = json.loads((pretrained / "registry.json").read_text(encoding="utf-8"))
        name = self.metadata.name
        files = [entry["file"] for net in registry["networks"] for entry in net["files"] if entry["package"] == name]
        if not files:
            raise ValueError(f"{pretrained / 'registry.json'} assigns no file to {name}")
        for file in files:
            build_data["force_include"][str(pretrained / file)] = f"agents/pretrained/{file}"
