"""The Ray RLlib backend: every seat learning with one shared policy, on a local Ray or a cluster.

Needs the ``rllib`` extra (``ray[rllib]``); nothing here is imported by the
SB3 pipeline. ``env`` adapts the PettingZoo AEC env, ``module`` masks illegal
actions inside the RL module, ``algo`` builds the ``PPOConfig``, ``league``
ships snapshots to the env runners, ``policy`` plays and exports a trained
module, ``trainer`` runs it all (``shithead train --config rllib_quick``).
"""
