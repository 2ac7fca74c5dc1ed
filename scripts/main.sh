#!/usr/bin/env bash
# Set up a virtualenv from scratch and run the main job on the embedded defaults:
# train the `quick_finetune` config (MaskablePPO, dead_last, 4 players, vs heuristic, from the shipped
# encoding-2 network: from scratch nothing beats heuristic in this budget, docs/training.md),
# then evaluate the result against the baseline bots with the tournament harness.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
setup_venv "train,plot,export,runtime"
# 1. train (a few minutes on 2 cores); the run directory is runs/dead_last-quick_finetune-s0-<time>
"$VENV/bin/shithead" train --config quick_finetune
RUN="$(ls -td runs/dead_last-quick_finetune-s0-* | head -n 1)"
# 2. evaluate its best checkpoint: 2,000 duplicate games against each baseline (final_eval.md in the run)
"$VENV/bin/shithead" evaluate "$RUN" --games 2000 --baselines "random;greedy;heuristic"
# 3. export it for shipping (model.onnx + bot.json, docs/shipping.md) and check the export plays, torch-free
"$VENV/bin/shithead" export --checkpoint "$RUN" --out out/quick_bot
"$VENV/bin/shithead" eval --bots "model:out/quick_bot;heuristic;heuristic;heuristic" --games 400 --no-progress
# 4. what was made, and what to do with it
echo
echo "main job done:"
echo "  trained:   $RUN (config quick_finetune; learning curve $RUN/learning_curve.png)"
echo "  evaluated: $RUN/final_eval.md (2,000 games against random, greedy and heuristic)"
echo "  exported:  out/quick_bot (model.onnx + bot.json; docs/shipping.md)"
echo "  play it:   $VENV/bin/shithead play --rules dead_last --players 4 --opponents model:out/quick_bot"
echo "  serve it:  $VENV/bin/shithead serve --models out   # then open http://127.0.0.1:8000/"
