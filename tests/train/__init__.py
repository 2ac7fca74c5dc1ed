"""Training and export: configs, league, learning, policy bot, resume, tables, ONNX export, RLlib."""
