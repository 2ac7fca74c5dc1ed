"""Environments over the engine: the PettingZoo AEC game (``aec``) and the Gymnasium single-agent view.

Only the Gymnasium registration lives here. ``import shithead_env`` must both
register ``shithead_env/Shithead-v0`` and keep the engine free of RL imports
(tests/test_packaging.py), so registration happens at once when Gymnasium is
already loaded, else the moment Gymnasium's registry module is first imported.
"""

from __future__ import annotations

import importlib.abc
import importlib.machinery
import importlib.util
import sys
from collections.abc import Sequence
from types import ModuleType

SINGLE_AGENT_ID = "shithead_env/Shithead-v0"
_ENTRY_POINT = "shithead_env.envs.single_agent:ShitheadEnv"
_REGISTRY_MODULE = "gymnasium.envs.registration"


def _register_in(registration: ModuleType) -> None:
    if SINGLE_AGENT_ID not in registration.registry:
        registration.register(id=SINGLE_AGENT_ID, entry_point=_ENTRY_POINT)


class _RegisterOnImport(importlib.abc.MetaPathFinder):
    """Finds nothing itself: wraps the loader of Gymnasium's registry module to register right after it runs."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != _REGISTRY_MODULE:
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(fullname)
        if spec is None or spec.loader is None:
            return spec
        run = spec.loader.exec_module

        def exec_module(module: ModuleType) -> None:
            run(module)
            _register_in(module)

        spec.loader.exec_module = exec_module  # type: ignore[method-assign]
        return spec


def register() -> None:
    """Make ``gymnasium.make(SINGLE_AGENT_ID, ...)`` work without importing Gymnasium here."""
    if _REGISTRY_MODULE in sys.modules:
        _register_in(sys.modules[_REGISTRY_MODULE])
    elif not any(isinstance(finder, _RegisterOnImport) for finder in sys.meta_path):
        sys.meta_path.insert(0, _RegisterOnImport())
