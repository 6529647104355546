#!/usr/bin/env bash
# Installs Fast Downward (PyPI `up-fast-downward`, which ships a native `downward` binary and
# the Python driver) in a virtual environment and prints the path of its driver
# `fast-downward.py` (set it as TABLERO_FAST_DOWNWARD to run the Fast Downward tests in
# tests/gvgai_pddl.rs and `tablero gvgai plan --planner fast-downward`).
set -euo pipefail
VENV="${1:-${TMPDIR:-/tmp}/tablero-fd-venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install -q 'up-fast-downward==1.0.0'
# The package's __init__ imports unified_planning (not a dependency): locate it without importing.
"$VENV/bin/python" - <<'PY'
import importlib.util, os
spec = importlib.util.find_spec("up_fast_downward")
print(os.path.join(list(spec.submodule_search_locations)[0], "downward", "fast-downward.py"))
PY
