#!/usr/bin/env bash
# Set up a virtualenv from scratch and run the main job on the embedded defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
"$VENV/bin/python" -m pip install -q -e ".[plot]"
"$VENV/bin/shithead" demo --rules dead_last --players 4 --seed 0
