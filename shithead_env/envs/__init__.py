"""Environments over the engine: the PettingZoo AEC game (``aec``) and the Gymnasium single-agent view.

Only the Gymnasium registration lives here; the environment modules load on
first use (``gymnasium.make`` or ``shithead_env.shithead_v0``).
"""

from __future__ import annotations

SINGLE_AGENT_ID = "shithead_env/Shithead-v0"
_ENTRY_POINT = "shithead_env.envs.single_agent:ShitheadEnv"


def register() -> None:
    """Make ``gymnasium.make(SINGLE_AGENT_ID, ...)`` work; called by ``import shithead_env``."""
    import gymnasium

    if SINGLE_AGENT_ID not in gymnasium.registry:
        gymnasium.register(id=SINGLE_AGENT_ID, entry_point=_ENTRY_POINT)
