"""Shithead (Palace) as a PettingZoo AEC environment, in the style of ``pettingzoo.classic``.

| | |
|---|---|
| import | `from shithead_env import shithead_v0` |
| agents | `player_0` .. `player_{n-1}` (n = `num_players`, per the rules' range) |
| actions | `Discrete(NUM_ACTIONS)`: the engine's fixed action layout (docs/state.md) |
| observations | `{"observation": float32[OBSERVATION_SIZE], "action_mask": int8[NUM_ACTIONS]}` (docs/observation.md) |
| rewards | `placement` (default, +1 first safe .. -1 shithead) or `loser_only`; zero-sum |

Every engine decision (swap picks, turns, interrupt windows, nominations) is a
step of the agent asked. ``env()`` adds the behaviour of PettingZoo's standard
wrappers (in one layer, for speed), so an illegal action ends the game with -1
for the offender; ``raw_env`` raises the engine's ``IllegalActionError``
instead. ``parallel_env()`` is the same game behind the Parallel API, turn-based
(flat Box observations, the mask in ``infos[agent]["action_mask"]``;
``shithead_env.envs.parallel``). Full reference: docs/environments.md.

``encoding=<version>`` picks the observation encoding (default ``ENCODING_VERSION``;
``shithead_env.ENCODINGS`` lists them, docs/observation.md documents each).
``reward_timing="own_turn"`` pays each seat on its own last step (a closing turn after the game for
the shithead), for Tianshou's ``PettingZooEnv`` and TorchRL's ``PettingZooWrapper``.

Version history: v0, first release (encoding version 1, action layout version 1);
the ``encoding`` argument added with encoding version 2, its default (1 stays available);
``parallel_env`` added; ``reward_timing`` added (default ``decided``, unchanged).
"""

from shithead_env.envs.aec import env, raw_env
from shithead_env.envs.parallel import parallel_env

__all__ = ["env", "parallel_env", "raw_env"]
