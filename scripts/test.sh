#!/usr/bin/env bash
# Set up a virtualenv from scratch and run the linter, the npm package's tests (js/) and the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v npm >/dev/null || { echo "scripts/test.sh: the npm package's tests (js/) need Node.js 20+ and npm" >&2; exit 1; }
source scripts/venv.sh
setup_venv "test,plot,train,rllib,openspiel,docs"
"$VENV/bin/ruff" check shithead_env agents train tests benchmarks examples
(cd js && ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund && npm test)
"$VENV/bin/python" -m pytest -q -n 2 "$@"
