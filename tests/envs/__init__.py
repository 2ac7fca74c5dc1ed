"""The environments and what they expose: the PettingZoo AEC env, the single-agent env, the observation encoding."""
