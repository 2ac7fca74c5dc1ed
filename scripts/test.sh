#!/usr/bin/env bash
# Set up a virtualenv from scratch and run the linter and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
setup_venv "test,plot,train,rllib,openspiel,docs"
"$VENV/bin/ruff" check shithead_env agents train tests benchmarks examples
"$VENV/bin/python" -m pytest -q -n 2 "$@"
