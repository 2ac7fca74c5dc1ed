"""shithead-env: a rules engine and RL environments for Shithead (Palace)."""

from shithead_env.actions import ACTION_LAYOUT_VERSION, NUM_ACTIONS, Action
from shithead_env.determinize import determinize
from shithead_env.encoding import (
    ENCODING_VERSION,
    ENCODINGS,
    OBSERVATION_SIZE,
    Encoding,
    action_mask,
    encode_knowledge,
    encode_observation,
    encoding_for_size,
    get_encoding,
    legal_mask,
)
from shithead_env.envs import SINGLE_AGENT_ID, register_with_gymnasium
from shithead_env.errors import IllegalActionError, StateError
from shithead_env.game import Game
from shithead_env.knowledge import Knowledge
from shithead_env.rules import PRESETS, Rules, RulesError, load_rules

__version__ = "1.0.0"

register_with_gymnasium()  # without importing gymnasium (shithead_env/envs/__init__.py)

__all__ = [
    "ACTION_LAYOUT_VERSION",
    "ENCODINGS",
    "ENCODING_VERSION",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "PRESETS",
    "SINGLE_AGENT_ID",
    "Action",
    "Encoding",
    "Game",
    "IllegalActionError",
    "Knowledge",
    "Rules",
    "RulesError",
    "StateError",
    "action_mask",
    "determinize",
    "encode_knowledge",
    "encode_observation",
    "encoding_for_size",
    "get_encoding",
    "legal_mask",
    "load_rules",
]
