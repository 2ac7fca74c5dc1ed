# Sourced by main.sh and test.sh: create the virtualenv once and install the project into it.
# torch goes first with an exact pin: a plain or open-range torch pulls a multi-GB CUDA build.
# The test extra's Playwright is pinned too (its driver speaks to the system's Chromium; no browser download).
# Ray and OpenSpiel get exact pins too when the extras ask for them (what the rllib backend and the OpenSpiel game
# are tested against).
# Usage: setup_venv EXTRAS   (sets VENV, default .venv)
setup_venv() {
  VENV="${VENV:-.venv}"
  [ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install -q --upgrade pip
  "$VENV/bin/python" -m pip install -q "torch==2.13.0"
  case ",$1," in *,test,*) "$VENV/bin/python" -m pip install -q "playwright==1.65.2" ;; esac
  case ",$1," in *,rllib,*) "$VENV/bin/python" -m pip install -q "ray[rllib]==2.60.0" ;; esac
  case ",$1," in *,openspiel,*) "$VENV/bin/python" -m pip install -q "open_spiel==2.0.2" ;; esac
  "$VENV/bin/python" -m pip install -q -e ".[$1]"
}
