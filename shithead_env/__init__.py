"""shithead-env: a rules engine and RL environments for Shithead (Palace)."""

from shithead_env.actions import ACTION_LAYOUT_VERSION, NUM_ACTIONS, Action
from shithead_env.game import Game, IllegalActionError, StateError
from shithead_env.rules import PRESETS, Rules, RulesError, load_rules

__version__ = "0.1.0"

__all__ = [
    "ACTION_LAYOUT_VERSION",
    "NUM_ACTIONS",
    "PRESETS",
    "Action",
    "Game",
    "IllegalActionError",
    "Rules",
    "RulesError",
    "StateError",
    "load_rules",
]
