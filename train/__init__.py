"""Training for shithead-env: MaskablePPO on the single-agent view, fixed bots or a self-play league.

``shithead train --config configs/train/quick.yaml`` (see docs/training.md);
nothing here imports torch until a run starts.
"""
