# Sourced by main.sh, test.sh and examples.sh: create the virtualenvs once and install the project into them.
# torch goes first with an exact pin: a plain or open-range torch pulls a multi-GB CUDA build.
# The test extra's Playwright is pinned too (its driver speaks to the system's Chromium; no browser download).
# Ray and OpenSpiel get exact pins too when the extras ask for them (what the rllib backend and the OpenSpiel game
# are tested against), and so does ONNX Runtime: every shipped network plays through it, and another version may
# round differently and move a search's choices, so the published figures (the leaderboard's model:auto and guided
# entries) replay on the pinned one (1.32.0 replays the quick leaderboard's model:auto games exactly).
# Usage: setup_venv EXTRAS   (sets VENV, default .venv)
setup_venv() {
  VENV="${VENV:-.venv}"
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip
  "$VENV/bin/python" -m pip install -q "torch==2.13.0"
  case ",$1," in *,test,*) "$VENV/bin/python" -m pip install -q "playwright==1.65.2" ;; esac
  case ",$1," in *,docs,*) "$VENV/bin/python" -m pip install -q "mkdocs==1.6.1" "mkdocs-material==9.8.2" \
    "mkdocstrings==1.0.8" "mkdocstrings-python==2.0.11" ;; esac
  case ",$1," in *,rllib,*) "$VENV/bin/python" -m pip install -q "ray[rllib]==2.60.0" ;; esac
  case ",$1," in *,runtime,* | *,serve,* | *,test,*) "$VENV/bin/python" -m pip install -q "onnxruntime==1.32.0" ;; esac
  # OpenSpiel's PyTorch algorithms (examples/openspiel_dqn.py) import dm-tree, which open_spiel does not declare.
  case ",$1," in *,openspiel,*) "$VENV/bin/python" -m pip install -q "open_spiel==2.0.2" "dm-tree==0.1.10" ;; esac
  "$VENV/bin/python" -m pip install -q -e ".[$1]"
}

# The RL libraries of examples/ (scripts/examples.sh), pinned exactly, each in its own virtualenv .venvs/NAME: their
# pins clash with the main venv's and with each other's (Tianshou 2.0.1 wants pandas < 3; AgileRL 2.58.0 pettingzoo
# < 1.27 and tensordict 0.13, and imports peft and transformers without declaring them; TorchRL 0.14.1 tensordict
# 0.14; RLCard 1.2.0's DMC imports GitPython, its torch extra). pytest runs tests/envs/test_library_rewards.py there.
library_pins() {
  case "$1" in
    tianshou) echo "tianshou==2.0.1 pytest==9.2.0" ;;
    torchrl) echo "torchrl==0.14.1 tensordict==0.14.3 pytest==9.2.0" ;;
    agilerl) echo "agilerl==2.58.0 peft==0.21.0 transformers==5.14.1" ;;
    rlcard) echo "rlcard[torch]==1.2.0" ;;
    *) echo "no library venv named $1 (tianshou, torchrl, agilerl, rlcard)" >&2; return 1 ;;
  esac
}
# Usage: setup_library_venv NAME   (sets LIB_VENV=.venvs/NAME). torch first, exactly as setup_venv does; --no-compile
# because byte-compiling torch's sources takes most of a minute and a run imports a small part of them.
setup_library_venv() {
  local pins
  pins="$(library_pins "$1")"
  LIB_VENV=".venvs/$1"
  [ -x "$LIB_VENV/bin/python" ] || python3 -m venv "$LIB_VENV"
  "$LIB_VENV/bin/python" -m pip install -q --upgrade pip
  "$LIB_VENV/bin/python" -m pip install -q --no-compile "torch==2.13.0"
  # shellcheck disable=SC2086  # the pins are separate words
  "$LIB_VENV/bin/python" -m pip install -q --no-compile $pins -e .
}
