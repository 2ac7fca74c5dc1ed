#!/usr/bin/env bash
# Set up a virtualenv from scratch and run the linter and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${VENV:-.venv}"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
# torch first, exact pin (set TORCH_INDEX_URL=https://download.pytorch.org/whl/cpu for the CPU-only wheel)
"$VENV/bin/python" -m pip install -q "torch==2.13.0" ${TORCH_INDEX_URL:+--index-url "$TORCH_INDEX_URL"}
"$VENV/bin/python" -m pip install -q -e ".[test,plot,train]"
"$VENV/bin/ruff" check shithead_env agents train tests benchmarks
"$VENV/bin/python" -m pytest -q -n 2 "$@"
