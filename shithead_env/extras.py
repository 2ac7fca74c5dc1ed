"""Optional dependencies: which ``pip install -e ".[extra]"`` brings a missing module.

The engine and environments need none of them. A command that needs one checks
with ``require`` before any long work, and ``shithead`` turns a missing module
met anywhere into one line that says what to install.
"""

from __future__ import annotations

import importlib.util

# top-level module -> the pyproject extra that installs it
EXTRA_OF_MODULE: dict[str, str] = {
    "matplotlib": "plot",
    "onnxruntime": "runtime",
    "fastjsonschema": "runtime",
    "torch": "train",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
    "tensorboard": "train",
    "onnx": "export",
    "fastapi": "serve",
    "fastapi_offline": "serve",
    "uvicorn": "serve",
    "httpx": "serve",
}


class MissingExtraError(RuntimeError):
    """A module of an optional extra is not installed; the message names the install command."""


def install_hint(module: str, purpose: str) -> str:
    extra = EXTRA_OF_MODULE[module]
    return f'{purpose} needs {module}, which is not installed: pip install -e ".[{extra}]"'


def require(module: str, purpose: str) -> None:
    """Refuse early, before long work, when ``module`` of an optional extra is missing."""
    if importlib.util.find_spec(module) is None:
        raise MissingExtraError(install_hint(module, purpose))


def missing_extra(error: ModuleNotFoundError) -> str | None:
    """The install line for a missing module of an extra; None for any other missing module (a real bug)."""
    module = (error.name or "").partition(".")[0]
    if module not in EXTRA_OF_MODULE:
        return None
    return install_hint(module, "this command")
