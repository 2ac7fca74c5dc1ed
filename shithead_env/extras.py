"""Optional dependencies: which ``pip install -e ".[extra]"`` brings a missing module (torch pinned first).

The engine and environments need none of them. A command that needs one checks
with ``require`` before any long work, and ``shithead`` turns a missing module
met anywhere into one line that says what to install.
"""

from __future__ import annotations

import importlib.util

# pyproject's optional dependencies, as the top-level modules each extra brings (a test keeps them in step)
EXTRA_MODULES: dict[str, tuple[str, ...]] = {
    "plot": ("matplotlib",),
    "runtime": ("onnxruntime", "fastjsonschema"),
    "train": ("torch", "stable_baselines3", "sb3_contrib", "tensorboard", "matplotlib"),
    "export": ("torch", "stable_baselines3", "sb3_contrib", "onnx"),
    "serve": ("fastapi", "fastapi_offline", "uvicorn", "httpx", "onnxruntime", "fastjsonschema"),
    "openspiel": ("open_spiel",),  # installs the pyspiel module too
}


# The CPU build of torch that scripts/venv.sh installs first: a plain ``torch`` requirement pulls a multi-GB CUDA
# build (a test keeps the two in step).
TORCH_PIN = "torch==2.13.0"


class MissingExtraError(RuntimeError):
    """A module of an optional extra is not installed; the message names the install command."""


def extra_for(module: str, command: str | None = None) -> str | None:
    """The extra to install for ``module``: the command's own extra when it brings the module, else the smallest."""
    if command in EXTRA_MODULES and module in EXTRA_MODULES[command]:
        return command
    holders = [extra for extra, modules in EXTRA_MODULES.items() if module in modules]
    return min(holders, key=lambda extra: len(EXTRA_MODULES[extra])) if holders else None


def install_hint(module: str, purpose: str, command: str | None = None) -> str:
    """What to run for ``module``: its extra, after the pinned torch when the extra brings torch."""
    extra = extra_for(module, command)
    torch_first = f'pip install "{TORCH_PIN}" && ' if extra and "torch" in EXTRA_MODULES[extra] else ""
    return f'{purpose} needs {module}, which is not installed: {torch_first}pip install -e ".[{extra}]"'


def require(module: str, purpose: str) -> None:
    """Refuse early, before long work, when ``module`` of an optional extra is missing."""
    if importlib.util.find_spec(module) is None:
        raise MissingExtraError(install_hint(module, purpose))


def missing_extra(error: ModuleNotFoundError, command: str | None = None) -> str | None:
    """The install line for a missing module of an extra; None for any other missing module (a real bug)."""
    module = (error.name or "").partition(".")[0]
    if extra_for(module) is None:
        return None
    return install_hint(module, f"shithead {command}" if command else "this command", command)
