#!/usr/bin/env bash
# Train a short run with each RL library (examples/), and replay 50 games through Tianshou's and TorchRL's own
# PettingZoo wrappers (tests/envs/test_library_rewards.py): the main venv for CleanRL-style PPO and OpenSpiel, a
# virtualenv per library where its pins clash (scripts/venv.sh: setup_library_venv). .ci/run calls it after the tests;
# docs/environments.md gives each library's caveats. Usage: bash scripts/examples.sh [LIBRARY...]  (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/venv.sh
LIBRARIES=(main tianshou torchrl agilerl rlcard)
[ "$#" -eq 0 ] || LIBRARIES=("$@")
START=$SECONDS
RAN=0
RUN_LIMIT_S=${RUN_LIMIT_S:-600}  # each run well under a minute: a library that hangs fails here, not at CI's limit

run() {  # run TITLE COMMAND...: one example or test, timed
  local title="$1" start=$SECONDS rc=0
  shift
  echo "== $title"
  timeout --kill-after=10 "$RUN_LIMIT_S" "$@" || rc=$?
  if [ "$rc" -ne 0 ]; then
    [ "$rc" -eq 124 ] && echo "== $title: still running after $RUN_LIMIT_S s, stopped" >&2
    echo "== $title: failed (exit status $rc)" >&2
    exit "$rc"
  fi
  echo "== $title: ok in $((SECONDS - start)) s"
  RAN=$((RAN + 1))
}

for library in "${LIBRARIES[@]}"; do
  start=$SECONDS
  case "$library" in
    main)
      setup_venv "train,openspiel"
      echo "== main venv ready in $((SECONDS - start)) s"
      run "CleanRL-style PPO (gymnasium.make_vec)" "$VENV/bin/python" examples/cleanrl_ppo.py
      run "OpenSpiel DQN" "$VENV/bin/python" examples/openspiel_dqn.py
      run "OpenSpiel ISMCTS" "$VENV/bin/python" examples/openspiel_ismcts.py
      ;;
    *)
      setup_library_venv "$library"
      echo "== .venvs/$library ready in $((SECONDS - start)) s"
      case "$library" in
        tianshou)
          export NUMBA_DISABLE_JIT=1  # Tianshou's numba kernels take ~40 s to compile, longer than these runs
          run "Tianshou: 50 games through PettingZooEnv" "$LIB_VENV/bin/python" -m pytest -q -p no:cacheprovider \
            tests/envs/test_library_rewards.py -k tianshou
          run "Tianshou DQN" "$LIB_VENV/bin/python" examples/tianshou_dqn.py
          ;;
        torchrl)
          run "TorchRL: 50 games through PettingZooWrapper" "$LIB_VENV/bin/python" -m pytest -q -p no:cacheprovider \
            tests/envs/test_library_rewards.py -k torchrl
          run "TorchRL REINFORCE" "$LIB_VENV/bin/python" examples/torchrl_reinforce.py
          ;;
        agilerl) run "AgileRL PPO" "$LIB_VENV/bin/python" examples/agilerl_ppo.py ;;
        rlcard) run "RLCard DMC" "$LIB_VENV/bin/python" examples/rlcard_dmc.py ;;
      esac
      ;;
  esac
done
echo "== examples: $RAN runs, all ok, in $((SECONDS - START)) s"
