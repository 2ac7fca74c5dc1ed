"""Environments over the engine: the PettingZoo AEC game (``aec``) and the Gymnasium single-agent view.

Only the Gymnasium registration lives here; the environment modules load on
first use (``gymnasium.make`` or ``shithead_env.shithead_v0``). ``import
shithead_env`` must not import gymnasium, and Gymnasium 1.x no longer loads
plugin entry points, so ``register_with_gymnasium`` registers at once when
gymnasium is already imported and otherwise right after gymnasium's own import.
"""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

SINGLE_AGENT_ID = "shithead_env/Shithead-v0"
_ENTRY_POINT = "shithead_env.envs.single_agent:ShitheadEnv"


def register() -> None:
    """Make ``gymnasium.make(SINGLE_AGENT_ID, ...)`` work now (imports gymnasium)."""
    import gymnasium

    from shithead_env.encoding import ENCODING_VERSION

    # The spec's kwargs name the encoding version it defaults to. No OrderEnforcing / PassiveEnvChecker around
    # the env: it enforces reset-before-step itself, and so ``gymnasium.make(...).action_masks()`` reaches it.
    if SINGLE_AGENT_ID not in gymnasium.registry:
        gymnasium.register(id=SINGLE_AGENT_ID, entry_point=_ENTRY_POINT, kwargs={"encoding": ENCODING_VERSION},
                           order_enforce=False, disable_env_checker=True)


def register_with_gymnasium() -> None:
    """Register now if gymnasium is imported, else as soon as it is; called by ``import shithead_env``."""
    if "gymnasium" in sys.modules:
        register()
    elif not any(isinstance(finder, _RegisterAfterGymnasium) for finder in sys.meta_path):
        sys.meta_path.insert(0, _RegisterAfterGymnasium())


class _RegisterAfterGymnasium:
    """A one-shot import hook: the usual finders load gymnasium, then ``register()`` runs."""

    def find_spec(self, name: str, path: Sequence[str] | None, target: ModuleType | None = None) -> ModuleSpec | None:
        if name != "gymnasium":
            return None
        sys.meta_path.remove(self)
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.loader is not None:
            load = spec.loader.exec_module  # the loader is this spec's own instance

            def load_then_register(module: ModuleType) -> None:
                load(module)
                register()

            spec.loader.exec_module = load_then_register  # type: ignore[method-assign]
        return spec
